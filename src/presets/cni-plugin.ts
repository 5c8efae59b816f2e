import { Duration, Size } from 'cdk8s';
import type { Capability } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  AccessRule, AgentContainerProps, AgentProbe, ContainerSettings, HostMount, NodeAgent, NodeAgentProps, NodeAgentSettings, Toleration,
} from '../agent';
import { kplus } from '../agent/_plus';
import { PresetAcknowledgement, acknowledgeDefaults, presetFail, withPresetDefaults, withoutKeys } from '../agent/_preset';

const CNI_BIN_DIR = '/opt/cni/bin';
const CNI_CONF_DIR = '/etc/cni/net.d';
const IPV4_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/**
 * What every CNI node agent needs from the API server: its Node (pod CIDR, addresses), the right to
 * report the node's network status, and its own pod.
 */
const NODE_LEVEL_RBAC: AccessRule[] = [
  { resources: ['pods'], verbs: ['get'] },
  { resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
  { resources: ['nodes/status'], verbs: ['patch'] },
];

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
  public static readonly FLANNEL_IMAGE = 'ghcr.io/flannel-io/flannel:v0.28.9';
  /** the flannel CNI plugin installer image of `flannel()`. */
  public static readonly FLANNEL_CNI_PLUGIN_IMAGE = 'ghcr.io/flannel-io/flannel-cni-plugin:v1.9.1-flannel3';
  /** the calico/node image of `calico()`. */
  public static readonly CALICO_NODE_IMAGE = 'quay.io/calico/node:v3.31.3';
  /** the calico/cni installer image of `calico()`. */
  public static readonly CALICO_CNI_IMAGE = 'quay.io/calico/cni:v3.31.3';
  /** the Cilium agent image of `cilium()`, pinned by tag and digest. */
  public static readonly CILIUM_IMAGE = 'quay.io/cilium/cilium:v1.18.3@sha256:5649db451c88d928ea585514746d50d91e6210801b300c897283ea319d68de15';

  /**
   * flannel, as its `kube-flannel.yml`: two installers (the flannel CNI binary, the CNI
   * configuration), then `flanneld --ip-masq --kube-subnet-mgr` as root with `NET_ADMIN` and `NET_RAW`
   * only, writing its lease to `/run/flannel`. Health on port 8081.
   */
  public static flannel(options: FlannelOptions = {}): CniFlavor {
    const podNetwork = options.podNetwork ?? '10.244.0.0/16';
    checkCidr('CniFlavor.flannel: podNetwork', podNetwork);
    const backend = options.backend ?? 'vxlan';
    if (!/^[a-z0-9-]+$/.test(backend)) {
      throw new Error(`CniFlavor.flannel: backend "${backend}" is not a flannel backend type: use e.g. "vxlan", "host-gw" or "wireguard"`);
    }
    const image = options.image ?? CniFlavor.FLANNEL_IMAGE;
    const configDir = '/etc/kube-flannel';
    const cniConf = {
      name: 'cbr0',
      cniVersion: '0.3.1',
      plugins: [
        { type: 'flannel', delegate: { hairpinMode: true, isDefaultGateway: true } },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    };
    const netConf = { Network: podNetwork, EnableNFTables: false, Backend: { Type: backend } };
    const installerResources = { cpuRequest: kplus().Cpu.millis(10), memoryRequest: Size.mebibytes(16), memoryLimit: Size.mebibytes(32) };
    return new CniFlavor({
      name: 'flannel',
      image,
      command: ['/opt/bin/flanneld'],
      args: ['--ip-masq', '--kube-subnet-mgr', '--healthz-port=8081'],
      env: { EVENT_QUEUE_DEPTH: '5000', CONT_WHEN_CACHE_NOT_READY: 'false' },
      runAsRoot: { reason: 'flanneld configures the node\'s network, which its added capabilities allow only to root (Kubernetes grants no ambient capabilities)' },
      capabilities: [
        { capability: kplus().Capability.NET_ADMIN, reason: 'creates the overlay interface and routes and programs the masquerading rules' },
        { capability: kplus().Capability.NET_RAW, reason: 'iptables opens raw sockets to program the masquerading rules' },
      ],
      hostMounts: [
        HostMount.readWrite('/run/flannel', 'writes subnet.env, the node\'s lease that the flannel CNI binary reads on the host for every new pod', {
          type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
        }),
      ],
      configFiles: {
        'cni-conf.json': `${JSON.stringify(cniConf, undefined, 2)}\n`,
        'net-conf.json': `${JSON.stringify(netConf, undefined, 2)}\n`,
      },
      configMountPath: configDir,
      installers: [
        {
          name: 'install-cni-plugin',
          image: options.cniPluginImage ?? CniFlavor.FLANNEL_CNI_PLUGIN_IMAGE,
          command: ['cp'],
          args: ['-f', '/flannel', `${CNI_BIN_DIR}/flannel`],
          runAsRoot: { reason: 'writes into the root-owned /opt/cni/bin; every capability is dropped' },
          hostMounts: [cniBinMount(CNI_BIN_DIR)],
          resources: installerResources,
        },
        {
          name: 'install-cni',
          image,
          command: ['cp'],
          args: ['-f', `${configDir}/cni-conf.json`, `${CNI_CONF_DIR}/10-flannel.conflist`],
          runAsRoot: { reason: 'writes into the root-owned /etc/cni/net.d; every capability is dropped' },
          hostMounts: [cniConfMount(CNI_CONF_DIR)],
          configMountPath: configDir,
          resources: installerResources,
        },
      ],
      clusterPermissions: NODE_LEVEL_RBAC,
      liveness: AgentProbe.httpGet('/healthz', { port: 8081, initialDelay: Duration.seconds(10), period: Duration.seconds(30) }),
      readiness: AgentProbe.httpGet('/healthz', { port: 8081, initialDelay: Duration.seconds(5), period: Duration.seconds(10) }),
      resources: { cpuRequest: kplus().Cpu.millis(100), memoryRequest: Size.mebibytes(64), memoryLimit: Size.mebibytes(128) },
    }, [
      {
        rule: 'NA-HOSTPATH-SENSITIVE',
        reason: 'flanneld writes only its own lease under /run/flannel (subnet.env), which the flannel CNI binary reads for every new pod',
        unless: ['hostMounts'],
      },
      {
        rule: 'NA-HOSTPATH-SENSITIVE',
        reason: 'the install-cni-plugin init container writes only the flannel binary into /opt/cni/bin and exits; the long-running agent never mounts it',
        unless: ['initContainers'],
        container: 'install-cni-plugin',
      },
    ]);
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
    const podNetwork = options.podNetwork ?? '192.168.0.0/16';
    checkCidr('CniFlavor.calico: podNetwork', podNetwork);
    const cniNetworkConfig = {
      name: 'k8s-pod-network',
      cniVersion: '0.3.1',
      plugins: [
        {
          type: 'calico',
          log_level: 'info',
          log_file_path: '/var/log/calico/cni/cni.log',
          datastore_type: 'kubernetes',
          nodename: '__KUBERNETES_NODE_NAME__',
          mtu: '__CNI_MTU__',
          ipam: { type: 'calico-ipam' },
          policy: { type: 'k8s' },
          kubernetes: { kubeconfig: '__KUBECONFIG_FILEPATH__' },
        },
        { type: 'portmap', snat: true, capabilities: { portMappings: true } },
        { type: 'bandwidth', capabilities: { bandwidth: true } },
      ],
    };
    const crd = 'crd.projectcalico.org';
    const privileged = 'calico/node programs routes, iptables and sysctls and runs BIRD\'s BGP sessions for the node; upstream runs it privileged';
    return new CniFlavor({
      name: 'calico',
      image: options.image ?? CniFlavor.CALICO_NODE_IMAGE,
      env: {
        DATASTORE_TYPE: 'kubernetes',
        WAIT_FOR_DATASTORE: 'true',
        NODENAME: '$(NODE_NAME)',
        CALICO_NETWORKING_BACKEND: 'bird',
        CLUSTER_TYPE: 'k8s,bgp',
        IP: 'autodetect',
        CALICO_IPV4POOL_CIDR: podNetwork,
        CALICO_IPV4POOL_IPIP: 'Always',
        CALICO_IPV4POOL_VXLAN: 'Never',
        CALICO_DISABLE_FILE_LOGGING: 'true',
        FELIX_DEFAULTENDPOINTTOHOSTACTION: 'ACCEPT',
        FELIX_IPV6SUPPORT: 'false',
        FELIX_HEALTHENABLED: 'true',
      },
      privileged: { reason: privileged },
      runAsRoot: { reason: 'calico/node manages the node\'s network as root' },
      hostMounts: [
        HostMount.readOnly('/lib/modules', { reason: 'checks which kernel modules (ipip, iptables) are available' }),
        HostMount.readWrite('/var/run/calico', 'keeps felix\'s and BIRD\'s runtime state and sockets', { type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE }),
        HostMount.readWrite('/var/lib/calico', 'records the node\'s name and addresses for the Calico CNI binary on the host', { type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE }),
        HostMount.readWrite(CNI_CONF_DIR, 'refreshes the ServiceAccount token in the calico-kubeconfig that the Calico CNI binary uses', {
          type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
          mountPath: `/host${CNI_CONF_DIR}`,
        }),
      ],
      readOnlyRootFilesystem: false,
      installers: [{
        name: 'install-cni',
        image: options.cniImage ?? CniFlavor.CALICO_CNI_IMAGE,
        command: ['/opt/cni/bin/install'],
        env: {
          CNI_CONF_NAME: '10-calico.conflist',
          CNI_NETWORK_CONFIG: JSON.stringify(cniNetworkConfig).replace('"__CNI_MTU__"', '__CNI_MTU__'),
          KUBERNETES_NODE_NAME: '$(NODE_NAME)',
          CNI_MTU: '0',
          SLEEP: 'false',
        },
        runAsRoot: { reason: 'writes the Calico binaries and configuration into the root-owned CNI directories; every capability is dropped' },
        readOnlyRootFilesystem: false,
        hostMounts: [cniBinMount(`/host${CNI_BIN_DIR}`), cniConfMount(`/host${CNI_CONF_DIR}`)],
        resources: { cpuRequest: kplus().Cpu.millis(10), memoryRequest: Size.mebibytes(32), memoryLimit: Size.mebibytes(64) },
      }],
      clusterPermissions: [
        ...NODE_LEVEL_RBAC,
        { resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
        { resources: ['pods', 'serviceaccounts'], verbs: ['list', 'watch'] },
        { resources: ['pods/status'], verbs: ['patch'] },
        { resources: ['endpoints', 'services'], verbs: ['get', 'list', 'watch'] },
        { resources: ['configmaps'], verbs: ['get'] },
        { resources: ['nodes/status'], verbs: ['update'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
        { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['list', 'watch'] },
        {
          apiGroups: [crd],
          resources: [
            'bgpconfigurations', 'bgpfilters', 'bgppeers', 'blockaffinities', 'caliconodestatuses', 'clusterinformations',
            'felixconfigurations', 'globalbgpconfigs', 'globalfelixconfigs', 'globalnetworkpolicies', 'globalnetworksets',
            'hostendpoints', 'ipamblocks', 'ippools', 'ipreservations', 'networkpolicies', 'networksets', 'tiers',
          ],
          verbs: ['get', 'list', 'watch'],
        },
        { apiGroups: [crd], resources: ['bgpconfigurations', 'bgppeers', 'clusterinformations', 'felixconfigurations', 'ippools'], verbs: ['create', 'update'] },
        { apiGroups: [crd], resources: ['caliconodestatuses'], verbs: ['update'] },
        { apiGroups: [crd], resources: ['blockaffinities', 'ipamblocks', 'ipamhandles'], verbs: ['get', 'list', 'create', 'update', 'delete'] },
        { apiGroups: [crd], resources: ['ipamconfigs'], verbs: ['get', 'create'] },
        { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get'] },
      ],
      liveness: AgentProbe.exec(['/bin/calico-node', '-felix-live', '-bird-live'], {
        initialDelay: Duration.seconds(10), period: Duration.seconds(10), timeout: Duration.seconds(10), failureThreshold: 6,
      }),
      readiness: AgentProbe.exec(['/bin/calico-node', '-felix-ready', '-bird-ready'], { period: Duration.seconds(10), timeout: Duration.seconds(10) }),
      resources: { cpuRequest: kplus().Cpu.millis(250), memoryRequest: Size.mebibytes(256), memoryLimit: Size.mebibytes(512) },
    }, [
      { rule: 'NA-PRIVILEGED', reason: privileged, unless: ['privileged'] },
      { rule: 'PSS-BASELINE-privileged', reason: privileged, unless: ['privileged'], pod: true },
      {
        rule: 'NA-PRIVILEGE-ESCALATION',
        reason: 'a privileged container can escalate by definition, and the API server rejects allowPrivilegeEscalation: false beside privileged',
        unless: ['privileged'],
      },
      {
        rule: 'NA-HOSTPATH-SENSITIVE',
        reason: 'calico/node writes only its own state and sockets under /var/run/calico and the CNI kubeconfig in /etc/cni/net.d',
        unless: ['hostMounts'],
      },
      {
        rule: 'NA-HOSTPATH-SENSITIVE',
        reason: 'the install-cni init container writes only the Calico binaries into /opt/cni/bin and exits; the long-running agent never mounts it',
        unless: ['initContainers'],
        container: 'install-cni',
      },
      {
        rule: 'NA-READONLY-ROOTFS',
        reason: 'calico/node renders BIRD\'s and felix\'s configuration into its image (confd); upstream runs it with a writable root filesystem',
        unless: ['readOnlyRootFilesystem'],
      },
      {
        rule: 'NA-READONLY-ROOTFS',
        reason: 'the Calico installer stages its files in its image before copying them; upstream runs it with a writable root filesystem',
        unless: ['initContainers'],
        container: 'install-cni',
      },
    ]);
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
    const clusterName = options.clusterName ?? 'default';
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(clusterName) || clusterName.length > 32) {
      throw new Error(`CniFlavor.cilium: clusterName "${clusterName}" is invalid: use at most 32 lowercase letters, digits and '-', e.g. "default"`);
    }
    const image = options.image ?? CniFlavor.CILIUM_IMAGE;
    const configDir = '/tmp/cilium/config-map';
    const cniConf = { cniVersion: '0.3.1', name: 'cilium', plugins: [{ 'type': 'cilium-cni', 'enable-debug': false, 'log-file': '/var/run/cilium/cilium-cni.log' }] };
    const cap = (capability: Capability, reason: string) => ({ capability, reason });
    const statusProbe = ['cilium-dbg', 'status', '--brief'];
    const cilium = 'cilium.io';
    return new CniFlavor({
      name: 'cilium',
      image,
      command: ['cilium-agent'],
      args: [`--config-dir=${configDir}`],
      env: { K8S_NODE_NAME: '$(NODE_NAME)', CILIUM_K8S_NAMESPACE: '$(POD_NAMESPACE)' },
      runAsRoot: { reason: 'cilium-agent manages the node\'s datapath, which its added capabilities allow only to root (Kubernetes grants no ambient capabilities)' },
      capabilities: [
        cap(kplus().Capability.CHOWN, 'sets the owner of the API socket and of the state it keeps'),
        cap(kplus().Capability.KILL, 'signals the proxy and health processes it starts'),
        cap(kplus().Capability.NET_ADMIN, 'creates interfaces, routes and neighbour entries and attaches BPF programs to them'),
        cap(kplus().Capability.NET_RAW, 'opens raw sockets for health checks and the iptables rules it keeps'),
        cap(kplus().Capability.IPC_LOCK, 'locks memory for BPF maps'),
        cap(kplus().Capability.SYS_ADMIN, 'loads BPF programs and mounts the BPF filesystem on kernels without CAP_BPF'),
        cap(kplus().Capability.SYS_RESOURCE, 'raises the memlock limit for BPF maps'),
        cap(kplus().Capability.DAC_OVERRIDE, 'reads and writes its state files whatever their owner'),
        cap(kplus().Capability.FOWNER, 'changes permissions of files it does not own in its state directory'),
        cap(kplus().Capability.SETGID, 'starts the proxy under its own group'),
        cap(kplus().Capability.SETUID, 'starts the proxy under its own user'),
      ],
      hostMounts: [
        HostMount.readWrite('/var/run/cilium', 'keeps endpoint state and the API socket that the cilium-cni binary calls on the host', {
          type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
        }),
        HostMount.readWrite('/sys/fs/bpf', 'pins BPF maps and programs so the datapath survives agent restarts', {
          type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
          propagation: kplus().MountPropagation.HOST_TO_CONTAINER,
        }),
        HostMount.readOnly('/sys/fs/cgroup', {
          mountPath: '/run/cilium/cgroupv2',
          propagation: kplus().MountPropagation.HOST_TO_CONTAINER,
          reason: 'attaches socket load-balancing programs to the root cgroup',
        }),
        HostMount.readOnly('/lib/modules', { reason: 'checks which kernel modules are available' }),
        HostMount.readWrite('/proc/sys/net', 'sets the networking sysctls of its interfaces (forwarding, rp_filter)', { mountPath: '/host/proc/sys/net' }),
        HostMount.readWrite('/proc/sys/kernel', 'sets the kernel sysctls the datapath needs (e.g. unprivileged BPF off)', { mountPath: '/host/proc/sys/kernel' }),
      ],
      scratchDirs: ['/tmp'],
      configFiles: {
        'identity-allocation-mode': 'crd',
        'cluster-name': clusterName,
        'cluster-id': '0',
        'ipam': 'kubernetes',
        'routing-mode': 'tunnel',
        'tunnel-protocol': 'vxlan',
        'enable-ipv4': 'true',
        'enable-ipv6': 'false',
        'kube-proxy-replacement': 'false',
        'cni-exclusive': 'false',
        'bpf-root': '/sys/fs/bpf',
        'cgroup-root': '/run/cilium/cgroupv2',
        'procfs': '/host/proc',
        '05-cilium.conflist': `${JSON.stringify(cniConf, undefined, 2)}\n`,
      },
      configMountPath: configDir,
      installers: [
        {
          name: 'install-cni-binaries',
          image,
          command: ['/install-plugin.sh'],
          runAsRoot: { reason: 'writes the cilium-cni binary into the root-owned /opt/cni/bin; every capability is dropped' },
          hostMounts: [cniBinMount(`/host${CNI_BIN_DIR}`)],
          resources: { cpuRequest: kplus().Cpu.millis(100), memoryRequest: Size.mebibytes(16), memoryLimit: Size.mebibytes(64) },
        },
        {
          name: 'install-cni-config',
          image,
          command: ['cp'],
          args: ['-f', '/etc/cilium-cni/05-cilium.conflist', `/host${CNI_CONF_DIR}/05-cilium.conflist`],
          runAsRoot: { reason: 'writes the CNI configuration into the root-owned /etc/cni/net.d; every capability is dropped' },
          hostMounts: [cniConfMount(`/host${CNI_CONF_DIR}`)],
          configMountPath: '/etc/cilium-cni',
          resources: { cpuRequest: kplus().Cpu.millis(10), memoryRequest: Size.mebibytes(16), memoryLimit: Size.mebibytes(32) },
        },
      ],
      clusterPermissions: [
        ...NODE_LEVEL_RBAC,
        { resources: ['namespaces', 'services', 'pods', 'endpoints'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get', 'list', 'watch'] },
        {
          apiGroups: [cilium],
          resources: [
            'ciliumcidrgroups', 'ciliumclusterwideenvoyconfigs', 'ciliumclusterwidenetworkpolicies', 'ciliumegressgatewaypolicies',
            'ciliumendpoints', 'ciliumendpointslices', 'ciliumenvoyconfigs', 'ciliumidentities', 'ciliumlocalredirectpolicies',
            'ciliumnetworkpolicies', 'ciliumnodeconfigs', 'ciliumnodes', 'ciliumpodippools',
          ],
          verbs: ['list', 'watch'],
        },
        { apiGroups: [cilium], resources: ['ciliumendpoints', 'ciliumidentities', 'ciliumnodes'], verbs: ['create'] },
        { apiGroups: [cilium], resources: ['ciliumidentities'], verbs: ['update'] },
        { apiGroups: [cilium], resources: ['ciliumendpoints'], verbs: ['delete', 'get'] },
        { apiGroups: [cilium], resources: ['ciliumnodes', 'ciliumnodes/status'], verbs: ['get', 'update'] },
        { apiGroups: [cilium], resources: ['ciliumendpoints', 'ciliumendpoints/status'], verbs: ['patch'] },
      ],
      startup: AgentProbe.exec(statusProbe, { period: Duration.seconds(2), timeout: Duration.seconds(5), failureThreshold: 105 }),
      liveness: AgentProbe.exec(statusProbe, { period: Duration.seconds(30), timeout: Duration.seconds(5), failureThreshold: 10 }),
      readiness: AgentProbe.exec(statusProbe, { period: Duration.seconds(30), timeout: Duration.seconds(5), failureThreshold: 3 }),
      resources: { cpuRequest: kplus().Cpu.millis(100), memoryRequest: Size.mebibytes(256), memoryLimit: Size.mebibytes(1024) },
    }, [
      {
        rule: 'NA-CAPABILITIES',
        reason: 'cilium-agent enters pods\' network namespaces and mounts the BPF and cgroup filesystems (SYS_ADMIN), which no narrower capability allows; Cilium\'s unprivileged mode grants it too',
        unless: ['capabilities'],
      },
      {
        rule: 'NA-HOSTPATH-SENSITIVE',
        reason: 'cilium-agent writes only its own state and API socket (/var/run/cilium), its pinned BPF maps and the networking sysctls it manages',
        unless: ['hostMounts'],
      },
      {
        rule: 'NA-HOSTPATH-SENSITIVE',
        reason: 'the install-cni-binaries init container writes only the cilium-cni binary into /opt/cni/bin and exits; the long-running agent never mounts it',
        unless: ['initContainers'],
        container: 'install-cni-binaries',
      },
    ]);
  }

  /**
   * Your own CNI agent: give its image, installers, mounts, privileges (each with its reason) and
   * permissions. The `CniPlugin` adds the host network, `system-node-critical`, tolerations for every
   * taint and the `/run/xtables.lock` mount around it.
   */
  public static custom(options: CniFlavorOptions): CniFlavor {
    if (!options || typeof options.name !== 'string' || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(options.name)) {
      throw new Error(`CniFlavor.custom: name "${options?.name}" is invalid: use lowercase letters, digits and '-', e.g. "my-cni"`);
    }
    return new CniFlavor(options, []);
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

/**
 * Properties for `CniPlugin`.
 *
 * Every `NodeAgent` property can be set; each one you set replaces the default (the preset's or the
 * flavor's) for it entirely (lists and maps included: nothing is merged). To add to the lists, call
 * the agent's `add*` methods after construction, e.g. `cni.addToleration(...)`.
 */
export interface CniPluginProps extends NodeAgentSettings {
  /**
   * Which CNI agent to run: it supplies the image, command, args, env, capabilities, host mounts,
   * installers (init containers), config files, RBAC, probes and resources.
   *
   * @default CniFlavor.flannel()
   */
  readonly flavor?: CniFlavor;

  /**
   * The agent image.
   *
   * @default - the flavor's image (`CniFlavor.FLANNEL_IMAGE` for the default flavor)
   */
  readonly image?: string;
}

/**
 * A CNI plugin's node agent: installs the pod network's plugin on every node and runs the agent that
 * keeps it working.
 *
 * Defaults (each replaceable through the matching `NodeAgent` property):
 * - the flavor's agent (flannel by default, with `ghcr.io/flannel-io/flannel:v0.28.9` and
 *   `ghcr.io/flannel-io/flannel-cni-plugin:v1.9.1-flannel3`): see `CniFlavor`;
 * - the installer pattern: init containers write `/opt/cni/bin` and `/etc/cni/net.d` (read-write,
 *   DirectoryOrCreate, each with its reason) while the long-running agent does not mount them
 *   writable (flannel's does not mount them at all);
 * - the host network, with the reason: the agent configures the node's own network;
 * - `/run/xtables.lock` (FileOrCreate, read-write, with the reason): the lock that every iptables
 *   user on the node shares, so its rules and kube-proxy's never interleave;
 * - `system-node-critical` priority: a node without its CNI agent cannot start pods;
 * - tolerates every taint (`Toleration.everything()`): a node without its CNI is useless, so the agent
 *   must run on tainted, not-ready and draining nodes too (as Cilium, kube-proxy and flannel's chart);
 * - node-level RBAC: pods get; nodes get, list, watch; nodes/status patch (flavors add their own);
 * - the flavor's privileges, each with its reason; flannel: root with only `NET_ADMIN` and `NET_RAW`,
 *   read-only root filesystem, no privilege escalation, seccomp `RuntimeDefault`;
 * - probes and resources from the flavor (flannel: `GET /healthz` on 8081; requests 100m and 64Mi,
 *   memory limit 128Mi);
 * - security review: the findings the flavor's defaults cause (flannel: its lease directory under
 *   `/run` and the installer writing `/opt/cni/bin`) are acknowledged, each with the reason, while the
 *   props that cause them (`hostMounts`, `initContainers`, and for Calico and Cilium `privileged`,
 *   `capabilities`, `readOnlyRootFilesystem`) keep their defaults, each scoped to its container.
 *   `custom()` flavors acknowledge nothing: call `acknowledge(rule, reason, container)` on the plugin.
 *
 * @see https://www.cni.dev/docs/spec/
 */
export class CniPlugin extends NodeAgent {
  /**
   * The `/run/xtables.lock` mount that every CNI agent using iptables needs; included by default.
   */
  public static xtablesLockMount(): HostMount {
    return HostMount.readWrite('/run/xtables.lock', 'shares the iptables lock with every other iptables user on the node, so rule updates never interleave', {
      type: kplus().HostPathVolumeType.FILE_OR_CREATE,
    });
  }

  private static resolve(scope: Construct, id: string, props: CniPluginProps): NodeAgentProps {
    const flavor = props.flavor ?? CniFlavor.flannel();
    if (!(flavor instanceof CniFlavor)) {
      presetFail(scope, id, 'flavor must be created with CniFlavor.flannel(), calico(), cilium() or custom()');
    }
    const o = flavor.options;
    const defaults: NodeAgentProps = {
      image: o.image,
      command: o.command,
      args: o.args,
      env: o.env,
      ports: o.ports,
      capabilities: o.capabilities,
      privileged: o.privileged,
      runAsRoot: o.runAsRoot,
      runAsUser: o.runAsUser,
      runAsGroup: o.runAsGroup,
      readOnlyRootFilesystem: o.readOnlyRootFilesystem,
      scratchDirs: o.scratchDirs,
      resources: o.resources,
      liveness: o.liveness,
      readiness: o.readiness,
      startup: o.startup,
      hostMounts: [CniPlugin.xtablesLockMount(), ...o.hostMounts ?? []],
      initContainers: o.installers,
      configFiles: o.configFiles,
      configMountPath: o.configMountPath,
      clusterPermissions: o.clusterPermissions ?? NODE_LEVEL_RBAC,
      hostNetwork: { reason: 'the CNI agent configures the node\'s own network: interfaces, routes and iptables rules for every pod' },
      priorityClassName: 'system-node-critical',
      tolerations: [Toleration.everything()],
    };
    return withPresetDefaults(defaults, withoutKeys(props, ['flavor']));
  }

  /** the CNI flavor in use. */
  public readonly flavor: CniFlavor;

  constructor(scope: Construct, id: string, props: CniPluginProps = {}) {
    super(scope, id, CniPlugin.resolve(scope, id, props));
    this.flavor = props.flavor ?? CniFlavor.flannel();
    acknowledgeDefaults(this, props, this.flavor._acknowledgements);
  }
}

function cniBinMount(mountPath: string): HostMount {
  return HostMount.readWrite(CNI_BIN_DIR, 'installs the CNI plugin binaries that the container runtime runs for every new pod', {
    type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
    mountPath,
  });
}

function cniConfMount(mountPath: string): HostMount {
  return HostMount.readWrite(CNI_CONF_DIR, 'installs the CNI network configuration that the container runtime reads for every new pod', {
    type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
    mountPath,
  });
}

function checkCidr(field: string, cidr: string): void {
  const m = IPV4_CIDR.exec(cidr ?? '');
  if (!m || m.slice(1, 5).some((o) => Number(o) > 255) || Number(m[5]) > 32) {
    throw new Error(`${field} "${cidr}" is not an IPv4 CIDR: use e.g. "10.244.0.0/16"`);
  }
}
