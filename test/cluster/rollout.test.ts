// Rollout waves for real: a DaemonSet's pods made Ready through the API (the test binds each pod to its node as the
// scheduler would, reports it Running and Ready through the status subresource and finishes graceful deletions as the
// kubelet would), then a template change, and the DaemonSet controller's rolling update watched wave by wave. The
// waves — how many nodes are updated at once and how many rounds it takes — must be what `cdk8s-node-agents coverage`
// (RolloutPlan) predicts from the live node inventory: maxUnavailable/maxSurge scaled to nodes, rounded up.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { PercentOrAbsolute } from 'cdk8s-plus-28';
import { actAsNodes, applyAll, createNodes, dsPath, inventoryNodes, isReady, markReady, node, ownedPods, resetCluster, targetNode } from './cluster';
import { Kube, ROOT, eventually, readManifests, sleep } from './kube';
import { AgentUpdateStrategy, NodeAgent, RollingUpdateOptions } from '../../src';
import { runCli } from '../cli/run-cli';

const kube = Kube.fromKubeconfig();
const HASH = 'controller-revision-hash';

// Each case starts from a reset cluster, so a case may run again. In one of five CI runs on 2026-11-30 the controller made one node
// more unavailable than maxUnavailable allows (waves [2, 3] for maxUnavailable 2 over 5 nodes, where [2, 2, 1] is
// the plan). The probable cause, from kube-controller-manager v1.37.2's pkg/controller/daemon/update.go: rollingUpdate
// reads the pod cache again after manage(), and a node whose old pod's deletion lands in between, before its new pod
// exists, has no pod in that map and is not counted as unavailable. The test's kubelet confirms deletions at once,
// which widens that window. A wrong prediction fails every attempt; the failed attempt is logged.
jest.retryTimes(2, { logErrorsBeforeRetry: true });
/** how long nothing may change before the controller is taken to have finished a wave. */
const QUIET_MS = 2000;

afterAll(() => resetCluster(kube));


/** keeps acting as the nodes until nothing has changed for QUIET_MS; returns the pods then. */
async function quiet(ds: any): Promise<any[]> {
  let lastKey = '';
  let since = Date.now();
  const deadline = Date.now() + 60_000;
  for (;;) {
    const actions = await actAsNodes(kube, ds);
    const pods = await ownedPods(kube, ds);
    const state = (p: any) => [p.metadata.name, p.spec.nodeName, p.metadata.labels[HASH], isReady(p), !!p.metadata.deletionTimestamp];
    const key = JSON.stringify(pods.map(state).sort());
    if (actions > 0 || key !== lastKey) {
      lastKey = key;
      since = Date.now();
    } else if (Date.now() - since >= QUIET_MS) {
      return pods;
    }
    if (Date.now() > deadline) throw new Error(`the DaemonSet's pods did not settle within 60 s: ${key}`);
    await sleep(200);
  }
}

/** every node runs one Ready pod of the current template: waits for it, acting as the nodes. */
async function allReady(ds: any, nodeCount: number): Promise<void> {
  await eventually(`${nodeCount} Ready pods`, async () => {
    await actAsNodes(kube, ds);
    const pods = (await ownedPods(kube, ds)).filter((p) => !p.metadata.deletionTimestamp);
    for (const p of pods) if (p.spec.nodeName && !isReady(p)) await markReady(kube, p);
    const live = await kube.get(dsPath(ds));
    const s = live.status ?? {};
    return s.observedGeneration === live.metadata.generation && s.desiredNumberScheduled === nodeCount &&
      s.numberReady === nodeCount && s.updatedNumberScheduled === nodeCount && pods.length === nodeCount ? true : undefined;
  });
}

interface Wave {
  /** the nodes whose new pod the controller created in this wave. */
  readonly nodes: string[];
  /** nodes that had no Ready pod at the wave's end (the unavailability the controller allowed itself). */
  readonly unavailable: number;
  /** nodes that ran an old and a new pod side by side (the surge). */
  readonly surged: number;
}

/**
 * Applies the changed template and follows the rollout: at each quiet point the pods of the new template that are not
 * Ready yet are the wave; the test then makes them Ready and waits for the next one.
 */
async function rollout(ds: any, changed: any[], nodeCount: number): Promise<Wave[]> {
  const oldHashes = new Set((await ownedPods(kube, ds)).map((p) => p.metadata.labels[HASH]));
  await applyAll(kube, changed);
  const waves: Wave[] = [];
  for (let round = 0; round <= nodeCount + 1; round++) {
    const pods = (await quiet(ds)).filter((p) => !p.metadata.deletionTimestamp);
    const fresh = pods.filter((p) => !oldHashes.has(p.metadata.labels[HASH]));
    const waiting = fresh.filter((p) => !isReady(p));
    const old = pods.filter((p) => oldHashes.has(p.metadata.labels[HASH]));
    if (waiting.length === 0) {
      expect({ old: old.length, fresh: fresh.length }).toEqual({ old: 0, fresh: nodeCount });
      return waves;
    }
    const readyNodes = new Set(pods.filter(isReady).map(targetNode));
    const oldNodes = new Set(old.map(targetNode));
    waves.push({
      nodes: waiting.map((p) => targetNode(p)!).sort(),
      unavailable: nodeCount - readyNodes.size,
      surged: waiting.filter((p) => oldNodes.has(targetNode(p))).length,
    });
    for (const p of waiting) await markReady(kube, p);
  }
  throw new Error(`the rollout did not finish in ${nodeCount + 1} waves: ${JSON.stringify(waves)}`);
}

/** the coverage CLI's prediction over the live nodes (written as `kubectl get nodes -o yaml` would). */
async function predict(manifest: any[]): Promise<{ desired: number; rollout: { maxUnavailable: number; maxSurge: number; waves: number } }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-rollout-'));
  const nodesFile = path.join(dir, 'nodes.json');
  // as kubectl writes it: a List whose items carry their apiVersion and kind (the API's NodeList items do not)
  const items = (await kube.list('/api/v1/nodes')).map((n) => ({ apiVersion: 'v1', kind: 'Node', ...n }));
  fs.writeFileSync(nodesFile, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  const manifestFile = path.join(dir, 'app.k8s.json');
  fs.writeFileSync(manifestFile, manifest.map((o) => JSON.stringify(o)).join('\n---\n'));
  const cli = await runCli('coverage', '--json', '--nodes', nodesFile, manifestFile);
  fs.rmSync(dir, { recursive: true, force: true });
  expect(cli.stderr).toBe('');
  const [report] = JSON.parse(cli.stdout).daemonSets;
  return report;
}

/** the wave sizes a plan implies: `batch` nodes per wave, the last one takes what is left. */
function waveSizes(nodeCount: number, batch: number): number[] {
  const sizes: number[] = [];
  for (let left = nodeCount; left > 0; left -= batch) sizes.push(Math.min(batch, left));
  return sizes;
}

async function checkRollout(before: any[], after: any[]): Promise<void> {
  const ds = before.find((o) => o.kind === 'DaemonSet');
  const plan = await predict(before);
  expect(plan.desired).toBeGreaterThan(1);
  await applyAll(kube, before);
  await allReady(ds, plan.desired);
  const waves = await rollout(ds, after, plan.desired);
  const { maxUnavailable, maxSurge } = plan.rollout;
  const batch = Math.max(maxUnavailable, maxSurge);
  expect(waves.map((w) => w.nodes.length)).toEqual(waveSizes(plan.desired, batch));
  expect(waves).toHaveLength(plan.rollout.waves);
  for (const w of waves) {
    // by unavailability: the wave's nodes are down while their new pod starts; by surge: old and new run side by side.
    expect(w.unavailable).toBe(maxSurge > 0 ? 0 : w.nodes.length);
    expect(w.surged).toBe(maxSurge > 0 ? w.nodes.length : 0);
  }
  await allReady(ds, plan.desired);
  // the observed waves, for reading (test-reports/ is not committed)
  const report = path.join(ROOT, 'test-reports', 'cluster-rollout-waves.json');
  const all = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : {};
  all[expect.getState().currentTestName ?? ds.metadata.name] = { plan: plan.rollout, desired: plan.desired, waves };
  fs.mkdirSync(path.dirname(report), { recursive: true });
  fs.writeFileSync(report, JSON.stringify(all, null, 2) + '\n');
}

/** a NodeAgent on the nodes labelled rollout=true, at an image tag. */
function agent(strategy: RollingUpdateOptions, tag: string): any[] {
  const app = Testing.app();
  const chart = new Chart(app, 'rollout');
  new NodeAgent(chart, 'roller', {
    namespace: 'rollout',
    image: `registry.example.com/node-agent:${tag}`,
    nodeSelector: { rollout: 'true' },
    updateStrategy: AgentUpdateStrategy.rollingUpdate(strategy),
  });
  return Testing.synth(chart);
}

describe('a template change rolls out in the waves RolloutPlan predicts', () => {
  test('examples/daemonset-basics 3-rolling-update (maxUnavailable 1) over the kind cluster\'s nodes', async () => {
    await resetCluster(kube);
    await createNodes(kube, inventoryNodes(path.join(ROOT, 'examples', 'kind-cluster', 'nodes', 'nodes.yaml')));
    const before = readManifests(path.join(ROOT, 'examples', 'daemonset-basics', 'dist', '3-rolling-update', '3-rolling-update.k8s.yaml'));
    // a new version of the app: one pod template annotation more.
    const after = before.map((o) => o.kind !== 'DaemonSet' ? o : {
      ...o, spec: { ...o.spec, template: { ...o.spec.template, metadata: { ...o.spec.template.metadata, annotations: { ...o.spec.template.metadata.annotations, 'example.com/version': '2' } } } },
    });
    await checkRollout(before, after);
  });

  const cases: [string, RollingUpdateOptions][] = [
    ['maxUnavailable 34% of 5 nodes (2 per wave)', { maxUnavailable: PercentOrAbsolute.percent(34) }],
    ['maxUnavailable 2 nodes', { maxUnavailable: PercentOrAbsolute.absolute(2) }],
    ['maxSurge 2 nodes, maxUnavailable 0', { maxSurge: PercentOrAbsolute.absolute(2) }],
    ['maxSurge 50% of 5 nodes (3 per wave)', { maxSurge: PercentOrAbsolute.percent(50) }],
  ];
  test.each(cases)('a NodeAgent with %s', async (_name, strategy) => {
    await resetCluster(kube);
    await createNodes(kube, [1, 2, 3, 4, 5].map((i) => node(`roll-${i}`, { rollout: 'true' })));
    await checkRollout(agent(strategy, '1.2.0'), agent(strategy, '1.2.1'));
  });
});
