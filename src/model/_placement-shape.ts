// Internal: the JSON shape of the fields DaemonSetCoverage reads, checked before it reads them.
//
// The placement readers (_tolerations.ts, _node-affinity.ts, _label-selector.ts) read plain JSON leniently: a list
// that is not a list reads as empty. That is right for well-typed input and wrong for a manifest with `taints: "oops"`:
// the node would look untainted and the DaemonSet would "run everywhere". The API server rejects such objects (it
// cannot decode them), so the model fails instead, naming the field, what it expects and what it got: the types are
// the API's own (`_api-type-check.ts`, from the pinned version's OpenAPI schema).

import { ApiTypeError, apiTypeErrors } from './_api-type-check';
import { object } from './_pod-spec';

/**
 * Checks the fields of a DaemonSet that placement and rollout read (every field, by the API's types), and returns its
 * pod spec.
 *
 * @throws naming the field when `spec.template.spec` is missing or a field has a JSON type the API server rejects
 */
export function checkDaemonSetShape(daemonSet: any): any {
  const spec = required(daemonSet.spec, 'spec', 'the DaemonSet spec, with selector and template');
  const template = required(spec.template, 'spec.template', 'the pod template every node runs');
  const podSpec = required(template.spec, 'spec.template.spec', 'the pod spec, with its containers');
  throwFirst(apiTypeErrors(daemonSet, 'DaemonSet', '', 1));
  return podSpec;
}

/**
 * Checks the fields of a Node (every field, by the API's types): placement reads its name, labels and taints.
 *
 * @param node a v1 Node as plain JSON (an object)
 * @param label how messages name the node, e.g. `nodes[3]`; '' for field paths alone (`spec.taints`)
 * @throws naming the field when one has a JSON type the API server rejects
 */
export function checkNodeShape(node: any, label: string): void {
  throwFirst(apiTypeErrors(node, 'Node', label, 1));
}

function throwFirst(errors: ApiTypeError[]): void {
  if (errors.length > 0) throw new Error(`${errors[0].message}: ${errors[0].fix}`);
}

function required(value: unknown, path: string, what: string): any {
  if (value === undefined || value === null) throw new Error(`${path} is missing: set ${what} (the API server requires it)`);
  return object(value, path);
}
