import { HostAccess, HostAccessType } from '../../model';
import { stringItems } from '../../model/_pod-spec';
import { containersOf, isWindows, obj } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-PRIVILEGE-ESCALATION`: every container of a Linux pod sets `securityContext.allowPrivilegeEscalation: false`.
 *
 * A privileged container, and one that adds SYS_ADMIN, can escalate whatever the setting says, and the API server
 * rejects `allowPrivilegeEscalation: false` beside `privileged: true` (and beside a capability written `CAP_SYS_ADMIN`):
 * their finding says so and gives no such fix, and joins the NA-PRIVILEGED or NA-CAPABILITIES finding of the container
 * (one cause, one finding). Windows pods are not checked: the setting does not exist there, and with `spec.os.name:
 * windows` the API server rejects it.
 */
export class PrivilegeEscalationRule implements IReviewRule {
  public readonly id = 'NA-PRIVILEGE-ESCALATION';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'Containers set allowPrivilegeEscalation: false';
  public readonly explanation = 'Unless allowPrivilegeEscalation is false, a process in the container can gain more privileges than its ' +
    'parent through setuid binaries and file capabilities (no_new_privs is off): a non-root agent can become root again. Node agents ' +
    'get the capabilities they need at start; they never need to gain more. A privileged container, or one with SYS_ADMIN, has those ' +
    'privileges already: the API server rejects the setting beside privileged: true, so the finding asks for no fix there and joins the ' +
    'container\'s NA-PRIVILEGED or NA-CAPABILITIES finding. Windows pods have no such setting and are not checked.';
  public readonly fix = 'set securityContext.allowPrivilegeEscalation: false on every container';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    if (isWindows(workload)) return [];
    const violations: RuleViolation[] = [];
    for (const c of containersOf(workload).filter((ref) => ref.sc.allowPrivilegeEscalation !== false)) {
      const field = `${c.path}.securityContext.allowPrivilegeEscalation`;
      const setting = c.sc.allowPrivilegeEscalation === true ? 'sets allowPrivilegeEscalation: true' : 'does not set allowPrivilegeEscalation: false';
      if (c.sc.privileged === true) {
        violations.push({
          message: `${setting}, and no setting can stop a privileged container from escalating: it has every privilege already, and the API ` +
            'server rejects allowPrivilegeEscalation: false beside privileged: true',
          container: c.name,
          field,
          fix: 'no fix on this container while it is privileged: drop privileged: true and add only the capabilities the agent needs, then set ' +
            'allowPrivilegeEscalation: false',
          cause: { type: HostAccessType.PRIVILEGED, detail: c.name, container: c.name },
        });
        continue;
      }
      const caps = obj(c.sc.capabilities, `${c.path}.securityContext.capabilities`);
      const sysAdmin = stringItems(caps.add, `${c.path}.securityContext.capabilities.add`).some((cap) => HostAccess.normalizeCapability(cap) === 'SYS_ADMIN');
      if (sysAdmin) {
        violations.push({
          message: `${setting}; beside SYS_ADMIN the setting changes little (the capability mounts and unshares at will), and the API server ` +
            'rejects allowPrivilegeEscalation: false beside the capability written CAP_SYS_ADMIN',
          container: c.name,
          field,
          fix: 'drop SYS_ADMIN for the narrower capability the agent needs (BPF, PERFMON, NET_ADMIN, SYS_PTRACE), then set allowPrivilegeEscalation: false',
          cause: { type: HostAccessType.CAPABILITY, detail: 'SYS_ADMIN', container: c.name },
        });
        continue;
      }
      violations.push({ message: setting, container: c.name, field });
    }
    return violations;
  }
}
