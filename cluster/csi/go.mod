// The CSI test programs of the real node (cluster/images.js builds each into its own image): a CSI node driver that
// mounts a tmpfs per ephemeral volume, a registrar speaking the kubelet's plugin-registration API, and a livenessprobe.
// They are this project's own test programs, written because the Go module proxy refuses the upstream ones
// (github.com/kubernetes-csi/node-driver-registrar, livenessprobe, csi-driver-host-path: 403 at every version tried);
// they take the upstream programs' flags as CsiNodePlugin renders them. Only served modules, at the versions the
// kubelet of cluster/go.mod is built with where both use one (grpc, protobuf, k8s.io/kubelet).
module cdk8s-node-agents/cluster/csi

go 1.26.0

require (
	github.com/container-storage-interface/spec v1.13.0
	google.golang.org/grpc v1.82.1
	k8s.io/kubelet v0.37.2
)

require (
	golang.org/x/net v0.57.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/text v0.40.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260526163538-3dc84a4a5aaa // indirect
	google.golang.org/protobuf v1.36.12-0.20260120151049-f2248ac996af // indirect
)
