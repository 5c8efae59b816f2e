import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiObject, App } from 'cdk8s';
import { IConstruct } from 'constructs';
import { renderUnchecked } from './_checked-api-object';
import { SEVERITY } from './_shapes';
import { currentSynth, synthCounterOf } from './_synth-counter';
import { checkReason, fail, show } from './_validate';
import { RegistryMirror } from './registry-mirror';
import { PodSecurity } from '../model/pod-security';
import { boolean, didYouMean, guard, instance, list, Report, string, struct } from '../review/_guard';
import { Acknowledgement, Acknowledgements } from '../review/acknowledgement';
import { ReviewPack } from '../review/review-pack';
import { ReviewReport } from '../review/review-report';
import { SecurityReview } from '../review/security-review';
import { Severity } from '../review/severity';

const ACK_METADATA = 'cdk8s-node-agents/acknowledgement';
const CHECK_MARKER = Symbol.for('cdk8s-node-agents.SecurityCheck');
const NODE_AGENT_MARKER = Symbol.for('cdk8s-node-agents.NodeAgent');
const WORKLOAD_KINDS = new Set(['DaemonSet', 'Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'CronJob', 'Pod']);

/**
 * Options for `SecurityCheck.apply`.
 */
export interface SecurityCheckOptions {
  /**
   * Synth fails on any unacknowledged finding at or above this severity.
   *
   * @default Severity.HIGH
   */
  readonly failOn?: Severity;

  /**
   * Where to write the review (`security-review.md` for people, `security-review.json` for tools).
   *
   * @default - the App's output directory, next to the manifests
   */
  readonly reportDir?: string;

  /**
   * Whether to write the review files at all.
   *
   * @default true
   */
  readonly writeReport?: boolean;

  /**
   * The rule packs to apply.
   *
   * @default ReviewPack.defaults()
   */
  readonly packs?: ReviewPack[];

  /**
   * The Pod Security version to evaluate against.
   *
   * @default '1.28'
   */
  readonly podSecurityVersion?: string;

  /**
   * Registries images may come from.
   *
   * @default - any registry
   */
  readonly allowedRegistries?: string[];
}

/**
 * Reviews every workload under a scope at synth, the way cdk-nag does for the AWS CDK: NodeAgents,
 * cdk8s-plus objects and raw `ApiObject`s alike, as they are rendered (JSON patches included).
 *
 * ```ts
 * SecurityCheck.apply(app);                                 // one line: review everything in the app
 * SecurityCheck.acknowledge(chart, 'NA-PRIORITY-CLASS', 'this cluster has no priority classes yet');
 * ```
 */
export class SecurityCheck {
  /**
   * Reviews every workload under `scope` at synth: writes the review next to the manifests and fails
   * the synth (with each finding's construct path) on unacknowledged findings at or above `failOn`.
   */
  public static apply(scope: IConstruct, options: SecurityCheckOptions = {}): void {
    checkScope('SecurityCheck.apply', scope);
    options = checkedOptions(scope, 'SecurityCheck.apply', options);
    if ((scope as any)[CHECK_MARKER]) fail(scope, 'SecurityCheck.apply was called twice on this scope: call it once');
    Object.defineProperty(scope, CHECK_MARKER, { value: true });
    const synths = synthCounterOf(scope.node.root);
    let last: { synth: number; errors: string[] } | undefined;
    scope.node.addValidation({
      validate: () => {
        // one review (and one report) per App.synth()/synthYaml(), however many validation passes it runs; outside
        // them (e.g. chart.toJson()), every validation reviews.
        const synth = currentSynth(synths);
        if (synth !== undefined && last?.synth === synth) return last.errors;
        const errors = SecurityCheck.validate(scope, options);
        last = synth === undefined ? undefined : { synth, errors };
        return errors;
      },
    });
  }

  /**
   * Acknowledges a finding of `rule` for `scope` and everything below it. The reason is mandatory; the
   * finding stays visible in the review, marked acknowledged with the reason, and no longer fails synth.
   *
   * @param rule the rule ID, e.g. `NA-PRIORITY-CLASS`: one of RULES.md (an ID that starts with `NA-` or `PSS-` and is none
   * of them fails, with the closest; `NA-API-REJECTED` and `NA-REVIEW-ERROR` cannot be acknowledged), or the ID of a
   * custom pack's rule, which `SecurityCheck.apply` checks against its packs
   * @param reason one line saying why the finding is accepted
   * @param container accept only the findings about this container (e.g. an installer init container)
   * instead of every finding of the rule
   */
  public static acknowledge(scope: IConstruct, rule: string, reason: string, container?: string): void {
    checkScope('SecurityCheck.acknowledge', scope);
    if (typeof rule !== 'string' || rule.trim() === '') fail(scope, `acknowledge: give the ID of the rule to acknowledge, e.g. "NA-PRIORITY-CLASS", got ${show(rule)}`);
    const refusal = Acknowledgements._refusal(rule.trim());
    if (refusal !== undefined) fail(scope, `acknowledge: ${refusal}`);
    checkReason(scope, `acknowledgement of ${rule}`, reason);
    if (container !== undefined && (typeof container !== 'string' || container.trim() === '')) {
      fail(scope, `acknowledgement of ${rule}: container must be a container name, got ${show(container)}`);
    }
    const ack: Acknowledgement = container === undefined
      ? { rule: rule.trim(), reason: reason.trim() }
      : { rule: rule.trim(), reason: reason.trim(), container: container.trim() };
    scope.node.addMetadata(ACK_METADATA, ack);
  }

  /**
   * The acknowledgements that apply to `scope`: its own and those of all its ancestors.
   */
  public static acknowledgementsOf(scope: IConstruct): Acknowledgement[] {
    checkScope('SecurityCheck.acknowledgementsOf', scope);
    const acks: Acknowledgement[] = [];
    for (const c of scope.node.scopes) {
      for (const entry of c.node.metadata) {
        if (entry.type === ACK_METADATA) acks.push(entry.data as Acknowledgement);
      }
    }
    return acks;
  }

  /**
   * Reviews every workload under `scope` as it would be rendered now.
   */
  public static review(scope: IConstruct, options: SecurityCheckOptions = {}): ReviewReport {
    checkScope('SecurityCheck.review', scope);
    options = checkedOptions(scope, 'SecurityCheck.review', options);
    const objects = scope.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c));
    // unchecked: a NodeAgent's own check would throw here, before the review of everything else is written.
    return SecurityReview.review(objects.map(renderUnchecked), {
      packs: options.packs,
      podSecurityVersion: options.podSecurityVersion,
      allowedRegistries: options.allowedRegistries,
      registryMirrors: RegistryMirror.find(scope) ? [RegistryMirror.find(scope)!.mirror] : undefined,
      acknowledgements: objects
        .filter((o) => WORKLOAD_KINDS.has(o.kind))
        .map((o) => ({ kind: o.kind, namespace: o.metadata.namespace, name: o.name, acknowledgements: SecurityCheck.acknowledgementsOf(o) }))
        .filter((w) => w.acknowledgements.length > 0),
    });
  }

  /**
   * Records the acknowledgements that apply to a workload in its manifest, so that a later
   * `cdk8s-node-agents review` of the YAML sees them too.
   *
   * @internal
   */
  public static _annotate(object: ApiObject): void {
    const acks = SecurityCheck.acknowledgementsOf(object);
    if (acks.length > 0) object.metadata.addAnnotation(Acknowledgements.ANNOTATION, Acknowledgements.format(acks));
  }

  private static validate(scope: IConstruct, options: SecurityCheckOptions): string[] {
    const objects = scope.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c));
    for (const o of objects) if (WORKLOAD_KINDS.has(o.kind)) SecurityCheck._annotate(o);
    const report = SecurityCheck.review(scope, options);
    if (options.writeReport ?? true) {
      const dir = options.reportDir ?? App.of(scope).outdir;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'security-review.md'), SecurityReview.toMarkdown(report));
      fs.writeFileSync(path.join(dir, 'security-review.json'), SecurityReview.toJson(report));
    }
    const open = SecurityReview.openFindings(report, options.failOn ?? Severity.HIGH);
    const errors: string[] = unknownCustomRules(scope, options.packs ?? ReviewPack.defaults());
    for (const f of open) {
      const owner = objects.find((o) => o.kind === f.kind && o.name === f.name && o.metadata.namespace === f.namespace);
      // a NodeAgent reviews its own objects and fails with its own path: do not report them twice.
      if (owner && owner.node.scopes.some((s) => NODE_AGENT_MARKER in s)) continue;
      const where = owner ? owner.node.path : `${f.kind} ${f.namespace ?? ''}/${f.name}`;
      errors.push(`${where}: [${f.severity}] ${f.rule}: ${f.message}. Fix: ${f.fix}; or acknowledge it with SecurityCheck.acknowledge(scope, '${f.rule}', 'reason')`);
    }
    return errors;
  }
}

const SECURITY_CHECK_OPTIONS = struct('SecurityCheckOptions', {
  failOn: SEVERITY,
  reportDir: string("'dist'"),
  writeReport: boolean(),
  packs: list(instance((v) => v instanceof ReviewPack, 'a ReviewPack', 'ReviewPack.defaults()[0]'), 'a list of review packs', 'ReviewPack.all()'),
  podSecurityVersion: string("'1.32'"),
  allowedRegistries: list(string(), 'a list of registry hosts', "['registry.example.com']"),
}, { example: '{ failOn: Severity.MEDIUM }' });

/** a construct, as the scope of a check (JavaScript may pass anything). */
function checkScope(method: string, scope: IConstruct): void {
  if (scope === null || typeof scope !== 'object' || typeof (scope as any).node?.addValidation !== 'function') {
    throw new Error(`${method}: scope must be a construct (an App, a Chart or a construct in one), got ${show(scope)}`);
  }
}

/** the options of a check, of their shape and with a Pod Security version the model knows; returned normalised. */
function checkedOptions(scope: IConstruct, method: string, options: SecurityCheckOptions | undefined): SecurityCheckOptions {
  const report: Report = (message) => fail(scope, `${method}: ${message}`);
  const checked = guard<SecurityCheckOptions>(report, 'options', options, SECURITY_CHECK_OPTIONS) ?? {};
  if (checked.podSecurityVersion !== undefined) {
    try {
      PodSecurity.versionLabel(checked.podSecurityVersion);
    } catch (e) {
      report(`podSecurityVersion: ${(e as Error).message}`);
    }
  }
  return checked;
}

/**
 * The acknowledgements that apply to the check's scope and name a custom rule (an ID outside the library's NA- and PSS-)
 * that none of its packs has: most likely a misspelling, or a pack left out of the check. The library's own IDs are
 * checked when acknowledged.
 */
function unknownCustomRules(scope: IConstruct, packs: ReviewPack[]): string[] {
  const ids = [...new Set(packs.flatMap((p) => p.rules.map((r) => r.id)))];
  const constructs = [...new Set([...scope.node.scopes, ...scope.node.findAll()])];
  const errors: string[] = [];
  for (const c of constructs) {
    for (const entry of c.node.metadata) {
      if (entry.type !== ACK_METADATA) continue;
      const rule = (entry.data as Acknowledgement).rule;
      if (Acknowledgements._isLibraryRule(rule) || ids.includes(rule)) continue;
      errors.push(`[${c.node.path}] acknowledgement of ${JSON.stringify(rule)}: no rule of the packs this SecurityCheck runs (${packs.map((p) => p.id).join(', ')}) has this ID` +
        didYouMean(rule, ids, ': give the pack that defines it to SecurityCheck.apply(scope, { packs: [...ReviewPack.defaults(), yourPack] })'));
    }
  }
  return errors;
}
