import { containersOf, podField, podSecurityContext } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-ROOT-GROUP`: no container runs with the root group: `runAsGroup: 0` (its own or the pod's), and the pod sets no
 * `fsGroup: 0` and no `supplementalGroups` with 0. Windows pods are not checked (they have no Linux groups).
 */
export class RootGroupRule implements IReviewRule {
  public readonly id = 'NA-ROOT-GROUP';
  public readonly severity = Severity.LOW;
  public readonly title = 'Containers do not run with the root group';
  public readonly explanation = 'Group 0 can read and write whatever the root group may on the container\'s files and on every host ' +
    'mount (many host files are group-root readable), even when the user is not root. It is rarely needed by an agent.';
  public readonly fix = 'set a non-zero runAsGroup and fsGroup (e.g. the agent\'s own GID), and leave 0 out of supplementalGroups';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    if (workload.podSpec.os?.name === 'windows') return [];
    const pod = podSecurityContext(workload);
    const violations: RuleViolation[] = [];
    if (pod.fsGroup !== undefined && pod.fsGroup !== null && Number(pod.fsGroup) === 0) {
      violations.push({ message: 'sets fsGroup: 0: every container gets the root group for the pod\'s volumes', field: podField(workload, 'securityContext.fsGroup') });
    }
    if (Array.isArray(pod.supplementalGroups) && pod.supplementalGroups.some((g: unknown) => Number(g) === 0)) {
      violations.push({ message: 'adds group 0 (root) to every container with supplementalGroups', field: podField(workload, 'securityContext.supplementalGroups') });
    }
    for (const c of containersOf(workload)) {
      const own = c.sc.runAsGroup;
      const group = own ?? pod.runAsGroup;
      if (group === undefined || group === null || Number(group) !== 0) continue;
      violations.push({
        message: 'runs with group 0 (runAsGroup: 0)',
        container: c.name,
        field: own !== undefined && own !== null ? `${c.path}.securityContext.runAsGroup` : podField(workload, 'securityContext.runAsGroup'),
      });
    }
    return violations;
  }
}
