// The guide's exercises A and B for real (examples/kind-cluster): the kind cluster's Nodes, the example's
// exercise-a/exercise-b output applied, nodes labelled and unlabelled with merge patches as `kubectl label` sends them,
// and the DaemonSet controller's DESIRED and pods compared at every step with the README's numbers and with
// `cdk8s-node-agents coverage` over the inventory file of that step (whose labels must equal the live nodes').
import * as path from 'path';
import { applyAll, createNodes, dsPath, expectSettled, inventoryNodes, ownedPods, resetCluster, targetNode } from './cluster';
import { Kube, ROOT, readManifests } from './kube';
import { runCli } from '../cli/run-cli';

const kube = Kube.fromKubeconfig();
const dir = path.join(ROOT, 'examples', 'kind-cluster');
const inventory = (name: string) => path.join(dir, 'nodes', `${name}.yaml`);
const exerciseA = readManifests(path.join(dir, 'dist', 'exercise-a', 'exercise-a.k8s.yaml'));
const exerciseB = readManifests(path.join(dir, 'dist', 'exercise-b', 'exercise-b.k8s.yaml'));
const ds = exerciseA.find((o) => o.kind === 'DaemonSet');

const CP = 'kind-control-plane';
const W1 = 'kind-worker';
const W2 = 'kind-worker2';

/** `kubectl label node NAME agent=enabled` (value) or `kubectl label node NAME agent-` (null). */
async function label(nodeName: string, value: string | null): Promise<void> {
  await kube.mergePatch(`/api/v1/nodes/${nodeName}`, { metadata: { labels: { agent: value } } });
}

/**
 * Checks one step: the live nodes carry exactly the labels and taints of the inventory file, coverage over that file
 * predicts `desired` on `nodes`, and the controller settles there.
 */
async function step(inventoryName: string, manifest: any[], desired: number, nodes: string[]): Promise<void> {
  const file = inventory(inventoryName);
  const live = new Map((await kube.list('/api/v1/nodes')).map((n) => [n.metadata.name, n]));
  for (const n of inventoryNodes(file)) {
    expect({ name: n.metadata.name, labels: live.get(n.metadata.name)?.metadata.labels, taints: live.get(n.metadata.name)?.spec.taints })
      .toEqual({ name: n.metadata.name, labels: n.metadata.labels, taints: n.spec.taints });
  }
  const manifestFile = manifest === exerciseA
    ? path.join(dir, 'dist', 'exercise-a', 'exercise-a.k8s.yaml') : path.join(dir, 'dist', 'exercise-b', 'exercise-b.k8s.yaml');
  const cli = await runCli('coverage', '--json', '--nodes', file, manifestFile);
  expect(cli.code).toBe(0);
  const [report] = JSON.parse(cli.stdout).daemonSets;
  const predicted = report.nodes.filter((n: any) => n.shouldRun).map((n: any) => n.name).sort();
  expect({ desired: report.desired, nodes: predicted }).toEqual({ desired, nodes: [...nodes].sort() });
  await expectSettled(kube, ds, { desired, podNodes: nodes });
}

/** the name of the live daemon pod for a node (there must be exactly one). */
async function podOn(nodeName: string): Promise<string> {
  const pods = (await ownedPods(kube, ds)).filter((p) => targetNode(p) === nodeName && !p.metadata.deletionTimestamp);
  expect(pods).toHaveLength(1);
  return pods[0].metadata.name;
}

async function expectGone(podName: string): Promise<void> {
  const r = await kube.request('GET', `/api/v1/namespaces/${ds.metadata.namespace}/pods/${podName}`);
  expect(r.status).toBe(404);
}

beforeAll(async () => {
  await resetCluster(kube);
  await createNodes(kube, inventoryNodes(inventory('nodes')));
});
afterAll(() => resetCluster(kube));

test('exercise A: label a worker and DESIRED goes 0 → 1 → 2; remove the label and the controller deletes that node\'s pod', async () => {
  await applyAll(kube, exerciseA);
  await step('nodes', exerciseA, 0, []);

  await label(W1, 'enabled');
  await step('nodes-one-labelled', exerciseA, 1, [W1]);

  await label(W2, 'enabled');
  await step('nodes-two-labelled', exerciseA, 2, [W1, W2]);
  const onWorker2 = await podOn(W2);

  await label(W2, null);
  await step('nodes-one-labelled', exerciseA, 1, [W1]);
  await expectGone(onWorker2);
});

test('exercise B: the control-plane node, labelled, joins only with the toleration; removing it cleans the pod up', async () => {
  await label(W2, 'enabled');
  await label(CP, 'enabled');
  await step('nodes-all-labelled', exerciseA, 2, [W1, W2]);

  await applyAll(kube, exerciseB);
  await step('nodes-all-labelled', exerciseB, 3, [CP, W1, W2]);
  const live = await kube.get(dsPath(ds));
  expect(live.spec.template.spec.tolerations).toContainEqual({ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' });
  const onControlPlane = await podOn(CP);

  // apply exercise A again: the toleration is gone from the template, and the control plane's pod with it.
  await applyAll(kube, exerciseA);
  await step('nodes-all-labelled', exerciseA, 2, [W1, W2]);
  await expectGone(onControlPlane);
});
