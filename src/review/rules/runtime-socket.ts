import { HostAccessType, HostRisk } from '../../model';
import { aliasRun, hostPathVolumes, isWithin } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

function isPipe(path: string): boolean {
  return path.startsWith('\\\\.\\pipe\\') || path.startsWith('//./pipe/');
}

function pipeKey(path: string): string {
  return path.replace(/\//g, '\\').toLowerCase();
}

/**
 * `NA-RUNTIME-SOCKET`: no hostPath volume reaches a container runtime socket (containerd, Docker, CRI-O, Podman, k3s,
 * MicroK8s, cri-dockerd, dockershim, or the Windows named pipes): neither the socket itself nor a directory that contains
 * it (`/run`, `/var/run`, `/run/containerd`, `/`).
 *
 * The sockets are the ones the risk catalogue (`HostRisk.knownPaths()`) lists as `.sock` files and named pipes.
 */
export class RuntimeSocketRule implements IReviewRule {
  /** the container runtime sockets the rule looks for, from the risk catalogue. */
  public static sockets(): string[] {
    return HostRisk.knownPaths().filter((p) => p.endsWith('.sock') || (isPipe(p) && /containerd|docker/.test(p)));
  }

  public readonly id = 'NA-RUNTIME-SOCKET';
  public readonly severity = Severity.CRITICAL;
  public readonly title = 'No container runtime socket is mounted';
  public readonly explanation = 'Whoever can talk to the container runtime\'s socket can start a privileged container with the node\'s ' +
    'root filesystem mounted: root on the node. A read-only mount does not help, because connecting to a socket is not a write. ' +
    'Mounting a directory that contains the socket (/run, /var/run, /) gives the same access.';
  public readonly fix = 'do not mount the runtime socket: read container logs from /var/log/pods read-only, and container metadata from ' +
    'the kubelet or the API server with a ServiceAccount limited by RBAC';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const sockets = RuntimeSocketRule.sockets();
    const violations: RuleViolation[] = [];
    for (const volume of hostPathVolumes(workload)) {
      let reached: string[];
      if (isPipe(volume.path)) {
        reached = sockets.filter((s) => isPipe(s) && pipeKey(s) === pipeKey(volume.path));
      } else {
        const path = aliasRun(volume.path);
        reached = path.startsWith('/') ? sockets.filter((s) => s.startsWith('/') && isWithin(s, path)) : [];
      }
      if (reached.length === 0) continue;
      const exact = isPipe(volume.path) || (reached.length === 1 && reached[0] === aliasRun(volume.path));
      const what = exact
        ? `the container runtime socket ${volume.path}`
        : `${volume.path}, which contains the container runtime ${reached.length === 1 ? 'socket' : 'sockets'} ${reached.join(', ')}`;
      const names = [...new Set(volume.mounts.map((m) => m.container.name))];
      const readOnly = volume.mounts.length > 0 && volume.mounts.every((m) => m.readOnly);
      violations.push({
        message: `mounts ${what} (volume ${JSON.stringify(volume.name)}${readOnly ? ', read-only, which does not stop a connection' : ''})`,
        container: names.length === 1 ? names[0] : undefined,
        field: `${volume.field}.hostPath.path`,
        privileges: [{ type: HostAccessType.HOST_PATH, detail: `${volume.path} (${readOnly ? 'read-only' : 'read-write'})` }],
      });
    }
    return violations;
  }
}
