module example.com/cdk8s-node-agents-consumer

go 1.25

require (
	example.com/cdk8s-node-agents-go/cdk8snodeagents v0.0.0
	github.com/aws/jsii-runtime-go v1.140.0
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 v2.70.106
	github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2 v2.5.6
)

// the package as `npx projen package:go` builds it; a user requires the published module instead.
replace example.com/cdk8s-node-agents-go/cdk8snodeagents => ../../../dist/go/cdk8snodeagents
