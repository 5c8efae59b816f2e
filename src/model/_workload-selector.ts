/**
 * Internal: the API server's rules for the label selector of the apps/v1 controllers (DaemonSet, Deployment, ReplicaSet,
 * StatefulSet), transcribed from Kubernetes' `pkg/apis/apps/validation` (v1.37: `ValidateDaemonSetSpec`,
 * `ValidateDeploymentSpec`, `ValidateReplicaSetSpec`, `ValidateStatefulSetSpec`) and apimachinery's
 * `ValidateLabelSelector` and `LabelSelectorAsSelector`:
 *
 * - `spec.selector` is required (a DaemonSet without one selects nothing, which fails the match below);
 * - it must be a valid label selector: label keys and values, operators In, NotIn (with values), Exists, DoesNotExist
 *   (without);
 * - it must not be empty (`{}` would select every pod of the namespace);
 * - it must match the pod template's labels, or the controller could never find the pods it creates.
 *
 * A selector is immutable once the object exists, so the fixes change the template's labels, not the selector.
 * Older API versions (extensions/v1beta1 defaulted the selector from the template) are reported as removed instead.
 */
import { formatLabel, formatRequirement, labelKeyError, labelRequirementMatches, labelValueError, str, stringMap } from './_label-selector';
import { describe, list, object } from './_pod-spec';

/** a selector rule the manifest breaks: the API server rejects the object. */
export interface SelectorViolation {
  /** the JSON path of the offending field, relative to the manifest: `spec.selector`. */
  readonly field: string;
  /** what is wrong, naming the values involved, without a trailing period. */
  readonly message: string;
  /** how to make the API server accept it. */
  readonly fix: string;
}

const CONTROLLERS = ['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet'];
const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/**
 * The selector rules an apps/v1 controller manifest breaks, empty when the API server accepts its selector (and for
 * every other kind and API version).
 *
 * @throws when `spec.selector`, its `matchLabels` or `matchExpressions` has the wrong JSON type
 */
export function selectorViolations(manifest: any): SelectorViolation[] {
  const kind = str(manifest?.kind);
  if (manifest?.apiVersion !== 'apps/v1' || !CONTROLLERS.includes(kind)) return [];
  const spec = object(manifest.spec, 'spec') ?? {};
  const templateLabels = stringMap(object(object(object(spec.template, 'spec.template')?.metadata, 'spec.template.metadata')?.labels, 'spec.template.metadata.labels'));
  const selector = object(spec.selector, 'spec.selector');
  // written only for a finding (the API server's rules run on every workload of every review)
  const addSelector = () => (templateLabels.size > 0
    ? `add spec.selector.matchLabels with labels the pod template carries (it has ${formatLabels(templateLabels)}), e.g. the app's name label`
    : 'label the pod template (spec.template.metadata.labels, e.g. app.kubernetes.io/name: <name>) and select that label in spec.selector.matchLabels');
  if (selector === undefined) {
    return [{ field: 'spec.selector', message: `has no spec.selector, which an apps/v1 ${kind} requires (matching its pod template's labels)`, fix: addSelector() }];
  }
  const matchLabels = stringMap(object(selector.matchLabels, 'spec.selector.matchLabels'));
  const expressions = list(selector.matchExpressions, 'spec.selector.matchExpressions')
    .map((e, i) => object(e, `spec.selector.matchExpressions[${i}]`) ?? {});

  const errors: string[] = [];
  for (const [key, value] of matchLabels) {
    const keyError = labelKeyError(key);
    if (keyError) errors.push(`matchLabels: ${keyError}`);
    const valueError = labelValueError(value);
    if (valueError) errors.push(`matchLabels ${key}: ${valueError}`);
  }
  expressions.forEach((e, i) => errors.push(...expressionErrors(e, `spec.selector.matchExpressions[${i}]`).map((m) => `matchExpressions[${i}]: ${m}`)));
  if (errors.length > 0) {
    return [{
      field: 'spec.selector',
      message: `spec.selector is not a valid label selector: ${errors.join('; ')}`,
      fix: 'write matchLabels as valid label keys and values, and each matchExpressions entry with operator In or NotIn and values, or Exists or DoesNotExist without values',
    }];
  }
  if (matchLabels.size + expressions.length === 0) {
    return [{ field: 'spec.selector', message: `has an empty spec.selector, which an apps/v1 ${kind} refuses (it would select every pod in the namespace)`, fix: addSelector() }];
  }

  const unmet = [
    ...[...matchLabels].filter(([key, value]) => templateLabels.get(key) !== value).map(([key, value]) => formatLabel(key, value)),
    ...expressions
      .filter((e, i) => !labelRequirementMatches(
        { key: str(e.key), operator: str(e.operator), values: list(e.values, `spec.selector.matchExpressions[${i}].values`).map(str) }, templateLabels))
      .map((e) => formatRequirement(e)),
  ];
  if (unmet.length === 0) return [];
  return [{
    field: 'spec.template.metadata.labels',
    message: `spec.selector does not match the pod template's labels: the template fails ${unmet.join(', ')} ` +
      `(it has ${templateLabels.size > 0 ? formatLabels(templateLabels) : 'no labels'})`,
    fix: `give the pod template the labels spec.selector requires (${unmet.join(', ')}); the selector cannot be changed once the ${kind} exists`,
  }];
}

/** `ValidateLabelSelectorRequirement`: the operator, the values it needs or forbids, the key and the values' syntax. */
function expressionErrors(expr: any, path: string): string[] {
  const operator = str(expr.operator);
  const values = list(expr.values, `${path}.values`).map(str);
  const errors: string[] = [];
  if (!OPERATORS.includes(operator)) {
    errors.push(`operator ${describe(expr.operator)} is not a label selector operator (${OPERATORS.join(', ')}, case-sensitive)`);
  } else if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
    errors.push(`operator ${operator} needs at least one value`);
  } else if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) {
    errors.push(`operator ${operator} takes no values, got [${values.join(', ')}]`);
  }
  const keyError = labelKeyError(str(expr.key));
  if (keyError) errors.push(keyError);
  for (const v of values) {
    const valueError = labelValueError(v);
    if (valueError) errors.push(valueError);
  }
  return errors;
}

function formatLabels(labels: Map<string, string>): string {
  return [...labels].map(([k, v]) => formatLabel(k, v)).join(', ');
}
