/**
 * Internal: what the Pod Security Standards checks share (`_psa-baseline.ts`, `_psa-restricted.ts`): their types, the
 * helpers of pod-security-admission's helpers.go, and the tables of allowed values by policy version.
 */
import { ContainerRef, object, stringItems } from './_pod-spec';

export type CheckLevel = 'baseline' | 'restricted';

/** what a check sees. */
export interface CheckContext {
  readonly spec: any;
  /** pod-level securityContext, or {}. */
  readonly podSc: any;
  readonly annotations: { readonly [key: string]: string };
  readonly containers: ContainerRef[];
  readonly volumes: any[];
  /** the policy version's minor number (1.x). */
  readonly minor: number;
  /** the minor number of the pod-security-admission code the cluster runs. */
  readonly codeMinor: number;
  /** `spec.os.name: windows`. */
  readonly windows: boolean;
  /** `spec.hostUsers: false` (a user-namespaced pod). */
  readonly userNamespace: boolean;
}

export interface CheckFailure {
  readonly reason: string;
  readonly detail: string;
}

export interface CheckDefinition {
  readonly id: string;
  readonly level: CheckLevel;
  /** first policy minor version (1.x) at which the check exists. */
  readonly since: number;
  /** the baseline check this restricted check replaces at restricted level. */
  readonly overrides?: string;
  run(ctx: CheckContext): CheckFailure | undefined;
}

// ---------------------------------------------------------------------------------------------
// helpers, as in pod-security-admission's helpers.go

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

export function joinQuote(items: string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

export function sortedSet(items: Iterable<string>): string[] {
  return [...new Set(items)].sort();
}

/** `container "a"` / `containers "a", "b"`. */
export function containersPhrase(names: string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

export function str(value: unknown): string {
  return isSet(value) ? String(value) : '';
}

export function containerPath(c: ContainerRef): string {
  return `spec.${c.list}[name=${c.name}]`;
}

// ---------------------------------------------------------------------------------------------
// version-dependent data

/** sysctls allowed by the baseline profile, by the policy minor version that added them. */
export const SAFE_SYSCTLS: Array<{ since: number; names: string[] }> = [
  {
    since: 0,
    names: [
      'kernel.shm_rmid_forced',
      'net.ipv4.ip_local_port_range',
      'net.ipv4.tcp_syncookies',
      'net.ipv4.ping_group_range',
      'net.ipv4.ip_unprivileged_port_start',
    ],
  },
  { since: 27, names: ['net.ipv4.ip_local_reserved_ports'] },
  { since: 29, names: ['net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'] },
  { since: 32, names: ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'] },
  { since: 37, names: ['net.ipv4.tcp_slow_start_after_idle', 'net.ipv4.tcp_notsent_lowat'] },
];

/** the sysctl names the baseline profile allows at a policy minor version. */
export function safeSysctls(minor: number): ReadonlySet<string> {
  return byMinor(SAFE_SYSCTLS_BY_MINOR, minor, () => new Set(SAFE_SYSCTLS.filter((s) => minor >= s.since).flatMap((s) => s.names)));
}

/**
 * The version-dependent sets, built once per minor version: every check of every pod asks for them (a review of
 * thousands of workloads, or a synth of thousands of agents, would build them once per pod).
 */
function byMinor(cache: Map<number, ReadonlySet<string>>, minor: number, build: () => Set<string>): ReadonlySet<string> {
  let set = cache.get(minor);
  if (set === undefined) cache.set(minor, set = build());
  return set;
}

const SAFE_SYSCTLS_BY_MINOR = new Map<number, ReadonlySet<string>>();
const SELINUX_TYPES_BY_MINOR = new Map<number, ReadonlySet<string>>();
const VOLUME_SOURCES_BY_MINOR = new Map<number, ReadonlySet<string>>();

/** capabilities the baseline profile allows in `capabilities.add` (exact, case-sensitive). */
export const BASELINE_CAPABILITIES = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD',
  'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);

export function seLinuxTypes(minor: number): ReadonlySet<string> {
  return byMinor(SELINUX_TYPES_BY_MINOR, minor, () => {
    const types = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
    if (minor >= 31) types.add('container_engine_t');
    return types;
  });
}

/** inline volume sources the restricted profile allows. */
export function allowedVolumeSources(codeMinor: number): ReadonlySet<string> {
  return byMinor(VOLUME_SOURCES_BY_MINOR, codeMinor, () => {
    const sources = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);
    if (codeMinor >= 33) sources.add('image');
    return sources;
  });
}

export function validSeccomp(type: unknown): boolean {
  return type === 'RuntimeDefault' || type === 'Localhost';
}

export function validAppArmorType(type: unknown): boolean {
  return type === 'RuntimeDefault' || type === 'Localhost';
}

export const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

export function validAppArmorAnnotation(value: string): boolean {
  return value === '' || value === 'runtime/default' || value.startsWith('localhost/');
}

/** capabilities listed under `capabilities.<field>` of a container, as strings. */
export function capabilityList(c: ContainerRef, field: 'add' | 'drop'): string[] {
  const caps = object(c.sc.capabilities, `${containerPath(c)}.securityContext.capabilities`);
  return stringItems(caps?.[field], `${containerPath(c)}.securityContext.capabilities.${field}`);
}

/** `pod and containers "a", "b"`: the setters of a bad value, PSA style. */
export function setters(pod: boolean, containers: string[]): string[] {
  const result: string[] = [];
  if (pod) result.push('pod');
  if (containers.length > 0) result.push(containersPhrase(containers));
  return result;
}

/** the source fields of a volume (everything set except its name). */
export function volumeSources(volume: any): string[] {
  return Object.keys(volume).filter((k) => k !== 'name' && isSet(volume[k]));
}
