import { AccessRule, AgentContainerProps, ContainerSettings } from '../agent';

/**
 * A CNI flavor: the images, installers, mounts, privileges and permissions of one kind of CNI node
 * agent. Built with `custom()` it carries whatever you give it; `flannel()`, `calico()` and
 * `cilium()` are ready-made.
 */
export interface CniFlavorOptions extends ContainerSettings {
  /** a short name for the flavor, e.g. `flannel`. */
  readonly name: string;

  /** the long-running agent's image, pinned. */
  readonly image: string;

  /**
   * Init containers that install the CNI plugin on the node: they write the plugin binaries to
   * `/opt/cni/bin` and the network configuration to `/etc/cni/net.d` (read-write mounts, each with its
   * reason), so the long-running agent never needs those directories writable.
   *
   * @default - none
   */
  readonly installers?: AgentContainerProps[];

  /**
   * Cluster-wide RBAC rules of the agent.
   *
   * @default - node-level rules: pods get; nodes get, list, watch; nodes/status patch
   */
  readonly clusterPermissions?: AccessRule[];

  /**
   * Configuration files, put in the agent's ConfigMap (installers can mount them with
   * `configMountPath`).
   *
   * @default - none
   */
  readonly configFiles?: { [fileName: string]: string };

  /**
   * Where the configuration files are mounted in the agent.
   *
   * @default - `/etc/<agent name>`
   */
  readonly configMountPath?: string;
}

/**
 * Options for `CniFlavor.flannel()`.
 */
export interface FlannelOptions {
  /**
   * The cluster's pod network: must contain every node's `spec.podCIDR` (flannel runs with
   * `--kube-subnet-mgr`, so the controller manager must allocate node CIDRs).
   *
   * @default '10.244.0.0/16'
   */
  readonly podNetwork?: string;

  /**
   * The flannel backend, e.g. `vxlan`, `host-gw` or `wireguard`.
   *
   * @default 'vxlan'
   */
  readonly backend?: string;

  /**
   * The flannel image.
   *
   * @default CniFlavor.FLANNEL_IMAGE
   */
  readonly image?: string;

  /**
   * The image of the flannel CNI plugin binary installer.
   *
   * @default CniFlavor.FLANNEL_CNI_PLUGIN_IMAGE
   */
  readonly cniPluginImage?: string;
}

/**
 * Options for `CniFlavor.calico()`.
 */
export interface CalicoOptions {
  /**
   * The default IPv4 pool Calico creates (`CALICO_IPV4POOL_CIDR`), IP-in-IP encapsulated.
   *
   * @default '192.168.0.0/16'
   */
  readonly podNetwork?: string;

  /**
   * The calico/node image.
   *
   * @default CniFlavor.CALICO_NODE_IMAGE
   */
  readonly image?: string;

  /**
   * The calico/cni installer image.
   *
   * @default CniFlavor.CALICO_CNI_IMAGE
   */
  readonly cniImage?: string;
}

/**
 * Options for `CniFlavor.cilium()`.
 */
export interface CiliumOptions {
  /**
   * The Cilium cluster name (unique per cluster in a cluster mesh).
   *
   * @default 'default'
   */
  readonly clusterName?: string;

  /**
   * The Cilium agent image, pinned by tag and digest as Cilium's chart does.
   *
   * @default CniFlavor.CILIUM_IMAGE
   */
  readonly image?: string;
}
