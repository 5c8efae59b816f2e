import { Size, Testing } from 'cdk8s';
import { HostPathVolumeType } from 'cdk8s-plus-28';
import { parse } from 'yaml';
import {
  PINNED, SameKeys, acknowledgedRules, chart, clusterRules, container, find, hostMount, hostMounts, kinds,
  openFindings, podSpec, reasonFor, reasonKeys, synthOf,
} from './preset-helpers';
import { HostMount, LogCollector, LogCollectorProps, LogOutput, NodeAgent, NodeAgentProps, Toleration } from '../../src';

function synth(props?: LogCollectorProps, namespace?: string): any[] {
  return synthOf((c) => new LogCollector(c, 'fluent-bit', props), namespace);
}

function config(manifests: any[]): any {
  return parse(find(manifests, 'ConfigMap').data['fluent-bit.yaml']);
}

describe('LogCollector defaults', () => {
  const manifests = synth();
  const main = container(manifests);

  test('is a NodeAgent constructible with (scope, id) alone, rendering valid objects', () => {
    const agent = new LogCollector(chart(), 'fluent-bit');
    expect(agent).toBeInstanceOf(NodeAgent);
    expect(NodeAgent.isNodeAgent(agent)).toBe(true);
    expect(kinds(manifests)).toEqual(['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'DaemonSet', 'Namespace', 'Service', 'ServiceAccount']);
  });

  test('the image is Fluent Bit, pinned to a version', () => {
    expect(main.image).toEqual('cr.fluentbit.io/fluent/fluent-bit:5.1.1');
    expect(main.image).toEqual(LogCollector.DEFAULT_IMAGE);
    expect(main.image).toMatch(PINNED);
  });

  test('runs Fluent Bit with the configuration from the ConfigMap, mounted read-only', () => {
    expect(main.command).toEqual(['/fluent-bit/bin/fluent-bit']);
    expect(main.args).toEqual(['--config=/fluent-bit/etc/conf/fluent-bit.yaml']);
    expect(main.volumeMounts).toContainEqual({ name: 'config', mountPath: '/fluent-bit/etc/conf', readOnly: true });
    expect(podSpec(manifests).volumes).toContainEqual({ name: 'config', configMap: { name: 'fluent-bit-config' } });
    expect(find(manifests, 'DaemonSet').spec.template.metadata.annotations['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
  });

  test('pipeline: tail container logs with the cri parser and a tail DB in the state directory, except its own', () => {
    const tail = config(manifests).pipeline.inputs;
    expect(tail).toHaveLength(1);
    expect(tail[0]).toMatchObject({
      'name': 'tail',
      'tag': 'kube.*',
      'path': '/var/log/containers/*.log',
      'multiline.parser': 'cri',
      'db': '/var/lib/fluent-bit/tail.db',
      'storage.type': 'filesystem',
      'exclude_path': '/var/log/containers/fluent-bit-*_fluent-bit_*.log',
    });
  });

  test('pipeline: kubernetes filter for metadata, HTTP server on 2020 with health check, buffer in the state directory', () => {
    const c = config(manifests);
    expect(c.pipeline.filters).toEqual([expect.objectContaining({ name: 'kubernetes', match: 'kube.*' })]);
    expect(c.service).toMatchObject({ 'http_server': 'on', 'http_port': '2020', 'health_check': 'on', 'storage.path': '/var/lib/fluent-bit/buffer' });
  });

  test('pipeline: the default output is stdout', () => {
    expect(config(manifests).pipeline.outputs).toEqual([{ name: 'stdout', match: '*', format: 'json_lines' }]);
  });

  test('host logs: /var/log read-only and typed', () => {
    expect(hostMount(manifests, '/var/log')).toEqual({
      hostPath: '/var/log', type: 'Directory', mountPath: '/var/log', readOnly: true, propagation: undefined, volume: 'host-var-log',
    });
  });

  test('state: /var/lib/fluent-bit writable, DirectoryOrCreate, with its reason; no other host mount', () => {
    expect(hostMount(manifests, '/var/lib/fluent-bit')).toMatchObject({ type: 'DirectoryOrCreate', readOnly: false, mountPath: '/var/lib/fluent-bit' });
    expect(reasonFor(manifests, 'hostPath:/var/lib/fluent-bit (read-write)@agent')).toMatch(/tail position/);
    expect(hostMounts(manifests).map((m) => m.hostPath)).toEqual(['/var/log', '/var/lib/fluent-bit']);
  });

  test('runs as root with every capability dropped, read-only root, no escalation, seccomp RuntimeDefault', () => {
    expect(main.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: false,
      runAsUser: 0,
      capabilities: { drop: ['ALL'] },
    });
    expect(podSpec(manifests).securityContext).toEqual({ seccompProfile: { type: 'RuntimeDefault' } });
    expect(reasonFor(manifests, 'runAsRoot:agent@agent')).toMatch(/root-owned/);
  });

  test('RBAC: get/list/watch on pods and namespaces only, with the token mounted', () => {
    expect(clusterRules(manifests)).toEqual([{ apiGroups: [''], resources: ['namespaces', 'pods'], verbs: ['get', 'list', 'watch'] }]);
    expect(podSpec(manifests).automountServiceAccountToken).toBe(true);
    expect(find(manifests, 'ClusterRoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'fluent-bit', namespace: 'fluent-bit' }]);
  });

  test('metrics port http 2020 and a Service', () => {
    expect(main.ports).toEqual([{ name: 'http', containerPort: 2020, protocol: 'TCP' }]);
    const svc = find(manifests, 'Service');
    expect(svc.spec.ports).toEqual([{ name: 'http', port: 2020, targetPort: 'http', protocol: 'TCP' }]);
    expect(svc.spec.selector).toEqual({ 'app.kubernetes.io/name': 'fluent-bit' });
  });

  test('probes: liveness GET / and readiness GET /api/v1/health on 2020', () => {
    expect(main.livenessProbe).toEqual({ httpGet: { path: '/', port: 2020 } });
    expect(main.readinessProbe).toEqual({ httpGet: { path: '/api/v1/health', port: 2020 } });
  });

  test('resources: requests and a memory limit, no CPU limit', () => {
    expect(main.resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } });
  });

  test('tolerates the control-plane taint only; no priority class, no host namespaces', () => {
    const spec = podSpec(manifests);
    expect(spec.tolerations).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }]);
    expect(spec.priorityClassName).toBeUndefined();
    expect(spec.hostNetwork).toBeUndefined();
    expect(spec.hostPID).toBeUndefined();
    expect(spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
  });

  test('NODE_NAME from the downward API', () => {
    expect(main.env).toContainEqual({ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } });
  });

  test('the namespace carries Pod Security labels: enforce privileged (hostPath), warn and audit restricted', () => {
    expect(find(manifests, 'Namespace').metadata.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'privileged',
      'pod-security.kubernetes.io/warn': 'restricted',
      'pod-security.kubernetes.io/audit': 'restricted',
    });
  });

  test('every host privilege carries its reason on the DaemonSet', () => {
    expect(reasonKeys(manifests)).toEqual([
      'hostPath:/var/lib/fluent-bit (read-write)@agent',
      'hostPath:/var/log (read-only)@agent',
      'runAsRoot:agent@agent',
    ].sort());
  });

  test('exposes the output in use', () => {
    expect(new LogCollector(chart(), 'fb').output.properties.name).toEqual('stdout');
  });

  test('security review: no unacknowledged finding, and none needs an explicit acknowledgement', () => {
    const agent = new LogCollector(chart(), 'fluent-bit');
    expect(openFindings(agent)).toEqual([]);
    expect(acknowledgedRules(agent)).toEqual([]);
  });

  test('snapshot', () => {
    expect(manifests).toMatchSnapshot();
  });
});

describe('LogCollector overrides', () => {
  test('props take every NodeAgent property, with the image optional', () => {
    const same: SameKeys<Omit<LogCollectorProps, 'output'>, NodeAgentProps> = true;
    const imageOptional: undefined extends LogCollectorProps['image'] ? true : false = true;
    expect([same, imageOptional]).toEqual([true, true]);
  });

  test('a prop set by the user wins: image, resources, namespace, name', () => {
    const m = synth({
      image: 'registry.example.com/fluent-bit:5.1.1-custom',
      name: 'logs',
      namespace: 'logging',
      resources: { memoryRequest: Size.mebibytes(64), memoryLimit: Size.mebibytes(96) },
    });
    const main = container(m);
    expect(main.image).toEqual('registry.example.com/fluent-bit:5.1.1-custom');
    expect(main.resources.limits.memory).toEqual('96Mi');
    expect(find(m, 'DaemonSet').metadata).toMatchObject({ name: 'logs', namespace: 'logging' });
    expect(config(m).pipeline.inputs[0].exclude_path).toEqual('/var/log/containers/logs-*_logging_*.log');
  });

  test('the chart namespace is used for the exclusion of its own logs', () => {
    expect(config(synth(undefined, 'observability')).pipeline.inputs[0].exclude_path).toEqual('/var/log/containers/fluent-bit-*_observability_*.log');
  });

  test('lists given by the user: host mounts, ports and permissions are added to what the preset needs, tolerations replace its', () => {
    const m = synth({
      hostMounts: [HostMount.readOnly('/var/log/journal', { reason: 'reads the systemd journal' })],
      ports: [{ name: 'forward', containerPort: 24224 }],
      tolerations: [],
      clusterPermissions: [{ resources: ['nodes'], verbs: ['get'] }],
    });
    expect(hostMounts(m).map((x) => x.hostPath)).toEqual(['/var/log', '/var/lib/fluent-bit', '/var/log/journal']);
    expect(container(m).ports.map((p: any) => p.name)).toEqual(['http', 'forward']);
    expect(podSpec(m).tolerations).toBeUndefined();
    expect(clusterRules(m)).toEqual([
      { apiGroups: [''], resources: ['namespaces', 'pods'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
    ]);
  });

  test('args are added after --config; a --config of your own is refused, pointing at configFiles', () => {
    expect(container(synth({ args: ['--verbose'] })).args).toEqual(['--config=/fluent-bit/etc/conf/fluent-bit.yaml', '--verbose']);
    expect(() => synth({ args: ['--config=/etc/other.yaml'] })).toThrow(
      '[test/fluent-bit] args: your arg --config=/etc/other.yaml has the flag --config of the arg --config=/fluent-bit/etc/conf/fluent-bit.yaml that ' +
      'LogCollector always keeps, because it points Fluent Bit at its configuration file (set configFiles to give your own fluent-bit.yaml). ' +
      'The args you set are added to the preset\'s: leave this one out, or give yours another flag');
  });

  test('a host mount at a path the configuration uses is refused, naming what the preset keeps and why', () => {
    expect(() => synth({ hostMounts: [HostMount.readWrite('/var/log', 'writes logs', { type: HostPathVolumeType.DIRECTORY })] })).toThrow(
      '[test/fluent-bit] hostMounts: your host mount /var/log at /var/log (read-write) has the mount path /var/log of the host mount /var/log at ' +
      '/var/log (read-only) that LogCollector always keeps, because its configuration tails /var/log/containers and keeps its tail database and ' +
      'buffer in /var/lib/fluent-bit. The hostMounts you set are added to the preset\'s: leave this one out, or give yours another mount path');
  });

  test('the preset\'s own items given back are rendered once', () => {
    const m = synth({ hostMounts: [HostMount.readOnly('/var/log', { reason: 'tails container logs (/var/log/containers links to /var/log/pods)' })] });
    expect(hostMounts(m).map((x) => x.hostPath)).toEqual(['/var/log', '/var/lib/fluent-bit']);
  });

  test('add* methods add to the preset\'s lists', () => {
    const c = chart();
    const agent = new LogCollector(c, 'fluent-bit');
    agent.addToleration(Toleration.exists('dedicated'));
    agent.addHostMount(HostMount.readOnly('/etc/machine-id', { reason: 'r', type: HostPathVolumeType.FILE }));
    const m = Testing.synth(c);
    expect(podSpec(m).tolerations).toHaveLength(2);
    expect(hostMounts(m).map((x) => x.hostPath)).toEqual(['/var/log', '/var/lib/fluent-bit', '/etc/machine-id']);
  });

  test('runAsUser given by the user drops the preset\'s runAsRoot', () => {
    const main = container(synth({ runAsUser: 10001 }));
    expect(main.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 });
  });

  test('the output is pluggable: forward, Loki and custom sections', () => {
    expect(config(synth({ output: LogOutput.forward('fluentd.logging.svc') })).pipeline.outputs)
      .toEqual([{ name: 'forward', match: '*', host: 'fluentd.logging.svc', port: '24224' }]);
    expect(config(synth({ output: LogOutput.loki('https://logs.example.com:8443') })).pipeline.outputs[0]).toMatchObject({
      name: 'loki', host: 'logs.example.com', port: '8443', uri: '/loki/api/v1/push', tls: 'on',
    });
    expect(LogOutput.loki('http://loki-gateway.logging.svc/custom/push').properties).toMatchObject({ port: '80', uri: '/custom/push', tls: 'off' });
    expect(config(synth({ output: LogOutput.custom({ name: 'http', match: 'kube.*', host: 'collector.example.com' }) })).pipeline.outputs)
      .toEqual([{ name: 'http', match: 'kube.*', host: 'collector.example.com' }]);
  });

  test('configFiles given by the user replace the generated configuration; configMountPath moves it and the args follow', () => {
    const m = synth({ configFiles: { 'fluent-bit.yaml': 'pipeline: {}\n' }, configMountPath: '/config' });
    expect(find(m, 'ConfigMap').data).toEqual({ 'fluent-bit.yaml': 'pipeline: {}\n' });
    expect(container(m).args).toEqual(['--config=/config/fluent-bit.yaml']);
  });

  test('renderConfig gives the default configuration for any output', () => {
    const rendered = parse(LogCollector.renderConfig(LogOutput.stdout()));
    expect(rendered.pipeline.inputs[0].exclude_path).toBeUndefined();
    expect(rendered.pipeline.outputs[0].name).toEqual('stdout');
  });

  test('fails on bad outputs with a clear message', () => {
    expect(() => LogOutput.forward('', 24224)).toThrow(/LogOutput.forward: host "" is not a host name/);
    expect(() => LogOutput.forward('fluentd', 70000)).toThrow(/port must be a whole number from 1 to 65535, got 70000/);
    expect(() => LogOutput.loki('loki-gateway.logging.svc:3100')).toThrow(
      'LogOutput.loki: "loki-gateway.logging.svc:3100" has no scheme: write the URL with http:// or https://, e.g. LogOutput.loki(\'http://loki-gateway.logging.svc:3100\')');
    expect(() => LogOutput.loki('loki:3100')).toThrow(/"loki:3100" has no scheme/);
    expect(() => LogOutput.loki('ftp://loki:3100')).toThrow('LogOutput.loki: "ftp://loki:3100" must use http:// or https://, got "ftp://"');
    expect(() => LogOutput.loki('not a url')).toThrow(/is not a URL/);
    expect(() => LogOutput.loki('https://user:pw@logs.example.com')).toThrow(/carries credentials/);
    expect(() => LogOutput.custom({ match: '*' })).toThrow(/needs a "name"/);
  });

  test('output is deterministic', () => {
    expect(JSON.stringify(synth())).toEqual(JSON.stringify(synth()));
  });
});
