import { rbacViolations } from '../_rbac-findings';
import { RULE_TOKENS } from '../_rbac-rights';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';
import { RBAC_SCOPE } from './_rbac-scope';

/**
 * `NA-RBAC-TOKENS`: the workload's ServiceAccount cannot mint tokens for other ServiceAccounts (create on `serviceaccounts/token`).
 */
export class RbacTokensRule implements IReviewRule {
  public readonly id = RULE_TOKENS;
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'The workload\'s ServiceAccount cannot mint tokens for other ServiceAccounts';
  public readonly explanation = 'create on serviceaccounts/token mints an API token for any ServiceAccount in scope, and with it that ' +
    'account\'s rights: critical cluster-wide or in kube-system, where the controllers\' accounts are; high in ' +
    'another namespace; medium when resourceNames limits it to named ServiceAccounts (a CNI plugin minting the ' +
    'token of its own binary\'s account), whose rights it then holds.' + RBAC_SCOPE;
  public readonly fix = 'limit the rule with resourceNames to the ServiceAccount the agent mints tokens for, or rely on the agent\'s ' +
    'own projected token';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return rbacViolations(workload, this.id);
  }
}
