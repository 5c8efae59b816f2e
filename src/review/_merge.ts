// Internal: one privilege, one finding. The engine's drafts that name the same cause (one host privilege of one
// container, RuleViolation.cause) become one finding: the highest severity, the message and fix of the most specific
// rule, every rule and the Pod Security check listed. A Pod Security check that fails on host privileges gives one draft
// per privilege (rules/pod-security-check.ts), so it joins too. Drafts without a cause (the checks that judge missing
// hardening, hygiene rules) are never merged.
import { HostAccessReasons, HostAccessType } from '../model';
import { HostPrivilege } from './review-rule';
import { Severities, Severity } from './severity';
import { descriptorOf } from '../model/_host-privileges';

/** the rule ID of NA-HOST-ACCESS-REASON, which the merge words specially (it says a reason is missing). */
export const HOST_ACCESS_REASON_RULE = 'NA-HOST-ACCESS-REASON';

/**
 * Which rule's message and fix a merged finding takes among those at its severity: the most specific first. A rule not
 * listed (a custom one) comes after these, in the order the rules ran; then NA-HOST-ACCESS-REASON, which only says that a
 * reason is missing, then a Pod Security check (`PSS-...`), which only says that the privilege is forbidden.
 */
export const SPECIFICITY = [
  'NA-RUNTIME-SOCKET', 'NA-PRIVILEGED', 'NA-HOSTPATH-SENSITIVE', 'NA-CAPABILITIES', 'NA-HOSTPATH-WRITABLE', 'NA-RUN-AS-NON-ROOT',
  'NA-PRIVILEGE-ESCALATION', 'NA-HOSTPATH-UNUSED', 'NA-HOSTPATH-TYPE',
];

/**
 * Rules whose merged part says something the primary message does not (a hostPath volume without a type, one no
 * container mounts): its message and fix are appended to the primary's. A gate runs them below its threshold too, so
 * that a finding it reports reads as the full review's.
 */
const ADDED_FACTS = new Set(['NA-HOSTPATH-TYPE', 'NA-HOSTPATH-UNUSED']);

/** whether the rule's part adds its message and fix to the finding it joins (a gate must run it whatever its severity). */
export function addsFacts(rule: string): boolean {
  return ADDED_FACTS.has(rule);
}

/** whether the rule is a Pod Security check (`PSS-...`), which the merge places last. */
export function isPodSecurityRule(rule: string): boolean {
  return rule.startsWith('PSS-');
}

export interface Draft {
  readonly rule: string;
  readonly severity: Severity;
  readonly message: string;
  readonly fix: string;
  readonly container?: string;
  readonly field?: string;
  readonly privileges?: HostPrivilege[];
  readonly cause?: HostPrivilege;
  /** for a merged draft: the other rules, most severe first. */
  readonly mergedRules?: string[];
  /** every rule of the finding: its own first, then the merged ones, most severe first. */
  readonly rules?: string[];
  /** for a finding about one host privilege: the Pod Security baseline check it fails, if any. */
  readonly podSecurity?: string[];
  /** the rules whose acknowledgement accepts the finding: its own and the merged ones that had its severity. */
  readonly acknowledgedBy?: string[];
  /** for a rule that could not evaluate the workload: the error, so that rules failing on one cause give one finding. */
  readonly error?: string;
}

function specificity(rule: string): number {
  if (isPodSecurityRule(rule)) return SPECIFICITY.length + 2;
  if (rule === HOST_ACCESS_REASON_RULE) return SPECIFICITY.length + 1;
  const i = SPECIFICITY.indexOf(rule);
  return i < 0 ? SPECIFICITY.length : i;
}

/** a cause without the mode a hostPath detail carries: the path is one cause whether mounted read-only or not. */
function causeId(cause: HostPrivilege): string {
  const detail = cause.type === HostAccessType.HOST_PATH ? cause.detail.replace(/ \((read-only|read-write)\)$/, '') : cause.detail;
  return JSON.stringify([cause.type, detail, cause.container ?? '']);
}

/** `{"type":...,"detail":...,"reason":"..."}`: the annotation entry that records a reason for a privilege. */
function reasonEntry(p: HostPrivilege): string {
  return JSON.stringify({ type: p.type, detail: p.detail, ...(p.container ? { container: p.container } : {}), reason: '...' });
}

/** the Pod Security baseline check the cause alone fails, if any. */
function podSecurityCheckOf(cause: HostPrivilege): string | undefined {
  try {
    return descriptorOf(cause.type).podSecurityCheck({ type: cause.type as HostAccessType, detail: cause.detail, container: cause.container });
  } catch {
    return undefined; // a custom rule's cause of an unknown type: nothing to add
  }
}

/** `; fails Pod Security baseline check hostPathVolumes`, unless the finding is that check's own (its message says it). */
function podSecurityNote(primary: Draft): string {
  const check = podSecurityCheckOf(primary.cause!);
  return check === undefined || isPodSecurityRule(primary.rule) ? '' : `; fails Pod Security baseline check ${check}`;
}

/** the fields every finding about one cause has: its rules, and the Pod Security check it fails. */
function causeFields(primary: Draft, rules: string[]): Pick<Draft, 'rules' | 'podSecurity'> {
  const check = podSecurityCheckOf(primary.cause!);
  return { rules, podSecurity: check === undefined ? undefined : [check] };
}

/**
 * Merges one group. `absorbed` are the pod-level drafts that joined a container's group: they are rated by the whole
 * pod's use of the privilege (a path another container writes), so they never raise the container's finding above what
 * its own drafts found.
 */
function mergeGroup(own: Draft[], absorbed: Draft[], container: string | undefined): Draft {
  const ownMax = own.length > 0 ? Severities.highest(own.map((d) => d.severity)) : undefined;
  const above = (d: Draft) => ownMax !== undefined && Severities.rank(d.severity) > Severities.rank(ownMax);
  const capped = absorbed.map((d) => (above(d) ? { ...d, severity: ownMax! } : d));
  const parts = [...own, ...capped];
  const ordered = parts
    .map((d, i) => ({ d, i }))
    .sort((a, b) => Severities.rank(b.d.severity) - Severities.rank(a.d.severity)
      || specificity(a.d.rule) - specificity(b.d.rule)
      || a.i - b.i)
    .map(({ d }) => d);
  const primary = ordered[0];
  const cause = primary.cause!;
  const others = [...new Set(ordered.map((d) => d.rule))].filter((r) => r !== primary.rule);
  const reasonPart = ordered.find((d) => d.rule === HOST_ACCESS_REASON_RULE);
  const judged = ordered.filter((d) => d.rule !== HOST_ACCESS_REASON_RULE);
  let message = primary.message;
  let fix = primary.fix;
  for (const fact of ordered.filter((d) => d !== primary && ADDED_FACTS.has(d.rule))) {
    message += `; ${fact.message}`;
    fix += `; ${fact.fix}`;
  }
  if (reasonPart && primary !== reasonPart) {
    message += `; no reason is recorded for it in annotation ${HostAccessReasons.ANNOTATION}`;
    const privilege = reasonPart.cause!;
    fix += `; if the agent keeps it, record why: add ${reasonEntry(privilege)} to the ${HostAccessReasons.ANNOTATION} annotation`;
  }
  message += podSecurityNote(primary);
  // a recorded reason accepts the merged finding only if it would have accepted every rule's part at the finding's
  // severity; the less severe parts go with it (a rule below a gate's threshold, which the gate does not run, never
  // decides a finding at or above it: neither its severity nor its acceptance)
  const top = judged.filter((d) => d.severity === primary.severity);
  const reasonAcceptable = top.length > 0 && top.every((d) => (d.privileges ?? []).length > 0);
  const privileges = reasonAcceptable ? top.flatMap((d) => d.privileges!) : judged.length === 0 ? primary.privileges : undefined;
  const acknowledgedBy = [...new Set(ordered.filter((d) => d.severity === primary.severity).map((d) => d.rule))];
  return {
    rule: primary.rule,
    severity: primary.severity,
    message,
    fix,
    container,
    field: primary.field,
    privileges,
    cause,
    mergedRules: others.length > 0 ? others : undefined,
    ...causeFields(primary, [primary.rule, ...others]),
    acknowledgedBy,
  };
}

/**
 * Merges the drafts about the same cause. Drafts are grouped by cause (a host path whatever its mode) and container; a
 * draft about the cause for the whole pod (no container) joins every container's group for that cause, or stands alone
 * when there is none. The result keeps the drafts' order (each group where its first draft was).
 */
export function mergeDrafts(drafts: Draft[]): Draft[] {
  const groups = new Map<string, { container?: string; parts: Draft[]; absorbed: Draft[] }>();
  const order: Array<Draft | string> = [];
  for (const d of drafts) {
    if (!d.cause) {
      order.push({ ...d, rules: [d.rule] });
      continue;
    }
    const key = JSON.stringify([causeId(d.cause), d.container ?? null]);
    let group = groups.get(key);
    if (!group) {
      group = { container: d.container, parts: [], absorbed: [] };
      groups.set(key, group);
      order.push(key);
    }
    group.parts.push(d);
  }
  // a pod-level draft about a cause joins each container's group for it
  const absorbed = new Set<string>();
  for (const [key, group] of groups) {
    if (group.container !== undefined) continue;
    const id = causeId(group.parts[0].cause!);
    const targets = [...groups.entries()].filter(([k, g]) => k !== key && g.container !== undefined && causeId(g.parts[0].cause!) === id);
    if (targets.length === 0) continue;
    for (const [, target] of targets) target.absorbed.push(...group.parts);
    absorbed.add(key);
  }
  const result: Draft[] = [];
  for (const item of order) {
    if (typeof item !== 'string') {
      result.push(item);
      continue;
    }
    if (absorbed.has(item)) continue;
    const group = groups.get(item)!;
    const [only] = group.parts;
    result.push(group.parts.length === 1 && group.absorbed.length === 0
      ? { ...only, acknowledgedBy: [only.rule], message: only.message + podSecurityNote(only), ...causeFields(only, [only.rule]) }
      : mergeGroup(group.parts, group.absorbed, group.container));
  }
  return result;
}
