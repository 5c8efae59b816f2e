// Internal: the JSON shape of the fields DaemonSetCoverage reads, checked before it reads them.
//
// The placement readers (_tolerations.ts, _node-affinity.ts, _label-selector.ts) read plain JSON leniently: a list
// that is not a list reads as empty. That is right for well-typed input and wrong for a manifest with `taints: "oops"`:
// the node would look untainted and the DaemonSet would "run everywhere". The API server rejects such objects (it
// cannot decode them), so the model fails instead, naming the field, what it expects and what it got.

import { describe, isObject, list, object } from './_pod-spec';

/**
 * Checks the fields of a DaemonSet that placement and rollout read, and returns its pod spec.
 *
 * @throws naming the field when `spec.template.spec` is missing or a field read has the wrong JSON type
 */
export function checkDaemonSetShape(daemonSet: any): any {
  const spec = required(daemonSet.spec, 'spec', 'the DaemonSet spec, with selector and template');
  const template = required(spec.template, 'spec.template', 'the pod template every node runs');
  const podSpec = required(template.spec, 'spec.template.spec', 'the pod spec, with its containers');
  checkPlacementShape(podSpec, 'spec.template.spec');
  return podSpec;
}

/** checks the placement fields of a pod spec: nodeName, nodeSelector, hostNetwork, tolerations, required node affinity. */
function checkPlacementShape(podSpec: any, path: string): void {
  optional(podSpec.nodeName, `${path}.nodeName`, 'string');
  optional(podSpec.hostNetwork, `${path}.hostNetwork`, 'boolean');
  stringMap(podSpec.nodeSelector, `${path}.nodeSelector`);
  items(podSpec.tolerations, `${path}.tolerations`, 'a toleration').forEach((t, i) => {
    for (const field of ['key', 'operator', 'value', 'effect']) optional(t[field], `${path}.tolerations[${i}].${field}`, 'string');
  });
  const affinity = object(podSpec.affinity, `${path}.affinity`);
  const nodeAffinity = object(affinity?.nodeAffinity, `${path}.affinity.nodeAffinity`);
  const requiredPath = `${path}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`;
  const requiredAffinity = object(nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution, requiredPath);
  items(requiredAffinity?.nodeSelectorTerms, `${requiredPath}.nodeSelectorTerms`, 'a node selector term').forEach((term, i) => {
    for (const kind of ['matchExpressions', 'matchFields']) {
      const exprPath = `${requiredPath}.nodeSelectorTerms[${i}].${kind}`;
      items(term[kind], exprPath, 'a requirement {key, operator, values}').forEach((expr, j) => {
        optional(expr.key, `${exprPath}[${j}].key`, 'string');
        optional(expr.operator, `${exprPath}[${j}].operator`, 'string');
        list(expr.values, `${exprPath}[${j}].values`).forEach((v, k) => optional(v, `${exprPath}[${j}].values[${k}]`, 'string'));
      });
    }
  });
}

/**
 * Checks the fields of a Node that placement reads: its name, labels and taints.
 *
 * @param node a v1 Node as plain JSON (an object)
 * @param label how messages name the node, e.g. `nodes[3]`; '' for field paths alone (`spec.taints`)
 * @throws naming the field when one has the wrong JSON type
 */
export function checkNodeShape(node: any, label: string): void {
  const at = (field: string) => (label === '' ? field : `${label}.${field}`);
  const metadata = object(node.metadata, at('metadata'));
  optional(metadata?.name, at('metadata.name'), 'string');
  stringMap(metadata?.labels, at('metadata.labels'));
  const spec = object(node.spec, at('spec'));
  items(spec?.taints, at('spec.taints'), 'a taint {key, value, effect}').forEach((t, i) => {
    for (const field of ['key', 'value', 'effect']) optional(t[field], at(`spec.taints[${i}].${field}`), 'string');
  });
}

function required(value: unknown, path: string, what: string): any {
  if (value === undefined || value === null) throw new Error(`${path} is missing: set ${what} (the API server requires it)`);
  return object(value, path);
}

function optional(value: unknown, path: string, type: 'string' | 'boolean'): void {
  if (value === undefined || value === null || typeof value === type) return;
  const fix = type === 'string' && (typeof value === 'number' || typeof value === 'boolean')
    ? `quote it ("${String(value)}"): YAML reads an unquoted ${value} as a ${typeof value}`
    : `write it as a ${type}`;
  throw new Error(`${path} must be a ${type}, got ${describe(value)}: ${fix}`);
}

/** a list whose entries must all be mappings. */
function items(value: unknown, path: string, what: string): any[] {
  return list(value, path).map((item, i) => {
    if (!isObject(item)) throw new Error(`${path}[${i}] must be an object (${what}), got ${describe(item)}: write it as a YAML/JSON mapping`);
    return item;
  });
}

/** a `map[string]string`, such as labels and nodeSelector. */
function stringMap(value: unknown, path: string): void {
  const map = object(value, path);
  if (map === undefined) return;
  for (const [key, v] of Object.entries(map)) optional(v, `${path}.${key}`, 'string');
}
