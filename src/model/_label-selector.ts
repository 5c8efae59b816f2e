// Label syntax, int64 parsing and node selector requirements, as in
// k8s.io/apimachinery/pkg/labels (NewRequirement, Requirement.Matches) and
// k8s.io/apimachinery/pkg/util/validation (IsQualifiedName, IsValidLabelValue).
// Internal: not exported from the package.

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * `strconv.ParseInt(s, 10, 64)`: an optional sign and base-10 digits ("08" is 8), within int64.
 * Returns undefined where Go returns an error.
 */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const value = BigInt(s);
  if (value < INT64_MIN || value > INT64_MAX) return undefined;
  return value;
}

const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** why `key` is not a valid label key (`IsQualifiedName`), or undefined when it is. */
export function labelKeyError(key: string): string | undefined {
  const parts = key.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) return `label key "${key}" has an empty prefix before "/"`;
    if (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)) {
      return `label key "${key}" has a prefix that is not a lowercase DNS subdomain (e.g. "example.com")`;
    }
  } else {
    return `label key "${key}" has more than one "/"`;
  }
  if (name.length === 0) return `label key "${key}" has an empty name`;
  if (name.length > 63) return `label key "${key}" has a name longer than 63 characters`;
  if (!QUALIFIED_NAME_PART.test(name)) {
    return `label key "${key}" is not a valid name (alphanumerics, "-", "_" or ".", starting and ending with an alphanumeric)`;
  }
  return undefined;
}

/** why `value` is not a valid label value (`IsValidLabelValue`), or undefined when it is. */
export function labelValueError(value: string): string | undefined {
  if (value.length > 63) return `value "${value}" is longer than 63 characters`;
  if (value !== '' && !QUALIFIED_NAME_PART.test(value)) {
    return `value "${value}" is not a valid label value (alphanumerics, "-", "_" or ".", starting and ending with an alphanumeric)`;
  }
  return undefined;
}

/** a Kubernetes string field read from plain JSON: absent and null are "", scalars are stringified. */
export function str(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : String(value);
}

/** a Kubernetes list field read from plain JSON: anything that is not an array is empty. */
export function list(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

/** a `map[string]string` read from plain JSON. */
export function stringMap(value: unknown): Map<string, string> {
  const result = new Map<string, string>();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) result.set(k, str(v));
  }
  return result;
}

/** formats a value for a message: `name=value`, or `name=""` for an empty value. */
export function formatLabel(key: string, value: string): string {
  return value === '' ? `${key}=""` : `${key}=${value}`;
}

/** formats a node selector requirement the way a user would write it, e.g. `{key: zone, operator: In, values: [a, b]}`. */
export function formatRequirement(expr: any): string {
  const values = list(expr?.values).map(str);
  const parts = [`key: ${str(expr?.key)}`, `operator: ${str(expr?.operator)}`];
  if (values.length > 0 || !['Exists', 'DoesNotExist'].includes(str(expr?.operator))) {
    parts.push(`values: [${values.map((v) => (v === '' ? '""' : v)).join(', ')}]`);
  }
  return `{${parts.join(', ')}}`;
}

/** a parsed label requirement of a node selector term (`matchExpressions`). */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values: string[];
}

const LABEL_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];

/**
 * `nodeSelectorRequirementsAsSelector` for one expression: the parse errors, empty when it is valid.
 * Operators are case-sensitive.
 */
export function labelRequirementErrors(expr: any): string[] {
  const key = str(expr?.key);
  const operator = str(expr?.operator);
  const values = list(expr?.values).map(str);
  if (!LABEL_OPERATORS.includes(operator)) {
    return [`operator "${operator}" is not supported; use one of ${LABEL_OPERATORS.join(', ')} (case-sensitive)`];
  }
  const errors: string[] = [];
  const keyError = labelKeyError(key);
  if (keyError) errors.push(keyError);
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errors.push(`operator ${operator} needs at least one value`);
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length !== 0) errors.push(`operator ${operator} takes no values, got [${values.join(', ')}]`);
      break;
    default: // Gt, Lt
      if (values.length !== 1) errors.push(`operator ${operator} needs exactly one value, got ${values.length}`);
      for (const v of values) {
        if (parseInt64(v) === undefined) errors.push(`operator ${operator} needs a base-10 integer value, got "${v}"`);
      }
  }
  for (const v of values) {
    const valueError = labelValueError(v);
    if (valueError) errors.push(valueError);
  }
  return errors;
}

/** `Requirement.Matches` against node labels; the requirement must be valid (see labelRequirementErrors). */
export function labelRequirementMatches(req: LabelRequirement, labels: Map<string, string>): boolean {
  const has = labels.has(req.key);
  const value = labels.get(req.key) ?? '';
  switch (req.operator) {
    case 'In':
      return has && req.values.includes(value);
    case 'NotIn':
      return !has || !req.values.includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || req.values.length !== 1) return false;
      const nodeValue = parseInt64(value);
      const wanted = parseInt64(req.values[0]);
      if (nodeValue === undefined || wanted === undefined) return false;
      return req.operator === 'Gt' ? nodeValue > wanted : nodeValue < wanted;
    }
    default:
      return false;
  }
}

/** why a valid requirement does not match the node labels, in words (what is needed, what the node has). */
export function labelMismatch(req: LabelRequirement, labels: Map<string, string>): string {
  const has = labels.has(req.key);
  const value = labels.get(req.key) ?? '';
  const actual = has ? `the node has ${formatLabel(req.key, value)}` : `the node has no label ${req.key}`;
  switch (req.operator) {
    case 'In':
      return `needs ${req.key} in [${req.values.join(', ')}], ${actual}`;
    case 'NotIn':
      return `needs ${req.key} absent or not in [${req.values.join(', ')}], ${actual}`;
    case 'Exists':
      return `needs the label ${req.key} (any value), ${actual}`;
    case 'DoesNotExist':
      return `needs no label ${req.key}, ${actual}`;
    default: {
      const comparison = req.operator === 'Gt' ? 'greater than' : 'less than';
      const needs = `needs ${req.key} to be an integer ${comparison} ${req.values[0]}`;
      if (has && parseInt64(value) === undefined) return `${needs}, the node has ${formatLabel(req.key, value)}, which is not a 64-bit integer`;
      return `${needs}, ${actual}`;
    }
  }
}
