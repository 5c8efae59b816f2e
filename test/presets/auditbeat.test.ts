import { parse } from 'yaml';
import {
  PINNED, SameKeys, acknowledgedRules, chart, clusterRules, container, find, hostMount, hostMounts, kinds,
  openFindings, podSpec, reasonFor, reasonKeys, synthOf,
} from './preset-helpers';
import { Auditbeat, AuditbeatProps, ElasticOutput, EnvValue, HostMount, MetricsMonitor, NodeAgent, NodeAgentProps } from '../../src';

function synth(props?: AuditbeatProps): any[] {
  return synthOf((c) => new Auditbeat(c, 'auditbeat', props));
}

function config(manifests: any[]): any {
  return parse(find(manifests, 'ConfigMap').data['auditbeat.yml']);
}

/**
 * Elastic's auditbeat-kubernetes.yaml for 7.17 (the corpus' auditbeat.yaml), read line by line: its host paths (all
 * read-only but the data directory), its capabilities and host namespaces.
 */
const ELASTIC_HOST_PATHS: { [path: string]: { readOnly: boolean } } = {
  '/bin': { readOnly: true },
  '/usr/bin': { readOnly: true },
  '/sbin': { readOnly: true },
  '/usr/sbin': { readOnly: true },
  '/etc': { readOnly: true },
  '/var/lib/auditbeat-data': { readOnly: false },
  '/run/containerd': { readOnly: true },
};
const ELASTIC_CAPABILITIES = ['AUDIT_READ', 'AUDIT_WRITE', 'AUDIT_CONTROL'];

describe('Auditbeat defaults', () => {
  const manifests = synth();
  const main = container(manifests);

  test('is a NodeAgent constructible with (scope, id) alone, rendering valid objects', () => {
    expect(new Auditbeat(chart(), 'auditbeat')).toBeInstanceOf(NodeAgent);
    expect(kinds(manifests)).toEqual(['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'DaemonSet', 'Namespace', 'ServiceAccount']);
  });

  test('the image is Elastic\'s Auditbeat at the version of Elastic\'s manifest, pinned; run with -c <config> -e', () => {
    expect(main.image).toEqual('docker.elastic.co/beats/auditbeat:7.17.27');
    expect(main.image).toMatch(PINNED);
    expect(main.command).toEqual(['/usr/share/auditbeat/auditbeat']);
    expect(main.args).toEqual(['-c', '/etc/auditbeat/auditbeat.yml', '-e']);
  });

  test('configuration: Elastic\'s file_integrity and auditd modules, on the paths mounted under /hostfs', () => {
    const [fim, auditd] = config(manifests)['auditbeat.modules'];
    expect(fim).toEqual({
      module: 'file_integrity',
      paths: ['/hostfs/bin', '/hostfs/usr/bin', '/hostfs/sbin', '/hostfs/usr/sbin', '/hostfs/etc'],
      exclude_files: ['(?i)\\.sw[nop]$', '~$', '/\\.git($|/)'],
      scan_at_start: true,
      scan_rate_per_sec: '50 MiB',
      max_file_size: '100 MiB',
      hash_types: ['sha1'],
      recursive: true,
    });
    expect(auditd.module).toEqual('auditd');
    expect(auditd.audit_rules.split('\n').filter((l: string) => l.startsWith('-a'))).toEqual([
      '-a always,exit -F arch=b64 -S execve,execveat -k exec',
      '-a always,exit -F arch=b64 -S open,creat,truncate,ftruncate,openat,open_by_handle_at -F exit=-EACCES -k access',
      '-a always,exit -F arch=b64 -S open,creat,truncate,ftruncate,openat,open_by_handle_at -F exit=-EPERM -k access',
    ]);
    for (const path of fim.paths) expect(main.volumeMounts.map((v: any) => v.mountPath)).toContain(path);
  });

  test('configuration: Elastic\'s processors (process and Kubernetes metadata by container ID), the HTTP endpoint, the console output', () => {
    const c = config(manifests);
    expect(c.processors).toEqual([
      { add_cloud_metadata: {} },
      { add_process_metadata: { match_pids: ['process.pid'], include_fields: ['container.id'] } },
      {
        add_kubernetes_metadata: {
          'host': '${NODE_NAME}',
          'default_indexers.enabled': false,
          'default_matchers.enabled': false,
          'indexers': [{ container: {} }],
          'matchers': [{ 'fields.lookup_fields': ['container.id'] }],
        },
      },
    ]);
    expect(c).toMatchObject({ 'http.enabled': true, 'http.port': 5066, 'output.console': { codec: { json: { pretty: false } } } });
  });

  test('host PID and host network, each with its reason; the monitoring port declared on the node', () => {
    const spec = podSpec(manifests);
    expect([spec.hostPID, spec.hostNetwork, spec.dnsPolicy]).toEqual([true, true, 'ClusterFirstWithHostNet']);
    expect(reasonFor(manifests, 'hostPID:')).toMatch(/initial PID namespace/);
    expect(reasonFor(manifests, 'hostNetwork:')).toMatch(/initial network namespace/);
    expect(main.ports).toEqual([{ name: 'monitoring', containerPort: 5066, hostPort: 5066, protocol: 'TCP' }]);
  });

  test('AUDIT_CONTROL and AUDIT_READ as root, every other capability dropped; no AUDIT_WRITE', () => {
    expect(main.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: false,
      runAsUser: 0,
      capabilities: { add: ['AUDIT_CONTROL', 'AUDIT_READ'], drop: ['ALL'] },
    });
    expect(reasonFor(manifests, 'capability:AUDIT_CONTROL@agent')).toMatch(/audit daemon/);
    expect(reasonFor(manifests, 'capability:AUDIT_READ@agent')).toMatch(/multicast/);
    expect(reasonFor(manifests, 'runAsRoot:agent@agent')).toMatch(/effective only for UID 0/);
  });

  test('host mounts: the watched directories read-only at /hostfs, the hashes read-write at the data path', () => {
    expect(hostMounts(manifests).map((m) => `${m.hostPath}@${m.mountPath}${m.readOnly ? '' : ':rw'}`)).toEqual([
      '/bin@/hostfs/bin', '/usr/bin@/hostfs/usr/bin', '/sbin@/hostfs/sbin', '/usr/sbin@/hostfs/usr/sbin', '/etc@/hostfs/etc',
      '/var/lib/auditbeat-data@/usr/share/auditbeat/data:rw',
    ]);
    expect(hostMount(manifests, '/var/lib/auditbeat-data').type).toEqual('DirectoryOrCreate');
  });

  test('no more host access than Elastic\'s manifest: its paths (read-only wherever it is), a subset of its capabilities', () => {
    for (const m of hostMounts(manifests)) {
      expect(ELASTIC_HOST_PATHS[m.hostPath]).toBeDefined();
      if (ELASTIC_HOST_PATHS[m.hostPath].readOnly) expect(m.readOnly).toBe(true);
    }
    for (const cap of main.securityContext.capabilities.add) expect(ELASTIC_CAPABILITIES).toContain(cap);
    expect(podSpec(manifests).hostIPC).toBeUndefined();
  });

  test('RBAC: Elastic\'s ClusterRole only', () => {
    expect(clusterRules(manifests)).toEqual([
      { apiGroups: [''], resources: ['namespaces', 'pods', 'nodes'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['get', 'list', 'watch'] },
    ]);
    expect(manifests.filter((m) => m.kind === 'Role')).toEqual([]);
  });

  test('probes, resources, priority class, tolerations', () => {
    expect(main.livenessProbe).toEqual({ httpGet: { path: '/', port: 5066 } });
    expect(main.readinessProbe).toEqual({ httpGet: { path: '/', port: 5066 } });
    expect(main.resources).toEqual({ requests: { cpu: '100m', memory: '100Mi' }, limits: { memory: '200Mi' } });
    expect(podSpec(manifests).priorityClassName).toEqual('system-cluster-critical');
    expect(podSpec(manifests).tolerations).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }]);
  });

  test('every host privilege carries its reason', () => {
    expect(reasonKeys(manifests)).toEqual([
      'capability:AUDIT_CONTROL@agent', 'capability:AUDIT_READ@agent', 'hostNetwork:', 'hostPID:',
      'hostPath:/bin (read-only)@agent', 'hostPath:/etc (read-only)@agent', 'hostPath:/sbin (read-only)@agent', 'hostPath:/usr/bin (read-only)@agent',
      'hostPath:/usr/sbin (read-only)@agent', 'hostPath:/var/lib/auditbeat-data (read-write)@agent', 'hostPort:5066/TCP@agent', 'runAsRoot:agent@agent',
    ].sort());
  });

  test('security review: no open finding; the host\'s /etc is acknowledged with its reason, only while the mounts are the preset\'s', () => {
    const agent = new Auditbeat(chart(), 'auditbeat');
    expect(openFindings(agent)).toEqual([]);
    expect(acknowledgedRules(agent)).toEqual(['NA-HOSTPATH-SENSITIVE']);
    const other = new Auditbeat(chart(), 'auditbeat', { reviewFailOn: 'critical' as any, fileIntegrityPaths: ['/etc'] });
    expect(openFindings(other)).toEqual([expect.stringMatching(/^\[critical\] NA-HOSTPATH-SENSITIVE \(agent\)/)]);
  });

  test('no metrics endpoint: the HTTP endpoint serves JSON, not the Prometheus format', () => {
    expect(() => new Auditbeat(chart(), 'auditbeat').addMetricsMonitor(MetricsMonitor.podMonitor())).toThrow(/addMetricsMonitor: this agent declares no metrics endpoint/);
  });

  test('snapshot', () => {
    expect(manifests).toMatchSnapshot();
  });
});

describe('Auditbeat overrides', () => {
  test('props take every NodeAgent property, with the image optional', () => {
    const same: SameKeys<Omit<AuditbeatProps, 'output' | 'fileIntegrityPaths' | 'auditRules'>, NodeAgentProps> = true;
    expect(same).toBe(true);
  });

  test('fileIntegrityPaths replace the watched directories, mounts and configuration alike', () => {
    const m = synth({ fileIntegrityPaths: ['/usr/local/bin'] });
    expect(hostMounts(m).map((x) => x.hostPath)).toEqual(['/usr/local/bin', '/var/lib/auditbeat-data']);
    expect(config(m)['auditbeat.modules'][0].paths).toEqual(['/hostfs/usr/local/bin']);
    expect(() => synth({ fileIntegrityPaths: ['etc'] })).toThrow('[test/auditbeat] fileIntegrityPaths: "etc" must be an absolute host path, e.g. "/etc"');
  });

  test('auditRules replace Elastic\'s', () => {
    expect(config(synth({ auditRules: '-w /etc/passwd -p wa -k identity\n' }))['auditbeat.modules'][1].audit_rules).toEqual('-w /etc/passwd -p wa -k identity\n');
  });

  test('the audit capabilities are kept; AUDIT_WRITE of the user\'s is added', () => {
    const m = synth({ capabilities: [{ capability: 'AUDIT_WRITE' as any, reason: 'writes user-space audit records' }] });
    expect(container(m).securityContext.capabilities.add).toEqual(['AUDIT_CONTROL', 'AUDIT_READ', 'AUDIT_WRITE']);
    expect(() => synth({ capabilities: [{ capability: 'AUDIT_READ' as any, reason: 'r' }] })).toThrow(
      /capabilities: your capability AUDIT_READ is already one of the capabilities Auditbeat always keeps, because the auditd module needs them/);
  });

  test('credentials from a Secret', () => {
    const m = synth({
      output: ElasticOutput.elasticsearch(['https://es:9200'], { apiKey: EnvValue.fromSecretKey('es', 'api-key') }),
    });
    expect(config(m)['output.elasticsearch'].api_key).toEqual('${ELASTICSEARCH_API_KEY}');
    expect(container(m).env).toContainEqual({ name: 'ELASTICSEARCH_API_KEY', valueFrom: { secretKeyRef: { name: 'es', key: 'api-key' } } });
  });

  test('host mounts of the user\'s end the acknowledgement of /etc: the mounts are then partly the user\'s to judge', () => {
    expect(() => synth({ hostMounts: [HostMount.readOnly('/usr/local/bin', { mountPath: '/hostfs/usr/local/bin', reason: 'local binaries' })] }))
      .toThrow(/\[critical\] NA-HOSTPATH-SENSITIVE: DaemonSet auditbeat\/auditbeat, container "agent": mounts host path \/etc read-only at \/hostfs\/etc/);
  });

  test('bad props are refused naming the field', () => {
    expect(() => synth({ fileIntegrityPath: ['/etc'] } as any)).toThrow('[test/auditbeat] AuditbeatProps has no property "fileIntegrityPath": did you mean "fileIntegrityPaths"?');
    expect(() => synth({ fileIntegrityPaths: '/etc' } as any)).toThrow(/^\[test\/auditbeat\] fileIntegrityPaths must be a list of host paths .*, got "\/etc": write a list/);
  });

  test('configFiles must hold auditbeat.yml; bad renderConfig arguments are refused', () => {
    expect(() => synth({ configFiles: { 'modules.yml': '' } })).toThrow(/configFiles: auditbeat runs with -c \/etc\/auditbeat\/auditbeat.yml, which your configFiles do not hold/);
    expect(() => Auditbeat.renderConfig(ElasticOutput.console(), ['etc'])).toThrow(/fileIntegrityPaths must be a list of absolute host paths/);
    expect(() => Auditbeat.renderConfig(ElasticOutput.console(), undefined, 1 as any)).toThrow(/auditRules must be auditctl rules/);
  });
});
