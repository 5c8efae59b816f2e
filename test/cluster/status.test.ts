// `cdk8s-node-agents status` end to end on the real control plane. The kind cluster's Nodes (examples/kind-cluster),
// the example's exercise A and six agents synthesized here with NodeAgent applied; the DaemonSet controller creates
// their pods and writes their .status; the test plays the scheduler and the kubelets through the API (kubelet.ts:
// bindings, pod statuses, events, worded as v1.37.2 words them) to put nodes in every state the command reports.
// At each step `status` runs live (the CLI in-process, through .cluster/kubeconfig) and on a snapshot of the same
// cluster taken as the README says (`kubectl get nodes,daemonsets,controllerrevisions,pods,events -A -o json`,
// reproduced with the API, and with kubectl itself, JSON and YAML, when a kubectl is on the PATH); both must print the
// same, equal to the expected states, with the five numbers the controller wrote and its exit code.
//
// Live and snapshot read the clock differently: live takes the time of the run, a snapshot its newest timestamp. Only
// minReadySeconds reads it (is a Ready pod available yet?); here it is 0, or an hour for the not-available case, so
// no pod crosses its window between the two reads.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Duration, Size, Testing } from 'cdk8s';
import { applyAll, createNodes, dsPath, ensureServiceAccount, inventoryNodes, ownedPods, realNode, resetCluster, targetNode } from './cluster';
import { Kube, KUBECONFIG, ROOT, eventually, readManifests, sleep } from './kube';
import {
  bind, confirmDeletion, hostPorts, hostPortsUnschedulableMessage, podDesc, recordKubeletEvent, reportPodStatus,
  reportUnschedulable, rfc3339, running,
} from './kubelet';
import { AgentProbe, DaemonSetStatus, HostMount, NodeAgent } from '../../src';
import { runCli } from '../cli/run-cli';

const kube = Kube.fromKubeconfig();
const KIND = path.join(ROOT, 'examples', 'kind-cluster');
const inventory = (name: string) => path.join(KIND, 'nodes', `${name}.yaml`);
const CP = 'kind-control-plane';
const W1 = 'kind-worker';
const W2 = 'kind-worker2';
const HASH = 'controller-revision-hash';
const REGISTRY = 'registry.example.com';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-status-'));
const REPORTS = path.join(ROOT, 'test-reports');
/** the real node of cluster:up, among the kind cluster's three API-only Nodes: tainted NoExecute, so every agent here leaves it out. */
const REAL_NODE = realNode()?.name;
const NODE_COUNT = 3 + (REAL_NODE ? 1 : 0);

// ---------- the agents ----------

function synth(build: (chart: Chart) => void): any[] {
  const app = Testing.app();
  const chart = new Chart(app, 'status');
  build(chart);
  return Testing.synth(chart);
}

const exerciseA = readManifests(path.join(KIND, 'dist', 'exercise-a', 'exercise-a.k8s.yaml'));
const exerciseB = readManifests(path.join(KIND, 'dist', 'exercise-b', 'exercise-b.k8s.yaml'));

/** reads the systemd journal: a hostPath of type Directory, which kind-worker2 lacks. */
const logCollector = () => synth((c) => new NodeAgent(c, 'log-collector', {
  namespace: 'logging',
  image: `${REGISTRY}/log-collector:2.4.1`,
  hostMounts: [HostMount.readOnly('/var/log/journal', { volumeName: 'journal', reason: 'reads the systemd journal' })],
}));

/** a 64Mi memory limit it outgrows on one node, a readiness probe that fails on the other. */
const nodeMonitor = () => synth((c) => new NodeAgent(c, 'node-monitor', {
  namespace: 'monitoring',
  image: `${REGISTRY}/node-monitor:1.8.0`,
  resources: { memoryRequest: Size.mebibytes(64), memoryLimit: Size.mebibytes(64) },
  ports: [{ name: 'http', containerPort: 8080 }],
  readiness: AgentProbe.httpGet('/healthz', { port: 8080 }),
}));

/** host port 9100, which an older exporter already holds on kind-worker2. */
const metricsAgent = () => synth((c) => new NodeAgent(c, 'metrics-agent', {
  namespace: 'metrics',
  image: `${REGISTRY}/metrics-agent:0.9.3`,
  ports: [{ name: 'metrics', containerPort: 9100, hostPort: { port: 9100, reason: 'scraped on the node address' } }],
}));

/** rolled out from 1.2.0 to 1.2.1, a tag the registry does not have. */
const securityAgent = (tag: string) => synth((c) => new NodeAgent(c, 'security-agent', { namespace: 'security', image: `${REGISTRY}/security-agent:${tag}` }));

/** an hour of minReadySeconds: Ready pods are not available yet. */
const auditAgent = () => synth((c) => new NodeAgent(c, 'audit-agent', { namespace: 'audit', image: `${REGISTRY}/audit-agent:3.1.0`, minReady: Duration.hours(1) }));

/** deployed into a team's namespace that enforces Pod Security baseline: its hostPath is refused. */
const TEAM_NAMESPACE = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } };
const fileShipper = () => synth((c) => new NodeAgent(c, 'file-shipper', {
  namespace: 'team-a',
  createNamespace: false,
  image: `${REGISTRY}/file-shipper:1.0.4`,
  hostMounts: [HostMount.readOnly('/var/log', { reason: 'ships the node logs' })],
}));

/** a node exporter started by hand long ago on kind-worker2, on host port 9100 (not a DaemonSet pod). */
const LEGACY_NAMESPACE = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'legacy' } };
const LEGACY_EXPORTER = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'node-exporter-kind-worker2', namespace: 'legacy', labels: { app: 'node-exporter' } },
  spec: { nodeName: W2, containers: [{ name: 'node-exporter', image: 'quay.io/prometheus/node-exporter:v1.8.2', ports: [{ name: 'metrics', containerPort: 9100, hostPort: 9100 }] }] },
};

const ds = (manifest: any[]) => manifest.find((o) => o.kind === 'DaemonSet');

// ---------- the scheduler's and the kubelets' parts ----------

const nodes = new Map<string, any>();
async function nodeOf(name: string): Promise<any> {
  if (!nodes.has(name)) nodes.set(name, await kube.get(`/api/v1/nodes/${name}`));
  return nodes.get(name);
}

/** the one live (not deleting) pod of the DaemonSet for the node, as the controller created it. */
async function podFor(daemonSet: any, nodeName: string, hash?: string): Promise<any> {
  return eventually(`a pod of ${daemonSet.metadata.name} for ${nodeName}${hash ? ` with ${HASH} ${hash}` : ''}`, async () => {
    const pods = (await ownedPods(kube, daemonSet)).filter((p) => !p.metadata.deletionTimestamp && targetNode(p) === nodeName
      && (hash === undefined || p.metadata.labels[HASH] === hash));
    return pods.length === 1 ? pods[0] : undefined;
  });
}

const fresh = (pod: any) => kube.get(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`);

/**
 * The scheduler: binds the pod to the node the controller chose, unless another pod bound there holds one of its host
 * ports (the NodePorts filter; the only one of the scheduler's filters that these pods can fail), in which case it
 * reports the pod unschedulable. Returns the pod as stored after it.
 */
async function schedule(pod: any): Promise<any> {
  const nodeName = targetNode(pod)!;
  const wanted = hostPorts(pod);
  const onNode = await kube.list('/api/v1/pods', { fieldSelector: `spec.nodeName=${nodeName}` });
  const taken = onNode.filter((p) => !['Succeeded', 'Failed'].includes(p.status?.phase)).flatMap(hostPorts);
  if (wanted.some((p) => taken.includes(p))) {
    await reportUnschedulable(kube, pod, hostPortsUnschedulableMessage((await kube.list('/api/v1/nodes')).length));
  } else {
    await bind(kube, pod, nodeName);
  }
  return fresh(pod);
}

const IMAGE_ID = 'sha256:3b5f0c2d9e8a7f6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b';

/** the kubelet starts the pod's containers and they become Ready. */
async function healthy(pod: any): Promise<void> {
  const p = await fresh(pod);
  const node = p.spec.nodeName;
  for (const c of p.spec.containers) {
    await recordKubeletEvent(kube, p, node, { type: 'Normal', reason: 'Pulled', message: `Container image "${c.image}" already present on machine`, container: c.name });
    await recordKubeletEvent(kube, p, node, { type: 'Normal', reason: 'Created', message: 'Container created', container: c.name });
    await recordKubeletEvent(kube, p, node, { type: 'Normal', reason: 'Started', message: 'Container started', container: c.name });
  }
  await reportPodStatus(kube, p, await nodeOf(node), {
    phase: 'Running', sandbox: true, containers: Object.fromEntries(p.spec.containers.map((c: any) => [c.name, running(true)])),
  });
}

/** the kubelet's new pod, still setting up (pulling, creating the sandbox): ContainerCreating without a warning. */
async function beingCreated(pod: any): Promise<void> {
  const p = await fresh(pod);
  await recordKubeletEvent(kube, p, p.spec.nodeName, { type: 'Normal', reason: 'Pulling', message: `Pulling image "${p.spec.containers[0].image}"`, container: p.spec.containers[0].name });
  await reportPodStatus(kube, p, await nodeOf(p.spec.nodeName), { phase: 'Pending', sandbox: false, containers: {} });
}

/** the hostPath of type Directory is missing on the node: every mount attempt fails, the containers never start. */
async function failedMount(pod: any, volume: string, hostPath: string): Promise<string> {
  const p = await fresh(pod);
  const message = `MountVolume.SetUp failed for volume "${volume}" : hostPath type check failed, ${hostPath} is not a directory, ` +
    `unable to determine its type: path "${hostPath}" does not exist`;
  await recordKubeletEvent(kube, p, p.spec.nodeName, { type: 'Warning', reason: 'FailedMount', message, count: 9 });
  await reportPodStatus(kube, p, await nodeOf(p.spec.nodeName), { phase: 'Pending', sandbox: false, containers: {} });
  return message;
}

/** the container is OOM-killed at its memory limit, over and over: CrashLoopBackOff. */
async function oomCrashLoop(pod: any): Promise<void> {
  const p = await fresh(pod);
  const c = p.spec.containers[0];
  const node = p.spec.nodeName;
  const now = Date.now();
  for (const [reason, message] of [['Pulled', `Container image "${c.image}" already present on machine`], ['Created', 'Container created'], ['Started', 'Container started']]) {
    await recordKubeletEvent(kube, p, node, { type: 'Normal', reason, message, count: 8, container: c.name });
  }
  await recordKubeletEvent(kube, p, node, { type: 'Warning', reason: 'BackOff', message: `Back-off restarting failed container ${c.name} in pod ${podDesc(p)}`, count: 31, container: c.name });
  await reportPodStatus(kube, p, await nodeOf(node), {
    phase: 'Running',
    sandbox: true,
    containers: {
      [c.name]: {
        state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting failed container=${c.name} pod=${podDesc(p)}` } },
        lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: rfc3339(now - 4000), finishedAt: rfc3339(now - 1000), containerID: 'containerd://7a0e6f5d4c3b2a1908f7e6d5c4b3a2918070f6e5d4c3b2a19080706050403020' } },
        ready: false,
        started: false,
        restartCount: 7,
        imageID: IMAGE_ID,
        containerID: 'containerd://7a0e6f5d4c3b2a1908f7e6d5c4b3a2918070f6e5d4c3b2a19080706050403020',
      },
    },
  });
}

/** the container runs, its readiness probe answers 503. */
async function readinessFails(pod: any): Promise<string> {
  const p = await fresh(pod);
  const c = p.spec.containers[0];
  await healthyEventsOnly(p);
  const message = 'Readiness probe failed: HTTP probe failed with statuscode: 503';
  await recordKubeletEvent(kube, p, p.spec.nodeName, { type: 'Warning', reason: 'Unhealthy', message, count: 87, container: c.name });
  await reportPodStatus(kube, p, await nodeOf(p.spec.nodeName), { phase: 'Running', sandbox: true, containers: { [c.name]: running(false) } });
  return message;
}

async function healthyEventsOnly(p: any): Promise<void> {
  const c = p.spec.containers[0];
  await recordKubeletEvent(kube, p, p.spec.nodeName, { type: 'Normal', reason: 'Pulled', message: `Container image "${c.image}" already present on machine`, container: c.name });
  await recordKubeletEvent(kube, p, p.spec.nodeName, { type: 'Normal', reason: 'Created', message: 'Container created', container: c.name });
  await recordKubeletEvent(kube, p, p.spec.nodeName, { type: 'Normal', reason: 'Started', message: 'Container started', container: c.name });
}

/** the registry has no such tag: the kubelet backs off pulling. Returns containerd's error. */
async function imagePullBackOff(pod: any): Promise<string> {
  const p = await fresh(pod);
  const c = p.spec.containers[0];
  const node = p.spec.nodeName;
  const image = c.image;
  const pullError = `rpc error: code = NotFound desc = failed to pull and unpack image "${image}": failed to resolve reference "${image}": ${image}: not found`;
  const events: Array<[('Normal' | 'Warning'), string, string, number]> = [
    ['Normal', 'Pulling', `Pulling image "${image}"`, 4],
    ['Warning', 'Failed', `Failed to pull image "${image}": ${pullError}`, 4],
    ['Warning', 'Failed', 'Error: ErrImagePull', 4],
    ['Normal', 'BackOff', `Back-off pulling image "${image}"`, 22],
    ['Warning', 'Failed', 'Error: ImagePullBackOff', 22],
  ];
  for (const [type, reason, message, count] of events) await recordKubeletEvent(kube, p, node, { type, reason, message, count, container: c.name });
  await reportPodStatus(kube, p, await nodeOf(node), {
    phase: 'Pending',
    sandbox: true,
    containers: { [c.name]: { state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}": ErrImagePull: ${pullError}` } }, ready: false } },
  });
  return pullError;
}

// ---------- what the controller wrote ----------

interface Counts {
  readonly desired: number;
  readonly current: number;
  readonly ready: number;
  readonly upToDate: number;
  readonly available: number;
}

function countsOf(live: any): Counts {
  const s = live.status ?? {};
  return {
    desired: s.desiredNumberScheduled ?? 0,
    current: s.currentNumberScheduled ?? 0,
    ready: s.numberReady ?? 0,
    upToDate: s.updatedNumberScheduled ?? 0,
    available: s.numberAvailable ?? 0,
  };
}

/** waits until the controller has seen the DaemonSet's spec and written `counts`, and they stay so for a second. */
async function settled(daemonSet: any, counts: Counts): Promise<void> {
  let last: any;
  const matches = (live: any) => (live.status?.observedGeneration ?? 0) >= live.metadata.generation
    && JSON.stringify(countsOf(live)) === JSON.stringify(counts);
  await eventually(`${daemonSet.metadata.namespace}/${daemonSet.metadata.name} .status at ${JSON.stringify(counts)}`, async () => {
    last = await kube.get(dsPath(daemonSet));
    return matches(last) ? true : undefined;
  }, { last: () => ({ generation: last?.metadata.generation, status: last?.status }) });
  await sleep(1000);
  expect(countsOf(await kube.get(dsPath(daemonSet)))).toEqual(counts);
}

// ---------- status, live and from a snapshot ----------

const KUBECTL = findKubectl();

function findKubectl(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, 'kubectl');
    if (dir !== '' && fs.existsSync(file)) return file;
  }
  return undefined;
}

/** `kubectl get nodes,daemonsets,controllerrevisions,pods,events -A -o json`, through the API: a v1 List of the items, each with its apiVersion and kind. */
async function apiSnapshot(file: string): Promise<any> {
  const resources: Array<[string, string, string]> = [
    ['/api/v1/nodes', 'v1', 'Node'],
    ['/apis/apps/v1/daemonsets', 'apps/v1', 'DaemonSet'],
    ['/apis/apps/v1/controllerrevisions', 'apps/v1', 'ControllerRevision'],
    ['/api/v1/pods', 'v1', 'Pod'],
    ['/api/v1/events', 'v1', 'Event'],
  ];
  const items: any[] = [];
  for (const [p, apiVersion, kind] of resources) items.push(...(await kube.list(p)).map((o) => ({ apiVersion, kind, ...o })));
  const list = { apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } };
  fs.writeFileSync(file, JSON.stringify(list, null, 2));
  return list;
}

function kubectlSnapshot(file: string, output: 'json' | 'yaml'): void {
  const text = execFileSync(KUBECTL!, ['--kubeconfig', KUBECONFIG, 'get', 'nodes,daemonsets,controllerrevisions,pods,events', '-A', '-o', output], { encoding: 'utf8' });
  fs.writeFileSync(file, text);
}

interface Seen {
  readonly code: number;
  readonly json: any;
  /** the text output without its first line (which names the source: the context, or the snapshot file). */
  readonly text: string;
  /** the API's snapshot taken between the two live reads. */
  readonly snapshot: any;
}

let snapshots = 0;

/**
 * `status ARGS --json` (and as text) live, then a snapshot, then live again; repeated while the two live reads
 * differ (the cluster moved: a controller retry bumps an event's count). Then `status --from` on the snapshot (the
 * API's, and kubectl's JSON and YAML) must print exactly what live printed, with the same exit code.
 */
async function liveEqualsSnapshot(...args: string[]): Promise<Seen> {
  const live = (...extra: string[]) => runCli('status', '--kubeconfig', KUBECONFIG, ...args, ...extra);
  for (let attempt = 1; attempt <= 5; attempt++) {
    const before = await live('--json');
    const beforeText = await live();
    snapshots++;
    const file = path.join(tmp, `snapshot-${snapshots}.json`);
    const snapshot = await apiSnapshot(file);
    const files = [file];
    if (KUBECTL) {
      kubectlSnapshot(path.join(tmp, `kubectl-${snapshots}.json`), 'json');
      kubectlSnapshot(path.join(tmp, `kubectl-${snapshots}.yaml`), 'yaml');
      files.push(path.join(tmp, `kubectl-${snapshots}.json`), path.join(tmp, `kubectl-${snapshots}.yaml`));
    }
    const after = await live('--json');
    if (after.stdout !== before.stdout || after.code !== before.code) continue;
    expect(before.stderr).toBe('');
    expect(beforeText.code).toBe(before.code);
    const text = beforeText.stdout.slice(beforeText.stdout.indexOf('\n') + 1);
    expect(beforeText.stdout.split('\n')[0]).toMatch(new RegExp(`^context cdk8s-node-agents \\(https://127\\.0\\.0\\.1:\\d+\\); ${NODE_COUNT} nodes$`));
    for (const f of files) {
      const fromJson = await runCli('status', '--from', f, ...args, '--json');
      expect({ file: path.basename(f), code: fromJson.code, stderr: fromJson.stderr }).toEqual({ file: path.basename(f), code: before.code, stderr: '' });
      expect(JSON.parse(fromJson.stdout)).toEqual(JSON.parse(before.stdout));
      const fromText = await runCli('status', '--from', f, ...args);
      expect(fromText.stdout.split('\n')[0]).toMatch(new RegExp(`^snapshot ${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, taken at \\S+ or later \\(its newest timestamp\\); ${NODE_COUNT} nodes$`));
      expect(fromText.stdout.slice(fromText.stdout.indexOf('\n') + 1)).toBe(text);
    }
    const json = JSON.parse(before.stdout);
    checkAgainstController(json, snapshot);
    // what live printed, for reading (test-reports/ is not committed)
    fs.mkdirSync(REPORTS, { recursive: true });
    const sources = KUBECTL ? 'the API\'s List, kubectl\'s JSON and YAML' : 'the API\'s List (no kubectl on the PATH)';
    fs.appendFileSync(path.join(REPORTS, 'cluster-status.txt'),
      `$ cdk8s-node-agents status ${args.join(' ')}   (exit ${before.code}; read ${attempt === 1 ? 'once' : `${attempt} times`}; equal on ${sources})\n${beforeText.stdout}\n`);
    return { code: before.code, json, text, snapshot };
  }
  throw new Error(`status ${args.join(' ')} changed between every two live reads in 5 attempts`);
}

/**
 * The five numbers are the ones the controller wrote in .status, and the model's own count from the nodes and pods
 * of the snapshot (the controller's updateDaemonSetStatus, redone) is the same: no ".status disagrees" line.
 */
function checkAgainstController(json: any, snapshot: any): void {
  const of = (kind: string) => snapshot.items.filter((o: any) => o.kind === kind);
  for (const shown of json.daemonSets) {
    const live = of('DaemonSet').find((d: any) => d.metadata.namespace === shown.namespace && d.metadata.name === shown.name);
    const { namespace, name, desired, current, ready, upToDate, available } = shown;
    expect({ namespace, name, desired, current, ready, upToDate, available }).toEqual({ namespace, name, ...countsOf(live) });
    const report = DaemonSetStatus.explain(live, {
      nodes: of('Node'), controllerRevisions: of('ControllerRevision'), pods: of('Pod'), events: of('Event'), now: new Date(),
    });
    expect({ namespace, name, computed: report.computed }).toEqual({ namespace, name, computed: report.status });
  }
}

interface Expected {
  readonly counts: Counts;
  readonly nodes: Array<[string, string, string]>;
  readonly rollout: { updated: number; wavesLeft: number; blocked: boolean };
}

function expectDaemonSet(seen: Seen, namespace: string, name: string, expected: Expected): any {
  const shown = seen.json.daemonSets.find((d: any) => d.namespace === namespace && d.name === name);
  expect(shown).toBeDefined();
  expect({
    namespace,
    name,
    counts: { desired: shown.desired, current: shown.current, ready: shown.ready, upToDate: shown.upToDate, available: shown.available },
    nodes: shown.nodes.filter((n: any) => n.name !== REAL_NODE).map((n: any) => [n.name, n.state, n.reason]),
    rollout: shown.rollout,
  }).toEqual({ namespace, name, ...expected });
  if (REAL_NODE) expect(shown.nodes.find((n: any) => n.name === REAL_NODE)).toMatchObject({ state: 'excluded', reason: expect.stringMatching(/Taint$/) });
  return Object.fromEntries(shown.nodes.map((n: any) => [n.name, n]));
}

// ---------- the test ----------

/** the first test's rollout of the security agent, which the second undoes. */
const state: { security?: { replaced: string; kept: string; newHash: string; oldHash: string } } = {};

beforeAll(async () => {
  fs.rmSync(path.join(REPORTS, 'cluster-status.txt'), { force: true });
  await resetCluster(kube);
  await createNodes(kube, inventoryNodes(inventory('nodes-two-labelled')));
});
afterAll(async () => {
  await resetCluster(kube);
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('every state on the kind cluster: live equals the snapshot equals the expected states and the controller\'s numbers', async () => {
  // the namespace a team made, and the exporter someone started by hand on kind-worker2
  await applyAll(kube, [TEAM_NAMESPACE, LEGACY_NAMESPACE]);
  await ensureServiceAccount(kube, 'legacy', 'default');
  await applyAll(kube, [LEGACY_EXPORTER]);
  await healthy(LEGACY_EXPORTER);

  const agents = [exerciseA, logCollector(), nodeMonitor(), metricsAgent(), securityAgent('1.2.0'), auditAgent(), fileShipper()];
  for (const manifest of agents) await applyAll(kube, manifest);
  const [exercises, logging, monitoring, metrics, security, audit, team] = agents.map(ds);

  // the scheduler places every daemon pod it can; the kubelets report them
  const pods = async (d: any) => Promise.all([W1, W2].map(async (n) => schedule(await podFor(d, n))));
  const [ex1, ex2] = await pods(exercises);
  await healthy(ex1);
  await healthy(ex2);
  const [log1, log2] = await pods(logging);
  await healthy(log1);
  const mountError = await failedMount(log2, 'journal', '/var/log/journal');
  const [mon1, mon2] = await pods(monitoring);
  await oomCrashLoop(mon1);
  const probeError = await readinessFails(mon2);
  const [met1, met2] = await pods(metrics);
  await healthy(met1);
  expect(met2.spec.nodeName).toBeUndefined(); // the exporter holds 9100 on kind-worker2
  const [aud1, aud2] = await pods(audit);
  await healthy(aud1);
  await healthy(aud2);

  // the security agent runs 1.2.0 everywhere, then 1.2.1 is applied: the controller replaces one pod (maxUnavailable 1)
  const [sec1, sec2] = await pods(security);
  await healthy(sec1);
  await healthy(sec2);
  await settled(security, { desired: 2, current: 2, ready: 2, upToDate: 2, available: 2 });
  const oldHash = sec1.metadata.labels[HASH];
  await applyAll(kube, securityAgent('1.2.1'));
  const deleting = await eventually('the controller to delete one old security-agent pod', async () =>
    (await ownedPods(kube, security)).find((p) => p.metadata.deletionTimestamp));
  await confirmDeletion(kube, deleting);
  const replaced = targetNode(deleting)!;
  const kept = replaced === W1 ? W2 : W1;
  const newPod = await eventually('the new security-agent pod', async () => (await ownedPods(kube, security))
    .find((p) => targetNode(p) === replaced && !p.metadata.deletionTimestamp && p.metadata.labels[HASH] !== oldHash));
  const newHash = newPod.metadata.labels[HASH];
  await schedule(newPod);
  const pullError = await imagePullBackOff(newPod);
  state.security = { replaced, kept, newHash, oldHash };

  await settled(exercises, { desired: 2, current: 2, ready: 2, upToDate: 2, available: 2 });
  await settled(logging, { desired: 2, current: 2, ready: 1, upToDate: 2, available: 1 });
  await settled(monitoring, { desired: 2, current: 2, ready: 0, upToDate: 2, available: 0 });
  // the unscheduled pod counts as CURRENT: the controller reads its node from the pod's node affinity
  await settled(metrics, { desired: 2, current: 2, ready: 1, upToDate: 2, available: 1 });
  await settled(security, { desired: 2, current: 2, ready: 1, upToDate: 1, available: 1 });
  await settled(audit, { desired: 2, current: 2, ready: 2, upToDate: 2, available: 0 });
  await settled(team, { desired: 2, current: 0, ready: 0, upToDate: 0, available: 0 });
  await eventually('the DaemonSet controller\'s FailedCreate event for team-a/file-shipper', async () =>
    (await kube.list('/api/v1/namespaces/team-a/events')).find((e) => e.reason === 'FailedCreate'));

  const all = await liveEqualsSnapshot('-A');
  expect(all.code).toBe(1);
  expect(all.json.daemonSets.map((d: any) => `${d.namespace}/${d.name}`)).toEqual([
    'audit/audit-agent', 'exercises/nginx-agent', 'logging/log-collector', 'metrics/metrics-agent', 'monitoring/node-monitor',
    'security/security-agent', 'team-a/file-shipper',
  ]);
  const taint = [CP, 'excluded', 'Taint'] as [string, string, string];

  // excluded (nodeSelector and taint) and healthy: exercise A on two labelled workers
  const ex = expectDaemonSet(all, 'exercises', 'nginx-agent', {
    counts: { desired: 2, current: 2, ready: 2, upToDate: 2, available: 2 },
    nodes: [[CP, 'excluded', 'NodeSelector,Taint'], [W1, 'healthy', 'Available'], [W2, 'healthy', 'Available']],
    rollout: { updated: 2, wavesLeft: 0, blocked: false },
  });
  expect(ex[CP].message).toBe('nodeSelector agent=enabled is not met: the node has no label agent; label the node (kubectl label node kind-control-plane agent=enabled) or remove agent from nodeSelector; ' +
    'taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated; add a toleration {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule} (NoSchedule keeps new pods off the node; it does not evict a pod already running there)');
  expect(ex[W1].message).toBe(`pod ${ex1.metadata.name} is ready and available, revision 1 (${ex1.metadata.labels[HASH]})`);

  // creating: FailedMount of the hostPath of type Directory
  const log = expectDaemonSet(all, 'logging', 'log-collector', {
    counts: { desired: 2, current: 2, ready: 1, upToDate: 2, available: 1 },
    nodes: [taint, [W1, 'healthy', 'Available'], [W2, 'creating', 'FailedMount']],
    rollout: { updated: 1, wavesLeft: 0, blocked: false },
  });
  expect(log[W2].message).toMatch(new RegExp(`^pod ${log2.metadata.name} is stuck before its containers start: ${escape(mountError)} \\(×9, last \\S+\\) ` +
    escape('(volume journal is hostPath /var/log/journal of type Directory: it must already exist as that type on node kind-worker2; create it there, or keep the agent off nodes without it)') + '$'));

  // crash-loop (OOMKilled at the 64Mi limit) and not-ready (the readiness probe's 503)
  const mon = expectDaemonSet(all, 'monitoring', 'node-monitor', {
    counts: { desired: 2, current: 2, ready: 0, upToDate: 2, available: 0 },
    nodes: [taint, [W1, 'crash-loop', 'CrashLoopBackOff'], [W2, 'not-ready', 'Unhealthy']],
    rollout: { updated: 0, wavesLeft: 0, blocked: false },
  });
  const mon1Live = await fresh(mon1);
  expect(mon[W1].message).toBe(`pod ${mon1.metadata.name}: container agent restarted 7 times; last exit code 137 (OOMKilled); the container was killed for memory: its limit is 64Mi; ` +
    `raise resources.limits.memory or lower the agent's memory use; back-off 5m0s restarting failed container=agent pod=${podDesc(mon1Live)}`);
  expect(mon[W2].message).toMatch(new RegExp(`^pod ${mon2.metadata.name} runs but is not ready \\(container agent not ready\\): ${escape(probeError)} \\(×87, last \\S+\\)$`));

  // pending: the scheduler's NodePorts refusal
  const met = expectDaemonSet(all, 'metrics', 'metrics-agent', {
    counts: { desired: 2, current: 2, ready: 1, upToDate: 2, available: 1 },
    nodes: [taint, [W1, 'healthy', 'Available'], [W2, 'pending', 'Unschedulable']],
    rollout: { updated: 1, wavesLeft: 0, blocked: false },
  });
  expect(met[W2].message).toBe(`pod ${met2.metadata.name} is not scheduled: ${hostPortsUnschedulableMessage(NODE_COUNT)} (host port 9100/TCP is taken on the node by another pod)`);

  // image-pull on the node the rollout reached, outdated on the other, the rollout blocked by maxUnavailable 1
  const sec = expectDaemonSet(all, 'security', 'security-agent', {
    counts: { desired: 2, current: 2, ready: 1, upToDate: 1, available: 1 },
    nodes: [taint, ...[W1, W2].map((n): [string, string, string] => (n === replaced ? [n, 'image-pull', 'ImagePullBackOff'] : [n, 'outdated', 'OutdatedRevision']))],
    rollout: { updated: 0, wavesLeft: 2, blocked: true },
  });
  const image = `${REGISTRY}/security-agent:1.2.1`;
  expect(sec[replaced].message).toBe(`pod ${newPod.metadata.name}: container agent cannot pull image ${image}: Back-off pulling image "${image}": ErrImagePull: ${pullError}; ` +
    'check the image name and tag and the pull secret (imagePullSecrets) for the registry');
  const keptPod = replaced === W1 ? sec2 : sec1;
  expect(sec[kept].message).toBe(`pod ${keptPod.metadata.name} runs revision 1 (${oldHash}); the DaemonSet's current one is revision 2 (${newHash}). It waits: the rollout is blocked by ${replaced}.`);
  expect(all.text).toContain(`rollout: RollingUpdate (maxUnavailable 1, 1 unavailable now): 0 of 2 nodes updated and available, 2 waves left; blocked by ${replaced} (image-pull): no further pod is replaced until its pod becomes available or is fixed`);

  // not-available: Ready, but not for the hour of minReadySeconds
  const aud = expectDaemonSet(all, 'audit', 'audit-agent', {
    counts: { desired: 2, current: 2, ready: 2, upToDate: 2, available: 0 },
    nodes: [taint, [W1, 'not-available', 'MinReadySeconds'], [W2, 'not-available', 'MinReadySeconds']],
    rollout: { updated: 0, wavesLeft: 0, blocked: false },
  });
  const readySince = (await fresh(aud1)).status.conditions.find((c: any) => c.type === 'Ready').lastTransitionTime;
  expect(aud[W1].message).toBe(`pod ${aud1.metadata.name} is ready but not yet for minReadySeconds 3600; ready since ${readySince}, available from ${rfc3339(Date.parse(readySince) + 3600_000)}`);

  // missing: Pod Security admission refuses every pod; the controller's FailedCreate event
  const tm = expectDaemonSet(all, 'team-a', 'file-shipper', {
    counts: { desired: 2, current: 0, ready: 0, upToDate: 0, available: 0 },
    nodes: [taint, [W1, 'missing', 'FailedCreate'], [W2, 'missing', 'FailedCreate']],
    rollout: { updated: 0, wavesLeft: 0, blocked: false },
  });
  expect(tm[W1].message).toMatch(/^no pod on this node; the DaemonSet controller reports: (\(combined from similar events\): )?Error creating: pods "file-shipper-[a-z0-9]{5}" is forbidden: violates PodSecurity "baseline:latest": hostPath volumes \(volume "[a-z0-9-]+"\)( \(×\d+, last \S+\)| \(last \S+\))$/);

  // every column that falls short names its nodes, and .status agrees with the pods
  expect(all.text).not.toContain('.status disagrees');
  expect(all.text).toContain('AVAILABLE 0 < READY 2: kind-worker (not-available), kind-worker2 (not-available) (minReadySeconds 3600)');
  expect(all.text).toContain('CURRENT 0 < DESIRED 2: kind-worker (missing), kind-worker2 (missing)');

  // one namespace, and one DaemonSet by name
  const onlyExercises = await liveEqualsSnapshot('-n', 'exercises');
  expect(onlyExercises.code).toBe(0); // rolled out: healthy wherever it should run
  expect(onlyExercises.json.daemonSets.map((d: any) => d.name)).toEqual(['nginx-agent']);
  const onlyMonitor = await liveEqualsSnapshot('-n', 'monitoring', 'node-monitor');
  expect(onlyMonitor.code).toBe(1);
  expect(onlyMonitor.json.daemonSets[0].nodes).toEqual(all.json.daemonSets.find((d: any) => d.name === 'node-monitor').nodes);
});

test('the README\'s scenario for real: exercise B over exercise A, caught half way; then fixes bring exit 0', async () => {
  const exercises = ds(exerciseA);
  const logging = ds(logCollector());
  const security = ds(securityAgent('1.2.0'));
  const oldHash = (await podFor(exercises, W1)).metadata.labels[HASH];

  // `kubectl label node kind-control-plane agent=enabled` (nodes-all-labelled.yaml), then exercise B: the toleration
  // changes the template (revision 2); the control plane gets its pod at once, one worker's pod is replaced.
  await kube.mergePatch(`/api/v1/nodes/${CP}`, { metadata: { labels: { agent: 'enabled' } } });
  const live = new Map((await kube.list('/api/v1/nodes')).map((n) => [n.metadata.name, n]));
  for (const n of inventoryNodes(inventory('nodes-all-labelled'))) {
    expect({ name: n.metadata.name, labels: live.get(n.metadata.name)?.metadata.labels, taints: live.get(n.metadata.name)?.spec.taints })
      .toEqual({ name: n.metadata.name, labels: n.metadata.labels, taints: n.spec.taints });
  }
  await applyAll(kube, exerciseB);
  const cpPod = await schedule(await podFor(exercises, CP));
  const newHash = cpPod.metadata.labels[HASH];
  expect(newHash).not.toBe(oldHash);
  await healthy(cpPod);
  const deleting = await eventually('the controller to delete one worker\'s nginx-agent pod', async () =>
    (await ownedPods(kube, exercises)).find((p) => p.metadata.deletionTimestamp));
  await confirmDeletion(kube, deleting);
  const replaced = targetNode(deleting)!;
  const kept = replaced === W1 ? W2 : W1;
  const creating = await schedule(await podFor(exercises, replaced, newHash));
  await beingCreated(creating);
  await settled(exercises, { desired: 3, current: 3, ready: 2, upToDate: 2, available: 2 });

  // the README's snapshot: the control plane healthy on revision 2, one worker creating, the other outdated, 2 waves left
  const half = await liveEqualsSnapshot('-n', 'exercises');
  expect(half.code).toBe(1);
  const halfNodes = expectDaemonSet(half, 'exercises', 'nginx-agent', {
    counts: { desired: 3, current: 3, ready: 2, upToDate: 2, available: 2 },
    nodes: [[CP, 'healthy', 'Available'], ...[W1, W2].map((n): [string, string, string] => (n === replaced ? [n, 'creating', 'ContainerCreating'] : [n, 'outdated', 'OutdatedRevision']))],
    rollout: { updated: 1, wavesLeft: 2, blocked: false },
  });
  expect(halfNodes[replaced].message).toBe(`pod ${creating.metadata.name} is being created on the node (ContainerCreating)`);
  const keptPod = await podFor(exercises, kept);
  expect(halfNodes[kept].message).toBe(`pod ${keptPod.metadata.name} runs revision 1 (${oldHash}); the DaemonSet's current one is revision 2 (${newHash}). The RollingUpdate replaces it in turn.`);
  expect(half.text).toContain(`READY 2 < CURRENT 3: ${replaced} (creating)`);
  expect(half.text).toContain(`UP-TO-DATE 2 < DESIRED 3: ${kept} (outdated)`);
  expect(half.text).toContain('rollout: RollingUpdate (maxUnavailable 1, 1 unavailable now): 1 of 3 nodes updated and available, 2 waves left');

  // the new pod starts; the controller replaces the last old pod; all three healthy on revision 2: exit 0
  await healthy(creating);
  const last = await eventually('the controller to delete the last old nginx-agent pod', async () =>
    (await ownedPods(kube, exercises)).find((p) => p.metadata.deletionTimestamp));
  expect(targetNode(last)).toBe(kept);
  await confirmDeletion(kube, last);
  await healthy(await schedule(await podFor(exercises, kept, newHash)));
  await settled(exercises, { desired: 3, current: 3, ready: 3, upToDate: 3, available: 3 });
  const done = await liveEqualsSnapshot('-n', 'exercises');
  expect(done.code).toBe(0);
  expectDaemonSet(done, 'exercises', 'nginx-agent', {
    counts: { desired: 3, current: 3, ready: 3, upToDate: 3, available: 3 },
    nodes: [[CP, 'healthy', 'Available'], [W1, 'healthy', 'Available'], [W2, 'healthy', 'Available']],
    rollout: { updated: 3, wavesLeft: 0, blocked: false },
  });
  expect(done.text).toContain('exercises/nginx-agent: rolled out; healthy on all 3 nodes that should run it');

  // logging: the directory is made on kind-worker2; the kubelet's next mount attempt succeeds and the pod starts
  await healthy(await podFor(logging, W2));
  await settled(logging, { desired: 2, current: 2, ready: 2, upToDate: 2, available: 2 });
  const logs = await liveEqualsSnapshot('-n', 'logging', 'log-collector');
  expect(logs.code).toBe(0);
  expect(logs.json.daemonSets[0].nodes.filter((n: any) => n.name !== REAL_NODE).map((n: any) => n.state)).toEqual(['excluded', 'healthy', 'healthy']);

  // security: `kubectl rollout undo` in effect (1.2.0 applied again). The template matches revision 1, which the
  // controller renumbers 3; the pulling pod is replaced at once (an unavailable pod does not wait for the budget).
  const sec = state.security!;
  await applyAll(kube, securityAgent('1.2.0'));
  const stuck = await eventually('the controller to delete the 1.2.1 pod', async () =>
    (await ownedPods(kube, security)).find((p) => p.metadata.deletionTimestamp));
  expect(stuck.metadata.labels[HASH]).toBe(sec.newHash);
  await confirmDeletion(kube, stuck);
  await healthy(await schedule(await podFor(security, sec.replaced, sec.oldHash)));
  await settled(security, { desired: 2, current: 2, ready: 2, upToDate: 2, available: 2 });
  const revisions = await kube.list('/apis/apps/v1/namespaces/security/controllerrevisions');
  expect(revisions.map((r) => [r.metadata.labels[HASH], r.revision]).sort()).toEqual([[sec.newHash, 2], [sec.oldHash, 3]].sort());
  const undone = await liveEqualsSnapshot('-n', 'security');
  expect(undone.code).toBe(0);
  const secNodes = expectDaemonSet(undone, 'security', 'security-agent', {
    counts: { desired: 2, current: 2, ready: 2, upToDate: 2, available: 2 },
    nodes: [[CP, 'excluded', 'Taint'], [W1, 'healthy', 'Available'], [W2, 'healthy', 'Available']],
    rollout: { updated: 2, wavesLeft: 0, blocked: false },
  });
  expect(secNodes[sec.kept].message).toMatch(new RegExp(`^pod security-agent-[a-z0-9]{5} is ready and available, revision 3 \\(${sec.oldHash}\\)$`));

  // the other DaemonSets still fall short: the cluster as a whole exits 1
  const all = await liveEqualsSnapshot('-A');
  expect(all.code).toBe(1);
  expect(all.json.daemonSets.filter((d: any) => d.nodes.every((n: any) => ['healthy', 'excluded'].includes(n.state))).map((d: any) => d.namespace))
    .toEqual(['exercises', 'logging', 'security']);
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
