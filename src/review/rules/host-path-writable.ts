import { HostAccessType } from '../../model';
import { hostPathVolumes } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-HOSTPATH-WRITABLE`: every container mounts every host path read-only (`readOnly: true`).
 *
 * Part of the node-agent baseline: an agent that only reads the host needs no write access to it.
 */
export class HostPathWritableRule implements IReviewRule {
  public readonly id = 'NA-HOSTPATH-WRITABLE';
  public readonly severity = Severity.HIGH;
  public readonly title = 'Host paths are mounted read-only';
  public readonly explanation = 'A writable host path lets an attacker in the container change files the node and other pods rely on: ' +
    'erase logs, plant symlinks, replace binaries or configuration. Agents that only read (log collectors, monitors) need no write access; ' +
    'an agent that keeps state needs a directory of its own, not a shared one.';
  public readonly fix = 'set readOnly: true on the volumeMount; if the agent must write (read positions, buffers), mount a directory of its own ' +
    '(e.g. /var/lib/<agent>, type DirectoryOrCreate) read-write and everything else read-only';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const violations: RuleViolation[] = [];
    for (const volume of hostPathVolumes(workload)) {
      for (const mount of volume.mounts) {
        if (mount.readOnly) continue;
        violations.push({
          message: `mounts host path ${volume.path} (volume ${JSON.stringify(volume.name)}) read-write at ${mount.mountPath}`,
          container: mount.container.name,
          field: `${mount.path}.readOnly`,
          privileges: [{ type: HostAccessType.HOST_PATH, detail: `${volume.path} (read-write)` }],
        });
      }
    }
    return violations;
  }
}
