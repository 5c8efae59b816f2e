import * as path from 'path';
import { stringify } from 'yaml';
import { expectOneErrorLine, runCli, tempFiles } from './run-cli';
import { HostAccessType } from '../../src';

// ---------- fixtures ----------

function container(extra: any = {}): any {
  return {
    name: 'agent',
    image: 'registry.example.com/node-agent:1.2.0',
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
    livenessProbe: { httpGet: { path: '/healthz', port: 8080 } },
    readinessProbe: { httpGet: { path: '/healthz', port: 8080 } },
    ...extra,
  };
}

function ds(name: string, podSpec: any = {}, metadata: any = {}): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'observability', ...metadata },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          serviceAccountName: name,
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, runAsUser: 65534, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [container()],
          ...podSpec,
        },
      },
    },
  };
}

function yamlStream(...objects: any[]): string {
  return objects.map((o) => stringify(o)).join('---\n');
}

/** a node-exporter-like agent: hostNetwork, hostPID, / and /sys read-only, hostPort 9100; only /sys has a reason. */
function exporter(annotations: any = {}): any {
  return ds('exporter', {
    hostNetwork: true,
    hostPID: true,
    priorityClassName: 'system-node-critical',
    containers: [container({
      ports: [{ containerPort: 9100, hostPort: 9100 }],
      volumeMounts: [{ name: 'root', mountPath: '/host/root', readOnly: true }, { name: 'sys', mountPath: '/host/sys', readOnly: true }],
    })],
    volumes: [{ name: 'root', hostPath: { path: '/', type: 'Directory' } }, { name: 'sys', hostPath: { path: '/sys', type: 'Directory' } }],
  }, {
    annotations: {
      'node-agents.cdk8s.io/host-access': JSON.stringify([{ type: 'hostPath', detail: '/sys (read-only)', reason: 'reads hardware and kernel metrics' }]),
      ...annotations,
    },
  });
}

const CHART_SHAPED = path.join(__dirname, '..', '..', 'examples', 'review', 'chart-shaped.yaml');

// ---------- text output ----------

describe('review: report', () => {
  test('prints the Markdown report: level, every host privilege with risk and reason, findings; exit 0 without --fail-on', async () => {
    const t = tempFiles();
    const r = await runCli('review', t.write('app.yaml', yamlStream({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'observability' } }, exporter())));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^# Security review\n\n1 workload; Pod Security policy version 1\.28; packs node-agent-baseline, node-agent-practices, pss-baseline\.\n/);
    expect(r.stdout).toContain('## DaemonSet observability/exporter\n\nPod Security level: privileged\n');
    expect(r.stdout).toContain('- hostPath / (read-only) in container "agent": risk critical\n  - reason: no reason recorded\n');
    expect(r.stdout).toContain('- hostPath /sys (read-only) in container "agent": risk medium\n  - reason: reads hardware and kernel metrics\n');
    expect(r.stdout).toContain('- hostNetwork: risk high\n');
    expect(r.stdout).toContain('- hostPID: risk high\n');
    expect(r.stdout).toContain('- hostPort 9100/TCP in container "agent": risk low\n');
    expect(r.stdout).toContain('- [critical] NA-RUNTIME-SOCKET (with NA-HOSTPATH-SENSITIVE, NA-HOST-ACCESS-REASON, PSS-BASELINE-hostPathVolumes): ' +
      'DaemonSet observability/exporter, container "agent": mounts /, which contains the container runtime sockets');
    // one finding per host namespace, Pod Security's check merged into each
    expect(r.stdout).toContain('- [high] NA-HOST-ACCESS-REASON (with PSS-BASELINE-hostNamespaces): DaemonSet observability/exporter: takes hostNetwork, which is high risk: uses the node\'s network stack');
    expect(r.stdout).toContain('- [high] NA-HOST-ACCESS-REASON (with PSS-BASELINE-hostNamespaces): DaemonSet observability/exporter: takes hostPID, which is high risk: sees every process on the node');
    expect(r.stdout).not.toContain('host namespaces (hostNetwork=true, hostPID=true)');
  });

  test('reads every file given, any kinds, and reviews each workload (CronJob and Pod included)', async () => {
    const t = tempFiles();
    const cron = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'job' }, spec: { schedule: '@daily', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } } } };
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'x' }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } };
    const r = await runCli('review', t.write('a.yaml', yamlStream(cron)), t.write('b.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [pod] })));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('## CronJob job\n');
    expect(r.stdout).toContain('## Pod x/p\n');
    expect(r.stdout).toContain('NA-IMAGE-PINNED: CronJob job, container "c": uses image busybox without a tag, which pulls latest (spec.jobTemplate.spec.template.spec.containers[0].image)');
  });

  test('no workload: the report says so and a note goes to stderr; exit 0', async () => {
    const t = tempFiles();
    const file = t.write('cm.yaml', stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }));
    const r = await runCli('review', file);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No workloads (DaemonSet, Deployment, StatefulSet, ReplicaSet, Job, CronJob, Pod) found.');
    expect(r.stderr).toBe(`note: no workload found in ${file}\n`);
  });
});

describe('review: --json', () => {
  test('prints the JSON shape: workloads with kind, namespace, name, podSecurityLevel, hostAccess {type, detail, risk}, findings {rule, severity, message}', async () => {
    const t = tempFiles();
    const r = await runCli('review', '--json', t.write('app.yaml', stringify(exporter())));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const json = JSON.parse(r.stdout);
    expect(json.workloads).toHaveLength(1);
    const w = json.workloads[0];
    expect([w.kind, w.namespace, w.name, w.podSecurityLevel]).toEqual(['DaemonSet', 'observability', 'exporter', 'privileged']);
    expect(w.hostAccess.map((h: any) => [h.type, h.detail, h.risk])).toEqual([
      ['hostPath', '/ (read-only)', 'critical'],
      ['hostPath', '/sys (read-only)', 'medium'],
      ['hostNetwork', '', 'high'],
      ['hostPID', '', 'high'],
      ['hostPort', '9100/TCP', 'low'],
    ]);
    const types: string[] = Object.values(HostAccessType);
    for (const h of w.hostAccess) expect(types).toContain(h.type);
    for (const f of w.findings) {
      expect(typeof f.rule).toBe('string');
      expect(['low', 'medium', 'high', 'critical']).toContain(f.severity);
      expect(f.message).toMatch(/^DaemonSet observability\/exporter/);
    }
    // one finding per privilege: the mount of / (the runtime sockets it holds, its sensitivity read-only, its missing
    // reason, Pod Security's check), hostNetwork, hostPID, /sys (its check, accepted by its reason), the hostPort
    expect(w.findings.map((f: any) => `${f.severity} ${f.rules.join('+')}`)).toEqual([
      'critical NA-RUNTIME-SOCKET+NA-HOSTPATH-SENSITIVE+NA-HOST-ACCESS-REASON+PSS-BASELINE-hostPathVolumes',
      'high NA-HOST-ACCESS-REASON+PSS-BASELINE-hostNamespaces',
      'high NA-HOST-ACCESS-REASON+PSS-BASELINE-hostNamespaces',
      'medium PSS-BASELINE-hostPathVolumes',
      'low NA-HOST-ACCESS-REASON+PSS-BASELINE-hostPorts',
    ]);
    expect(w.findings.map((f: any) => f.podSecurity)).toEqual([['hostPathVolumes'], ['hostNamespaces'], ['hostNamespaces'], ['hostPathVolumes'], ['hostPorts']]);
  });

  test('is deterministic', async () => {
    const t = tempFiles();
    const file = t.write('app.yaml', stringify(exporter()));
    expect((await runCli('review', '--json', file)).stdout).toBe((await runCli('review', '--json', file)).stdout);
  });
});

describe('review: exit status', () => {
  test('--fail-on SEVERITY exits 1 when an unacknowledged finding at or above it is open, naming how many on stderr', async () => {
    const r = await runCli('review', '--fail-on', 'high', CHART_SHAPED);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^# Security review/);
    expect(r.stderr).toBe('review: 2 open findings at or above high (--fail-on high)\n');
    expect((await runCli('review', '--fail-on', 'LOW', '--json', CHART_SHAPED)).stderr).toBe('review: 9 open findings at or above low (--fail-on low)\n');
  });

  test('--fail-on exits 0 when nothing that high is open', async () => {
    const r = await runCli('review', '--fail-on', 'critical', CHART_SHAPED);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  test('acknowledged findings do not fail the run', async () => {
    const t = tempFiles();
    const acks = JSON.stringify([
      { rule: 'NA-RUNTIME-SOCKET', reason: 'node-exporter reads / for filesystem metrics; the socket is never opened' },
      { rule: 'NA-HOST-ACCESS-REASON', reason: 'the chart records no reasons; reviewed by hand in SEC-123' },
    ]);
    const file = t.write('app.yaml', stringify(exporter({ 'node-agents.cdk8s.io/acknowledged': acks })));
    expect((await runCli('review', '--fail-on', 'critical', file)).code).toBe(0);
    // the host namespaces' findings: the missing reason and Pod Security's check, both high, one finding each, accepted
    expect((await runCli('review', '--fail-on', 'high', file)).code).toBe(0);
    const r = await runCli('review', file);
    expect(r.stdout).toContain('  - acknowledged: node-exporter reads / for filesystem metrics; the socket is never opened');
    const socketOnly = t.write('socket.yaml', stringify(exporter({ 'node-agents.cdk8s.io/acknowledged': JSON.stringify([JSON.parse(acks)[0]]) })));
    expect((await runCli('review', '--fail-on', 'critical', socketOnly)).code).toBe(0);
    const open = await runCli('review', '--fail-on', 'high', socketOnly);
    expect([open.code, open.stderr]).toEqual([1, 'review: 2 open findings at or above high (--fail-on high)\n']);
  });

  test('without --fail-on, findings never change the exit status', async () => {
    expect((await runCli('review', CHART_SHAPED)).code).toBe(0);
  });
});

describe('review: the API server\'s rules, on plain YAML', () => {
  test('reports each rule the API server enforces (NA-API-REJECTED), whatever the packs, and --fail-on critical fails on them', async () => {
    const t = tempFiles();
    const file = t.write('bad.yaml', yamlStream(ds('bad', {
      hostNetwork: true,
      containers: [
        container({ ports: [{ name: 'metrics', containerPort: 9100, hostPort: 9101 }] }),
        container({ name: 'second', ports: [{ containerPort: 9101, hostPort: 9101 }], volumeMounts: [{ name: 'kubelet', mountPath: '/var/lib/kubelet', mountPropagation: 'Bidirectional' }] }),
      ],
      volumes: [{ name: 'kubelet', hostPath: { path: '/var/lib/kubelet', type: 'Directory' } }],
    })));
    for (const packs of [[], ['--pack', 'pss-restricted']]) {
      const r = await runCli('review', '--json', ...packs, file);
      // the API server would reject the DaemonSet: exit 2, one line for it on stderr, the report still printed
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`error: ${file}:1: document 1 (DaemonSet observability/bad): NA-API-REJECTED: container "agent": port metrics: on the host network hostPort (9101) must equal containerPort (9100); the API server rejects this (spec.template.spec.containers[0].ports[0].hostPort) (and 2 more findings like it in the review)\n`);
      const findings = JSON.parse(r.stdout).workloads[0].findings.filter((f: any) => f.rule === 'NA-API-REJECTED');
      expect(findings.map((f: any) => [f.severity, f.container, f.field])).toEqual([
        ['high', 'agent', 'spec.template.spec.containers[0].ports[0].hostPort'],
        ['high', 'second', 'spec.template.spec.containers[1].ports[0].hostPort'],
        ['high', 'second', 'spec.template.spec.containers[1].volumeMounts[0].mountPropagation'],
      ]);
      expect(findings.map((f: any) => f.message)).toEqual([
        'DaemonSet observability/bad, container "agent": port metrics: on the host network hostPort (9101) must equal containerPort (9100); the API server rejects this (spec.template.spec.containers[0].ports[0].hostPort)',
        'DaemonSet observability/bad, container "second": host port 9101/TCP is also bound by container "agent": a node has each port once; the API server rejects this (spec.template.spec.containers[1].ports[0].hostPort)',
        'DaemonSet observability/bad, container "second": mounts /var/lib/kubelet with Bidirectional propagation, which Kubernetes allows only in privileged containers; the API server rejects this (spec.template.spec.containers[1].volumeMounts[0].mountPropagation)',
      ]);
    }
    expect((await runCli('review', '--fail-on', 'critical', file)).code).toBe(2);
  });

  test('an acknowledgement does not accept them: the manifest must change', async () => {
    const t = tempFiles();
    const manifest = ds('bad', { containers: [container({ securityContext: { privileged: true, allowPrivilegeEscalation: false } })] }, {
      annotations: { 'node-agents.cdk8s.io/acknowledged': JSON.stringify([{ rule: 'NA-API-REJECTED', reason: 'we know' }]) },
    });
    const r = await runCli('review', '--json', t.write('ack.yaml', yamlStream(manifest)));
    const finding = JSON.parse(r.stdout).workloads[0].findings.find((f: any) => f.rule === 'NA-API-REJECTED');
    expect(finding.acknowledged).toBe(false);
    expect(finding.message).toMatch(/sets privileged: true beside allowPrivilegeEscalation: false/);
  });

  test('a selector that does not match the pod template\'s labels, or none at all, is reported: the API server rejects both', async () => {
    const t = tempFiles();
    const mismatched = ds('mismatched');
    mismatched.spec.template.metadata.labels = { 'app.kubernetes.io/name': 'mismatched' };
    const missing = ds('missing');
    delete missing.spec.selector;
    const file = t.write('selectors.yaml', yamlStream(mismatched, missing, ds('fine')));
    const r = await runCli('review', '--json', file);
    expect(r.code).toBe(2);
    const rejected = JSON.parse(r.stdout).workloads.map((w: any) => w.findings.filter((f: any) => f.rule === 'NA-API-REJECTED').map((f: any) => [f.severity, f.field, f.message]));
    expect(rejected).toEqual([
      [['high', 'spec.template.metadata.labels', 'DaemonSet observability/mismatched: spec.selector does not match the pod template\'s labels: the template fails ' +
        'app=mismatched (it has app.kubernetes.io/name=mismatched); the API server rejects this (spec.template.metadata.labels)']],
      [['high', 'spec.selector', 'DaemonSet observability/missing: has no spec.selector, which an apps/v1 DaemonSet requires (matching its pod template\'s labels); ' +
        'the API server rejects this (spec.selector)']],
      [],
    ]);
  });
});

describe('review: options', () => {
  test('--pack replaces the default packs; repeatable', async () => {
    const only = await runCli('review', '--json', '--pack', 'pss-baseline', CHART_SHAPED);
    const json = JSON.parse(only.stdout);
    expect(json.packs).toEqual(['pss-baseline']);
    // the chart's three host paths, one finding each
    expect(json.workloads[0].findings.map((f: any) => f.rule)).toEqual(['PSS-BASELINE-hostPathVolumes', 'PSS-BASELINE-hostPathVolumes', 'PSS-BASELINE-hostPathVolumes']);
    const two = JSON.parse((await runCli('review', '--json', '--pack', 'pss-restricted', '--pack', 'pss-baseline', CHART_SHAPED)).stdout);
    expect(two.packs).toEqual(['pss-restricted', 'pss-baseline']);
    expect(two.workloads[0].findings.filter((f: any) => f.rule === 'PSS-BASELINE-hostPathVolumes')).toHaveLength(3);
  });

  test('--allowed-registry checks image registries; repeatable', async () => {
    const rules = async (...args: string[]) => JSON.parse((await runCli('review', '--json', '--pack', 'node-agent-baseline', ...args, CHART_SHAPED)).stdout)
      .workloads[0].findings.map((f: any) => f.rule);
    expect(await rules('--allowed-registry', 'registry.example.com')).toContain('NA-IMAGE-REGISTRY');
    expect(await rules('--allowed-registry', 'registry.example.com', '--allowed-registry', 'cr.fluentbit.io')).not.toContain('NA-IMAGE-REGISTRY');
    expect(await rules()).not.toContain('NA-IMAGE-REGISTRY');
  });

  test('--registry-mirror: an image of the mirror is judged by the registry it mirrors; repeatable', async () => {
    const t = tempFiles();
    const file = t.write('mirrored.yaml', stringify(ds('mirrored', { containers: [container({ image: 'mirror.example.com/cr.fluentbit.io/fluent/fluent-bit:5.1.1' })] })));
    const findings = async (...args: string[]) => JSON.parse((await runCli('review', '--json', '--pack', 'node-agent-baseline', '--allowed-registry', 'cr.fluentbit.io', ...args, file)).stdout)
      .workloads[0].findings.filter((f: any) => f.rule === 'NA-IMAGE-REGISTRY').map((f: any) => f.message);
    expect(await findings()).toEqual([expect.stringContaining('from mirror.example.com, which is not an allowed registry (cr.fluentbit.io)')]);
    expect(await findings('--registry-mirror', 'mirror.example.com')).toEqual([]);
    expect(await findings('--registry-mirror', 'other.example.com', '--registry-mirror', 'mirror.example.com')).toEqual([]);
    expectOneErrorLine(await runCli('review', '--registry-mirror', ' ', file), 2, /^error: review: --registry-mirror needs a mirror host/);
  });

  test('--pod-security-version selects the policy version', async () => {
    const t = tempFiles();
    const file = t.write('app.yaml', stringify(ds('probe-host', { containers: [container({ livenessProbe: { httpGet: { host: '10.0.0.1', path: '/', port: 80 } } })] })));
    const at = async (v: string) => JSON.parse((await runCli('review', '--json', '--pod-security-version', v, file)).stdout);
    expect((await at('1.28')).workloads[0].podSecurityLevel).toBe('restricted');
    const latest = await at('v1.34');
    expect(latest.podSecurityVersion).toBe('1.34');
    expect(latest.workloads[0].podSecurityLevel).toBe('privileged');
    expect(latest.workloads[0].findings.map((f: any) => f.rule)).toEqual(['PSS-BASELINE-hostProbesAndHostLifecycle']);
  });

  test('--namespace (-n) is the namespace of objects without one; without it, the one the rest of each FILE uses', async () => {
    const t = tempFiles();
    const noNamespace = ds('agent');
    delete noNamespace.metadata.namespace;
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'agent' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] };
    const crb = (ns: string) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'agent' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'agent' },
      subjects: [{ kind: 'ServiceAccount', name: 'agent', namespace: ns }],
    });
    const agentFile = t.write('agent.yaml', yamlStream(noNamespace, role, crb('logging'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'logging' } }));
    const other = t.write('other.yaml', stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'elsewhere' } }));
    const secrets = (json: any) => json.workloads[0].findings.filter((f: any) => f.rule === 'NA-RBAC-SECRETS').map((f: any) => f.message);
    // the other file's namespace does not count: the agent's file targets logging
    const fromFile = JSON.parse((await runCli('review', '--json', agentFile, other)).stdout);
    expect(fromFile.workloads[0]).toMatchObject({ namespace: 'logging', namespaceSource: 'file' });
    expect(secrets(fromFile)).toEqual([expect.stringContaining('ServiceAccount logging/agent (namespace used by the other objects of its file) can read every Secret')]);
    for (const flag of ['--namespace', '-n']) {
      const given = JSON.parse((await runCli('review', '--json', flag, 'monitoring', agentFile)).stdout);
      expect(given.workloads[0]).toMatchObject({ namespace: 'monitoring', namespaceSource: 'option' });
      // the ClusterRoleBinding names logging/agent: not this ServiceAccount
      expect(secrets(given)).toEqual([]);
    }
    // an object in another namespace than --namespace is rejected by kubectl: an error finding, which is bad input (exit 2)
    const mismatch = await runCli('review', '--json', '--fail-on', 'critical', '-n', 'monitoring', t.write('set.yaml', stringify(ds('agent'))));
    expect(mismatch.code).toBe(2);
    expect(JSON.parse(mismatch.stdout).workloads[0].findings.filter((f: any) => f.rule === 'NA-REVIEW-ERROR').map((f: any) => f.message)).toEqual([
      expect.stringContaining('sets metadata.namespace observability, but the review was given --namespace monitoring'),
    ]);
  });

  test('--help documents every option, the JSON shape and the exit codes', async () => {
    const r = await runCli('review', '--help');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const text of ['--json', '--fail-on SEVERITY', '--pack ID', '--allowed-registry R', '--registry-mirror M', '--pod-security-version V', '-n, --namespace NS', 'FILE',
      '"namespaceSource"',
      '"podSecurityLevel"', '"hostAccess"', '"findings"', 'NA-API-REJECTED',
      'node-agent-baseline, node-agent-practices, pss-baseline, pss-restricted', 'node-agents.cdk8s.io/acknowledged', 'exit status: 0', '1 when --fail-on', '2 for bad input', 'Exit 2 wins over --fail-on']) {
      expect(r.stdout).toContain(text);
    }
    // every host privilege type, with what grants it and how its detail reads (from the model's descriptors)
    for (const type of Object.values(HostAccessType)) expect(r.stdout).toMatch(new RegExp(`^ {30}${type}: .*; detail: `, 'ms'));
    expect((await runCli('help', 'review')).stdout).toBe(r.stdout);
    expect((await runCli('--help')).stdout).toMatch(/^ {2}review {13}review the security of every workload/m);
  });
});

describe('review: bad input exits 2 with one line', () => {
  test('no FILE', async () => {
    expectOneErrorLine(await runCli('review'), 2, /^error: review: missing FILE \(the manifests to review, e\.g\. dist\/\*\.k8s\.yaml\); run 'cdk8s-node-agents review --help' for usage\n$/);
  });

  test('an unknown option, or an option without its value', async () => {
    expectOneErrorLine(await runCli('review', '--nodes', 'x', 'a.yaml'), 2, /^error: review: unknown option --nodes; /);
    expectOneErrorLine(await runCli('review', 'a.yaml', '--fail-on'), 2, /^error: review: option '--fail-on <value>' argument missing/);
  });

  test('a --namespace that is not a namespace name', async () => {
    expectOneErrorLine(await runCli('review', '--namespace', 'Kube_System', 'a.yaml'), 2,
      /^error: review: --namespace must be a namespace name \(lowercase letters, digits and "-", starting and ending with a letter or digit\), got "Kube_System"; /);
  });

  test('a bad --fail-on, --pack, --allowed-registry or --pod-security-version', async () => {
    expectOneErrorLine(await runCli('review', '--fail-on', 'severe', 'a.yaml'), 2, /^error: review: --fail-on must be one of low, medium, high, critical, got "severe"; /);
    expectOneErrorLine(await runCli('review', '--pack', 'nsa', 'a.yaml'), 2,
      /^error: review: unknown pack "nsa" \(--pack takes node-agent-baseline, node-agent-practices, pss-baseline, pss-restricted\); /);
    expectOneErrorLine(await runCli('review', '--allowed-registry', ' ', 'a.yaml'), 2, /^error: review: --allowed-registry needs a registry/);
    expectOneErrorLine(await runCli('review', '--pod-security-version', '1.2', 'a.yaml'), 2,
      /^error: review: --pod-security-version: pod security version "1\.2" is older than the oldest supported policy version 1\.25/);
  });

  test('a missing file, a directory, invalid YAML and a non-object document name the file', async () => {
    const t = tempFiles();
    const missing = path.join(t.dir, 'missing.yaml');
    expectOneErrorLine(await runCli('review', missing), 2, new RegExp(`^error: ${missing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: cannot read file: no such file\n$`));
    expectOneErrorLine(await runCli('review', t.dir), 2, /: cannot read file: is a directory, not a file\n$/);
    const bad = t.write('bad.yaml', 'kind: DaemonSet\nmetadata: {name: x\n');
    expectOneErrorLine(await runCli('review', bad), 2, new RegExp(`^error: ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+: document 1: invalid YAML: `));
    const scalar = t.write('scalar.yaml', '42\n');
    expectOneErrorLine(await runCli('review', scalar), 2, /scalar\.yaml:1: document 1: expected a Kubernetes object \(a mapping with apiVersion and kind\), got 42\n$/);
  });

  test('a malformed workload exits 2 with one line naming it, after the report that shows its problems as findings', async () => {
    const t = tempFiles();
    const file = t.write('broken.yaml', stringify(ds('broken', { containers: 'agent' })));
    const r = await runCli('review', '--json', '--fail-on', 'high', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: [^\n]*broken\.yaml:1: document 1 \(DaemonSet observability\/broken\): spec\.template\.spec\.containers must be a list, got "agent": write it as a YAML\/JSON list\n$/);
    // the report shows it as the API server's refusal, and nothing else of the workload (it would never run)
    const findings = JSON.parse(r.stdout).workloads[0].findings;
    expect(findings.map((f: any) => [f.rule, f.field])).toEqual([['NA-API-REJECTED', 'spec.template.spec.containers']]);
    expect(findings[0].message).toBe('DaemonSet observability/broken: spec.template.spec.containers must be a list, got "agent"; the API server rejects this ' +
      '(it cannot decode the object), so nothing else in it was reviewed (spec.template.spec.containers)');
  });
});

describe('review: API versions no API server serves', () => {
  test('an extensions/v1beta1 DaemonSet is reported by the always-on rule, with the OnDelete default it had', async () => {
    const t = tempFiles();
    const old = { ...ds('old'), apiVersion: 'extensions/v1beta1' };
    const r = await runCli('review', '--json', t.write('old.yaml', yamlStream(old)));
    const findings = JSON.parse(r.stdout).workloads[0].findings;
    const api = findings.find((f: any) => f.rule === 'NA-API-REJECTED');
    expect(api.field).toBe('apiVersion');
    expect(api.message).toBe('DaemonSet observability/old: is written in apiVersion extensions/v1beta1, which no API server serves since Kubernetes 1.16; ' +
      'in it a DaemonSet defaulted to updateStrategy OnDelete, in apps/v1 to RollingUpdate (apiVersion)');
    expect(findings.map((f: any) => f.rule)).toContain('NA-UPDATE-STRATEGY');
  });
});
