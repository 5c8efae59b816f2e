import { rbacViolations } from '../_rbac-findings';
import { RULE_WILDCARD } from '../_rbac-rights';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';
import { RBAC_SCOPE } from './_rbac-scope';

/**
 * `NA-RBAC-BROAD`: no rule bound to the workload's ServiceAccount uses `*` verbs or resources beyond the rights the other RBAC rules report.
 */
export class RbacBroadRule implements IReviewRule {
  public readonly id = RULE_WILDCARD;
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'RBAC bound to the workload\'s ServiceAccount names its verbs and resources';
  public readonly explanation = 'A * grants whatever the API adds later. A * resource in a named API group grants that group\'s resources only ' +
    '(k8s.cni.cncf.io: NetworkAttachmentDefinitions), never Secrets, pods or RBAC; the message names the group and ' +
    'its resources among the manifests\' CustomResourceDefinitions. A rule whose wildcard already grants a right ' +
    'another RBAC rule reports (Secrets, exec, workloads, * on *) is reported there, once; rules on nonResourceURLs ' +
    '(/metrics, /healthz) are not judged. Earlier releases ' +
    'reported under NA-RBAC-BROAD, at high, Secrets access, escalate, bind and impersonate, nodes/proxy and the ' +
    'built-in cluster-admin, admin and edit roles: those are now NA-RBAC-SECRETS, NA-RBAC-ESCALATION, ' +
    'NA-RBAC-NODE-PROXY and NA-RBAC-CLUSTER-ADMIN (and the rights of admin and edit, one by one); an ' +
    'acknowledgement of NA-RBAC-BROAD no longer accepts them.' + RBAC_SCOPE;
  public readonly fix = 'list the verbs and resources the agent uses instead of *';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return rbacViolations(workload, this.id);
  }
}
