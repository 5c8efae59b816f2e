// Which objects of the input the commands cannot read, or the API server would reject: one line per object, naming
// the file, the document, the object and the field. The checks are the model's and the review engine's own, run on
// each object alone so that the error names where it is.

import { RolloutPlan } from '../model';
import { apiDefinitionOf, apiTypeErrors } from '../model/_api-type-check';
import { checkDaemonSetShape, checkNodeShape } from '../model/_placement-shape';
import { Finding, ReviewReport, SecurityReview } from '../review';
import { lowerFirst } from './_command';
import { LoadedObject, whereIs } from './_manifests';

/**
 * The problem of an object whose fields have a JSON type the API server cannot decode (any kind of the API's type
 * table: a Pod with `restartCount: "2"`), or of a DaemonSet or Node whose placement or rollout fields (what coverage
 * and status read) have the wrong shape: a DaemonSet without `spec.template.spec`, `tolerations: "oops"`,
 * `updateStrategy: 5`, a Node with `taints: "oops"`. The checks are the ones `DaemonSetCoverage` and `RolloutPlan` run.
 */
export function placementError(o: LoadedObject): string | undefined {
  try {
    // any object the commands read, as the API server decodes it (a Pod's status, a ControllerRevision's revision...)
    const definition = apiDefinitionOf(o.object);
    const typeError = definition === undefined ? undefined : apiTypeErrors(o.object, definition, '', 1)[0];
    if (typeError !== undefined) throw new Error(`${typeError.message}: ${typeError.fix}`);
    if (o.object.kind === 'DaemonSet') {
      checkDaemonSetShape(o.object);
      RolloutPlan.of(o.object, 0); // its strategy's fields; valid or not whatever the number of nodes
    } else if (o.object.kind === 'Node') {
      checkNodeShape(o.object, '');
    }
  } catch (e: any) {
    return `${whereIs(o)}: ${lowerFirst(String(e?.message ?? e))}`;
  }
  return undefined;
}

/**
 * The review's findings that say the API server would reject a workload, one line per workload that has them: the
 * always-on `NA-REVIEW-ERROR` (a field of the wrong type, no pod spec, an annotation the review cannot read) and
 * `NA-API-REJECTED` (the API server's host-access rules), and a rule that could not evaluate the workload (a field it
 * reads has the wrong type: the engine files it under the rule's ID, with the same fix as NA-REVIEW-ERROR).
 *
 * @param objects the objects the review was given, in order
 * @param report their review
 */
export function reviewErrors(objects: LoadedObject[], report: ReviewReport): Map<LoadedObject, string> {
  // the report lists the workloads in the order SecurityReview.workloads finds them, with their manifests
  const contexts = SecurityReview.workloads(objects.map((o) => o.object));
  if (contexts.length !== report.workloads.length) {
    throw new Error(`the review reports ${report.workloads.length} workloads, ${contexts.length} were found`);
  }
  const byManifest = new Map(objects.map((o) => [o.object, o]));
  const errors = new Map<LoadedObject, string>();
  contexts.forEach((ctx, i) => {
    const loaded = byManifest.get(ctx.manifest);
    // the engine's own errors first: a field of the wrong type is the cause of the rule errors it leads to
    const findings = report.workloads[i].findings;
    const blocking = [
      ...findings.filter((f) => f.rule === SecurityReview.ERROR_RULE),
      ...findings.filter((f) => f.rule !== SecurityReview.ERROR_RULE && couldNotEvaluate(f)),
      ...findings.filter((f) => f.rule === SecurityReview.API_REJECTED_RULE && !couldNotEvaluate(f)),
    ];
    if (loaded === undefined || blocking.length === 0 || errors.has(loaded)) return;
    const more = blocking.length > 1 ? ` (and ${blocking.length - 1} more ${blocking.length === 2 ? 'finding' : 'findings'} like it in the review)` : '';
    errors.set(loaded, `${whereIs(loaded)}: ${blocking[0].rule}: ${withoutRef(blocking[0])}${more}`);
  });
  return errors;
}

/**
 * One line per object that a command cannot take: placement fields of the wrong shape, then the review's always-on
 * findings when a review is given.
 */
export function inputErrors(objects: LoadedObject[], report?: ReviewReport): string[] {
  const fromReview = report === undefined ? new Map<LoadedObject, string>() : reviewErrors(objects, report);
  const lines: string[] = [];
  for (const o of objects) {
    const line = placementError(o) ?? fromReview.get(o);
    if (line !== undefined) lines.push(line);
  }
  return lines;
}

/**
 * whether a finding says that its rule could not evaluate the workload: the engine's wording for a rule that threw
 * (`rule X could not evaluate it: ...`), or for several that threw on one cause (`rules X, Y could not evaluate it: ...`).
 */
function couldNotEvaluate(f: Finding): boolean {
  const message = withoutRef(f);
  return message.startsWith(`rule ${f.rule} could not evaluate it: `) || (message.startsWith(`rules ${f.rule}, `) && message.includes(' could not evaluate it: '));
}

/** a finding's message without the workload it starts with (the line names it already). */
function withoutRef(f: Finding): string {
  const ref = `${f.kind} ${f.namespace ? `${f.namespace}/` : ''}${f.name || '<unnamed>'}`;
  if (!f.message.startsWith(ref)) return f.message;
  return f.message.slice(ref.length).replace(/^(, |: )/, '');
}
