// The README's Quick start (its lines, in order: .ci/consumers.sh checks), one preset and the app-wide security
// check: the reference for the same app in the other jsii languages (../python, ../java, ../go). CI synthesizes each
// one that can be built here and requires the same YAML, byte for byte (.ci/consumers.sh).
import { App, Chart } from 'cdk8s';
import { Capability } from 'cdk8s-plus-28';
import { HostMount, NodeAgent, Toleration } from 'cdk8s-node-agents';
import { LogCollector, LogOutput, SecurityCheck } from 'cdk8s-node-agents';

const app = new App();
const chart = new Chart(app, 'observability');

new NodeAgent(chart, 'node-agent', {
  namespace: 'observability',
  image: 'registry.example.com/node-agent:1.2.0',
  tolerations: [Toleration.controlPlane()],
  capabilities: [{ capability: Capability.NET_ADMIN, reason: 'manages the node network only' }],
  runAsRoot: { reason: 'NET_ADMIN takes effect only for root (Kubernetes sets no ambient capabilities); every other capability is dropped' },
  hostMounts: [HostMount.readOnly('/var/log', { reason: 'reads node and container logs' })],
});

new LogCollector(chart, 'fluent-bit', {
  namespace: 'logging',
  output: LogOutput.loki('http://loki-gateway.logging.svc'),
});

SecurityCheck.apply(app);
app.synth();
