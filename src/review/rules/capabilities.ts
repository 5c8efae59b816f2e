import { HostAccess, HostAccessType, HostRisk, RiskLevel } from '../../model';
import { stringItems } from '../../model/_pod-spec';
import { containersOf, hostNamespacesOf, obj } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severities, Severity } from '../severity';

/**
 * `NA-CAPABILITIES`: no container adds a capability that the risk catalogue (`HostRisk`) rates above low in this pod.
 * Each finding's severity is the capability's risk, given the host namespaces the pod shares: critical for SYS_ADMIN,
 * SYS_MODULE, ALL and the like; high for NET_ADMIN, BPF, NET_RAW with hostNetwork, SYS_PTRACE with hostPID; medium for
 * NET_RAW without hostNetwork, SYS_PTRACE without hostPID, PERFMON.
 */
export class CapabilitiesRule implements IReviewRule {
  public readonly id = 'NA-CAPABILITIES';
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'Added capabilities are low-risk';
  public readonly explanation = 'Each added capability is a piece of root. The low-risk ones (the container runtime\'s defaults such as ' +
    'CHOWN or NET_BIND_SERVICE) change little; the others let an attacker in the container reconfigure the node\'s network (NET_ADMIN), ' +
    'trace other processes (SYS_PTRACE), load BPF programs, or escape outright (SYS_ADMIN, SYS_MODULE). Even when the agent needs one, ' +
    'the finding stays worth a recorded acknowledgement. The severity of each finding is the capability\'s risk in this pod: what NET_RAW ' +
    'and NET_ADMIN reach depends on hostNetwork, what SYS_PTRACE reaches on hostPID.';
  public readonly fix = 'drop the capability if the agent can work without it; otherwise acknowledge the finding with the reason the agent ' +
    'needs it, and keep capabilities.drop: [ALL] so that nothing else is granted';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const violations: RuleViolation[] = [];
    const namespaces = hostNamespacesOf(workload);
    for (const c of containersOf(workload)) {
      const caps = obj(c.sc.capabilities, `${c.path}.securityContext.capabilities`);
      const seen = new Set<string>();
      stringItems(caps.add, `${c.path}.securityContext.capabilities.add`).forEach((raw, i) => {
        // an empty name (`add: [null]` is stored as [""]) adds no capability, as the host privileges say
        if (raw.trim() === '') return;
        const name = HostAccess.normalizeCapability(raw);
        if (seen.has(name)) return;
        seen.add(name);
        const risk = HostRisk.forCapability(name, namespaces);
        if (risk.risk === RiskLevel.LOW) return;
        violations.push({
          message: `adds capability ${name} (risk ${risk.risk}): ${risk.attackerGains.replace(/^[A-Z0-9_]+: /, '')}`,
          container: c.name,
          field: `${c.path}.securityContext.capabilities.add[${i}]`,
          severity: Severities.ofRisk(risk.risk),
          fix: risk.saferAlternative,
          privileges: [{ type: HostAccessType.CAPABILITY, detail: name, container: c.name }],
          cause: { type: HostAccessType.CAPABILITY, detail: name, container: c.name },
        });
      });
    }
    return violations;
  }
}
