// The README's Quick start agent, one preset and the app-wide security check, in Go: the same app as
// ../typescript/main.ts, built against the Go module that `npx projen package:go` writes to dist/go (see go.mod's
// replace). Its YAML must be identical, byte for byte, to the TypeScript app's (.ci/consumers.sh).
package main

import (
	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
	"github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2"

	"example.com/cdk8s-node-agents-go/cdk8snodeagents"
)

func main() {
	app := cdk8s.NewApp(nil)
	chart := cdk8s.NewChart(app, jsii.String("observability"), nil)

	cdk8snodeagents.NewNodeAgent(chart, jsii.String("node-agent"), &cdk8snodeagents.NodeAgentProps{
		Namespace:   jsii.String("observability"),
		Image:       jsii.String("registry.example.com/node-agent:1.2.0"),
		Tolerations: &[]cdk8snodeagents.Toleration{cdk8snodeagents.Toleration_ControlPlane()},
		Capabilities: &[]*cdk8snodeagents.CapabilityGrant{
			{Capability: cdk8splus28.Capability_NET_ADMIN, Reason: jsii.String("manages the node network only")},
		},
		RunAsRoot: &cdk8snodeagents.Justification{Reason: jsii.String("NET_ADMIN takes effect only for root (Kubernetes sets no ambient capabilities); every other capability is dropped")},
		HostMounts: &[]cdk8snodeagents.HostMount{
			cdk8snodeagents.HostMount_ReadOnly(jsii.String("/var/log"), &cdk8snodeagents.ReadOnlyHostMountOptions{
				Reason: jsii.String("reads node and container logs"),
			}),
		},
	})

	cdk8snodeagents.NewLogCollector(chart, jsii.String("fluent-bit"), &cdk8snodeagents.LogCollectorProps{
		Namespace: jsii.String("logging"),
		Output:    cdk8snodeagents.LogOutput_Loki(jsii.String("http://loki-gateway.logging.svc")),
	})

	cdk8snodeagents.SecurityCheck_Apply(app, nil)
	app.Synth()
}
