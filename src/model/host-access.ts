import { normalizeHostPath } from './_paths';
import { ContainerRef, containersOf, describe, dropUndefined, list, object, podSecurityContext, podTemplateOf, requirePodSpec, volumesOf } from './_pod-spec';
import { HostAccessType } from './host-access-reasons';

/**
 * One host privilege a pod takes.
 *
 * `type`, `detail` and `container` identify it the way `HostAccessReason` does, so that
 * `HostAccessReasons.find(reasons, item.type, item.detail, item.container)` finds the reason recorded for it.
 */
export interface HostAccessItem {
  /** the kind of host access. */
  readonly type: HostAccessType;

  /**
   * Which privilege of that kind, in the format `HostAccessReason` documents:
   * - `hostPath`: the normalised host path and its mode, `/var/log (read-only)` or `/var/lib/agent (read-write)`
   * - `hostPort`: port and protocol, `9100/TCP`
   * - `capability`: the capability name without `CAP_`, upper case, `NET_ADMIN`
   * - `privileged`, `runAsRoot`: the container name
   * - `hostNetwork`, `hostPID`, `hostIPC`: an empty string
   */
  readonly detail: string;

  /**
   * The container that holds the privilege (privileged, capability, hostPort, runAsRoot).
   *
   * @default - a pod-level privilege: host namespaces, and hostPath volumes (see `containers` for who mounts them)
   */
  readonly container?: string;

  /**
   * For hostPath: whether every mount of the path is read-only.
   *
   * @default - not a hostPath item
   */
  readonly readOnly?: boolean;

  /**
   * For hostPath: the normalised host path.
   *
   * @default - not a hostPath item
   */
  readonly path?: string;

  /**
   * For hostPath: the names of the pod volumes that point at the path, sorted.
   *
   * @default - not a hostPath item
   */
  readonly volumes?: string[];

  /**
   * For hostPath: the containers that mount it (init, regular and ephemeral), sorted; empty when no container mounts it.
   *
   * @default - not a hostPath item
   */
  readonly containers?: string[];

  /**
   * For hostPath: the strongest `mountPropagation` among its mounts, `Bidirectional` or `HostToContainer`.
   *
   * @default - not a hostPath item, or no mount sets a propagation other than `None`
   */
  readonly mountPropagation?: string;

  /**
   * For hostPort: the port bound on the node.
   *
   * @default - not a hostPort item
   */
  readonly port?: number;

  /**
   * For hostPort: the protocol, `TCP`, `UDP` or `SCTP`.
   *
   * @default - not a hostPort item
   */
  readonly protocol?: string;
}

const TYPE_ORDER: HostAccessType[] = Object.values(HostAccessType);

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareItems(a: HostAccessItem, b: HostAccessItem): number {
  return TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type)
    || compareStrings(a.detail, b.detail)
    || compareStrings(a.container ?? '', b.container ?? '');
}

const PROPAGATION_STRENGTH: { [mode: string]: number } = { HostToContainer: 1, Bidirectional: 2 };

interface PathAccess {
  path: string;
  volumes: Set<string>;
  containers: Set<string>;
  readWrite: boolean;
  propagation?: string;
}

function containerPath(c: ContainerRef): string {
  return `spec.${c.list}[name=${c.name}]`;
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
 * - **hostPort**: one item per container, port and protocol (`TCP` when unset) with a non-zero `hostPort`.
 * - **privileged**: one item per container with `securityContext.privileged: true`.
 * - **capability**: one item per container and added capability, named in upper case without `CAP_`
 *   (container runtimes accept `CAP_NET_ADMIN` and `net_admin` alike); `ALL` is reported as `ALL`.
 * - **runAsRoot**: one item per container whose effective `runAsUser` (the container's, else the pod's) is 0, or that has
 *   no effective `runAsUser` and no effective `runAsNonRoot: true` (the image may run as root). `runAsNonRoot: true`
 *   with no `runAsUser` is not root: the kubelet refuses to start an image whose user is root.
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
    const containers = containersOf(spec);
    const items: HostAccessItem[] = [];

    if (spec.hostNetwork === true) items.push({ type: HostAccessType.HOST_NETWORK, detail: '' });
    if (spec.hostPID === true) items.push({ type: HostAccessType.HOST_PID, detail: '' });
    if (spec.hostIPC === true) items.push({ type: HostAccessType.HOST_IPC, detail: '' });

    items.push(...hostPaths(spec, containers));

    const podSc = podSecurityContext(spec);
    for (const c of containers) {
      if (c.sc.privileged === true) {
        items.push({ type: HostAccessType.PRIVILEGED, detail: c.name, container: c.name });
      }
      const caps = object(c.sc.capabilities, `${containerPath(c)}.securityContext.capabilities`);
      const added = new Set(list(caps?.add, `${containerPath(c)}.securityContext.capabilities.add`).map((cap) => HostAccess.normalizeCapability(String(cap))));
      for (const cap of added) {
        items.push({ type: HostAccessType.CAPABILITY, detail: cap, container: c.name });
      }
      const ports = new Set<string>();
      list(c.container.ports, `${containerPath(c)}.ports`).forEach((p, i) => {
        const hostPort = Number(p?.hostPort ?? 0);
        if (hostPort === 0) return;
        if (!Number.isInteger(hostPort) || hostPort < 1 || hostPort > 65535) {
          throw new Error(`${containerPath(c)}.ports[${i}].hostPort must be a port number from 1 to 65535, got ${describe(p.hostPort)}: fix the port or remove hostPort`);
        }
        const protocol = p.protocol === undefined || p.protocol === null ? 'TCP' : String(p.protocol);
        const detail = `${hostPort}/${protocol}`;
        if (ports.has(detail)) return;
        ports.add(detail);
        items.push({ type: HostAccessType.HOST_PORT, detail, container: c.name, port: hostPort, protocol });
      });
      if (mayRunAsRoot(podSc, c.sc)) {
        items.push({ type: HostAccessType.RUN_AS_ROOT, detail: c.name, container: c.name });
      }
    }
    return items.sort(compareItems);
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
    const upper = capability.trim().toUpperCase();
    return upper.startsWith('CAP_') ? upper.slice(4) : upper;
  }
}

function mayRunAsRoot(podSc: any, sc: any): boolean {
  const runAsUser = sc.runAsUser ?? podSc.runAsUser;
  if (runAsUser !== undefined && runAsUser !== null) return Number(runAsUser) === 0;
  const runAsNonRoot = sc.runAsNonRoot ?? podSc.runAsNonRoot;
  return runAsNonRoot !== true;
}

function hostPaths(spec: any, containers: ContainerRef[]): HostAccessItem[] {
  const byVolume = new Map<string, PathAccess>();
  const byPath = new Map<string, PathAccess>();
  volumesOf(spec).forEach((v, i) => {
    const hostPath = object(v.hostPath, `spec.volumes[${i}].hostPath`);
    if (hostPath === undefined) return;
    if (typeof hostPath.path !== 'string' || hostPath.path === '') {
      throw new Error(`spec.volumes[${i}].hostPath.path must be a non-empty string, got ${describe(hostPath.path)}: set the host path to mount`);
    }
    const path = normalizeHostPath(hostPath.path);
    let access = byPath.get(path);
    if (!access) {
      access = { path, volumes: new Set(), containers: new Set(), readWrite: false };
      byPath.set(path, access);
    }
    const name = v.name === undefined || v.name === null ? '' : String(v.name);
    access.volumes.add(name);
    byVolume.set(name, access);
  });

  const mounted = new Set<PathAccess>();
  for (const c of containers) {
    list(c.container.volumeMounts, `${containerPath(c)}.volumeMounts`).forEach((m) => {
      const access = byVolume.get(String(m?.name));
      if (!access) return;
      mounted.add(access);
      access.containers.add(c.name);
      if (m.readOnly !== true) access.readWrite = true;
      const strength = PROPAGATION_STRENGTH[String(m.mountPropagation)] ?? 0;
      if (strength > (PROPAGATION_STRENGTH[access.propagation ?? ''] ?? 0)) access.propagation = String(m.mountPropagation);
    });
  }

  return [...byPath.values()].map((a) => {
    const readOnly = mounted.has(a) && !a.readWrite;
    return dropUndefined({
      type: HostAccessType.HOST_PATH,
      detail: `${a.path} (${readOnly ? 'read-only' : 'read-write'})`,
      readOnly,
      path: a.path,
      volumes: [...a.volumes].sort(compareStrings),
      containers: [...a.containers].sort(compareStrings),
      mountPropagation: a.propagation,
    });
  });
}
