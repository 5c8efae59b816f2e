import { isObject } from './_pod-status';
import { Explainer } from './_status-explainer';
import { DaemonSetStatusOptions, DaemonSetStatusReport } from './daemon-set-status-report';

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
