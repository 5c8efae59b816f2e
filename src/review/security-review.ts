import {
  API_REJECTED_RULE, ERROR_RULE, acknowledgementsByWorkload, alwaysBlocks, contextsOf, normalizedVersion, resolveOptions, reviewWorkload, rulesOf,
} from './_engine';
import { renderJson } from './_json';
import { renderMarkdown } from './_markdown';
import { WorkloadEvaluation, evaluationsOf } from './_memo';
import { addsFacts } from './_merge';
import { Finding } from './finding';
import { ReviewOptions } from './review-options';
import { ReviewReport } from './review-report';
import { IReviewRule, WorkloadContext } from './review-rule';
import { Severities, Severity } from './severity';

/** the rules a gate runs, by the frozen list of the packs' rules (see `rulesOf`), its threshold and `wellFormed`. */
const GATE_RULES = new WeakMap<IReviewRule[], Map<string, IReviewRule[]>>();

/**
 * The rules `_openFindings` runs: all of them, or with `wellFormed` those that can report at or above the threshold and
 * those whose facts the merge adds to a finding (`addsFacts`). Every NodeAgent asks at every synth with the same frozen
 * rules: the list is selected once per threshold.
 */
function gateRules(all: IReviewRule[], threshold: Severity, wellFormed: boolean): IReviewRule[] {
  const select = () => all.filter((r) => !wellFormed || alwaysBlocks(r.id) || addsFacts(r.id) || Severities.atLeast(r.severity, threshold));
  if (!Object.isFrozen(all)) return select();
  let byKey = GATE_RULES.get(all);
  if (byKey === undefined) GATE_RULES.set(all, byKey = new Map());
  const key = `${threshold} ${wellFormed}`;
  let rules = byKey.get(key);
  if (rules === undefined) byKey.set(key, rules = Object.freeze(select()) as IReviewRule[]);
  return rules;
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
  public static readonly ERROR_RULE = ERROR_RULE;

  /**
   * The rule ID of findings the API server's own rules raise (`PodSpecValidation`): the engine runs it on every review,
   * whatever the packs; its findings cannot be acknowledged and count as open at every threshold.
   */
  public static readonly API_REJECTED_RULE = API_REJECTED_RULE;

  /**
   * Reviews every workload among the manifests.
   *
   * @param manifests Kubernetes objects as plain JSON (any kinds: non-workloads are context)
   * @param options packs, policy version, allowed registries, the namespace of objects without one, and extra
   * acknowledgements
   * @throws when `manifests` is not a list of objects, or an option is not valid (policy version, registries, packs,
   * a namespace that is not a namespace name, acknowledgements without a reason)
   */
  public static review(manifests: any[], options: ReviewOptions = {}): ReviewReport {
    return SecurityReview._reviewFiles(manifests, options);
  }

  /**
   * `review()`, knowing the file each manifest was read from (same index): a workload without a namespace then takes
   * the one the other objects of its own file use, not of all the manifests. For the CLI and the validation plugin.
   *
   * @internal
   */
  public static _reviewFiles(manifests: any[], options: ReviewOptions = {}, files?: string[]): ReviewReport {
    const resolved = resolveOptions(options);
    const rules = rulesOf(resolved.packs ?? []);
    const optionAcks = acknowledgementsByWorkload(resolved);
    return {
      workloads: contextsOf(manifests, resolved, files).map((ctx) => reviewWorkload(ctx, rules, optionAcks)),
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
   * With `evaluations`, each workload's Pod Security result and host privileges, as the review evaluated them, are
   * recorded by manifest: the gate reuses them instead of evaluating the same pod again.
   *
   * @internal
   */
  public static _openFindings(
    manifests: any[], options: ReviewOptions, threshold: Severity, wellFormed: boolean, evaluations?: Map<any, WorkloadEvaluation>,
  ): Finding[] {
    Severities.rank(threshold);
    const resolved = resolveOptions(options);
    const rules = gateRules(rulesOf(resolved.packs ?? []), threshold, wellFormed);
    const optionAcks = acknowledgementsByWorkload(resolved);
    return contextsOf(manifests, resolved)
      .flatMap((ctx) => {
        const findings = reviewWorkload(ctx, rules, optionAcks, threshold).findings;
        evaluations?.set(ctx.manifest, evaluationsOf(ctx));
        return findings;
      })
      .filter((f) => !f.acknowledged);
  }

  /**
   * The review for people, as Markdown that also reads well in a terminal: per workload its Pod Security level, every
   * host privilege (by risk, critical first) with its risk, what an attacker gains, the safer alternative and the reason given (or "no reason
   * recorded"), then the open findings with their fixes and the acknowledged ones with their reasons. One privilege, one
   * statement: an entry whose open findings already say what an attacker gains and the safer alternative points to them
   * instead of saying it again (the JSON keeps both).
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
   * findings: [{ rule, severity, message, fix, kind, namespace, name, container, field, mergedRules, privilege, rules, podSecurity,
   * acknowledged, acknowledgedReason, unacceptedAcknowledgements }] }] }` (absent optional fields are left out). A finding about
   * one host privilege names it (`privilege`) and every rule and Pod Security check merged into it (`rules`, `podSecurity`).
   *
   * @param report a review
   */
  public static toJson(report: ReviewReport): string {
    return renderJson(report);
  }
}
