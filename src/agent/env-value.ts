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
 * the pod fields the API server lets an environment variable read (`valueFrom.fieldRef`), but the label and
 * annotation subscripts. `NODE_NAME`, `POD_NAME` and `POD_NAMESPACE` are set on every container already.
 */
const POD_FIELDS = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName',
  'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs',
];

/**
 * The value of an environment variable read when the container starts (`valueFrom`): from a Secret or
 * ConfigMap key, so that the manifest carries the reference, never the value (the right way to give an
 * agent a credential, an API key or a password, as an environment variable), or from a field of the pod
 * (the node's IP address, for an agent that calls its kubelet).
 *
 * @example
 * EnvValue.fromSecretKey('loki-credentials', 'password');
 * EnvValue.fromPodField('status.hostIP');
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

  /**
   * A field of the pod, through the downward API (`valueFrom.fieldRef`): one of `metadata.name`,
   * `metadata.namespace`, `metadata.uid`, `spec.nodeName`, `spec.serviceAccountName`, `status.hostIP`,
   * `status.hostIPs`, `status.podIP`, `status.podIPs`.
   *
   * @param fieldPath e.g. `status.hostIP`, the node's address (an agent calling its node's kubelet)
   */
  public static fromPodField(fieldPath: string): EnvValue {
    if (typeof fieldPath !== 'string' || !POD_FIELDS.includes(fieldPath)) {
      throw new Error(`EnvValue.fromPodField(${show(fieldPath)}): the field must be one the API server lets an environment variable read: ` +
        `${POD_FIELDS.join(', ')}`);
    }
    return new EnvValue('field', fieldPath, '', undefined);
  }

  private static of(ref: 'secretKeyRef' | 'configMapKeyRef', factory: string, name: string, key: string, options: EnvKeyOptions): EnvValue {
    const where = `${factory}(${show(name)}, ${show(key)})`;
    checkDnsSubdomain(undefined, `${where}: the name`, name);
    checkObjectKey(`${where}: the key`, key);
    const o = checkOptions<EnvKeyOptions>(where, options, ENV_KEY_OPTIONS);
    return new EnvValue(ref === 'secretKeyRef' ? 'secret' : 'configMap', name, key, o.optional);
  }

  /** where the value is: `secret`, `configMap` or `field` (a field of the pod). */
  public readonly kind: string;
  /** the Secret's or ConfigMap's name; the field path of a pod field. */
  public readonly name: string;
  /** the key (empty for a pod field). */
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
    if (this.kind === 'field') return { fieldRef: { fieldPath: this.name } };
    const ref = { name: this.name, key: this.key, optional: this.optional };
    return this.kind === 'secret' ? { secretKeyRef: ref } : { configMapKeyRef: ref };
  }
}
