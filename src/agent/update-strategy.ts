import type { PercentOrAbsolute } from 'cdk8s-plus-28';
import { rollingUpdateBudgets } from './_rollout';
import { ROLLING_UPDATE_OPTIONS } from './_shapes';
import { checkOptions, fail } from './_validate';
import { RolloutPlan } from '../model/rollout-plan';

/**
 * Options for a rolling update.
 *
 * For a DaemonSet both budgets count **nodes**, not pods: `maxUnavailable: 1` updates one node's agent
 * at a time. Exactly one of the two must be non-zero.
 */
export interface RollingUpdateOptions {
  /**
   * How many nodes may be without a ready agent during the update, as a node count or a percentage of
   * the nodes that run the agent (rounded up).
   *
   * @default - 1 node, or 0 when `maxSurge` is set: the safe choice for critical agents
   */
  readonly maxUnavailable?: PercentOrAbsolute;

  /**
   * How many nodes may run a new agent pod next to the old one during the update. Surging keeps the
   * agent available on every node, but two copies then run side by side: only for agents that can
   * share their host ports, sockets and files.
   *
   * @default - no surge
   */
  readonly maxSurge?: PercentOrAbsolute;
}

/**
 * How the agent's pods are replaced when the DaemonSet changes.
 *
 * @see https://kubernetes.io/docs/tasks/manage-daemon/update-daemon-set/
 */
export class AgentUpdateStrategy {
  /**
   * Replaces old pods node by node, within the given budget.
   */
  public static rollingUpdate(options: RollingUpdateOptions = {}): AgentUpdateStrategy {
    const { maxUnavailable, maxSurge } = checkOptions<RollingUpdateOptions>('AgentUpdateStrategy.rollingUpdate', options, ROLLING_UPDATE_OPTIONS);
    const budgets = rollingUpdateBudgets(maxUnavailable, maxSurge);
    try {
      // the model holds the API server's rules for the pair; this only names the factory.
      RolloutPlan.validate(budgets.maxUnavailable, budgets.maxSurge);
    } catch (e) {
      fail(undefined, `AgentUpdateStrategy.rollingUpdate: ${(e as Error).message}`);
    }
    return new AgentUpdateStrategy('RollingUpdate', maxUnavailable, maxSurge);
  }

  /**
   * Creates a new pod on a node only after you delete the old one: for agents whose update you must
   * pace by hand, or that carry state a restart would disturb.
   */
  public static onDelete(): AgentUpdateStrategy {
    return new AgentUpdateStrategy('OnDelete', undefined, undefined);
  }

  /** `RollingUpdate` or `OnDelete`. */
  public readonly type: string;
  /** the unavailability budget, when set. */
  public readonly maxUnavailable?: PercentOrAbsolute;
  /** the surge budget, when set. */
  public readonly maxSurge?: PercentOrAbsolute;

  private constructor(type: string, maxUnavailable: PercentOrAbsolute | undefined, maxSurge: PercentOrAbsolute | undefined) {
    this.type = type;
    this.maxUnavailable = maxUnavailable;
    this.maxSurge = maxSurge;
  }
}
