import * as fc from 'fast-check';
import { DaemonSetUpdateStrategyType, RolloutPlan } from '../../src/model';

function ds(updateStrategy?: any): any {
  const d: any = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { template: { spec: {} } } };
  if (updateStrategy !== undefined) d.spec.updateStrategy = updateStrategy;
  return d;
}

function rolling(maxUnavailable?: any, maxSurge?: any): any {
  const rollingUpdate: any = {};
  if (maxUnavailable !== undefined) rollingUpdate.maxUnavailable = maxUnavailable;
  if (maxSurge !== undefined) rollingUpdate.maxSurge = maxSurge;
  return ds({ type: 'RollingUpdate', rollingUpdate });
}

describe('RolloutPlan.of: defaults', () => {
  test('no updateStrategy: RollingUpdate, maxUnavailable 1, maxSurge 0, one node per wave', () => {
    const plan = RolloutPlan.of(ds(), 5);
    expect(plan).toEqual({ strategy: DaemonSetUpdateStrategyType.ROLLING_UPDATE, nodeCount: 5, maxUnavailable: 1, maxSurge: 0, waves: 5 });
    expect(plan.strategy).toBe('RollingUpdate');
  });

  test('a DaemonSet without spec takes the defaults', () => {
    expect(RolloutPlan.of({}, 3)).toMatchObject({ maxUnavailable: 1, maxSurge: 0, waves: 3 });
  });

  test('type RollingUpdate without rollingUpdate takes the defaults', () => {
    expect(RolloutPlan.of(ds({ type: 'RollingUpdate' }), 2)).toMatchObject({ maxUnavailable: 1, maxSurge: 0, waves: 2 });
  });

  test('rollingUpdate without type is RollingUpdate', () => {
    expect(RolloutPlan.of(ds({ rollingUpdate: { maxUnavailable: 2 } }), 4)).toMatchObject({ strategy: 'RollingUpdate', maxUnavailable: 2, waves: 2 });
  });

  test('null fields take the defaults', () => {
    expect(RolloutPlan.of(rolling(null, null), 2)).toMatchObject({ maxUnavailable: 1, maxSurge: 0 });
  });

  test('zero nodes: zero waves', () => {
    expect(RolloutPlan.of(ds(), 0)).toMatchObject({ maxUnavailable: 1, maxSurge: 0, waves: 0 });
  });
});

describe('RolloutPlan.of: scaling (percentages round up for both fields)', () => {
  const cases: Array<[any, any, number, number, number, number]> = [
    // maxUnavailable, maxSurge, nodes -> maxUnavailable, maxSurge, waves
    [2, undefined, 5, 2, 0, 3],
    ['10%', undefined, 25, 3, 0, 9],
    ['1%', undefined, 5, 1, 0, 5],
    ['25%', undefined, 10, 3, 0, 4],
    ['50%', undefined, 3, 2, 0, 2],
    ['100%', undefined, 7, 7, 0, 1],
    ['33%', undefined, 100, 33, 0, 4],
    ['05%', undefined, 20, 1, 0, 20],
    [10, undefined, 3, 10, 0, 1],
    ['10%', undefined, 0, 0, 0, 0],
    [0, 1, 4, 0, 1, 4],
    [0, '10%', 25, 0, 3, 9],
    ['0%', '1%', 5, 0, 1, 5],
    [0, '100%', 6, 0, 6, 1],
    [0, 2, 0, 0, 2, 0],
  ];
  test.each(cases)('maxUnavailable %p, maxSurge %p over %p nodes -> %p, %p, %p waves', (mu, ms, n, eu, es, waves) => {
    expect(RolloutPlan.of(rolling(mu, ms), n)).toEqual({ strategy: 'RollingUpdate', nodeCount: n, maxUnavailable: eu, maxSurge: es, waves });
  });
});

describe('RolloutPlan.of: OnDelete', () => {
  test('reports the strategy with nothing automatic', () => {
    expect(RolloutPlan.of(ds({ type: 'OnDelete' }), 10)).toEqual({ strategy: DaemonSetUpdateStrategyType.ON_DELETE, nodeCount: 10, maxUnavailable: 0, maxSurge: 0, waves: 0 });
  });

  test('ignores rollingUpdate, as the API server does', () => {
    expect(RolloutPlan.of(ds({ type: 'OnDelete', rollingUpdate: { maxUnavailable: 'bad' } }), 3).waves).toBe(0);
  });

  test('is the default of extensions/v1beta1 (apps/v1 defaults to RollingUpdate)', () => {
    expect(RolloutPlan.of({ ...ds(), apiVersion: 'extensions/v1beta1' }, 3).strategy).toBe(DaemonSetUpdateStrategyType.ON_DELETE);
    expect(RolloutPlan.of({ ...ds(), apiVersion: 'apps/v1beta2' }, 3).strategy).toBe(DaemonSetUpdateStrategyType.ROLLING_UPDATE);
    expect(RolloutPlan.of({ ...ds({ type: 'RollingUpdate' }), apiVersion: 'extensions/v1beta1' }, 3).strategy).toBe(DaemonSetUpdateStrategyType.ROLLING_UPDATE);
  });
});

describe('RolloutPlan.of: validation', () => {
  const rejected: Array<[string, any, any, RegExp]> = [
    ['both zero', 0, 0, /^maxUnavailable cannot be 0 when maxSurge is 0 \(maxUnavailable 0, maxSurge 0\); set maxUnavailable to at least 1/],
    ['0% and 0', '0%', 0, /maxUnavailable "0%", maxSurge 0/],
    ['0 and 0%', 0, '0%', /cannot be 0 when maxSurge is 0/],
    ['maxUnavailable 0 alone (maxSurge defaults to 0)', 0, undefined, /cannot be 0 when maxSurge is 0/],
    ['both non-zero', 1, 1, /^maxSurge 1 may not be set when maxUnavailable is non-zero \(maxUnavailable is 1\); set maxUnavailable to 0/],
    ['both non-zero percentages', '10%', '20%', /^maxSurge "20%" may not be set when maxUnavailable is non-zero \(maxUnavailable is "10%"\)/],
    ['maxSurge alone (maxUnavailable defaults to 1)', undefined, 1, /maxUnavailable is 1 by default when it is not set\); set maxUnavailable to 0/],
    ['a numeric string', '1', undefined, /^maxUnavailable "1" is a string but not a percentage; use a number of nodes such as 1/],
    ['a word', 'abc', undefined, /^maxUnavailable "abc" is a string but not a percentage/],
    ['a decimal percentage', '2.5%', undefined, /"2\.5%" is a string but not a percentage/],
    ['a negative percentage', 0, '-5%', /^maxSurge "-5%" is a string but not a percentage/],
    ['a percentage with spaces', ' 5%', undefined, /" 5%" is a string but not a percentage/],
    ['more than 100%', '101%', undefined, /^maxUnavailable "101%" is more than 100%; use a percentage from "0%" to "100%"/],
    ['maxSurge more than 100%', 0, '150%', /^maxSurge "150%" is more than 100%/],
    ['a negative number', -1, undefined, /^maxUnavailable -1 is negative; use a number of nodes/],
    ['a negative maxSurge', 0, -2, /^maxSurge -2 is negative/],
    ['a fraction', 1.5, undefined, /^maxUnavailable 1\.5 is not a whole number of nodes/],
    ['a boolean', true, undefined, /^maxUnavailable true is neither a number nor a percentage string/],
    ['an object', { value: 1 }, undefined, /^maxUnavailable \{"value":1\} is neither a number nor a percentage string/],
    ['beyond int32', 2 ** 31, undefined, /^maxUnavailable 2147483648 is larger than a 32-bit integer/],
  ];
  test.each(rejected)('fails for %s', (_name, mu, ms, message) => {
    expect(() => RolloutPlan.of(rolling(mu, ms), 5)).toThrow(message);
    expect(() => RolloutPlan.validate(mu, ms)).toThrow(message);
  });

  test('error messages are lowercase, without a trailing period, and include the value', () => {
    for (const [, mu, ms] of rejected) {
      let message = '';
      try {
        RolloutPlan.validate(mu, ms);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(/^[a-z]/);
      expect(message).not.toMatch(/\.$/);
    }
  });

  test('fails for an update strategy or rollingUpdate of the wrong shape, rather than reading it as the default', () => {
    expect(() => RolloutPlan.of(ds('oops'), 3)).toThrow('spec.updateStrategy must be an object, got "oops": write it as a YAML/JSON mapping');
    expect(() => RolloutPlan.of(ds({ type: 'RollingUpdate', rollingUpdate: 5 }), 3)).toThrow('spec.updateStrategy.rollingUpdate must be an object, got 5');
    expect(() => RolloutPlan.of(ds({ type: 'OnDelete', rollingUpdate: [] }), 3)).toThrow('spec.updateStrategy.rollingUpdate must be an object, got []');
  });

  test('fails for an unknown strategy type', () => {
    expect(() => RolloutPlan.of(ds({ type: 'Recreate' }), 3)).toThrow('updateStrategy.type "Recreate" is not supported; use "RollingUpdate" or "OnDelete"');
    expect(() => RolloutPlan.of(ds({ type: 'rollingupdate' }), 3)).toThrow(/not supported/);
  });

  test.each([-1, 1.5, NaN, Infinity])('fails for nodeCount %p', (n) => {
    expect(() => RolloutPlan.of(ds(), n)).toThrow(/^nodeCount .* is not a number of nodes; pass a non-negative integer/);
  });

  const accepted: Array<[any, any]> = [[undefined, undefined], [1, undefined], [1, 0], [0, 1], ['100%', 0], ['0%', '100%'], ['05%', undefined], [0, '1%'], [5, '0%'], [null, null]];
  test.each(accepted)('accepts maxUnavailable %p with maxSurge %p', (mu, ms) => {
    expect(() => RolloutPlan.validate(mu, ms)).not.toThrow();
    expect(() => RolloutPlan.of(rolling(mu, ms), 3)).not.toThrow();
  });
});

describe('properties', () => {
  const countOrPercent = fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 100 }).map((p) => `${p}%`));
  const isZero = (v: any) => v === 0 || v === '0%';
  const validPair = fc.tuple(countOrPercent, countOrPercent).filter(([mu, ms]) => isZero(mu) !== isZero(ms));
  const scaled = (v: any, n: number) => (typeof v === 'number' ? v : Number((BigInt(parseInt(v, 10)) * BigInt(n) + 99n) / 100n));

  test('percentages scale by ceil(p * nodes / 100), counts are used as is', () => {
    fc.assert(fc.property(validPair, fc.integer({ min: 0, max: 5000 }), ([mu, ms], n) => {
      const plan = RolloutPlan.of(rolling(mu, ms), n);
      expect(plan.maxUnavailable).toBe(scaled(mu, n));
      expect(plan.maxSurge).toBe(scaled(ms, n));
    }));
  });

  test('waves are the fewest batches of max(maxUnavailable, maxSurge) nodes that cover every node', () => {
    fc.assert(fc.property(validPair, fc.integer({ min: 0, max: 5000 }), ([mu, ms], n) => {
      const plan = RolloutPlan.of(rolling(mu, ms), n);
      const batch = Math.max(plan.maxUnavailable, plan.maxSurge);
      if (n === 0) {
        expect(plan.waves).toBe(0);
      } else {
        expect(batch).toBeGreaterThanOrEqual(1);
        expect(plan.waves * batch).toBeGreaterThanOrEqual(n);
        expect((plan.waves - 1) * batch).toBeLessThan(n);
      }
    }));
  });

  test('exactly one of the two is non-zero for a valid pair on a non-empty rollout', () => {
    fc.assert(fc.property(validPair, fc.integer({ min: 1, max: 5000 }), ([mu, ms], n) => {
      const plan = RolloutPlan.of(rolling(mu, ms), n);
      expect((plan.maxUnavailable > 0) !== (plan.maxSurge > 0)).toBe(true);
    }));
  });

  test('a pair with both zero or both non-zero is always rejected', () => {
    const invalidPair = fc.tuple(countOrPercent, countOrPercent).filter(([mu, ms]) => isZero(mu) === isZero(ms));
    fc.assert(fc.property(invalidPair, ([mu, ms]) => {
      expect(() => RolloutPlan.validate(mu, ms)).toThrow(/maxSurge/);
    }));
  });
});
