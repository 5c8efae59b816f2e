import { rbacViolations } from '../_rbac-findings';
import { RULE_WORKLOADS } from '../_rbac-rights';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';
import { RBAC_SCOPE } from './_rbac-scope';

/**
 * `NA-RBAC-WORKLOADS`: the workload's ServiceAccount cannot create or change pods or workloads (create, update, patch on pods, replicationcontrollers, deployments, daemonsets, statefulsets, replicasets, jobs, cronjobs; update, patch on pods/ephemeralcontainers).
 */
export class RbacWorkloadsRule implements IReviewRule {
  public readonly id = RULE_WORKLOADS;
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'The workload\'s ServiceAccount cannot create or change pods and workloads';
  public readonly explanation = 'Whoever creates or changes a pod chooses what it runs and what it takes from the host: a pod with privileged: ' +
    'true or a hostPath / is root on any node it selects, and a node agent\'s namespace admits such pods by design. ' +
    'Critical cluster-wide, in kube-system and in namespaces whose Pod Security the manifests do not restrict; high ' +
    'in a namespace a Namespace among the manifests labels to enforce baseline or restricted. Limited by ' +
    'resourceNames to named objects (an agent that updates its own DaemonSet) it is high: it can still rewrite ' +
    'their pod template, which runs on every node they select. create cannot be limited by name: a rule with ' +
    'resourceNames grants no create. delete is not reported: it denies service, it does not take control.' + RBAC_SCOPE;
  public readonly fix = 'remove create, update and patch on pods and workload kinds from the agent\'s roles: a node agent is deployed ' +
    'by its DaemonSet and needs none';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return rbacViolations(workload, this.id);
  }
}
