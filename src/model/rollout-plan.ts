import { object } from './_pod-spec';

/**
 * How a DaemonSet replaces its pods when the pod template changes (`spec.updateStrategy.type`).
 */
export enum DaemonSetUpdateStrategyType {
  /** the controller replaces pods node by node, within maxUnavailable or maxSurge (the default). */
  ROLLING_UPDATE = 'RollingUpdate',
  /** the controller creates a new pod on a node only after its old pod is deleted by hand. */
  ON_DELETE = 'OnDelete',
}

/**
 * The rollout of a DaemonSet over a number of nodes, as the DaemonSet controller computes it
 * (`UnavailableCount`, `SurgeCount` and `updatedDesiredNodeCounts` in `pkg/controller/daemon`).
 *
 * `maxUnavailable` and `maxSurge` are Kubernetes IntOrString values. Because jsii has no union types they are taken
 * as `any` plain JSON, exactly as in a manifest: a number is a count of nodes (`1`), a string must be a percentage
 * (`"10%"`); a numeric string such as `"1"` is rejected, as the API server rejects it.
 */
export class RolloutPlan {
  /**
   * Computes the rollout of a DaemonSet over `nodeCount` nodes.
   *
   * Applies the API server's defaults (RollingUpdate, maxUnavailable 1, maxSurge 0; OnDelete for the long-removed
   * extensions/v1beta1) and validation, then scales
   * percentages of `nodeCount` rounding up (for both fields, unlike a Deployment), and applies the controller's guard
   * (when both scale to 0 on a non-empty rollout, maxUnavailable becomes 1). For OnDelete nothing is automatic:
   * both limits and the number of waves are 0.
   *
   * @param daemonSet an `apps/v1` DaemonSet as plain JSON (only `spec.updateStrategy` is read)
   * @param nodeCount the number of nodes that run the DaemonSet (`CoveragePlan.desired`)
   * @throws when the update strategy is one the API server rejects, or nodeCount is not a non-negative integer
   */
  public static of(daemonSet: any, nodeCount: number): RolloutPlan {
    if (!Number.isSafeInteger(nodeCount) || nodeCount < 0) {
      throw new Error(`nodeCount ${JSON.stringify(nodeCount)} is not a number of nodes; pass a non-negative integer such as CoveragePlan.desired`);
    }
    // a strategy of the wrong shape is rejected by the API server: fail rather than read it as the default
    const strategy = object(daemonSet?.spec?.updateStrategy, 'spec.updateStrategy') ?? {};
    object(strategy.rollingUpdate, 'spec.updateStrategy.rollingUpdate');
    // extensions/v1beta1 (not served since 1.16) defaulted DaemonSets to OnDelete; apps/v1 defaults to RollingUpdate.
    const type = strategy.type ?? (daemonSet?.apiVersion === 'extensions/v1beta1' ? DaemonSetUpdateStrategyType.ON_DELETE : '');
    if (type === DaemonSetUpdateStrategyType.ON_DELETE) {
      return new RolloutPlan(DaemonSetUpdateStrategyType.ON_DELETE, nodeCount, 0, 0, 0);
    }
    if (type !== '' && type !== DaemonSetUpdateStrategyType.ROLLING_UPDATE) {
      throw new Error(`updateStrategy.type ${JSON.stringify(type)} is not supported; use "RollingUpdate" or "OnDelete"`);
    }
    const rollingUpdate = strategy.rollingUpdate ?? {};
    const [unavailableValue, surgeValue] = checkPair(rollingUpdate.maxUnavailable, rollingUpdate.maxSurge);

    let maxUnavailable = scale(unavailableValue, nodeCount);
    const maxSurge = scale(surgeValue, nodeCount);
    if (nodeCount > 0 && maxUnavailable === 0 && maxSurge === 0) {
      maxUnavailable = 1; // the controller's guard: "defaulting to accepting unavailability"
    }
    const batch = Math.max(maxUnavailable, maxSurge);
    const waves = nodeCount === 0 ? 0 : Math.ceil(nodeCount / batch);
    return new RolloutPlan(DaemonSetUpdateStrategyType.ROLLING_UPDATE, nodeCount, maxUnavailable, maxSurge, waves);
  }

  /**
   * Validates a `rollingUpdate` pair the way the API server does, after its defaults.
   *
   * Each value must be a non-negative integer number of nodes or a `"N%"` string of at most 100%; exactly one of
   * the two must be non-zero (`0` and `"0%"` are zero). An unset value takes the API server's default, maxUnavailable 1
   * and maxSurge 0, so a maxSurge given alone is rejected: set maxUnavailable to 0 with it.
   *
   * @param maxUnavailable a number of nodes (e.g. `1`) or a percentage string (e.g. `"10%"`)
   * @param maxSurge a number of nodes (e.g. `1`) or a percentage string (e.g. `"10%"`)
   * @throws with a message naming the field, the value received and the fix
   */
  public static validate(maxUnavailable?: any, maxSurge?: any): void {
    checkPair(maxUnavailable, maxSurge);
  }

  /** the update strategy type. */
  public readonly strategy: DaemonSetUpdateStrategyType;

  /** the number of nodes the rollout covers. */
  public readonly nodeCount: number;

  /** how many nodes may be without an available pod at once, in nodes (0 for OnDelete). */
  public readonly maxUnavailable: number;

  /** how many nodes may run an extra new pod beside the old one at once, in nodes (0 for OnDelete). */
  public readonly maxSurge: number;

  /** the number of batches needed to update every node: ceil(nodeCount / max(maxUnavailable, maxSurge)); 0 for OnDelete or no nodes. */
  public readonly waves: number;

  private constructor(strategy: DaemonSetUpdateStrategyType, nodeCount: number, maxUnavailable: number, maxSurge: number, waves: number) {
    this.strategy = strategy;
    this.nodeCount = nodeCount;
    this.maxUnavailable = maxUnavailable;
    this.maxSurge = maxSurge;
    this.waves = waves;
  }
}

/** a validated IntOrString: a count of nodes, or a percentage. */
interface IntOrPercent {
  readonly value: number;
  readonly percent: boolean;
  readonly text: string;
}

const INT32_MAX = 2147483647;

function checkPair(maxUnavailable: unknown, maxSurge: unknown): [IntOrPercent, IntOrPercent] {
  const unavailableDefaulted = maxUnavailable === undefined || maxUnavailable === null;
  const unavailable = checkIntOrPercent('maxUnavailable', unavailableDefaulted ? 1 : maxUnavailable);
  const surge = checkIntOrPercent('maxSurge', maxSurge === undefined || maxSurge === null ? 0 : maxSurge);
  if (unavailable.value !== 0 && surge.value !== 0) {
    const which = unavailableDefaulted ? 'maxUnavailable is 1 by default when it is not set' : `maxUnavailable is ${unavailable.text}`;
    throw new Error(
      `maxSurge ${surge.text} may not be set when maxUnavailable is non-zero (${which}); ` +
      'set maxUnavailable to 0 to roll out by surge, or maxSurge to 0 to roll out by unavailability',
    );
  }
  if (unavailable.value === 0 && surge.value === 0) {
    throw new Error(
      `maxUnavailable cannot be 0 when maxSurge is 0 (maxUnavailable ${unavailable.text}, maxSurge ${surge.text}); ` +
      'set maxUnavailable to at least 1 (or a percentage such as "10%"), or maxSurge to at least 1 with maxUnavailable 0',
    );
  }
  return [unavailable, surge];
}

function checkIntOrPercent(field: string, value: unknown): IntOrPercent {
  const fix = 'use a number of nodes such as 1 or a percentage string such as "10%"';
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`${field} ${value} is not a whole number of nodes; ${fix}`);
    if (value < 0) throw new Error(`${field} ${value} is negative; ${fix}, at least 0`);
    if (value > INT32_MAX) throw new Error(`${field} ${value} is larger than a 32-bit integer; ${fix}`);
    return { value, percent: false, text: String(value) };
  }
  if (typeof value === 'string') {
    const text = JSON.stringify(value);
    if (!/^[0-9]+%$/.test(value)) {
      throw new Error(`${field} ${text} is a string but not a percentage; ${fix} (a count of nodes is a number, not a string)`);
    }
    const percent = Number(value.slice(0, -1));
    if (percent > 100) throw new Error(`${field} ${text} is more than 100%; use a percentage from "0%" to "100%"`);
    return { value: percent, percent: true, text };
  }
  throw new Error(`${field} ${JSON.stringify(value) ?? String(value)} is neither a number nor a percentage string; ${fix}`);
}

/** `GetScaledValueFromIntOrPercent(value, total, roundUp=true)`. */
function scale(value: IntOrPercent, total: number): number {
  return value.percent ? Math.ceil((value.value * total) / 100) : value.value;
}
