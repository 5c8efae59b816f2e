import { HostAccessType, HostRisk } from '../../model';
import { hostPathVolumes, runsToCompletion } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severities, Severity } from '../severity';

/**
 * `NA-HOSTPATH-WRITABLE`: every container mounts every host path read-only (`readOnly: true`). Each finding's severity
 * is the catalogue's risk (`HostRisk`) for writing that path: low for the shared iptables lock, medium for an agent's own
 * state directory, high for /var/log, critical for /etc or /opt/cni/bin.
 *
 * Part of the node-agent baseline: an agent that only reads the host needs no write access to it.
 */
export class HostPathWritableRule implements IReviewRule {
  public readonly id = 'NA-HOSTPATH-WRITABLE';
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'Host paths are mounted read-only';
  public readonly explanation = 'A writable host path lets an attacker in the container change files the node and other pods rely on: ' +
    'erase logs, plant symlinks, replace binaries or configuration. Agents that only read (log collectors, monitors) need no write access; ' +
    'an agent that keeps state needs a directory of its own, not a shared one. The severity of each finding is the risk of writing that ' +
    'path: an agent\'s own state directory is medium, /var/log high, /etc critical. A reason recorded for the mount accepts findings below critical.';
  public readonly fix = 'set readOnly: true on the volumeMount; if the agent must write (read positions, buffers), mount a directory of its own ' +
    '(e.g. /var/lib/<agent>, type DirectoryOrCreate) read-write and everything else read-only';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const violations: RuleViolation[] = [];
    for (const volume of hostPathVolumes(workload)) {
      for (const mount of volume.mounts) {
        if (mount.readOnly) continue;
        const detail = `${volume.path} (read-write)`;
        const risk = HostRisk.assess({
          type: HostAccessType.HOST_PATH,
          detail,
          path: volume.path,
          readOnly: false,
          hostPathType: volume.type,
          onlyInitContainers: runsToCompletion(mount.container) || undefined,
          mountPropagation: mount.propagation,
        });
        violations.push({
          message: `mounts host path ${volume.path} (volume ${JSON.stringify(volume.name)}) read-write at ${mount.mountPath}, which is ${risk.risk} risk: ` +
            risk.attackerGains,
          container: mount.container.name,
          field: `${mount.path}.readOnly`,
          severity: Severities.ofRisk(risk.risk),
          fix: `set readOnly: true if the agent only reads it; otherwise ${risk.saferAlternative}`,
          privileges: [{ type: HostAccessType.HOST_PATH, detail }],
          cause: { type: HostAccessType.HOST_PATH, detail },
        });
      }
    }
    return violations;
  }
}
