import { HostAccessType, HostRisk, RiskLevel } from '../../model';
import { hostPathVolumes } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severities, Severity } from '../severity';

/**
 * `NA-HOSTPATH-SENSITIVE`: no host path that the risk catalogue (`HostRisk`) rates high or critical to write is mounted
 * read-write. Each finding's severity is the path's risk: critical for `/`, `/etc`, `/var/lib/kubelet`, `/proc` and the
 * like, high for `/var/log`, `/var/lib` and paths the catalogue does not know.
 */
export class HostPathSensitiveRule implements IReviewRule {
  public readonly id = 'NA-HOSTPATH-SENSITIVE';
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'No sensitive host path is mounted writable';
  public readonly explanation = 'Some host paths are root on the node when writable: /etc (users, sudoers, systemd units), / (everything), ' +
    '/var/lib/kubelet (other pods\' volumes and the kubelet\'s credentials), /opt/cni/bin (binaries run as root for every new pod). ' +
    'Others give an attacker a strong foothold: /var/log (forge logs, plant symlinks the kubelet follows). The severity of each finding ' +
    'is the catalogue\'s risk for writing the path: critical or high.';
  public readonly fix = 'mount the path read-only; if the agent must write, give it a directory of its own (e.g. /var/lib/<agent>) instead';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const violations: RuleViolation[] = [];
    for (const volume of hostPathVolumes(workload)) {
      const writable = volume.mounts.filter((m) => !m.readOnly);
      if (writable.length === 0) continue;
      const risk = HostRisk.forPath(volume.path, false);
      if (HostRisk.rank(risk.risk) < HostRisk.rank(RiskLevel.HIGH)) continue;
      for (const mount of writable) {
        violations.push({
          message: `mounts host path ${volume.path} read-write at ${mount.mountPath}, which is ${risk.risk} risk: ${risk.attackerGains}`,
          container: mount.container.name,
          field: `${mount.path}.readOnly`,
          severity: Severities.ofRisk(risk.risk),
          fix: risk.saferAlternative,
          privileges: [{ type: HostAccessType.HOST_PATH, detail: `${volume.path} (read-write)` }],
        });
      }
    }
    return violations;
  }
}
