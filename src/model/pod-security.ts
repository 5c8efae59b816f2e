import { containersOf, object, podSecurityContext, podTemplateOf, requirePodSpec, volumesOf } from './_pod-spec';
import { CHECKS } from './_psa-checks';
import { CheckContext, CheckDefinition, CheckLevel } from './_psa-common';

/**
 * The Pod Security Standards levels, from least to most strict.
 */
export enum PodSecurityLevel {
  /** unrestricted: the pod fails at least one baseline check. */
  PRIVILEGED = 'privileged',
  /** prevents known privilege escalations: the pod passes every baseline check. */
  BASELINE = 'baseline',
  /** hardened: the pod passes every restricted-profile check. */
  RESTRICTED = 'restricted',
}

/**
 * The pod-security-admission check IDs, as the `check` of a violation names them.
 */
export enum PodSecurityCheck {
  /** baseline: `spec.hostNetwork`, `spec.hostPID`, `spec.hostIPC` must be unset or false. */
  HOST_NAMESPACES = 'hostNamespaces',
  /** baseline: no container may set `securityContext.privileged: true`. */
  PRIVILEGED = 'privileged',
  /** baseline: `capabilities.add` only from the default set (exact, case-sensitive). */
  CAPABILITIES_BASELINE = 'capabilities_baseline',
  /** baseline: no hostPath volume, whatever its type or the mounts' readOnly. */
  HOST_PATH_VOLUMES = 'hostPathVolumes',
  /** baseline: no container port may set a non-zero `hostPort`. */
  HOST_PORTS = 'hostPorts',
  /** baseline: AppArmor profile type (fields and annotations) must not be unconfined. */
  APP_ARMOR_PROFILE = 'appArmorProfile',
  /** baseline: SELinux type from the allowed list; user and role unset. */
  SE_LINUX_OPTIONS = 'seLinuxOptions',
  /** baseline: `procMount` unset or `Default` (any value for `hostUsers: false` from 1.35). */
  PROC_MOUNT = 'procMount',
  /** baseline: seccomp profile type, where set, `RuntimeDefault` or `Localhost`. */
  SECCOMP_PROFILE_BASELINE = 'seccompProfile_baseline',
  /** baseline: only the safe sysctls of the policy version. */
  SYSCTLS = 'sysctls',
  /** baseline: no Windows HostProcess pod or container. */
  WINDOWS_HOST_PROCESS = 'windowsHostProcess',
  /** baseline (1.34+): probes and lifecycle handlers must not set `host`. */
  HOST_PROBES_AND_HOST_LIFECYCLE = 'hostProbesAndHostLifecycle',
  /** restricted: only configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected, secret (and image) volumes. */
  RESTRICTED_VOLUMES = 'restrictedVolumes',
  /** restricted: every container sets `allowPrivilegeEscalation: false`. */
  ALLOW_PRIVILEGE_ESCALATION = 'allowPrivilegeEscalation',
  /** restricted: `runAsNonRoot: true` on the pod or on every container, never false. */
  RUN_AS_NON_ROOT = 'runAsNonRoot',
  /** restricted: `runAsUser` is never 0. */
  RUN_AS_USER = 'runAsUser',
  /** restricted: seccomp `RuntimeDefault` or `Localhost` on the pod or on every container. */
  SECCOMP_PROFILE_RESTRICTED = 'seccompProfile_restricted',
  /** restricted: every container drops `ALL` and adds at most `NET_BIND_SERVICE`. */
  CAPABILITIES_RESTRICTED = 'capabilities_restricted',
  /** restricted (1.35+): `procMount` unset or `Default`, even for `hostUsers: false`. */
  PROC_MOUNT_RESTRICTED = 'procMount_restricted',
}

/**
 * One failed Pod Security Standards check.
 */
export interface PodSecurityViolation {
  /** the level the check belongs to: `baseline` or `restricted`. */
  readonly level: PodSecurityLevel;

  /** the pod-security-admission check ID (a `PodSecurityCheck` value), e.g. `hostPathVolumes`. */
  readonly check: string;

  /**
   * What failed, worded as pod-security-admission words it: `<reason> (<detail>)`, naming the containers,
   * volumes and fields, e.g. `host namespaces (hostNetwork=true)` or
   * `allowPrivilegeEscalation != false (container "agent" must set securityContext.allowPrivilegeEscalation=false)`.
   */
  readonly message: string;
}

/**
 * Options for a Pod Security Standards evaluation.
 */
export interface PodSecurityOptions {
  /**
   * The policy version whose rules apply, as a namespace would pin it in `pod-security.kubernetes.io/enforce-version`:
   * `'1.28'`, `'v1.34'`, or `'latest'` (the newest released version this model knows, `PodSecurity.LATEST_VERSION`).
   * Versions from 1.25 are supported; a version newer than the newest rules this model knows is evaluated with those rules,
   * as pod-security-admission does.
   *
   * @default PodSecurity.DEFAULT_VERSION ('1.28')
   */
  readonly version?: string;

  /**
   * The Kubernetes version the cluster runs (its pod-security-admission code), for the rules that depend on the code rather
   * than on the policy version: `image` volumes pass `restrictedVolumes` on clusters from 1.33, at every policy version.
   *
   * @default - a cluster at least as new as every rule this model knows (image volumes allowed)
   */
  readonly clusterVersion?: string;

  /**
   * The pod's `metadata.annotations` (for a workload, its pod template's), read for the AppArmor annotations
   * `container.apparmor.security.beta.kubernetes.io/*`.
   *
   * @default - no annotations (the workload variant reads them from the manifest)
   */
  readonly annotations?: { [key: string]: string };
}

/**
 * The result of a Pod Security Standards evaluation.
 */
export interface PodSecurityResult {
  /** the strictest level the pod satisfies. */
  readonly level: PodSecurityLevel;

  /**
   * Every failed check at every level: baseline checks first, then restricted checks, each in check-ID order.
   *
   * A review wants the full list: a privileged pod's restricted failures are what remains once its baseline failures are fixed.
   * Where a restricted check replaces a baseline one (restrictedVolumes for hostPathVolumes, capabilities_restricted for
   * capabilities_baseline, seccompProfile_restricted for seccompProfile_baseline, procMount_restricted for procMount),
   * both are listed when both fail.
   */
  readonly violations: PodSecurityViolation[];

  /**
   * The list pod-security-admission reports: the failed checks at the next stricter level, in its order (baseline checks
   * first, then restricted checks, each in check-ID order).
   * For a privileged pod the failed baseline checks; for a baseline pod the failed restricted-profile checks; for a
   * restricted pod none.
   */
  readonly nextLevelViolations: PodSecurityViolation[];

  /** the policy version evaluated, normalized: `'1.28'` or `'latest'`. */
  readonly version: string;
}

const MIN_MINOR = 25;
const LATEST_MINOR = 36;
/** the newest policy version whose rules this model knows (1.37 is unreleased at the time of writing). */
const NEWEST_RULES_MINOR = 37;

interface ParsedVersion {
  readonly label: string;
  readonly minor: number;
}

function parseVersion(version: unknown, option: string): ParsedVersion {
  if (version === 'latest') return { label: 'latest', minor: LATEST_MINOR };
  const match = typeof version === 'string' ? /^v?1\.(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))?$/.exec(version) : null;
  if (!match) {
    throw new Error(
      `${option} must be "latest" or a Kubernetes minor version such as "1.28" or "v1.28", got ${JSON.stringify(version)}: ` +
      `use "latest" or "1.${MIN_MINOR}" or later`,
    );
  }
  const minor = Number(match[1]);
  if (minor < MIN_MINOR) {
    throw new Error(
      `${option} ${JSON.stringify(version)} is older than the oldest supported policy version 1.${MIN_MINOR}: ` +
      `use "1.${MIN_MINOR}" or later (the default is "${PodSecurity.DEFAULT_VERSION}")`,
    );
  }
  return { label: `1.${minor}`, minor: Math.min(minor, NEWEST_RULES_MINOR) };
}

function levelOf(level: CheckLevel): PodSecurityLevel {
  return level === 'baseline' ? PodSecurityLevel.BASELINE : PodSecurityLevel.RESTRICTED;
}

interface Outcome {
  readonly check: CheckDefinition;
  readonly violation?: PodSecurityViolation;
}

interface Evaluation {
  readonly outcomes: Outcome[];
  readonly version: ParsedVersion;
}

function run(podSpec: any, options: PodSecurityOptions | undefined): Evaluation {
  const version = parseVersion(options?.version ?? PodSecurity.DEFAULT_VERSION, 'pod security version');
  const codeMinor = options?.clusterVersion === undefined ? NEWEST_RULES_MINOR : parseVersion(options.clusterVersion, 'cluster version').minor;
  const spec = requirePodSpec(podSpec);
  const annotations: { [key: string]: string } = {};
  for (const [k, v] of Object.entries(object(options?.annotations, 'annotations') ?? {})) annotations[k] = String(v);
  const ctx: CheckContext = {
    spec,
    podSc: podSecurityContext(spec),
    annotations,
    containers: containersOf(spec),
    volumes: volumesOf(spec),
    minor: version.minor,
    codeMinor,
    windows: object(spec.os, 'spec.os')?.name === 'windows',
    userNamespace: spec.hostUsers === false,
  };
  const outcomes = checksAt(version.minor).map((check) => {
    const failure = check.run(ctx);
    const violation = failure && { level: levelOf(check.level), check: check.id, message: `${failure.reason} (${failure.detail})` };
    return { check, violation };
  });
  return { outcomes, version };
}

/** the checks of a policy version, by minor version: selected once, not for every pod. */
const CHECKS_BY_MINOR = new Map<number, typeof CHECKS>();

function checksAt(minor: number): typeof CHECKS {
  let checks = CHECKS_BY_MINOR.get(minor);
  if (checks === undefined) CHECKS_BY_MINOR.set(minor, checks = CHECKS.filter((c) => minor >= c.since));
  return checks;
}

/** the checks pod-security-admission runs when enforcing a level (restricted replaces the baseline checks it overrides). */
function profile(outcomes: Outcome[], level: PodSecurityLevel): Outcome[] {
  if (level === PodSecurityLevel.PRIVILEGED) return [];
  const baseline = outcomes.filter((o) => o.check.level === 'baseline');
  if (level === PodSecurityLevel.BASELINE) return baseline;
  const restricted = outcomes.filter((o) => o.check.level === 'restricted');
  const overridden = new Set(restricted.map((o) => o.check.overrides).filter((id) => id !== undefined));
  return [...baseline.filter((o) => !overridden.has(o.check.id)), ...restricted];
}

/** pod-security-admission's order (policy/registry.go): baseline checks first, then restricted checks, each by check ID. */
function byCheck(violations: PodSecurityViolation[]): PodSecurityViolation[] {
  const rank = (v: PodSecurityViolation) => (v.level === PodSecurityLevel.BASELINE ? 0 : 1);
  return [...violations].sort((a, b) => rank(a) - rank(b) || (a.check < b.check ? -1 : a.check > b.check ? 1 : 0));
}

function failures(outcomes: Outcome[]): PodSecurityViolation[] {
  return byCheck(outcomes.map((o) => o.violation).filter((v): v is PodSecurityViolation => v !== undefined));
}

function requireLevel(level: unknown): PodSecurityLevel {
  const levels = Object.values(PodSecurityLevel) as string[];
  if (typeof level !== 'string' || !levels.includes(level)) {
    throw new Error(`pod security level must be one of ${levels.join(', ')}, got ${JSON.stringify(level)}: pass a PodSecurityLevel value`);
  }
  return level as PodSecurityLevel;
}

/**
 * Evaluates a pod spec against the Kubernetes Pod Security Standards, check by check as pod-security-admission does.
 *
 * Init, regular and ephemeral containers are all checked; one bad container fails the pod.
 *
 * @example
 * const result = PodSecurity.evaluate(daemonSet.spec.template.spec, { version: '1.28' });
 * result.level;              // PodSecurityLevel.BASELINE
 * result.nextLevelViolations; // what `kubectl label ns x pod-security.kubernetes.io/enforce=restricted` would reject
 */
export class PodSecurity {
  /** the policy version evaluated when none is given, and the one constructs pin by default. */
  public static readonly DEFAULT_VERSION = '1.28';

  /** the newest released policy version this model knows: what `'latest'` evaluates. */
  public static readonly LATEST_VERSION = `1.${LATEST_MINOR}`;

  /** the oldest policy version this model supports. */
  public static readonly OLDEST_VERSION = `1.${MIN_MINOR}`;

  /**
   * Evaluates a pod spec.
   *
   * @param podSpec a `v1` PodSpec as plain JSON
   * @param options the policy version and the pod's annotations
   * @returns the strictest level the pod satisfies and every failed check
   * @throws when the spec is not a JSON object, a list or object field has the wrong JSON type, or the version is not valid
   */
  public static evaluate(podSpec: any, options?: PodSecurityOptions): PodSecurityResult {
    const { outcomes, version } = run(podSpec, options);
    const baselineFailures = failures(profile(outcomes, PodSecurityLevel.BASELINE));
    const restrictedFailures = failures(profile(outcomes, PodSecurityLevel.RESTRICTED));
    let level: PodSecurityLevel;
    let nextLevelViolations: PodSecurityViolation[];
    if (baselineFailures.length > 0) {
      level = PodSecurityLevel.PRIVILEGED;
      nextLevelViolations = baselineFailures;
    } else if (restrictedFailures.length > 0) {
      level = PodSecurityLevel.BASELINE;
      nextLevelViolations = restrictedFailures;
    } else {
      level = PodSecurityLevel.RESTRICTED;
      nextLevelViolations = [];
    }
    const all = failures(outcomes);
    const violations = [
      ...all.filter((v) => v.level === PodSecurityLevel.BASELINE),
      ...all.filter((v) => v.level === PodSecurityLevel.RESTRICTED),
    ];
    return { level, violations, nextLevelViolations, version: version.label };
  }

  /**
   * Evaluates the pod of a workload manifest (Pod, PodTemplate, Deployment, DaemonSet, StatefulSet, ReplicaSet,
   * ReplicationController, Job or CronJob), reading the AppArmor annotations from its pod template.
   *
   * @param manifest a workload as plain JSON
   * @param options the policy version; `annotations`, when given, replace the pod template's
   * @throws when the manifest is not a workload kind or has no pod spec
   */
  public static evaluateWorkload(manifest: any, options?: PodSecurityOptions): PodSecurityResult {
    const template = podTemplateOf(manifest);
    return PodSecurity.evaluate(template.spec, { ...options, annotations: options?.annotations ?? template.annotations });
  }

  /**
   * The violations pod-security-admission reports when a namespace enforces `level`, in its order (baseline checks
   * first, then restricted checks, each in check-ID order): empty when the pod is admitted.
   *
   * At `restricted` the restricted profile runs (restrictedVolumes, capabilities_restricted, seccompProfile_restricted and,
   * from 1.35, procMount_restricted in place of the baseline checks they replace); at `privileged` nothing is checked.
   *
   * @param podSpec a `v1` PodSpec as plain JSON
   * @param level the enforced level
   * @param options the policy version and the pod's annotations
   */
  public static violationsAt(podSpec: any, level: PodSecurityLevel, options?: PodSecurityOptions): PodSecurityViolation[] {
    const enforced = requireLevel(level);
    return failures(profile(run(podSpec, options).outcomes, enforced));
  }

  /**
   * Whether a pod satisfies a level.
   *
   * @param podSpec a `v1` PodSpec as plain JSON
   * @param level the level to satisfy
   * @param options the policy version and the pod's annotations
   */
  public static satisfies(podSpec: any, level: PodSecurityLevel, options?: PodSecurityOptions): boolean {
    return PodSecurity.violationsAt(podSpec, level, options).length === 0;
  }

  /**
   * The value to pin in a namespace's `pod-security.kubernetes.io/<mode>-version` label: `v1.28` or `latest`.
   *
   * @param version a version as `PodSecurityOptions.version` takes it; `PodSecurity.DEFAULT_VERSION` when omitted
   * @throws when the version is not valid
   */
  public static versionLabel(version?: string): string {
    const parsed = parseVersion(version ?? PodSecurity.DEFAULT_VERSION, 'pod security version');
    return parsed.label === 'latest' ? 'latest' : `v${parsed.label}`;
  }

  /**
   * The level a check ID belongs to.
   *
   * @param check a pod-security-admission check ID (a `PodSecurityCheck` value)
   * @throws when the check ID is not known
   */
  public static levelOfCheck(check: string): PodSecurityLevel {
    const found = CHECKS.find((c) => c.id === check);
    if (!found) {
      throw new Error(`unknown pod security check ${JSON.stringify(check)}: use one of ${CHECKS.map((c) => c.id).join(', ')}`);
    }
    return levelOf(found.level);
  }
}
