import { Size } from 'cdk8s';
import type { EmptyDirMedium } from 'cdk8s-plus-28';
import { checkFileMode, checkKeyToPaths } from './_files';
import { EMPTY_DIR_OPTIONS, OBJECT_VOLUME_OPTIONS, PROJECTED_VOLUME_OPTIONS } from './_shapes';
import { checkAbsolutePath, checkDnsLabel, checkDnsSubdomain, checkOptions, checkSize, fail, show } from './_validate';
import { KeyToPath, ProjectedSource } from './projected-source';

/**
 * Options for a Secret or ConfigMap mounted as a volume.
 */
export interface ObjectVolumeOptions {
  /**
   * The keys to mount, each to its own file; keys not listed are left out.
   *
   * @default - every key, each to a file named after it
   */
  readonly items?: KeyToPath[];

  /**
   * The mode of the files, 0 to 0777 (write it in octal, e.g. `0o440`).
   *
   * @default - Kubernetes' 0644
   */
  readonly defaultMode?: number;

  /**
   * Whether the pod may start while the object (or a listed key) is missing.
   *
   * @default false - the kubelet keeps the pod from starting until it exists
   */
  readonly optional?: boolean;

  /**
   * The name of the pod volume.
   *
   * @default - `secret-<name>` or `configmap-<name>`
   */
  readonly volumeName?: string;
}

/**
 * Options for a projected volume.
 */
export interface ProjectedVolumeOptions {
  /**
   * The mode of the files, 0 to 0777 (e.g. `0o440`).
   *
   * @default - Kubernetes' 0644
   */
  readonly defaultMode?: number;

  /**
   * The name of the pod volume.
   *
   * @default - derived from the mount path, e.g. `projected-var-run-secrets-vault`
   */
  readonly volumeName?: string;
}

/**
 * Options for an `emptyDir` volume.
 */
export interface EmptyDirOptions {
  /**
   * The most the directory may hold: the kubelet evicts the pod beyond it. For a memory-backed
   * directory it also bounds the tmpfs, which counts against the container's memory limit.
   *
   * @default - no limit of its own (the node's ephemeral storage, or the memory limit with `MEMORY`)
   */
  readonly sizeLimit?: Size;

  /**
   * Where the directory lives: the node's disk, or memory (`EmptyDirMedium.MEMORY`, a tmpfs) for
   * data that must never reach the disk.
   *
   * @default EmptyDirMedium.DEFAULT - the node's disk
   */
  readonly medium?: EmptyDirMedium;

  /**
   * The name of the pod volume. Containers that mount an emptyDir of the same name share it (e.g. an
   * init container writes what the agent reads).
   *
   * @default - one volume per container and path, e.g. `agent-emptydir-buffer`
   */
  readonly volumeName?: string;
}

/**
 * A pod volume mounted into an agent container: a Secret, a ConfigMap, a projected volume or an
 * `emptyDir`. None of them is a host privilege: Secrets, ConfigMaps and projected volumes are mounted
 * read-only (the kubelet keeps them so anyway), an `emptyDir` read-write.
 *
 * A credential belongs in a Secret mounted this way (or read with `EnvValue.fromSecretKey`), never in a
 * literal env value of the manifest.
 *
 * @example
 * AgentVolume.fromSecret('loki-credentials', '/etc/loki', { items: [{ key: 'password', path: 'password' }], defaultMode: 0o440 });
 * AgentVolume.projected('/var/run/secrets/vault', [ProjectedSource.serviceAccountToken({ path: 'token', audience: 'vault' })]);
 * AgentVolume.emptyDir('/buffer', { sizeLimit: Size.mebibytes(256), medium: EmptyDirMedium.MEMORY });
 */
export class AgentVolume {
  /**
   * Mounts a Secret's keys as files, read-only.
   *
   * @param secretName the Secret's name, in the agent's namespace
   * @param mountPath where the files appear in the container, e.g. `/etc/loki`
   */
  public static fromSecret(secretName: string, mountPath: string, options: ObjectVolumeOptions = {}): AgentVolume {
    return AgentVolume.object('secret', 'AgentVolume.fromSecret', 'SecretVolumeOptions', secretName, mountPath, options);
  }

  /**
   * Mounts a ConfigMap's keys as files, read-only.
   *
   * @param configMapName the ConfigMap's name, in the agent's namespace
   * @param mountPath where the files appear in the container, e.g. `/etc/agent/extra`
   */
  public static fromConfigMap(configMapName: string, mountPath: string, options: ObjectVolumeOptions = {}): AgentVolume {
    return AgentVolume.object('configMap', 'AgentVolume.fromConfigMap', 'ConfigMapVolumeOptions', configMapName, mountPath, options);
  }

  /**
   * Mounts several sources in one directory, read-only: Secrets, ConfigMaps, downward API fields and
   * ServiceAccount tokens with an audience and an expiry.
   *
   * @param mountPath where the files appear in the container, e.g. `/var/run/secrets/vault`
   * @param sources what the directory holds; no two may write the same file
   */
  public static projected(mountPath: string, sources: ProjectedSource[], options: ProjectedVolumeOptions = {}): AgentVolume {
    const where = `AgentVolume.projected(${show(mountPath)})`;
    checkAbsolutePath(undefined, `${where} mountPath`, mountPath);
    if (!Array.isArray(sources) || sources.length === 0) {
      fail(undefined, `${where}: give at least one source, e.g. [ProjectedSource.serviceAccountToken({ path: 'token', audience: 'vault' })], got ${show(sources)}`);
    }
    const paths = new Map<string, string>();
    for (const source of sources) {
      if (!(source instanceof ProjectedSource)) {
        fail(undefined, `${where}: a source must be created with ProjectedSource.secret(), configMap(), downwardApi() or serviceAccountToken(), got ${show(source)}`);
      }
      for (const p of source.paths) {
        const other = paths.get(p);
        if (other !== undefined) fail(undefined, `${where}: the ${other} and the ${source.kind} sources both write "${p}": give each file its own path`);
        paths.set(p, source.kind);
      }
    }
    const o = checkOptions<ProjectedVolumeOptions>(where, options, PROJECTED_VOLUME_OPTIONS);
    if (o.defaultMode !== undefined) checkFileMode(`${where} defaultMode`, o.defaultMode);
    if (o.volumeName !== undefined) checkDnsLabel(undefined, `${where} volumeName`, o.volumeName);
    const spec = { projected: { sources: sources.map((s) => s._toJson()), defaultMode: o.defaultMode } };
    return new AgentVolume('projected', mountPath, false, spec, o.volumeName ?? `projected-${slug(mountPath)}`, o.volumeName !== undefined);
  }

  /**
   * A writable directory that lives as long as the pod, on the node's disk or in memory, optionally
   * bounded: for buffers and caches while the root filesystem stays read-only.
   *
   * @param mountPath where the directory appears in the container, e.g. `/buffer`
   */
  public static emptyDir(mountPath: string, options: EmptyDirOptions = {}): AgentVolume {
    const where = `AgentVolume.emptyDir(${show(mountPath)})`;
    checkAbsolutePath(undefined, `${where} mountPath`, mountPath);
    const o = checkOptions<EmptyDirOptions>(where, options, EMPTY_DIR_OPTIONS);
    const size = o.sizeLimit === undefined ? undefined : checkSize(undefined, `${where} sizeLimit`, o.sizeLimit);
    if (o.volumeName !== undefined) checkDnsLabel(undefined, `${where} volumeName`, o.volumeName);
    const spec = { emptyDir: { medium: o.medium || undefined, sizeLimit: size === undefined ? undefined : `${size}Mi` } };
    return new AgentVolume('emptyDir', mountPath, true, spec, o.volumeName ?? `emptydir-${slug(mountPath)}`, o.volumeName !== undefined);
  }

  private static object(kind: 'secret' | 'configMap', factory: string, optionsName: string, name: string, mountPath: string, options: ObjectVolumeOptions): AgentVolume {
    const where = `${factory}(${show(name)})`;
    checkDnsSubdomain(undefined, `${where}: the name`, name);
    checkAbsolutePath(undefined, `${where} mountPath`, mountPath);
    const o = checkOptions<ObjectVolumeOptions>(where, options, OBJECT_VOLUME_OPTIONS(optionsName));
    const items = checkKeyToPaths(where, o.items);
    if (o.defaultMode !== undefined) checkFileMode(`${where} defaultMode`, o.defaultMode);
    if (o.volumeName !== undefined) checkDnsLabel(undefined, `${where} volumeName`, o.volumeName);
    const spec = kind === 'secret'
      ? { secret: { secretName: name, items, defaultMode: o.defaultMode, optional: o.optional } }
      : { configMap: { name, items, defaultMode: o.defaultMode, optional: o.optional } };
    const derived = `${kind === 'secret' ? 'secret' : 'configmap'}-${name.replace(/\./g, '-')}`.slice(0, 63).replace(/-+$/, '');
    return new AgentVolume(kind, mountPath, false, spec, o.volumeName ?? derived, o.volumeName !== undefined);
  }

  /** what the volume is: `secret`, `configMap`, `projected` or `emptyDir`. */
  public readonly kind: string;
  /** where it appears in the container. */
  public readonly mountPath: string;
  /** whether the container can write to it (only an `emptyDir`). */
  public readonly writable: boolean;
  /** the pod volume's name: the one given, or the one derived. */
  public readonly volumeName: string;
  /** whether the user chose the name. */
  public readonly namedExplicitly: boolean;
  private readonly spec: { [key: string]: unknown };

  private constructor(kind: string, mountPath: string, writable: boolean, spec: { [key: string]: unknown }, volumeName: string, explicit: boolean) {
    this.kind = kind;
    this.mountPath = mountPath;
    this.writable = writable;
    this.spec = spec;
    this.volumeName = volumeName;
    this.namedExplicitly = explicit;
  }

  /**
   * The volume's source as the pod's `volumes[]` entry holds it (without the name).
   * @internal
   */
  public _source(): { [key: string]: unknown } {
    return JSON.parse(JSON.stringify(this.spec));
  }
}

/** a path as part of a volume name: `/var/run/secrets/vault` becomes `var-run-secrets-vault`. */
function slug(p: string): string {
  return (p.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'root').slice(0, 50).replace(/-+$/, '');
}
