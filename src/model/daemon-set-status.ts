import {
  arr, compareDaemonPods, condition, ContainerView, containerLabel, containers, CREATE_ERROR_REASONS, CREATE_EVENT_REASONS,
  describeTermination, eventsFor, eventSuffix, EventView, IMAGE_PULL_REASONS, isControlledBy, isObject, isPodAvailable,
  isPodReady, isTerminal, isTerminating, namespaceOf, num, REVISION_HASH_LABEL, str, targetNodeName, TEMPLATE_GENERATION_ANNOTATION,
  TEMPLATE_GENERATION_LABEL, time,
} from './_pod-status';
import { DaemonSetCoverage, NodePlacement } from './daemon-set-coverage';
import { DaemonSetUpdateStrategyType, RolloutPlan } from './rollout-plan';

/**
 * What one node of the inventory shows for a running DaemonSet: one word per node, the first that applies in
 * this order (the order a pod goes through, so the earliest stage that holds the node back wins):
 *
 * `excluded`, `missing`, `pending`, `creating`, `image-pull`, `crash-loop`, `not-ready`, `outdated`,
 * `not-available`, `healthy`.
 *
 * A node whose pod fails in one of the stages from `pending` to `not-ready` is reported in that stage even when
 * the pod is also of an older revision (the message says so): the failure is what keeps the node short, and
 * replacing the pod will not help until it is fixed.
 */
export enum DaemonSetNodeState {
  /** the DaemonSet should not run on the node: nodeName, nodeSelector, required node affinity or an untolerated taint. */
  EXCLUDED = 'excluded',
  /** the DaemonSet should run on the node, but it has no pod (not yet created, or creation refused). */
  MISSING = 'missing',
  /** the pod is not bound to the node: the scheduler cannot place it (resources, host ports), or the kubelet rejected it. */
  PENDING = 'pending',
  /** the pod is bound, but its volumes, sandbox or containers cannot be set up (e.g. FailedMount of a hostPath). */
  CREATING = 'creating',
  /** a container image cannot be pulled (ErrImagePull, ImagePullBackOff, InvalidImageName, ...). */
  IMAGE_PULL = 'image-pull',
  /** a container keeps exiting and the kubelet backs off restarting it (CrashLoopBackOff). */
  CRASH_LOOP = 'crash-loop',
  /** the pod runs, but it is not Ready (a readiness probe failing, or the node not ready). */
  NOT_READY = 'not-ready',
  /** the pod is ready, but of an older revision than the DaemonSet's current one. */
  OUTDATED = 'outdated',
  /** the pod is ready and current, but it has not yet been ready for minReadySeconds. */
  NOT_AVAILABLE = 'not-available',
  /** the pod is current, ready and available. */
  HEALTHY = 'healthy',
}

/**
 * The cluster objects a DaemonSet's status is explained from, as plain JSON.
 */
export interface DaemonSetStatusOptions {
  /** the node inventory: `v1` Node objects (`kubectl get nodes -o json`). */
  readonly nodes: any[];

  /**
   * `apps/v1` ControllerRevision objects; the DaemonSet's own are picked by their controller owner reference.
   * @default [] (no revision: the current revision is unknown and no pod is reported outdated)
   */
  readonly controllerRevisions?: any[];

  /**
   * `v1` Pod objects; the DaemonSet's own are picked by their controller owner reference.
   * @default [] (every node that should run the DaemonSet is missing)
   */
  readonly pods?: any[];

  /**
   * `v1` (or `events.k8s.io/v1`) Event objects, read as evidence for pods and for the DaemonSet.
   * @default []
   */
  readonly events?: any[];

  /**
   * The time to judge `minReadySeconds` against.
   * @default the current time
   */
  readonly now?: Date;
}

/** the five numbers of `kubectl get daemonset`, and the pods on nodes that should not run the DaemonSet. */
export interface DaemonSetCounts {
  /** DESIRED: nodes that should run the pod (`desiredNumberScheduled`). */
  readonly desired: number;
  /** CURRENT: of those, nodes with a pod (`currentNumberScheduled`). */
  readonly current: number;
  /** READY: of those, nodes whose pod is Ready (`numberReady`). */
  readonly ready: number;
  /** UP-TO-DATE: nodes whose pod is of the current revision (`updatedNumberScheduled`). */
  readonly upToDate: number;
  /** AVAILABLE: nodes whose pod has been Ready for minReadySeconds (`numberAvailable`). */
  readonly available: number;
  /** nodes that should not run the pod but have one (`numberMisscheduled`). */
  readonly misscheduled: number;
}

/** the state of one node. */
export interface DaemonSetNodeStatus {
  /** the node's name. */
  readonly nodeName: string;
  /** the state. */
  readonly state: DaemonSetNodeState;
  /**
   * A short cause, in Kubernetes' own words where it has one: the container waiting reason (`CrashLoopBackOff`), the
   * event reason (`FailedMount`, `FailedCreate`), the condition reason (`Unschedulable`), or for `excluded` the
   * placement rules that exclude the node (`NodeSelector`, `NodeAffinity`, `NodeName`, `Taint`, comma-separated).
   */
  readonly reason: string;
  /** the evidence: which pod and container, the messages the kubelet, scheduler or controller wrote, and the fix. */
  readonly message: string;
  /**
   * The pod the state is about.
   * @default none (no pod: `missing`, or `excluded` without a pod)
   */
  readonly podName?: string;
  /**
   * Whether the node is stuck rather than on its way: a failure the evidence shows (unschedulable, a mount that
   * fails, an image that cannot be pulled, a crash loop, a failing probe, a refused creation) as opposed to a pod
   * still starting or waiting for minReadySeconds.
   */
  readonly stuck: boolean;
}

/** the rollout of the current revision over the nodes. */
export interface DaemonSetRolloutStatus {
  /** the update strategy. */
  readonly strategy: DaemonSetUpdateStrategyType;
  /** maxUnavailable, scaled to nodes as the controller does (0 for OnDelete). */
  readonly maxUnavailable: number;
  /** maxSurge, scaled to nodes as the controller does (0 for OnDelete). */
  readonly maxSurge: number;
  /**
   * The `controller-revision-hash` of the current revision.
   * @default none (no ControllerRevision of this DaemonSet matches its template)
   */
  readonly currentRevisionHash?: string;
  /**
   * The `revision` number of the current ControllerRevision.
   * @default none (see currentRevisionHash)
   */
  readonly currentRevision?: number;
  /** nodes that should run the DaemonSet whose pod is of the current revision and available: the nodes done. */
  readonly updated: number;
  /**
   * The batches still to go until every node is done: ceil((desired - updated) / max(maxUnavailable, maxSurge)),
   * counting the batch in flight. 0 for OnDelete, where nothing happens until pods are deleted by hand.
   */
  readonly wavesLeft: number;
  /**
   * Whether the rollout is stuck on its budget: nodes still to update remain, and at least maxUnavailable nodes
   * (maxSurge, when surging) are unavailable with pods that do not become ready (`stuck` nodes), so the controller
   * replaces no further pod.
   */
  readonly blocked: boolean;
  /** the stuck nodes that use up the budget, when blocked. */
  readonly blockedBy: string[];
  /** one line: the strategy, the progress and what holds it. */
  readonly message: string;
}

/** a running DaemonSet, explained node by node. */
export interface DaemonSetStatusReport {
  /** the namespace (`default` when the object has none). */
  readonly namespace: string;
  /** the name. */
  readonly name: string;
  /** the five numbers as the DaemonSet's `.status` holds them: what `kubectl get daemonset` shows. */
  readonly status: DaemonSetCounts;
  /** the same numbers computed from the nodes and pods given, as the DaemonSet controller computes them. */
  readonly computed: DaemonSetCounts;
  /** whether the controller has seen the current spec (`status.observedGeneration >= metadata.generation`). */
  readonly observed: boolean;
  /**
   * Whether the DaemonSet is fully rolled out: observed, UP-TO-DATE and AVAILABLE equal DESIRED (the test of
   * `kubectl rollout status`), and every node of the inventory is `healthy` or `excluded`.
   */
  readonly complete: boolean;
  /** the rollout. */
  readonly rollout: DaemonSetRolloutStatus;
  /** one entry per node of the inventory, in the inventory's order. */
  readonly nodes: DaemonSetNodeStatus[];
  /**
   * Each number that falls short, with the nodes that make it short, e.g.
   * `READY 2 < CURRENT 3: kind-worker2 (crash-loop)`; also a note when `.status` disagrees with the pods.
   */
  readonly shortfalls: string[];
}

/**
 * Explains a running DaemonSet's DESIRED, CURRENT, READY, UP-TO-DATE and AVAILABLE node by node, from plain
 * Kubernetes JSON (nodes, the DaemonSet, its ControllerRevisions, pods and events), offline.
 *
 * Placement comes from `DaemonSetCoverage` (the controller's `NodeShouldRunDaemonPod`); the rollout limits from
 * `RolloutPlan`. The per-node counting follows `updateDaemonSetStatus` in `pkg/controller/daemon/daemon_controller.go`:
 * pods are the DaemonSet's by controller owner reference, grouped by target node, terminal pods marked for deletion
 * left out; on a node with several pods the oldest scheduled one counts.
 *
 * The current revision is found as `constructHistory` in `pkg/controller/daemon/update.go` finds it: among the
 * ControllerRevisions the DaemonSet controls, the one whose `data` equals `{spec: {template, $patch: replace}}` of the
 * DaemonSet (`Match`), the highest `revision` if several do (`dedupCurHistories`); once the controller has seen the
 * spec it has also raised that revision above every other, so when no template matches (a copy that lost a field) but
 * `status.observedGeneration` is current, the highest revision is the current one. Its `controller-revision-hash`
 * label is the hash. A pod is up to date when its `controller-revision-hash` label equals it, or its
 * `pod-template-generation` label equals the DaemonSet's `deprecated.daemonset.template.generation` annotation
 * (`IsPodUpdated` in `pkg/controller/daemon/util/daemonset_util.go`).
 */
export class DaemonSetStatus {
  /**
   * Explains one DaemonSet.
   *
   * @param daemonSet an `apps/v1` DaemonSet as plain JSON, with its `status`
   * @param options the nodes, revisions, pods and events to read
   * @throws when the DaemonSet is not an object, or its update strategy is one the API server rejects
   */
  public static explain(daemonSet: any, options: DaemonSetStatusOptions): DaemonSetStatusReport {
    if (!isObject(daemonSet)) throw new Error('daemonSet must be a DaemonSet object; pass the parsed object (kubectl get daemonset -o json)');
    if (!Array.isArray(options?.nodes)) throw new Error('options.nodes must be an array of Node objects (kubectl get nodes -o json)');
    return new Explainer(daemonSet, options).report();
  }

  private constructor() {}
}

/** what the controller sees on one node. */
interface NodeView {
  readonly node: any;
  readonly name: string;
  readonly placement: NodePlacement;
  /** the DaemonSet's pods targeting the node, terminal pods marked for deletion left out, the counted one first. */
  readonly pods: any[];
  /** the pod the controller counts (`daemonPods[0]`). */
  readonly counted?: any;
  /** the oldest up-to-date and the oldest older pod that are not being deleted (`findUpdatedPodsOnNode`). */
  readonly newPod?: any;
  readonly oldPod?: any;
  /** more than one old or new pod: the controller leaves the node to its manage loop. */
  readonly excess: boolean;
}

interface Revision {
  readonly hash?: string;
  readonly number?: number;
  /** why this revision is current, for messages. */
  readonly note: string;
}

interface PodDiagnosis {
  readonly state: DaemonSetNodeState;
  readonly reason: string;
  readonly message: string;
  readonly stuck: boolean;
}

class Explainer {
  private readonly namespace: string;
  private readonly name: string;
  private readonly now: number;
  private readonly minReadySeconds: number;
  private readonly events: any[];
  private readonly revisions: any[];
  private readonly revision: Revision;
  private readonly templateGeneration?: string;
  private readonly views: NodeView[];
  private readonly plan: RolloutPlan;
  private readonly observed: boolean;

  constructor(private readonly ds: any, options: DaemonSetStatusOptions) {
    this.namespace = namespaceOf(ds);
    this.name = str(ds.metadata?.name);
    this.now = (options.now ?? new Date()).getTime();
    this.minReadySeconds = num(ds.spec?.minReadySeconds);
    this.events = arr(options.events);
    this.observed = num(ds.metadata?.generation) <= num(ds.status?.observedGeneration);
    this.revisions = arr(options.controllerRevisions).filter((r) => isControlledBy(r, ds, 'DaemonSet'));
    this.revision = this.currentRevision();
    const generation = ds.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
    this.templateGeneration = typeof generation === 'string' && /^[+-]?[0-9]+$/.test(generation) ? String(BigInt(generation)) : undefined;

    const ownPods = arr(options.pods).filter((p) => isControlledBy(p, ds, 'DaemonSet'));
    const byNode = new Map<string, any[]>();
    for (const pod of ownPods) {
      if (isTerminal(pod) && isTerminating(pod)) continue; // getNodesToDaemonPods(includeDeletedTerminal=false)
      const target = targetNodeName(pod);
      if (target === undefined) continue;
      byNode.set(target, [...(byNode.get(target) ?? []), pod]);
    }
    const coverage = DaemonSetCoverage.plan(ds, options.nodes);
    this.views = options.nodes.map((node, i) => {
      const placement = coverage.placements[i];
      const pods = [...(byNode.get(placement.nodeName) ?? [])].sort(compareDaemonPods);
      let newPod: any;
      let oldPod: any;
      let excess = false;
      for (const pod of pods) {
        if (isTerminating(pod)) continue;
        if (this.isUpdated(pod)) {
          if (newPod) excess = true; else newPod = pod;
        } else if (oldPod) {
          excess = true;
        } else {
          oldPod = pod;
        }
      }
      return { node, name: placement.nodeName, placement, pods, counted: pods[0], newPod, oldPod, excess };
    });
    this.plan = RolloutPlan.of(ds, coverage.desired);
  }

  report(): DaemonSetStatusReport {
    const status = this.statusCounts();
    const computed = this.computedCounts();
    const nodes = this.views.map((v) => this.nodeStatus(v));
    const rollout = this.rollout(nodes);
    const withRollout = nodes.map((n) => (n.state === DaemonSetNodeState.OUTDATED ? this.outdatedMessage(n, rollout) : n));
    const shortfalls = this.shortfalls(status, computed, withRollout);
    const complete = this.observed && status.upToDate >= status.desired && status.available >= status.desired
      && withRollout.every((n) => n.state === DaemonSetNodeState.HEALTHY || n.state === DaemonSetNodeState.EXCLUDED);
    return {
      namespace: this.namespace,
      name: this.name,
      status,
      computed,
      observed: this.observed,
      complete,
      rollout,
      nodes: withRollout,
      shortfalls,
    };
  }

  // ---------- revisions ----------

  private currentRevision(): Revision {
    const template = normalize(this.ds.spec?.template);
    const matching = this.revisions.filter((r) => deepEqual(normalize(withoutPatch(r.data?.spec?.template)), template));
    const highest = (list: any[]) => list.reduce((best, r) => (best === undefined || num(r.revision) >= num(best.revision) ? r : best), undefined);
    let chosen = highest(matching);
    let note = 'the ControllerRevision that matches the template';
    if (!chosen && this.observed && this.revisions.length > 0) {
      chosen = highest(this.revisions);
      note = 'the highest ControllerRevision (none matches the template exactly, but the controller has seen this spec)';
    }
    if (!chosen) {
      return {
        note: this.revisions.length === 0
          ? 'unknown: no ControllerRevision of this DaemonSet was given'
          : 'not recorded yet: the controller has not seen the current template',
      };
    }
    return { hash: revisionHash(chosen, this.name), number: num(chosen.revision), note };
  }

  /** `IsPodUpdated`. */
  private isUpdated(pod: any): boolean {
    const labels = pod?.metadata?.labels ?? {};
    const hashMatches = this.revision.hash !== undefined && this.revision.hash !== '' && labels[REVISION_HASH_LABEL] === this.revision.hash;
    const generationMatches = this.templateGeneration !== undefined && labels[TEMPLATE_GENERATION_LABEL] === this.templateGeneration;
    return hashMatches || generationMatches;
  }

  /** "revision 3 (5d8f6c7b9)" of a pod, from the ControllerRevision with its hash. */
  private podRevision(pod: any): string {
    const hash = str(pod?.metadata?.labels?.[REVISION_HASH_LABEL]);
    if (hash === '') return 'no controller-revision-hash label';
    const rev = this.revisions.find((r) => revisionHash(r, this.name) === hash);
    return rev ? `revision ${num(rev.revision)} (${hash})` : `${hash} (no ControllerRevision left for it)`;
  }

  private currentRevisionText(): string {
    return this.revision.hash !== undefined ? `revision ${this.revision.number} (${this.revision.hash})` : `the current revision (${this.revision.note})`;
  }

  // ---------- counts ----------

  private statusCounts(): DaemonSetCounts {
    const s = this.ds.status ?? {};
    return {
      desired: num(s.desiredNumberScheduled),
      current: num(s.currentNumberScheduled),
      ready: num(s.numberReady),
      upToDate: num(s.updatedNumberScheduled),
      available: num(s.numberAvailable),
      misscheduled: num(s.numberMisscheduled),
    };
  }

  /** `updateDaemonSetStatus`. */
  private computedCounts(): DaemonSetCounts {
    let desired = 0, current = 0, ready = 0, upToDate = 0, available = 0, misscheduled = 0;
    for (const v of this.views) {
      if (v.placement.shouldRun) {
        desired++;
        if (!v.counted) continue;
        current++;
        if (isPodReady(v.counted)) {
          ready++;
          if (isPodAvailable(v.counted, this.minReadySeconds, this.now)) available++;
        }
        if (this.isUpdated(v.counted)) upToDate++;
      } else if (v.counted) {
        misscheduled++;
      }
    }
    return { desired, current, ready, upToDate, available, misscheduled };
  }

  // ---------- node states ----------

  private nodeStatus(v: NodeView): DaemonSetNodeStatus {
    const base = { nodeName: v.name };
    if (!v.placement.shouldRun) {
      const codes = [...new Set(v.placement.reasons.map(placementCode))].join(',');
      let message = v.placement.reasons.join('; ');
      const pod = v.pods.find((p) => !isTerminating(p));
      if (pod) {
        message += v.placement.shouldContinueRunning
          ? `; pod ${podName(pod)} still runs here (a NoSchedule taint keeps new pods off, it does not evict) but is not counted`
          : `; pod ${podName(pod)} is still here and the controller deletes it`;
      }
      return { ...base, state: DaemonSetNodeState.EXCLUDED, reason: codes, message, podName: pod ? podName(pod) : undefined, stuck: false };
    }
    // the pod whose progress decides the node: the new one when the rollout has reached the node, else the old one
    const subject = v.newPod ?? v.oldPod ?? v.pods.find((p) => !isTerminating(p)) ?? v.pods[0];
    if (!subject) return { ...base, ...this.missing(), podName: undefined };
    const outdated = !this.isUpdated(subject);
    const diagnosis = this.diagnosePod(subject, v.node);
    const name = podName(subject);
    if (diagnosis) {
      const note = outdated ? ` The pod is also of an older ${this.podRevision(subject)} than ${this.currentRevisionText()}.` : '';
      const also = v.oldPod && v.newPod && subject === v.newPod ? ` The old pod ${podName(v.oldPod)} still runs beside it (surge).` : '';
      return { ...base, ...diagnosis, message: diagnosis.message + note + also, podName: name };
    }
    if (outdated) {
      const terminating = isTerminating(subject) ? ' It is being deleted to be replaced.' : '';
      return {
        ...base,
        state: DaemonSetNodeState.OUTDATED,
        reason: 'OutdatedRevision',
        message: `pod ${name} runs ${this.podRevision(subject)}; the DaemonSet's current one is ${this.currentRevisionText()}.${terminating}`,
        podName: name,
        stuck: false,
      };
    }
    if (!isPodAvailable(subject, this.minReadySeconds, this.now)) {
      const since = time(condition(subject, 'Ready')?.lastTransitionTime);
      const at = since === undefined ? '' : `; ready since ${iso(since)}, available from ${iso(since + this.minReadySeconds * 1000)}`;
      return {
        ...base,
        state: DaemonSetNodeState.NOT_AVAILABLE,
        reason: 'MinReadySeconds',
        message: `pod ${name} is ready but not yet for minReadySeconds ${this.minReadySeconds}${at}`,
        podName: name,
        stuck: false,
      };
    }
    return {
      ...base,
      state: DaemonSetNodeState.HEALTHY,
      reason: 'Available',
      message: `pod ${name} is ready and available, ${this.revision.hash !== undefined ? this.currentRevisionText() : this.podRevision(subject)}`,
      podName: name,
      stuck: false,
    };
  }

  /** a node that should run the DaemonSet but has no pod: the controller's events say why. */
  private missing(): Omit<DaemonSetNodeStatus, 'nodeName'> {
    const dsEvents = eventsFor(this.events, 'DaemonSet', this.ds);
    const failed = dsEvents.find((e) => e.type === 'Warning' && (e.reason === 'FailedCreate' || e.reason === 'FailedDaemonPod'));
    if (failed) {
      return {
        state: DaemonSetNodeState.MISSING,
        reason: failed.reason,
        message: `no pod on this node; the DaemonSet controller reports: ${failed.message}${eventSuffix(failed)}`,
        stuck: true,
      };
    }
    const lag = this.observed ? '' : ` (the controller has not yet seen generation ${num(this.ds.metadata?.generation)})`;
    return {
      state: DaemonSetNodeState.MISSING,
      reason: 'NoPod',
      message: `no pod on this node yet; the DaemonSet controller creates one on its next sync${lag}`,
      stuck: false,
    };
  }

  /** why a pod is not Ready, in the order a pod starts: undefined when it is Ready. */
  private diagnosePod(pod: any, node: any): PodDiagnosis | undefined {
    const name = podName(pod);
    const events = eventsFor(this.events, 'Pod', pod);
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
          message: `pod ${name} is not scheduled: ${message}${this.schedulingHint(pod, node, message)}`,
          stuck: true,
        };
      }
      if (failedScheduling) {
        return {
          state: DaemonSetNodeState.PENDING,
          reason: 'FailedScheduling',
          message: `pod ${name} is not scheduled: ${failedScheduling.message}${eventSuffix(failedScheduling)}${this.schedulingHint(pod, node, failedScheduling.message)}`,
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
          message: `pod ${name} is stuck before its containers start: ${failure.message}${eventSuffix(failure)}${this.mountHint(pod, failure, node)}`,
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
      const error = pullFailure && pullFailure.message !== str(w.message) ? `; the kubelet reports: ${pullFailure.message}${eventSuffix(pullFailure)}` : '';
      return {
        state: DaemonSetNodeState.IMAGE_PULL,
        reason: str(w.reason),
        message: `pod ${name}: ${containerLabel(pulling)} cannot pull image ${pulling.image}: ${str(w.message) || str(w.reason)}${error}; check the image name and tag and the pull secret (imagePullSecrets) for the registry`,
        stuck: true,
      };
    }

    const crashing = views.find((c) => str(c.status?.state?.waiting?.reason) === 'CrashLoopBackOff')
      ?? views.find((c) => c.status?.state?.terminated && num(c.status?.restartCount) > 0);
    if (crashing) {
      return {
        state: DaemonSetNodeState.CRASH_LOOP,
        reason: str(crashing.status?.state?.waiting?.reason) || str(crashing.status?.state?.terminated?.reason) || 'Error',
        message: `pod ${name}: ${this.describeCrash(crashing)}`,
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

  private describeCrash(c: ContainerView): string {
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
  private schedulingHint(pod: any, node: any, message: string): string {
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
  private mountHint(pod: any, failure: EventView, node: any): string {
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

  // ---------- rollout ----------

  private rollout(nodes: DaemonSetNodeStatus[]): DaemonSetRolloutStatus {
    const plan = this.plan;
    const stateOf = new Map(nodes.map((n) => [n.nodeName, n]));
    let updated = 0;
    for (const v of this.views) {
      if (v.placement.shouldRun && v.newPod && isPodAvailable(v.newPod, this.minReadySeconds, this.now)) updated++;
    }
    const desired = plan.nodeCount;
    const batch = Math.max(plan.maxUnavailable, plan.maxSurge);
    const rolling = plan.strategy === DaemonSetUpdateStrategyType.ROLLING_UPDATE;
    const wavesLeft = rolling && batch > 0 ? Math.ceil(Math.max(0, desired - updated) / batch) : 0;

    let blockedBy: string[] = [];
    let budgetText = '';
    if (rolling && desired > 0) {
      const available = (pod: any) => isPodAvailable(pod, this.minReadySeconds, this.now);
      const stuck = (v: NodeView) => stateOf.get(v.name)?.stuck === true;
      const involved = this.views.filter((v) => v.placement.shouldRun || v.pods.length > 0);
      if (plan.maxSurge === 0) {
        // rollingUpdate without surge: what counts against maxUnavailable, and which old pods are still to replace
        let numUnavailable = 0;
        const stuckConsumers: string[] = [];
        let candidates = 0;
        for (const v of involved) {
          if (v.excess || (!v.oldPod && !v.newPod) || (v.oldPod && v.newPod)) {
            numUnavailable++;
            if (stuck(v)) stuckConsumers.push(v.name);
          } else if (v.newPod) {
            if (!available(v.newPod)) {
              numUnavailable++;
              if (stuck(v)) stuckConsumers.push(v.name);
            }
          } else if (!available(v.oldPod)) {
            numUnavailable++; // replaced at once, whatever the budget
          } else {
            candidates++;
          }
        }
        if (candidates > 0 && stuckConsumers.length >= plan.maxUnavailable) blockedBy = stuckConsumers;
        budgetText = `maxUnavailable ${plan.maxUnavailable}, ${numUnavailable} unavailable now`;
      } else {
        // surge: new pods beside available old ones, at most maxSurge not yet available at once
        let numSurge = 0;
        const stuckConsumers: string[] = [];
        let candidates = 0;
        for (const v of involved) {
          if (v.excess) {
            numSurge++;
          } else if (v.oldPod && v.newPod) {
            if (!available(v.newPod)) {
              numSurge++;
              if (stuck(v)) stuckConsumers.push(v.name);
            }
          } else if (v.oldPod && v.placement.shouldRun && available(v.oldPod)) {
            candidates++;
          }
        }
        if (candidates > 0 && stuckConsumers.length >= plan.maxSurge) blockedBy = stuckConsumers;
        budgetText = `maxSurge ${plan.maxSurge}, ${numSurge} surge pod${numSurge === 1 ? '' : 's'} not yet available`;
      }
    }
    const blocked = blockedBy.length > 0;
    let message: string;
    if (!rolling) {
      const waiting = nodes.filter((n) => n.state === DaemonSetNodeState.OUTDATED).length;
      message = `OnDelete: ${updated} of ${desired} nodes updated; ${waiting === 0 ? 'no pod waits' : `${waiting} node${waiting === 1 ? '' : 's'} keep the old pod until it is deleted by hand`}`;
    } else {
      message = `RollingUpdate (${budgetText || `maxUnavailable ${plan.maxUnavailable}, maxSurge ${plan.maxSurge}`}): ${updated} of ${desired} nodes updated, ` +
        `${wavesLeft} wave${wavesLeft === 1 ? '' : 's'} left`;
      if (blocked) {
        message += `; blocked by ${blockedBy.map((n) => `${n} (${stateOf.get(n)?.state})`).join(', ')}: no further pod is replaced until ` +
          `${blockedBy.length === 1 ? 'its pod becomes' : 'their pods become'} available or ${blockedBy.length === 1 ? 'is' : 'are'} fixed`;
      }
    }
    if (this.revision.hash === undefined) message += `; current revision ${this.revision.note}`;
    return {
      strategy: plan.strategy,
      maxUnavailable: plan.maxUnavailable,
      maxSurge: plan.maxSurge,
      currentRevisionHash: this.revision.hash,
      currentRevision: this.revision.number,
      updated,
      wavesLeft,
      blocked,
      blockedBy,
      message,
    };
  }

  private outdatedMessage(n: DaemonSetNodeStatus, rollout: DaemonSetRolloutStatus): DaemonSetNodeStatus {
    let next: string;
    if (rollout.strategy === DaemonSetUpdateStrategyType.ON_DELETE) {
      next = ` OnDelete: delete the pod to update this node (kubectl delete pod ${n.podName} -n ${this.namespace}).`;
    } else if (rollout.blocked) {
      next = ` It waits: the rollout is blocked by ${rollout.blockedBy.join(', ')}.`;
    } else {
      next = ' The RollingUpdate replaces it in turn.';
    }
    return { ...n, message: n.message + next };
  }

  // ---------- shortfalls ----------

  private shortfalls(status: DaemonSetCounts, computed: DaemonSetCounts, nodes: DaemonSetNodeStatus[]): string[] {
    const out: string[] = [];
    const byName = new Map(nodes.map((n) => [n.nodeName, n]));
    const list = (views: NodeView[]) => views.map((v) => `${v.name} (${byName.get(v.name)?.state})`).join(', ');
    const should = this.views.filter((v) => v.placement.shouldRun);
    if (this.views.length > status.desired) {
      const excluded = this.views.filter((v) => !v.placement.shouldRun);
      out.push(`DESIRED ${status.desired} of ${this.views.length} nodes: ${excluded.length > 0 ? `${list(excluded)} ${excluded.length === 1 ? 'is' : 'are'} left out by placement` : 'status is behind the nodes'}`);
    }
    const noPod = should.filter((v) => !v.counted);
    if (status.current < status.desired) out.push(`CURRENT ${status.current} < DESIRED ${status.desired}: ${list(noPod) || 'status is behind the pods'}`);
    const notReady = should.filter((v) => v.counted && !isPodReady(v.counted));
    if (status.ready < status.current) out.push(`READY ${status.ready} < CURRENT ${status.current}: ${list(notReady) || 'status is behind the pods'}`);
    const old = should.filter((v) => !v.counted || !this.isUpdated(v.counted));
    if (status.upToDate < status.desired) out.push(`UP-TO-DATE ${status.upToDate} < DESIRED ${status.desired}: ${list(old) || 'status is behind the pods'}`);
    const notAvailable = should.filter((v) => v.counted && isPodReady(v.counted) && !isPodAvailable(v.counted, this.minReadySeconds, this.now));
    if (status.available < status.ready) {
      out.push(`AVAILABLE ${status.available} < READY ${status.ready}: ${list(notAvailable) || 'status is behind the pods'} (minReadySeconds ${this.minReadySeconds})`);
    }
    if (!this.observed) {
      out.push(`the controller has not yet seen the current spec (observedGeneration ${num(this.ds.status?.observedGeneration)} < generation ${num(this.ds.metadata?.generation)}): the numbers are from the previous spec`);
    }
    const names: Array<[keyof DaemonSetCounts, string]> = [['desired', 'DESIRED'], ['current', 'CURRENT'], ['ready', 'READY'], ['upToDate', 'UP-TO-DATE'], ['available', 'AVAILABLE']];
    const differ = names.filter(([k]) => status[k] !== computed[k]).map(([k, label]) => `${label} ${status[k]} (pods: ${computed[k]})`);
    if (differ.length > 0) out.push(`.status disagrees with the nodes and pods given: ${differ.join(', ')}; the controller has not written its latest count, or the objects were taken at different times`);
    return out;
  }
}

/** the placement rule behind one of DaemonSetCoverage's reasons (they start with the field they are about). */
function placementCode(reason: string): string {
  if (reason.startsWith('spec.template.spec.nodeName')) return 'NodeName';
  if (reason.startsWith('nodeSelector')) return 'NodeSelector';
  if (reason.startsWith('required node affinity')) return 'NodeAffinity';
  if (reason.startsWith('taint')) return 'Taint';
  return 'Placement';
}

function podName(pod: any): string {
  return str(pod?.metadata?.name) || '<unnamed pod>';
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function revisionHash(revision: any, dsName: string): string {
  const label = str(revision?.metadata?.labels?.[REVISION_HASH_LABEL]);
  if (label !== '') return label;
  const name = str(revision?.metadata?.name);
  return name.startsWith(`${dsName}-`) ? name.slice(dsName.length + 1) : name; // constructHistory labels it with its name
}

function withoutPatch(template: any): any {
  if (!isObject(template)) return template;
  const { $patch, ...rest } = template;
  return rest;
}

/** drops null and undefined members, so a field written as null and one left out compare equal. */
function normalize(value: any): any {
  if (Array.isArray(value)) return value.map(normalize);
  if (isObject(value)) {
    const out: Record<string, any> = {};
    for (const key of Object.keys(value)) {
      if (value[key] !== null && value[key] !== undefined) out[key] = normalize(value[key]);
    }
    return out;
  }
  return value;
}

function deepEqual(a: any, b: any): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ak = Object.keys(a);
    const bk = Object.keys(b);
    return ak.length === bk.length && ak.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}
