import { HostAccessType, HostRisk } from '../../model';
import { runtimeSockets, runtimeSocketsReached } from '../../model/_risk-assessors';
import { aliasRun, hostPathVolumes } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

function isPipe(path: string): boolean {
  return path.startsWith('\\\\.\\pipe\\') || path.startsWith('//./pipe/');
}

/**
 * `NA-RUNTIME-SOCKET`: no hostPath volume reaches a container runtime socket: neither the socket itself nor a
 * directory that contains it (`/run`, `/var/run`, `/run/containerd`, `/`).
 *
 * The sockets are recognised by their host path, wherever the mount puts them in the container: the risk catalogue's
 * sockets (containerd, k3s and RKE2, k0s, Bottlerocket's host containerd, MicroK8s, CRI-O, Docker Engine and its
 * containerd, cri-dockerd, dockershim, Podman, and the Windows named pipes), and any file named like one
 * (`containerd.sock`, `docker.sock`, `crio.sock`, `cri-dockerd.sock`, `dockershim.sock`, `podman.sock`).
 */
export class RuntimeSocketRule implements IReviewRule {
  /** the container runtime sockets the rule knows by path, from the risk catalogue. */
  public static sockets(): string[] {
    return runtimeSockets();
  }

  public readonly id = 'NA-RUNTIME-SOCKET';
  public readonly severity = Severity.CRITICAL;
  public readonly title = 'No container runtime socket is mounted';
  public readonly explanation = 'Whoever can talk to the container runtime\'s socket can start a privileged container with the node\'s ' +
    'root filesystem mounted: root on the node. A read-only mount does not help, because connecting to a socket is not a write. ' +
    'Mounting a directory that contains the socket (/run, /var/run, /run/containerd, /) gives the same access. The socket is recognised ' +
    'by its host path wherever the big runtimes put it (containerd, k3s and RKE2, k0s, Bottlerocket\'s host containerd, MicroK8s, CRI-O, ' +
    'Docker Engine, cri-dockerd, Podman, the Windows named pipes), and by its file name anywhere else.';
  public readonly fix = 'do not mount the runtime socket: read container logs from /var/log/pods read-only, and container metadata from ' +
    'the kubelet or the API server with a ServiceAccount limited by RBAC';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const violations: RuleViolation[] = [];
    for (const volume of hostPathVolumes(workload)) {
      const reached = runtimeSocketsReached(volume.path);
      if (reached.length === 0) continue;
      const exact = isPipe(volume.path) || (reached.length === 1 && reached[0] === aliasRun(volume.path));
      const what = exact
        ? `the container runtime socket ${volume.path}`
        : `${volume.path}, which contains the container runtime ${reached.length === 1 ? 'socket' : 'sockets'} ${reached.join(', ')}`;
      const names = [...new Set(volume.mounts.map((m) => m.container.name))];
      const readOnly = volume.mounts.length > 0 && volume.mounts.every((m) => m.readOnly);
      const detail = `${volume.path} (${readOnly ? 'read-only' : 'read-write'})`;
      // what the socket gives, in the catalogue's words for the socket itself (or the first one the directory holds)
      const gains = HostRisk.forPath(exact ? volume.path : reached[0], true).attackerGains;
      violations.push({
        message: `mounts ${what} (volume ${JSON.stringify(volume.name)}${readOnly ? ', read-only, which does not stop a connection' : ''}): ${gains}`,
        container: names.length === 1 ? names[0] : undefined,
        field: `${volume.field}.hostPath.path`,
        privileges: [{ type: HostAccessType.HOST_PATH, detail }],
        cause: { type: HostAccessType.HOST_PATH, detail },
      });
    }
    return violations;
  }
}
