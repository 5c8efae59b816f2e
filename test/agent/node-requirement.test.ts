import { Chart, Testing } from 'cdk8s';
import { acknowledgeAll } from './review-helper';
import { NodeAgent } from '../../src/agent/node-agent';
import { NodeAgentProps } from '../../src/agent/node-agent-props';
import { NodeRequirement } from '../../src/agent/node-requirement';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';

function nodeAffinity(props: Partial<NodeAgentProps>): any {
  const chart = new Chart(Testing.app(), 'test');
  acknowledgeAll(new NodeAgent(chart, 'node-agent', { image, ...props }));
  return synthValid(chart).find((m) => m.kind === 'DaemonSet').spec.template.spec.affinity?.nodeAffinity;
}

function build(props: Partial<NodeAgentProps>): void {
  new NodeAgent(new Chart(Testing.app(), 'test'), 'node-agent', { image, ...props });
}

describe('factories', () => {
  test.each([
    ['isIn', NodeRequirement.isIn('topology.kubernetes.io/zone', ['a', 'b']), 'label', 'topology.kubernetes.io/zone', 'In', ['a', 'b']],
    // the deprecated name, kept for TypeScript users (a Python keyword: isIn replaces it)
    ['in', NodeRequirement.isIn('topology.kubernetes.io/zone', ['a', 'b']), 'label', 'topology.kubernetes.io/zone', 'In', ['a', 'b']],
    ['notIn', NodeRequirement.notIn('pool', ['spot']), 'label', 'pool', 'NotIn', ['spot']],
    ['exists', NodeRequirement.exists('gpu'), 'label', 'gpu', 'Exists', undefined],
    ['doesNotExist', NodeRequirement.doesNotExist('virtual'), 'label', 'virtual', 'DoesNotExist', undefined],
    ['greaterThan', NodeRequirement.greaterThan('cores', 4), 'label', 'cores', 'Gt', ['4']],
    ['lessThan', NodeRequirement.lessThan('generation', -2), 'label', 'generation', 'Lt', ['-2']],
    ['named', NodeRequirement.named('node-1'), 'field', 'metadata.name', 'In', ['node-1']],
    ['notNamed', NodeRequirement.notNamed('node-1.example.com'), 'field', 'metadata.name', 'NotIn', ['node-1.example.com']],
  ])('%s', (_, r, target, key, operator, values) => {
    expect(r.target).toBe(target);
    expect(r.key).toBe(key);
    expect(r.operator).toBe(operator);
    expect(r.values).toEqual(values);
  });
});

describe('rendered by NodeAgent', () => {
  test('label requirements go to matchExpressions, node names to matchFields, in order', () => {
    expect(nodeAffinity({
      requiredNodeAffinity: [{ requirements: [NodeRequirement.named('n1'), NodeRequirement.exists('gpu'), NodeRequirement.notNamed('n2'), NodeRequirement.lessThan('gen', 10)] }],
    })).toEqual({
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{
          matchExpressions: [{ key: 'gpu', operator: 'Exists' }, { key: 'gen', operator: 'Lt', values: ['10'] }],
          matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }, { key: 'metadata.name', operator: 'NotIn', values: ['n2'] }],
        }],
      },
    });
  });

  test('terms are alternatives: one nodeSelectorTerm each', () => {
    const affinity = nodeAffinity({ requiredNodeAffinity: [{ requirements: [NodeRequirement.isIn('zone', ['a'])] }, { requirements: [NodeRequirement.doesNotExist('zone')] }] });
    expect(affinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
      { matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] },
    ]);
  });

  test('preferred terms keep their weights, 1 and 100 included', () => {
    expect(nodeAffinity({
      preferredNodeAffinity: [{ weight: 1, requirements: [NodeRequirement.exists('a')] }, { weight: 100, requirements: [NodeRequirement.named('n1')] }],
    })).toEqual({
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 1, preference: { matchExpressions: [{ key: 'a', operator: 'Exists' }] } },
        { weight: 100, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] } },
      ],
    });
  });

  test('an empty label value is a valid In value', () => {
    const affinity = nodeAffinity({ requiredNodeAffinity: [{ requirements: [NodeRequirement.isIn('node-role.kubernetes.io/worker', [''])] }] });
    expect(affinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values).toEqual(['']);
  });

  test('no affinity without terms', () => {
    expect(nodeAffinity({})).toBeUndefined();
  });
});

test('in() is the deprecated name of isIn() (in is a Python keyword)', () => {
  expect(NodeRequirement.in('zone', ['a'])).toEqual(NodeRequirement.isIn('zone', ['a']));
  expect(() => NodeRequirement.in('zone', [])).toThrow(/^NodeRequirement\.isIn\("zone"\) needs at least one value/);
});

describe('rejected by the factories', () => {
  test.each([
    ['an invalid label key', () => NodeRequirement.exists('bad key'), /^NodeRequirement\.exists key: "bad key" is not a valid label key/],
    ['an invalid label value', () => NodeRequirement.isIn('zone', ['a', 'b c']), /^NodeRequirement\.isIn\("zone"\) value: "b c" is not a valid label value/],
    ['In without values', () => NodeRequirement.isIn('zone', []), /^NodeRequirement\.isIn\("zone"\) needs at least one value/],
    ['NotIn without values', () => NodeRequirement.notIn('zone', []), /^NodeRequirement\.notIn\("zone"\) needs at least one value/],
    ['Gt with a fraction', () => NodeRequirement.greaterThan('cores', 1.5), /^NodeRequirement\.greaterThan: Gt on "cores" needs a whole number, got 1\.5/],
    ['Lt with NaN', () => NodeRequirement.lessThan('cores', NaN), /^NodeRequirement\.lessThan: Lt on "cores" needs a whole number, got NaN/],
    ['Gt beyond safe integers', () => NodeRequirement.greaterThan('cores', 2 ** 60), /Gt on "cores" needs a whole number/],
    ['an invalid node name', () => NodeRequirement.named('Node_1'), /^NodeRequirement\.named node name "Node_1" is not a valid name/],
  ])('%s', (_, make, message) => {
    expect(make).toThrow(message);
  });
});

describe('rejected by NodeAgent', () => {
  test.each([
    ['an empty required affinity', { requiredNodeAffinity: [] }, /^\[test\/node-agent\] requiredNodeAffinity is empty/],
    ['a term without requirements', { requiredNodeAffinity: [{ requirements: [] }] }, /requiredNodeAffinity\[0\] has no requirements/],
    ['a requirement not made by the factories', { requiredNodeAffinity: [{ requirements: [{ key: 'a', operator: 'Exists' } as any] }] }, /requiredNodeAffinity\[0\]\.requirements\[0\] must be created with NodeRequirement\.isIn\(\)/],
    ['a weight of 0', { preferredNodeAffinity: [{ weight: 0, requirements: [NodeRequirement.exists('a')] }] }, /preferredNodeAffinity\[0\]\.weight must be a whole number from 1 to 100, got 0/],
    ['a weight of 101', { preferredNodeAffinity: [{ weight: 101, requirements: [NodeRequirement.exists('a')] }] }, /preferredNodeAffinity\[0\]\.weight must be a whole number from 1 to 100, got 101/],
    ['a fractional weight', { preferredNodeAffinity: [{ weight: 2.5, requirements: [NodeRequirement.exists('a')] }] }, /preferredNodeAffinity\[0\]\.weight .* got 2\.5/],
    ['a preferred term without requirements', { preferredNodeAffinity: [{ weight: 1, requirements: [] }] }, /preferredNodeAffinity\[0\] has no requirements/],
  ])('%s', (_, props, message) => {
    expect(() => build(props)).toThrow(message);
  });
});
