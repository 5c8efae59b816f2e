import { ENV_SOURCE_OPTIONS } from './_shapes';
import { checkDnsSubdomain, checkOptions, fail, show } from './_validate';

/**
 * Options for environment variables from every key of an object.
 */
export interface EnvSourceOptions {
  /**
   * A prefix put before every key to make the variable's name, e.g. `LOKI_`.
   *
   * @default - the keys as they are
   */
  readonly prefix?: string;

  /**
   * Whether the container may start while the object is missing.
   *
   * @default false - the kubelet keeps the container from starting until it exists
   */
  readonly optional?: boolean;
}

/** what an env variable name (and so a prefix) may contain, as the agent's `env` checks it. */
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/**
 * Every key of a Secret or ConfigMap as environment variables (`envFrom`). Keys that are not valid
 * variable names are skipped by the kubelet, which records an event.
 *
 * @example
 * EnvSource.fromSecret('datadog-secret', { prefix: 'DD_' });
 */
export class EnvSource {
  /**
   * Every key of a Secret (`envFrom[].secretRef`).
   *
   * @param secretName the Secret's name, in the agent's namespace
   */
  public static fromSecret(secretName: string, options: EnvSourceOptions = {}): EnvSource {
    return EnvSource.of('secret', 'EnvSource.fromSecret', secretName, options);
  }

  /**
   * Every key of a ConfigMap (`envFrom[].configMapRef`).
   *
   * @param configMapName the ConfigMap's name, in the agent's namespace
   */
  public static fromConfigMap(configMapName: string, options: EnvSourceOptions = {}): EnvSource {
    return EnvSource.of('configMap', 'EnvSource.fromConfigMap', configMapName, options);
  }

  private static of(kind: string, factory: string, name: string, options: EnvSourceOptions): EnvSource {
    const where = `${factory}(${show(name)})`;
    checkDnsSubdomain(undefined, `${where}: the name`, name);
    const o = checkOptions<EnvSourceOptions>(where, options, ENV_SOURCE_OPTIONS);
    if (o.prefix !== undefined && !ENV_NAME.test(o.prefix)) {
      fail(undefined, `${where}: prefix ${show(o.prefix)} cannot start an environment variable name: use letters, digits, '_', '-' or '.', not starting with a digit, e.g. "LOKI_"`);
    }
    return new EnvSource(kind, name, o.prefix, o.optional);
  }

  /** where the variables are: `secret` or `configMap`. */
  public readonly kind: string;
  /** the Secret's or ConfigMap's name. */
  public readonly name: string;
  /** the prefix of the variables' names. */
  public readonly prefix?: string;
  /** whether the object may be missing. */
  public readonly optional?: boolean;

  private constructor(kind: string, name: string, prefix: string | undefined, optional: boolean | undefined) {
    this.kind = kind;
    this.name = name;
    this.prefix = prefix;
    this.optional = optional;
  }

  /**
   * The `envFrom` entry.
   * @internal
   */
  public _toJson(): { [key: string]: unknown } {
    const ref = { name: this.name, optional: this.optional };
    return { prefix: this.prefix, ...(this.kind === 'secret' ? { secretRef: ref } : { configMapRef: ref }) };
  }
}
