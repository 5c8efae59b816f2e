import { RULE_SHIPPED_ROLE, shippedRoleViolations } from '../_rbac-shipped';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-RBAC-SHIPPED-ROLE`: the manifests ship no dangerous Role or ClusterRole that none of their workloads holds.
 */
export class RbacShippedRoleRule implements IReviewRule {
  public readonly id = RULE_SHIPPED_ROLE;
  public readonly severity = Severity.HIGH;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'The manifests ship no dangerous role that none of their workloads holds';
  public readonly explanation = 'A Role or ClusterRole among the reviewed manifests that grants a right the other RBAC rules report ' +
    '(Secrets, exec, nodes/proxy, escalate, bind, impersonate, token minting, traffic redirection...) gives it to whoever it is bound ' +
    'to. When no binding among the manifests binds it to a ServiceAccount a workload there runs as (directly, through a group, or ' +
    'through an aggregated ClusterRole it holds), the right is not a workload\'s, and the workloads\' RBAC findings never show it: a ' +
    'binding to another subject (often a misspelt ServiceAccount), or none, which leaves it to whatever binding the cluster has or ' +
    'gets. Each such role is one finding on each workload of the namespaces it is bound into (its bindings\' ServiceAccounts\' and ' +
    'RoleBindings\' namespaces, a Role\'s own), or on every workload when none is there or it names none, naming its rights and ' +
    'the bindings and subjects the manifests give it, at the severity of its strongest right where the manifests bind or aggregate ' +
    'it, one step lower where nothing binds it.';
  public readonly fix = 'check that the subjects the role is bound to are meant to hold its rights, or remove the role';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return shippedRoleViolations(workload);
  }
}
