import { Severity, UpdateStrategyRule } from '../../../src/review';
import { agent, findingsOf, workload } from '../util';

const rule = new UpdateStrategyRule();

describe('NA-UPDATE-STRATEGY: DaemonSets roll out by themselves (RollingUpdate)', () => {
  test('Noncompliance: OnDelete, written', () => {
    const ds = agent();
    ds.spec.updateStrategy = { type: 'OnDelete' };
    expect(findingsOf(rule, [ds]).map((f) => [f.severity, f.field, f.message])).toEqual([[
      Severity.MEDIUM, 'spec.updateStrategy.type',
      'DaemonSet observability/node-agent: updates with OnDelete: a new version reaches a node only when its pod is deleted by hand (spec.updateStrategy.type)',
    ]]);
  });

  test('Noncompliance: OnDelete by default, in extensions/v1beta1', () => {
    const ds = { ...agent(), apiVersion: 'extensions/v1beta1' };
    expect(findingsOf(rule, [ds]).map((f) => f.message)).toEqual([expect.stringContaining('updates with OnDelete, the default of extensions/v1beta1')]);
  });

  test('Compliance: RollingUpdate, written or by default in apps/v1; other kinds are not checked', () => {
    const rolling = agent();
    rolling.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } };
    expect(findingsOf(rule, [agent(), rolling, workload(undefined, { kind: 'Deployment' })])).toEqual([]);
  });
});
