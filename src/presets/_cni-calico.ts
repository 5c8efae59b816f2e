// Internal: the Calico flavor of CniFlavor (CniFlavor.calico()).
import { Duration, Size } from 'cdk8s';
import { AgentProbe, HostMount } from '../agent';
import { CALICO_CNI_IMAGE, CALICO_NODE_IMAGE, CNI_BIN_DIR, CNI_CONF_DIR, FlavorSpec, NODE_LEVEL_RBAC, checkCidr, cniBinMount, cniConfMount } from './_cni-common';
import { CalicoOptions } from './cni-flavor-options';
import { kplus } from '../agent/_plus';

export function calicoFlavor(options: CalicoOptions): FlavorSpec {
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
  return {
    options: {
      name: 'calico',
      image: options.image ?? CALICO_NODE_IMAGE,
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
        image: options.cniImage ?? CALICO_CNI_IMAGE,
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
    },
    acknowledgements: [
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
        reason: 'the install-cni init container writes only the Calico binaries into /opt/cni/bin and its configuration into /etc/cni/net.d, and ' +
          'exits; the long-running agent never mounts /opt/cni/bin',
        unless: [], // the installers are kept whatever initContainers add
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
        unless: [], // the installers are kept whatever initContainers add
        container: 'install-cni',
      },
    ],
  };
}
