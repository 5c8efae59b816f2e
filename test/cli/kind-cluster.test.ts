// The guide's exercises A and B (DaemonSet chapter, section 6) against the kind-cluster node inventories in
// examples/kind-cluster/nodes/: a kind cluster with kind-control-plane (tainted), kind-worker and kind-worker2.
import * as fs from 'fs';
import * as path from 'path';
import { parse, stringify } from 'yaml';
import { runCli, tempFiles } from './run-cli';

const NODES_DIR = path.join(__dirname, '..', '..', 'examples', 'kind-cluster', 'nodes');
const NONE = path.join(NODES_DIR, 'nodes.yaml');
const ONE = path.join(NODES_DIR, 'nodes-one-labelled.yaml');
const TWO = path.join(NODES_DIR, 'nodes-two-labelled.yaml');

/** exercise A: nodeSelector agent=enabled, image nginx:1.27-alpine. */
const EXERCISE_A = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'exercise-a' },
  spec: {
    selector: { matchLabels: { app: 'exercise-a' } },
    template: {
      metadata: { labels: { app: 'exercise-a' } },
      spec: { nodeSelector: { agent: 'enabled' }, containers: [{ name: 'nginx', image: 'nginx:1.27-alpine' }] },
    },
  },
};

/** exercise B: A plus a toleration for the control-plane taint. */
const EXERCISE_B = {
  ...EXERCISE_A,
  metadata: { name: 'exercise-b' },
  spec: {
    ...EXERCISE_A.spec,
    selector: { matchLabels: { app: 'exercise-b' } },
    template: {
      metadata: { labels: { app: 'exercise-b' } },
      spec: {
        ...EXERCISE_A.spec.template.spec,
        tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
      },
    },
  },
};

async function coverage(nodesFile: string): Promise<any> {
  const t = tempFiles();
  const manifests = t.write('exercises.k8s.yaml', `${stringify(EXERCISE_A)}---\n${stringify(EXERCISE_B)}`);
  const r = await runCli('coverage', '--json', '--nodes', nodesFile, manifests);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  const report = JSON.parse(r.stdout);
  return {
    nodeCount: report.nodeCount,
    a: report.daemonSets.find((d: any) => d.name === 'exercise-a'),
    b: report.daemonSets.find((d: any) => d.name === 'exercise-b'),
  };
}

function running(ds: any): string[] {
  return ds.nodes.filter((n: any) => n.shouldRun).map((n: any) => n.name);
}

/** nodes-two-labelled.yaml with the control-plane node labelled agent=enabled too. */
function allLabelled(): string {
  const list = parse(fs.readFileSync(TWO, 'utf-8'));
  const cp = list.items.find((n: any) => n.metadata.name === 'kind-control-plane');
  cp.metadata.labels.agent = 'enabled';
  return tempFiles().write('nodes-all-labelled.yaml', stringify(list));
}

describe('the kind-cluster inventories', () => {
  test.each([NONE, ONE, TWO])('%s is a kind cluster of three linux nodes with a tainted control plane', (file) => {
    const list = parse(fs.readFileSync(file, 'utf-8'));
    expect(list.kind).toBe('List');
    expect(list.items.map((n: any) => n.metadata.name)).toEqual(['kind-control-plane', 'kind-worker', 'kind-worker2']);
    for (const n of list.items) {
      expect(n.kind).toBe('Node');
      expect(n.metadata.labels['kubernetes.io/os']).toBe('linux');
      expect(n.metadata.labels['kubernetes.io/hostname']).toBe(n.metadata.name);
      expect(n.metadata.labels['kubernetes.io/arch']).toBe('amd64');
    }
    expect(list.items[0].metadata.labels['node-role.kubernetes.io/control-plane']).toBe('');
    expect(list.items[0].spec.taints).toEqual([{ effect: 'NoSchedule', key: 'node-role.kubernetes.io/control-plane' }]);
  });
});

describe('exercise A: nodeSelector agent=enabled', () => {
  test('no labelled node: DESIRED 0', async () => {
    const { a, nodeCount } = await coverage(NONE);
    expect(nodeCount).toBe(3);
    expect(a.desired).toBe(0);
  });

  test('label kind-worker: DESIRED 1, then kind-worker2 too: 2, then remove one label: back to 1', async () => {
    const steps = [await coverage(ONE), await coverage(TWO), await coverage(ONE)];
    expect(steps.map((s) => s.a.desired)).toEqual([1, 2, 1]);
    expect(running(steps[0].a)).toEqual(['kind-worker']);
    expect(running(steps[1].a)).toEqual(['kind-worker', 'kind-worker2']);
    expect(running(steps[2].a)).toEqual(['kind-worker']);
  });

  test('the unlabelled worker is explained by the nodeSelector', async () => {
    const { a } = await coverage(ONE);
    const worker2 = a.nodes.find((n: any) => n.name === 'kind-worker2');
    expect(worker2.reasons).toEqual([expect.stringMatching(/^nodeSelector agent=enabled is not met: the node has no label agent; label the node \(kubectl label node kind-worker2 agent=enabled\)/)]);
  });

  test('even a labelled control plane stays out: its taint is not tolerated', async () => {
    const { a } = await coverage(allLabelled());
    expect(a.desired).toBe(2);
    const cp = a.nodes.find((n: any) => n.name === 'kind-control-plane');
    expect(cp.reasons).toEqual([
      'taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated; add a toleration {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule} (NoSchedule keeps new pods off the node; it does not evict a pod already running there)',
    ]);
  });
});

describe('exercise B: A plus the control-plane toleration', () => {
  test('the toleration alone does not add the control plane: it still lacks the label', async () => {
    const steps = [await coverage(ONE), await coverage(TWO)];
    expect(steps.map((s) => s.b.desired)).toEqual([1, 2]);
    const cp = steps[1].b.nodes.find((n: any) => n.name === 'kind-control-plane');
    expect(cp.reasons).toEqual([expect.stringMatching(/^nodeSelector agent=enabled is not met/)]);
  });

  test('the control plane joins when it is labelled: DESIRED 3 for B, still 2 for A', async () => {
    const { a, b } = await coverage(allLabelled());
    expect(b.desired).toBe(3);
    expect(running(b)).toEqual(['kind-control-plane', 'kind-worker', 'kind-worker2']);
    expect(a.desired).toBe(2);
  });

  test('text output shows the kubectl-style lines for both', async () => {
    const t = tempFiles();
    const manifests = t.write('exercises.k8s.yaml', `${stringify(EXERCISE_A)}---\n${stringify(EXERCISE_B)}`);
    const r = await runCli('coverage', '--nodes', allLabelled(), manifests);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^default {5}exercise-a {3}2 {9}agent=enabled$/m);
    expect(r.stdout).toMatch(/^default {5}exercise-b {3}3 {9}agent=enabled$/m);
    expect(r.stdout).toContain('  rollout: RollingUpdate over 3 nodes: maxUnavailable 1 node, maxSurge 0 nodes, 3 waves\n');
  });
});
