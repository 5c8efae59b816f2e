import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-UPDATE-STRATEGY`: a DaemonSet rolls out by itself: its update strategy is RollingUpdate (the apps/v1 default), not
 * OnDelete (written, or the default of the long-removed extensions/v1beta1).
 */
export class UpdateStrategyRule implements IReviewRule {
  public readonly id = 'NA-UPDATE-STRATEGY';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'DaemonSets roll out by themselves (RollingUpdate)';
  public readonly explanation = 'With OnDelete, a new version of the agent reaches a node only when someone deletes its pod there: a security ' +
    'fix applied to the DaemonSet leaves every node on the old version, silently, until then. Agents whose update must be paced by hand ' +
    'can keep it, acknowledged with the procedure that replaces the pods.';
  public readonly fix = 'use updateStrategy RollingUpdate with maxUnavailable 1 (or a percentage of nodes), or acknowledge with the procedure ' +
    'that deletes the pods node by node';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    if (workload.kind !== 'DaemonSet') return [];
    const type = workload.manifest.spec?.updateStrategy?.type;
    if (type === 'OnDelete') {
      return [{ message: 'updates with OnDelete: a new version reaches a node only when its pod is deleted by hand', field: 'spec.updateStrategy.type' }];
    }
    if (type === undefined && workload.manifest.apiVersion === 'extensions/v1beta1') {
      return [{ message: 'updates with OnDelete, the default of extensions/v1beta1: a new version reaches a node only when its pod is deleted', field: 'spec.updateStrategy' }];
    }
    return [];
  }
}
