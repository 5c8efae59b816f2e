import { rbacViolations } from '../_rbac-findings';
import { RULE_EXEC } from '../_rbac-rights';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';
import { RBAC_SCOPE } from './_rbac-scope';

/**
 * `NA-RBAC-EXEC`: the workload's ServiceAccount cannot exec into, attach to or port-forward pods (`pods/exec`, `pods/attach`, `pods/portforward`).
 */
export class RbacExecRule implements IReviewRule {
  public readonly id = RULE_EXEC;
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'The workload\'s ServiceAccount cannot exec into pods';
  public readonly explanation = 'Exec or attach into a pod runs commands with that pod\'s ServiceAccount token and host access: into a ' +
    'privileged node agent\'s pod it is root on that node. create on pods/exec or pods/attach grants it, and so ' +
    'does get: the API server authorizes a WebSocket exec as get before Kubernetes 1.35, and on 1.35 and later ' +
    'while the AuthorizePodWebsocketUpgradeCreatePermission feature gate is off. Critical cluster-wide, in ' +
    'kube-system and in namespaces whose Pod Security the manifests do not restrict; high in a namespace a ' +
    'Namespace among the manifests labels to enforce baseline or restricted, or when resourceNames limits it to ' +
    'named pods. pods/portforward alone is high: it reaches what the pods listen on (the node\'s own ports for a ' +
    'hostNetwork pod).' + RBAC_SCOPE;
  public readonly fix = 'remove pods/exec, pods/attach and pods/portforward from the agent\'s roles: a node agent acts on its own node ' +
    'through its own process';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return rbacViolations(workload, this.id);
  }
}
