import { rbacViolations } from '../_rbac-findings';
import { RULE_CLUSTER_ADMIN } from '../_rbac-rights';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';
import { RBAC_SCOPE } from './_rbac-scope';

/**
 * `NA-RBAC-CLUSTER-ADMIN`: no binding gives the workload's ServiceAccount every verb on every resource (cluster-admin, `*` on `*`).
 */
export class RbacClusterAdminRule implements IReviewRule {
  public readonly id = RULE_CLUSTER_ADMIN;
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'No role that grants everything is bound to the workload\'s ServiceAccount';
  public readonly explanation = 'A node agent runs on every node, so its token is on every node: whoever escapes any one of its pods holds its ' +
    'RBAC. A rule with * verbs on * resources in every API group (the built-in cluster-admin) or in the core group ' +
    '(which includes impersonating any user or group, system:masters included) is control of the cluster: critical, ' +
    'reported once instead of right by right. Bound by a RoleBinding it is every right in that namespace: critical, ' +
    'high when a Namespace among the manifests enforces Pod Security baseline or restricted there (its pods cannot ' +
    'take host access).' + RBAC_SCOPE;
  public readonly fix = 'bind a role of the agent\'s own that lists only the verbs and resources it uses (node agents usually need get, ' +
    'list, watch on pods, namespaces or nodes)';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return rbacViolations(workload, this.id);
  }
}
