import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiObject, App } from 'cdk8s';
import { IConstruct } from 'constructs';
import { renderUnchecked } from './_checked-api-object';
import { currentSynth, synthCounterOf } from './_synth-counter';
import { checkReason, fail } from './_validate';
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
   * @param rule the rule ID, e.g. `NA-PRIORITY-CLASS`
   * @param reason one line saying why the finding is accepted
   * @param container accept only the findings about this container (e.g. an installer init container)
   * instead of every finding of the rule
   */
  public static acknowledge(scope: IConstruct, rule: string, reason: string, container?: string): void {
    if (typeof rule !== 'string' || rule.trim() === '') fail(scope, 'acknowledge: give the ID of the rule to acknowledge, e.g. "NA-PRIORITY-CLASS"');
    checkReason(scope, `acknowledgement of ${rule}`, reason);
    if (container !== undefined && (typeof container !== 'string' || container.trim() === '')) {
      fail(scope, `acknowledgement of ${rule}: container must be a container name, got ${JSON.stringify(container)}`);
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
    const objects = scope.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c));
    // unchecked: a NodeAgent's own check would throw here, before the review of everything else is written.
    return SecurityReview.review(objects.map(renderUnchecked), {
      packs: options.packs,
      podSecurityVersion: options.podSecurityVersion,
      allowedRegistries: options.allowedRegistries,
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
    const errors: string[] = [];
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
