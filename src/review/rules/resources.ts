import { containersOf, obj, RUNNING_LISTS } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/**
 * `NA-RESOURCES`: every container (init containers included) requests CPU and memory and limits memory.
 *
 * A request the API server fills in from the limit (a limit without a request) counts as a request.
 */
export class ResourcesRule implements IReviewRule {
  public readonly id = 'NA-RESOURCES';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'Containers request CPU and memory and limit memory';
  public readonly explanation = 'A DaemonSet pod shares every node with the workloads the node exists for. Without requests the scheduler ' +
    'does not reserve room for it, and under pressure it is among the first evicted (BestEffort); without a memory limit a leak in the ' +
    'agent takes memory from every pod on every node at once.';
  public readonly fix = 'set resources.requests.cpu, resources.requests.memory and resources.limits.memory from the agent\'s measured use ' +
    '(a CPU limit is optional: it throttles the agent under load)';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const violations: RuleViolation[] = [];
    for (const c of containersOf(workload, RUNNING_LISTS)) {
      const resources = obj(c.container.resources, `${c.path}.resources`);
      const requests = obj(resources.requests, `${c.path}.resources.requests`);
      const limits = obj(resources.limits, `${c.path}.resources.limits`);
      const missing: string[] = [];
      if (!isSet(requests.cpu) && !isSet(limits.cpu)) missing.push('requests.cpu');
      if (!isSet(requests.memory) && !isSet(limits.memory)) missing.push('requests.memory');
      if (!isSet(limits.memory)) missing.push('limits.memory');
      if (missing.length === 0) continue;
      violations.push({ message: `sets no resources ${missing.join(', ')}`, container: c.name, field: `${c.path}.resources` });
    }
    return violations;
  }
}
