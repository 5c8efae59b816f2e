import * as fc from 'fast-check';
import { selectorViolations } from '../../src/model/_workload-selector';

// Cases transcribed from Kubernetes' own validation tests (k8s.io/kubernetes v1.37.2,
// pkg/apis/apps/validation/validation_test.go: TestValidateDaemonSet, TestValidateReplicaSet, TestValidateStatefulSet,
// TestValidateDeployment), whose valid template carries the labels {a: b}. The integration suite (test/cluster) checks
// the same rules against a real API server.

const containers = [{ name: 'c', image: 'image:1' }];
function workload(kind: string, selector: any, labels: any = { a: 'b' }, apiVersion = 'apps/v1'): any {
  return {
    apiVersion,
    kind,
    metadata: { name: 'abc', namespace: 'default' },
    spec: { ...(selector === undefined ? {} : { selector }), template: { metadata: { labels }, spec: { containers } } },
  };
}
const fields = (m: any) => selectorViolations(m).map((v) => v.field);

describe.each(['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet'])('apps/v1 %s', (kind) => {
  test('a selector matching the template\'s labels passes (the tests\' valid case)', () => {
    expect(selectorViolations(workload(kind, { matchLabels: { a: 'b' } }))).toEqual([]);
  });

  test('the template may carry more labels than the selector asks for', () => {
    expect(selectorViolations(workload(kind, { matchLabels: { a: 'b' } }, { 'a': 'b', 'pod-template-hash': 'x', 'tier': 'agent' }))).toEqual([]);
  });

  test('"nil selector": required, with a fix naming the template\'s labels', () => {
    const [v, ...rest] = selectorViolations(workload(kind, undefined));
    expect(rest).toEqual([]);
    expect(v).toEqual({
      field: 'spec.selector',
      message: `has no spec.selector, which an apps/v1 ${kind} requires (matching its pod template's labels)`,
      fix: 'add spec.selector.matchLabels with labels the pod template carries (it has a=b), e.g. the app\'s name label',
    });
  });

  test('"empty selector" ({}): refused, it would select every pod of the namespace', () => {
    const [v, ...rest] = selectorViolations(workload(kind, {}));
    expect(rest).toEqual([]);
    expect(v.field).toBe('spec.selector');
    expect(v.message).toBe(`has an empty spec.selector, which an apps/v1 ${kind} refuses (it would select every pod in the namespace)`);
    expect(selectorViolations(workload(kind, { matchLabels: {}, matchExpressions: [] }))).toEqual([v]);
  });

  test('"selector_doesnt_match": {foo: bar} against a template labelled a=b, reported on the template\'s labels', () => {
    const [v, ...rest] = selectorViolations(workload(kind, { matchLabels: { foo: 'bar' } }));
    expect(rest).toEqual([]);
    expect(v).toEqual({
      field: 'spec.template.metadata.labels',
      message: 'spec.selector does not match the pod template\'s labels: the template fails foo=bar (it has a=b)',
      fix: `give the pod template the labels spec.selector requires (foo=bar); the selector cannot be changed once the ${kind} exists`,
    });
  });

  test('"invalid_label": a matchLabels key with "=" is not a valid label key, and the match is not judged then', () => {
    const [v, ...rest] = selectorViolations(workload(kind, { matchLabels: { 'NoUppercaseOrSpecialCharsLike=Equals': 'b' } }));
    expect(rest).toEqual([]);
    expect(v.field).toBe('spec.selector');
    expect(v.message).toMatch(/^spec\.selector is not a valid label selector: matchLabels: label key "NoUppercaseOrSpecialCharsLike=Equals" is not a valid name/);
  });
});

describe('matchExpressions, as labels.Requirement matches them', () => {
  const ds = (matchExpressions: any[], labels: any = { a: 'b' }) => workload('DaemonSet', { matchExpressions }, labels);

  test.each([
    [[{ key: 'a', operator: 'In', values: ['b', 'c'] }], true],
    [[{ key: 'a', operator: 'In', values: ['c'] }], false],
    [[{ key: 'a', operator: 'NotIn', values: ['c'] }], true],
    [[{ key: 'x', operator: 'NotIn', values: ['c'] }], true],
    [[{ key: 'a', operator: 'NotIn', values: ['b'] }], false],
    [[{ key: 'a', operator: 'Exists' }], true],
    [[{ key: 'x', operator: 'Exists' }], false],
    [[{ key: 'x', operator: 'DoesNotExist' }], true],
    [[{ key: 'a', operator: 'DoesNotExist' }], false],
  ])('%j on a=b matches: %s', (expressions, matches) => {
    expect(fields(ds(expressions))).toEqual(matches ? [] : ['spec.template.metadata.labels']);
  });

  test('every term must hold: matchLabels and expressions together, each unmet one named', () => {
    const [v] = selectorViolations(workload('DaemonSet', { matchLabels: { a: 'b', app: 'agent' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] }));
    expect(v.message).toBe('spec.selector does not match the pod template\'s labels: the template fails app=agent, {key: tier, operator: Exists} (it has a=b)');
  });

  test('a template without labels is said to have none', () => {
    const [v] = selectorViolations(workload('DaemonSet', { matchLabels: { app: 'agent' } }, null));
    expect(v.message).toMatch(/\(it has no labels\)$/);
    const [missing] = selectorViolations(workload('DaemonSet', undefined, {}));
    expect(missing.fix).toBe('label the pod template (spec.template.metadata.labels, e.g. app.kubernetes.io/name: <name>) and select that label in spec.selector.matchLabels');
  });

  test.each([
    [{ key: 'a', operator: 'in', values: ['b'] }, 'matchExpressions[0]: operator "in" is not a label selector operator (In, NotIn, Exists, DoesNotExist, case-sensitive)'],
    [{ key: 'a', operator: 'Gt', values: ['1'] }, 'matchExpressions[0]: operator "Gt" is not a label selector operator (In, NotIn, Exists, DoesNotExist, case-sensitive)'],
    [{ key: 'a', operator: 'In' }, 'matchExpressions[0]: operator In needs at least one value'],
    [{ key: 'a', operator: 'NotIn', values: [] }, 'matchExpressions[0]: operator NotIn needs at least one value'],
    [{ key: 'a', operator: 'Exists', values: ['b'] }, 'matchExpressions[0]: operator Exists takes no values, got [b]'],
    [{ key: 'a', operator: 'In', values: ['not valid'] }, 'matchExpressions[0]: value "not valid" is not a valid label value'],
  ])('ValidateLabelSelectorRequirement: %j', (expr, message) => {
    const [v, ...rest] = selectorViolations(ds([expr]));
    expect(rest).toEqual([]);
    expect(v.field).toBe('spec.selector');
    expect(v.message).toContain(message);
  });
});

describe('what it does not judge', () => {
  test.each([
    ['a Job (its selector is generated)', workload('Job', undefined, { a: 'b' }, 'batch/v1')],
    ['a ReplicationController (its selector defaults to the template\'s labels)', workload('ReplicationController', undefined, { a: 'b' }, 'v1')],
    ['a Pod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers } }],
    ['an extensions/v1beta1 DaemonSet (reported as a removed API instead)', workload('DaemonSet', undefined, { a: 'b' }, 'extensions/v1beta1')],
  ])('%s', (_name, manifest) => {
    expect(selectorViolations(manifest)).toEqual([]);
  });
});

describe('malformed input fails with the field, as every model reader does', () => {
  test.each([
    [workload('DaemonSet', 'app=agent'), 'spec.selector must be an object, got "app=agent"'],
    [workload('DaemonSet', { matchLabels: ['a'] }), 'spec.selector.matchLabels must be an object, got ["a"]'],
    [workload('DaemonSet', { matchExpressions: { key: 'a' } }), 'spec.selector.matchExpressions must be a list, got {"key":"a"}'],
    [workload('DaemonSet', { matchExpressions: [{ key: 'a', operator: 'In', values: 'b' }] }), 'spec.selector.matchExpressions[0].values must be a list, got "b"'],
  ])('%j', (manifest, message) => {
    expect(() => selectorViolations(manifest)).toThrow(message);
  });
});

describe('properties', () => {
  const name = fc.stringMatching(/^[a-z0-9]([a-z0-9.-]{0,10}[a-z0-9])?$/);
  const labelsArb = fc.dictionary(name, name, { minKeys: 1, maxKeys: 6 });

  test('a selector made of some of the template\'s labels always matches', () => {
    fc.assert(fc.property(labelsArb, fc.integer({ min: 1, max: 6 }), fc.constantFrom('DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet'), (labels, take, kind) => {
      const matchLabels = Object.fromEntries(Object.entries(labels).slice(0, take));
      const matchExpressions = Object.keys(labels).slice(0, take).map((key) => ({ key, operator: 'Exists' }));
      expect(selectorViolations(workload(kind, { matchLabels }, labels))).toEqual([]);
      expect(selectorViolations(workload(kind, { matchExpressions }, labels))).toEqual([]);
    }), { numRuns: 300 });
  });

  test('a selector asking for a label value the template lacks is one violation, on the template\'s labels, naming it', () => {
    fc.assert(fc.property(labelsArb, name, name, (labels, key, value) => {
      fc.pre(labels[key] !== value);
      const violations = selectorViolations(workload('DaemonSet', { matchLabels: { ...labels, [key]: value } }, labels));
      expect(violations.map((v) => v.field)).toEqual(['spec.template.metadata.labels']);
      expect(violations[0].message).toContain(`the template fails ${key}=${value} `);
    }), { numRuns: 300 });
  });
});
