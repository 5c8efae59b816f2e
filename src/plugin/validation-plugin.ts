import * as fs from 'node:fs';
import * as path from 'node:path';
import { boolean, guard, list, Report, show, string, struct } from '../review/_guard';
import { readManifestObjects } from '../review/_input-file';
import { ReviewPack } from '../review/review-pack';
import { SecurityReview } from '../review/security-review';
import { Severities, Severity } from '../review/severity';

/**
 * Properties of the cdk8s-cli validation plugin, as given under `properties:` in `cdk8s.yaml`.
 */
export interface SecurityReviewValidationProps {
  /**
   * Findings at or above this severity that are not acknowledged fail `cdk8s synth`: `low`, `medium`,
   * `high` or `critical`.
   *
   * @default 'high'
   */
  readonly failOn?: string;

  /**
   * IDs of the rule packs to run (see RULES.md), e.g. `['node-agent-baseline', 'node-agent-practices']`.
   *
   * @default - the default packs
   */
  readonly packs?: string[];

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

  /**
   * Whether to write `security-review.md` and `security-review.json` next to the manifests.
   *
   * @default true
   */
  readonly writeReport?: boolean;
}

/**
 * The security review as a cdk8s-cli validation plugin, so that `cdk8s synth` reviews every manifest
 * it writes (whatever constructs produced them) and fails on open findings. In `cdk8s.yaml`:
 *
 * ```yaml
 * validations:
 *   - package: ./node_modules/cdk8s-node-agents
 *     class: SecurityReviewValidation
 *     version: 1.0.0
 *     properties:
 *       failOn: high
 * ```
 *
 * `package` must be a local path starting with `./` (or an absolute path) to load the installed copy;
 * with an npm package name, cdk8s-cli installs that exact version into its plugins directory.
 *
 * The properties are checked when the plugin is loaded: an unknown (misspelled) property or a value of the wrong type
 * fails naming `cdk8s.yaml`, the property and the fix.
 */
export class SecurityReviewValidation {
  private readonly failOn: Severity;
  private readonly packs?: ReviewPack[];

  private readonly props: SecurityReviewValidationProps;

  constructor(props: SecurityReviewValidationProps = {}) {
    // the properties come from cdk8s.yaml, untyped: every one is checked here, so a mistake fails naming the file and
    // the property, before any manifest is read.
    const report: Report = (message) => {
      throw new Error(`cdk8s.yaml, validations (SecurityReviewValidation): ${message}`);
    };
    this.props = guard<SecurityReviewValidationProps>(report, 'properties', props, PROPERTIES) ?? {};
    this.failOn = severityOf(this.props.failOn ?? Severity.HIGH, report);
    this.packs = this.props.packs?.map((id, i) => {
      try {
        return ReviewPack.byId(id);
      } catch (e) {
        return report(`properties.packs[${i}]: ${(e as Error).message}`);
      }
    });
    try {
      // the review checks the rest of its options (the Pod Security version, the registries) as it starts: start one now.
      const { podSecurityVersion, allowedRegistries } = this.props;
      SecurityReview.review([], { packs: this.packs, podSecurityVersion, allowedRegistries });
    } catch (e) {
      report(`properties: ${(e as Error).message}`);
    }
  }

  /**
   * Runs the review over the synthesized manifests (called by cdk8s-cli with its ValidationContext).
   */
  public async validate(context: any): Promise<void> {
    const files: string[] = [...context.manifests];
    const manifests: any[] = [];
    const fileOf = new Map<any, string>();
    for (const file of files) {
      // the one reader: the JSON kubectl would send of each document (List kinds flattened as kubectl does)
      for (const object of readManifestObjects(file)) {
        manifests.push(object);
        fileOf.set(object, file);
      }
    }
    // with each object's file: an object without a namespace takes the one the rest of its file uses
    const report = SecurityReview._reviewFiles(manifests, {
      packs: this.packs,
      podSecurityVersion: this.props.podSecurityVersion,
      allowedRegistries: this.props.allowedRegistries,
    }, manifests.map((m) => fileOf.get(m)!));
    if ((this.props.writeReport ?? true) && files.length > 0 && !context.stdout) {
      const dir = path.dirname(files[0]);
      fs.writeFileSync(path.join(dir, 'security-review.md'), SecurityReview.toMarkdown(report));
      fs.writeFileSync(path.join(dir, 'security-review.json'), SecurityReview.toJson(report));
    }
    const open = SecurityReview.openFindings(report, this.failOn);
    for (const finding of open) {
      // the finding's namespace is the one the review resolved: the manifest may set none
      const manifest = manifests.find((m) => m.kind === finding.kind && m.metadata?.name === finding.name &&
        (m.metadata?.namespace === finding.namespace || !m.metadata?.namespace));
      context.report.addViolation({
        ruleName: `${finding.rule} (${finding.severity})`,
        recommendation: finding.message,
        fix: finding.fix,
        violatingResources: [{
          resourceName: finding.name,
          locations: [finding.field ?? ''],
          manifestPath: manifest ? fileOf.get(manifest) ?? '' : '',
        }],
      });
    }
    context.report.submit(open.length > 0 ? 'failure' : 'success', {
      workloads: String(report.workloads.length),
      failOn: this.failOn,
      openFindings: String(open.length),
    });
  }
}

/** the properties the plugin takes in cdk8s.yaml. */
const PROPERTIES = struct('SecurityReviewValidation', {
  failOn: string('high'),
  packs: list(string(), 'a list of pack IDs', '[node-agent-baseline, pss-baseline]'),
  podSecurityVersion: string("'1.32'"),
  allowedRegistries: list(string(), 'a list of registry hosts', '[registry.example.com]'),
  writeReport: boolean(),
}, { expected: 'a mapping of properties', example: 'properties: { failOn: high }' });

function severityOf(failOn: string, report: Report): Severity {
  try {
    return Severities.parse(failOn);
  } catch {
    return report(`properties.failOn ${show(failOn)} is not a severity: use one of ${Severities.all().join(', ')} (e.g. failOn: high)`);
  }
}
