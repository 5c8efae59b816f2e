import { rbacViolations } from '../_rbac-findings';
import { RULE_NODES } from '../_rbac-rights';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';
import { RBAC_SCOPE } from './_rbac-scope';

/**
 * `NA-RBAC-NODES`: the workload's ServiceAccount cannot change or delete Node objects.
 */
export class RbacNodesRule implements IReviewRule {
  public readonly id = RULE_NODES;
  public readonly severity = Severity.HIGH;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'The workload\'s ServiceAccount cannot change or delete nodes';
  public readonly explanation = 'A Node\'s labels and taints decide which pods run on it. update or patch on nodes can take taints off ' +
    '(the control plane\'s included), add labels that workloads select, node-restriction.kubernetes.io/ ones included (the ' +
    'NodeRestriction admission plugin keeps only kubelets from setting them), and cordon nodes: pods that were kept away from a node ' +
    'can be drawn to one the attacker holds. A DaemonSet\'s ServiceAccount token is mounted on every node it runs on, so whoever ' +
    'takes any one of them holds this right. High; medium when resourceNames limits it to named nodes, and for delete alone (the pods of a deleted ' +
    'Node are deleted, and it takes no new pods until its kubelet registers it again). nodes/status (conditions and ' +
    'addresses, which CNI plugins and node-problem-detector patch) is not judged, and a RoleBinding grants nothing on nodes, ' +
    'which are cluster-scoped.' + RBAC_SCOPE;
  public readonly fix = 'keep it only if the agent must label, taint, cordon or remove nodes, and acknowledge the finding with that reason; ' +
    'where the design allows, give the writes to one controller (a Deployment) instead of the agent on every node';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return rbacViolations(workload, this.id);
  }
}
