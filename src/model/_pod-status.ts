// Reading running pods, their events and nodes the way the kubelet, the scheduler and the DaemonSet controller
// write them. Internal: not exported from the package.
//
// Sources (kubernetes/kubernetes):
// - pkg/api/v1/pod/util.go: IsPodReady, IsPodAvailable (Ready for longer than minReadySeconds)
// - pkg/controller/daemon/daemon_controller.go: getNodesToDaemonPods, podByCreationTimestampAndPhase
// - pkg/controller/daemon/util/daemonset_util.go: GetTargetNodeName, IsPodUpdated
// - pkg/kubelet/images/image_manager.go, pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff),
//   pkg/kubelet/prober/prober.go, pkg/volume/util/operationexecutor/operation_executor.go: the waiting reasons,
//   messages and events read here.

/** the label the DaemonSet controller puts on every pod and ControllerRevision (`apps.DefaultDaemonSetUniqueLabelKey`). */
export const REVISION_HASH_LABEL = 'controller-revision-hash';
/** the pod label of the pre-hash update scheme (`extensions.DaemonSetTemplateGenerationKey`). */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** the DaemonSet annotation that label is compared with (`apps.DeprecatedTemplateGeneration`). */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export function arr(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

export function isObject(value: unknown): value is { [key: string]: any } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** a timestamp field as milliseconds, or undefined when absent or unparsable. */
export function time(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `namespace/name` of an object, `default` when it has no namespace (as the API server defaults it). */
export function namespaceOf(obj: any): string {
  const ns = str(obj?.metadata?.namespace);
  return ns === '' ? 'default' : ns;
}

/** whether `obj` names `owner` as its controller (`metav1.GetControllerOf`): by uid when both have one, else kind and name. */
export function isControlledBy(obj: any, owner: any, kind: string): boolean {
  if (namespaceOf(obj) !== namespaceOf(owner)) return false;
  const ownerUid = str(owner?.metadata?.uid);
  const ownerName = str(owner?.metadata?.name);
  return arr(obj?.metadata?.ownerReferences).some((ref: any) => {
    if (!isObject(ref) || ref.controller !== true || ref.kind !== kind) return false;
    const uid = str(ref.uid);
    return ownerUid !== '' && uid !== '' ? uid === ownerUid : str(ref.name) === ownerName;
  });
}

/**
 * `GetTargetNodeName`: the pod's `spec.nodeName`, or, for a pod not yet bound, the node of the
 * `matchFields metadata.name In [node]` term the controller writes into its required node affinity.
 */
export function targetNodeName(pod: any): string | undefined {
  const nodeName = str(pod?.spec?.nodeName);
  if (nodeName !== '') return nodeName;
  const terms = arr(pod?.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms);
  for (const term of terms) {
    for (const expr of arr(term?.matchFields)) {
      if (expr?.key === 'metadata.name' && expr?.operator === 'In') {
        const values = arr(expr.values);
        return values.length === 1 ? str(values[0]) : undefined;
      }
    }
  }
  return undefined;
}

export function isTerminal(pod: any): boolean {
  const phase = pod?.status?.phase;
  return phase === 'Failed' || phase === 'Succeeded';
}

export function isTerminating(pod: any): boolean {
  return str(pod?.metadata?.deletionTimestamp) !== '';
}

export function condition(obj: any, type: string): any | undefined {
  return arr(obj?.status?.conditions).find((c: any) => c?.type === type);
}

/** `IsPodReady`: the Ready condition is True. */
export function isPodReady(pod: any): boolean {
  return condition(pod, 'Ready')?.status === 'True';
}

/**
 * `IsPodAvailable(pod, minReadySeconds, now)`: ready, and either minReadySeconds is 0 or the Ready condition's
 * lastTransitionTime + minReadySeconds is strictly before now.
 */
export function isPodAvailable(pod: any, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = time(condition(pod, 'Ready')?.lastTransitionTime);
  return since !== undefined && since + minReadySeconds * 1000 < now;
}

/** `podByCreationTimestampAndPhase`: scheduled pods first, then the oldest, then by name. */
export function compareDaemonPods(a: any, b: any): number {
  const aScheduled = str(a?.spec?.nodeName) !== '';
  const bScheduled = str(b?.spec?.nodeName) !== '';
  if (aScheduled !== bScheduled) return aScheduled ? -1 : 1;
  const at = time(a?.metadata?.creationTimestamp) ?? 0;
  const bt = time(b?.metadata?.creationTimestamp) ?? 0;
  if (at !== bt) return at - bt;
  const an = str(a?.metadata?.name);
  const bn = str(b?.metadata?.name);
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/** one event, read from a `v1` Event or an `events.k8s.io/v1` Event. */
export interface EventView {
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  readonly count: number;
  /** when it was last seen, in ms (0 when the event carries no time). */
  readonly last: number;
  readonly source: string;
}

/** the events about one object, newest first. */
export function eventsFor(events: any[], kind: string, obj: any): EventView[] {
  const ns = namespaceOf(obj);
  const name = str(obj?.metadata?.name);
  const uid = str(obj?.metadata?.uid);
  const views: EventView[] = [];
  for (const e of events) {
    const ref = isObject(e?.involvedObject) ? e.involvedObject : e?.regarding;
    if (!isObject(ref) || ref.kind !== kind || str(ref.name) !== name) continue;
    if ((str(ref.namespace) || namespaceOf(e)) !== ns) continue;
    if (uid !== '' && str(ref.uid) !== '' && str(ref.uid) !== uid) continue; // an event about an earlier object of the same name
    views.push({
      type: str(e.type),
      reason: str(e.reason),
      message: str(e.message) || str(e.note),
      count: num(e.count) || num(e.deprecatedCount) || num(e.series?.count) || 1,
      last: eventTime(e) ?? 0,
      source: str(e.source?.component) || str(e.reportingController) || str(e.reportingComponent),
    });
  }
  return views.sort((a, b) => b.last - a.last);
}

function eventTime(e: any): number | undefined {
  return time(e?.series?.lastObservedTime) ?? time(e?.lastTimestamp) ?? time(e?.deprecatedLastTimestamp)
    ?? time(e?.eventTime) ?? time(e?.firstTimestamp) ?? time(e?.metadata?.creationTimestamp);
}

/** every timestamp an object carries, for the time a snapshot was taken. */
export function newestTimestamp(objects: any[]): number | undefined {
  let newest: number | undefined;
  const visit = (t: number | undefined) => {
    if (t !== undefined && (newest === undefined || t > newest)) newest = t;
  };
  for (const o of objects) {
    visit(time(o?.metadata?.creationTimestamp));
    for (const m of arr(o?.metadata?.managedFields)) visit(time(m?.time));
    for (const c of arr(o?.status?.conditions)) {
      visit(time(c?.lastTransitionTime));
      visit(time(c?.lastHeartbeatTime));
      visit(time(c?.lastProbeTime));
    }
    for (const s of [...arr(o?.status?.initContainerStatuses), ...arr(o?.status?.containerStatuses)]) {
      for (const state of [s?.state, s?.lastState]) {
        visit(time(state?.running?.startedAt));
        visit(time(state?.terminated?.startedAt));
        visit(time(state?.terminated?.finishedAt));
      }
    }
    visit(eventTime(o));
  }
  return newest;
}

/** "(×12, last 2025-06-02T09:01:00Z)" for a repeated event; "" for a single one without time. */
export function eventSuffix(e: EventView): string {
  const parts: string[] = [];
  if (e.count > 1) parts.push(`×${e.count}`);
  if (e.last > 0) parts.push(`last ${new Date(e.last).toISOString().replace('.000Z', 'Z')}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** container waiting reasons of the image stage (the errors in pkg/kubelet/images/types.go). */
export const IMAGE_PULL_REASONS = new Set([
  'ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull', 'RegistryUnavailable', 'ImageInspectError',
]);

/** container waiting reasons of the create stage: the container cannot be created or started (pkg/kubelet/container/sync_result.go). */
export const CREATE_ERROR_REASONS = new Set([
  'CreateContainerConfigError', 'CreateContainerError', 'RunContainerError', 'PreStartHookError', 'PostStartHookError',
]);

/** pod events that keep a scheduled pod from getting its sandbox and volumes (kubelet and attach/detach controller). */
export const CREATE_EVENT_REASONS = new Set([
  'FailedMount', 'FailedAttachVolume', 'FailedMapVolume', 'FailedCreatePodSandBox', 'FailedCreatePodContainer',
  'FailedPodSandBoxStatus', 'NetworkNotReady',
]);

export interface ContainerView {
  readonly name: string;
  readonly init: boolean;
  readonly image: string;
  readonly status: any;
  readonly spec: any;
}

/** each container with its spec and status, init containers first. */
export function containers(pod: any): ContainerView[] {
  const specs = new Map<string, any>();
  for (const c of [...arr(pod?.spec?.initContainers), ...arr(pod?.spec?.containers)]) specs.set(str(c?.name), c);
  const views: ContainerView[] = [];
  for (const [list, init] of [[arr(pod?.status?.initContainerStatuses), true], [arr(pod?.status?.containerStatuses), false]] as const) {
    for (const s of list) {
      const name = str(s?.name);
      const spec = specs.get(name) ?? {};
      views.push({ name, init, image: str(spec.image) || str(s?.image), status: s, spec });
    }
  }
  return views;
}

export function containerLabel(c: ContainerView): string {
  return `${c.init ? 'init container' : 'container'} ${c.name}`;
}

/** "exit code 137 (OOMKilled)" for a terminated state. */
export function describeTermination(terminated: any): string {
  const parts = [`exit code ${num(terminated?.exitCode)}`];
  const reason = str(terminated?.reason);
  if (reason !== '') parts[0] += ` (${reason})`;
  const message = str(terminated?.message).trim();
  if (message !== '') parts.push(`message: ${message.split('\n')[0]}`);
  return parts.join(', ');
}
