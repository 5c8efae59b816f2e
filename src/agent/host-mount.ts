import type { HostPathVolumeType, MountPropagation } from 'cdk8s-plus-28';
import { kplus } from './_plus';
import { HOST_MOUNT_OPTIONS, READ_ONLY_HOST_MOUNT_OPTIONS } from './_shapes';
import { checkAbsolutePath, checkDnsLabel, checkOptions, checkReason, fail, show } from './_validate';

/**
 * Options for a host mount.
 */
export interface HostMountOptions {
  /**
   * What must exist at the host path for the pod to start.
   *
   * Typing the mount makes the kubelet refuse to start the pod when the path is missing or of another
   * kind, instead of silently creating an empty directory on the node.
   *
   * @default HostPathVolumeType.DIRECTORY
   */
  readonly type?: HostPathVolumeType;

  /**
   * Where the host path appears inside the container.
   *
   * @default - the same path as on the host
   */
  readonly mountPath?: string;

  /**
   * Mount propagation between the host and the container.
   *
   * `Bidirectional` lets the container create mounts that the host sees (CSI node plugins need it);
   * Kubernetes allows it only in privileged containers, so the agent must also be given `privileged`.
   *
   * @default - no propagation (Kubernetes' `None`)
   * @see https://kubernetes.io/docs/concepts/storage/volumes/#mount-propagation
   */
  readonly propagation?: MountPropagation;

  /**
   * The name of the pod volume.
   *
   * @default - derived from the host path, e.g. `host-var-log` for `/var/log`
   */
  readonly volumeName?: string;
}

/**
 * Options for a read-only host mount.
 */
export interface ReadOnlyHostMountOptions extends HostMountOptions {
  /**
   * Why the agent reads this path, in one line: recorded on the DaemonSet and shown in the security review next to
   * the path's risk. Required: any host path is a host privilege (Pod Security baseline forbids them all), read-only
   * ones included.
   */
  readonly reason: string;
}

/**
 * A hostPath volume mounted into an agent container: read-only and typed unless you say otherwise.
 *
 * A hostPath gives the container the node's own files: read-only ones can hold the node's secrets, read-write
 * ones can alter the node (and, for paths like `/etc` or `/var/lib/kubelet`, take it over). Every host mount is an
 * explicit opt-in with a written reason.
 *
 * @example
 * HostMount.readOnly('/var/log', { reason: 'tails container logs' });
 * HostMount.readWrite('/var/lib/fluent-bit', 'keeps tail positions across restarts', { type: HostPathVolumeType.DIRECTORY_OR_CREATE });
 */
export class HostMount {
  /**
   * Mounts a host path read-only.
   *
   * @param hostPath absolute path on the node, e.g. `/var/log`
   */
  public static readOnly(hostPath: string, options: ReadOnlyHostMountOptions): HostMount {
    if (options === null || typeof options !== 'object') {
      fail(undefined, `HostMount.readOnly(${show(hostPath)}) needs its options with a reason, got ${show(options)}: e.g. HostMount.readOnly('/var/log', { reason: 'tails container logs' })`);
    }
    const o = checkOptions<ReadOnlyHostMountOptions>(`HostMount.readOnly(${show(hostPath)})`, options, READ_ONLY_HOST_MOUNT_OPTIONS);
    return new HostMount('HostMount.readOnly', hostPath, false, o.reason, o);
  }

  /**
   * Mounts a host path read-write: the container can change the node's files there.
   *
   * @param hostPath absolute path on the node, e.g. `/var/lib/fluent-bit`
   * @param reason one line saying why the agent must write there; recorded on the DaemonSet and in the review
   */
  public static readWrite(hostPath: string, reason: string, options: HostMountOptions = {}): HostMount {
    if (reason !== null && typeof reason === 'object' && typeof (reason as any).reason === 'string') {
      // readOnly() takes the reason in its options; readWrite() takes it as the second argument.
      fail(undefined, `HostMount.readWrite(${show(hostPath)}): the reason is the second argument, a string, got ${show(reason)}: write HostMount.readWrite(${show(hostPath)}, ${show((reason as any).reason)}, options)`);
    }
    const o = checkOptions<HostMountOptions>(`HostMount.readWrite(${show(hostPath)})`, options, HOST_MOUNT_OPTIONS);
    return new HostMount('HostMount.readWrite', hostPath, true, reason, o);
  }

  /** the path on the node. */
  public readonly hostPath: string;
  /** the path inside the container. */
  public readonly mountPath: string;
  /** whether the container can write to the path (false: mounted read-only). */
  public readonly writable: boolean;
  /** what must exist at the host path. */
  public readonly type: HostPathVolumeType;
  /** mount propagation, when set. */
  public readonly propagation?: MountPropagation;
  /** the volume name, when set explicitly. */
  public readonly volumeName?: string;
  /** why the agent needs the mount. */
  public readonly reason: string;

  private constructor(factory: string, hostPath: string, writable: boolean, reason: string | undefined, options: HostMountOptions) {
    const where = `${factory}(${show(hostPath)})`;
    checkAbsolutePath(undefined, `${where} host path`, hostPath);
    if (options.mountPath !== undefined) checkAbsolutePath(undefined, `${where} mountPath`, options.mountPath);
    checkReason(undefined, writable ? `${where} (read-write)` : where, reason);
    if (options.volumeName !== undefined) checkDnsLabel(undefined, `${where} volumeName`, options.volumeName);
    const types: string[] = Object.values(kplus().HostPathVolumeType);
    if (options.type !== undefined && !types.includes(options.type)) {
      fail(undefined, `${where}: type ${show(options.type)} is not a HostPathVolumeType (${types.map((t) => JSON.stringify(t)).join(', ')})`);
    }
    const propagations: string[] = Object.values(kplus().MountPropagation);
    if (options.propagation !== undefined && !propagations.includes(options.propagation)) {
      fail(undefined, `${where}: propagation ${show(options.propagation)} is not one of ${propagations.join(', ')}`);
    }
    this.hostPath = hostPath;
    this.mountPath = options.mountPath ?? hostPath;
    this.writable = writable;
    this.type = options.type ?? kplus().HostPathVolumeType.DIRECTORY;
    this.propagation = options.propagation;
    this.volumeName = options.volumeName;
    this.reason = reason!.trim();
  }
}
