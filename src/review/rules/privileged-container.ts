import { HostAccessType } from '../../model';
import { containersOf } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-PRIVILEGED`: no container sets `securityContext.privileged: true`.
 *
 * Part of the node-agent baseline: a privileged container is root on the node, where a few capabilities usually do.
 */
export class PrivilegedContainerRule implements IReviewRule {
  public readonly id = 'NA-PRIVILEGED';
  public readonly severity = Severity.CRITICAL;
  public readonly title = 'Containers are not privileged; capabilities are added instead';
  public readonly explanation = 'A privileged container has every capability, every host device and no seccomp or AppArmor confinement: ' +
    'it is root on the node. Almost every agent needs only a few capabilities (NET_ADMIN for a network agent, BPF and PERFMON for an ' +
    'eBPF agent) and a few host paths.';
  public readonly fix = 'remove privileged: true; drop ALL capabilities and add only those the agent needs, each with a reason (as root: a ' +
    'non-root process gets none of them), and mount only the host paths it needs, read-only';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return containersOf(workload)
      .filter((c) => c.sc.privileged === true)
      .map((c) => ({
        message: 'is privileged (securityContext.privileged: true): every capability and device of the node, no confinement',
        container: c.name,
        field: `${c.path}.securityContext.privileged`,
        privileges: [{ type: HostAccessType.PRIVILEGED, detail: c.name, container: c.name }],
        cause: { type: HostAccessType.PRIVILEGED, detail: c.name, container: c.name },
      }));
  }
}
