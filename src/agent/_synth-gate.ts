/**
 * Internal: the check a NodeAgent's DaemonSet passes before it is written. Not exported.
 *
 * The gate renders the DaemonSet (props, later calls and JSON patches alike) and checks the result: every host privilege
 * that needs a reason has one recorded, and the security review finds nothing open at or above the agent's threshold
 * (the review includes the API server's rules, `PodSpecValidation`, which always block). In `App.synth()`/`synthYaml()`
 * this runs once per synth, in validation, so that every failing agent is reported before anything is written; the
 * DaemonSet then writes exactly the manifest that was checked. Elsewhere (`Testing.synth`, `chart.toJson()`) the
 * DaemonSet checks itself as it renders.
 */
import { IConstruct } from 'constructs';
import { CheckedApiObject } from './_checked-api-object';
import { currentSynth, SynthCounter, synthCounterOf } from './_synth-counter';
import { reasonAnnotationErrors, unexplainedPrivileges } from '../model/_reason-annotations';
import { HostAccess } from '../model/host-access';
import { HostAccessItem } from '../model/host-access-item';
import { HostAccessReasons } from '../model/host-access-reasons';
import { HostAccessType } from '../model/host-access-type';
import { PodSecurityLevel } from '../model/pod-security';
import { WorkloadEvaluation } from '../review/_memo';
import { ReviewOptions } from '../review/review-options';
import { HostAccessReasonRule } from '../review/rules/host-access-reason';
import { SecurityReview } from '../review/security-review';
import { Severity } from '../review/severity';

const HOST_ACCESS_REASON_RULE = new HostAccessReasonRule().id;

/** what the gate needs from its agent. */
export interface SynthGateSubject {
  /** the agent, for its path and its App's synth counter. */
  readonly scope: IConstruct;
  /** the DaemonSet the gate checks. */
  readonly daemonSet: CheckedApiObject;
  /** findings at or above this severity fail the synth. */
  readonly threshold: Severity;
  /** conflicts that stop the DaemonSet from rendering (checked first: rendering depends on them). */
  renderErrors(): string[];
  /** the agent's objects as rendered for the review, with `daemonSet` standing for the DaemonSet's rendering. */
  renderedObjects(daemonSet: any): any[];
  /** the review options of the agent (packs, policy version, registries). */
  reviewOptions(): ReviewOptions;
}

export class SynthGate {
  private readonly synths: SynthCounter;
  /** the DaemonSet as rendered and checked in the current synth's validation. */
  private checkedInSynth?: { synth: number; manifest?: any; errors: string[]; podSecurityLevel?: PodSecurityLevel };

  constructor(private readonly subject: SynthGateSubject) {
    this.synths = synthCounterOf(subject.scope.node.root);
  }

  /** the validation: renders and checks the DaemonSet once per App.synth()/synthYaml(); elsewhere, nothing. */
  public checkOncePerSynth(): string[] {
    const synth = currentSynth(this.synths);
    if (synth === undefined) return [];
    if (this.checkedInSynth?.synth !== synth) this.checkedInSynth = { synth, ...this.renderAndCheck() };
    return this.checkedInSynth.errors;
  }

  /**
   * The DaemonSet's `toJson()`: in a synth whose validation checked it, the manifest it checked (nothing can change in
   * between); otherwise rendered and checked now. Throws every error at once, each with the construct path, in the
   * form cdk8s reports validation errors.
   */
  public renderChecked(): any {
    const checked = this.checkedInSynth;
    if (checked?.manifest !== undefined && checked.synth === currentSynth(this.synths) && checked.errors.length === 0) {
      // handed over once: the synth writes it, the agent does not keep it
      this.checkedInSynth = { synth: checked.synth, errors: checked.errors, podSecurityLevel: checked.podSecurityLevel };
      return checked.manifest;
    }
    const { manifest, errors } = this.renderAndCheck();
    if (errors.length > 0) {
      throw new Error(`Validation failed with the following errors:\n  ${errors.map((e) => `[${this.subject.scope.node.path}] ${e}`).join('\n  ')}`);
    }
    return manifest;
  }

  /**
   * The Pod Security level of the DaemonSet as checked in the current synth's validation (the review evaluates it), or
   * undefined outside a synth or before its validation: the agent's Namespace is labelled with it without evaluating
   * the same pod again.
   */
  public checkedPodSecurityLevel(): PodSecurityLevel | undefined {
    const checked = this.checkedInSynth;
    return checked !== undefined && checked.synth === currentSynth(this.synths) ? checked.podSecurityLevel : undefined;
  }

  private renderAndCheck(): { manifest?: any; errors: string[]; podSecurityLevel?: PodSecurityLevel } {
    const renderErrors = this.subject.renderErrors();
    if (renderErrors.length > 0) return { errors: renderErrors };
    let manifest;
    try {
      manifest = this.subject.daemonSet.renderUnchecked();
    } catch (e) {
      // a JSON patch that does not apply (the only way rendering fails once renderErrors() is empty)
      return { errors: [(e as Error).message] };
    }
    if (manifest?.apiVersion !== 'apps/v1' || manifest?.kind !== 'DaemonSet') {
      const was = `apiVersion ${JSON.stringify(manifest?.apiVersion)}, kind ${JSON.stringify(manifest?.kind)}`;
      return { errors: [`the DaemonSet as its JSON patches leave it is ${was}: a NodeAgent renders an apps/v1 DaemonSet; patch its fields, not its kind`] };
    }
    // the reasons in the form an admission policy's CEL reads (written with the metadata, before any JSON patch) must
    // still say what the reasons annotation says
    const annotationErrors = reasonAnnotationErrors(manifest);
    if (annotationErrors.length > 0) return { errors: annotationErrors };
    return { manifest, ...this.check(manifest) };
  }

  /**
   * Everything still needed, in one list: every host privilege without its reason, then every open review finding at or
   * above the threshold, each with the line that settles it. The review's NA-HOST-ACCESS-REASON findings are left out:
   * the reasons are asked for above, for every privilege, whatever its risk.
   */
  private check(manifest: any): { errors: string[]; podSecurityLevel?: PodSecurityLevel } {
    const threshold = this.subject.threshold;
    // without a JSON patch, every field was rendered from typed props: no rule can crash on it (a property test holds this).
    const wellFormed = !this.subject.daemonSet.hasPatches;
    // the review evaluates the pod's host privileges and Pod Security level: both are reused below, not evaluated again
    const evaluations = new Map<any, WorkloadEvaluation>();
    const objects = this.subject.renderedObjects(manifest);
    const open = SecurityReview._openFindings(objects, this.subject.reviewOptions(), threshold, wellFormed, evaluations)
      .filter((f) => f.rule !== HOST_ACCESS_REASON_RULE);
    const evaluated = evaluations.get(manifest);
    const reasonErrors = this.missingReasons(manifest, evaluated?.hostAccess);
    const errors = [...reasonErrors, ...open.map((f) => (f.rule === SecurityReview.API_REJECTED_RULE || f.rule === SecurityReview.ERROR_RULE
      ? `security review: [${f.severity}] ${f.rule}: ${f.message}. Fix: ${f.fix}`
      : `security review: [${f.severity}] ${f.rule}: ${f.message}. Fix: ${f.fix}; or, if it is accepted, ` +
        `agent.acknowledge('${f.rule}', 'reason'${f.container !== undefined ? `, '${f.container}'` : ''}) ` +
        `(findings at or above ${threshold} fail the synth: reviewFailOn)`))];
    return { errors, podSecurityLevel: evaluated?.podSecurity?.level };
  }

  /**
   * every host privilege whose descriptor requires a reason and that has none recorded on the DaemonSet.
   *
   * @param items the DaemonSet's host privileges, when the review listed them
   */
  private missingReasons(manifest: any, items?: HostAccessItem[]): string[] {
    let recorded;
    try {
      recorded = HostAccessReasons.parse(manifest.metadata?.annotations);
    } catch (e) {
      return [(e as Error).message];
    }
    if (items === undefined) {
      try {
        items = HostAccess.of(manifest.spec?.template?.spec ?? {});
      } catch (e) {
        // only a JSON patch can give a field the wrong type (the review reported it as an error finding too)
        return [`the DaemonSet as its JSON patches leave it: ${(e as Error).message}`];
      }
    }
    const errors: string[] = [];
    for (const item of unexplainedPrivileges(items, recorded)) {
      const where = item.container ? ` in container "${item.container}"` : '';
      errors.push(`${item.type}${item.detail ? ` ${item.detail}` : ''}${where} has no recorded reason: set it through the props (which take a reason) or call agent.addHostAccessReason({ type: HostAccessType.${enumKey(item.type)}, detail: ${quote(item.detail)}, reason: '...' })`);
    }
    return errors;
  }
}

/** the name of a HostAccessType value in code (`HOST_PID` for 'hostPID'), as the fix a message suggests must compile. */
function enumKey(type: string): string {
  return Object.entries(HostAccessType).find(([, value]) => value === type)?.[0] ?? type;
}

/** a string literal in single quotes, as the TypeScript and Python snippets write them. */
function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
