/**
 * Presets never lose their essentials: for every preset (each CNI flavor and Falco driver apart) and every list and map
 * prop of its props, the prop set by the user either keeps what the preset needs to work, with the user's item added,
 * or is refused with a message saying what would be lost. The list and map props come from the presets' props tables
 * (`src/agent/_props-schema.ts`), so a new one, or a new preset, fails here until it has a row.
 */
import { Chart } from 'cdk8s';
import { Capability, HostPathVolumeType } from 'cdk8s-plus-28';
import { chart, clusterRules, container, customCniFlavor, find, hostMounts, podSpec } from './preset-helpers';
import {
  AgentProbe, AgentVolume, Auditbeat, CniFlavor, CniPlugin, CsiNodePlugin, DatadogAgent, ElasticOutput, EnvSource, EnvValue, FalcoDriver, Filebeat,
  Fluentd, FluentdOutput, HostMount,
  LogCollector, NodeAgent, NodeMonitor, NodeRequirement, SecurityAgent, Toleration,
} from '../../src';
import { listProps, mapProps, presetPropsTables } from '../../src/agent/_props-schema';
import { acknowledgeAll } from '../agent/review-helper';
import { synthValid } from '../util/k8s-schema';

/** what the user sets in one list prop, and how the output shows it was applied. */
interface Sample {
  readonly value: unknown[] | { [key: string]: unknown };
  readonly applied: (manifests: any[], agent: NodeAgent) => void;
}

const image = (name: string) => `registry.example.com/${name}:1.0.0`;
const mountsOf = (m: any[], name = 'agent') => hostMounts(m, name).map((x) => `${x.hostPath}@${x.mountPath}${x.readOnly ? '' : ':rw'}`);
const containerNames = (m: any[]) => podSpec(m).containers.map((c: any) => c.name);
const initNames = (m: any[]) => (podSpec(m).initContainers ?? []).map((c: any) => c.name);
const added = (m: any[]) => container(m).securityContext.capabilities?.add ?? [];
const portsOf = (m: any[]) => (container(m).ports ?? []).map((p: any) => `${p.name}:${p.containerPort}`);
const ruleGroups = (m: any[]) => clusterRules(m).flatMap((r: any) => r.apiGroups.flatMap((g: string) => r.resources.map((res: string) => `${g}/${res}`)));

/** one value per list prop, none of them clashing with a preset's own items. */
const SAMPLES: { readonly [prop: string]: Sample } = {
  command: {
    value: ['/usr/local/bin/wrapper'],
    applied: (m) => expect(container(m).command).toEqual(['/usr/local/bin/wrapper']),
  },
  args: {
    value: ['--extra=1'],
    applied: (m) => expect(container(m).args).toContain('--extra=1'),
  },
  ports: {
    value: [{ name: 'extra', containerPort: 9999 }],
    applied: (m) => expect(portsOf(m)).toContain('extra:9999'),
  },
  hostMounts: {
    value: [HostMount.readOnly('/etc/machine-id', { reason: 'names the node in records', type: HostPathVolumeType.FILE })],
    applied: (m) => expect(mountsOf(m)).toContain('/etc/machine-id@/etc/machine-id'),
  },
  scratchDirs: {
    value: ['/var/cache/extra'],
    applied: (m) => expect(container(m).volumeMounts.map((v: any) => v.mountPath)).toContain('/var/cache/extra'),
  },
  capabilities: {
    value: [{ capability: Capability.AUDIT_WRITE, reason: 'writes audit records' }],
    applied: (m) => expect(container(m).securityContext.privileged === true || added(m).includes('AUDIT_WRITE')).toBe(true),
  },
  allowedRegistries: {
    value: ['cr.fluentbit.io', 'quay.io', 'ghcr.io', 'registry.k8s.io', 'docker.io', 'registry.datadoghq.com', 'docker.elastic.co', 'registry.example.com'],
    applied: (_m, agent) => expect(() => agent.addSidecar({ name: 'other', image: 'other.example.org/x:1.0.0' })).toThrow(/not in allowedRegistries/),
  },
  requiredNodeAffinity: {
    value: [{ requirements: [NodeRequirement.exists('example.com/agents')] }],
    applied: (m) => expect(JSON.stringify(podSpec(m).affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution)).toContain('example.com/agents'),
  },
  preferredNodeAffinity: {
    value: [{ weight: 10, requirements: [NodeRequirement.exists('example.com/ssd')] }],
    applied: (m) => expect(JSON.stringify(podSpec(m).affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution)).toContain('example.com/ssd'),
  },
  tolerations: {
    value: [Toleration.exists('example.com/dedicated')],
    applied: (m) => expect(podSpec(m).tolerations).toContainEqual({ key: 'example.com/dedicated', operator: 'Exists' }),
  },
  clusterPermissions: {
    value: [{ resources: ['configmaps'], verbs: ['get'] }],
    applied: (m) => expect(clusterRules(m)).toContainEqual({ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }),
  },
  namespacePermissions: {
    value: [{ resources: ['configmaps'], verbs: ['get'] }],
    applied: (m) => expect(find(m, 'Role').rules).toContainEqual({ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }),
  },
  initContainers: {
    value: [{ name: 'extra-init', image: image('init') }],
    applied: (m) => expect(initNames(m)).toContain('extra-init'),
  },
  sidecars: {
    value: [{ name: 'extra-sidecar', image: image('sidecar'), liveness: AgentProbe.tcpSocket(8443), readiness: AgentProbe.tcpSocket(8443) }],
    applied: (m) => expect(containerNames(m)).toContain('extra-sidecar'),
  },
  imagePullSecrets: {
    value: ['registry-credentials'],
    applied: (m) => expect(podSpec(m).imagePullSecrets).toEqual([{ name: 'registry-credentials' }]),
  },
  envFrom: {
    value: [EnvSource.fromSecret('agent-env', { prefix: 'EXTRA_' })],
    applied: (m) => expect(container(m).envFrom).toContainEqual({ prefix: 'EXTRA_', secretRef: { name: 'agent-env' } }),
  },
  volumes: {
    value: [AgentVolume.fromSecret('agent-tls', '/etc/extra-tls')],
    applied: (m) => expect(container(m).volumeMounts).toContainEqual({ name: 'secret-agent-tls', mountPath: '/etc/extra-tls', readOnly: true }),
  },
  // the map props
  env: {
    value: { EXTRA_VAR: '1' } as any,
    applied: (m) => expect(container(m).env).toContainEqual({ name: 'EXTRA_VAR', value: '1' }),
  },
  envValueFrom: {
    value: { EXTRA_TOKEN: EnvValue.fromSecretKey('agent', 'token') } as any,
    applied: (m) => expect(container(m).env).toContainEqual({ name: 'EXTRA_TOKEN', valueFrom: { secretKeyRef: { name: 'agent', key: 'token' } } }),
  },
  labels: {
    value: { team: 'platform' } as any,
    applied: (m) => expect(find(m, 'DaemonSet').spec.template.metadata.labels.team).toBe('platform'),
  },
  podAnnotations: {
    value: { 'example.com/owner': 'platform' } as any,
    applied: (m) => expect(find(m, 'DaemonSet').spec.template.metadata.annotations['example.com/owner']).toBe('platform'),
  },
  nodeSelector: {
    value: { 'example.com/pool': 'agents' } as any,
    applied: (m) => expect(podSpec(m).nodeSelector['example.com/pool']).toBe('agents'),
  },
  configFiles: {
    value: { 'extra.conf': 'extra: true\n' } as any,
    applied: (m) => expect(m.find((o) => o.kind === 'ConfigMap').data['extra.conf']).toBe('extra: true\n'),
  },
  fileIntegrityPaths: {
    value: ['/usr/local/bin'],
    applied: (m) => expect(mountsOf(m)).toContain('/usr/local/bin@/hostfs/usr/local/bin'),
  },
  containerRuntimeSockets: {
    value: ['/run/crio/crio.sock'],
    applied: (m) => expect(mountsOf(m)).toContain('/run/crio/crio.sock@/host/run/crio/crio.sock'),
  },
};

/** a preset as the test builds it, what it needs to work (read from its code and its vendor's manifest), and the props it refuses. */
interface Variant {
  readonly name: string;
  /** the preset's props interface, as its props table is named. */
  readonly props: string;
  readonly build: (scope: Chart, props: any) => NodeAgent;
  /** checks what the preset needs, on the manifests of the variant with `prop` set to its sample. */
  readonly essentials: (m: any[], prop: string) => void;
  /** the list props the variant refuses, with what the refusal must say. */
  readonly refuses?: { readonly [prop: string]: RegExp };
}

const flannelEssentials = (m: any[]) => {
  expect(initNames(m).slice(0, 2)).toEqual(['install-cni-plugin', 'install-cni']);
  expect(mountsOf(m, 'install-cni-plugin')).toContain('/opt/cni/bin@/opt/cni/bin:rw');
  expect(mountsOf(m, 'install-cni')).toContain('/etc/cni/net.d@/etc/cni/net.d:rw');
  expect(mountsOf(m)).toEqual(expect.arrayContaining(['/run/xtables.lock@/run/xtables.lock:rw', '/run/flannel@/run/flannel:rw']));
  expect(container(m).args.slice(0, 3)).toEqual(['--ip-masq', '--kube-subnet-mgr', '--healthz-port=8081']);
  expect(ruleGroups(m)).toEqual(expect.arrayContaining(['/pods', '/nodes', '/nodes/status']));
  expect(container(m).env).toContainEqual({ name: 'EVENT_QUEUE_DEPTH', value: '5000' });
  expect(Object.keys(m.find((o) => o.kind === 'ConfigMap').data)).toEqual(expect.arrayContaining(['cni-conf.json', 'net-conf.json']));
};

/** what both Beats keep: the -c of their configuration, the monitoring port, add_kubernetes_metadata's read rules, the output's credentials. */
const beatEssentials = (m: any[], beat: string) => {
  expect(container(m).args.slice(0, 3)).toEqual(['-c', `/etc/${beat}/${beat}.yml`, '-e']);
  expect(portsOf(m)[0]).toEqual('monitoring:5066');
  expect(ruleGroups(m)).toEqual(expect.arrayContaining(['/namespaces', '/pods', '/nodes', 'apps/replicasets']));
  expect(container(m).env).toContainEqual({ name: 'ELASTICSEARCH_PASSWORD', valueFrom: { secretKeyRef: { name: 'elasticsearch', key: 'password' } } });
  expect(m.find((o) => o.kind === 'ConfigMap').data[`${beat}.yml`]).toContain('password: ${ELASTICSEARCH_PASSWORD}');
};
const elasticsearch = () => ElasticOutput.elasticsearch(['https://elasticsearch:9200'], {
  username: EnvValue.fromSecretKey('elasticsearch', 'username'),
  password: EnvValue.fromSecretKey('elasticsearch', 'password'),
});

const VARIANTS: Variant[] = [
  {
    name: 'LogCollector',
    props: 'LogCollectorProps',
    build: (c, p) => new LogCollector(c, 'fluent-bit', p),
    essentials: (m) => {
      expect(mountsOf(m).slice(0, 2)).toEqual(['/var/log@/var/log', '/var/lib/fluent-bit@/var/lib/fluent-bit:rw']);
      expect(container(m).args[0]).toEqual('--config=/fluent-bit/etc/conf/fluent-bit.yaml');
      expect(portsOf(m)[0]).toEqual('http:2020');
      expect(clusterRules(m)[0]).toEqual({ apiGroups: [''], resources: ['namespaces', 'pods'], verbs: ['get', 'list', 'watch'] });
      expect(m.find((o) => o.kind === 'ConfigMap').data['fluent-bit.yaml']).toContain('/var/log/containers/*.log');
    },
    // configFiles replaces the rendered configuration: it must hold the file Fluent Bit is started with
    refuses: { configFiles: /^\[test\/fluent-bit\] configFiles: Fluent Bit runs with --config=\/fluent-bit\/etc\/conf\/fluent-bit\.yaml, which your configFiles do not hold \("extra\.conf"\)/ },
  },
  {
    name: 'NodeMonitor',
    props: 'NodeMonitorProps',
    build: (c, p) => new NodeMonitor(c, 'node-exporter', p),
    essentials: (m) => {
      expect(mountsOf(m).slice(0, 3)).toEqual(['/proc@/host/proc', '/sys@/host/sys', '/@/host/root']);
      expect(container(m).args).toEqual(expect.arrayContaining([
        '--path.procfs=/host/proc', '--path.sysfs=/host/sys', '--path.rootfs=/host/root', '--web.listen-address=:9100',
      ]));
      expect(container(m).ports[0]).toEqual({ name: 'metrics', containerPort: 9100, hostPort: 9100, protocol: 'TCP' });
    },
    // node-exporter runs as 65534: an added capability would take no effect there (a non-root process gets none)
    refuses: { capabilities: /^\[test\/node-exporter\] capabilities: AUDIT_WRITE would take no effect: the container runs as non-root \(runAsUser: 65534\)/ },
  },
  {
    name: 'CniPlugin flannel',
    props: 'CniPluginProps',
    build: (c, p) => new CniPlugin(c, 'kube-flannel', p),
    essentials: flannelEssentials,
  },
  {
    name: 'CniPlugin calico',
    props: 'CniPluginProps',
    build: (c, p) => new CniPlugin(c, 'calico-node', { flavor: CniFlavor.calico(), ...p }),
    essentials: (m) => {
      expect(initNames(m)[0]).toEqual('install-cni');
      expect(mountsOf(m, 'install-cni')).toEqual(['/opt/cni/bin@/host/opt/cni/bin:rw', '/etc/cni/net.d@/host/etc/cni/net.d:rw']);
      expect(mountsOf(m)).toEqual(expect.arrayContaining([
        '/run/xtables.lock@/run/xtables.lock:rw', '/lib/modules@/lib/modules', '/var/run/calico@/var/run/calico:rw',
        '/var/lib/calico@/var/lib/calico:rw', '/etc/cni/net.d@/host/etc/cni/net.d:rw',
      ]));
      expect(ruleGroups(m)).toEqual(expect.arrayContaining(['/nodes', 'crd.projectcalico.org/ippools', 'crd.projectcalico.org/ipamblocks']));
      expect(container(m).env).toEqual(expect.arrayContaining([{ name: 'DATASTORE_TYPE', value: 'kubernetes' }, { name: 'CALICO_IPV4POOL_CIDR', value: '192.168.0.0/16' }]));
    },
  },
  {
    name: 'CniPlugin cilium',
    props: 'CniPluginProps',
    build: (c, p) => new CniPlugin(c, 'cilium', { flavor: CniFlavor.cilium(), ...p }),
    essentials: (m) => {
      expect(initNames(m).slice(0, 2)).toEqual(['install-cni-binaries', 'install-cni-config']);
      expect(mountsOf(m)).toEqual(expect.arrayContaining([
        '/run/xtables.lock@/run/xtables.lock:rw', '/var/run/cilium@/var/run/cilium:rw', '/sys/fs/bpf@/sys/fs/bpf:rw',
        '/sys/fs/cgroup@/run/cilium/cgroupv2', '/proc/sys/net@/host/proc/sys/net:rw',
      ]));
      expect(added(m)).toEqual(expect.arrayContaining(['NET_ADMIN', 'SYS_ADMIN', 'SYS_RESOURCE', 'IPC_LOCK']));
      expect(container(m).args[0]).toEqual('--config-dir=/tmp/cilium/config-map');
      expect(container(m).volumeMounts.map((v: any) => v.mountPath)).toContain('/tmp');
      expect(ruleGroups(m)).toEqual(expect.arrayContaining(['/nodes', 'cilium.io/ciliumnodes', 'cilium.io/ciliumendpoints']));
      expect(container(m).env).toContainEqual({ name: 'K8S_NODE_NAME', value: '$(NODE_NAME)' });
      expect(m.find((o) => o.kind === 'ConfigMap').data['05-cilium.conflist']).toContain('cilium-cni');
    },
  },
  {
    name: 'CniPlugin custom',
    props: 'CniPluginProps',
    build: (c, p) => new CniPlugin(c, 'my-cni', { flavor: customCniFlavor(), ...p }),
    essentials: (m) => {
      expect(initNames(m)[0]).toEqual('install');
      expect(mountsOf(m, 'install')).toEqual(['/opt/cni/bin@/opt/cni/bin:rw']);
      expect(mountsOf(m)[0]).toEqual('/run/xtables.lock@/run/xtables.lock:rw');
      expect(added(m)).toContain('NET_ADMIN');
      expect(ruleGroups(m)).toEqual(expect.arrayContaining(['/pods', '/nodes', '/nodes/status']));
    },
  },
  {
    name: 'CsiNodePlugin',
    props: 'CsiNodePluginProps',
    build: (c, p) => new CsiNodePlugin(c, 'csi-node', p),
    essentials: (m) => {
      expect(containerNames(m).slice(0, 3)).toEqual(['agent', 'node-driver-registrar', 'liveness-probe']);
      expect(mountsOf(m, 'node-driver-registrar')).toContain('/var/lib/kubelet/plugins_registry@/registration:rw');
      expect(container(m).livenessProbe.httpGet).toEqual({ path: '/healthz', port: 9898 });
      expect(mountsOf(m).slice(0, 3)).toEqual([
        '/var/lib/kubelet/plugins/hostpath.csi.k8s.io@/csi:rw', '/var/lib/kubelet@/var/lib/kubelet:rw', '/dev@/dev:rw',
      ]);
      expect(container(m).args).toContain('--endpoint=unix:///csi/csi.sock');
    },
    // the driver's args are its own flags, which the preset cannot know: yours replace the hostpath driver's, and must name the socket
    refuses: { args: /^\[test\/csi-node\] args: none of your args \(nor env\) gives the driver its endpoint unix:\/\/\/csi\/csi\.sock, where node-driver-registrar and liveness-probe connect to it/ },
  },
  {
    name: 'SecurityAgent modern eBPF',
    props: 'SecurityAgentProps',
    build: (c, p) => new SecurityAgent(c, 'falco', p),
    essentials: (m, prop) => {
      const socket = prop === 'containerRuntimeSockets' ? '/run/crio/crio.sock' : '/run/containerd/containerd.sock';
      expect(mountsOf(m)).toEqual(expect.arrayContaining(['/proc@/host/proc', '/etc@/host/etc', `${socket}@/host${socket}`, '/sys/kernel@/sys/kernel']));
      expect(added(m)).toEqual(expect.arrayContaining(['BPF', 'PERFMON', 'SYS_RESOURCE', 'SYS_PTRACE']));
      expect(container(m).args.slice(0, 6)).toEqual(['-o', 'engine.kind=modern_ebpf', '-o', 'webserver.enabled=true', '-o', 'webserver.listen_port=8765']);
      expect(portsOf(m)[0]).toEqual('web:8765');
      expect(container(m).env).toContainEqual({ name: 'HOST_ROOT', value: '/host' });
      expect(find(m, 'DaemonSet').spec.template.metadata.annotations['container.apparmor.security.beta.kubernetes.io/agent']).toBe('unconfined');
    },
  },
  {
    name: 'SecurityAgent kernel module',
    props: 'SecurityAgentProps',
    build: (c, p) => new SecurityAgent(c, 'falco', { driver: FalcoDriver.kernelModule('kernel 4.14 without BTF'), ...p }),
    essentials: (m) => {
      expect(initNames(m)[0]).toEqual('falco-driver-loader');
      expect(mountsOf(m)).toEqual(expect.arrayContaining(['/proc@/host/proc', '/dev@/host/dev', '/sys/module@/sys/module']));
      expect(container(m).args.slice(0, 2)).toEqual(['-o', 'engine.kind=kmod']);
      expect(container(m).env).toContainEqual({ name: 'HOST_ROOT', value: '/host' });
    },
  },
  {
    name: 'Fluentd',
    props: 'FluentdProps',
    build: (c, p) => new Fluentd(c, 'fluentd', {
      output: FluentdOutput.elasticsearch('es.logging.svc', {
        user: EnvValue.fromSecretKey('es', 'user'), password: EnvValue.fromSecretKey('es', 'password'),
      }),
      ...p,
    }),
    essentials: (m) => {
      expect(mountsOf(m).slice(0, 2)).toEqual(['/var/log@/var/log', '/var/lib/fluentd@/var/lib/fluentd:rw']);
      expect(portsOf(m)[0]).toEqual('metrics:24231');
      expect(container(m).volumeMounts.map((v: any) => v.mountPath)).toContain('/tmp');
      expect(clusterRules(m)[0]).toEqual({ apiGroups: [''], resources: ['namespaces', 'pods'], verbs: ['get', 'list', 'watch'] });
      expect(container(m).env).toEqual(expect.arrayContaining([
        { name: 'K8S_NODE_NAME', value: '$(NODE_NAME)' },
        { name: 'FLUENTD_CONF', value: 'conf/fluent.conf' },
        { name: 'FLUENT_ELASTICSEARCH_PASSWORD', valueFrom: { secretKeyRef: { name: 'es', key: 'password' } } },
      ]));
      expect(m.find((o) => o.kind === 'ConfigMap').data['fluent.conf']).toContain('path /var/log/containers/*.log');
    },
    // the image's entrypoint passes no argument to fluentd; configFiles replaces the rendered configuration and must hold the file it runs
    refuses: {
      args: /^\[test\/fluentd\] args: the image's entrypoint \(tini -- \/fluentd\/entrypoint\.sh\) passes no argument to fluentd, so yours would be dropped/,
      configFiles: /^\[test\/fluentd\] configFiles: Fluentd runs with \/fluentd\/etc\/conf\/fluent\.conf, which your configFiles do not hold \("extra\.conf"\)/,
    },
  },
  {
    name: 'DatadogAgent',
    props: 'DatadogAgentProps',
    build: (c, p) => new DatadogAgent(c, 'datadog', { apiKey: EnvValue.fromSecretKey('datadog-secret', 'api-key'), ...p }),
    essentials: (m, prop) => {
      expect(mountsOf(m).slice(0, 3)).toEqual(['/proc@/host/proc', '/sys/fs/cgroup@/host/sys/fs/cgroup', '/etc/os-release@/host/etc/os-release']);
      expect(initNames(m).slice(0, 2)).toEqual(['init-volume', 'init-config']);
      expect(container(m).volumeMounts).toContainEqual({ name: 'datadog-config', mountPath: '/etc/datadog-agent' });
      expect(portsOf(m)[0]).toEqual('dogstatsdport:8125');
      expect(container(m).env).toEqual(expect.arrayContaining([
        { name: 'DD_API_KEY', valueFrom: { secretKeyRef: { name: 'datadog-secret', key: 'api-key' } } },
        { name: 'DD_KUBERNETES_KUBELET_HOST', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
        { name: 'DD_SITE', value: 'datadoghq.com' },
      ]));
      if (prop === 'containerRuntimeSockets') expect(container(m).env).toContainEqual({ name: 'DD_CRI_SOCKET_PATH', value: '/host/run/crio/crio.sock' });
    },
    // the agent runs as root with every capability dropped (as the chart, but for the drop): none of them takes effect unless added, which is
    // NodeAgent's own rule; the sample AUDIT_WRITE is added
  },
];

VARIANTS.push(
  {
    name: 'Filebeat',
    props: 'FilebeatProps',
    build: (c, p) => new Filebeat(c, 'filebeat', { output: elasticsearch(), ...p }),
    essentials: (m) => {
      beatEssentials(m, 'filebeat');
      expect(mountsOf(m).slice(0, 2)).toEqual(['/var/log@/var/log', '/var/lib/filebeat-data@/usr/share/filebeat/data:rw']);
    },
    refuses: { configFiles: /^\[test\/filebeat\] configFiles: filebeat runs with -c \/etc\/filebeat\/filebeat\.yml, which your configFiles do not hold \("extra\.conf"\)/ },
  },
  {
    name: 'Auditbeat',
    props: 'AuditbeatProps',
    build: (c, p) => new Auditbeat(c, 'auditbeat', { output: elasticsearch(), ...p }),
    essentials: (m, prop) => {
      beatEssentials(m, 'auditbeat');
      const watched = prop === 'fileIntegrityPaths' ? ['/usr/local/bin'] : ['/bin', '/usr/bin', '/sbin', '/usr/sbin', '/etc'];
      expect(mountsOf(m)).toEqual(expect.arrayContaining([...watched.map((p) => `${p}@/hostfs${p}`), '/var/lib/auditbeat-data@/usr/share/auditbeat/data:rw']));
      expect(added(m).slice(0, 2)).toEqual(['AUDIT_CONTROL', 'AUDIT_READ']);
      expect([podSpec(m).hostPID, podSpec(m).hostNetwork]).toEqual([true, true]);
    },
    refuses: { configFiles: /^\[test\/auditbeat\] configFiles: auditbeat runs with -c \/etc\/auditbeat\/auditbeat\.yml, which your configFiles do not hold \("extra\.conf"\)/ },
  },
);

describe('presets keep what they need in every list and map prop', () => {
  test('every preset is in the table, and every list and map prop of every preset has a sample', () => {
    const tables = presetPropsTables();
    expect([...new Set(VARIANTS.map((v) => v.props))].sort()).toEqual([...tables.keys()].sort());
    const props = [...new Set([...tables.values()].flatMap((t) => [...listProps(t), ...mapProps(t)]))].sort();
    // the tables are read, not trusted blindly: they must know at least the lists this test was written for
    expect(props).toEqual(expect.arrayContaining(['args', 'hostMounts', 'initContainers', 'sidecars', 'containerRuntimeSockets', 'env', 'podAnnotations', 'configFiles']));
    expect(props.filter((p) => SAMPLES[p] === undefined)).toEqual([]);
  });

  const cases = VARIANTS.flatMap((v) => {
    const table = presetPropsTables().get(v.props)!;
    return [...listProps(table), ...mapProps(table)].map((prop) => [v.name, prop, v] as const);
  });

  test.each(cases)('%s with %s set', (_name, prop, variant) => {
    const sample = SAMPLES[prop];
    expect(sample).toBeDefined();
    const c = chart();
    const refusal = variant.refuses?.[prop];
    if (refusal) {
      expect(() => variant.build(c, { [prop]: sample.value })).toThrow(refusal);
      return;
    }
    const agent = acknowledgeAll(variant.build(c, { [prop]: sample.value }));
    const manifests = synthValid(c);
    variant.essentials(manifests, prop);
    sample.applied(manifests, agent);
  });

  test('the defaults meet the essentials checks too', () => {
    for (const variant of VARIANTS) {
      const c = chart();
      acknowledgeAll(variant.build(c, {}));
      variant.essentials(synthValid(c), '');
    }
  });
});

describe('what a preset keeps is refused when given otherwise', () => {
  test('a capability the preset grants already is refused, saying it is kept', () => {
    expect(() => new CniPlugin(chart(), 'cilium', { flavor: CniFlavor.cilium(), capabilities: [{ capability: Capability.CHOWN, reason: 'r' }] })).toThrow(
      '[test/cilium] capabilities: your capability CHOWN is already one of the capabilities CniPlugin always keeps, because the cilium agent needs ' +
      'them to configure the node\'s network. The capabilities you set are added to the preset\'s: leave it out');
  });

  test('a port with the number of the preset\'s is refused, naming both', () => {
    expect(() => new LogCollector(chart(), 'fluent-bit', { ports: [{ name: 'metrics', containerPort: 2020 }] })).toThrow(
      /^\[test\/fluent-bit\] ports: your port metrics \(2020\) has the port number 2020 of the port http \(2020\) that LogCollector always keeps/);
  });

  test('-o pairs of Falco are repeated, never merged with the preset\'s', () => {
    const c = chart();
    new SecurityAgent(c, 'falco', { args: ['-o', 'json_output=false'] });
    expect(container(synthValid(c)).args.slice(-4)).toEqual(['-o', 'json_output=true', '-o', 'json_output=false']);
  });
});
