import * as fs from 'fs';
import * as path from 'path';
import { stringify } from 'yaml';
import { expectOneErrorLine, runCli, tempFiles } from './run-cli';

// ---------- fixtures ----------

function nodeObj(name: string, labels: Record<string, string> = {}, taints: any[] = []): any {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...labels } }, spec: { taints } };
}

function dsObj(name: string, podSpec: any = {}, extra: { namespace?: string; updateStrategy?: any } = {}): any {
  const metadata: any = { name };
  if (extra.namespace) metadata.namespace = extra.namespace;
  const spec: any = {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'agent', image: 'nginx:1.27-alpine' }], ...podSpec } },
  };
  if (extra.updateStrategy) spec.updateStrategy = extra.updateStrategy;
  return { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata, spec };
}

function yamlStream(...objects: any[]): string {
  return objects.map((o) => stringify(o)).join('---\n');
}

const NODES = [
  nodeObj('cp', { 'node-role.kubernetes.io/control-plane': '' }, [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]),
  nodeObj('w1', { agent: 'enabled', zone: 'a' }),
  nodeObj('w2', { zone: 'b' }),
];

function nodeList(nodes: any[]): string {
  return stringify({ apiVersion: 'v1', kind: 'List', items: nodes, metadata: { resourceVersion: '' } });
}

// ---------- text output ----------

describe('coverage: text output', () => {
  test('prints a kubectl-style line, the nodes it will not run on with reasons, and the rollout', async () => {
    const t = tempFiles();
    const nodes = t.write('nodes.yaml', nodeList(NODES));
    const app = t.write('app.k8s.yaml', yamlStream(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'observability' } },
      dsObj('node-agent', { nodeSelector: { agent: 'enabled' } }, { namespace: 'observability' }),
    ));
    const r = await runCli('coverage', '--nodes', nodes, app);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`3 nodes in ${nodes}`);
    expect(lines[1]).toBe('');
    expect(lines[2]).toBe('NAMESPACE       NAME         DESIRED   NODE SELECTOR');
    expect(lines[3]).toBe('observability   node-agent   1         agent=enabled');
    expect(lines[4]).toBe('  not on cp:');
    expect(lines[5]).toMatch(/^ {4}- nodeSelector agent=enabled is not met: the node has no label agent; /);
    expect(lines[6]).toBe('    - taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated; add a toleration {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule} (NoSchedule keeps new pods off the node; it does not evict a pod already running there)');
    expect(lines[7]).toBe('  not on w2:');
    expect(lines[8]).toMatch(/^ {4}- nodeSelector agent=enabled is not met: the node has no label agent; label the node \(kubectl label node w2 agent=enabled\)/);
    expect(lines[9]).toBe('  rollout: RollingUpdate over 1 node: maxUnavailable 1 node, maxSurge 0 nodes, 1 wave');
    expect(lines.slice(10)).toEqual(['']);
  });

  test('a DaemonSet without a namespace prints default, and one without nodeSelector prints <none>', async () => {
    const t = tempFiles();
    const r = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), t.write('a.yaml', yamlStream(dsObj('plain'))));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('NAMESPACE   NAME    DESIRED   NODE SELECTOR\ndefault     plain   2         <none>\n');
  });

  test('NODE SELECTOR is formatted like kubectl: sorted key=value pairs joined by commas, an empty value as key=', async () => {
    const t = tempFiles();
    const ds = dsObj('sel', { nodeSelector: { zone: 'a', agent: 'enabled', gpu: '' } });
    const r = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), t.write('a.yaml', stringify(ds)));
    expect(r.stdout).toMatch(/^default +sel +0 +agent=enabled,gpu=,zone=a$/m);
  });

  test('a DaemonSet placed by required node affinity shows its terms under the table, kubectl\'s selector syntax', async () => {
    const t = tempFiles();
    const terms = [
      { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }, { key: 'spot', operator: 'DoesNotExist' }] },
      { matchExpressions: [{ key: 'gpu', operator: 'Exists' }, { key: 'cores', operator: 'Gt', values: ['8'] }], matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['cp'] }] },
    ];
    const ds = dsObj('zonal', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } });
    const r = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), t.write('a.yaml', stringify(ds)));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('default     zonal   2         <none>\n  required node affinity: zone in (a,b),!spot or gpu,cores>8,field:metadata.name notin (cp)\n');
    const both = dsObj('both', { nodeSelector: { 'kubernetes.io/os': 'linux' }, affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } } });
    const r2 = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), t.write('b.yaml', stringify(both)));
    expect(r2.stdout).toMatch(/^default +both +0 +kubernetes\.io\/os=linux\n {2}required node affinity: no nodeSelectorTerms: matches no node\n/m);
    const plain = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), t.write('c.yaml', stringify(dsObj('plain'))));
    expect(plain.stdout).not.toContain('required node affinity');
  });

  test('a null requirement in a required affinity term (a fuzzing case): no crash, the term reported invalid on every node', async () => {
    const t = tempFiles();
    const ds = dsObj('nulls', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [null] }] } } } });
    const r = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), t.write('a.yaml', stringify(ds)));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^default +nulls +0 +<none>$/m);
    expect(r.stdout).toContain('required node affinity nodeSelectorTerms[0] is invalid and never matches: matchExpressions[0]');
  });

  test('a Windows node given a DaemonSet that declares no OS: a warning after the nodes it skips, and in the JSON', async () => {
    const t = tempFiles();
    const nodes = t.write('n.yaml', nodeList([nodeObj('w1'), nodeObj('win1', { 'kubernetes.io/os': 'windows' })]));
    const r = await runCli('coverage', '--nodes', nodes, t.write('a.yaml', yamlStream(dsObj('plain'))));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  runs on all 2 nodes\n  warning: on win1:\n    - the node runs Windows (kubernetes.io/os=windows) and the pod template declares no OS');
    const json = JSON.parse((await runCli('coverage', '--json', '--nodes', nodes, t.write('b.yaml', yamlStream(dsObj('plain'))))).stdout);
    expect(json.daemonSets[0].nodes.map((n: any) => [n.name, n.warnings?.length ?? 0])).toEqual([['w1', 0], ['win1', 1]]);
  });

  test('a DaemonSet that runs everywhere says so', async () => {
    const t = tempFiles();
    const ds = dsObj('everywhere', { tolerations: [{ operator: 'Exists' }] }, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } } });
    const r = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), t.write('a.yaml', stringify(ds)));
    expect(r.stdout).toContain('default     everywhere   3         <none>\n  runs on all 3 nodes\n');
    expect(r.stdout).toContain('  rollout: RollingUpdate over 3 nodes: maxUnavailable 2 nodes, maxSurge 0 nodes, 2 waves\n');
    expect(r.stdout).not.toContain('not on');
  });

  test('OnDelete reports that nothing is automatic', async () => {
    const t = tempFiles();
    const ds = dsObj('manual', {}, { updateStrategy: { type: 'OnDelete' } });
    const r = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), t.write('a.yaml', stringify(ds)));
    expect(r.stdout).toContain('  rollout: OnDelete: nothing is automatic; a node gets the new pod only after its old pod is deleted\n');
  });

  test('reports every DaemonSet of every file in order, ignoring other kinds, and flattens Lists', async () => {
    const t = tempFiles();
    const f1 = t.write('one.yaml', yamlStream(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } },
      dsObj('first'),
      { apiVersion: 'v1', kind: 'List', items: [dsObj('second', {}, { namespace: 'kube-system' }), { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } }] },
    ));
    const f2 = t.write('two.json', JSON.stringify({ apiVersion: 'apps/v1', kind: 'DaemonSetList', items: [dsObj('third')] }, null, '\t'));
    const r = await runCli('coverage', '--json', '--nodes', t.write('n.yaml', nodeList(NODES)), f1, f2);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.daemonSets.map((d: any) => `${d.namespace}/${d.name}`)).toEqual(['default/first', 'kube-system/second', 'default/third']);
  });

  test('no DaemonSet in the manifests: exit 0 with a note', async () => {
    const t = tempFiles();
    const app = t.write('a.yaml', stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }));
    const r = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), app);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`3 nodes in ${path.join(t.dir, 'n.yaml')}\n`);
    expect(r.stderr).toBe(`note: no DaemonSet found in ${app}\n`);
    const json = await runCli('coverage', '--json', '--nodes', path.join(t.dir, 'n.yaml'), app);
    expect(JSON.parse(json.stdout)).toEqual({ nodeCount: 3, daemonSets: [] });
  });
});

// ---------- JSON output ----------

describe('coverage: --json', () => {
  test('prints exactly nodeCount and, per DaemonSet, namespace, name, desired, nodes and rollout', async () => {
    const t = tempFiles();
    const ds = dsObj('zonal', {
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }] } } },
    }, { namespace: 'obs', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } });
    const r = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), '--json', t.write('a.yaml', stringify(ds)));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout);
    expect(report).toEqual({
      nodeCount: 3,
      daemonSets: [{
        namespace: 'obs',
        name: 'zonal',
        desired: 2,
        nodes: [
          {
            name: 'cp',
            shouldRun: false,
            reasons: [
              expect.stringMatching(/^required node affinity nodeSelectorTerms\[0\] does not match: matchExpressions\[0\] \{key: zone, operator: In, values: \[a, b\]\} needs zone in \[a, b\], the node has no label zone$/),
              expect.stringMatching(/^taint node-role\.kubernetes\.io\/control-plane:NoSchedule is not tolerated/),
            ],
          },
          { name: 'w1', shouldRun: true, reasons: [] },
          { name: 'w2', shouldRun: true, reasons: [] },
        ],
        rollout: { strategy: 'RollingUpdate', maxUnavailable: 0, maxSurge: 1, waves: 2 },
      }],
    });
    expect(Object.keys(report.daemonSets[0])).toEqual(['namespace', 'name', 'desired', 'nodes', 'rollout']);
    expect(Object.keys(report.daemonSets[0].nodes[0])).toEqual(['name', 'shouldRun', 'reasons']);
  });
});

// ---------- inputs ----------

describe('coverage: node inventories', () => {
  test('reads Node documents in a YAML stream', async () => {
    const t = tempFiles();
    const r = await runCli('coverage', '--json', '--nodes', t.write('n.yaml', yamlStream(...NODES)), t.write('a.yaml', stringify(dsObj('x'))));
    expect(JSON.parse(r.stdout).nodeCount).toBe(3);
  });

  test('reads kubectl get nodes -o json (a List in JSON)', async () => {
    const t = tempFiles();
    const nodes = t.write('n.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: NODES }, null, 4));
    const r = await runCli('coverage', '--json', '--nodes', nodes, t.write('a.yaml', stringify(dsObj('x'))));
    expect(JSON.parse(r.stdout).daemonSets[0].desired).toBe(2);
  });

  test('reads a NodeList and ignores other kinds in the nodes file', async () => {
    const t = tempFiles();
    const nodes = t.write('n.yaml', yamlStream({ apiVersion: 'v1', kind: 'NodeList', items: NODES.slice(1) }, dsObj('not-a-node')));
    const r = await runCli('coverage', '--json', '--nodes', nodes, t.write('a.yaml', stringify(dsObj('x'))));
    expect(JSON.parse(r.stdout).nodeCount).toBe(2);
  });

  test('--nodes may be repeated (inventories are merged) and written --nodes=FILE', async () => {
    const t = tempFiles();
    const a = t.write('a-nodes.yaml', yamlStream(NODES[0]));
    const b = t.write('b-nodes.yaml', yamlStream(NODES[1], NODES[2]));
    const r = await runCli('coverage', '--json', `--nodes=${a}`, '--nodes', b, t.write('a.yaml', stringify(dsObj('x'))));
    expect(JSON.parse(r.stdout).daemonSets[0].nodes.map((n: any) => n.name)).toEqual(['cp', 'w1', 'w2']);
  });

  test('empty documents and comments are skipped', async () => {
    const t = tempFiles();
    const nodes = t.write('n.yaml', `---\n# leading comment\n---\n${stringify(NODES[1])}---\n`);
    const r = await runCli('coverage', '--json', '--nodes', nodes, t.write('a.yaml', stringify(dsObj('x'))));
    expect(JSON.parse(r.stdout).nodeCount).toBe(1);
  });
});

// ---------- errors ----------

describe('coverage: errors (exit 2, one line naming the file)', () => {
  test('missing --nodes', async () => {
    const t = tempFiles();
    expectOneErrorLine(await runCli('coverage', t.write('a.yaml', stringify(dsObj('x')))), 2, /missing --nodes NODES/);
  });

  test('no arguments at all', async () => {
    expectOneErrorLine(await runCli('coverage'), 2, /missing --nodes NODES.*coverage --help/);
  });

  test('missing FILE', async () => {
    const t = tempFiles();
    expectOneErrorLine(await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES))), 2, /missing FILE/);
  });

  test('--nodes without a value', async () => {
    expectOneErrorLine(await runCli('coverage', '--nodes'), 2, /coverage: option '--nodes <value>' argument missing; run 'cdk8s-node-agents coverage --help'/);
  });

  test('an unknown option', async () => {
    expectOneErrorLine(await runCli('coverage', '--bogus', '--nodes', 'n.yaml', 'a.yaml'), 2, /^error: coverage: unknown option --bogus; run 'cdk8s-node-agents coverage --help' for usage\n$/);
  });

  test('a nodes file that does not exist', async () => {
    const t = tempFiles();
    const missing = path.join(t.dir, 'missing-nodes.yaml');
    expectOneErrorLine(await runCli('coverage', '--nodes', missing, t.write('a.yaml', stringify(dsObj('x')))), 2,
      new RegExp(`^error: ${escape(missing)}: cannot read file: no such file\n$`));
  });

  test('a manifest file that does not exist', async () => {
    const t = tempFiles();
    const missing = path.join(t.dir, 'missing.k8s.yaml');
    expectOneErrorLine(await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), missing), 2, new RegExp(`${escape(missing)}: cannot read file: no such file`));
  });

  test('a directory instead of a file', async () => {
    const t = tempFiles();
    expectOneErrorLine(await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), t.dir), 2, new RegExp(`${escape(t.dir)}: cannot read file: is a directory`));
  });

  test('invalid YAML in a manifest names the file, line and column', async () => {
    const t = tempFiles();
    const bad = t.write('bad.yaml', 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: a\n  labels: {a: b\n');
    expectOneErrorLine(await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), bad), 2,
      new RegExp(`^error: ${escape(bad)}:6:1: document 1: invalid YAML: flow map in block collection must be sufficiently indented and end with a }\n$`));
  });

  test('invalid YAML in a later document of a stream names its line', async () => {
    const t = tempFiles();
    const bad = t.write('bad.yaml', `${stringify(dsObj('ok'))}---\nkind: DaemonSet\n- Node\n`);
    const r = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), bad);
    const okLines = stringify(dsObj('ok')).split('\n').length - 1;
    expectOneErrorLine(r, 2, new RegExp(`^error: ${escape(bad)}:${okLines + 3}:1: document 2: invalid YAML: `));
  });

  test('invalid YAML in the nodes file names the file and line', async () => {
    const t = tempFiles();
    const bad = t.write('nodes.yaml', 'apiVersion: v1\nkind: List\nitems:\n- kind: Node\n  metadata: {name: "unterminated}\n');
    expectOneErrorLine(await runCli('coverage', '--nodes', bad, t.write('a.yaml', stringify(dsObj('x')))), 2, new RegExp(`^error: ${escape(bad)}:\\d+:\\d+: document 1: invalid YAML: `));
  });

  test('invalid JSON names the file and line', async () => {
    const t = tempFiles();
    const bad = t.write('nodes.json', '{\n  "kind": "List",\n  "items": [\n    {"kind": "Node",\n  ]\n}\n');
    expectOneErrorLine(await runCli('coverage', '--nodes', bad, t.write('a.yaml', stringify(dsObj('x')))), 2, new RegExp(`^error: ${escape(bad)}:5:3: document 1: invalid YAML: `));
  });

  test('a nodes file without Node objects', async () => {
    const t = tempFiles();
    const nodes = t.write('nodes.yaml', stringify(dsObj('x')));
    expectOneErrorLine(await runCli('coverage', '--nodes', nodes, t.write('a.yaml', stringify(dsObj('x')))), 2,
      new RegExp(`^error: ${escape(nodes)}: no Node objects found; pass a NodeList or Node documents`));
  });

  test('an empty nodes file', async () => {
    const t = tempFiles();
    const nodes = t.write('nodes.yaml', '');
    expectOneErrorLine(await runCli('coverage', '--nodes', nodes, t.write('a.yaml', stringify(dsObj('x')))), 2, new RegExp(`^error: ${escape(nodes)}: no Kubernetes objects: the file is empty; `));
  });

  test('a document that is not an object names the file and line', async () => {
    const t = tempFiles();
    const bad = t.write('a.yaml', `${stringify(dsObj('x'))}---\njust a string\n`);
    const okLines = stringify(dsObj('x')).split('\n').length - 1;
    expectOneErrorLine(await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), bad), 2,
      new RegExp(`^error: ${escape(bad)}:${okLines + 2}: document 2: expected a Kubernetes object .*got "just a string"\n$`));
  });

  test('a DaemonSet whose update strategy the API server rejects names the file, line and DaemonSet', async () => {
    const t = tempFiles();
    const list = { apiVersion: 'v1', kind: 'List', items: [dsObj('good'), dsObj('bad', {}, { namespace: 'obs', updateStrategy: { rollingUpdate: { maxSurge: 1 } } })] };
    const file = t.write('a.yaml', stringify(list));
    const line = fs.readFileSync(file, 'utf-8').split('\n').findIndex((l, i, all) => l.startsWith('  - ') && all.slice(i, i + 4).some((x) => x.includes('name: bad'))) + 1;
    const r = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), file);
    expectOneErrorLine(r, 2, new RegExp(`^error: ${escape(file)}:${line}: document 1, items\\[1\\] \\(DaemonSet obs/bad\\): maxSurge 1 may not be set when maxUnavailable is non-zero`));
  });

  test('a DaemonSet whose selector its pod template does not match is rejected, not placed', async () => {
    const t = tempFiles();
    const bad = dsObj('bad', {}, { namespace: 'obs' });
    bad.spec.template.metadata.labels = { 'app.kubernetes.io/name': 'bad' };
    const file = t.write('a.yaml', yamlStream(dsObj('good'), bad));
    const r = await runCli('coverage', '--nodes', t.write('n.yaml', nodeList(NODES)), file);
    expectOneErrorLine(r, 2, new RegExp(`^error: ${escape(file)}:\\d+: document 2 \\(DaemonSet obs/bad\\): NA-API-REJECTED: spec\\.selector does not match the pod template's labels: ` +
      'the template fails app=bad \\(it has app\\.kubernetes\\.io/name=bad\\); the API server rejects this'));
  });
});

describe('coverage --help', () => {
  test('documents the arguments, options, output and exit codes', async () => {
    const r = await runCli('coverage', '--help');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const word of ['usage: cdk8s-node-agents coverage --nodes NODES', 'FILE', '--json', '"nodeCount"', '"daemonSets"', 'NODE SELECTOR', '<none>', 'default', 'rollout', 'waves', 'exit status', 'kubectl get nodes -o yaml']) {
      expect(r.stdout).toContain(word);
    }
  });

  test('-h is --help, and --help wins over missing arguments', async () => {
    expect((await runCli('coverage', '-h')).stdout).toBe((await runCli('coverage', '--help')).stdout);
    expect((await runCli('coverage', '--json', '--help')).code).toBe(0);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('coverage: a node inventory given twice', () => {
  test('the same nodes file twice counts each node once', async () => {
    const t = tempFiles();
    const nodes = t.write('n.yaml', nodeList(NODES));
    const app = t.write('a.yaml', stringify(dsObj('agent')));
    const once = await runCli('coverage', '--json', '--nodes', nodes, app);
    const twice = await runCli('coverage', '--json', '--nodes', nodes, '--nodes', nodes, app);
    expect(twice.stderr).toBe('');
    expect(JSON.parse(twice.stdout)).toEqual(JSON.parse(once.stdout));
    expect(JSON.parse(twice.stdout).nodeCount).toBe(3);
  });

  test('one node in two different copies is an error naming the node and both places', async () => {
    const t = tempFiles();
    const nodes = t.write('n.yaml', nodeList(NODES));
    const other = t.write('w2.yaml', stringify(nodeObj('w2', { zone: 'c' })));
    expectOneErrorLine(await runCli('coverage', '--nodes', nodes, '--nodes', other, t.write('a.yaml', stringify(dsObj('agent')))), 2,
      new RegExp(`^error: ${escape(other)}:1: document 1 \\(Node w2\\): Node w2 is given twice, differently \\(also at ${escape(nodes)}:\\d+, document 1, items\\[2\\]\\); pass one inventory of the cluster's nodes`));
  });
});
