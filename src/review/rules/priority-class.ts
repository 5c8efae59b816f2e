import { list, podField } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/** whether the tolerations tolerate every taint: a key-less Exists toleration for every effect, or for both blocking ones. */
function toleratesEverything(tolerations: any[]): boolean {
  const wildcard = tolerations.filter((t) => t && typeof t === 'object' && (t.key === undefined || t.key === null || t.key === '') && t.operator === 'Exists');
  const effects = new Set(wildcard.map((t) => (t.effect === undefined || t.effect === null || t.effect === '' ? '*' : String(t.effect))));
  return effects.has('*') || (effects.has('NoSchedule') && effects.has('NoExecute'));
}

/**
 * `NA-PRIORITY-CLASS`: a node-critical agent (one that tolerates every taint, or uses hostNetwork) sets a `priorityClassName`.
 */
export class PriorityClassRule implements IReviewRule {
  public readonly id = 'NA-PRIORITY-CLASS';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'Node-critical agents set a priorityClassName';
  public readonly explanation = 'An agent that tolerates every taint or uses the host network is one the node cannot do without (CNI, ' +
    'kube-proxy, CSI node plugins, node monitoring). Without a priority class its pod has priority 0: on a full node it stays Pending, ' +
    'since the scheduler does not preempt for it, and under pressure it is evicted before the workloads that depend on it.';
  public readonly fix = 'set the pod spec\'s priorityClassName to system-node-critical (node infrastructure) or to a priority class of ' +
    'your own above your workloads\'; acknowledge the finding if the agent may wait for room';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const spec = workload.podSpec;
    if (typeof spec.priorityClassName === 'string' && spec.priorityClassName !== '') return [];
    const why: string[] = [];
    if (toleratesEverything(list(spec.tolerations, podField(workload, 'tolerations')))) why.push('tolerates every taint');
    if (spec.hostNetwork === true) why.push('uses hostNetwork');
    if (why.length === 0) return [];
    return [{
      message: `${why.join(' and ')}, so it is node-critical, but sets no priorityClassName (it gets priority 0)`,
      field: podField(workload, 'priorityClassName'),
    }];
  }
}
