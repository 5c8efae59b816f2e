import { capabilityDetail, HOST_PRIVILEGES } from './_host-privileges';
import { normalizeHostPath } from './_paths';
import { containersOf, isWindowsPod, podSecurityContext, podTemplateOf, requirePodSpec } from './_pod-spec';
import { HostAccessItem } from './host-access-item';
import { HostAccessType } from './host-access-type';

const TYPE_ORDER: HostAccessType[] = Object.values(HostAccessType);

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareItems(a: HostAccessItem, b: HostAccessItem): number {
  return TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type)
    || compareStrings(a.detail, b.detail)
    || compareStrings(a.container ?? '', b.container ?? '');
}

/**
 * Lists the host privileges a pod takes, one item each, in a deterministic order
 * (by type in `HostAccessType` order, then detail, then container).
 *
 * Rules:
 * - **hostPath**: one item per normalised host path, whatever the number of volumes pointing at it. The path is
 *   read-write when any container (init, regular or ephemeral) mounts it without `readOnly: true`. A hostPath volume that
 *   no container mounts still counts, as read-write: any container added later (an ephemeral debug container, say) may
 *   mount it, and nothing in the spec limits that mount to read-only. A `subPath` does not narrow the path reported.
 * - **hostNetwork**, **hostPID**, **hostIPC**: one item each when `true`.
 * - **hostPort**: one item per container, port and protocol (`TCP` when unset) with a non-zero `hostPort`; with
 *   `hostNetwork: true`, also one per other container port (`viaHostNetwork`), since on the host network every container
 *   port is a port of the node. Such a port needs no reason of its own: the hostNetwork's explains it.
 * - **privileged**: one item per container with `securityContext.privileged: true`.
 * - **hostProcess**: one item per Windows HostProcess container (`securityContext.windowsOptions.hostProcess: true`, the
 *   container's or, when it sets none, the pod's), with the user it runs as (`runAsUserName`).
 * - **capability**: one item per container and added capability, named in upper case without `CAP_`
 *   (container runtimes accept `CAP_NET_ADMIN` and `net_admin` alike); `ALL` is reported as `ALL`.
 * - **runAsRoot**: one item per container whose effective `runAsUser` (the container's, else the pod's) is 0, or that has
 *   no effective `runAsUser` and no effective `runAsNonRoot: true` (the image may run as root). `runAsNonRoot: true`
 *   with no `runAsUser` is not root: the kubelet refuses to start an image whose user is root. In a Windows pod
 *   (`spec.os.name: windows`, a HostProcess container, or a `kubernetes.io/os: windows` nodeSelector), which has no UIDs,
 *   one per container that is not HostProcess, has no `runAsNonRoot: true` and whose `runAsUserName` is unset (the
 *   image's user decides: ContainerAdministrator in servercore images) or ContainerAdministrator (`windows: true`).
 * - **capability** items carry the host namespaces the pod shares (`hostNamespaces`); **hostPath** items the volumes'
 *   `type` (`hostPathType`) and whether only init containers have the access (`onlyInitContainers`).
 */
export class HostAccess {
  /**
   * Lists the host privileges of a pod spec.
   *
   * @param podSpec a `v1` PodSpec as plain JSON
   * @throws when the spec is not a JSON object or a list or object field has the wrong JSON type
   */
  public static of(podSpec: any): HostAccessItem[] {
    const spec = requirePodSpec(podSpec);
    const view = { spec, containers: containersOf(spec), podSecurityContext: podSecurityContext(spec), windows: isWindowsPod(spec) };
    return HOST_PRIVILEGES.flatMap((descriptor) => descriptor.detect(view)).sort(compareItems);
  }

  /**
   * Lists the host privileges of a workload's pod: Pod, PodTemplate, Deployment, DaemonSet, StatefulSet, ReplicaSet,
   * ReplicationController, Job or CronJob.
   *
   * @param manifest a workload as plain JSON
   * @throws when the manifest is not a workload kind or has no pod spec
   */
  public static ofWorkload(manifest: any): HostAccessItem[] {
    return HostAccess.of(podTemplateOf(manifest).spec);
  }

  /**
   * Normalises a host path the way `detail` and `path` report it: repeated slashes collapsed, `.` and `..` resolved,
   * no trailing slash. Paths that do not start with `/` (Windows paths) are returned unchanged.
   *
   * @param path a hostPath `path`
   */
  public static normalizePath(path: string): string {
    return normalizeHostPath(path);
  }

  /**
   * Normalises a capability name the way `detail` reports it: trimmed, upper case, without the `CAP_` prefix.
   *
   * @param capability a name as written in `capabilities.add`, e.g. `CAP_NET_ADMIN` or `net_admin`
   */
  public static normalizeCapability(capability: string): string {
    return capabilityDetail(capability);
  }
}
