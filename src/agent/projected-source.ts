import { Duration } from 'cdk8s';
import { checkFileMode, checkKeyToPaths, checkRelativeFilePath } from './_files';
import { DOWNWARD_API_FILE, PROJECTED_OBJECT_OPTIONS, SERVICE_ACCOUNT_TOKEN_OPTIONS } from './_shapes';
import { checkDnsSubdomain, checkOptions, fail, show } from './_validate';
import { guard, list } from '../review/_guard';

/**
 * One key of a Secret or ConfigMap, written to a file of a volume.
 */
export interface KeyToPath {
  /** the key, e.g. `password`. */
  readonly key: string;

  /** the file, relative to the volume's mount path, e.g. `loki/password`. */
  readonly path: string;

  /**
   * The file's mode, 0 to 0777 (e.g. `0o400`).
   *
   * @default - the volume's defaultMode
   */
  readonly mode?: number;
}

/**
 * Options for a Secret or ConfigMap projected into a volume.
 */
export interface ProjectedObjectOptions {
  /**
   * The keys to project, each to its own file; keys not listed are left out.
   *
   * @default - every key, each to a file named after it
   */
  readonly items?: KeyToPath[];

  /**
   * Whether the pod may start while the object (or a listed key) is missing.
   *
   * @default false - the kubelet keeps the pod from starting until it exists
   */
  readonly optional?: boolean;
}

/**
 * Options for a ServiceAccount token projected into a volume.
 */
export interface ServiceAccountTokenOptions {
  /** the file the token is written to, relative to the volume's mount path, e.g. `token`. */
  readonly path: string;

  /**
   * The audience the token is for (its `aud` claim): the service that reads it checks it, so a token
   * for one service cannot be replayed to another.
   *
   * @default - the API server's own audience
   */
  readonly audience?: string;

  /**
   * How long the token is valid: the kubelet refreshes it at 80% of this. At least 10 minutes (the API
   * server's minimum).
   *
   * @default Duration.hours(1)
   */
  readonly expiration?: Duration;
}

/**
 * One file of the downward API: a field of the agent's own pod written to a file.
 */
export interface DownwardApiFile {
  /** the file, relative to the volume's mount path, e.g. `labels`. */
  readonly path: string;

  /**
   * The pod field, one that a downward API volume supports: `metadata.name`, `metadata.namespace`,
   * `metadata.uid`, `metadata.labels`, `metadata.annotations`, or one label or annotation,
   * `metadata.labels['app']`.
   */
  readonly fieldPath: string;

  /**
   * The file's mode, 0 to 0777 (e.g. `0o440`).
   *
   * @default - the volume's defaultMode
   */
  readonly mode?: number;
}

/** the pod fields a downward API volume can project (Kubernetes' validation of downwardAPI volume files). */
const VOLUME_FIELD = /^(metadata\.(name|namespace|uid|labels|annotations)|metadata\.(labels|annotations)\['[^']+'\])$/;

/** the API server's bounds on a projected token's expirationSeconds: ten minutes to 2^32 seconds. */
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 4294967296;

/**
 * One source of a projected volume, which puts several Secrets, ConfigMaps, downward API fields and
 * ServiceAccount tokens into one directory.
 *
 * @example
 * ProjectedSource.serviceAccountToken({ path: 'token', audience: 'vault', expiration: Duration.hours(1) });
 * ProjectedSource.secret('agent-tls', { items: [{ key: 'tls.crt', path: 'tls/tls.crt' }] });
 */
export class ProjectedSource {
  /**
   * The keys of a Secret.
   *
   * @param secretName the Secret's name, in the agent's namespace
   */
  public static secret(secretName: string, options: ProjectedObjectOptions = {}): ProjectedSource {
    return ProjectedSource.object('secret', 'ProjectedSource.secret', secretName, options);
  }

  /**
   * The keys of a ConfigMap.
   *
   * @param configMapName the ConfigMap's name, in the agent's namespace
   */
  public static configMap(configMapName: string, options: ProjectedObjectOptions = {}): ProjectedSource {
    return ProjectedSource.object('configMap', 'ProjectedSource.configMap', configMapName, options);
  }

  /**
   * Fields of the agent's own pod, each to a file.
   *
   * @param files the files, e.g. `[{ path: 'labels', fieldPath: 'metadata.labels' }]`
   */
  public static downwardApi(files: DownwardApiFile[]): ProjectedSource {
    const where = 'ProjectedSource.downwardApi';
    const checked = guard<DownwardApiFile[]>((m) => fail(undefined, `${where}: ${m}`), 'files', files, DOWNWARD_API_FILES);
    if (!Array.isArray(checked) || checked.length === 0) fail(undefined, `${where}: give at least one file, e.g. [{ path: 'labels', fieldPath: 'metadata.labels' }]`);
    const items = checked.map((f) => {
      checkRelativeFilePath(`${where}: file`, f.path);
      if (!VOLUME_FIELD.test(f.fieldPath)) {
        fail(undefined, `${where}: fieldPath ${show(f.fieldPath)} of file "${f.path}" is not a field a downward API volume supports: use metadata.name, ` +
          'metadata.namespace, metadata.uid, metadata.labels, metadata.annotations, or metadata.labels[\'<key>\'] (spec.nodeName and status fields are env-only)');
      }
      if (f.mode !== undefined) checkFileMode(`${where}: file "${f.path}" mode`, f.mode);
      return { path: f.path, fieldRef: { fieldPath: f.fieldPath }, mode: f.mode };
    });
    return new ProjectedSource('downwardAPI', { downwardAPI: { items } }, items.map((i) => i.path));
  }

  /**
   * A token of the agent's ServiceAccount, for an audience and with an expiry, refreshed by the kubelet:
   * the way to authenticate to a service that accepts Kubernetes tokens (Vault, a registry, your own)
   * without the long-lived token of `automountServiceAccountToken`.
   */
  public static serviceAccountToken(options: ServiceAccountTokenOptions): ProjectedSource {
    const where = 'ProjectedSource.serviceAccountToken';
    if (options === undefined || options === null) fail(undefined, `${where}: give at least the file, e.g. { path: 'token', audience: 'vault' }`);
    const o = checkOptions<ServiceAccountTokenOptions>(where, options, SERVICE_ACCOUNT_TOKEN_OPTIONS);
    if (o.path === undefined) fail(undefined, `${where}: give the file the token is written to, e.g. { path: 'token' }`);
    checkRelativeFilePath(`${where}: path`, o.path);
    if (o.audience !== undefined && (o.audience.trim() === '' || /\s/.test(o.audience))) {
      fail(undefined, `${where}: audience ${show(o.audience)} must be one word, the service's audience, e.g. "vault"`);
    }
    const seconds = o.expiration === undefined ? undefined : o.expiration.toSeconds({ integral: false });
    if (seconds !== undefined && (!Number.isInteger(seconds) || seconds < MIN_TOKEN_SECONDS || seconds > MAX_TOKEN_SECONDS)) {
      fail(undefined, `${where}: expiration must be a whole number of seconds from ${MIN_TOKEN_SECONDS} (10 minutes, the API server's minimum) ` +
        `to ${MAX_TOKEN_SECONDS} (2^32), got ${seconds}s`);
    }
    return new ProjectedSource('serviceAccountToken', { serviceAccountToken: { path: o.path, audience: o.audience, expirationSeconds: seconds } }, [o.path]);
  }

  private static object(kind: 'secret' | 'configMap', where: string, name: string, options: ProjectedObjectOptions): ProjectedSource {
    checkDnsSubdomain(undefined, `${where}: the name`, name);
    const o = checkOptions<ProjectedObjectOptions>(`${where}(${show(name)})`, options, PROJECTED_OBJECT_OPTIONS);
    const items = checkKeyToPaths(`${where}(${show(name)})`, o.items);
    return new ProjectedSource(kind, { [kind]: { name, items, optional: o.optional } }, (items ?? []).map((i) => i.path));
  }

  /** what the source projects: `secret`, `configMap`, `downwardAPI` or `serviceAccountToken`. */
  public readonly kind: string;
  /** the files it writes, where it names them (a Secret or ConfigMap without items names none in advance). */
  public readonly paths: string[];
  private readonly source: { [key: string]: unknown };

  private constructor(kind: string, source: { [key: string]: unknown }, paths: string[]) {
    this.kind = kind;
    this.source = source;
    this.paths = paths;
  }

  /**
   * The source as a projected volume lists it.
   * @internal
   */
  public _toJson(): { [key: string]: unknown } {
    return JSON.parse(JSON.stringify(this.source));
  }
}

const DOWNWARD_API_FILES = list(DOWNWARD_API_FILE, 'a list of files', "[{ path: 'labels', fieldPath: 'metadata.labels' }]", (f) => f?.path);
