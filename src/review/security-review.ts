import { HostAccessReason, HostAccessReasons, HostAccessType, HostRisk, PodSecurity } from '../model';
import { hostAccessOf, podSecurityOf } from './_memo';
import { describePrivilege } from './_privileges';
import { renderMarkdown } from './_report';
import { workloadAnnotations } from './_workload';
import { Acknowledgement, Acknowledgements } from './acknowledgement';
import { Finding } from './finding';
import { ReviewPack } from './review-pack';
import { HostPrivilege, IReviewRule, RuleViolation, WorkloadContext } from './review-rule';
import { ApiRejectedRule } from './rules/api-rejected';
import { Severities, Severity } from './severity';
import { dig, dropUndefined, isObject } from '../model/_pod-spec';

/**
 * Options for a security review.
 */
export interface ReviewOptions {
  /**
   * The rule packs to run. A rule in several packs (the same ID) runs once.
   *
   * @default ReviewPack.defaults(): seed baseline, node-agent practices and Pod Security baseline
   */
  readonly packs?: ReviewPack[];

  /**
   * The Pod Security Standards policy version to evaluate, as a namespace pins it: `'1.28'`, `'v1.34'` or `'latest'`.
   *
   * @default '1.28' (PodSecurity.DEFAULT_VERSION)
   */
  readonly podSecurityVersion?: string;

  /**
   * The registries images may come from: registry hosts (`registry.example.com`) or host and path prefixes
   * (`docker.io/falcosecurity`). Read by the `NA-IMAGE-REGISTRY` rule.
   *
   * @default - any registry
   */
  readonly allowedRegistries?: string[];

  /**
   * Acknowledgements from outside the manifests (e.g. from the construct tree), added to those in each workload's
   * `node-agents.cdk8s.io/acknowledged` annotation.
   *
   * @default - only those in the manifests' annotations
   */
  readonly acknowledgements?: AcknowledgedWorkload[];
}

/**
 * The acknowledgements that apply to one workload, identified by kind, namespace and name.
 */
export interface AcknowledgedWorkload {
  /** the workload's kind, e.g. `DaemonSet`. */
  readonly kind: string;

  /**
   * The workload's namespace, as its manifest sets it.
   *
   * @default - a workload whose manifest sets no namespace
   */
  readonly namespace?: string;

  /** the workload's name. */
  readonly name: string;

  /** the findings accepted for it, each with its reason. */
  readonly acknowledgements: Acknowledgement[];
}

/**
 * One host privilege of a workload, with its risk and the reason recorded for it.
 */
export interface HostAccessEntry {
  /** the kind of privilege: a `HostAccessType` value (`hostPath`, `hostNetwork`, `hostPID`, `hostIPC`, `hostPort`, `privileged`, `capability`, `runAsRoot`). */
  readonly type: string;

  /**
   * Which privilege: the host path with `(read-only)` or `(read-write)`, the capability, `port/protocol`, the container
   * name (privileged, runAsRoot), or empty (host namespaces).
   */
  readonly detail: string;

  /** the privilege's risk: a `RiskLevel` value. */
  readonly risk: string;

  /**
   * The container that holds it.
   *
   * @default - a pod-level privilege (host namespaces, hostPath volumes)
   */
  readonly container?: string;

  /**
   * The reason recorded for it in the workload's `node-agents.cdk8s.io/host-access` annotation.
   *
   * @default - no reason recorded
   */
  readonly reason?: string;

  /** what an attacker who controls the container gains through it. */
  readonly attackerGains: string;

  /** how to get what the agent needs with less. */
  readonly saferAlternative: string;
}

/**
 * The review of one workload.
 */
export interface WorkloadReview {
  /** the workload's kind. */
  readonly kind: string;

  /**
   * The workload's namespace.
   *
   * @default - the manifest sets no namespace
   */
  readonly namespace?: string;

  /** the workload's name. */
  readonly name: string;

  /** the strictest Pod Security level the pod satisfies (`privileged`, `baseline`, `restricted`), or `unknown` when its spec cannot be read. */
  readonly podSecurityLevel: string;

  /** every host privilege the pod takes, in `HostAccess` order. */
  readonly hostAccess: HostAccessEntry[];

  /** every finding, open and acknowledged: by severity (critical first), then rule, container, field and message. */
  readonly findings: Finding[];
}

/**
 * The result of a security review.
 */
export interface ReviewReport {
  /** one review per workload, in the order of the manifests. */
  readonly workloads: WorkloadReview[];

  /**
   * The Pod Security policy version evaluated, normalised: `1.28` or `latest`.
   *
   * @default - not recorded
   */
  readonly podSecurityVersion?: string;

  /**
   * The IDs of the packs that ran.
   *
   * @default - not recorded
   */
  readonly packs?: string[];
}

/** where each workload kind keeps its pod spec. */
const POD_SPEC_PATHS: { [kind: string]: string[] } = {
  DaemonSet: ['spec', 'template', 'spec'],
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
  Pod: ['spec'],
};

const ERROR_FIX = 'fix the manifest so that every field has the type Kubernetes expects (the API server would reject it too), then review again';

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareFindings(a: Finding, b: Finding): number {
  return Severities.rank(b.severity) - Severities.rank(a.severity)
    || compare(a.rule, b.rule)
    || compare(a.container ?? '', b.container ?? '')
    || compare(a.field ?? '', b.field ?? '')
    || compare(a.message, b.message);
}

function errorMessage(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.split('\n')[0];
}

/** `DaemonSet logging/fluent-bit`, or `DaemonSet fluent-bit` without a namespace. */
function refOf(kind: string, namespace: string | undefined, name: string): string {
  return `${kind} ${namespace ? `${namespace}/` : ''}${name || '<unnamed>'}`;
}

/** the rules the engine runs on every review, whatever the packs; their findings cannot be acknowledged. */
const ENGINE_RULES: IReviewRule[] = [new ApiRejectedRule()];
const ENGINE_RULE_IDS = new Set([...ENGINE_RULES.map((r) => r.id)]);

/** whether a finding of this rule always blocks: the API server rejects the manifest, whatever the threshold. */
function alwaysBlocks(rule: string): boolean {
  return ENGINE_RULE_IDS.has(rule);
}

/** the engine's rules, then the rules of the packs, each ID once; the same rule (or an equal built-in one) in two packs is not an error. */
function rulesOf(packs: ReviewPack[]): IReviewRule[] {
  const byId = new Map<string, IReviewRule>(ENGINE_RULES.map((r) => [r.id, r]));
  for (const pack of packs) {
    if (!(pack instanceof ReviewPack)) throw new Error('review options: packs must be ReviewPack objects, e.g. ReviewPack.defaults()');
    for (const rule of pack.rules) {
      const existing = byId.get(rule.id);
      if (!existing) {
        byId.set(rule.id, rule);
      } else if (existing !== rule && existing.constructor !== rule.constructor) {
        throw new Error(`review options: two different rules have the ID ${rule.id} (pack ${pack.id} and an earlier pack): give each rule its own ID`);
      }
    }
  }
  return [...byId.values()];
}

function validateOptions(options: ReviewOptions): void {
  const registries = options.allowedRegistries;
  if (registries !== undefined && (!Array.isArray(registries) || registries.some((r) => typeof r !== 'string' || r.trim() === ''))) {
    throw new Error(`review options: allowedRegistries must be a list of registry hosts such as "registry.example.com", got ${JSON.stringify(registries)}`);
  }
  for (const w of options.acknowledgements ?? []) {
    if (!w || typeof w.kind !== 'string' || typeof w.name !== 'string' || !Array.isArray(w.acknowledgements)) {
      throw new Error(`review options: each acknowledged workload needs kind, name and acknowledgements, got ${JSON.stringify(w)}`);
    }
    // the same checks as the annotation: a rule and a non-empty reason
    Acknowledgements.format(w.acknowledgements);
  }
}

/**
 * The security review engine (cdk-nag style): runs every rule of the packs over every workload among the manifests,
 * turns violations into findings, applies acknowledgements and renders the report.
 *
 * Workloads are the manifests of kind DaemonSet, Deployment, StatefulSet, ReplicaSet, Job, CronJob and Pod (any
 * apiVersion); the other manifests (Namespaces, ServiceAccounts, RBAC) are context for the rules. A rule that throws
 * becomes a finding of that rule; an annotation that cannot be read becomes a `NA-REVIEW-ERROR` finding: nothing
 * passes silently.
 *
 * Findings are accepted two ways, and stay in the report marked `acknowledged` with the reason: by an
 * `Acknowledgement` of their rule (in the workload's `node-agents.cdk8s.io/acknowledged` annotation or in
 * `ReviewOptions.acknowledgements`), or, for a finding that exists only because a host privilege is taken (see
 * `RuleViolation.privileges`) and is not critical, by the reason recorded for that privilege in the workload's
 * `node-agents.cdk8s.io/host-access` annotation.
 *
 * @example
 * const report = SecurityReview.review(manifests);
 * SecurityReview.openFindings(report, Severity.HIGH); // what should block a deploy
 * fs.writeFileSync('security-review.md', SecurityReview.toMarkdown(report));
 */
export class SecurityReview {
  /** the rule ID of findings the engine itself raises: an annotation it cannot read, a workload without a pod spec. */
  public static readonly ERROR_RULE = 'NA-REVIEW-ERROR';

  /**
   * The rule ID of findings the API server's own rules raise (`PodSpecValidation`): the engine runs it on every review,
   * whatever the packs; its findings cannot be acknowledged and count as open at every threshold.
   */
  public static readonly API_REJECTED_RULE = 'NA-API-REJECTED';

  /**
   * Reviews every workload among the manifests.
   *
   * @param manifests Kubernetes objects as plain JSON (any kinds: non-workloads are context)
   * @param options packs, policy version, allowed registries and extra acknowledgements
   * @throws when `manifests` is not a list of objects, or an option is not valid (policy version, registries, packs,
   * acknowledgements without a reason)
   */
  public static review(manifests: any[], options: ReviewOptions = {}): ReviewReport {
    const resolved = resolveOptions(options);
    const rules = rulesOf(resolved.packs ?? []);
    const optionAcks = acknowledgementsByWorkload(resolved);
    return {
      workloads: contextsOf(manifests, resolved).map((ctx) => reviewWorkload(ctx, rules, optionAcks)),
      podSecurityVersion: normalizedVersion(resolved.podSecurityVersion),
      packs: (resolved.packs ?? []).map((p) => p.id),
    };
  }

  /**
   * The workloads among the manifests, as rules see them: useful to test a rule of your own.
   *
   * @param manifests Kubernetes objects as plain JSON
   * @param options the review options (resolved: packs and policy version get their defaults)
   * @throws when `manifests` is not a list of objects or an option is not valid
   */
  public static workloads(manifests: any[], options: ReviewOptions = {}): WorkloadContext[] {
    const resolved = resolveOptions(options);
    rulesOf(resolved.packs ?? []);
    return contextsOf(manifests, resolved);
  }

  /**
   * The findings still open at or above a severity: what should fail a build or a deploy.
   *
   * @param report a review
   * @param threshold the lowest severity that counts
   */
  public static openFindings(report: ReviewReport, threshold: Severity): Finding[] {
    Severities.rank(threshold);
    return report.workloads.flatMap((w) => w.findings)
      .filter((f) => !f.acknowledged && (alwaysBlocks(f.rule) || Severities.atLeast(f.severity, threshold)));
  }

  /**
   * `openFindings(review(manifests, options), threshold)`, computed with only what it needs: the gate a NodeAgent
   * runs on every synth. Neither the report's host-access entries nor the findings below the threshold are built.
   *
   * With `wellFormed` (the caller rendered the manifests from typed values, so every field has the type Kubernetes
   * expects), the rules rated below the threshold do not run either: a rule's severity is the highest it gives, and
   * only a rule that crashes on a malformed field reports above it.
   *
   * @internal
   */
  public static _openFindings(manifests: any[], options: ReviewOptions, threshold: Severity, wellFormed: boolean): Finding[] {
    Severities.rank(threshold);
    const resolved = resolveOptions(options);
    const rules = rulesOf(resolved.packs ?? []).filter((r) => !wellFormed || alwaysBlocks(r.id) || Severities.atLeast(r.severity, threshold));
    const optionAcks = acknowledgementsByWorkload(resolved);
    return contextsOf(manifests, resolved)
      .flatMap((ctx) => reviewWorkload(ctx, rules, optionAcks, threshold).findings)
      .filter((f) => !f.acknowledged);
  }

  /**
   * The review for people, as Markdown that also reads well in a terminal: per workload its Pod Security level, every
   * host privilege with its risk, what an attacker gains, the safer alternative and the reason given (or "no reason
   * recorded"), then the open findings with their fixes and the acknowledged ones with their reasons.
   *
   * @param report a review
   */
  public static toMarkdown(report: ReviewReport): string {
    return renderMarkdown(report);
  }

  /**
   * The review for tools: JSON, two-space indented, with a fixed key order, so that the same review is the same text.
   * The shape is `{ podSecurityVersion, packs, workloads: [{ kind, namespace, name, podSecurityLevel,
   * hostAccess: [{ type, detail, risk, container, reason, attackerGains, saferAlternative }],
   * findings: [{ rule, severity, message, fix, kind, namespace, name, container, field, acknowledged, acknowledgedReason }] }] }`
   * (absent optional fields are left out).
   *
   * @param report a review
   */
  public static toJson(report: ReviewReport): string {
    const out = dropUndefined({
      podSecurityVersion: report.podSecurityVersion,
      packs: report.packs,
      workloads: report.workloads.map((w) => dropUndefined({
        kind: w.kind,
        namespace: w.namespace,
        name: w.name,
        podSecurityLevel: w.podSecurityLevel,
        hostAccess: w.hostAccess.map((h) => dropUndefined({
          type: h.type,
          detail: h.detail,
          risk: h.risk,
          container: h.container,
          reason: h.reason,
          attackerGains: h.attackerGains,
          saferAlternative: h.saferAlternative,
        })),
        findings: w.findings.map((f) => dropUndefined({
          rule: f.rule,
          severity: f.severity,
          message: f.message,
          fix: f.fix,
          kind: f.kind,
          namespace: f.namespace,
          name: f.name,
          container: f.container,
          field: f.field,
          acknowledged: f.acknowledged,
          acknowledgedReason: f.acknowledgedReason,
        })),
      })),
    });
    return `${JSON.stringify(out, null, 2)}\n`;
  }

}

function resolveOptions(options: ReviewOptions): ReviewOptions {
  if (!isObject(options)) throw new Error('review options must be an object');
  validateOptions(options);
  const podSecurityVersion = options.podSecurityVersion ?? PodSecurity.DEFAULT_VERSION;
  PodSecurity.versionLabel(podSecurityVersion); // throws a clear error for a bad version
  return { ...options, packs: options.packs ?? ReviewPack.defaults(), podSecurityVersion };
}

function contextsOf(manifests: any[], options: ReviewOptions): WorkloadContext[] {
  if (!Array.isArray(manifests)) throw new Error('manifests must be a list of Kubernetes objects (parsed YAML documents)');
  manifests.forEach((m, i) => {
    if (!isObject(m)) throw new Error(`manifests[${i}] must be a Kubernetes object (a mapping with apiVersion and kind), got ${JSON.stringify(m)}`);
  });
  // a copy per review: the rules' indexes of the manifests (RBAC, ServiceAccounts) are keyed by this list
  const allManifests = [...manifests];
  return allManifests
    .filter((m) => typeof m.kind === 'string' && Object.prototype.hasOwnProperty.call(POD_SPEC_PATHS, m.kind))
    .map((m) => {
      const path = POD_SPEC_PATHS[m.kind];
      const ns = m.metadata?.namespace;
      const name = m.metadata?.name;
      return {
        manifest: m,
        kind: m.kind,
        namespace: typeof ns === 'string' && ns !== '' ? ns : undefined,
        name: typeof name === 'string' ? name : '',
        podSpec: dig(m, path),
        podSpecPath: path.join('.'),
        allManifests,
        options,
      };
    });
}

function normalizedVersion(version: string | undefined): string {
  const label = PodSecurity.versionLabel(version);
  return label.startsWith('v') ? label.slice(1) : label;
}

interface Draft {
  readonly rule: string;
  readonly severity: Severity;
  readonly message: string;
  readonly fix: string;
  readonly container?: string;
  readonly field?: string;
  readonly privileges?: HostPrivilege[];
}

/** the host-access reasons that explain every privilege of a finding, or undefined when one has none or the finding is critical. */
function explainedBy(draft: Draft, reasons: HostAccessReason[]): string | undefined {
  if (!draft.privileges || draft.privileges.length === 0 || draft.severity === Severity.CRITICAL) return undefined;
  const explained: string[] = [];
  for (const p of draft.privileges) {
    const found = HostAccessReasons.find(reasons, p.type as HostAccessType, p.detail, p.container);
    if (!found || found.reason.trim() === '') return undefined;
    explained.push(`host-access reason for ${describePrivilege({ type: p.type as HostAccessType, detail: p.detail })}: ${found.reason.trim()}`);
  }
  return [...new Set(explained)].join('; ');
}

function workloadKey(kind: string, namespace: string | undefined, name: string): string {
  return JSON.stringify([kind, namespace || '', name]);
}

/** the acknowledgements given in the options, by workload. */
function acknowledgementsByWorkload(options: ReviewOptions): Map<string, Acknowledgement[]> {
  const byWorkload = new Map<string, Acknowledgement[]>();
  for (const w of options.acknowledgements ?? []) {
    const key = workloadKey(w.kind, w.namespace, w.name);
    byWorkload.set(key, [...(byWorkload.get(key) ?? []), ...w.acknowledgements]);
  }
  return byWorkload;
}

/**
 * Reviews one workload. With a `threshold`, only the findings at or above it are built, and the report's host-access
 * entries are left empty: what a gate needs, nothing more.
 */
function reviewWorkload(
  ctx: WorkloadContext, rules: IReviewRule[], optionAcks: Map<string, Acknowledgement[]>, threshold?: Severity,
): WorkloadReview {
  const ref = refOf(ctx.kind, ctx.namespace, ctx.name);
  const drafts: Draft[] = [];
  const engineError = (message: string) => drafts.push({ rule: SecurityReview.ERROR_RULE, severity: Severity.HIGH, message, fix: ERROR_FIX });

  let acks: Acknowledgement[] = [];
  let reasons: HostAccessReason[] = [];
  try {
    const annotations = workloadAnnotations(ctx);
    try {
      acks = Acknowledgements.parse(annotations);
    } catch (e) {
      engineError(`${errorMessage(e)}; no acknowledgement of this workload applies`);
    }
    try {
      reasons = HostAccessReasons.parse(annotations);
    } catch (e) {
      engineError(`${errorMessage(e)}; the report shows no reason for its host privileges`);
    }
  } catch (e) {
    engineError(`cannot read the annotations: ${errorMessage(e)}`);
  }
  acks = [...acks, ...(optionAcks.get(workloadKey(ctx.kind, ctx.namespace, ctx.name)) ?? [])];

  let hostAccess: HostAccessEntry[] = [];
  let podSecurityLevel = 'unknown';
  if (!isObject(ctx.podSpec)) {
    engineError(`has no pod spec at ${ctx.podSpecPath}: nothing in it could be reviewed`);
  } else {
    try {
      const items = hostAccessOf(ctx);
      // a gate reports findings only: the report's entries (risk, wording) are not built.
      if (threshold === undefined) {
        hostAccess = items.map((item) => {
          const assessment = HostRisk.assess(item);
          const reason = HostAccessReasons.find(reasons, item.type, item.detail, item.container)?.reason;
          return dropUndefined({
            type: item.type as string,
            detail: item.detail,
            risk: assessment.risk as string,
            container: item.container,
            reason: reason !== undefined && reason.trim() !== '' ? reason : undefined,
            attackerGains: assessment.attackerGains,
            saferAlternative: assessment.saferAlternative,
          });
        });
      }
    } catch (e) {
      engineError(`cannot list its host privileges: ${errorMessage(e)}`);
    }
    try {
      podSecurityLevel = podSecurityOf(ctx).level;
    } catch (e) {
      engineError(`cannot evaluate its Pod Security level: ${errorMessage(e)}`);
    }
    for (const rule of rules) drafts.push(...runRule(rule, ctx));
  }

  const findings = drafts.filter((d) => threshold === undefined || alwaysBlocks(d.rule) || Severities.atLeast(d.severity, threshold)).map((d) => {
    const message = `${ref}${d.container !== undefined ? `, container ${JSON.stringify(d.container)}` : ''}: ${d.message}` +
      `${d.field !== undefined ? ` (${d.field})` : ''}`;
    const matching = alwaysBlocks(d.rule) ? [] : acks.filter((a) => a.rule === d.rule && (a.container === undefined || a.container === d.container));
    const reasonsGiven = [...new Set(matching.map((a) => a.reason.trim()))];
    const explanation = explainedBy(d, reasons);
    if (explanation !== undefined) reasonsGiven.push(explanation);
    return dropUndefined<Finding>({
      rule: d.rule,
      severity: d.severity,
      message,
      fix: d.fix,
      kind: ctx.kind,
      namespace: ctx.namespace,
      name: ctx.name,
      container: d.container,
      field: d.field,
      acknowledged: reasonsGiven.length > 0,
      acknowledgedReason: reasonsGiven.length > 0 ? reasonsGiven.join('; ') : undefined,
    });
  });
  findings.sort(compareFindings);
  return dropUndefined({ kind: ctx.kind, namespace: ctx.namespace, name: ctx.name, podSecurityLevel, hostAccess, findings });
}

function runRule(rule: IReviewRule, ctx: WorkloadContext): Draft[] {
  const errorSeverity = Severities.atLeast(rule.severity, Severity.HIGH) ? rule.severity : Severity.HIGH;
  let violations: RuleViolation[];
  try {
    violations = rule.evaluate(ctx);
    if (!Array.isArray(violations)) throw new Error(`evaluate returned ${JSON.stringify(violations)}, not a list of violations`);
    for (const v of violations) {
      if (!v || typeof v.message !== 'string' || v.message === '') throw new Error(`evaluate returned a violation without a message: ${JSON.stringify(v)}`);
      if (v.severity !== undefined) Severities.rank(v.severity);
      if (v.privileges !== undefined && !Array.isArray(v.privileges)) throw new Error(`evaluate returned privileges that are not a list: ${JSON.stringify(v.privileges)}`);
    }
  } catch (e) {
    return [{
      rule: rule.id,
      severity: errorSeverity,
      message: `rule ${rule.id} could not evaluate it: ${errorMessage(e)}`,
      fix: ERROR_FIX,
    }];
  }
  return violations.map((v) => dropUndefined({
    rule: rule.id,
    severity: v.severity ?? rule.severity,
    message: v.message,
    fix: v.fix ?? rule.fix,
    container: v.container,
    field: v.field,
    privileges: v.privileges,
  }));
}
