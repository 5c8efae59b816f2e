// Internal: the security review engine behind SecurityReview: resolves the options, finds the workloads among the
// manifests, runs the rules, turns violations into findings and applies acknowledgements and host-access reasons.
import { HostAccessReason, HostAccessReasons, HostAccessType, HostRisk, PodSecurity } from '../model';
import { hostAccessOf, podSecurityOf } from './_memo';
import { Draft, mergeDrafts } from './_merge';
import { NamespaceResolver, namespaceNameError, ownNamespace, registerResolver } from './_namespace';
import { describePrivilege } from './_privileges';
import { POD_SPEC_PATHS, workloadAnnotations } from './_workload';
import { Acknowledgement, Acknowledgements } from './acknowledgement';
import { Finding } from './finding';
import { ReviewOptions } from './review-options';
import { ReviewPack } from './review-pack';
import { HostAccessEntry, WorkloadReview } from './review-report';
import { IReviewRule, RuleViolation, WorkloadContext } from './review-rule';
import { ApiRejectedRule } from './rules/api-rejected';
import { Severities, Severity } from './severity';
import { apiDefinitionOf, apiTypeErrors } from '../model/_api-type-check';
import { dig, dropUndefined, isObject } from '../model/_pod-spec';

/** the rule ID of findings the engine itself raises (`SecurityReview.ERROR_RULE`). */
export const ERROR_RULE = 'NA-REVIEW-ERROR';

/** the rules the engine runs on every review, whatever the packs: the API server's own rules. */
const ENGINE_RULES: IReviewRule[] = [new ApiRejectedRule()];
const ENGINE_RULE_IDS = new Set(ENGINE_RULES.map((r) => r.id));

/** the rule ID of the API server's rules (`SecurityReview.API_REJECTED_RULE`). */
export const API_REJECTED_RULE = ENGINE_RULES[0].id;

/**
 * Whether a finding of this rule always counts: the API server rejects the manifest, so its findings cannot be
 * acknowledged and are open at every threshold.
 */
export function alwaysBlocks(rule: string): boolean {
  return rule === ERROR_RULE || ENGINE_RULE_IDS.has(rule);
}

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

/**
 * The rules of frozen packs, by the packs' list: a NodeAgent reviews itself at every synth with the same frozen default
 * packs, whose rules cannot change (a list that is not frozen, or a pack whose rules are not, is read afresh each time).
 */
const RULES_OF_FROZEN = new WeakMap<object, IReviewRule[]>();

/** the engine's rules, then the rules of the packs, each ID once; the same rule (or an equal built-in one) in two packs is not an error. */
export function rulesOf(packs: ReviewPack[]): IReviewRule[] {
  const cached = RULES_OF_FROZEN.get(packs);
  if (cached !== undefined) return cached;
  const rules = collectRules(packs);
  if (Object.isFrozen(packs) && packs.every((p) => Object.isFrozen(p.rules))) RULES_OF_FROZEN.set(packs, Object.freeze(rules) as IReviewRule[]);
  return rules;
}

function collectRules(packs: ReviewPack[]): IReviewRule[] {
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
  if (options.namespace !== undefined) {
    const error = namespaceNameError(options.namespace);
    if (error) throw new Error(`review options: namespace ${error}`);
  }
  const mirrors = options.registryMirrors;
  if (mirrors !== undefined && (!Array.isArray(mirrors) || mirrors.some((r) => typeof r !== 'string' || r.trim() === ''))) {
    throw new Error(`review options: registryMirrors must be a list of mirror hosts such as "mirror.example.com", got ${JSON.stringify(mirrors)}`);
  }
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

export function resolveOptions(options: ReviewOptions): ReviewOptions {
  if (!isObject(options)) throw new Error('review options must be an object');
  validateOptions(options);
  const podSecurityVersion = options.podSecurityVersion ?? PodSecurity.DEFAULT_VERSION;
  PodSecurity.versionLabel(podSecurityVersion); // throws a clear error for a bad version
  return { ...options, packs: options.packs ?? ReviewPack.defaults(), podSecurityVersion };
}

/**
 * The workloads among the manifests, each with the namespace it lands in (see `_namespace.ts`).
 *
 * @param files the file each manifest was read from (same index), so that a workload without a namespace takes the one
 * the other objects of its own file use; without it, all the manifests are one file
 */
export function contextsOf(manifests: any[], options: ReviewOptions, files?: Array<string | undefined>): WorkloadContext[] {
  if (!Array.isArray(manifests)) throw new Error('manifests must be a list of Kubernetes objects (parsed YAML documents)');
  manifests.forEach((m, i) => {
    if (!isObject(m)) throw new Error(`manifests[${i}] must be a Kubernetes object (a mapping with apiVersion and kind), got ${JSON.stringify(m)}`);
  });
  if (files !== undefined && files.length !== manifests.length) throw new Error(`files must name the file of each manifest: ${files.length} files for ${manifests.length} manifests`);
  // a copy per review: the rules' indexes of the manifests (RBAC, ServiceAccounts, namespaces) are keyed by this list
  const allManifests = [...manifests];
  const resolver = new NamespaceResolver(allManifests, options.namespace, files);
  registerResolver(allManifests, resolver);
  return allManifests
    .filter((m) => typeof m.kind === 'string' && Object.prototype.hasOwnProperty.call(POD_SPEC_PATHS, m.kind))
    .map((m) => {
      const path = POD_SPEC_PATHS[m.kind];
      const resolved = resolver.resolve(m);
      const name = m.metadata?.name;
      return {
        manifest: m,
        kind: m.kind,
        namespace: resolved.namespace,
        namespaceSource: resolved.source,
        name: typeof name === 'string' ? name : '',
        podSpec: dig(m, path),
        podSpecPath: path.join('.'),
        allManifests,
        options,
      };
    });
}

export function normalizedVersion(version: string | undefined): string {
  const label = PodSecurity.versionLabel(version);
  return label.startsWith('v') ? label.slice(1) : label;
}

/**
 * One finding per cause of failure: rules that read the same context (the RBAC rules read the same bindings) fail on the
 * same error; the first rule keeps the finding, at the highest severity, and names the others.
 */
function mergeErrors(drafts: Draft[]): Draft[] {
  // the API server's rules stay apart: their findings cannot be acknowledged, the others can
  const keyOf = (d: Draft) => JSON.stringify([d.error, alwaysBlocks(d.rule)]);
  const byError = new Map<string, Draft[]>();
  for (const d of drafts) if (d.error !== undefined) byError.set(keyOf(d), [...(byError.get(keyOf(d)) ?? []), d]);
  const merged: Draft[] = [];
  for (const d of drafts) {
    if (d.error === undefined) {
      merged.push(d);
      continue;
    }
    const same = byError.get(keyOf(d))!;
    if (same[0] !== d) continue;
    if (same.length === 1) {
      merged.push(d);
      continue;
    }
    merged.push({
      ...d,
      severity: Severities.highest(same.map((x) => x.severity)),
      message: `rules ${same.map((x) => x.rule).join(', ')} could not evaluate it: ${d.error}`,
    });
  }
  return merged;
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
export function acknowledgementsByWorkload(options: ReviewOptions): Map<string, Acknowledgement[]> {
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
export function reviewWorkload(
  ctx: WorkloadContext, rules: IReviewRule[], optionAcks: Map<string, Acknowledgement[]>, threshold?: Severity,
): WorkloadReview {
  // messages name the workload as its manifest does; the namespace the review resolved is in the report's fields
  const own = ownNamespace(ctx.manifest);
  const ref = refOf(ctx.kind, own, ctx.name);
  const drafts: Draft[] = [];
  const engineError = (message: string, fix = ERROR_FIX) => drafts.push({ rule: ERROR_RULE, severity: Severity.HIGH, message, fix });
  const given = ctx.options.namespace;
  if (given !== undefined && own !== undefined && own !== given) {
    // kubectl's RequireNamespace: an explicit --namespace and an object's own namespace must agree
    engineError(`sets metadata.namespace ${own}, but the review was given --namespace ${given}: kubectl apply --namespace ${given} ` +
      `rejects an object of another namespace ("the namespace from the provided object ${JSON.stringify(own)} does not match")`,
    `review (and apply) it with --namespace ${own}, or remove metadata.namespace so that it lands in the namespace given`);
  }

  // a field of a type the API server cannot decode: the object is refused as it is, and nothing in it is read otherwise
  const definition = apiDefinitionOf(ctx.manifest);
  const typeErrors = definition === undefined ? [] : apiTypeErrors(ctx.manifest, definition);
  if (typeErrors.length > 0) {
    for (const e of typeErrors) {
      drafts.push({
        rule: API_REJECTED_RULE,
        severity: Severity.HIGH,
        message: `${e.message}; the API server rejects this (it cannot decode the object), so nothing else in it was reviewed`,
        field: e.field,
        fix: e.fix,
      });
    }
    return workloadReview(ctx, ref, drafts, [], [], [], 'unknown', threshold);
  }

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
  // acknowledgements given for the workload by its resolved namespace or by the one its manifest sets (none)
  const ackKeys = new Set([workloadKey(ctx.kind, ctx.namespace, ctx.name), workloadKey(ctx.kind, own, ctx.name)]);
  for (const key of ackKeys) acks = [...acks, ...(optionAcks.get(key) ?? [])];

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
          let reason = HostAccessReasons.find(reasons, item.type, item.detail, item.container)?.reason;
          // a container port that is a node port through hostNetwork is explained by the hostNetwork's reason
          if ((reason === undefined || reason.trim() === '') && item.viaHostNetwork) {
            reason = HostAccessReasons.find(reasons, HostAccessType.HOST_NETWORK, '')?.reason;
          }
          return dropUndefined({
            type: item.type as string,
            detail: item.detail,
            risk: assessment.risk as string,
            container: item.container,
            containers: item.containers ?? (item.container !== undefined ? [item.container] : undefined),
            viaHostNetwork: item.viaHostNetwork,
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
    const ruleDrafts: Draft[] = [];
    for (const rule of rules) ruleDrafts.push(...runRule(rule, ctx));
    drafts.push(...mergeErrors(ruleDrafts));
  }

  return workloadReview(ctx, ref, drafts, acks, reasons, hostAccess, podSecurityLevel, threshold);
}

/** the review of a workload from its drafts: merged, filtered by the threshold, acknowledged, sorted. */
function workloadReview(
  ctx: WorkloadContext, ref: string, drafts: Draft[], acks: Acknowledgement[], reasons: HostAccessReason[], hostAccess: HostAccessEntry[],
  podSecurityLevel: string, threshold?: Severity,
): WorkloadReview {
  // one privilege, one finding: drafts of several rules about the same privilege of the same container become one
  const merged = mergeDrafts(drafts);
  const findings = merged.filter((d) => threshold === undefined || alwaysBlocks(d.rule) || Severities.atLeast(d.severity, threshold)).map((d) => {
    const message = `${ref}${d.container !== undefined ? `, container ${JSON.stringify(d.container)}` : ''}: ${d.message}` +
      `${d.field !== undefined ? ` (${d.field})` : ''}`;
    const ackRules = d.acknowledgedBy ?? [d.rule];
    const matching = alwaysBlocks(d.rule) ? []
      : acks.filter((a) => ackRules.includes(a.rule) && (a.container === undefined || a.container === d.container));
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
      mergedRules: d.mergedRules,
      privilege: d.cause === undefined ? undefined : dropUndefined({ type: d.cause.type, detail: d.cause.detail, container: d.cause.container }),
      rules: d.rules ?? [d.rule],
      podSecurity: d.podSecurity,
      acknowledged: reasonsGiven.length > 0,
      unacceptedAcknowledgements: reasonsGiven.length > 0 ? undefined : lesserAcknowledgements(d, acks),
      acknowledgedReason: reasonsGiven.length > 0 ? reasonsGiven.join('; ') : undefined,
    });
  });
  findings.sort(compareFindings);
  return dropUndefined({
    kind: ctx.kind,
    namespace: ctx.namespace,
    namespaceSource: ctx.namespace === undefined ? undefined : ctx.namespaceSource ?? 'manifest',
    name: ctx.name,
    podSecurityLevel,
    hostAccess,
    findings,
  });
}

/**
 * For an open merged finding: the merged rules below its severity whose acknowledgement was given but does not accept it
 * (it would hide a more severe rule's part), so that the report says the acknowledgement is not believed to work.
 */
function lesserAcknowledgements(d: Draft, acks: Acknowledgement[]): string[] | undefined {
  if (alwaysBlocks(d.rule)) return undefined;
  const accepting = d.acknowledgedBy ?? [d.rule];
  const lesser = [...new Set(acks.filter((a) => (d.rules ?? []).includes(a.rule) && !accepting.includes(a.rule) &&
    (a.container === undefined || a.container === d.container)).map((a) => a.rule))];
  return lesser.length > 0 ? lesser : undefined;
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
      if (v.cause !== undefined && (!isObject(v.cause) || typeof v.cause.type !== 'string' || typeof v.cause.detail !== 'string')) {
        throw new Error(`evaluate returned a cause that is not a host privilege {type, detail}: ${JSON.stringify(v.cause)}`);
      }
    }
  } catch (e) {
    return [{
      rule: rule.id,
      severity: errorSeverity,
      message: `rule ${rule.id} could not evaluate it: ${errorMessage(e)}`,
      fix: ERROR_FIX,
      error: errorMessage(e),
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
    cause: v.cause,
  }));
}
