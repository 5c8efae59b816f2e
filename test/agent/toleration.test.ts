import { Chart, Duration, Testing } from 'cdk8s';
import { TaintEffect } from 'cdk8s-plus-28';
import { acknowledgeAll } from './review-helper';
import { NodeAgent } from '../../src/agent/node-agent';
import { Toleration } from '../../src/agent/toleration';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';

/** the rendered tolerations of an agent with these, validated strictly. */
function rendered(...tolerations: Toleration[]): any[] {
  const chart = new Chart(Testing.app(), 'test');
  acknowledgeAll(new NodeAgent(chart, 'node-agent', { image, tolerations }));
  return synthValid(chart).find((m) => m.kind === 'DaemonSet').spec.template.spec.tolerations;
}

function build(...tolerations: Toleration[]): void {
  new NodeAgent(new Chart(Testing.app(), 'test'), 'node-agent', { image, tolerations });
}

describe('factories', () => {
  test('controlPlane: the kubeadm control-plane taint, NoSchedule', () => {
    expect({ ...Toleration.controlPlane() }).toEqual({
      key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', value: undefined, effect: TaintEffect.NO_SCHEDULE, evictAfter: undefined,
    });
  });

  test('exists: a key with any value, every effect by default', () => {
    expect({ ...Toleration.exists('example.com/maintenance') }).toEqual({
      key: 'example.com/maintenance', operator: 'Exists', value: undefined, effect: undefined, evictAfter: undefined,
    });
  });

  test('equal: a key and exactly one value', () => {
    const t = Toleration.equal('dedicated', 'gpu', { effect: TaintEffect.NO_SCHEDULE });
    expect({ ...t }).toEqual({ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: TaintEffect.NO_SCHEDULE, evictAfter: undefined });
  });

  test('evictAfter is kept as given', () => {
    const after = Duration.minutes(5);
    expect(Toleration.exists('k', { effect: TaintEffect.NO_EXECUTE, evictAfter: after }).evictAfter).toBe(after);
  });

  test('allNoSchedule: every key, NoSchedule only', () => {
    expect({ ...Toleration.allNoSchedule() }).toEqual({ key: undefined, operator: 'Exists', value: undefined, effect: TaintEffect.NO_SCHEDULE, evictAfter: undefined });
  });

  test('everything: every key and effect', () => {
    expect({ ...Toleration.everything() }).toEqual({ key: undefined, operator: 'Exists', value: undefined, effect: undefined, evictAfter: undefined });
  });
});

describe('rendered by NodeAgent', () => {
  test('every factory, in order', () => {
    expect(rendered(
      Toleration.controlPlane(),
      Toleration.exists('example.com/maintenance'),
      Toleration.equal('dedicated', 'gpu', { effect: TaintEffect.PREFER_NO_SCHEDULE }),
      Toleration.allNoSchedule(),
      Toleration.everything(),
    )).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'example.com/maintenance', operator: 'Exists' },
      { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'PreferNoSchedule' },
      { operator: 'Exists', effect: 'NoSchedule' },
      { operator: 'Exists' },
    ]);
  });

  test('evictAfter becomes tolerationSeconds, zero included', () => {
    expect(rendered(
      Toleration.exists('a', { effect: TaintEffect.NO_EXECUTE, evictAfter: Duration.hours(1) }),
      Toleration.equal('b', 'x', { effect: TaintEffect.NO_EXECUTE, evictAfter: Duration.seconds(0) }),
    )).toEqual([
      { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 3600 },
      { key: 'b', operator: 'Equal', value: 'x', effect: 'NoExecute', tolerationSeconds: 0 },
    ]);
  });

  test('an Equal toleration with an empty value matches taints without value', () => {
    expect(rendered(Toleration.equal('dedicated', ''))).toEqual([{ key: 'dedicated', operator: 'Equal', value: '' }]);
  });

  test('tolerations that differ in value or effect are not duplicates', () => {
    expect(rendered(
      Toleration.exists('k'), Toleration.exists('k', { effect: TaintEffect.NO_SCHEDULE }),
      Toleration.equal('k', 'a'), Toleration.equal('k', 'b'),
      Toleration.everything(), Toleration.allNoSchedule(),
    )).toHaveLength(6);
  });

  test('addToleration after construction', () => {
    const chart = new Chart(Testing.app(), 'test');
    const agent = new NodeAgent(chart, 'node-agent', { image });
    agent.addToleration(Toleration.controlPlane());
    acknowledgeAll(agent);
    expect(synthValid(chart).find((m) => m.kind === 'DaemonSet').spec.template.spec.tolerations).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });
});

describe('rejected by the factories', () => {
  test.each([
    ['an invalid key', () => Toleration.exists('bad key'), /^Toleration\.exists key: "bad key" is not a valid label key/],
    ['an empty key', () => Toleration.exists(''), /^Toleration\.exists key: "" is not a valid label key/],
    ['an invalid value', () => Toleration.equal('dedicated', 'a b'), /^Toleration\.equal\("dedicated"\) value: "a b" is not a valid label value/],
    ['evictAfter without an effect', () => Toleration.exists('k', { evictAfter: Duration.seconds(5) }), /^Toleration\.exists\("k"\): evictAfter applies only to NoExecute taints: set effect: TaintEffect.NO_EXECUTE or remove evictAfter/],
    ['evictAfter with NoSchedule', () => Toleration.equal('k', 'v', { effect: TaintEffect.NO_SCHEDULE, evictAfter: Duration.seconds(5) }), /^Toleration\.equal\("k"\): evictAfter applies only to NoExecute/],
    ['an unknown effect', () => Toleration.exists('k', { effect: 'NoRun' as TaintEffect }), /^Toleration\.exists\("k"\): effect "NoRun" is not one of NoSchedule, PreferNoSchedule, NoExecute/],
  ])('%s', (_, make, message) => {
    expect(make).toThrow(message);
  });
});

describe('rejected by NodeAgent', () => {
  test('the same toleration twice', () => {
    expect(() => build(Toleration.controlPlane(), Toleration.controlPlane()))
      .toThrow(/^\[test\/node-agent\] tolerations: the toleration for "node-role.kubernetes.io\/control-plane" \(Exists, NoSchedule\) is given twice/);
    expect(() => build(Toleration.everything(), Toleration.everything())).toThrow(/the toleration for "\*" \(Exists\) is given twice/);
  });

  test('something that is not a Toleration', () => {
    expect(() => build({ key: 'k', operator: 'Exists' } as any)).toThrow(/tolerations\[0\] must be created with Toleration\.controlPlane\(\), exists\(\), equal\(\), allNoSchedule\(\) or everything\(\)/);
  });
});
