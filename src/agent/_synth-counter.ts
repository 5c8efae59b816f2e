/**
 * Internal: counts an App's `synth()` and `synthYaml()` calls. Not exported.
 *
 * cdk8s validates the whole app once per synth and again before each chart it renders, and offers no hook that runs
 * once per synth: work done in validation (a NodeAgent's check, SecurityCheck's review) would run C+1 times for C
 * charts. Nothing the user wrote runs between those passes, so the work is done once per synth, identified by this
 * counter. Outside these two methods (e.g. `Testing.synth(chart)`, `chart.toJson()`), `depth` is 0 and nothing is
 * reused.
 */
import { IConstruct } from 'constructs';

const SYNTH_COUNTER = Symbol.for('cdk8s-node-agents.SynthCounter');

/** how many `synth()`/`synthYaml()` calls an App has started, and how many are running. */
export interface SynthCounter {
  count: number;
  depth: number;
}

/** the synth in progress (its number), or undefined outside `synth()`/`synthYaml()`. */
export function currentSynth(counter: SynthCounter): number | undefined {
  return counter.depth > 0 ? counter.count : undefined;
}

/**
 * The synth counter of the tree's root, installed on first use by wrapping the root App's own `synth` and `synthYaml`.
 * A root that is no App never counts a synth.
 */
export function synthCounterOf(root: IConstruct): SynthCounter {
  const existing = (root as any)[SYNTH_COUNTER] as SynthCounter | undefined;
  if (existing) return existing;
  const counter: SynthCounter = { count: 0, depth: 0 };
  Object.defineProperty(root, SYNTH_COUNTER, { value: counter });
  for (const method of ['synth', 'synthYaml'] as const) {
    const original = (root as any)[method] as ((...args: any[]) => any) | undefined;
    if (typeof original !== 'function') continue;
    Object.defineProperty(root, method, {
      configurable: true,
      writable: true,
      value: (...args: any[]) => {
        if (counter.depth === 0) counter.count++;
        counter.depth++;
        try {
          return original.apply(root, args);
        } finally {
          counter.depth--;
        }
      },
    });
  }
  return counter;
}

