import {
  PINNED, SameKeys, acknowledgedRules, chart, clusterRules, container, customCniFlavor, find, hostMount, hostMounts, kinds,
  openFindings, podSpec, reasonFor, reasonKeys, synthOf,
} from './preset-helpers';
import {
  CniFlavor, CniPlugin, CniPluginProps, NodeAgent, NodeAgentProps, Toleration,
} from '../../src';

function synth(props?: CniPluginProps): any[] {
  return synthOf((c) => new CniPlugin(c, 'kube-flannel', props));
}

const NODE_LEVEL_RBAC = [
  { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
];

describe('CniPlugin defaults (flannel)', () => {
  const manifests = synth();
  const main = container(manifests);
  const spec = podSpec(manifests);

  test('is a NodeAgent constructible with (scope, id) alone, flannel by default', () => {
    const agent = new CniPlugin(chart(), 'kube-flannel');
    expect(agent).toBeInstanceOf(NodeAgent);
    expect(agent.flavor.name).toEqual('flannel');
    expect(kinds(manifests)).toEqual(['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'DaemonSet', 'Namespace', 'ServiceAccount']);
  });

  test('images are flannel\'s, pinned', () => {
    expect(main.image).toEqual('ghcr.io/flannel-io/flannel:v0.28.9');
    expect(container(manifests, 'install-cni-plugin').image).toEqual('ghcr.io/flannel-io/flannel-cni-plugin:v1.9.1-flannel3');
    expect(container(manifests, 'install-cni').image).toEqual('ghcr.io/flannel-io/flannel:v0.28.9');
    for (const c of [...spec.containers, ...spec.initContainers]) expect(c.image).toMatch(PINNED);
  });

  test('installer pattern: init containers write /opt/cni/bin and /etc/cni/net.d, with reasons', () => {
    expect(spec.initContainers.map((c: any) => c.name)).toEqual(['install-cni-plugin', 'install-cni']);
    expect(hostMounts(manifests, 'install-cni-plugin')).toEqual([
      { hostPath: '/opt/cni/bin', type: 'DirectoryOrCreate', mountPath: '/opt/cni/bin', readOnly: false, propagation: undefined, volume: 'host-opt-cni-bin' },
    ]);
    expect(hostMounts(manifests, 'install-cni')).toEqual([
      { hostPath: '/etc/cni/net.d', type: 'DirectoryOrCreate', mountPath: '/etc/cni/net.d', readOnly: false, propagation: undefined, volume: 'host-etc-cni-net-d' },
    ]);
    expect(container(manifests, 'install-cni-plugin').args).toEqual(['-f', '/flannel', '/opt/cni/bin/flannel']);
    expect(container(manifests, 'install-cni').args).toEqual(['-f', '/etc/kube-flannel/cni-conf.json', '/etc/cni/net.d/10-flannel.conflist']);
    expect(reasonFor(manifests, 'hostPath:/opt/cni/bin (read-write)@install-cni-plugin')).toMatch(/CNI plugin binaries/);
    expect(reasonFor(manifests, 'hostPath:/etc/cni/net.d (read-write)@install-cni')).toMatch(/network configuration/);
  });

  test('the installer reads the CNI configuration from the agent\'s ConfigMap, read-only', () => {
    expect(container(manifests, 'install-cni').volumeMounts).toContainEqual({ name: 'config', mountPath: '/etc/kube-flannel', readOnly: true });
    const data = find(manifests, 'ConfigMap').data;
    expect(JSON.parse(data['cni-conf.json']).plugins[0].type).toEqual('flannel');
    expect(JSON.parse(data['net-conf.json'])).toEqual({ Network: '10.244.0.0/16', EnableNFTables: false, Backend: { Type: 'vxlan' } });
  });

  test('the long-running agent never mounts the CNI directories writable', () => {
    const paths = hostMounts(manifests).map((m) => m.hostPath);
    expect(paths).not.toContain('/opt/cni/bin');
    expect(paths).not.toContain('/etc/cni/net.d');
    expect(hostMounts(manifests)).toEqual([
      { hostPath: '/run/xtables.lock', type: 'FileOrCreate', mountPath: '/run/xtables.lock', readOnly: false, propagation: undefined, volume: 'host-run-xtables-lock' },
      { hostPath: '/run/flannel', type: 'DirectoryOrCreate', mountPath: '/run/flannel', readOnly: false, propagation: undefined, volume: 'host-run-flannel' },
    ]);
    expect(main.volumeMounts).toContainEqual({ name: 'config', mountPath: '/etc/kube-flannel', readOnly: true });
  });

  test('/run/xtables.lock FileOrCreate, with its reason', () => {
    expect(hostMount(manifests, '/run/xtables.lock').type).toEqual('FileOrCreate');
    expect(reasonFor(manifests, 'hostPath:/run/xtables.lock (read-write)@agent')).toMatch(/iptables lock/);
  });

  test('host network with its reason', () => {
    expect(spec.hostNetwork).toBe(true);
    expect(spec.dnsPolicy).toEqual('ClusterFirstWithHostNet');
    expect(reasonFor(manifests, 'hostNetwork:')).toMatch(/node's own network/);
  });

  test('NET_ADMIN and NET_RAW only, each with its reason; root with everything else dropped; read-only root', () => {
    expect(main.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: false,
      runAsUser: 0,
      capabilities: { add: ['NET_ADMIN', 'NET_RAW'], drop: ['ALL'] },
    });
    expect(reasonFor(manifests, 'capability:NET_ADMIN@agent')).toMatch(/overlay interface/);
    expect(reasonFor(manifests, 'capability:NET_RAW@agent')).toMatch(/raw sockets/);
    expect(spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    for (const c of spec.initContainers) {
      expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: false, runAsUser: 0, capabilities: { drop: ['ALL'] } });
    }
  });

  test('system-node-critical and tolerates every taint', () => {
    expect(spec.priorityClassName).toEqual('system-node-critical');
    expect(spec.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  test('node-level RBAC: nodes get/list/watch, nodes/status patch, pods get', () => {
    expect(clusterRules(manifests)).toEqual(NODE_LEVEL_RBAC);
    expect(spec.automountServiceAccountToken).toBe(true);
  });

  test('flanneld runs with the kube subnet manager and its health endpoint; probes on it', () => {
    expect(main.command).toEqual(['/opt/bin/flanneld']);
    expect(main.args).toEqual(['--ip-masq', '--kube-subnet-mgr', '--healthz-port=8081']);
    expect(main.livenessProbe).toEqual({ httpGet: { path: '/healthz', port: 8081 }, initialDelaySeconds: 10, periodSeconds: 30 });
    expect(main.readinessProbe).toEqual({ httpGet: { path: '/healthz', port: 8081 }, initialDelaySeconds: 5, periodSeconds: 10 });
  });

  test('resources: requests and a memory limit for every container', () => {
    expect(main.resources).toEqual({ requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } });
    for (const c of spec.initContainers) expect(c.resources).toEqual({ requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '32Mi' } });
  });

  test('NODE_NAME, POD_NAME and POD_NAMESPACE from the downward API; Pod Security labels', () => {
    const names = main.env.map((e: any) => e.name);
    expect(names).toEqual(expect.arrayContaining(['NODE_NAME', 'POD_NAME', 'POD_NAMESPACE', 'EVENT_QUEUE_DEPTH']));
    expect(find(manifests, 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce']).toEqual('privileged');
  });

  test('every host privilege carries its reason on the DaemonSet', () => {
    expect(reasonKeys(manifests)).toEqual([
      'capability:NET_ADMIN@agent',
      'capability:NET_RAW@agent',
      'hostNetwork:',
      'hostPath:/etc/cni/net.d (read-write)@install-cni',
      'hostPath:/opt/cni/bin (read-write)@install-cni-plugin',
      'hostPath:/run/flannel (read-write)@agent',
      'hostPath:/run/xtables.lock (read-write)@agent',
      'runAsRoot:agent@agent',
      'runAsRoot:install-cni-plugin@install-cni-plugin',
      'runAsRoot:install-cni@install-cni',
    ].sort());
  });

  test('security review: no unacknowledged finding; only the flavor\'s sensitive host paths are acknowledged, with the reason', () => {
    const agent = new CniPlugin(chart(), 'kube-flannel');
    expect(openFindings(agent)).toEqual([]);
    expect(acknowledgedRules(agent)).toEqual(['NA-HOSTPATH-SENSITIVE']);
  });

  test('snapshot', () => {
    expect(manifests).toMatchSnapshot();
  });
});

describe('CniPlugin flavors', () => {
  test('flannel options: pod network and backend', () => {
    const m = synth({ flavor: CniFlavor.flannel({ podNetwork: '10.42.0.0/16', backend: 'host-gw' }) });
    expect(JSON.parse(find(m, 'ConfigMap').data['net-conf.json'])).toMatchObject({ Network: '10.42.0.0/16', Backend: { Type: 'host-gw' } });
  });

  test('calico: the calico/cni installer and calico/node, privileged with the reason, Calico\'s RBAC without wildcards', () => {
    const m = synthOf((c) => new CniPlugin(c, 'calico-node', { flavor: CniFlavor.calico() }));
    const main = container(m);
    expect(main.image).toEqual(CniFlavor.CALICO_NODE_IMAGE);
    expect(main.image).toMatch(PINNED);
    expect(main.securityContext.privileged).toBe(true);
    expect(reasonFor(m, 'privileged:agent@agent')).toMatch(/BGP/);
    expect(container(m, 'install-cni').image).toEqual(CniFlavor.CALICO_CNI_IMAGE);
    expect(hostMounts(m, 'install-cni').map((x) => [x.hostPath, x.mountPath, x.readOnly])).toEqual([
      ['/opt/cni/bin', '/host/opt/cni/bin', false],
      ['/etc/cni/net.d', '/host/etc/cni/net.d', false],
    ]);
    expect(main.env).toContainEqual({ name: 'CALICO_IPV4POOL_CIDR', value: '192.168.0.0/16' });
    expect(main.env).toContainEqual({ name: 'NODENAME', value: '$(NODE_NAME)' });
    const cniConfig = container(m, 'install-cni').env.find((e: any) => e.name === 'CNI_NETWORK_CONFIG').value;
    expect(cniConfig).toContain('"mtu":__CNI_MTU__');
    const rules = clusterRules(m);
    expect(rules.slice(0, 3)).toEqual(NODE_LEVEL_RBAC);
    for (const r of rules) {
      expect(r.verbs).not.toContain('*');
      expect(r.resources).not.toContain('*');
    }
    expect(podSpec(m).hostNetwork).toBe(true);
    expect(podSpec(m).priorityClassName).toEqual('system-node-critical');
  });

  test('cilium: explicit capabilities instead of privileged, installers, BPF and sysctl mounts, a digest-pinned image', () => {
    const m = synthOf((c) => new CniPlugin(c, 'cilium', { flavor: CniFlavor.cilium() }));
    const main = container(m);
    expect(main.image).toEqual(CniFlavor.CILIUM_IMAGE);
    expect(main.image).toMatch(/@sha256:[0-9a-f]{64}$/);
    expect(main.securityContext.privileged).toBeUndefined();
    expect(main.securityContext.capabilities.add).toHaveLength(11);
    expect(main.securityContext.capabilities.add).not.toContain('SYS_MODULE');
    expect(main.securityContext.capabilities.drop).toEqual(['ALL']);
    for (const cap of main.securityContext.capabilities.add) expect(reasonFor(m, `capability:${cap}@agent`)).toBeDefined();
    expect(podSpec(m).initContainers.map((c: any) => c.name)).toEqual(['install-cni-binaries', 'install-cni-config']);
    expect(hostMount(m, '/sys/fs/bpf')).toMatchObject({ readOnly: false, propagation: 'HostToContainer', type: 'DirectoryOrCreate' });
    expect(hostMount(m, '/proc/sys/net')).toMatchObject({ mountPath: '/host/proc/sys/net', readOnly: false });
    expect(hostMounts(m).map((x) => x.hostPath)).not.toContain('/opt/cni/bin');
    expect(find(m, 'ConfigMap').data).toMatchObject({ 'ipam': 'kubernetes', 'cluster-name': 'default', 'procfs': '/host/proc' });
    expect(main.startupProbe).toEqual({ exec: { command: ['cilium-dbg', 'status', '--brief'] }, periodSeconds: 2, timeoutSeconds: 5, failureThreshold: 105 });
    for (const r of clusterRules(m)) expect(r.verbs).not.toContain('*');
  });

  test('calico and cilium: no unacknowledged finding, each acknowledgement with its reason', () => {
    const calico = new CniPlugin(chart(), 'calico-node', { flavor: CniFlavor.calico() });
    expect(openFindings(calico)).toEqual([]);
    expect(acknowledgedRules(calico)).toEqual(['NA-HOSTPATH-SENSITIVE', 'NA-PRIVILEGED', 'NA-READONLY-ROOTFS']);
    const cilium = new CniPlugin(chart(), 'cilium', { flavor: CniFlavor.cilium() });
    expect(openFindings(cilium)).toEqual([]);
    expect(acknowledgedRules(cilium)).toEqual(['NA-CAPABILITIES', 'NA-HOSTPATH-SENSITIVE']);
  });

  test('custom: your own agent inside the preset\'s host network, priority, tolerations and xtables lock', () => {
    const flavor = customCniFlavor();
    const m = synthOf((c) => {
      const cni = new CniPlugin(c, 'my-cni', { flavor });
      expect(openFindings(cni).map((f) => f.split(':')[0])).toEqual(['[critical] NA-HOSTPATH-SENSITIVE (install)']);
      cni.acknowledge('NA-HOSTPATH-SENSITIVE', 'the installer writes only its own binary and exits', 'install');
    });
    expect(container(m).image).toEqual('registry.example.com/my-cni:1.0.0');
    expect(hostMounts(m).map((x) => x.hostPath)).toEqual(['/run/xtables.lock']);
    expect(clusterRules(m)).toEqual(NODE_LEVEL_RBAC);
    expect(podSpec(m).tolerations).toEqual([{ operator: 'Exists' }]);
  });

  test('fails on bad flavor options with a clear message', () => {
    expect(() => CniFlavor.flannel({ podNetwork: '10.244.0.0' })).toThrow(/podNetwork "10.244.0.0" is not an IPv4 CIDR/);
    expect(() => CniFlavor.flannel({ podNetwork: '300.1.0.0/16' })).toThrow(/is not an IPv4 CIDR/);
    expect(() => CniFlavor.flannel({ backend: 'VXLAN!' })).toThrow(/backend "VXLAN!" is not a flannel backend type/);
    expect(() => CniFlavor.calico({ podNetwork: '10.0.0.0/33' })).toThrow(/is not an IPv4 CIDR/);
    expect(() => CniFlavor.cilium({ clusterName: 'Prod' })).toThrow(/clusterName "Prod" is invalid/);
    expect(() => CniFlavor.custom({ name: 'My CNI', image: 'registry.example.com/x:1.0.0' })).toThrow(/name "My CNI" is invalid/);
    expect(() => new CniPlugin(chart(), 'cni', { flavor: { name: 'flannel' } as any })).toThrow(/\[test\/cni\] flavor must be created with CniFlavor/);
  });
});

describe('CniPlugin overrides', () => {
  test('props take every NodeAgent property, with the image optional', () => {
    const same: SameKeys<Omit<CniPluginProps, 'flavor'>, NodeAgentProps> = true;
    const imageOptional: undefined extends CniPluginProps['image'] ? true : false = true;
    expect([same, imageOptional]).toEqual([true, true]);
  });

  test('a prop set by the user wins over the flavor and the preset; lists add to what the agent needs', () => {
    const m = synth({
      image: 'registry.example.com/flannel:v0.28.9',
      tolerations: [Toleration.exists('node.kubernetes.io/not-ready')],
      priorityClassName: 'system-cluster-critical',
      clusterPermissions: [{ resources: ['nodes'], verbs: ['get'] }],
      initContainers: [],
    });
    expect(container(m).image).toEqual('registry.example.com/flannel:v0.28.9');
    expect(podSpec(m).tolerations).toEqual([{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }]);
    expect(podSpec(m).priorityClassName).toEqual('system-cluster-critical');
    expect(clusterRules(m)).toEqual([...NODE_LEVEL_RBAC, { apiGroups: [''], resources: ['nodes'], verbs: ['get'] }]);
    expect(podSpec(m).initContainers.map((c: any) => c.name)).toEqual(['install-cni-plugin', 'install-cni']);
  });

  test('init containers of your own run after the installers; one named as an installer is refused', () => {
    const m = synth({ initContainers: [{ name: 'sysctl', image: 'registry.example.com/sysctl:1.0.0' }] });
    expect(podSpec(m).initContainers.map((c: any) => c.name)).toEqual(['install-cni-plugin', 'install-cni', 'sysctl']);
    expect(() => synth({ initContainers: [{ name: 'install-cni', image: 'registry.example.com/installer:1.0.0' }] })).toThrow(
      /^\[test\/kube-flannel\] initContainers: your container install-cni has the name install-cni of the container install-cni that CniPlugin always keeps, because its installers write the CNI plugin binaries/);
  });

  test('host mounts given by the user are added to the agent\'s; xtablesLockMount() given back is rendered once', () => {
    const m = synth({ hostMounts: [CniPlugin.xtablesLockMount()] });
    expect(hostMounts(m).map((x) => x.hostPath)).toEqual(['/run/xtables.lock', '/run/flannel']);
  });
});
