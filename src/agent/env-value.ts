import { checkObjectKey } from './_files';
import { ENV_KEY_OPTIONS } from './_shapes';
import { checkDnsSubdomain, checkOptions, show } from './_validate';

/**
 * Options for an environment variable read from a key.
 */
export interface EnvKeyOptions {
  /**
   * Whether the container may start while the object or its key is missing (the variable is then unset).
   *
   * @default false - the kubelet keeps the container from starting until the key exists
   */
  readonly optional?: boolean;
}

/**
 * The value of an environment variable read from a Secret or ConfigMap key when the container starts
 * (`valueFrom`), so that the manifest carries the reference, never the value: the right way to give an
 * agent a credential (an API key, a password) as an environment variable.
 *
 * @example
 * EnvValue.fromSecretKey('loki-credentials', 'password');
 */
export class EnvValue {
  /**
   * A key of a Secret (`valueFrom.secretKeyRef`).
   *
   * @param secretName the Secret's name, in the agent's namespace
   * @param key the key, e.g. `password`
   */
  public static fromSecretKey(secretName: string, key: string, options: EnvKeyOptions = {}): EnvValue {
    return EnvValue.of('secretKeyRef', 'EnvValue.fromSecretKey', secretName, key, options);
  }

  /**
   * A key of a ConfigMap (`valueFrom.configMapKeyRef`).
   *
   * @param configMapName the ConfigMap's name, in the agent's namespace
   * @param key the key, e.g. `endpoint`
   */
  public static fromConfigMapKey(configMapName: string, key: string, options: EnvKeyOptions = {}): EnvValue {
    return EnvValue.of('configMapKeyRef', 'EnvValue.fromConfigMapKey', configMapName, key, options);
  }

  private static of(ref: 'secretKeyRef' | 'configMapKeyRef', factory: string, name: string, key: string, options: EnvKeyOptions): EnvValue {
    const where = `${factory}(${show(name)}, ${show(key)})`;
    checkDnsSubdomain(undefined, `${where}: the name`, name);
    checkObjectKey(`${where}: the key`, key);
    const o = checkOptions<EnvKeyOptions>(where, options, ENV_KEY_OPTIONS);
    return new EnvValue(ref === 'secretKeyRef' ? 'secret' : 'configMap', name, key, o.optional);
  }

  /** where the value is: `secret` or `configMap`. */
  public readonly kind: string;
  /** the Secret's or ConfigMap's name. */
  public readonly name: string;
  /** the key. */
  public readonly key: string;
  /** whether the key may be missing. */
  public readonly optional?: boolean;

  private constructor(kind: string, name: string, key: string, optional: boolean | undefined) {
    this.kind = kind;
    this.name = name;
    this.key = key;
    this.optional = optional;
  }

  /**
   * The `valueFrom` of the env entry.
   * @internal
   */
  public _toJson(): { [key: string]: unknown } {
    const ref = { name: this.name, key: this.key, optional: this.optional };
    return this.kind === 'secret' ? { secretKeyRef: ref } : { configMapKeyRef: ref };
  }
}
