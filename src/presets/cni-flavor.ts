import { calicoFlavor } from './_cni-calico';
import { ciliumFlavor } from './_cni-cilium';
import {
  CALICO_CNI_IMAGE, CALICO_NODE_IMAGE, CILIUM_IMAGE, FLANNEL_CNI_PLUGIN_IMAGE, FLANNEL_IMAGE, FlavorSpec,
} from './_cni-common';
import { flannelFlavor } from './_cni-flannel';
import { CalicoOptions, CiliumOptions, CniFlavorOptions, FlannelOptions } from './cni-flavor-options';
import { PresetAcknowledgement } from '../agent/_preset';
import {
  ACCESS_RULES, CONFIG_FILES, CONTAINER_SETTINGS, CONTAINERS, required, Shape, string, struct,
} from '../agent/_props-schema';
import { checkOptions } from '../agent/_validate';

/**
 * Which CNI node agent a `CniPlugin` runs: flannel (the default), Calico, Cilium, or your own.
 *
 * Each flavor follows the installer pattern: init containers write the plugin binaries to
 * `/opt/cni/bin` and the network configuration to `/etc/cni/net.d`, then the long-running agent runs
 * without write access to them. The Calico and Cilium flavors render the node agent only: install the
 * project's CRDs and its operator or controllers (calico-kube-controllers, cilium-operator) from its
 * own manifests, at the same version.
 */
export class CniFlavor {
  /** the flannel image of `flannel()`. */
  public static readonly FLANNEL_IMAGE = FLANNEL_IMAGE;
  /** the flannel CNI plugin installer image of `flannel()`. */
  public static readonly FLANNEL_CNI_PLUGIN_IMAGE = FLANNEL_CNI_PLUGIN_IMAGE;
  /** the calico/node image of `calico()`. */
  public static readonly CALICO_NODE_IMAGE = CALICO_NODE_IMAGE;
  /** the calico/cni installer image of `calico()`. */
  public static readonly CALICO_CNI_IMAGE = CALICO_CNI_IMAGE;
  /** the Cilium agent image of `cilium()`, pinned by tag and digest. */
  public static readonly CILIUM_IMAGE = CILIUM_IMAGE;

  /**
   * flannel, as its `kube-flannel.yml`: two installers (the flannel CNI binary, the CNI
   * configuration), then `flanneld --ip-masq --kube-subnet-mgr` as root with `NET_ADMIN` and `NET_RAW`
   * only, writing its lease to `/run/flannel`. Health on port 8081.
   */
  public static flannel(options: FlannelOptions = {}): CniFlavor {
    return CniFlavor.of(flannelFlavor(checkOptions('CniFlavor.flannel', options, FLANNEL_OPTIONS)));
  }

  /**
   * A Calico-style node agent (calico/node with the Kubernetes datastore, BGP and IP-in-IP), as
   * Calico's `calico.yaml` manifest: the calico/cni installer writes the binaries and configuration,
   * then calico/node runs **privileged**, with the reason (it programs routes, iptables, sysctls and
   * BIRD's BGP sessions; upstream runs it privileged), and refreshes the CNI plugin's kubeconfig in
   * `/etc/cni/net.d` (read-write, with the reason). Both keep upstream's writable root filesystem
   * (confd renders BIRD's configuration into the image), acknowledged in the review with that reason.
   */
  public static calico(options: CalicoOptions = {}): CniFlavor {
    return CniFlavor.of(calicoFlavor(checkOptions('CniFlavor.calico', options, CALICO_OPTIONS)));
  }

  /**
   * A Cilium-style agent (Kubernetes IPAM, VXLAN tunnel, kube-proxy kept), as Cilium's chart in its
   * unprivileged mode: `cilium-agent` with the chart's explicit capability list (each with its reason)
   * instead of privileged, less `SYS_MODULE` (the kernel loads the vxlan module on demand), installers for the `cilium-cni` binary and the CNI configuration, BPF
   * maps pinned in `/sys/fs/bpf`, networking sysctls written through `/proc/sys/net` and
   * `/proc/sys/kernel` mounts. The configuration is a ConfigMap read with `--config-dir`.
   * SELinux `spc_t` and the AppArmor override that the chart adds are not set: add them for nodes
   * that enforce SELinux or AppArmor.
   */
  public static cilium(options: CiliumOptions = {}): CniFlavor {
    return CniFlavor.of(ciliumFlavor(checkOptions('CniFlavor.cilium', options, CILIUM_OPTIONS)));
  }

  /**
   * Your own CNI agent: give its image, installers, mounts, privileges (each with its reason) and
   * permissions. The `CniPlugin` adds the host network, `system-node-critical`, tolerations for every
   * taint and the `/run/xtables.lock` mount around it.
   */
  public static custom(options: CniFlavorOptions): CniFlavor {
    if (options === undefined || options === null) {
      throw new Error("CniFlavor.custom: options are required: give at least the name and the image, e.g. { name: 'my-cni', image: 'registry.example.com/my-cni:1.0.0' }");
    }
    const o = checkOptions<CniFlavorOptions>('CniFlavor.custom', options, CUSTOM_OPTIONS);
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(o.name)) {
      throw new Error(`CniFlavor.custom: name "${o.name}" is invalid: use lowercase letters, digits and '-', e.g. "my-cni"`);
    }
    return new CniFlavor(o, []);
  }

  private static of(spec: FlavorSpec): CniFlavor {
    return new CniFlavor(spec.options, spec.acknowledgements);
  }

  /** the flavor's name, e.g. `flannel`. */
  public readonly name: string;
  /** what the flavor sets. */
  public readonly options: CniFlavorOptions;
  /**
   * The security-review findings the flavor's own defaults cause, accepted with their reasons.
   * @internal
   */
  public readonly _acknowledgements: PresetAcknowledgement[];

  private constructor(options: CniFlavorOptions, acknowledgements: PresetAcknowledgement[]) {
    this.name = options.name;
    this.options = options;
    this._acknowledgements = acknowledgements;
  }
}

const FLANNEL_OPTIONS: Shape = struct('FlannelOptions', {
  podNetwork: string("'10.244.0.0/16'"), backend: string("'vxlan'"), image: string(), cniPluginImage: string(),
}, { example: "{ podNetwork: '10.244.0.0/16' }" });
const CALICO_OPTIONS: Shape = struct('CalicoOptions', { podNetwork: string("'192.168.0.0/16'"), image: string(), cniImage: string() }, {
  example: "{ podNetwork: '192.168.0.0/16' }",
});
const CILIUM_OPTIONS: Shape = struct('CiliumOptions', { clusterName: string("'default'"), image: string() }, { example: "{ clusterName: 'default' }" });
const CUSTOM_OPTIONS: Shape = struct('CniFlavorOptions', {
  ...CONTAINER_SETTINGS,
  name: required(string("'my-cni'"), "name the flavor, e.g. { name: 'my-cni', image: 'registry.example.com/my-cni:1.0.0' }"),
  image: required(string("'registry.example.com/my-cni:1.0.0'"), "give the agent's image, e.g. { name: 'my-cni', image: 'registry.example.com/my-cni:1.0.0' }"),
  installers: CONTAINERS,
  clusterPermissions: ACCESS_RULES,
  configFiles: CONFIG_FILES,
  configMountPath: string("'/etc/my-cni'"),
}, { example: "{ name: 'my-cni', image: 'registry.example.com/my-cni:1.0.0' }" });
