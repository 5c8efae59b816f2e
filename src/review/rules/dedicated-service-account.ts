import { podHoldsToken } from '../_rbac';
import { namespaceKey, serviceAccountField, serviceAccountName } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-SERVICE-ACCOUNT`: the pod runs as a ServiceAccount of its own, not the namespace's `default`.
 *
 * Part of the node-agent baseline: a ServiceAccount of its own gives the agent exactly its RBAC, shared with no other pod.
 */
export class DedicatedServiceAccountRule implements IReviewRule {
  public readonly id = 'NA-SERVICE-ACCOUNT';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'The pod runs as a dedicated ServiceAccount';
  public readonly explanation = 'Every pod of the namespace that names no ServiceAccount runs as default: whatever RBAC anyone grants ' +
    'default reaches the agent, and whatever the agent needs is granted to every such pod. A ServiceAccount of its own gives the ' +
    'agent exactly its RBAC, and an audit log that names it.';
  public readonly fix = 'create a ServiceAccount for the agent, set spec.serviceAccountName to it and bind only the RBAC it needs';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    if (serviceAccountName(workload) !== 'default') return [];
    const token = podHoldsToken(workload, 'default', namespaceKey(workload)) ? ''
      : ' (it mounts no token of it: automountServiceAccountToken is false, so it holds none of the RBAC granted to default; a ServiceAccount ' +
        'of its own keeps that so if the setting is ever removed)';
    return [{ message: `runs as the namespace's default ServiceAccount${token}`, field: serviceAccountField(workload) }];
  }
}
