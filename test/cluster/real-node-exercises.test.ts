// The guide's exercises A and B (examples/kind-cluster) with the real node among the kind cluster's API-only Nodes,
// the rollout watched as `kubectl rollout status daemonset` watches it; then a rollout through the real node with
// the library's defaults, measured.
//
// For the real node to be one of the workers, its test taint is lifted for this file (and put back after), the
// exercise's image (nginx:1.27-alpine, which this node cannot pull) is replaced by the local busybox agent image,
// and the pods ask for the real scheduler (which then binds the API-only Nodes' pods too; their readiness is the
// test's to report, as there is no kubelet behind them).
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { applyAll, createNodes, dsPath, inventoryNodes, isReady, markReady, ownedPods, resetCluster } from './cluster';
import { Kube, ROOT, eventually, readManifests } from './kube';
import { cleanUp, onRealNode, requireRealNode, tolerateRealNode } from './real-node';
import { NodeAgent } from '../../src';
import { synthValid } from '../util/k8s-schema';

const kube = Kube.fromKubeconfig();
const node = requireRealNode();
const dir = path.join(ROOT, 'examples', 'kind-cluster');
const CP = 'kind-control-plane';
const W1 = 'kind-worker';

/** the exercise's objects, with the local image and the real scheduler (the only changes). */
function exercise(name: 'exercise-a' | 'exercise-b'): any[] {
  return onRealNode(readManifests(path.join(dir, 'dist', name, `${name}.k8s.yaml`))).map((o) => {
    if (o.kind !== 'DaemonSet') return o;
    const spec = o.spec.template.spec;
    const containers = spec.containers.map((c: any) => ({ ...c, image: node.images.agent }));
    return { ...o, spec: { ...o.spec, template: { ...o.spec.template, spec: { ...spec, containers } } } };
  });
}

async function label(nodeName: string, value: string | null): Promise<void> {
  await kube.mergePatch(`/api/v1/nodes/${nodeName}`, { metadata: { labels: { agent: value } } });
}


/**
 * `kubectl rollout status daemonset/NAME`: done once the controller observed the current generation, every
 * scheduled pod is updated and available (kubectl's DaemonSetStatusViewer), with DESIRED at `desired`. Meanwhile plays the kubelet of the
 * API-only Nodes (Ready once bound, deletion confirmed). Returns the status it ended on.
 */
async function rolloutStatus(ds: any, desired: number, timeoutMs = 90_000): Promise<any> {
  let last: any;
  return eventually(`rollout status of ${ds.metadata.name}`, async () => {
    await playApiOnlyKubelets(ds);
    const live = await kube.get(dsPath(ds));
    last = live.status;
    const s = live.status ?? {};
    // the status the controller wrote for the state the test made (a label just changed is seen a moment later)
    const done = s.desiredNumberScheduled === desired && live.metadata.generation <= (s.observedGeneration ?? 0) &&
      (s.updatedNumberScheduled ?? 0) >= s.desiredNumberScheduled && (s.numberAvailable ?? 0) >= s.desiredNumberScheduled;
    return done ? s : undefined;
  }, { timeoutMs, intervalMs: 250, last: () => last });
}

/** the kubelets of the API-only Nodes: a pod bound there is reported Ready, a deletion confirmed. */
async function playApiOnlyKubelets(ds: any): Promise<void> {
  for (const p of await ownedPods(kube, ds)) {
    if (p.spec.nodeName === node.name || !p.spec.nodeName) continue;
    if (p.metadata.deletionTimestamp) await kube.delete(`/api/v1/namespaces/${p.metadata.namespace}/pods/${p.metadata.name}`, { gracePeriodSeconds: 0 });
    else if (!isReady(p)) await markReady(kube, p);
  }
}

/** the nodes of the DaemonSet's pods that are not being deleted, sorted. */
async function podNodes(ds: any): Promise<string[]> {
  return (await ownedPods(kube, ds)).filter((p) => !p.metadata.deletionTimestamp).map((p) => p.spec.nodeName ?? '(unbound)').sort();
}

async function expectNoPodOn(ds: any, nodeName: string, timeoutMs = 60_000): Promise<number> {
  const t = Date.now();
  await eventually(`${ds.metadata.name}'s pod on ${nodeName} to be gone`, async () => {
    await playApiOnlyKubelets(ds);
    const pods = (await ownedPods(kube, ds)).filter((p) => p.spec.nodeName === nodeName);
    return pods.length === 0 ? true : undefined;
  }, { timeoutMs, intervalMs: 250 });
  return Date.now() - t;
}

beforeAll(async () => {
  await cleanUp(kube);
  await kube.mergePatch(`/api/v1/nodes/${node.name}`, { spec: { taints: null } });
  await createNodes(kube, inventoryNodes(path.join(dir, 'nodes', 'nodes.yaml')));
});
afterAll(async () => {
  await label(node.name, null);
  await kube.mergePatch(`/api/v1/nodes/${node.name}`, { spec: { taints: [node.taint] } });
  await cleanUp(kube);
  expect((await kube.get(`/api/v1/nodes/${node.name}`)).spec.taints).toEqual([node.taint]);
});

test('exercise A and B with the real node as a worker: DESIRED 0, 1, 2; unlabelled, its pod removed by its kubelet; the control-plane toleration adds and removes a pod', async () => {
  const a = exercise('exercise-a');
  const b = exercise('exercise-b');
  const ds = a.find((o) => o.kind === 'DaemonSet');
  await applyAll(kube, a);
  expect(await rolloutStatus(ds, 0)).toMatchObject({ desiredNumberScheduled: 0 });

  await label(node.name, 'enabled');
  expect(await rolloutStatus(ds, 1)).toMatchObject({ desiredNumberScheduled: 1, numberReady: 1, numberAvailable: 1 });
  const [realPod] = (await ownedPods(kube, ds)).filter((p) => p.spec.nodeName === node.name);
  expect(realPod.status.containerStatuses[0]).toMatchObject({ ready: true, state: { running: expect.anything() } });

  await label(W1, 'enabled');
  expect(await rolloutStatus(ds, 2)).toMatchObject({ desiredNumberScheduled: 2, numberAvailable: 2 });
  expect(await podNodes(ds)).toEqual([W1, node.name].sort());

  // unlabel the real node: the controller deletes its pod, the real kubelet stops it and the pod object goes
  await label(node.name, null);
  const tookMs = await expectNoPodOn(ds, node.name);
  expect(await rolloutStatus(ds, 1)).toMatchObject({ desiredNumberScheduled: 1 });
  expect(await podNodes(ds)).toEqual([W1]);
  console.log(`exercise A: the real node's pod was gone ${(tookMs / 1000).toFixed(1)} s after the label was removed (the image's shell ignores SIGTERM)`);

  // exercise B over A: the toleration of the control-plane taint lets kind-control-plane in; DESIRED grows
  await label(node.name, 'enabled');
  await label(CP, 'enabled');
  await applyAll(kube, b);
  expect(await rolloutStatus(ds, 3)).toMatchObject({ desiredNumberScheduled: 3, numberAvailable: 3, updatedNumberScheduled: 3 });
  expect(await podNodes(ds)).toEqual([CP, W1, node.name].sort());
  // A again: the toleration goes, the control plane's pod is cleaned up
  await applyAll(kube, a);
  await expectNoPodOn(ds, CP, 120_000);
  expect(await rolloutStatus(ds, 2, 120_000)).toMatchObject({ desiredNumberScheduled: 2 });
  expect(await podNodes(ds)).toEqual([W1, node.name].sort());
});

describe('a rollout through the real node with the library\'s defaults', () => {
  beforeAll(() => cleanUp(kube));
  afterEach(() => resetCluster(kube));

  /** applies the agent, waits for its pod Ready on the real node, changes the template and times the replacement. */
  interface Measured { oldGoneMs: number; newReadyMs: number; grace: number | undefined; minReady: number | undefined }

  async function rollOut(namespace: string, script: string): Promise<Measured> {
    const make = (version: string) => {
      const chart = new Chart(Testing.app(), 'rollout');
      tolerateRealNode(new NodeAgent(chart, 'agent', { namespace, image: node.images.agent, runAsUser: 1000, args: [script], env: { VERSION: version } }));
      return onRealNode(synthValid(chart));
    };
    const v1 = make('1');
    const ds = v1.find((o) => o.kind === 'DaemonSet');
    await applyAll(kube, v1);
    await rolloutStatus(ds, 1);
    const [old] = (await ownedPods(kube, ds)).filter((p) => !p.metadata.deletionTimestamp);
    const t = Date.now();
    await applyAll(kube, make('2'));
    await eventually('the old pod to be gone', async () => ((await kube.request('GET', `/api/v1/namespaces/${namespace}/pods/${old.metadata.name}`)).status === 404 ? true : undefined), { timeoutMs: 90_000, intervalMs: 100 });
    const oldGoneMs = Date.now() - t;
    await rolloutStatus(ds, 1);
    const newReadyMs = Date.now() - t;
    return { oldGoneMs, newReadyMs, grace: ds.spec.template.spec.terminationGracePeriodSeconds, minReady: ds.spec.minReadySeconds };
  }

  test('an agent whose PID 1 ignores SIGTERM holds each node for the whole default grace period (30 s); one that exits on SIGTERM is replaced in seconds', async () => {
    const ignoring = await rollOut('real-node-rollout-a', 'exec sleep 3600');
    const honouring = await rollOut('real-node-rollout-b', 'trap "exit 0" TERM; while true; do sleep 1; done');
    console.log(`rollout through the real node (terminationGracePeriodSeconds ${ignoring.grace ?? 'not rendered: 30 s'}, minReadySeconds ${ignoring.minReady ?? 'not rendered: 0'}, no probes): ` +
      `PID 1 ignoring SIGTERM: old pod gone after ${(ignoring.oldGoneMs / 1000).toFixed(1)} s, rollout complete after ${(ignoring.newReadyMs / 1000).toFixed(1)} s; ` +
      `exiting on SIGTERM: ${(honouring.oldGoneMs / 1000).toFixed(1)} s and ${(honouring.newReadyMs / 1000).toFixed(1)} s`);
    expect(ignoring.grace).toBeUndefined(); // the API's default, 30 s
    expect(ignoring.oldGoneMs).toBeGreaterThanOrEqual(29_000);
    // well below the grace period: the kubelet's SIGTERM ended it
    expect(honouring.oldGoneMs).toBeLessThan(25_000);
  });
});

