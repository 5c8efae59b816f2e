// nodeSelector and required node affinity, as in
// k8s.io/component-helpers/scheduling/corev1/nodeaffinity (GetRequiredNodeAffinity, LazyErrorNodeSelector).
// Internal: not exported from the package.

import {
  formatLabel, formatRequirement, LabelRequirement, labelMismatch, labelRequirementErrors, labelRequirementMatches, list, str, stringMap,
} from './_label-selector';

/** whether a node satisfies a constraint, and if not, why (one reason per failed part). */
export interface ConstraintOutcome {
  readonly matches: boolean;
  readonly reasons: string[];
}

/**
 * `spec.nodeSelector`: used only when it has entries; every key must exist on the node with exactly the same value.
 */
export function evaluateNodeSelector(nodeSelector: unknown, nodeName: string, labels: Map<string, string>): ConstraintOutcome {
  const reasons: string[] = [];
  for (const [key, wanted] of stringMap(nodeSelector)) {
    const fix = `label the node (kubectl label node ${nodeName || '<node>'} ${key}=${wanted}${labels.has(key) ? ' --overwrite' : ''}) or remove ${key} from nodeSelector`;
    if (!labels.has(key)) {
      reasons.push(`nodeSelector ${formatLabel(key, wanted)} is not met: the node has no label ${key}; ${fix}`);
    } else if (labels.get(key) !== wanted) {
      reasons.push(`nodeSelector ${formatLabel(key, wanted)} is not met: the node has ${formatLabel(key, labels.get(key)!)}; ${fix}`);
    }
  }
  return { matches: reasons.length === 0, reasons };
}

/**
 * `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`: used only when it is set (not null).
 * Terms are ORed; an empty term, a term that fails to parse, and a list of zero terms match nothing.
 */
export function evaluateRequiredNodeAffinity(required: any, nodeName: string, labels: Map<string, string>): ConstraintOutcome {
  if (required === undefined || required === null) return { matches: true, reasons: [] };
  const terms = list(required.nodeSelectorTerms);
  if (terms.length === 0) {
    return {
      matches: false,
      reasons: [
        'required node affinity has no nodeSelectorTerms, which matches no node (the API server rejects it too); ' +
        'add a term or remove requiredDuringSchedulingIgnoredDuringExecution',
      ],
    };
  }
  const reasons: string[] = [];
  for (let i = 0; i < terms.length; i++) {
    const outcome = evaluateTerm(terms[i], nodeName, labels);
    if (outcome.matches) return { matches: true, reasons: [] };
    const prefix = terms.length > 1 ? `required node affinity nodeSelectorTerms[${i}] (one of ${terms.length} ORed terms)` : 'required node affinity nodeSelectorTerms[0]';
    reasons.push(`${prefix} ${outcome.reason}`);
  }
  return { matches: false, reasons };
}

interface TermOutcome {
  readonly matches: boolean;
  readonly reason?: string;
}

function evaluateTerm(term: any, nodeName: string, labels: Map<string, string>): TermOutcome {
  // a null item decodes to an empty requirement, as the API server's decoder stores it (and then rejects it): never a crash
  const expressions = list(term?.matchExpressions).map((e) => e ?? {});
  const fields = list(term?.matchFields).map((e) => e ?? {});
  if (expressions.length === 0 && fields.length === 0) {
    return { matches: false, reason: 'is empty (no matchExpressions or matchFields) and matches no node; add an expression to it or remove it' };
  }

  // parse first: one invalid requirement makes the whole term unusable
  const parseErrors: string[] = [];
  expressions.forEach((expr, j) => {
    const errors = labelRequirementErrors(expr);
    if (errors.length > 0) parseErrors.push(`matchExpressions[${j}] ${formatRequirement(expr)}: ${errors.join('; ')}`);
  });
  fields.forEach((expr, j) => {
    const errors = fieldRequirementErrors(expr);
    if (errors.length > 0) parseErrors.push(`matchFields[${j}] ${formatRequirement(expr)}: ${errors.join('; ')}`);
  });
  if (parseErrors.length > 0) {
    return { matches: false, reason: `is invalid and never matches: ${parseErrors.join('; ')}` };
  }

  const failures: string[] = [];
  expressions.forEach((expr, j) => {
    const req: LabelRequirement = { key: str(expr.key), operator: str(expr.operator), values: list(expr.values).map(str) };
    if (!labelRequirementMatches(req, labels)) {
      failures.push(`matchExpressions[${j}] ${formatRequirement(expr)} ${labelMismatch(req, labels)}`);
    }
  });
  // node fields are only metadata.name, and matchFields are skipped for a node without a name
  if (nodeName !== '') {
    fields.forEach((expr, j) => {
      const key = str(expr.key);
      const wanted = str(list(expr.values)[0]);
      const actual = key === 'metadata.name' ? nodeName : '';
      const matches = str(expr.operator) === 'In' ? actual === wanted : actual !== wanted;
      if (!matches) {
        const has = key === 'metadata.name' ? `the node is named ${nodeName}` : `nodes have no field ${key} (only metadata.name)`;
        const needs = str(expr.operator) === 'In' ? `needs ${key} = ${wanted}` : `needs ${key} other than ${wanted}`;
        failures.push(`matchFields[${j}] ${formatRequirement(expr)} ${needs}, ${has}`);
      }
    });
  }
  if (failures.length === 0) return { matches: true };
  return { matches: false, reason: `does not match: ${failures.join('; ')}` };
}

/** `nodeSelectorRequirementsAsFieldSelector` for one expression: In or NotIn with exactly one value. */
function fieldRequirementErrors(expr: any): string[] {
  const errors: string[] = [];
  const values = list(expr?.values);
  if (values.length !== 1) errors.push(`matchFields need exactly one value, got ${values.length}`);
  const operator = str(expr?.operator);
  if (operator !== 'In' && operator !== 'NotIn') errors.push(`operator "${operator}" is not supported in matchFields; use In or NotIn`);
  return errors;
}
