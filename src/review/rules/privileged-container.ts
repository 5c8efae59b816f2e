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
        message: 'is privileged (securityContext.privileged: true): every capability and device of the node, no confinement' + inertDrop(c.sc),
        container: c.name,
        field: `${c.path}.securityContext.privileged`,
        privileges: [{ type: HostAccessType.PRIVILEGED, detail: c.name, container: c.name }],
        cause: { type: HostAccessType.PRIVILEGED, detail: c.name, container: c.name },
      }));
  }
}

/**
 * What a privileged container's `capabilities.drop` leaves out: nothing. The runtime gives a privileged container the
 * whole capability set and ignores the list (containerd's CRI applies add/drop only when the container is not
 * privileged; on the real node, a privileged container with `drop: [ALL]` had SYS_ADMIN), so a reader who sees
 * `drop: [ALL]` next to `privileged: true` must not take it for a restriction.
 */
function inertDrop(sc: any): string {
  const drop = sc?.capabilities?.drop;
  if (!Array.isArray(drop) || drop.length === 0) return '';
  return `; its capabilities.drop (${drop.map((d: unknown) => String(d)).join(', ')}) has no effect: the runtime ignores it for a privileged container`;
}
