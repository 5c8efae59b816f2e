# The README's Python Quick start (its lines, in order: .ci/consumers.sh checks), one preset and the app-wide
# security check: the same app as ../typescript/main.ts. CI installs the wheel from dist/python into a fresh
# virtualenv, synthesizes this app and requires YAML identical, byte for byte, to the TypeScript app's.
from cdk8s import App, Chart
from cdk8s_plus_28 import Capability
from cdk8s_node_agents import CapabilityGrant, HostMount, Justification, NodeAgent, Toleration
from cdk8s_node_agents import LogCollector, LogOutput, SecurityCheck

app = App()
chart = Chart(app, "observability")

NodeAgent(
    chart,
    "node-agent",
    namespace="observability",
    image="registry.example.com/node-agent:1.2.0",
    tolerations=[Toleration.control_plane()],
    capabilities=[CapabilityGrant(capability=Capability.NET_ADMIN, reason="manages the node network only")],
    run_as_root=Justification(reason="NET_ADMIN takes effect only for root (Kubernetes sets no ambient capabilities); every other capability is dropped"),
    host_mounts=[HostMount.read_only("/var/log", reason="reads node and container logs")],
)

LogCollector(
    chart,
    "fluent-bit",
    namespace="logging",
    output=LogOutput.loki("http://loki-gateway.logging.svc"),
)

SecurityCheck.apply(app)
app.synth()
