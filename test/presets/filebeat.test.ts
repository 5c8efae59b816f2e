import { HostPathVolumeType } from 'cdk8s-plus-28';
import { parse } from 'yaml';
import {
  PINNED, SameKeys, acknowledgedRules, chart, clusterRules, container, find, hostMount, hostMounts, kinds,
  openFindings, podSpec, reasonFor, reasonKeys, synthOf,
} from './preset-helpers';
import { ElasticOutput, EnvValue, Filebeat, FilebeatProps, HostMount, MetricsMonitor, NodeAgent, NodeAgentProps } from '../../src';
import { synthValid } from '../util/k8s-schema';

function synth(props?: FilebeatProps, namespace?: string): any[] {
  return synthOf((c) => new Filebeat(c, 'filebeat', props), namespace);
}

function config(manifests: any[]): any {
  return parse(find(manifests, 'ConfigMap').data['filebeat.yml']);
}

const credentials = {
  username: EnvValue.fromSecretKey('elasticsearch-credentials', 'username'),
  password: EnvValue.fromSecretKey('elasticsearch-credentials', 'password'),
};

/**
 * Elastic's filebeat-kubernetes.yaml for 7.17 (the corpus' filebeat.yaml), read line by line: its host paths and
 * whether it mounts them read-only, and its ClusterRole.
 */
const ELASTIC_HOST_PATHS: { [path: string]: { readOnly: boolean } } = {
  '/var/lib/docker/containers': { readOnly: true },
  '/var/log': { readOnly: true },
  '/var/lib/filebeat-data': { readOnly: false },
};

describe('Filebeat defaults', () => {
  const manifests = synth();
  const main = container(manifests);

  test('is a NodeAgent constructible with (scope, id) alone, rendering valid objects', () => {
    expect(new Filebeat(chart(), 'filebeat')).toBeInstanceOf(NodeAgent);
    expect(kinds(manifests)).toEqual(['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'DaemonSet', 'Namespace', 'ServiceAccount']);
  });

  test('the image is Elastic\'s Filebeat at the version of Elastic\'s manifest, pinned', () => {
    expect(main.image).toEqual('docker.elastic.co/beats/filebeat:7.17.27');
    expect(main.image).toEqual(Filebeat.DEFAULT_IMAGE);
    expect(main.image).toMatch(PINNED);
  });

  test('runs the binary with -c <config> -e, the configuration from the ConfigMap mounted read-only', () => {
    expect(main.command).toEqual(['/usr/share/filebeat/filebeat']);
    expect(main.args).toEqual(['-c', '/etc/filebeat/filebeat.yml', '-e']);
    expect(main.volumeMounts).toContainEqual({ name: 'config', mountPath: '/etc/filebeat', readOnly: true });
  });

  test('configuration: the container input on /var/log/containers with add_kubernetes_metadata by log path, its own logs excluded', () => {
    const c = config(manifests);
    expect(c['filebeat.inputs']).toEqual([{
      type: 'container',
      paths: ['/var/log/containers/*.log'],
      exclude_files: ['^/var/log/containers/filebeat-[a-z0-9]+_filebeat_agent-'],
      processors: [{ add_kubernetes_metadata: { host: '${NODE_NAME}', matchers: [{ logs_path: { logs_path: '/var/log/containers/' } }] } }],
    }]);
    expect(c.processors).toEqual([{ add_cloud_metadata: {} }, { add_host_metadata: {} }]);
  });

  test('the exclusion matches its own pods\' log files only', () => {
    const exclude = new RegExp(config(manifests)['filebeat.inputs'][0].exclude_files[0]);
    expect(exclude.test('/var/log/containers/filebeat-x7k2p_filebeat_agent-0123abcd.log')).toBe(true);
    expect(exclude.test('/var/log/containers/filebeat-extra-x7k2p_filebeat_agent-0123abcd.log')).toBe(false);
    expect(exclude.test('/var/log/containers/filebeat-x7k2p_other_agent-0123abcd.log')).toBe(false);
    expect(exclude.test('/var/log/containers/logger-x7k2p_filebeat_agent-0123abcd.log')).toBe(false);
  });

  test('configuration: the HTTP endpoint on 5066 and the console output by default', () => {
    const c = config(manifests);
    expect(c).toMatchObject({ 'http.enabled': true, 'http.host': '0.0.0.0', 'http.port': 5066 });
    expect(c['output.console']).toEqual({ codec: { json: { pretty: false } } });
    expect(Object.keys(c).filter((k) => k.startsWith('output.'))).toEqual(['output.console']);
  });

  test('host mounts: /var/log read-only, the registry read-write at the data path; nothing else', () => {
    expect(hostMount(manifests, '/var/log')).toMatchObject({ type: 'Directory', mountPath: '/var/log', readOnly: true });
    expect(hostMount(manifests, '/var/lib/filebeat-data')).toMatchObject({ type: 'DirectoryOrCreate', mountPath: '/usr/share/filebeat/data', readOnly: false });
    expect(hostMounts(manifests).map((m) => m.hostPath)).toEqual(['/var/log', '/var/lib/filebeat-data']);
    expect(reasonFor(manifests, 'hostPath:/var/lib/filebeat-data (read-write)@agent')).toMatch(/registry of read offsets/);
  });

  test('no more host access than Elastic\'s manifest: every host path is one of its, read-only wherever it is', () => {
    for (const m of hostMounts(manifests)) {
      expect(ELASTIC_HOST_PATHS[m.hostPath]).toBeDefined();
      if (ELASTIC_HOST_PATHS[m.hostPath].readOnly) expect(m.readOnly).toBe(true);
    }
    const spec = podSpec(manifests);
    // Elastic's manifest: hostNetwork true; log harvesting does not need it
    expect(spec.hostNetwork).toBeUndefined();
    expect(spec.hostPID).toBeUndefined();
  });

  test('root with every capability dropped, read-only root filesystem, no escalation', () => {
    expect(main.securityContext).toEqual({
      allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: false, runAsUser: 0, capabilities: { drop: ['ALL'] },
    });
    expect(reasonFor(manifests, 'runAsRoot:agent@agent')).toMatch(/root-owned/);
  });

  test('RBAC: Elastic\'s ClusterRole (read-only metadata), neither the leases Role nor the kubeadm-config Role', () => {
    expect(clusterRules(manifests)).toEqual([
      { apiGroups: [''], resources: ['namespaces', 'pods', 'nodes'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['get', 'list', 'watch'] },
    ]);
    expect(manifests.filter((m) => m.kind === 'Role' || m.kind === 'RoleBinding')).toEqual([]);
  });

  test('probes on the monitoring port; no metrics endpoint, since it serves JSON, not the Prometheus format', () => {
    expect(main.ports).toEqual([{ name: 'monitoring', containerPort: 5066, protocol: 'TCP' }]);
    expect(main.livenessProbe).toEqual({ httpGet: { path: '/', port: 5066 } });
    expect(main.readinessProbe).toEqual({ httpGet: { path: '/', port: 5066 } });
    expect(() => new Filebeat(chart(), 'fb').addMetricsMonitor(MetricsMonitor.serviceMonitor())).toThrow(/declares no metrics endpoint/);
  });

  test('resources are Elastic\'s; tolerates the control plane', () => {
    expect(main.resources).toEqual({ requests: { cpu: '100m', memory: '100Mi' }, limits: { memory: '200Mi' } });
    expect(podSpec(manifests).tolerations).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }]);
  });

  test('every host privilege carries its reason', () => {
    expect(reasonKeys(manifests)).toEqual(['hostPath:/var/lib/filebeat-data (read-write)@agent', 'hostPath:/var/log (read-only)@agent', 'runAsRoot:agent@agent']);
  });

  test('security review: no open finding, and none needs an explicit acknowledgement', () => {
    const agent = new Filebeat(chart(), 'filebeat');
    expect(openFindings(agent)).toEqual([]);
    expect(acknowledgedRules(agent)).toEqual([]);
  });

  test('snapshot', () => {
    expect(manifests).toMatchSnapshot();
  });
});

describe('Filebeat with an authenticated Elasticsearch', () => {
  const agent = (props: FilebeatProps = {}) => {
    const c = chart();
    const fb = new Filebeat(c, 'filebeat', { output: ElasticOutput.elasticsearch(['https://elasticsearch.logging.svc:9200'], credentials), ...props });
    return { fb, m: synthValid(c) };
  };

  test('the configuration reads the credentials from variables, which come from the Secret\'s keys', () => {
    const { m } = agent();
    expect(config(m)['output.elasticsearch']).toEqual({
      hosts: ['https://elasticsearch.logging.svc:9200'], username: '${ELASTICSEARCH_USERNAME}', password: '${ELASTICSEARCH_PASSWORD}',
    });
    expect(container(m).env).toEqual(expect.arrayContaining([
      { name: 'ELASTICSEARCH_USERNAME', valueFrom: { secretKeyRef: { name: 'elasticsearch-credentials', key: 'username' } } },
      { name: 'ELASTICSEARCH_PASSWORD', valueFrom: { secretKeyRef: { name: 'elasticsearch-credentials', key: 'password' } } },
    ]));
    expect(JSON.stringify(m)).not.toMatch(/changeme/);
  });

  test('no open finding: a credential from a Secret key is what NA-ENV-SECRET asks for', () => {
    expect(openFindings(agent().fb)).toEqual([]);
  });

  test('envValueFrom of the user\'s is added; another value for a credential variable is refused', () => {
    const { m } = agent({ envValueFrom: { EXTRA: EnvValue.fromSecretKey('extra', 'token') } });
    expect(container(m).env.map((e: any) => e.name)).toEqual(expect.arrayContaining(['ELASTICSEARCH_USERNAME', 'ELASTICSEARCH_PASSWORD', 'EXTRA']));
    expect(() => agent({ envValueFrom: { ELASTICSEARCH_PASSWORD: EnvValue.fromSecretKey('other', 'password') } })).toThrow(
      /^\[test\/filebeat\] envValueFrom: ELASTICSEARCH_PASSWORD is one of the envValueFrom Filebeat always keeps, because the elasticsearch output reads its credentials from them/);
  });
});

describe('Filebeat overrides', () => {
  test('props take every NodeAgent property, with the image optional', () => {
    const same: SameKeys<Omit<FilebeatProps, 'output'>, NodeAgentProps> = true;
    const imageOptional: undefined extends FilebeatProps['image'] ? true : false = true;
    expect([same, imageOptional]).toEqual([true, true]);
  });

  test('name, namespace and container name move the exclusion of its own logs', () => {
    const m = synth({ name: 'logs', namespace: 'logging', containerName: 'filebeat' });
    expect(config(m)['filebeat.inputs'][0].exclude_files).toEqual(['^/var/log/containers/logs-[a-z0-9]+_logging_filebeat-']);
  });

  test('configFiles replace the rendered configuration and must hold filebeat.yml; configMountPath moves the -c', () => {
    const m = synth({ configFiles: { 'filebeat.yml': 'filebeat.inputs: []\n' }, configMountPath: '/config' });
    expect(find(m, 'ConfigMap').data).toEqual({ 'filebeat.yml': 'filebeat.inputs: []\n' });
    expect(container(m).args).toEqual(['-c', '/config/filebeat.yml', '-e']);
    expect(() => synth({ configFiles: { 'inputs.yml': '' } })).toThrow(
      '[test/filebeat] configFiles: filebeat runs with -c /etc/filebeat/filebeat.yml, which your configFiles do not hold ("inputs.yml"): the files ' +
      'you set replace the rendered configuration, so give filebeat.yml, e.g. starting from Filebeat.renderConfig(output)');
  });

  test('host mounts of the user\'s are added; one at the data path is refused, naming what the preset keeps', () => {
    const m = synth({ hostMounts: [HostMount.readOnly('/run/log/journal', { reason: 'reads the volatile systemd journal' })] });
    expect(hostMounts(m).map((x) => x.hostPath)).toEqual(['/var/log', '/var/lib/filebeat-data', '/run/log/journal']);
    expect(() => synth({ hostMounts: [HostMount.readWrite('/var/lib/other', 'r', { mountPath: '/usr/share/filebeat/data', type: HostPathVolumeType.DIRECTORY })] }))
      .toThrow(/hostMounts: your host mount \/var\/lib\/other at \/usr\/share\/filebeat\/data \(read-write\) has the mount path \/usr\/share\/filebeat\/data/);
  });

  test('args of the user\'s come after the preset\'s', () => {
    expect(container(synth({ args: ['-d', 'processors'] })).args).toEqual(['-c', '/etc/filebeat/filebeat.yml', '-e', '-d', 'processors']);
  });

  test('a bad output or bad props are refused naming the field', () => {
    expect(() => new Filebeat(chart(), 'fb', { output: 'console' as any })).toThrow(
      '[test/fb] output must be created with ElasticOutput.elasticsearch(), logstash() or console(), got "console"');
    expect(() => Filebeat.renderConfig({} as any)).toThrow('Filebeat.renderConfig: output must be created with ElasticOutput.elasticsearch(), logstash() or console(), got {}');
    expect(() => Filebeat.renderConfig(ElasticOutput.console(), 'x' as any)).toThrow(/excludeFiles must be a list of regular expressions/);
  });

  test('renderConfig for Logstash', () => {
    expect(parse(Filebeat.renderConfig(ElasticOutput.logstash(['logstash.logging.svc:5044'])))['output.logstash']).toEqual({ hosts: ['logstash.logging.svc:5044'] });
  });
});
