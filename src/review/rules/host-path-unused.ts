import { HostAccessType } from '../../model';
import { hostPathDetail } from '../../model/_host-privileges';
import { hostPathVolumes } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-HOSTPATH-UNUSED`: every hostPath volume is mounted by a container.
 *
 * Part of the node-agent baseline, only the host paths needed: a hostPath volume no container mounts is not needed.
 */
export class HostPathUnusedRule implements IReviewRule {
  public readonly id = 'NA-HOSTPATH-UNUSED';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'Only host paths a container mounts are declared';
  public readonly explanation = 'A hostPath volume that no container mounts is not needed, yet it is still a grant: any container added later ' +
    '(an ephemeral debug container, a sidecar patched in) can mount it, read-write, and Pod Security admission still counts it.';
  public readonly fix = 'remove the volume, or mount it read-only in the container that needs it';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return hostPathVolumes(workload)
      .filter((v) => v.mounts.length === 0)
      .map((v) => ({
        message: `declares hostPath volume ${JSON.stringify(v.name)} (${v.path}) that no container mounts`,
        field: v.field,
        // no container mounts it: HostAccess lists it read-write (any container added later may mount it so)
        cause: { type: HostAccessType.HOST_PATH, detail: hostPathDetail(v.path, false) },
      }));
  }
}
