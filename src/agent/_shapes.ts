/**
 * Internal: the shapes of the values the agent's factories and props share (see review/_guard.ts). Not exported.
 *
 * The value classes' factories check their arguments against these; agent/_props-schema.ts builds the props' tables
 * from them. This file imports no value class, so the classes can import it.
 */
import { kplus } from './_plus';
import { boolean, instance, list, number, oneOf, required, Shape, string, struct } from '../review/_guard';
import { Severity } from '../review/severity';

/** a cdk8s Duration (duck-typed: an app may load another copy of cdk8s). */
export const DURATION: Shape = instance((v) => typeof v?.toSeconds === 'function', 'a Duration', 'Duration.seconds(30)');

/** a cdk8s Size. */
export const SIZE: Shape = instance((v) => typeof v?.toMebibytes === 'function', 'a Size', 'Size.mebibytes(128)');

/** a cdk8s-plus Cpu. */
export const CPU: Shape = instance((v) => typeof v?.amount === 'string', 'a Cpu', 'Cpu.millis(100)');

/** a cdk8s-plus PercentOrAbsolute. */
export const PERCENT_OR_ABSOLUTE: Shape = instance((v) => typeof v?.isZero === 'function', 'a PercentOrAbsolute',
  'PercentOrAbsolute.absolute(1) or PercentOrAbsolute.percent(10)');


/**
 * The enums the props take whose values no other check reads, from cdk8s-plus-28 when first checked. (Effects, host
 * path types, propagations and capabilities are checked by their classes, with messages of their own.)
 */
export const PROTOCOL: Shape = oneOf(() => kplus().Protocol, 'Protocol.TCP');
export const DNS_POLICY: Shape = oneOf(() => kplus().DnsPolicy, 'DnsPolicy.CLUSTER_FIRST');
export const SEVERITY: Shape = oneOf(() => Severity, 'Severity.HIGH');

/** a written reason, which turns a host privilege on. */
export const JUSTIFICATION: Shape = struct('Justification', { reason: string() }, {
  expected: 'an object with the reason',
  example: "{ reason: 'reads the node\\'s network interfaces' }",
});

/** `TolerationOptions`. */
export const TOLERATION_OPTIONS: Shape = struct('TolerationOptions', { effect: string('TaintEffect.NO_SCHEDULE'), evictAfter: DURATION }, {
  example: '{ effect: TaintEffect.NO_EXECUTE, evictAfter: Duration.minutes(5) }',
});

/** `HostMountOptions` and, with the reason, `ReadOnlyHostMountOptions`. */
const HOST_MOUNT_FIELDS = {
  type: string('HostPathVolumeType.DIRECTORY'),
  mountPath: string("'/host/var/log'"),
  propagation: string('MountPropagation.HOST_TO_CONTAINER'),
  volumeName: string("'var-log'"),
};
export const HOST_MOUNT_OPTIONS: Shape = struct('HostMountOptions', HOST_MOUNT_FIELDS, { example: "{ mountPath: '/host/var/log' }" });
export const READ_ONLY_HOST_MOUNT_OPTIONS: Shape = struct('ReadOnlyHostMountOptions', { ...HOST_MOUNT_FIELDS, reason: string() }, {
  example: "{ reason: 'tails container logs' }",
});

/** `RollingUpdateOptions`. */
export const ROLLING_UPDATE_OPTIONS: Shape = struct('RollingUpdateOptions', { maxUnavailable: PERCENT_OR_ABSOLUTE, maxSurge: PERCENT_OR_ABSOLUTE }, {
  example: '{ maxUnavailable: PercentOrAbsolute.percent(10) }',
});

/** `AgentProbeOptions` and `AgentHttpProbeOptions`. */
const PROBE_FIELDS = { initialDelay: DURATION, period: DURATION, timeout: DURATION, failureThreshold: number('3') };
export const PROBE_OPTIONS: Shape = struct('AgentProbeOptions', PROBE_FIELDS, { example: '{ period: Duration.seconds(10) }' });
export const HTTP_PROBE_OPTIONS: Shape = struct('AgentHttpProbeOptions', { ...PROBE_FIELDS, port: number('8080'), scheme: string("'HTTPS'") }, {
  example: '{ port: 8080 }',
});

/** `KeyToPath`: one key of a Secret or ConfigMap to a file. */
const KEY_TO_PATH: Shape = struct('KeyToPath', {
  key: required(string("'password'"), "name the key, e.g. { key: 'password', path: 'password' }"),
  path: required(string("'password'"), "give the file, e.g. { key: 'password', path: 'password' }"),
  mode: number('0o400'),
}, { example: "{ key: 'password', path: 'password' }" });
const KEY_TO_PATHS: Shape = list(KEY_TO_PATH, 'a list of keys and their files', "[{ key: 'password', path: 'password' }]", (i) => i?.key);

/** `ProjectedObjectOptions`. */
export const PROJECTED_OBJECT_OPTIONS: Shape = struct('ProjectedObjectOptions', { items: KEY_TO_PATHS, optional: boolean() }, {
  example: "{ items: [{ key: 'tls.crt', path: 'tls.crt' }] }",
});

/** `ServiceAccountTokenOptions`. */
export const SERVICE_ACCOUNT_TOKEN_OPTIONS: Shape = struct('ServiceAccountTokenOptions', {
  path: string("'token'"), audience: string("'vault'"), expiration: DURATION,
}, { example: "{ path: 'token', audience: 'vault' }" });

/** `DownwardApiFile`. */
export const DOWNWARD_API_FILE: Shape = struct('DownwardApiFile', {
  path: required(string("'labels'"), "give the file, e.g. { path: 'labels', fieldPath: 'metadata.labels' }"),
  fieldPath: required(string("'metadata.labels'"), "give the pod field, e.g. { path: 'labels', fieldPath: 'metadata.labels' }"),
  mode: number('0o440'),
}, { example: "{ path: 'labels', fieldPath: 'metadata.labels' }" });

/** `SecretVolumeOptions` and `ConfigMapVolumeOptions`. */
export const OBJECT_VOLUME_OPTIONS = (name: string): Shape => struct(name, {
  items: KEY_TO_PATHS, defaultMode: number('0o440'), optional: boolean(), volumeName: string("'loki-credentials'"),
}, { example: "{ items: [{ key: 'password', path: 'password' }], defaultMode: 0o440 }" });

/** `ProjectedVolumeOptions`. */
export const PROJECTED_VOLUME_OPTIONS: Shape = struct('ProjectedVolumeOptions', { defaultMode: number('0o440'), volumeName: string("'credentials'") }, {
  example: '{ defaultMode: 0o440 }',
});

/** `EmptyDirOptions`. */
export const EMPTY_DIR_OPTIONS: Shape = struct('EmptyDirOptions', {
  sizeLimit: SIZE, medium: oneOf(() => kplus().EmptyDirMedium, 'EmptyDirMedium.MEMORY'), volumeName: string("'buffer'"),
}, { example: '{ sizeLimit: Size.mebibytes(64), medium: EmptyDirMedium.MEMORY }' });

/** `EnvKeyOptions`. */
export const ENV_KEY_OPTIONS: Shape = struct('EnvKeyOptions', { optional: boolean() }, { example: '{ optional: true }' });

/** `EnvSourceOptions`. */
export const ENV_SOURCE_OPTIONS: Shape = struct('EnvSourceOptions', { prefix: string("'LOKI_'"), optional: boolean() }, { example: "{ prefix: 'LOKI_' }" });

/** `RegistryMirrorOptions`. */
export const REGISTRY_MIRROR_OPTIONS: Shape = struct('RegistryMirrorOptions', {
  pullSecrets: list(string("'mirror-credentials'"), 'a list of Secret names', "['mirror-credentials']"),
}, { example: "{ pullSecrets: ['mirror-credentials'] }" });
