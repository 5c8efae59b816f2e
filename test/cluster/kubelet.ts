// The kubelet's and the scheduler's parts, played through the API for the `status` end-to-end test: what each writes
// into a pod's status and which events it records, in the shape and wording Kubernetes v1.37.2 (the version the
// control plane is built from) writes them. The sources, in k8s.io/kubernetes@v1.37.2:
//
// - binding: pkg/registry/core/pod/storage/storage.go (the binding subresource sets spec.nodeName and the
//   PodScheduled=True condition)
// - scheduler: pkg/scheduler/schedule_one.go (handleSchedulingFailure: the PodScheduled=False condition with reason
//   Unschedulable and the FitError text, and the FailedScheduling event, action Scheduling, recorded through
//   events.k8s.io/v1 by "default-scheduler"); pkg/scheduler/framework/types.go (FitError.Error: "0/%v nodes are
//   available: <sorted histogram>." + " " + the PostFilter message); schedule_one.go ("node(s) didn't satisfy
//   plugin(s) [NodeAffinity]" for the nodes the NodeAffinity PreFilter leaves out: a daemon pod names its node in
//   matchFields); plugins/nodeports/node_ports.go ("node(s) didn't have free ports for the requested pod ports");
//   plugins/defaultpreemption/default_preemption.go ("preemption: " + the preemption FitError, "No preemption victims
//   found for incoming pod"); framework/preemption/preemption.go ("Preemption is not helpful for scheduling")
// - kubelet status: pkg/kubelet/status/generate.go (Ready/ContainersReady "containers with unready status: [%s]",
//   reason ContainersNotReady; PodReadyToStartContainers), pkg/kubelet/util/format/pod.go ("name_namespace(uid)")
// - kubelet events: client-go's legacy recorder (core v1 Events named "<object>.<unix nanos in hex>", source
//   kubelet/<node>, involvedObject.fieldPath "spec.containers{<name>}"); pkg/kubelet/events/event.go (the reasons);
//   pkg/kubelet/images/image_manager.go ("Pulling image %q", "Failed to pull image %q: %v", "Back-off pulling image
//   %q" and, in the waiting message, ": <previous pull error>" after it); pkg/kubelet/kuberuntime/kuberuntime_container.go
//   ("Error: %v" with ErrImagePull/ImagePullBackOff); pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff
//   ("back-off %s restarting failed container=%s pod=%s", event "Back-off restarting failed container %s in pod %s");
//   pkg/kubelet/prober/prober.go ("%s probe failed: %s", reason Unhealthy), pkg/probe/http/http.go ("HTTP probe failed
//   with statuscode: %d"); pkg/volume/util/operationexecutor/operation_executor.go (`MountVolume.SetUp failed for
//   volume %q : <err>`), pkg/volume/hostpath/host_path.go and pkg/volume/util/hostutil/hostutil.go (a missing path
//   of type Directory: `hostPath type check failed, %s is not a directory, unable to determine its type: path %q
//   does not exist`)
import { Kube, ok } from './kube';

/** a metav1.Time: RFC 3339 in seconds. */
export function rfc3339(ms = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** a metav1.MicroTime: RFC 3339 in microseconds (events.k8s.io eventTime). */
export function microTime(ms = Date.now()): string {
  return new Date(ms).toISOString().replace(/Z$/, '000Z');
}

export function podPath(pod: any): string {
  return `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`;
}

/** `format.Pod`: how the kubelet names a pod in messages. */
export function podDesc(pod: any): string {
  return `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
}

/** the host ports a pod asks for, as `port/protocol`. */
export function hostPorts(pod: any): string[] {
  return (pod.spec?.containers ?? []).flatMap((c: any) => c.ports ?? [])
    .filter((p: any) => (p.hostPort ?? 0) > 0).map((p: any) => `${p.hostPort}/${p.protocol ?? 'TCP'}`);
}

// ---------- the scheduler ----------

/** binds the pod to its node, as the scheduler's DefaultBinder does. */
export async function bind(kube: Kube, pod: any, nodeName: string): Promise<void> {
  ok(await kube.request('POST', `${podPath(pod)}/binding`, {
    apiVersion: 'v1', kind: 'Binding', metadata: { name: pod.metadata.name }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
  }), `bind ${pod.metadata.name} to ${nodeName}`);
}

/**
 * The scheduler's answer for a daemon pod that does not fit its node because of a host port another pod on that node
 * holds: the NodeAffinity PreFilter leaves every other node out, NodePorts rejects the one left, preemption finds no
 * victim there (the holder's priority is not lower) and is not helpful elsewhere.
 */
export function hostPortsUnschedulableMessage(nodeCount: number): string {
  const others = nodeCount - 1;
  return `0/${nodeCount} nodes are available: 1 node(s) didn't have free ports for the requested pod ports, ${others} node(s) didn't satisfy plugin(s) [NodeAffinity]. ` +
    `preemption: 0/${nodeCount} nodes are available: 1 No preemption victims found for incoming pod, ${others} Preemption is not helpful for scheduling.`;
}

/** `handleSchedulingFailure`: the PodScheduled=False condition on the pod and a FailedScheduling event through events.k8s.io/v1. */
export async function reportUnschedulable(kube: Kube, pod: any, message: string): Promise<void> {
  const now = Date.now();
  await strategicStatusPatch(kube, pod, {
    conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastProbeTime: null, lastTransitionTime: rfc3339(now), ...observed(pod) }],
  });
  ok(await kube.request('POST', `/apis/events.k8s.io/v1/namespaces/${pod.metadata.namespace}/events`, {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: eventName(pod, now), namespace: pod.metadata.namespace },
    eventTime: microTime(now),
    reportingController: 'default-scheduler',
    reportingInstance: 'default-scheduler-kind-control-plane',
    action: 'Scheduling',
    reason: 'FailedScheduling',
    regarding: objectReference(pod),
    note: message,
    type: 'Warning',
  }), `FailedScheduling event for ${pod.metadata.name}`);
}

// ---------- the kubelet ----------

export interface ContainerReport {
  /** the container's `state` (running, waiting or terminated). */
  readonly state: any;
  readonly lastState?: any;
  readonly ready: boolean;
  readonly started?: boolean;
  readonly restartCount?: number;
  /** set once the image is on the node. */
  readonly imageID?: string;
  readonly containerID?: string;
}

export interface PodReport {
  readonly phase: 'Pending' | 'Running';
  /** whether the sandbox (and so the pod IP) exists: PodReadyToStartContainers. */
  readonly sandbox: boolean;
  /** per container name; containers not named are reported waiting in ContainerCreating. */
  readonly containers: { [name: string]: ContainerReport };
}

/**
 * The status the kubelet writes for a pod on `node` (a strategic merge patch of the status subresource, as the
 * kubelet's status manager sends it): phase, conditions derived from the containers as generate.go derives them,
 * host and pod IPs, container statuses.
 */
export async function reportPodStatus(kube: Kube, pod: any, node: any, report: PodReport): Promise<void> {
  const now = rfc3339();
  const names: string[] = pod.spec.containers.map((c: any) => c.name);
  const statuses = pod.spec.containers.map((c: any) => {
    const r = report.containers[c.name] ?? { state: { waiting: { reason: 'ContainerCreating' } }, ready: false };
    return {
      name: c.name,
      image: c.image,
      imageID: r.imageID ?? '',
      ...(r.containerID ? { containerID: r.containerID } : {}),
      ready: r.ready,
      started: r.started ?? false,
      restartCount: r.restartCount ?? 0,
      state: r.state,
      lastState: r.lastState ?? {},
    };
  });
  const unready = names.filter((n) => !(report.containers[n]?.ready ?? false));
  const previous = (type: string) => (pod.status?.conditions ?? []).find((c: any) => c.type === type);
  const cond = (type: string, status: boolean, reason?: string, message?: string) => {
    const before = previous(type);
    const value = status ? 'True' : 'False';
    return {
      type,
      status: value,
      ...(reason ? { reason } : {}),
      ...(message ? { message } : {}),
      lastProbeTime: null,
      // the kubelet keeps the transition time while the status stays
      lastTransitionTime: before?.status === value ? before.lastTransitionTime : now,
      ...observed(pod),
    };
  };
  const notReady = `containers with unready status: [${unready.join(' ')}]`;
  const hostIP = (node.status?.addresses ?? []).find((a: any) => a.type === 'InternalIP')?.address;
  const podIP = report.sandbox ? podAddress(node) : undefined;
  await strategicStatusPatch(kube, pod, {
    observedGeneration: pod.metadata.generation,
    phase: report.phase,
    conditions: [
      cond('PodReadyToStartContainers', report.sandbox),
      cond('Initialized', true),
      unready.length === 0 ? cond('Ready', true) : cond('Ready', false, 'ContainersNotReady', notReady),
      unready.length === 0 ? cond('ContainersReady', true) : cond('ContainersReady', false, 'ContainersNotReady', notReady),
    ],
    ...(hostIP ? { hostIP, hostIPs: [{ ip: hostIP }] } : {}),
    ...(podIP ? { podIP, podIPs: [{ ip: podIP }] } : {}),
    startTime: pod.status?.startTime ?? now,
    containerStatuses: statuses,
  });
}

/** a container that runs, ready or not (its readiness probe failing). */
export function running(ready: boolean, since = rfc3339()): ContainerReport {
  return { state: { running: { startedAt: since } }, ready, started: true, imageID: 'sha256:3b5f0c2d9e8a7f6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b', containerID: containerId() };
}

/** the kubelet's events about a pod, as client-go's legacy recorder writes them (core v1). */
export interface KubeletEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
  /** how many times the recorder saw it (it aggregates repeats into one Event). */
  readonly count?: number;
  /** the container it is about: involvedObject.fieldPath spec.containers{name}. */
  readonly container?: string;
}

export async function recordKubeletEvent(kube: Kube, pod: any, nodeName: string, e: KubeletEvent): Promise<void> {
  const now = Date.now();
  const first = Date.parse(pod.metadata.creationTimestamp);
  ok(await kube.create({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: eventName(pod, now), namespace: pod.metadata.namespace },
    involvedObject: { ...objectReference(pod), ...(e.container ? { fieldPath: `spec.containers{${e.container}}` } : {}) },
    reason: e.reason,
    message: e.message,
    source: { component: 'kubelet', host: nodeName },
    firstTimestamp: rfc3339(Math.min(first, now)),
    lastTimestamp: rfc3339(now),
    count: e.count ?? 1,
    type: e.type,
    eventTime: null,
    reportingComponent: 'kubelet',
    reportingInstance: nodeName,
  }), `kubelet event ${e.reason} for ${pod.metadata.name}`);
}

/** confirms a graceful deletion (the kubelet does, once the containers stopped). */
export async function confirmDeletion(kube: Kube, pod: any): Promise<void> {
  await kube.delete(podPath(pod), { gracePeriodSeconds: 0 });
}

// ---------- plumbing ----------

async function strategicStatusPatch(kube: Kube, pod: any, status: any): Promise<void> {
  ok(await kube.request('PATCH', `${podPath(pod)}/status`, { status }, { contentType: 'application/strategic-merge-patch+json' }),
    `status of ${pod.metadata.name}`);
}

function observed(pod: any): { observedGeneration?: number } {
  return pod.metadata.generation !== undefined ? { observedGeneration: pod.metadata.generation } : {};
}

function objectReference(pod: any): any {
  return {
    apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid, resourceVersion: pod.metadata.resourceVersion,
  };
}

let eventSeq = 0;

/** `<object>.<unix nanoseconds in hex>`, as both recorders name events (a counter keeps same-millisecond names apart). */
function eventName(pod: any, ms: number): string {
  eventSeq++;
  return `${pod.metadata.name}.${(BigInt(ms) * 1_000_000n + BigInt(eventSeq)).toString(16)}`;
}

/** an address in the node's pod CIDR (10.244.N.0/24 in the kind inventory), one per pod. */
let podSeq = 1;
function podAddress(node: any): string {
  const cidr: string = node.spec?.podCIDR ?? '10.244.0.0/24';
  podSeq++;
  return cidr.replace(/\.0\/\d+$/, `.${podSeq}`);
}

let containerSeq = 0;
function containerId(): string {
  containerSeq++;
  return `containerd://${containerSeq.toString(16).padStart(8, '0')}${'5e4d3c2b1a0f9e8d7c6b5a4938271605f4e3d2c1b0a9f8e7d6c5b4a3'.slice(0, 56)}`;
}
