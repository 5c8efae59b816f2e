// kubeadm-kube-proxy prints the kube-proxy addon exactly as kubeadm applies it on `kubeadm init`: the ServiceAccount,
// the ClusterRoleBinding to system:node-proxier, the Role and RoleBinding that let joining nodes read the ConfigMap, the
// ConfigMap (kubeconfig and KubeProxyConfiguration) and the DaemonSet, rendered by kubeadm's own code
// (k8s.io/kubernetes/cmd/kubeadm/app/phases/addons/proxy, EnsureProxyAddon with printManifest, which is what
// `kubeadm init phase addon kube-proxy --print-manifest` runs) from kubeadm's own static defaults
// (configutil.DefaultedStaticInitConfiguration, what `kubeadm config print init-defaults` prints: image repository
// registry.k8s.io, advertise address placeholder 1.2.3.4, port 6443, kube-proxy's defaulted component config).
//
// The one value given is the Kubernetes version (argument 1, as `--kubernetes-version`), which names the image tag:
// the static defaults would otherwise take it from linker flags this build does not set.
//
// usage: kubeadm-kube-proxy v1.37.2 > kube-proxy.yaml
package main

import (
	"fmt"
	"os"

	"k8s.io/kubernetes/cmd/kubeadm/app/phases/addons/proxy"
	configutil "k8s.io/kubernetes/cmd/kubeadm/app/util/config"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: kubeadm-kube-proxy <kubernetes version, e.g. v1.37.2>")
		os.Exit(2)
	}
	cfg, err := configutil.DefaultedStaticInitConfiguration()
	if err != nil {
		fmt.Fprintf(os.Stderr, "kubeadm's static defaults: %v\n", err)
		os.Exit(1)
	}
	cfg.ClusterConfiguration.KubernetesVersion = os.Args[1]
	// no client: with printManifest, kubeadm prints the objects and creates nothing
	if err := proxy.EnsureProxyAddon(&cfg.ClusterConfiguration, &cfg.LocalAPIEndpoint, nil, "", os.Stdout, true); err != nil {
		fmt.Fprintf(os.Stderr, "kubeadm's kube-proxy addon: %v\n", err)
		os.Exit(1)
	}
}
