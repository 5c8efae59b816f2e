import { DaemonSetUpdateStrategyType } from './rollout-plan';

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
  /**
   * a container keeps exiting and the kubelet backs off restarting it (CrashLoopBackOff), or it runs again, Ready, after
   * exiting less than 10 minutes ago (the kubelet's back-off memory): a crash loop seen between two crashes.
   */
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
   * counting the batch in flight. 0 once no node keeps a pod of an older revision (what remains, pods being created or
   * becoming available, is not replacements), and 0 for OnDelete, where nothing happens until pods are deleted by hand.
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
