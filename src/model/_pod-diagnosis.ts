/**
 * Internal: why one DaemonSet pod is not (yet) healthy, from its status and events, worded with the kubelet's and the
 * scheduler's own messages. `DaemonSetStatus` reads it for every node that has a pod.
 */
import {
  arr, condition, ContainerView, containerLabel, containers, CREATE_ERROR_REASONS, CREATE_EVENT_REASONS, describeTermination,
  eventsFor, eventSuffix, EventView, IMAGE_PULL_REASONS, isPodReady, num, str, time,
} from './_pod-status';
import { DaemonSetNodeState } from './daemon-set-status-report';

/** what holds one pod back: its node's state, with the evidence. */
export interface PodDiagnosis {
  readonly state: DaemonSetNodeState;
  readonly reason: string;
  readonly message: string;
  readonly stuck: boolean;
}

/** a pod's name for messages. */
export function podName(pod: any): string {
  return str(pod?.metadata?.name) || '<unnamed pod>';
}

export function diagnosePod(pod: any, node: any, allEvents: any[]): PodDiagnosis | undefined {
  const name = podName(pod);
  const events = eventsFor(allEvents, 'Pod', pod);
  const views = containers(pod);

  // pending: not bound to the node, or rejected by the kubelet
  if (pod?.status?.phase === 'Failed') {
    const reason = str(pod.status.reason) || 'Failed';
    return {
      state: DaemonSetNodeState.PENDING,
      reason,
      message: `pod ${name} failed${str(pod.status.message) ? `: ${str(pod.status.message)}` : ''}; the DaemonSet controller deletes failed pods and creates a new one, with backoff`,
      stuck: true,
    };
  }
  if (str(pod?.spec?.nodeName) === '') {
    const scheduled = condition(pod, 'PodScheduled');
    const failedScheduling = events.find((e) => e.reason === 'FailedScheduling');
    if (scheduled?.status === 'False') {
      const message = str(scheduled.message) || failedScheduling?.message || 'the scheduler cannot place it';
      return {
        state: DaemonSetNodeState.PENDING,
        reason: str(scheduled.reason) || 'Unschedulable',
        message: `pod ${name} is not scheduled: ${message}${schedulingHint(pod, node, message)}`,
        stuck: true,
      };
    }
    if (failedScheduling) {
      return {
        state: DaemonSetNodeState.PENDING,
        reason: 'FailedScheduling',
        message: `pod ${name} is not scheduled: ${failedScheduling.message}${eventSuffix(failedScheduling)}${schedulingHint(pod, node, failedScheduling.message)}`,
        stuck: true,
      };
    }
    return { state: DaemonSetNodeState.PENDING, reason: 'Unscheduled', message: `pod ${name} waits for the scheduler to bind it to the node`, stuck: false };
  }

  if (isPodReady(pod)) return undefined;

  // image-pull comes before creating: a pull error is explicit, whatever stage the other containers are in
  const pulling = views.find((c) => IMAGE_PULL_REASONS.has(str(c.status?.state?.waiting?.reason)));
  const anyStarted = views.some((c) => c.status?.state?.running || c.status?.state?.terminated || c.status?.lastState?.terminated);

  // creating: volumes, sandbox or container creation fail, or are in progress
  const createError = views.find((c) => CREATE_ERROR_REASONS.has(str(c.status?.state?.waiting?.reason)));
  if (!pulling && createError) {
    const w = createError.status.state.waiting;
    return {
      state: DaemonSetNodeState.CREATING,
      reason: str(w.reason),
      message: `pod ${name}: ${containerLabel(createError)} cannot be created: ${str(w.message) || str(w.reason)}`,
      stuck: true,
    };
  }
  if (!pulling && !anyStarted) {
    const failure = events.find((e) => e.type === 'Warning' && CREATE_EVENT_REASONS.has(e.reason));
    if (failure) {
      return {
        state: DaemonSetNodeState.CREATING,
        reason: failure.reason,
        message: `pod ${name} is stuck before its containers start: ${failure.message}${eventSuffix(failure)}${mountHint(pod, failure, node)}`,
        stuck: true,
      };
    }
    const waiting = views.map((c) => str(c.status?.state?.waiting?.reason)).find((r) => r !== '') ?? 'ContainerCreating';
    if (views.length === 0 || views.every((c) => c.status?.state?.waiting)) {
      return { state: DaemonSetNodeState.CREATING, reason: waiting, message: `pod ${name} is being created on the node (${waiting})`, stuck: false };
    }
  }

  if (pulling) {
    const w = pulling.status.state.waiting;
    const pullFailure = events.find((e) => e.reason === 'Failed' && e.message.startsWith('Failed to pull image'))
      ?? events.find((e) => e.type === 'Warning' && (e.reason === 'Failed' || e.reason === 'ErrImageNeverPull' || e.reason === 'InspectFailed'));
    // since Kubernetes 1.32 (kubernetes/kubernetes#127918) the kubelet's ImagePullBackOff message carries the last pull
    // error (`Back-off pulling image "x": ErrImagePull: <error>`, pkg/kubelet/images/image_manager.go): the Failed
    // event would only repeat it
    const pullError = pullFailure?.message.replace(/^Failed to pull image "[^"]*": /, '');
    const repeated = pullFailure !== undefined && (pullFailure.message === str(w.message) || (pullError !== '' && str(w.message).includes(pullError!)));
    const error = pullFailure && !repeated ? `; the kubelet reports: ${pullFailure.message}${eventSuffix(pullFailure)}` : '';
    return {
      state: DaemonSetNodeState.IMAGE_PULL,
      reason: str(w.reason),
      message: `pod ${name}: ${containerLabel(pulling)} cannot pull image ${pulling.image}: ${str(w.message) || str(w.reason)}${error}; ${pullAdvice(str(w.reason))}`,
      stuck: true,
    };
  }

  const crashing = views.find((c) => str(c.status?.state?.waiting?.reason) === 'CrashLoopBackOff')
    ?? views.find((c) => c.status?.state?.terminated && num(c.status?.restartCount) > 0);
  if (crashing) {
    return {
      state: DaemonSetNodeState.CRASH_LOOP,
      reason: str(crashing.status?.state?.waiting?.reason) || str(crashing.status?.state?.terminated?.reason) || 'Error',
      message: `pod ${name}: ${describeCrash(crashing)}`,
      stuck: true,
    };
  }

  // not-ready
  const nodeReady = condition(node, 'Ready');
  if (nodeReady && nodeReady.status !== 'True') {
    return {
      state: DaemonSetNodeState.NOT_READY,
      reason: 'NodeNotReady',
      message: `pod ${name} is not ready because node ${str(node?.metadata?.name)} is not ready (${str(nodeReady.reason) || nodeReady.status}${str(nodeReady.message) ? `: ${str(nodeReady.message)}` : ''})`,
      stuck: true,
    };
  }
  const unready = views.filter((c) => !c.init && c.status?.ready !== true).map((c) => c.name);
  const probe = events.find((e) => e.reason === 'Unhealthy' && /^(Readiness|Startup) probe/.test(e.message))
    ?? events.find((e) => e.reason === 'Unhealthy');
  const readyCondition = condition(pod, 'Ready');
  const which = unready.length > 0 ? `container${unready.length > 1 ? 's' : ''} ${unready.join(', ')} not ready` : str(readyCondition?.message) || 'not ready';
  const restarts = views.filter((c) => num(c.status?.restartCount) > 0 && c.status?.lastState?.terminated)
    .map((c) => `; ${containerLabel(c)} restarted ${num(c.status.restartCount)} times, last ${describeTermination(c.status.lastState.terminated)}`).join('');
  if (probe) {
    return {
      state: DaemonSetNodeState.NOT_READY,
      reason: probe.reason,
      message: `pod ${name} runs but is not ready (${which}): ${probe.message}${eventSuffix(probe)}${restarts}`,
      stuck: true,
    };
  }
  const initRunning = views.find((c) => c.init && c.status?.state?.running);
  return {
    state: DaemonSetNodeState.NOT_READY,
    reason: str(readyCondition?.reason) || 'ContainersNotReady',
    message: `pod ${name} runs but is not ready (${initRunning ? `${containerLabel(initRunning)} still running` : which})${restarts}`,
    stuck: false,
  };
}

/**
 * How long a container must run before the kubelet forgets its crashes: its restart back-off (10 s doubling to 5 min,
 * pkg/kubelet's backOffPeriod and MaxContainerBackOff) is reset once the last one is twice the maximum old.
 */
const CRASH_MEMORY_MS = 2 * 300_000;

/**
 * A Ready pod whose container exited within the kubelet's back-off memory: between two crashes a container without a
 * readiness probe is Ready while it runs, so readiness alone would call a crash-looping agent healthy. A restart
 * longer ago than that is history, not a loop, and is left alone.
 */
export function recentRestart(pod: any, now: number): PodDiagnosis | undefined {
  const restarted = containers(pod).filter((c) => !c.init && num(c.status?.restartCount) > 0 && c.status?.state?.running)
    .map((c) => ({ c, finished: time(c.status?.lastState?.terminated?.finishedAt) }))
    .filter((r): r is { c: ContainerView; finished: number } => r.finished !== undefined && now - r.finished < CRASH_MEMORY_MS);
  if (restarted.length === 0) return undefined;
  const { c, finished } = restarted[0];
  const ago = Math.max(0, Math.round((now - finished) / 1000));
  const probe = c.spec?.readinessProbe === undefined
    ? ' it has no readiness probe, so it counts as Ready whenever it runs'
    : ' its readiness probe passes while it runs';
  return {
    state: DaemonSetNodeState.CRASH_LOOP,
    reason: str(c.status.lastState.terminated.reason) || 'Restarted',
    message: `pod ${podName(pod)} is Ready, but ${describeCrash(c)}, ${ago} s ago:${probe}; the kubelet keeps backing off its restarts until it ` +
      `has run for ${CRASH_MEMORY_MS / 60_000} minutes`,
    stuck: true,
  };
}

function describeCrash(c: ContainerView): string {
  const parts = [`${containerLabel(c)} restarted ${num(c.status?.restartCount)} times`];
  const last = c.status?.lastState?.terminated ?? c.status?.state?.terminated;
  if (last) {
    parts.push(`last ${describeTermination(last)}`);
    if (str(last.reason) === 'OOMKilled' || num(last.exitCode) === 137) {
      const limit = str(c.spec?.resources?.limits?.memory);
      parts.push(limit !== ''
        ? `the container was killed for memory: its limit is ${limit}; raise resources.limits.memory or lower the agent's memory use`
        : 'the container was killed for memory and has no memory limit: the node ran short of memory');
    }
  }
  const waiting = str(c.status?.state?.waiting?.message);
  if (waiting !== '') parts.push(waiting);
  return parts.join('; ');
}

/** for an unschedulable pod: what the pod asks that the node may lack. */
function schedulingHint(pod: any, node: any, message: string): string {
  const hints: string[] = [];
  for (const resource of ['cpu', 'memory', 'ephemeral-storage']) {
    if (!message.includes(`Insufficient ${resource}`)) continue;
    const requested = arr(pod?.spec?.containers).map((c: any) => str(c?.resources?.requests?.[resource])).filter((q: string) => q !== '');
    const allocatable = str(node?.status?.allocatable?.[resource]);
    hints.push(`the pod requests ${resource} ${requested.length > 0 ? requested.join(' + ') : '(none set)'}${allocatable ? `, the node has ${allocatable} allocatable in all` : ''}`);
  }
  if (message.includes("didn't have free ports")) {
    const ports = arr(pod?.spec?.containers).flatMap((c: any) => arr(c?.ports)).filter((p: any) => num(p?.hostPort) > 0)
      .map((p: any) => `${num(p.hostPort)}/${str(p.protocol) || 'TCP'}`);
    if (ports.length > 0) hints.push(`host port ${ports.join(', ')} is taken on the node by another pod`);
  }
  return hints.length === 0 ? '' : ` (${hints.join('; ')})`;
}

/** for a FailedMount of a hostPath volume: the path and type the kubelet checked. */
function mountHint(pod: any, failure: EventView, node: any): string {
  if (failure.reason !== 'FailedMount') return '';
  const volumeName = /for volume "([^"]+)"/.exec(failure.message)?.[1];
  const volume = arr(pod?.spec?.volumes).find((v: any) => v?.name === volumeName);
  const hostPath = volume?.hostPath;
  if (!hostPath) return '';
  const type = str(hostPath.type);
  if (type === '' || type === 'DirectoryOrCreate' || type === 'FileOrCreate') return '';
  return ` (volume ${volumeName} is hostPath ${str(hostPath.path)} of type ${type}: it must already exist as that type on node ` +
    `${str(node?.metadata?.name)}; create it there, or keep the agent off nodes without it)`;
}

/**
 * What to do about an image the kubelet cannot start a container from, by its waiting reason
 * (pkg/kubelet/images/types.go): with pull policy Never nothing is pulled, so names and pull secrets are beside the point.
 */
function pullAdvice(reason: string): string {
  if (reason === 'ErrImageNeverPull') {
    return 'with imagePullPolicy Never the kubelet never pulls: load the image into the node\'s container runtime, or set imagePullPolicy to IfNotPresent';
  }
  if (reason === 'InvalidImageName') return 'the image reference is not valid: fix the image name';
  return 'check the image name and tag and the pull secret (imagePullSecrets) for the registry';
}
