// Internal: the flannel flavor of CniFlavor (CniFlavor.flannel()).
import { Duration, Size } from 'cdk8s';
import { AgentProbe, HostMount } from '../agent';
import { CNI_BIN_DIR, CNI_CONF_DIR, FLANNEL_CNI_PLUGIN_IMAGE, FLANNEL_IMAGE, FlavorSpec, NODE_LEVEL_RBAC, checkCidr, cniBinMount, cniConfMount } from './_cni-common';
import { FlannelOptions } from './cni-flavor-options';
import { kplus } from '../agent/_plus';

export function flannelFlavor(options: FlannelOptions): FlavorSpec {
  const podNetwork = options.podNetwork ?? '10.244.0.0/16';
  checkCidr('CniFlavor.flannel: podNetwork', podNetwork);
  const backend = options.backend ?? 'vxlan';
  if (!/^[a-z0-9-]+$/.test(backend)) {
    throw new Error(`CniFlavor.flannel: backend "${backend}" is not a flannel backend type: use e.g. "vxlan", "host-gw" or "wireguard"`);
  }
  const image = options.image ?? FLANNEL_IMAGE;
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
  return {
    options: {
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
          image: options.cniPluginImage ?? FLANNEL_CNI_PLUGIN_IMAGE,
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
    },
    // flanneld's own mounts (its /run/flannel, the iptables lock) are not sensitive: their reasons accept them
    acknowledgements: [
      {
        rule: 'NA-HOSTPATH-SENSITIVE',
        reason: 'the install-cni-plugin init container writes only the flannel binary into /opt/cni/bin and exits; the long-running agent never mounts it',
        unless: [], // the installers are kept whatever initContainers add
        container: 'install-cni-plugin',
      },
      {
        rule: 'NA-HOSTPATH-SENSITIVE',
        reason: 'the install-cni init container writes only flannel\'s CNI configuration into /etc/cni/net.d and exits; the long-running agent never mounts it',
        unless: [], // the installers are kept whatever initContainers add
        container: 'install-cni',
      },
    ],
  };
}
