// Manifests written the way projects publish them, with YAML that kubectl reads differently from a YAML 1.2 reader:
// the review and the coverage judge what kubectl applies (the reader itself is proven against kubectl's in
// test/corpus/manifest-reader.differential.test.ts). Expectations come from reading each manifest as go-yaml does.

import { runCli, tempFiles } from './run-cli';
import { readManifestStream } from '../../src/model/_manifest-reader';

const t = tempFiles();

/** what the library's reader sends of a manifest (held to kubectl's own in test/corpus/manifest-reader.differential.test.ts). */
function sent(text: string): any {
  return readManifestStream(text)[0].value;
}

/** a node agent DaemonSet as a project's install file writes it; `container` and `pod` are YAML lines to splice in. */
function daemonSet(container: string, pod = '', top = ''): string {
  return `${top}apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-agent
  namespace: monitoring
spec:
  selector:
    matchLabels: {app: node-agent}
  template:
    metadata:
      labels: {app: node-agent}
    spec:
${pod}      containers:
      - name: agent
        image: registry.example.com/agent:1.0.0
${container}`;
}

async function review(text: string): Promise<{ code: number; hostAccess: string[]; findings: string[]; stderr: string }> {
  const file = t.write(`ds-${Math.random().toString(36).slice(2)}.yaml`, text);
  const r = await runCli('review', '--json', file);
  if (r.stdout === '') return { code: r.code, hostAccess: [], findings: [], stderr: r.stderr };
  const w = JSON.parse(r.stdout).workloads[0];
  return {
    code: r.code,
    stderr: r.stderr,
    hostAccess: w.hostAccess.map((h: any) => `${h.type}${h.detail ? ` ${h.detail}` : ''}`),
    findings: w.findings.map((f: any) => `${f.rule} ${f.field}`),
  };
}

test.each(['on', 'yes', 'Yes', 'y', 'ON', 'true'])('privileged: %s is a privileged container, as kubectl applies it', async (spelling) => {
  const text = daemonSet(`        securityContext:\n          privileged: ${spelling}\n`);
  expect(sent(text).spec.template.spec.containers[0].securityContext).toEqual({ privileged: true });
  const r = await review(text);
  expect(r.hostAccess).toContain('privileged agent');
  expect(r.findings).toContain('NA-PRIVILEGED spec.template.spec.containers[0].securityContext.privileged');
});

test.each(['off', 'no', 'n'])('privileged: %s is not privileged', async (spelling) => {
  const r = await review(daemonSet(`        securityContext:\n          privileged: ${spelling}\n`));
  expect(r.hostAccess).not.toContain('privileged agent');
  expect(r.findings.filter((f) => f.startsWith('NA-PRIVILEGED'))).toEqual([]);
});

test('a securityContext merged in with << (a list of anchored mappings) is the container\'s', async () => {
  // the anchors stand where the API server takes them: on the securityContexts of the init container and the first container
  const text = daemonSet(`        securityContext: &host {privileged: yes}
      - name: helper
        image: registry.example.com/helper:1.0.0
        securityContext:
          <<: [*base, *host]
`, '      initContainers:\n      - name: init\n        image: registry.example.com/init:1.0.0\n        securityContext: &base {readOnlyRootFilesystem: true}\n');
  expect(sent(text).spec.template.spec.containers[1].securityContext).toEqual({ readOnlyRootFilesystem: true, privileged: true });
  const r = await review(text);
  expect(r.hostAccess).toEqual(expect.arrayContaining(['privileged agent', 'privileged helper']));
  expect(r.findings).toContain('NA-PRIVILEGED spec.template.spec.containers[1].securityContext.privileged');
});

test('readOnly: yes mounts the host path read-only; readOnly: no read-write', async () => {
  const mount = (ro: string) => daemonSet(`        volumeMounts:\n        - {name: logs, mountPath: /host/logs, readOnly: ${ro}}\n`,
    '      volumes:\n      - name: logs\n        hostPath: {path: /var/log, type: Directory}\n');
  expect((await review(mount('yes'))).hostAccess).toContain('hostPath /var/log (read-only)');
  expect((await review(mount('no'))).hostAccess).toContain('hostPath /var/log (read-write)');
});

test('hostNetwork: yes is the host network, reviewed, not refused', async () => {
  const r = await review(daemonSet('', '      hostNetwork: yes\n'));
  expect(r.stderr).toBe('');
  expect(r.hostAccess).toContain('hostNetwork');
  expect(r.findings).toContain('NA-HOST-ACCESS-REASON spec.template.spec.hostNetwork');
});

test('a published install file with long single-quoted scalars continued at the key\'s indentation (as go-yaml writes them) is read', async () => {
  const text = daemonSet('        securityContext:\n          privileged: true\n',
    '', '')
    .replace('  namespace: monitoring\n', "  namespace: monitoring\n  annotations:\n    description: 'Runs the node agent on every node of the cluster, with the host''s\n    network and a privileged container, as its documentation explains'\n");
  expect(sent(text).metadata.annotations.description).toBe("Runs the node agent on every node of the cluster, with the host's network and a privileged container, as its documentation explains");
  const r = await review(text);
  expect(r.code).not.toBe(2);
  expect(r.hostAccess).toContain('privileged agent');
});

test('a taint given through a merge key is a taint for coverage', async () => {
  const nodes = t.write('nodes.yaml', `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: cp-1, labels: {kubernetes.io/os: linux}}
  spec:
    taints:
    - &cp {key: node-role.kubernetes.io/control-plane, effect: NoSchedule}
- apiVersion: v1
  kind: Node
  metadata: {name: cp-2, labels: {kubernetes.io/os: linux}}
  spec:
    taints:
    - <<: *cp
`);
  const app = t.write('app.yaml', daemonSet(''));
  const r = await runCli('coverage', '--json', '--nodes', nodes, app);
  const report = JSON.parse(r.stdout);
  expect(report.nodeCount).toBe(2);
  const cp2 = report.daemonSets[0].nodes.find((n: any) => n.name === 'cp-2');
  expect(cp2.shouldRun).toBe(false);
  expect(cp2.reasons).toEqual([expect.stringMatching(/^taint node-role\.kubernetes\.io\/control-plane:NoSchedule is not tolerated/)]);
});

test('what kubectl refuses is refused with the file and place: .inf, a bad document separator, an unknown anchor', async () => {
  for (const [text, pattern] of [
    [daemonSet('        resources: {limits: {cpu: .inf}}\n'), /:1:1: document 1: spec\.template\.spec\.containers\[0\]\.resources\.limits\.cpu is \.inf \(infinite\)/],
    [`${daemonSet('')}--- !!map\n`, /:16:1: document 2: invalid YAML document separator: "!!map" follows "---"/],
    [daemonSet('        securityContext: *defaults\n'), /:16:26: document 1: unknown anchor 'defaults' referenced/],
  ] as Array<[string, RegExp]>) {
    const r = await review(text);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  }
});
