import { rbacViolations } from '../_rbac-findings';
import { RULE_ESCALATION } from '../_rbac-rights';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';
import { RBAC_SCOPE } from './_rbac-scope';

/**
 * `NA-RBAC-ESCALATION`: the workload's ServiceAccount cannot escalate, bind or impersonate.
 */
export class RbacEscalationRule implements IReviewRule {
  public readonly id = RULE_ESCALATION;
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'The workload\'s ServiceAccount cannot escalate, bind or impersonate';
  public readonly explanation = 'escalate on roles or clusterroles lets the holder write roles with rights it does not hold; bind lets it bind ' +
    'any role, cluster-admin included; impersonate on users, groups or serviceaccounts lets it act as them (as the ' +
    'group system:masters, control of the cluster). Each is one finding. Critical unlimited and cluster-wide ' +
    '(impersonating ServiceAccounts: cluster-wide or in kube-system, high in another namespace); through a ' +
    'RoleBinding escalate and bind reach that namespace only (critical unless a Namespace among the manifests ' +
    'enforces baseline or restricted there); high when resourceNames limits them to named roles or identities ' +
    '(critical for the group system:masters). escalate takes effect only with create or update on the same roles, ' +
    'and bind only with create or update on bindings: without those among the manifests the finding is medium.' + RBAC_SCOPE;
  public readonly fix = 'remove escalate, bind and impersonate: an agent that creates RBAC for others should bind only rights it holds ' +
    'itself';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return rbacViolations(workload, this.id);
  }
}
