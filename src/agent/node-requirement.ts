import { checkDnsSubdomain, checkLabelKey, checkLabelValue, fail, show } from './_validate';

/**
 * One requirement a node must meet, for node affinity.
 *
 * Requirements in one term must all hold; terms are alternatives.
 *
 * @see https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#node-affinity
 */
export class NodeRequirement {
  /** the node has label `key` with one of `values` (Kubernetes' `In`). */
  public static isIn(key: string, values: string[]): NodeRequirement {
    return new NodeRequirement('label', key, 'In', labelValues('NodeRequirement.isIn', key, values));
  }

  /**
   * the node has label `key` with one of `values`.
   *
   * @deprecated use `isIn()`: `in` is a Python keyword (the Python binding would read `in_()`).
   */
  public static in(key: string, values: string[]): NodeRequirement {
    return NodeRequirement.isIn(key, values);
  }

  /** the node has no label `key`, or its value is none of `values`. */
  public static notIn(key: string, values: string[]): NodeRequirement {
    return new NodeRequirement('label', key, 'NotIn', labelValues('NodeRequirement.notIn', key, values));
  }

  /** the node has label `key`, with any value. */
  public static exists(key: string): NodeRequirement {
    checkLabelKey(undefined, 'NodeRequirement.exists key', key);
    return new NodeRequirement('label', key, 'Exists', undefined);
  }

  /** the node has no label `key`. */
  public static doesNotExist(key: string): NodeRequirement {
    checkLabelKey(undefined, 'NodeRequirement.doesNotExist key', key);
    return new NodeRequirement('label', key, 'DoesNotExist', undefined);
  }

  /** the node's label `key` is an integer greater than `value`. */
  public static greaterThan(key: string, value: number): NodeRequirement {
    return new NodeRequirement('label', key, 'Gt', [wholeNumber('NodeRequirement.greaterThan', 'Gt', key, value)]);
  }

  /** the node's label `key` is an integer less than `value`. */
  public static lessThan(key: string, value: number): NodeRequirement {
    return new NodeRequirement('label', key, 'Lt', [wholeNumber('NodeRequirement.lessThan', 'Lt', key, value)]);
  }

  /** the node is the one named `nodeName` (a `matchFields` requirement on `metadata.name`). */
  public static named(nodeName: string): NodeRequirement {
    checkDnsSubdomain(undefined, 'NodeRequirement.named node name', nodeName);
    return new NodeRequirement('field', 'metadata.name', 'In', [nodeName]);
  }

  /** the node is not the one named `nodeName` (a `matchFields` requirement on `metadata.name`). */
  public static notNamed(nodeName: string): NodeRequirement {
    checkDnsSubdomain(undefined, 'NodeRequirement.notNamed node name', nodeName);
    return new NodeRequirement('field', 'metadata.name', 'NotIn', [nodeName]);
  }

  /** whether this requirement reads a node label (`matchExpressions`) or a node field (`matchFields`). */
  public readonly target: string;
  /** the label key or field path. */
  public readonly key: string;
  /** the Kubernetes operator: In, NotIn, Exists, DoesNotExist, Gt or Lt. */
  public readonly operator: string;
  /** the values, for operators that take them. */
  public readonly values?: string[];

  private constructor(target: string, key: string, operator: string, values: string[] | undefined) {
    this.target = target;
    this.key = key;
    this.operator = operator;
    this.values = values;
  }
}

/** checks an In/NotIn requirement's key and values; returns a copy of the values. */
function labelValues(factory: string, key: string, values: string[]): string[] {
  checkLabelKey(undefined, `${factory} key`, key);
  if (!Array.isArray(values) || values.length === 0) {
    fail(undefined, `${factory}(${JSON.stringify(key)}) needs at least one value, got ${show(values)}: e.g. ['a', 'b']`);
  }
  for (const v of values) checkLabelValue(undefined, `${factory}(${JSON.stringify(key)}) value`, v);
  return [...values];
}

/** checks a Gt/Lt requirement's key and value: a whole number, as the API server parses it (an int64). */
function wholeNumber(factory: string, operator: string, key: string, value: number): string {
  checkLabelKey(undefined, `${factory} key`, key);
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    fail(undefined, `${factory}: ${operator} on ${JSON.stringify(key)} needs a whole number, got ${typeof value === 'number' ? value : show(value)}`);
  }
  return String(value);
}

/**
 * A node affinity term: the node must meet every requirement.
 */
export interface NodeAffinityTerm {
  /** requirements that must all hold. */
  readonly requirements: NodeRequirement[];
}

/**
 * A preferred node affinity term with its weight.
 */
export interface WeightedNodeAffinityTerm extends NodeAffinityTerm {
  /** how much the scheduler prefers nodes matching the term, from 1 to 100. */
  readonly weight: number;
}
