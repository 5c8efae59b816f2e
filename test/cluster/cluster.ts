// What the integration tests do to the local control plane: reset it, create Nodes from an inventory, apply
// manifests, read what the DaemonSet controller did, and play the parts a real cluster's kubelet and scheduler play
// (binding a pod to its node, reporting it Ready, finishing a graceful deletion), through the same API calls.
import * as fs from 'fs';
import * as path from 'path';
import { Kube, ROOT, eventually, ok, readManifests } from './kube';
import { PodSecurityLevel } from '../../src';

/** the real node cluster:up started (cluster/node.js): its Node's name, taint, label and scheduler profile. */
export interface RealNode {
  readonly name: string;
  readonly taint: { key: string; value: string; effect: string };
  readonly label: string;
  readonly schedulerName: string;
  readonly images: { [name: string]: string };
  readonly kubeletRoot: string;
}

/** the real node of .cluster/state.json; undefined on a control plane without one. */
export function realNode(): RealNode | undefined {
  const file = path.join(ROOT, '.cluster', 'state.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).node : undefined;
}

/** whether a pod is meant for the real node (bound to it, or the DaemonSet controller's choice of it). */
export function isForRealNode(pod: any): boolean {
  const real = realNode();
  return real !== undefined && targetNode(pod) === real.name;
}

/** namespaces the API server makes itself; everything else belongs to a test. */
const SYSTEM_NAMESPACES = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

/**
 * Deletes every Node (but the real node, whose kubelet would not register it again) and every namespace a test
 * made, and waits until they are gone. DaemonSets go first and their pods are then deleted at once (grace period 0,
 * as a kubelet confirms a deletion; the real node's kubelet then stops what it ran of them): the namespace controller
 * would otherwise wait out each bound pod's termination grace period.
 */
export async function resetCluster(kube: Kube): Promise<void> {
  const isTest = (ns: string) => !SYSTEM_NAMESPACES.has(ns);
  const namespaces = (await kube.list('/api/v1/namespaces')).map((n) => n.metadata.name).filter(isTest);
  for (const ds of await kube.list('/apis/apps/v1/daemonsets')) {
    if (isTest(ds.metadata.namespace) || ds.metadata.namespace === 'default') {
      await kube.delete(`/apis/apps/v1/namespaces/${ds.metadata.namespace}/daemonsets/${ds.metadata.name}`);
    }
  }
  await eventually('test pods to be gone', async () => {
    const pods = (await kube.list('/api/v1/pods')).filter((p) => isTest(p.metadata.namespace) || p.metadata.namespace === 'default');
    for (const pod of pods) await kube.delete(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`, { gracePeriodSeconds: 0 });
    return pods.length === 0 ? true : undefined;
  }, { timeoutMs: 60_000, intervalMs: 250 });
  for (const n of namespaces) await kube.delete(`/api/v1/namespaces/${n}`);
  const apiOnly = (n: any) => n.metadata.name !== realNode()?.name;
  for (const n of (await kube.list('/api/v1/nodes')).filter(apiOnly)) await kube.delete(`/api/v1/nodes/${n.metadata.name}`);
  await eventually('test namespaces and nodes to be gone', async () => {
    const left = (await kube.list('/api/v1/namespaces')).filter((n) => isTest(n.metadata.name));
    const nodes = (await kube.list('/api/v1/nodes')).filter(apiOnly);
    return left.length === 0 && nodes.length === 0 ? true : undefined;
  }, { timeoutMs: 90_000, intervalMs: 250 });
}

/** the Nodes of a `kubectl get nodes -o yaml` inventory, as objects to create (server-set metadata left out). */
/**
 * For a test file that only asks the API server (dry runs): a reset cluster with one namespace of its own before its
 * tests, reset again after them.
 */
export function withNamespace(kube: Kube, namespace: string): void {
  beforeAll(async () => {
    await resetCluster(kube);
    await applyAll(kube, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }]);
  });
  afterAll(() => resetCluster(kube));
}

/** the API server's answer to a dry-run create with strict field validation: its status and the causes it names. */
export async function dryRunCreate(kube: Kube, manifest: any): Promise<{ status: number; causes: { field: string; message: string }[] }> {
  const r = await kube.create(manifest, { dryRun: true });
  return { status: r.status, causes: (r.body?.details?.causes ?? []).map((c: any) => ({ field: c.field, message: c.message })) };
}

/** a DaemonSet `agent` in the namespace around a pod spec, selecting its pods by `app: agent`. */
export function agentDaemonSet(namespace: string, podSpec: any): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: podSpec } },
  };
}

export function inventoryNodes(file: string): any[] {
  const [list] = readManifests(file);
  return list.items.map((item: any) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: item.metadata.name, labels: item.metadata.labels ?? {}, annotations: item.metadata.annotations ?? {} },
    spec: item.spec ?? {},
    status: item.status ?? {},
  }));
}

/**
 * The inventory `file` with the live real node added, as `kubectl get nodes -o yaml` would list them all, written to
 * `out`: what coverage must predict from when the real node is in the cluster (a DaemonSet that tolerates every
 * taint runs there too). Returns `out`, or `file` itself on a control plane without a real node.
 */
export async function inventoryWithRealNode(kube: Kube, file: string, out: string): Promise<string> {
  const real = realNode();
  if (!real) return file;
  const [list] = readManifests(file);
  const live = await kube.get(`/api/v1/nodes/${real.name}`);
  fs.writeFileSync(out, JSON.stringify({ ...list, items: [...list.items, { apiVersion: 'v1', kind: 'Node', ...live }] }));
  return out;
}

/**
 * Creates Nodes, writes their status through the status subresource as their kubelet would (Ready now), then does
 * what the node lifecycle controller does for a Ready node: removes the `node.kubernetes.io/not-ready:NoSchedule`
 * taint that the API server's TaintNodesByCondition admission plugin puts on every new Node. (That controller is not
 * run: with no kubelet renewing leases it would soon taint every node unreachable.) The Nodes then carry exactly the
 * taints of the inventory.
 */
export async function createNodes(kube: Kube, nodes: any[]): Promise<void> {
  for (const n of nodes) {
    const { status, ...rest } = n;
    const created = ok(await kube.create(rest), `create node ${n.metadata.name}`).body;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const conditions = (status?.conditions ?? [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }])
      .map((c: any) => ({ ...c, lastHeartbeatTime: now, lastTransitionTime: now }));
    await kube.mergePatch(`/api/v1/nodes/${n.metadata.name}/status`, { status: { ...status, conditions } });
    const taints = n.spec?.taints ?? [];
    if (JSON.stringify(created.spec.taints ?? []) !== JSON.stringify(taints)) {
      expect(created.spec.taints).toEqual([...taints, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
      await kube.mergePatch(`/api/v1/nodes/${n.metadata.name}`, { spec: { taints: taints.length > 0 ? taints : null } });
    }
  }
}

/** a minimal Node: Ready, Linux, with the given labels and taints. */
export function node(name: string, labels: { [k: string]: string } = {}, taints: any[] = []): any {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', ...labels } },
    spec: { taints },
    status: {
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
    },
  };
}

const ORDER = ['Namespace', 'CustomResourceDefinition', 'ServiceAccount', 'ClusterRole', 'Role', 'ClusterRoleBinding', 'RoleBinding', 'ConfigMap', 'Secret'];

/** Namespaces first, then what pods refer to, then the rest in file order (kubectl's apply ordering, roughly). */
export function dependencyOrder(objects: any[]): any[] {
  const rank = (o: any) => {
    const i = ORDER.indexOf(o.kind);
    return i === -1 ? ORDER.length : i;
  };
  return objects.map((o, i) => ({ o, i })).sort((a, b) => rank(a.o) - rank(b.o) || a.i - b.i).map((x) => x.o);
}

/**
 * applies objects (server-side, strict), in dependency order or, with `inFileOrder`, in the order given, as
 * `kubectl apply -f` does; throws at the first refusal; returns every response.
 */
export async function applyAll(kube: Kube, objects: any[], inFileOrder = false): Promise<{ obj: any; status: number; warnings: string[] }[]> {
  const out = [];
  for (const obj of inFileOrder ? objects : dependencyOrder(objects)) {
    const r = await kube.apply(obj);
    ok(r, `apply ${obj.kind} ${obj.metadata.namespace ?? ''}/${obj.metadata.name}`);
    out.push({ obj, status: r.status, warnings: r.warnings });
  }
  return out;
}

export function dsPath(ds: any): string {
  return `/apis/apps/v1/namespaces/${ds.metadata.namespace}/daemonsets/${ds.metadata.name}`;
}

/** the node a daemon pod is for: spec.nodeName once bound, else the controller's `matchFields metadata.name` affinity. */
export function targetNode(pod: any): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    for (const f of term.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
    }
  }
  return undefined;
}

/** the pods the live DaemonSet owns (by owner uid), including ones being deleted. */
export async function ownedPods(kube: Kube, ds: any): Promise<any[]> {
  const live = await kube.get(dsPath(ds));
  const selector = Object.entries(live.spec.selector.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
  const pods = await kube.list(`/api/v1/namespaces/${ds.metadata.namespace}/pods`, { labelSelector: selector });
  return pods.filter((p) => (p.metadata.ownerReferences ?? []).some((r: any) => r.uid === live.metadata.uid && r.controller));
}

/**
 * The scheduler's and the kubelet's part for every pod of the DaemonSet on an API-only Node: binds a pending pod to
 * the node the controller chose for it (the scheduler would, after its own filters, which this does not run), and
 * confirms a graceful deletion (the kubelet does once the containers stopped). Returns how many API calls it made.
 * Pods for the real node are left to its scheduler and kubelet: one that does not ask for the real node's scheduler
 * stays Pending there (a DaemonSet that tolerates every taint gets one), so this never makes that kubelet run it.
 *
 * Binding matters beyond realism: the controller finds a node's daemon pods by `spec.nodeName`, so it only notices
 * that a node stopped matching (a label removed) for pods bound to that node.
 */
export async function actAsNodes(kube: Kube, ds: any): Promise<number> {
  let actions = 0;
  for (const pod of await ownedPods(kube, ds)) {
    if (isForRealNode(pod)) continue;
    const p = `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`;
    if (pod.metadata.deletionTimestamp) {
      await kube.delete(p, { gracePeriodSeconds: 0 });
      actions++;
    } else if (!pod.spec.nodeName) {
      const target = targetNode(pod);
      ok(await kube.request('POST', `${p}/binding`, {
        apiVersion: 'v1', kind: 'Binding', metadata: { name: pod.metadata.name }, target: { apiVersion: 'v1', kind: 'Node', name: target },
      }), `bind ${pod.metadata.name} to ${target}`);
      actions++;
    }
  }
  return actions;
}

/** whether the pod's Ready condition is True. */
export const isReady = (p: any): boolean => (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');

/** the kubelet of an API-only Node reports the pod's containers started and Ready. */
export async function markReady(kube: Kube, pod: any): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const cond = (type: string) => ({ type, status: 'True', lastTransitionTime: now });
  await kube.mergePatch(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`, {
    status: {
      phase: 'Running',
      startTime: now,
      conditions: [cond('PodScheduled'), cond('Initialized'), cond('ContainersReady'), cond('Ready')],
      containerStatuses: pod.spec.containers.map((c: any) => ({
        name: c.name, image: c.image, imageID: '', ready: true, started: true, restartCount: 0, state: { running: { startedAt: now } },
      })),
    },
  });
}

export interface Observed {
  readonly generation: number;
  readonly observedGeneration: number;
  readonly desired: number;
  readonly podNodes: string[];
}

/** the controller's DESIRED for a DaemonSet and the nodes its (live, not deleting) pods are for, sorted. */
export async function observe(kube: Kube, ds: any): Promise<Observed> {
  const live = await kube.get(dsPath(ds));
  const pods = (await ownedPods(kube, ds)).filter((p) => !p.metadata.deletionTimestamp);
  return {
    generation: live.metadata.generation,
    observedGeneration: live.status?.observedGeneration ?? 0,
    desired: live.status?.desiredNumberScheduled ?? 0,
    podNodes: pods.map(targetNode).map((n) => n ?? '(none)').sort(),
  };
}

/**
 * Waits until the controller has seen the DaemonSet's current generation and its DESIRED and pods' nodes equal the
 * expectation, then checks that they still do a second later (a passing glance at a moving state is not enough).
 * On timeout the error shows what the controller last had.
 */
export async function expectSettled(kube: Kube, ds: any, expected: { desired: number; podNodes: string[] }, timeoutMs = 30_000): Promise<Observed> {
  let last: Observed | undefined;
  const want = { desired: expected.desired, podNodes: [...expected.podNodes].sort() };
  const matches = (o: Observed) => o.observedGeneration >= o.generation && o.desired === want.desired &&
    JSON.stringify(o.podNodes) === JSON.stringify(want.podNodes);
  try {
    await eventually(`${ds.metadata.namespace}/${ds.metadata.name} to settle at ${JSON.stringify(want)}`, async () => {
      await actAsNodes(kube, ds);
      last = await observe(kube, ds);
      return matches(last) ? true : undefined;
    }, { timeoutMs, last: () => last });
  } catch (e) {
    // the test's assertion shows the difference
    expect({ desired: last?.desired, podNodes: last?.podNodes }).toEqual(want);
    throw e;
  }
  await new Promise((r) => setTimeout(r, 1000));
  await actAsNodes(kube, ds);
  const again = await observe(kube, ds);
  expect({ desired: again.desired, podNodes: again.podNodes }).toEqual(want);
  return again;
}

const STRICTER: { [level: string]: PodSecurityLevel | undefined } = {
  [PodSecurityLevel.PRIVILEGED]: PodSecurityLevel.BASELINE,
  [PodSecurityLevel.BASELINE]: PodSecurityLevel.RESTRICTED,
  [PodSecurityLevel.RESTRICTED]: undefined,
};

/** the next stricter Pod Security level, or undefined for restricted. */
export function stricter(level: PodSecurityLevel): PodSecurityLevel | undefined {
  return STRICTER[level];
}

/**
 * Makes (once) a namespace that enforces `level` at `version` (e.g. `v1.28`), with nothing else set, so that the only
 * admission message is the enforce decision. Returns its name.
 */
export async function enforcingNamespace(kube: Kube, level: PodSecurityLevel, version: string): Promise<string> {
  const name = `psa-${level}-${version.replace(/\./g, '-')}`;
  const r = await kube.apply({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'pod-security.kubernetes.io/enforce': level, 'pod-security.kubernetes.io/enforce-version': version } },
  });
  ok(r, `namespace ${name}`);
  return name;
}

/** makes sure a ServiceAccount exists (the ServiceAccount admission plugin refuses pods whose account is missing). */
export async function ensureServiceAccount(kube: Kube, namespace: string, name: string): Promise<void> {
  if (name === 'default') {
    await eventually(`${namespace}/default ServiceAccount`, async () => (await kube.request('GET', `/api/v1/namespaces/${namespace}/serviceaccounts/default`)).status === 200 ? true : undefined);
    return;
  }
  ok(await kube.apply({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } }), `serviceaccount ${namespace}/${name}`);
}

/** a Pod built from a workload's pod template, as its controller would create it (name and namespace set). */
export function podFromTemplate(template: any, name: string, namespace: string): any {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: template.metadata?.labels, annotations: template.metadata?.annotations },
    spec: template.spec,
  };
}

/** dry-run creation of a pod: runs every admission plugin (Pod Security among them) and validation, stores nothing. */
export async function dryRunPod(kube: Kube, pod: any): Promise<{ status: number; message: string; warnings: string[]; stored?: any }> {
  await ensureServiceAccount(kube, pod.metadata.namespace, pod.spec.serviceAccountName ?? 'default');
  const r = await kube.create(pod, { dryRun: true });
  const failed = r.status >= 300;
  return { status: r.status, message: failed ? String(r.body?.message ?? JSON.stringify(r.body)) : '', warnings: r.warnings, stored: failed ? undefined : r.body };
}

/** the API server's deprecation warning for each AppArmor beta annotation (1.30+), at `fieldPath` (e.g. `metadata.annotations`). */
export function appArmorAnnotationWarnings(annotations: { [k: string]: string } | undefined, fieldPath: string): string[] {
  return Object.keys(annotations ?? {}).filter((k) => k.startsWith('container.apparmor.security.beta.kubernetes.io/'))
    .map((k) => `${fieldPath}[${k}]: deprecated since v1.30; use the "appArmorProfile" field instead`);
}

export interface AdmissionDecision {
  /** the strictest level admitted; undefined when even privileged refuses the pod. */
  readonly level: PodSecurityLevel | undefined;
  /** the refusal message at each stricter level. */
  readonly refusals: { [level: string]: string };
}

/**
 * The strictest level Pod Security admission admits the pod at, at `version`: the pod is created (dry run) in one
 * namespace per level, restricted first. Returns the level and, for each stricter level, the refusal message.
 */
export async function admittedLevel(kube: Kube, pod: any, version: string): Promise<AdmissionDecision> {
  const refusals: { [level: string]: string } = {};
  for (const level of [PodSecurityLevel.RESTRICTED, PodSecurityLevel.BASELINE, PodSecurityLevel.PRIVILEGED]) {
    const namespace = await enforcingNamespace(kube, level, version);
    const r = await dryRunPod(kube, { ...pod, metadata: { ...pod.metadata, namespace } });
    if (r.status === 201) return { level, refusals };
    refusals[level] = r.message;
  }
  return { level: undefined, refusals };
}

/** pod-security-admission's refusal, as it words it (`violates PodSecurity "<level>:<version>": <reason> (<detail>), ...`). */
export function psaRefusal(podName: string, level: string, version: string, messages: string[]): string {
  return `pods "${podName}" is forbidden: violates PodSecurity "${level}:${version}": ${messages.join(', ')}`;
}
