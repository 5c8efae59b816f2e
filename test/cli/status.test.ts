// `cdk8s-node-agents status --from SNAPSHOT`: snapshot files in JSON and YAML (a `List`, as
// `kubectl get nodes,daemonsets,controllerrevisions,pods,events -A -o json|yaml` writes), through the CLI.
import { stringify } from 'yaml';
import { expectOneErrorLine, runCli, tempFiles } from './run-cli';
import { NEW_IMAGE, scenarioList } from './status-scenario';
import { list } from '../model/status-fixtures';

function snapshotFiles() {
  const t = tempFiles();
  const snapshot = scenarioList();
  return {
    json: t.write('snapshot.json', JSON.stringify(snapshot, null, 2)),
    yaml: t.write('snapshot.yaml', stringify(snapshot)),
    write: t.write,
    snapshot,
  };
}

describe('status --from: JSON and YAML snapshots', () => {
  test('--json: exactly the documented fields, one entry per node, the five numbers from .status; exit 1 (a rollout is blocked)', async () => {
    const f = snapshotFiles();
    const r = await runCli('status', '--from', f.json, '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(Object.keys(report)).toEqual(['daemonSets']);
    expect(report.daemonSets.map((d: any) => `${d.namespace}/${d.name}`)).toEqual(['kube-system/kube-proxy', 'observability/node-agent']);
    const agent = report.daemonSets[1];
    expect(Object.keys(agent)).toEqual(['namespace', 'name', 'desired', 'current', 'ready', 'upToDate', 'available', 'rollout', 'nodes']);
    expect(agent).toMatchObject({ desired: 2, current: 2, ready: 1, upToDate: 1, available: 1 });
    expect(agent.rollout).toEqual({ updated: 0, wavesLeft: 2, blocked: true });
    expect(Object.keys(agent.rollout)).toEqual(['updated', 'wavesLeft', 'blocked']);
    expect(agent.nodes.map((n: any) => Object.keys(n))).toEqual(Array(3).fill(['name', 'state', 'reason', 'message']));
    expect(agent.nodes.map((n: any) => [n.name, n.state, n.reason])).toEqual([
      ['kind-control-plane', 'excluded', 'Taint'],
      ['kind-worker', 'image-pull', 'ImagePullBackOff'],
      ['kind-worker2', 'outdated', 'OutdatedRevision'],
    ]);
    expect(agent.nodes[1].message).toContain(`Failed to pull image "${NEW_IMAGE}": rpc error: code = NotFound`);
    const proxy = report.daemonSets[0];
    expect(proxy).toMatchObject({ desired: 3, current: 3, ready: 3, upToDate: 3, available: 3 });
    expect(proxy.rollout).toEqual({ updated: 3, wavesLeft: 0, blocked: false });
    expect(proxy.nodes.map((n: any) => n.state)).toEqual(['healthy', 'healthy', 'healthy']);
  });

  test('the YAML snapshot gives the same report as the JSON one', async () => {
    const f = snapshotFiles();
    const fromJson = await runCli('status', '--from', f.json, '--json');
    const fromYaml = await runCli('status', '--from', f.yaml, '--json');
    expect(fromYaml).toEqual(fromJson);
    const textJson = await runCli('status', '--from', f.json);
    expect((await runCli('status', '--from', f.yaml)).stdout).toBe(textJson.stdout.replace(f.json, f.yaml));
  });

  test('text: a kubectl get ds table, then per DaemonSet the shortfalls, the nodes that are not healthy and the rollout', async () => {
    const f = snapshotFiles();
    const r = await runCli('status', '--from', f.json);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`snapshot ${f.json}, taken at 2025-06-02T09:09:55Z or later (its newest timestamp); 3 nodes`);
    expect(lines.slice(2, 5)).toEqual([
      'NAMESPACE       NAME         DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR',
      'kube-system     kube-proxy   3         3         3       3            3           <none>',
      'observability   node-agent   2         2         1       1            1           <none>',
    ]);
    expect(r.stdout).toContain('kube-system/kube-proxy: rolled out; healthy on all 3 nodes that should run it\n');
    expect(r.stdout).toContain('observability/node-agent: 2 of 2 nodes not healthy\n');
    expect(r.stdout).toContain('  READY 1 < CURRENT 2: kind-worker (image-pull)\n');
    expect(r.stdout).toContain('  UP-TO-DATE 1 < DESIRED 2: kind-worker2 (outdated)\n');
    expect(r.stdout).toContain('\n  NODE                 STATE        REASON             MESSAGE\n' +
      '  kind-control-plane   excluded     Taint              taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated;');
    expect(r.stdout).toContain('\n  kind-worker2         outdated     OutdatedRevision   pod node-agent-x7k2p runs revision 1 (7c9d5f8b6); ' +
      "the DaemonSet's current one is revision 2 (5d4b8c7f9). It waits: the rollout is blocked by kind-worker.\n");
    expect(r.stdout).toContain('  rollout: RollingUpdate (maxUnavailable 1, 1 unavailable now): 0 of 2 nodes updated and available, 2 waves left; blocked by kind-worker (image-pull)');
  });

  test('-n and NAME narrow the report; a healthy DaemonSet alone exits 0', async () => {
    const f = snapshotFiles();
    const r = await runCli('status', '--from', f.json, '-n', 'kube-system', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).daemonSets.map((d: any) => d.name)).toEqual(['kube-proxy']);
    const byName = await runCli('status', '--from', f.yaml, 'kube-proxy');
    expect(byName.code).toBe(0);
    expect(byName.stdout).not.toContain('observability');
    expect((await runCli('status', '--from', f.json, '-A', 'node-agent')).code).toBe(1);
  });

  test('a namespace without DaemonSets: a note, exit 0', async () => {
    const f = snapshotFiles();
    const objects = [...f.snapshot.items, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop' }, spec: { containers: [{ name: 'web', image: 'nginx' }] } }];
    const file = f.write('with-shop.json', JSON.stringify(list(objects)));
    const r = await runCli('status', '--from', file, '-n', 'shop');
    expect(r).toEqual({ code: 0, stdout: '', stderr: 'No DaemonSets found in namespace shop.\n' });
  });
});

describe('status: bad input exits 2 with one line', () => {
  test('an unreadable snapshot', async () => {
    expectOneErrorLine(await runCli('status', '--from', '/nonexistent/snapshot.json'), 2, /^error: \/nonexistent\/snapshot\.json: cannot read file: no such file\n$/);
  });

  test('invalid YAML', async () => {
    const f = snapshotFiles();
    expectOneErrorLine(await runCli('status', '--from', f.write('bad.yaml', 'items: [\n')), 2, /bad\.yaml:\d+:\d+: document 1: invalid YAML/);
  });

  test('a snapshot without nodes, DaemonSets or ControllerRevisions says how to take one', async () => {
    const f = snapshotFiles();
    const noNodes = f.write('no-nodes.json', JSON.stringify(list(f.snapshot.items.filter((o: any) => o.kind !== 'Node'))));
    expectOneErrorLine(await runCli('status', '--from', noNodes), 2, /no Node objects in the snapshot; take it with 'kubectl get nodes,daemonsets,controllerrevisions,pods,events -A -o json > snapshot.json'/);
    const noRevisions = f.write('no-revisions.json', JSON.stringify(list(f.snapshot.items.filter((o: any) => o.kind !== 'ControllerRevision'))));
    expectOneErrorLine(await runCli('status', '--from', noRevisions), 2, /no ControllerRevision objects in the snapshot/);
    const noDs = f.write('no-ds.json', JSON.stringify(list(f.snapshot.items.filter((o: any) => o.kind !== 'DaemonSet'))));
    expectOneErrorLine(await runCli('status', '--from', noDs), 2, /no DaemonSet objects in the snapshot/);
  });

  test('an unknown namespace or DaemonSet name', async () => {
    const f = snapshotFiles();
    expectOneErrorLine(await runCli('status', '--from', f.json, '-n', 'observabilty'), 2, /^error: .*: namespace observabilty not found: no object in the snapshot is in it\n$/);
    expectOneErrorLine(await runCli('status', '--from', f.json, '-n', 'observability', 'node-agnet'), 2,
      /^error: DaemonSet node-agnet not found in namespace observability \(DaemonSets there: node-agent\)\n$/);
  });

  test('conflicting or unknown options', async () => {
    expectOneErrorLine(await runCli('status', '--from', 'x.json', '--kubeconfig', 'k'), 2, /--from reads a snapshot; it cannot be combined with --kubeconfig or --context/);
    expectOneErrorLine(await runCli('status', '-n', 'a', '-A'), 2, /-n NAMESPACE and -A \(all namespaces\) cannot be combined/);
    expectOneErrorLine(await runCli('status', '--watch'), 2, /^error: status: unknown option --watch; run 'cdk8s-node-agents status --help' for usage\n$/);
  });
});

describe('status --help', () => {
  test('documents the options, the JSON, the states and the exit codes', async () => {
    const r = await runCli('status', '--help');
    expect(r.code).toBe(0);
    for (const word of ['--kubeconfig FILE', '--context NAME', '--from SNAPSHOT', '-A, --all-namespaces', '"wavesLeft"', 'exit status: 0']) {
      expect(r.stdout).toContain(word);
    }
    for (const state of ['excluded', 'missing', 'pending', 'creating', 'image-pull', 'crash-loop', 'not-ready', 'outdated', 'not-available', 'healthy']) {
      expect(r.stdout).toMatch(new RegExp(`\\n  ${state} +\\S`));
    }
    expect((await runCli('--help')).stdout).toMatch(/^ {2}status +explain running DaemonSets node by node/m);
  });
});

describe('status --from: a Node listed twice', () => {
  test('is one node when both copies are the same, and an error naming it when they differ', async () => {
    const f = snapshotFiles();
    const nodes = f.snapshot.items.filter((o: any) => o.kind === 'Node');
    const twice = { ...f.snapshot, items: [...f.snapshot.items, nodes[1]] };
    const once = await runCli('status', '--from', f.json, '--json');
    const r = await runCli('status', '--from', f.write('twice.json', JSON.stringify(twice)), '--json');
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(once.stdout));
    expect(JSON.parse(r.stdout).daemonSets[1].nodes.map((n: any) => n.name)).toEqual(['kind-control-plane', 'kind-worker', 'kind-worker2']);
    const changed = { ...nodes[1], metadata: { ...nodes[1].metadata, labels: { ...nodes[1].metadata.labels, zone: 'b' } } };
    const differ = f.write('differ.json', JSON.stringify({ ...f.snapshot, items: [...f.snapshot.items, changed] }));
    expectOneErrorLine(await runCli('status', '--from', differ), 2,
      new RegExp(`^error: ${differ.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1: document 1, items\\[${f.snapshot.items.length}\\] \\(Node kind-worker\\): Node kind-worker is given twice, differently \\(also at .*differ\\.json:1, document 1, items\\[\\d+\\]\\); pass one inventory`));
  });
});
