import { containersOf } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

const RUN_TO_COMPLETION = ['Job', 'CronJob'];

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * `NA-PROBES`: every long-running container has a liveness and a readiness probe.
 *
 * Jobs, CronJobs and Pods with `restartPolicy` Never or OnFailure run to completion: the rule does not apply to them.
 */
export class ProbesRule implements IReviewRule {
  public readonly id = 'NA-PROBES';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'Long-running containers have liveness and readiness probes';
  public readonly explanation = 'An agent that hangs keeps running without a liveness probe: logs stop being shipped or metrics stop being ' +
    'scraped on that node, silently. Without a readiness probe a RollingUpdate counts a pod as available as soon as it starts, so a broken ' +
    'version rolls across every node before anyone notices.';
  public readonly fix = 'add a livenessProbe and a readinessProbe, usually httpGet on the agent\'s health endpoint (e.g. /healthz on a ' +
    'dedicated port); add a startupProbe if the agent starts slowly';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    if (RUN_TO_COMPLETION.includes(workload.kind)) return [];
    if (workload.kind === 'Pod' && ['Never', 'OnFailure'].includes(workload.podSpec.restartPolicy)) return [];
    const violations: RuleViolation[] = [];
    for (const c of containersOf(workload, ['containers'])) {
      const missing: string[] = [];
      if (!isSet(c.container.livenessProbe)) missing.push('livenessProbe');
      if (!isSet(c.container.readinessProbe)) missing.push('readinessProbe');
      if (missing.length === 0) continue;
      violations.push({ message: `has no ${missing.join(' and no ')}`, container: c.name, field: `${c.path}.${missing[0]}` });
    }
    return violations;
  }
}
