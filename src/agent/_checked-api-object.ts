/**
 * Internal: an `ApiObject` whose `toJson()` checks what it renders. Not exported.
 *
 * A NodeAgent's DaemonSet is checked (host-access reasons, host ports, the security review) on the very JSON that
 * goes into the manifest: rendered and checked once per synth (in validation, see `_synth-counter.ts`), or as it
 * renders when `toJson()` is called outside `App.synth()`/`synthYaml()`.
 */
import { ApiObject, ApiObjectProps, JsonPatch } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';

/** renders the object (with `renderUnchecked`), checks the result and returns it, or throws. */
export type RenderCheck = () => any;

const CHECKED = Symbol.for('cdk8s-node-agents.CheckedApiObject');

export class CheckedApiObject extends ApiObject {
  /**
   * Whether `object` checks its rendering: render it with `renderUnchecked` to inspect it without the check.
   * (Not `instanceof`: cdk8s makes `instanceof ApiObject` and its subclasses true for every ApiObject.)
   */
  public static isChecked(object: IConstruct): object is CheckedApiObject {
    return CHECKED in object;
  }

  private patched = false;

  constructor(scope: Construct, id: string, props: ApiObjectProps, private readonly check: RenderCheck) {
    super(scope, id, props);
    Object.defineProperty(this, CHECKED, { value: true });
  }

  /** whether a JSON patch was added: without one, the rendering is the props as given, resolved. */
  public get hasPatches(): boolean {
    return this.patched;
  }

  public addJsonPatch(...ops: JsonPatch[]): void {
    this.patched = true;
    super.addJsonPatch(...ops);
  }

  /** the manifest, checked: throws when the check fails. */
  public toJson(): any {
    return this.check();
  }

  /** the manifest without the check: for queries and reviews of an object that may not pass it. */
  public renderUnchecked(): any {
    return super.toJson();
  }
}

/** the rendering of any ApiObject, without the check of a checked one. */
export function renderUnchecked(object: ApiObject): any {
  return CheckedApiObject.isChecked(object) ? object.renderUnchecked() : object.toJson();
}
