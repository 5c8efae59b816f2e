import { rbacViolations } from '../_rbac-findings';
import { RULE_ADMISSION } from '../_rbac-rights';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';
import { RBAC_SCOPE } from './_rbac-scope';

/**
 * `NA-RBAC-ADMISSION`: the workload's ServiceAccount cannot write admission webhook configurations or admission policies.
 */
export class RbacAdmissionRule implements IReviewRule {
  public readonly id = RULE_ADMISSION;
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'The workload\'s ServiceAccount cannot write admission webhooks or policies';
  public readonly explanation = 'An admission webhook receives every object it registers for, Secrets included, and a mutating one rewrites ' +
    'pods as they are created: create, update or patch on mutatingwebhookconfigurations, ' +
    'validatingwebhookconfigurations, mutatingadmissionpolicies or their bindings is critical; on ' +
    'validatingadmissionpolicies or their bindings high, as is delete alone, which stops the checks they enforce. ' +
    'Limited by resourceNames to named configurations (an agent that manages its own webhook) each is one step ' +
    'lower. A RoleBinding grants nothing on them: they are cluster-scoped.' + RBAC_SCOPE;
  public readonly fix = 'limit update, patch and delete with resourceNames to the agent\'s own webhook configuration (create cannot be ' +
    'limited by name)';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return rbacViolations(workload, this.id);
  }
}
