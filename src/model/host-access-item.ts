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
