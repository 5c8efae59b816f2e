// Internal: the Cilium flavor of CniFlavor (CniFlavor.cilium()).
import { Duration, Size } from 'cdk8s';
import type { Capability } from 'cdk8s-plus-28';
import { AgentProbe, HostMount } from '../agent';
import { CILIUM_IMAGE, CNI_BIN_DIR, CNI_CONF_DIR, FlavorSpec, NODE_LEVEL_RBAC, cniBinMount, cniConfMount } from './_cni-common';
import { CiliumOptions } from './cni-flavor-options';
import { kplus } from '../agent/_plus';

export function ciliumFlavor(options: CiliumOptions): FlavorSpec {
  const clusterName = options.clusterName ?? 'default';
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(clusterName) || clusterName.length > 32) {
    throw new Error(`CniFlavor.cilium: clusterName "${clusterName}" is invalid: use at most 32 lowercase letters, digits and '-', e.g. "default"`);
  }
  const image = options.image ?? CILIUM_IMAGE;
  const configDir = '/tmp/cilium/config-map';
  const cniConf = { cniVersion: '0.3.1', name: 'cilium', plugins: [{ 'type': 'cilium-cni', 'enable-debug': false, 'log-file': '/var/run/cilium/cilium-cni.log' }] };
  const cap = (capability: Capability, reason: string) => ({ capability, reason });
  const statusProbe = ['cilium-dbg', 'status', '--brief'];
  const cilium = 'cilium.io';
  return {
    options: {
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
    },
    acknowledgements: [
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
        unless: [], // the installers are kept whatever initContainers add
        container: 'install-cni-binaries',
      },
      {
        rule: 'NA-HOSTPATH-SENSITIVE',
        reason: 'the install-cni-config init container writes only Cilium\'s CNI configuration into /etc/cni/net.d and exits; the long-running agent never mounts it',
        unless: [], // the installers are kept whatever initContainers add
        container: 'install-cni-config',
      },
    ],
  };
}
