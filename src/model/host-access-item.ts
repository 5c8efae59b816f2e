import { HostAccessType } from './host-access-type';

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
   * - `privileged`, `hostProcess`, `runAsRoot`: the container name
   * - `hostNetwork`, `hostPID`, `hostIPC`: an empty string
   */
  readonly detail: string;

  /**
   * The container that holds the privilege (privileged, hostProcess, capability, hostPort, runAsRoot).
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
   * For hostPath: the `type` its volumes set (`Directory`, `File`, `DirectoryOrCreate`...), when every volume pointing at
   * the path sets the same one.
   *
   * @default - not a hostPath item, or its volumes set no type (or different ones)
   */
  readonly hostPathType?: string;

  /**
   * For hostPath: true when only init containers that run to completion (not restartable sidecars) write it, or, for a
   * read-only path, mount it: the access ends before the pod's other containers start (what they wrote stays).
   *
   * @default - not a hostPath item, or a regular, ephemeral or sidecar container has the access
   */
  readonly onlyInitContainers?: boolean;

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

  /**
   * For hostPort: true when the port is a container port of a `hostNetwork` pod that declares no `hostPort`: on the host
   * network every container port is a port of the node. Its reason is the hostNetwork's: it needs none of its own.
   *
   * @default - not a hostPort item, or a declared hostPort
   */
  readonly viaHostNetwork?: boolean;

  /**
   * For capability: the host namespaces the pod shares (`hostNetwork`, `hostPID`, `hostIPC`), which decide what some
   * capabilities reach (NET_ADMIN and NET_RAW the node's network with hostNetwork, SYS_PTRACE every process with hostPID).
   *
   * @default - not a capability item (an item without it is rated whatever the pod shares)
   */
  readonly hostNamespaces?: string[];

  /**
   * For hostProcess: the Windows user the container runs as on the node (`windowsOptions.runAsUserName`, the container's
   * or the pod's), e.g. `NT AUTHORITY\SYSTEM`.
   *
   * @default - not a hostProcess item, or the image's user
   */
  readonly runAsUserName?: string;

  /**
   * For runAsRoot: true when the container is a Windows container (not HostProcess), whose root is ContainerAdministrator
   * (named by runAsUserName, or the image's user when it names none), not UID 0.
   *
   * @default - not a runAsRoot item, or a Linux container
   */
  readonly windows?: boolean;
}
