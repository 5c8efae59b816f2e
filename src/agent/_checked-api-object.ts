/**
 * Internal: an `ApiObject` whose `toJson()` checks what it renders. Not exported.
 *
 * A NodeAgent's DaemonSet is checked (host-access reasons, host ports, the security review) on the very JSON that
 * goes into the manifest: rendered and checked once per synth (in validation, see `_synth-counter.ts`), or as it
 * renders when `toJson()` is called outside `App.synth()`/`synthYaml()`.
 */
import { ApiObject, ApiObjectProps, JsonPatch } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { currentSynth, synthCounterOf } from './_synth-counter';
import { mirrorRendered, MIRRORS_ITSELF } from './registry-mirror';

const RENDERED_FOR_REVIEW = Symbol.for('cdk8s-node-agents.PatchCheckedApiObject');

/**
 * An `ApiObject` whose JSON patches are checked against the rendering they apply to, one by one, in order: a patch at a
 * path that does not exist, or through a value that is not an object or a list, fails with an Error naming the object,
 * the patch and the path, where cdk8s' patch library crashes with a TypeError ("Cannot read properties of undefined")
 * or, for `remove` and `replace`, silently does something else than asked (RFC 6902 requires the target to exist).
 */
export class PatchCheckedApiObject extends ApiObject {
  private readonly checkedPatches: JsonPatch[] = [];
  /** the rendering a review made in the current synth's validation, until the synth writes it (see renderForReview). */
  private reviewed?: { synth: number; json: any };

  constructor(scope: Construct, id: string, props: ApiObjectProps) {
    super(scope, id, props);
    Object.defineProperty(this, RENDERED_FOR_REVIEW, { value: true });
    // the app's registry mirror applies to the rendering as the checked patches leave it
    Object.defineProperty(this, MIRRORS_ITSELF, { value: true });
  }

  /** whether a JSON patch was added: without one, the rendering is the props as given, resolved. */
  public get hasPatches(): boolean {
    return this.checkedPatches.length > 0;
  }

  public addJsonPatch(...ops: JsonPatch[]): void {
    this.checkedPatches.push(...ops);
  }

  /**
   * The rendering, for a review. In `App.synth()`/`synthYaml()` it is rendered once: the reviews of the synth's validation
   * share it and the synth writes it (nothing the user wrote runs in between, see `_synth-counter.ts`), so the manifest
   * written is the one reviewed, as for the agent's DaemonSet. Elsewhere, rendered afresh.
   */
  public renderForReview(): any {
    const synth = currentSynth(synthCounterOf(this.node.root));
    if (synth === undefined) return this.renderPatched();
    if (this.reviewed?.synth !== synth) this.reviewed = { synth, json: this.renderPatched() };
    return this.reviewed.json;
  }

  public toJson(): any {
    const reviewed = this.reviewed;
    if (reviewed !== undefined) {
      // handed over once: the synth writes it, the object does not keep it
      this.reviewed = undefined;
      if (reviewed.synth === currentSynth(synthCounterOf(this.node.root))) return reviewed.json;
    }
    return this.renderPatched();
  }

  /**
   * the rendering: the props resolved by cdk8s, then the JSON patches, each checked against what it applies to, then the
   * app's registry mirror.
   */
  protected renderPatched(): any {
    return mirrorRendered(this, this.applyPatches());
  }

  private applyPatches(): any {
    const rendered = super.toJson();
    if (this.checkedPatches.length === 0) return rendered;
    let json = rendered;
    this.checkedPatches.forEach((patch, i) => {
      const op = (patch as any)._toJson();
      const fail = (problem: string) => new Error(`JSON patch ${i + 1} of ${this.checkedPatches.length} to ${this.node.path} (${JSON.stringify(op)}): ${problem}`);
      const problem = patchProblem(json, op);
      if (problem !== undefined) throw fail(problem);
      try {
        json = JsonPatch.apply(json, patch);
      } catch (e) {
        // a failed "test", or an operation the patch library rejects
        throw fail((e as Error)?.message ?? String(e));
      }
    });
    // the order cdk8s writes: apiVersion, kind and metadata first, then the rest
    const ordered: any = {};
    for (const key of ['apiVersion', 'kind', 'metadata', ...Object.keys(json)]) if (key in json) ordered[key] = json[key];
    return ordered;
  }
}

/** why `op` cannot apply to `document` as RFC 6902 defines it, or undefined when it can. */
function patchProblem(document: any, op: { op: string; path: string; from?: string }): string | undefined {
  if (op.op === 'copy' || op.op === 'move') {
    const from = resolvePointer(document, op.from ?? '', 'target');
    if (from !== undefined) return `"from" ${from}`;
  }
  const need = op.op === 'add' || op.op === 'copy' || op.op === 'move' ? 'parent' : 'target';
  const problem = resolvePointer(document, op.path, need);
  return problem === undefined ? undefined : `"path" ${problem}`;
}

/**
 * Why `pointer` (RFC 6901) does not resolve in `document`: `need` is `target` when the value must exist (remove,
 * replace, test, from), `parent` when only its container must (add, copy, move: a list index may be "-" or the length).
 */
function resolvePointer(document: any, pointer: string, need: 'target' | 'parent'): string | undefined {
  if (pointer === '') return undefined;
  if (!pointer.startsWith('/')) return `"${pointer}" is not a JSON pointer: start it with "/", e.g. "/spec/template/spec"`;
  const tokens = pointer.slice(1).split('/');
  let value = document;
  for (let i = 0; i < tokens.length; i++) {
    const at = i === 0 ? 'the object' : `/${tokens.slice(0, i).join('/')}`;
    const token = tokens[i].replace(/~1/g, '/').replace(/~0/g, '~');
    const last = i === tokens.length - 1;
    if (Array.isArray(value)) {
      if (last && need === 'parent' && token === '-') return undefined;
      const max = last && need === 'parent' ? value.length : value.length - 1;
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) > max) {
        const indexes = max < 0 ? 'no index' : `indexes 0 to ${max}`;
        return `${pointer} does not exist: ${at} has no item "${token}" (a list of ${value.length}: ${indexes}${last && need === 'parent' ? ', or "-" to append' : ''})`;
      }
    } else if (value === null || typeof value !== 'object') {
      return `${pointer} does not exist: ${at} is ${JSON.stringify(value)}, not an object or a list`;
    } else if (!Object.prototype.hasOwnProperty.call(value, token)) {
      if (last && need === 'parent') return undefined;
      const fix = last ? '' : `: add ${i === 0 ? '' : at}/${tokens[i]} first, or patch a path that exists`;
      return `${pointer} does not exist: ${at} has no field "${token}"${fix}`;
    }
    value = value[token];
  }
  return undefined;
}

/** renders the object (with `renderUnchecked`), checks the result and returns it, or throws. */
export type RenderCheck = () => any;

const CHECKED = Symbol.for('cdk8s-node-agents.CheckedApiObject');

export class CheckedApiObject extends PatchCheckedApiObject {
  /**
   * Whether `object` checks its rendering: render it with `renderUnchecked` to inspect it without the check.
   * (Not `instanceof`: cdk8s makes `instanceof ApiObject` and its subclasses true for every ApiObject.)
   */
  public static isChecked(object: IConstruct): object is CheckedApiObject {
    return CHECKED in object;
  }

  constructor(scope: Construct, id: string, props: ApiObjectProps, private readonly check: RenderCheck) {
    super(scope, id, props);
    Object.defineProperty(this, CHECKED, { value: true });
  }

  /** the manifest, checked: throws when the check fails. */
  public toJson(): any {
    return this.check();
  }

  /** the manifest without the check: for queries and reviews of an object that may not pass it. */
  public renderUnchecked(): any {
    return this.renderPatched();
  }
}

/**
 * The rendering of any ApiObject for a review, without the check of a checked one. This library's other objects are
 * rendered once per synth (`renderForReview`).
 */
export function renderUnchecked(object: ApiObject): any {
  if (CheckedApiObject.isChecked(object)) return object.renderUnchecked();
  // not `instanceof` (true for every ApiObject, see isChecked)
  return RENDERED_FOR_REVIEW in object ? (object as unknown as PatchCheckedApiObject).renderForReview() : object.toJson();
}
