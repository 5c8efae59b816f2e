import {
  PINNED, SameKeys, acknowledgedRules, chart, clusterRules, container, find, hostMounts, kinds, openFindings, podSpec, reasonFor, synthOf,
} from './preset-helpers';
import { DatadogAgent, DatadogAgentProps, EnvValue, NodeAgent, NodeAgentProps } from '../../src';

const apiKey = EnvValue.fromSecretKey('datadog-secret', 'api-key');

function synth(props: Partial<DatadogAgentProps> = {}): any[] {
  return synthOf((c) => new DatadogAgent(c, 'datadog', { apiKey, ...props }));
}

const envOf = (c: any) => Object.fromEntries((c.env ?? []).map((e: any) => [e.name, e.value ?? e.valueFrom]));
const mountKeys = (m: any[], name = 'agent') => hostMounts(m, name).map((x) => `${x.hostPath}@${x.mountPath}${x.readOnly ? '' : ':rw'}`);

describe('DatadogAgent defaults', () => {
  const manifests = synth();
  const main = container(manifests);
  const spec = podSpec(manifests);
  const env = envOf(main);

  test('is a NodeAgent; renders the agent, its RBAC and its node-local Service', () => {
    expect(new DatadogAgent(chart(), 'datadog', { apiKey })).toBeInstanceOf(NodeAgent);
    expect(kinds(manifests)).toEqual(['ClusterRole', 'ClusterRoleBinding', 'DaemonSet', 'Namespace', 'Service', 'ServiceAccount']);
  });

  test('the chart\'s image, pinned, run with agent run', () => {
    expect(main.image).toEqual(DatadogAgent.DEFAULT_IMAGE);
    expect(main.image).toMatch(PINNED);
    expect(main.command).toEqual(['agent', 'run']);
  });

  test('the API key from the Secret key, the site, the kubelet at the node\'s address', () => {
    expect(env.DD_API_KEY).toEqual({ secretKeyRef: { name: 'datadog-secret', key: 'api-key' } });
    expect(env.DD_SITE).toEqual('datadoghq.com');
    expect(env.DD_KUBERNETES_KUBELET_HOST).toEqual({ fieldRef: { fieldPath: 'status.hostIP' } });
    expect(env.DD_CLUSTER_NAME).toBeUndefined();
    expect(env.DD_APM_ENABLED).toEqual('false');
    expect(env.DD_DOGSTATSD_SOCKET).toBeUndefined();
  });

  test('host mounts: /proc, /sys/fs/cgroup and /etc/os-release read-only under /host; no runtime socket, no host PID', () => {
    expect(mountKeys(manifests)).toEqual(['/proc@/host/proc', '/sys/fs/cgroup@/host/sys/fs/cgroup', '/etc/os-release@/host/etc/os-release']);
    expect(JSON.stringify(spec.volumes)).not.toMatch(/containerd|docker\.sock|crio|"\/var\/run"|"\/run"/);
    expect(spec.hostPID).toBeUndefined();
    expect(spec.hostNetwork).toBeUndefined();
  });

  test('the chart\'s init containers prepare /etc/datadog-agent in a shared emptyDir', () => {
    expect(spec.initContainers.map((c: any) => c.name)).toEqual(['init-volume', 'init-config']);
    const config = spec.volumes.find((v: any) => v.name === 'datadog-config');
    expect(config).toEqual({ name: 'datadog-config', emptyDir: {} });
    expect(container(manifests, 'init-volume').volumeMounts).toContainEqual({ name: 'datadog-config', mountPath: '/opt/datadog-agent' });
    expect(container(manifests, 'init-config').volumeMounts).toContainEqual({ name: 'datadog-config', mountPath: '/etc/datadog-agent' });
    expect(main.volumeMounts).toContainEqual({ name: 'datadog-config', mountPath: '/etc/datadog-agent' });
    expect(envOf(container(manifests, 'init-config')).DD_API_KEY).toEqual({ secretKeyRef: { name: 'datadog-secret', key: 'api-key' } });
  });

  test('root with every capability dropped and a read-only root filesystem, with the reason', () => {
    expect(main.securityContext).toEqual({
      allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: false, runAsUser: 0, capabilities: { drop: ['ALL'] },
    });
    expect(reasonFor(manifests, 'runAsRoot:agent@agent')).toMatch(/image runs as root/);
  });

  test('RBAC: the kubelet endpoints of the kubelet check one by one, never nodes/proxy', () => {
    expect(clusterRules(manifests)).toEqual([{
      apiGroups: [''], resources: ['nodes/metrics', 'nodes/spec', 'nodes/stats', 'nodes/pods', 'nodes/healthz', 'nodes/configz'], verbs: ['get'],
    }]);
  });

  test('DogStatsD on 8125/UDP behind a node-local Service; the chart\'s health probes', () => {
    expect(main.ports).toEqual([{ name: 'dogstatsdport', containerPort: 8125, protocol: 'UDP' }]);
    const service = find(manifests, 'Service').spec;
    expect(service.internalTrafficPolicy).toEqual('Local');
    expect(service.ports).toEqual([{ name: 'dogstatsdport', port: 8125, targetPort: 'dogstatsdport', protocol: 'UDP' }]);
    expect([main.livenessProbe.httpGet, main.readinessProbe.httpGet, main.startupProbe.httpGet]).toEqual([
      { path: '/live', port: 5555 }, { path: '/ready', port: 5555 }, { path: '/startup', port: 5555 },
    ]);
  });

  test('no open finding; the preset\'s own acknowledgements are /proc\'s', () => {
    const agent = new DatadogAgent(chart(), 'datadog', { apiKey });
    expect(openFindings(agent)).toEqual([]);
    expect(acknowledgedRules(agent)).toEqual(['NA-HOSTPATH-SENSITIVE']);
  });

  test('snapshot', () => {
    expect(manifests).toMatchSnapshot();
  });
});

describe('DatadogAgent features', () => {
  test('site and cluster name', () => {
    const env = envOf(container(synth({ site: 'datadoghq.eu', clusterName: 'production' })));
    expect([env.DD_SITE, env.DD_CLUSTER_NAME]).toEqual(['datadoghq.eu', 'production']);
  });

  test('the DogStatsD socket: /var/run/datadog read-write, and the host PID namespace for origin detection, each with its reason', () => {
    const m = synth({ dogstatsdSocket: true });
    expect(mountKeys(m)).toContain('/var/run/datadog@/var/run/datadog:rw');
    expect(envOf(container(m)).DD_DOGSTATSD_SOCKET).toEqual('/var/run/datadog/dsd.socket');
    expect(podSpec(m).hostPID).toBe(true);
    expect(reasonFor(m, 'hostPID:')).toMatch(/origin detection/);
  });

  test('process collection: host PID and /etc/passwd read-only', () => {
    const m = synth({ processCollection: true });
    expect(mountKeys(m)).toContain('/etc/passwd@/host/etc/passwd');
    expect(podSpec(m).hostPID).toBe(true);
    expect(envOf(container(m)).DD_PROCESS_CONFIG_PROCESS_COLLECTION_ENABLED).toEqual('true');
  });

  test('a runtime socket is an opt-in: mounted read-only under /host, the critical finding shown and acknowledged with the reason', () => {
    const m = synth({ containerRuntimeSockets: ['/run/containerd/containerd.sock'] });
    expect(mountKeys(m)).toContain('/run/containerd/containerd.sock@/host/run/containerd/containerd.sock');
    expect(envOf(container(m)).DD_CRI_SOCKET_PATH).toEqual('/host/run/containerd/containerd.sock');
    const agent = new DatadogAgent(chart(), 'datadog', { apiKey, containerRuntimeSockets: ['/run/containerd/containerd.sock'] });
    const finding = agent.review().workloads[0].findings.find((f) => f.rule === 'NA-RUNTIME-SOCKET')!;
    expect(finding.severity).toEqual('critical');
    expect(finding.acknowledged).toBe(true);
    expect(finding.acknowledgedReason).toMatch(/enabled with containerRuntimeSockets/);
    expect(openFindings(agent)).toEqual([]);
  });

  test.each([
    ['no API key', {} as any, /apiKey is required: give the Secret key that holds the Datadog API key/],
    ['an API key from a ConfigMap', { apiKey: EnvValue.fromConfigMapKey('dd', 'key') }, /apiKey must be a Secret key.*got the configMap "dd"/],
    ['a literal API key', { apiKey: 'abc123' }, /apiKey/],
    ['a site that is no domain', { apiKey, site: 'https://datadoghq.com' }, /site: "https:\/\/datadoghq\.com" is not a Datadog site/],
    ['a relative socket path', { apiKey, containerRuntimeSockets: ['run/containerd.sock'] }, /containerRuntimeSockets: "run\/containerd\.sock" must be an absolute host path/],
  ])('refuses %s', (_name, props, message) => {
    expect(() => new DatadogAgent(chart(), 'datadog', props)).toThrow(message);
  });
});

describe('DatadogAgent overrides', () => {
  test('props take every NodeAgent property, with the image optional', () => {
    const same: SameKeys<Omit<DatadogAgentProps, 'apiKey' | 'site' | 'clusterName' | 'containerRuntimeSockets' | 'dogstatsdSocket' | 'processCollection'>, NodeAgentProps> = true;
    const imageOptional: undefined extends DatadogAgentProps['image'] ? true : false = true;
    expect([same, imageOptional]).toEqual([true, true]);
  });

  test('an env entry of the preset\'s with another value is refused, pointing at the preset\'s props', () => {
    expect(() => synth({ env: { DD_SITE: 'datadoghq.eu' } })).toThrow(/env: DD_SITE is one of the env DatadogAgent always keeps, because they are the settings the preset derives from its props, or that its probes, port and volumes rely on/);
    const env = envOf(container(synth({ env: { DD_TAGS: 'team:platform', DD_LOG_LEVEL: 'DEBUG' } })));
    // added, and a default that no prop derives replaced; the other defaults stay
    expect([env.DD_TAGS, env.DD_LOG_LEVEL, env.DD_APM_ENABLED, env.DD_SITE]).toEqual(['team:platform', 'DEBUG', 'false', 'datadoghq.com']);
  });
});
