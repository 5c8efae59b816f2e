import { containersOf } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-PRIVILEGE-ESCALATION`: every container sets `securityContext.allowPrivilegeEscalation: false`.
 */
export class PrivilegeEscalationRule implements IReviewRule {
  public readonly id = 'NA-PRIVILEGE-ESCALATION';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'Containers set allowPrivilegeEscalation: false';
  public readonly explanation = 'Unless allowPrivilegeEscalation is false, a process in the container can gain more privileges than its ' +
    'parent through setuid binaries and file capabilities (no_new_privs is off): a non-root agent can become root again. Node agents ' +
    'get the capabilities they need at start; they never need to gain more.';
  public readonly fix = 'set securityContext.allowPrivilegeEscalation: false on every container';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return containersOf(workload)
      .filter((c) => c.sc.allowPrivilegeEscalation !== false)
      .map((c) => ({
        message: c.sc.allowPrivilegeEscalation === true ? 'sets allowPrivilegeEscalation: true'
          : 'does not set allowPrivilegeEscalation: false',
        container: c.name,
        field: `${c.path}.securityContext.allowPrivilegeEscalation`,
      }));
  }
}
