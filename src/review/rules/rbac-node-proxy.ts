import { rbacViolations } from '../_rbac-findings';
import { RULE_NODE_PROXY } from '../_rbac-rights';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';
import { RBAC_SCOPE } from './_rbac-scope';

/**
 * `NA-RBAC-NODE-PROXY`: the workload's ServiceAccount cannot reach the kubelet API through `nodes/proxy`.
 */
export class RbacNodeProxyRule implements IReviewRule {
  public readonly id = RULE_NODE_PROXY;
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'The workload\'s ServiceAccount cannot reach the kubelet API through nodes/proxy';
  public readonly explanation = 'get or create on nodes/proxy reaches every endpoint of the kubelet API that has no subresource of its own, ' +
    '/exec, /run and /attach among them: commands in any container of the node (the kubelet authorizes a WebSocket ' +
    'request as get). Critical; high when resourceNames limits it to named nodes. nodes/* does not grant ' +
    'nodes/proxy (RBAC matches * alone or */subresource), and a RoleBinding grants nothing on nodes, which are ' +
    'cluster-scoped.' + RBAC_SCOPE;
  public readonly fix = 'grant only the kubelet endpoints the agent reads: nodes/metrics, nodes/stats, nodes/log and, from Kubernetes ' +
    '1.33, nodes/pods, nodes/healthz and nodes/configz (fine-grained kubelet authorization)';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return rbacViolations(workload, this.id);
  }
}
