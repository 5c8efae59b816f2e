import { Duration } from 'cdk8s';
import type { TaintEffect } from 'cdk8s-plus-28';
import { kplus } from './_plus';
import { TOLERATION_OPTIONS } from './_shapes';
import { checkDuration, checkLabelKey, checkLabelValue, checkOptions, fail, show } from './_validate';

/**
 * Options for a toleration.
 */
export interface TolerationOptions {
  /**
   * The taint effect to tolerate.
   *
   * @default - every effect (NoSchedule, PreferNoSchedule and NoExecute)
   */
  readonly effect?: TaintEffect;

  /**
   * For a `NoExecute` toleration: how long the pod may stay on the node after the taint appears.
   *
   * @default - tolerated forever
   */
  readonly evictAfter?: Duration;
}

/**
 * A toleration that lets the agent run on nodes with matching taints.
 *
 * The DaemonSet controller already tolerates the node-condition taints it must (not-ready,
 * unreachable, disk/memory/pid-pressure, unschedulable, and network-unavailable on the host
 * network), so add tolerations only for taints that your cluster puts on purpose.
 *
 * @see https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
 */
export class Toleration {
  /**
   * Tolerates the control-plane taint `node-role.kubernetes.io/control-plane:NoSchedule` that kubeadm
   * and kind put on control-plane nodes, so the agent runs there too (e.g. to monitor them).
   */
  public static controlPlane(): Toleration {
    return new Toleration('node-role.kubernetes.io/control-plane', 'Exists', undefined, kplus().TaintEffect.NO_SCHEDULE, undefined, 'Toleration.controlPlane');
  }

  /**
   * Tolerates a taint with this key, whatever its value.
   */
  public static exists(key: string, options: TolerationOptions = {}): Toleration {
    checkLabelKey(undefined, 'Toleration.exists key', key);
    if (typeof options === 'string') {
      // a value where the options go: the caller meant a toleration of that value, which exists() cannot express.
      fail(undefined, `Toleration.exists(${JSON.stringify(key)}): options must be an object such as { effect: TaintEffect.NO_SCHEDULE }, got ${show(options)}: to tolerate only the value ${show(options)}, did you mean Toleration.equal(${JSON.stringify(key)}, ${show(options)})?`);
    }
    const o = checkOptions<TolerationOptions>(`Toleration.exists(${JSON.stringify(key)})`, options, TOLERATION_OPTIONS);
    return new Toleration(key, 'Exists', undefined, o.effect, o.evictAfter, 'Toleration.exists');
  }

  /**
   * Tolerates a taint with this key and exactly this value (e.g. `dedicated=gpu:NoSchedule`).
   */
  public static equal(key: string, value: string, options: TolerationOptions = {}): Toleration {
    checkLabelKey(undefined, 'Toleration.equal key', key);
    checkLabelValue(undefined, `Toleration.equal(${JSON.stringify(key)}) value`, value);
    const o = checkOptions<TolerationOptions>(`Toleration.equal(${JSON.stringify(key)})`, options, TOLERATION_OPTIONS);
    return new Toleration(key, 'Equal', value, o.effect, o.evictAfter, 'Toleration.equal');
  }

  /**
   * Tolerates every `NoSchedule` taint, but no `NoExecute` taint: the agent starts on any node yet
   * still leaves nodes that are being drained with `NoExecute` (node-exporter's default).
   */
  public static allNoSchedule(): Toleration {
    return new Toleration(undefined, 'Exists', undefined, kplus().TaintEffect.NO_SCHEDULE, undefined, 'Toleration.allNoSchedule');
  }

  /**
   * Tolerates every taint (`operator: Exists` with no key).
   *
   * Warning: the agent then also runs on nodes tainted to keep workloads away (virtual kubelets,
   * Fargate or Windows nodes, nodes being drained) and is never evicted by `NoExecute` taints. Use it
   * only for agents without which a node is broken, such as CNI and CSI node plugins.
   */
  public static everything(): Toleration {
    return new Toleration(undefined, 'Exists', undefined, undefined, undefined, 'Toleration.everything');
  }

  /** the taint key, or undefined to match every key. */
  public readonly key?: string;
  /** `Exists` or `Equal`. */
  public readonly operator: string;
  /** the taint value to match, for `Equal`. */
  public readonly value?: string;
  /** the taint effect, or undefined to match every effect. */
  public readonly effect?: TaintEffect;
  /** how long a `NoExecute` taint is tolerated, when limited. */
  public readonly evictAfter?: Duration;

  private constructor(
    key: string | undefined,
    operator: string,
    value: string | undefined,
    effect: TaintEffect | undefined,
    evictAfter: Duration | undefined,
    factory: string,
  ) {
    const where = `${factory}(${key === undefined ? '' : JSON.stringify(key)})`;
    const effects: string[] = Object.values(kplus().TaintEffect);
    if (effect !== undefined && !effects.includes(effect)) {
      fail(undefined, `${where}: effect ${show(effect)} is not one of ${effects.join(', ')}`);
    }
    if (evictAfter !== undefined) {
      if (effect !== kplus().TaintEffect.NO_EXECUTE) {
        fail(undefined, `${where}: evictAfter applies only to NoExecute taints: set effect: TaintEffect.NO_EXECUTE or remove evictAfter`);
      }
      checkDuration(undefined, `${where} evictAfter`, evictAfter);
    }
    this.key = key;
    this.operator = operator;
    this.value = value;
    this.effect = effect;
    this.evictAfter = evictAfter;
  }
}
