import { didYouMean, show } from './_guard';
import { ReviewPack } from './review-pack';
import { ApiRejectedRule } from './rules/api-rejected';

/** the rule IDs of the library's own rules start with these (any case); other IDs belong to custom packs. */
const RESERVED = /^(NA|PSS)[-_]/i;

/** the rules whose findings cannot be acknowledged, and why (the engine's own: see `_engine.ts`). */
const NOT_ACKNOWLEDGEABLE: { [rule: string]: string } = {
  [new ApiRejectedRule().id]: 'the API server rejects the manifest as it is, which no reason changes: fix the manifest as the finding says',
  'NA-REVIEW-ERROR': 'the manifest cannot be read as Kubernetes reads it, which no reason changes: fix the field the finding names',
};

let builtInIds: string[] | undefined;

/** the ID of every rule of every built-in pack, read once. */
function builtInRuleIds(): string[] {
  builtInIds ??= [...new Set(ReviewPack.all().flatMap((p) => p.rules.map((r) => r.id)))].sort();
  return builtInIds;
}

/**
 * The acceptance of a rule's findings for one workload, with the reason it is accepted.
 *
 * An acknowledgement matches findings by rule ID. It may also name a container, and then matches only the findings
 * about that container: acknowledging `NA-RUN-AS-NON-ROOT` for an init container that must chown a host directory does
 * not also accept a main container running as root. Without a container it matches every finding of the rule for the
 * workload, pod-level ones included.
 *
 * A finding about a host privilege that has a recorded reason (`node-agents.cdk8s.io/host-access`) needs no
 * acknowledgement unless it is critical: see `RuleViolation.privileges`.
 */
export interface Acknowledgement {
  /** the ID of the rule whose findings are accepted, e.g. `NA-PRIORITY-CLASS`. */
  readonly rule: string;

  /** why the finding is accepted, in one line. Required: an acknowledgement without a reason is rejected. */
  readonly reason: string;

  /**
   * Only the findings about this container are accepted.
   *
   * @default - every finding of the rule for the workload
   */
  readonly container?: string;
}

/**
 * Reads and writes the annotation in which a workload records the findings it accepts.
 *
 * The value is a JSON array of `{rule, reason}` (optionally `container`) on the workload's `metadata.annotations`, e.g.
 * `[{"rule":"NA-NAMESPACE","reason":"kube-proxy runs in kube-system by convention"}]`.
 */
export class Acknowledgements {
  /** the annotation key on the workload's metadata. */
  public static readonly ANNOTATION = 'node-agents.cdk8s.io/acknowledged';

  /**
   * Why an acknowledgement of `rule` is refused, or undefined when it is accepted.
   *
   * IDs that start with `NA-` or `PSS-` (in any case) belong to the library: each must be the ID of a built-in rule,
   * and a misspelled one is refused with the closest ID. `NA-API-REJECTED` and `NA-REVIEW-ERROR` cannot be
   * acknowledged. Any other ID is a custom pack's, accepted here: `SecurityCheck.apply` checks it against its packs.
   *
   * @internal
   */
  public static _refusal(rule: string): string | undefined {
    if (Object.prototype.hasOwnProperty.call(NOT_ACKNOWLEDGEABLE, rule)) return `${rule} cannot be acknowledged: ${NOT_ACKNOWLEDGEABLE[rule]}`;
    if (!RESERVED.test(rule) || builtInRuleIds().includes(rule)) return undefined;
    return `${JSON.stringify(rule)} is not the ID of a rule of this library (IDs that start with NA- or PSS- are its rules, listed in RULES.md)` +
      didYouMean(rule, builtInRuleIds(), ': use an ID from RULES.md; the rules of a custom pack need IDs of their own prefix');
  }

  /** whether `rule` is the ID of a built-in rule (or one of the engine's). @internal */
  public static _isLibraryRule(rule: string): boolean {
    return RESERVED.test(rule) || Object.prototype.hasOwnProperty.call(NOT_ACKNOWLEDGEABLE, rule);
  }

  /**
   * Reads the acknowledgements recorded in a workload's annotations.
   *
   * @param annotations the `metadata.annotations` of a workload (may be undefined)
   * @returns the acknowledgements; an empty list when the annotation is absent
   * @throws when the annotation is not a JSON array of `{rule, reason}`, or a rule or reason is empty
   */
  public static parse(annotations?: { [key: string]: string }): Acknowledgement[] {
    const raw = annotations?.[Acknowledgements.ANNOTATION];
    if (raw === undefined || raw === null) return [];
    // every review of every synth reads the annotation of every agent: parsed once per text (entries frozen)
    const cached = typeof raw === 'string' ? PARSED.get(raw) : undefined;
    if (cached !== undefined) return [...cached];
    const acks = parseAcknowledgements(raw);
    if (typeof raw === 'string') {
      if (PARSED.size >= PARSED_MAX) PARSED.clear();
      PARSED.set(raw, acks);
    }
    return [...acks];
  }

  /**
   * Serializes acknowledgements into the annotation value: a JSON array sorted by rule, container and reason, so that
   * the same acknowledgements always give the same text.
   *
   * @param acks the acknowledgements
   * @throws when a rule or a reason is empty
   */
  public static format(acks: Acknowledgement[]): string {
    if (!Array.isArray(acks)) throw new Error(`acknowledgements must be a list of {rule, reason}, got ${show(acks)}`);
    for (const a of acks) {
      if (!a || typeof a.rule !== 'string' || a.rule.trim() === '') throw new Error(`acknowledgement must name a rule, got ${show(a)}`);
      const refusal = Acknowledgements._refusal(a.rule.trim());
      if (refusal !== undefined) throw new Error(`acknowledgement: ${refusal}`);
      if (typeof a.reason !== 'string' || a.reason.trim() === '') {
        throw new Error(`acknowledgement of ${a.rule} has no reason: say in one line why the finding is accepted`);
      }
      if (a.container !== undefined && (typeof a.container !== 'string' || a.container === '')) {
        throw new Error(`acknowledgement of ${a.rule}: container must be a container name, got ${show(a.container)}`);
      }
    }
    const entries = acks.map((a) => {
      const e: { rule: string; container?: string; reason: string } = { rule: a.rule.trim(), reason: a.reason.trim() };
      return a.container === undefined ? e : { rule: e.rule, container: a.container, reason: e.reason };
    });
    const key = (e: { rule: string; container?: string; reason: string }) => [e.rule, e.container ?? '', e.reason];
    entries.sort((a, b) => compareTuples(key(a), key(b)));
    const unique = entries.filter((e, i) => i === 0 || compareTuples(key(e), key(entries[i - 1])) !== 0);
    return JSON.stringify(unique);
  }
}

function compareTuples(a: string[], b: string[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

function short(s: unknown): string {
  const text = String(s);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

const PARSED = new Map<string, Acknowledgement[]>();
const PARSED_MAX = 1024;

function parseAcknowledgements(raw: unknown): Acknowledgement[] {
  const key = Acknowledgements.ANNOTATION;
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(raw));
  } catch (e) {
    throw new Error(`annotation ${key} is not valid JSON (${(e as Error).message}): write a JSON array of {"rule": "...", "reason": "..."}`);
  }
  if (!Array.isArray(parsed)) {
    throw new Error(`annotation ${key} must be a JSON array of {"rule": "...", "reason": "..."}, got ${short(raw)}`);
  }
  return parsed.map((item: any, i: number) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      throw new Error(`annotation ${key}: entry ${i} must be an object {"rule": "...", "reason": "..."}, got ${short(JSON.stringify(item))}`);
    }
    if (typeof item.rule !== 'string' || item.rule.trim() === '') {
      throw new Error(`annotation ${key}: entry ${i} must name the rule it acknowledges ("rule": "NA-..."), got ${short(JSON.stringify(item))}`);
    }
    const refusal = Acknowledgements._refusal(item.rule.trim());
    if (refusal !== undefined) throw new Error(`annotation ${key}: entry ${i}: ${refusal}`);
    if (typeof item.reason !== 'string' || item.reason.trim() === '') {
      throw new Error(`annotation ${key}: entry ${i} (rule ${item.rule.trim()}) has no reason: say in one line why the finding is accepted`);
    }
    if (item.container !== undefined && (typeof item.container !== 'string' || item.container === '')) {
      throw new Error(`annotation ${key}: entry ${i} (rule ${item.rule.trim()}): container must be a container name, got ${short(JSON.stringify(item.container))}`);
    }
    const ack: Acknowledgement = { rule: item.rule.trim(), reason: item.reason.trim() };
    return Object.freeze(item.container === undefined ? ack : { ...ack, container: item.container });
  });
}

