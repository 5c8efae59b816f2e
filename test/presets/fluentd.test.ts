import { HostPathVolumeType } from 'cdk8s-plus-28';
import {
  PINNED, SameKeys, acknowledgedRules, chart, clusterRules, container, find, hostMounts, kinds, openFindings, podSpec, reasonKeys, synthOf,
} from './preset-helpers';
import { EnvValue, Fluentd, FluentdOutput, FluentdProps, HostMount, NodeAgent, NodeAgentProps } from '../../src';

function synth(props?: FluentdProps): any[] {
  return synthOf((c) => new Fluentd(c, 'fluentd', props));
}

const config = (m: any[]) => find(m, 'ConfigMap').data['fluent.conf'] as string;

const elasticsearch = () => FluentdOutput.elasticsearch('elasticsearch.logging.svc', {
  scheme: 'https',
  user: EnvValue.fromSecretKey('elasticsearch-credentials', 'username'),
  password: EnvValue.fromSecretKey('elasticsearch-credentials', 'password'),
});

describe('Fluentd defaults', () => {
  const manifests = synth();
  const main = container(manifests);
  const spec = podSpec(manifests);

  test('is a NodeAgent constructible with (scope, id) alone, rendering valid objects', () => {
    expect(new Fluentd(chart(), 'fluentd')).toBeInstanceOf(NodeAgent);
    expect(kinds(manifests)).toEqual(['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'DaemonSet', 'Namespace', 'Service', 'ServiceAccount']);
  });

  test('the image is the project\'s forward image, pinned to a release (not the rolling v1-debian-forward)', () => {
    expect(main.image).toEqual('docker.io/fluent/fluentd-kubernetes-daemonset:v1.19.3-debian-forward-1.1');
    expect(main.image).toEqual(Fluentd.FORWARD_IMAGE);
    expect(main.image).toMatch(PINNED);
  });

  test('runs the image\'s entrypoint, pointed at the rendered configuration by FLUENTD_CONF (relative to /fluentd/etc)', () => {
    expect(main.command).toBeUndefined();
    expect(main.args).toBeUndefined();
    expect(main.env).toContainEqual({ name: 'FLUENTD_CONF', value: 'conf/fluent.conf' });
    expect(main.volumeMounts).toContainEqual(expect.objectContaining({ mountPath: '/fluentd/etc/conf', readOnly: true }));
  });

  test('configuration: the container logs tailed with the cri parser, positions in /var/lib/fluentd, its own logs excluded', () => {
    const conf = config(manifests);
    expect(conf).toContain('  path /var/log/containers/*.log\n  exclude_path ["/var/log/containers/fluentd-*_fluentd_*.log"]\n  pos_file /var/lib/fluentd/fluentd-containers.log.pos');
    expect(conf).toContain('  <parse>\n    @type cri\n  </parse>');
    expect(conf).toContain('<filter kubernetes.**>\n  @type kubernetes_metadata');
    expect(conf).toContain('  @type prometheus\n  @id in_prometheus\n  bind 0.0.0.0\n  port 24231\n  metrics_path /metrics');
    expect(conf).toMatch(/<match \*\*>\n {2}@id out_stdout\n {2}@type stdout\n<\/match>\n$/);
    // nothing writes under /var/log, which is mounted read-only
    expect(conf).not.toMatch(/pos_file \/var\/log|path \/var\/log\/fluentd/);
  });

  test('host mounts: /var/log read-only, /var/lib/fluentd read-write and created if missing; nothing else', () => {
    expect(hostMounts(manifests).map((m) => [m.hostPath, m.type, m.mountPath, m.readOnly])).toEqual([
      ['/var/log', 'Directory', '/var/log', true],
      ['/var/lib/fluentd', 'DirectoryOrCreate', '/var/lib/fluentd', false],
    ]);
  });

  test('root with every capability dropped, read-only root filesystem, a writable /tmp', () => {
    expect(main.securityContext).toEqual({
      allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: false, runAsUser: 0, capabilities: { drop: ['ALL'] },
    });
    expect(main.volumeMounts.map((v: any) => v.mountPath)).toContain('/tmp');
    expect(spec.hostPID).toBeUndefined();
    expect(spec.hostNetwork).toBeUndefined();
  });

  test('RBAC: the project\'s get/list/watch on pods and namespaces; K8S_NODE_NAME for the metadata filter', () => {
    expect(clusterRules(manifests)).toEqual([{ apiGroups: [''], resources: ['namespaces', 'pods'], verbs: ['get', 'list', 'watch'] }]);
    expect(main.env).toContainEqual({ name: 'K8S_NODE_NAME', value: '$(NODE_NAME)' });
  });

  test('metrics port 24231 behind a Service, probed at /metrics; the project\'s resources and tolerations', () => {
    expect(main.ports).toEqual([{ name: 'metrics', containerPort: 24231, protocol: 'TCP' }]);
    expect(find(manifests, 'Service').spec.ports).toEqual([{ name: 'metrics', port: 24231, targetPort: 'metrics', protocol: 'TCP' }]);
    expect(main.livenessProbe.httpGet).toEqual({ path: '/metrics', port: 24231 });
    expect(main.readinessProbe.httpGet).toEqual({ path: '/metrics', port: 24231 });
    expect(main.resources).toEqual({ requests: { cpu: '100m', memory: '200Mi' }, limits: { memory: '200Mi' } });
    expect(spec.tolerations).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }]);
  });

  test('every host privilege carries its reason; no open finding, none acknowledged by the preset', () => {
    expect(reasonKeys(manifests)).toEqual(['hostPath:/var/lib/fluentd (read-write)@agent', 'hostPath:/var/log (read-only)@agent', 'runAsRoot:agent@agent']);
    const agent = new Fluentd(chart(), 'fluentd');
    expect(openFindings(agent)).toEqual([]);
    expect(acknowledgedRules(agent)).toEqual([]);
  });

  test('snapshot', () => {
    expect(manifests).toMatchSnapshot();
  });
});

describe('Fluentd outputs', () => {
  test('Elasticsearch: the elasticsearch8 image, the credentials from Secret keys, read by the configuration from the environment', () => {
    const c = chart();
    const agent = new Fluentd(c, 'fluentd', { output: elasticsearch() });
    const m = synthOf((cc) => new Fluentd(cc, 'fluentd', { output: elasticsearch() }));
    expect(container(m).image).toEqual('docker.io/fluent/fluentd-kubernetes-daemonset:v1.19.3-debian-elasticsearch8-1.1');
    expect(container(m).env).toEqual(expect.arrayContaining([
      { name: 'FLUENT_ELASTICSEARCH_USER', valueFrom: { secretKeyRef: { name: 'elasticsearch-credentials', key: 'username' } } },
      { name: 'FLUENT_ELASTICSEARCH_PASSWORD', valueFrom: { secretKeyRef: { name: 'elasticsearch-credentials', key: 'password' } } },
    ]));
    const conf = config(m);
    expect(conf).toContain('  sniffer_class_name Fluent::Plugin::ElasticsearchSimpleSniffer\n');
    expect(conf).toContain('  @type elasticsearch\n  host elasticsearch.logging.svc\n  port 9200\n  scheme https\n  ssl_verify true\n  ssl_version TLSv1_2\n' +
      '  user "#{ENV[\'FLUENT_ELASTICSEARCH_USER\']}"\n  password "#{ENV[\'FLUENT_ELASTICSEARCH_PASSWORD\']}"');
    expect(JSON.stringify(m)).not.toMatch(/hunter|changeme/);
    expect(openFindings(agent)).toEqual([]);
  });

  test('Elasticsearch without credentials has no user or password line', () => {
    const conf = config(synth({ output: FluentdOutput.elasticsearch('es', { port: 9243 }) }));
    expect(conf).toContain('  host es\n  port 9243\n  scheme http\n');
    expect(conf).not.toMatch(/user|password/);
  });

  test('forward: the aggregator\'s server', () => {
    const m = synth({ output: FluentdOutput.forward('fluentd-aggregator.logging.svc') });
    expect(container(m).image).toEqual(Fluentd.FORWARD_IMAGE);
    expect(config(m)).toContain('  @type forward\n  <server>\n    host fluentd-aggregator.logging.svc\n    port 24224\n  </server>');
    // the image's forward output sets no buffer of its own (FLUENT_FORWARD_FLUSH_INTERVAL unset: the plugin's default)
    expect(config(m)).not.toContain('<buffer>');
  });

  test.each([
    ['a literal password', () => FluentdOutput.elasticsearch('es', { user: EnvValue.fromSecretKey('s', 'u'), password: 'hunter2' as any }),
      /FluentdOutput\.elasticsearch: password must be a Secret key, e\.g\. EnvValue\.fromSecretKey\('elasticsearch-credentials', 'password'\), got "hunter2"/],
    ['a password from a ConfigMap', () => FluentdOutput.elasticsearch('es', { user: EnvValue.fromSecretKey('s', 'u'), password: EnvValue.fromConfigMapKey('c', 'p') }),
      /password must be a Secret key.*a credential belongs in a Secret/],
    ['a user without a password', () => FluentdOutput.elasticsearch('es', { user: EnvValue.fromSecretKey('s', 'u') }), /give both user and password/],
    ['an unknown scheme', () => FluentdOutput.elasticsearch('es', { scheme: 'ftp' }), /scheme must be "http" or "https", got "ftp"/],
    ['an unknown option', () => FluentdOutput.elasticsearch('es', { tls: true } as any), /has no property "tls"/],
    ['a host with a space', () => FluentdOutput.forward('a b'), /FluentdOutput\.forward: host "a b" is not a host name/],
    ['a port out of range', () => FluentdOutput.forward('a', 70000), /port must be a whole number from 1 to 65535, got 70000/],
  ])('refuses %s', (_name, make, message) => {
    expect(make).toThrow(message);
  });
});

describe('Fluentd overrides', () => {
  test('props take every NodeAgent property, with the image optional', () => {
    const same: SameKeys<Omit<FluentdProps, 'output'>, NodeAgentProps> = true;
    const imageOptional: undefined extends FluentdProps['image'] ? true : false = true;
    expect([same, imageOptional]).toEqual([true, true]);
  });

  test('a host mount of the user\'s is added; one at /var/log is refused, naming what the preset keeps', () => {
    const m = synth({ hostMounts: [HostMount.readOnly('/etc/machine-id', { reason: 'names the node in records', type: HostPathVolumeType.FILE })] });
    expect(hostMounts(m).map((x) => x.hostPath)).toEqual(['/var/log', '/var/lib/fluentd', '/etc/machine-id']);
    expect(() => synth({ hostMounts: [HostMount.readWrite('/var/log', 'writes')] })).toThrow(
      /^\[test\/fluentd\] hostMounts: your host mount \/var\/log at \/var\/log \(read-write\) has the mount path \/var\/log of the host mount \/var\/log at \/var\/log \(read-only\) that Fluentd always keeps/);
  });

  test('the output\'s credentials are kept in envValueFrom; another value for one is refused', () => {
    const m = synth({ output: elasticsearch(), envValueFrom: { EXTRA: EnvValue.fromSecretKey('x', 'y') } });
    expect(container(m).env.map((e: any) => e.name)).toEqual(expect.arrayContaining(['FLUENT_ELASTICSEARCH_USER', 'FLUENT_ELASTICSEARCH_PASSWORD', 'EXTRA']));
    expect(() => synth({ output: elasticsearch(), envValueFrom: { FLUENT_ELASTICSEARCH_PASSWORD: EnvValue.fromSecretKey('other', 'p') } }))
      .toThrow(/envValueFrom: FLUENT_ELASTICSEARCH_PASSWORD is one of the envValueFrom Fluentd always keeps, because the elasticsearch output reads its credentials from them/);
  });

  test('args are refused, since the entrypoint drops them, unless command is set too; configMountPath must be under /fluentd/etc', () => {
    expect(() => synth({ args: ['-v'] })).toThrow(/^\[test\/fluentd\] args: the image's entrypoint \(tini -- \/fluentd\/entrypoint\.sh\) passes no argument to fluentd, so yours would be dropped: give Fluentd's options in env FLUENTD_OPT/);
    expect(container(synth({ command: ['fluentd'], args: ['-c', '/fluentd/etc/conf/fluent.conf'] })).args).toEqual(['-c', '/fluentd/etc/conf/fluent.conf']);
    expect(() => synth({ configMountPath: '/etc/fluentd' })).toThrow(/configMountPath: "\/etc\/fluentd" is not under \/fluentd\/etc: the image's entrypoint runs fluentd -c \/fluentd\/etc\/\$FLUENTD_CONF/);
    expect(container(synth({ configMountPath: '/fluentd/etc/mine' })).env).toContainEqual({ name: 'FLUENTD_CONF', value: 'mine/fluent.conf' });
  });

  test('configFiles must hold fluent.conf; renderConfig is the starting point', () => {
    expect(() => synth({ configFiles: { 'other.conf': '' } })).toThrow(/configFiles: Fluentd runs with \/fluentd\/etc\/conf\/fluent\.conf, which your configFiles do not hold \("other\.conf"\)/);
    const own = Fluentd.renderConfig(FluentdOutput.stdout()) + '# mine\n';
    expect(config(synth({ configFiles: { 'fluent.conf': own } }))).toEqual(own);
    expect(() => Fluentd.renderConfig({} as any)).toThrow(/Fluentd\.renderConfig: output must be created with FluentdOutput\.stdout\(\), forward\(\) or elasticsearch\(\)/);
  });

  test('a wrong type for output is refused by the props check', () => {
    expect(() => new Fluentd(chart(), 'fluentd', { output: 'stdout' as any })).toThrow(/output/);
  });
});
