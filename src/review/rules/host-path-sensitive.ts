import { HostAccessType, HostRisk, RiskLevel } from '../../model';
import { hostPathVolumes, runsToCompletion } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severities, Severity } from '../severity';

/**
 * `NA-HOSTPATH-SENSITIVE`: no container mounts a host path that the risk catalogue (`HostRisk`) rates high or critical
 * for the way it is mounted: writable or read-only. Each finding's severity is that risk. Read-only: critical for `/`,
 * `/etc` and `/etc/kubernetes` (kubeconfigs, on control-plane nodes the cluster CA key), `/var/lib` (it holds
 * `/var/lib/etcd`); high for `/var/lib/kubelet`, `/proc`, `/dev`, `/root`, `/home` and the container runtimes' storage.
 * Writable: critical for `/`, `/etc`, `/var/lib/kubelet`, `/proc`, `/opt/cni/bin`; high for `/var/log` and the like.
 *
 * A reason recorded for the mount does not accept these findings: they need an explicit acknowledgement, whatever
 * their severity, because the path holds what an attacker wants whatever the agent needs it for.
 */
export class HostPathSensitiveRule implements IReviewRule {
  public readonly id = 'NA-HOSTPATH-SENSITIVE';
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'No sensitive host path is mounted, even read-only';
  public readonly explanation = 'Some host paths are root on the node or control of the cluster even read-only: / and /etc/kubernetes hold ' +
    'the kubelet\'s kubeconfig and, on control-plane nodes, admin.conf and the cluster CA key; /var/lib/kubelet every pod\'s Secrets and ' +
    'service account tokens; /proc every process\'s command line; a container runtime\'s storage every container\'s files. Writable, more ' +
    'paths are: /etc (users, sudoers, systemd units), /opt/cni/bin (binaries run as root for every new pod), /var/log (forge logs, plant ' +
    'symlinks the kubelet follows). The severity of each finding is the catalogue\'s risk for the path as it is mounted, high or critical; ' +
    '/sys and /boot read-only are medium (hardware and kernel information, no secrets) and not reported. A reason recorded for the mount ' +
    'does not accept the finding: acknowledge it explicitly.';
  public readonly fix = 'mount a narrower path (the one file or directory the agent needs), read-only; if the agent needs the path, ' +
    'acknowledge the finding with the reason';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const violations: RuleViolation[] = [];
    for (const volume of hostPathVolumes(workload)) {
      for (const mount of volume.mounts) {
        const risk = HostRisk.assess({
          type: HostAccessType.HOST_PATH,
          detail: `${volume.path} (${mount.readOnly ? 'read-only' : 'read-write'})`,
          path: volume.path,
          readOnly: mount.readOnly,
          hostPathType: volume.type,
          onlyInitContainers: runsToCompletion(mount.container) || undefined,
          mountPropagation: mount.propagation,
        });
        if (HostRisk.rank(risk.risk) < HostRisk.rank(RiskLevel.HIGH)) continue;
        const mode = mount.readOnly ? 'read-only' : 'read-write';
        violations.push({
          message: `mounts host path ${volume.path} ${mode} at ${mount.mountPath}, which is ${risk.risk} risk: ${risk.attackerGains}`,
          container: mount.container.name,
          field: mount.readOnly ? `${volume.field}.hostPath.path` : `${mount.path}.readOnly`,
          severity: Severities.ofRisk(risk.risk),
          fix: `${risk.saferAlternative}; if the agent needs it, acknowledge ${this.id} with the reason (a host-access reason does not accept it)`,
          // no privileges: a recorded reason does not accept it
          cause: { type: HostAccessType.HOST_PATH, detail: `${volume.path} (${mode})` },
        });
      }
    }
    return violations;
  }
}
