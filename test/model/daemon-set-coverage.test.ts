import * as fc from 'fast-check';
import { DaemonSetCoverage, NodePlacement } from '../../src/model';

// ---------- builders (plain Kubernetes JSON) ----------

interface TaintSpec {
  key: string;
  value?: string;
  effect: string;
}

function node(name: string, opts: { labels?: Record<string, string>; taints?: TaintSpec[]; unschedulable?: boolean } = {}): any {
  const n: any = { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, ...opts.labels } }, spec: {} };
  if (opts.taints) n.spec.taints = opts.taints;
  if (opts.unschedulable !== undefined) n.spec.unschedulable = opts.unschedulable;
  return n;
}

function ds(podSpec: any = {}): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'observability' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'nginx:1.27-alpine' }], ...podSpec } },
    },
  };
}

function place(podSpec: any, n: any): NodePlacement {
  return DaemonSetCoverage.placement(ds(podSpec), n);
}

function required(...terms: any[]): any {
  return { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } };
}

function expr(key: string, operator: string, values?: string[]): any {
  return values === undefined ? { key, operator } : { key, operator, values };
}

const CONTROL_PLANE_TAINT = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };

// ---------- plan() ----------

describe('DaemonSetCoverage.plan', () => {
  test('counts desired and keeps one placement per node in input order', () => {
    const nodes = [node('c', { labels: { agent: 'enabled' } }), node('a'), node('b', { labels: { agent: 'enabled' } })];
    const plan = DaemonSetCoverage.plan(ds({ nodeSelector: { agent: 'enabled' } }), nodes);
    expect(plan.desired).toBe(2);
    expect(plan.placements.map((p) => p.nodeName)).toEqual(['c', 'a', 'b']);
    expect(plan.placements.map((p) => p.shouldRun)).toEqual([true, false, true]);
    expect(plan.placements[0].reasons).toEqual([]);
    expect(plan.placements[1].reasons).toHaveLength(1);
  });

  test('no nodes gives desired 0 and no placements', () => {
    expect(DaemonSetCoverage.plan(ds(), [])).toEqual({ desired: 0, placements: [] });
  });

  test('a DaemonSet without constraints runs on every untainted node', () => {
    const plan = DaemonSetCoverage.plan(ds(), [node('a'), node('b'), node('c')]);
    expect(plan.desired).toBe(3);
  });

  test('a DaemonSet without spec.template.spec fails, naming the field: the API server requires it', () => {
    expect(() => DaemonSetCoverage.plan({ kind: 'DaemonSet' }, [node('a')])).toThrow(/^spec is missing: set the DaemonSet spec/);
    expect(() => DaemonSetCoverage.plan({ kind: 'DaemonSet', spec: { selector: {} } }, [node('a')])).toThrow(/^spec\.template is missing: set the pod template/);
    expect(() => DaemonSetCoverage.plan({ kind: 'DaemonSet', spec: { template: {} } }, [node('a')])).toThrow(/^spec\.template\.spec is missing/);
    expect(() => DaemonSetCoverage.plan({ kind: 'DaemonSet', spec: { template: 'oops' } }, [node('a')]))
      .toThrow('spec.template must be an object, got "oops": write it as a YAML/JSON mapping');
    // with no node to place on, it still fails: the DaemonSet is checked once, before the nodes
    expect(() => DaemonSetCoverage.placement({ kind: 'DaemonSet' }, node('a'))).toThrow(/^spec is missing/);
  });

  test('a node without metadata.name gets an empty nodeName', () => {
    expect(DaemonSetCoverage.plan(ds(), [{ kind: 'Node' }]).placements[0]).toEqual({ nodeName: '', shouldRun: true, shouldContinueRunning: true, reasons: [] });
  });

  test('fails when nodes is not an array', () => {
    expect(() => DaemonSetCoverage.plan(ds(), { items: [] } as any)).toThrow(/nodes must be an array of Node objects, got an object/);
  });

  test('fails when a node is not an object, naming its index', () => {
    expect(() => DaemonSetCoverage.plan(ds(), [node('a'), 'b'])).toThrow(/nodes\[1\] must be a Node object, got the string "b"/);
  });

  // a field of the wrong shape is rejected by the API server (the types are its schema's); read leniently it would change the answer silently
  // (taints: "oops" would read as an untainted node, tolerations: "oops" as no tolerations)
  test.each([
    ['taints: "oops" on a node', ds(), { ...node('a'), spec: { taints: 'oops' } }, 'nodes[0].spec.taints must be a list, got "oops"'],
    ['a taint that is not a mapping', ds(), { ...node('a'), spec: { taints: ['gpu:NoSchedule'] } }, 'nodes[0].spec.taints[0] must be an object (a Taint), got "gpu:NoSchedule"'],
    ['a taint effect that is not a string', ds(), { ...node('a'), spec: { taints: [{ key: 'k', effect: 5 }] } }, 'nodes[0].spec.taints[0].effect must be a string, got 5'],
    ['node labels that are a list', ds(), { ...node('a'), metadata: { name: 'a', labels: ['gpu'] } }, 'nodes[0].metadata.labels must be an object (of string values), got ["gpu"]'],
    ['a node label that is a boolean', ds(), { ...node('a'), metadata: { name: 'a', labels: { gpu: true } } }, 'nodes[0].metadata.labels.gpu must be a string, got true: quote it ("true")'],
    ['a node spec that is a string', ds(), { ...node('a'), spec: 'oops' }, 'nodes[0].spec must be an object (a NodeSpec), got "oops"'],
    ['tolerations: "oops"', ds({ tolerations: 'oops' }), node('a'), 'spec.template.spec.tolerations must be a list, got "oops"'],
    ['a toleration that is a string', ds({ tolerations: ['all'] }), node('a'), 'spec.template.spec.tolerations[0] must be an object (a Toleration), got "all"'],
    ['nodeSelector: "oops"', ds({ nodeSelector: 'oops' }), node('a'), 'spec.template.spec.nodeSelector must be an object (of string values), got "oops"'],
    ['a nodeSelector value that is a number', ds({ nodeSelector: { zone: 1 } }), node('a'), 'spec.template.spec.nodeSelector.zone must be a string, got 1: quote it ("1")'],
    ['nodeName that is a number', ds({ nodeName: 5 }), node('a'), 'spec.template.spec.nodeName must be a string, got 5'],
    ['hostNetwork: "yes"', ds({ hostNetwork: 'yes' }), node('a'), 'spec.template.spec.hostNetwork must be a boolean, got "yes"'],
    ['affinity that is a list', ds({ affinity: [] }), node('a'), 'spec.template.spec.affinity must be an object (an Affinity), got []'],
    ['nodeSelectorTerms that are a mapping', ds({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: { a: 1 } } } } }), node('a'),
      'spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms must be a list, got {"a":1}'],
    ['matchExpressions values that are a string', ds(required({ matchExpressions: [{ key: 'zone', operator: 'In', values: 'a' }] })), node('a'),
      'spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values must be a list, got "a"'],
  ])('%s fails, naming the field, the value and the fix', (_, daemonSet, n, message) => {
    expect(() => DaemonSetCoverage.plan(daemonSet, [n])).toThrow(message);
  });

  test('fails when the DaemonSet is not an object', () => {
    expect(() => DaemonSetCoverage.plan(null, [node('a')])).toThrow(/daemonSet must be a DaemonSet object, got null/);
  });
});

// ---------- taints and tolerations ----------

describe('taints', () => {
  test('the control-plane NoSchedule taint blocks a new pod but lets a running one stay, with an actionable reason', () => {
    const p = place({}, node('cp', { taints: [CONTROL_PLANE_TAINT] }));
    expect(p.shouldRun).toBe(false);
    expect(p.shouldContinueRunning).toBe(true);
    expect(p.reasons).toHaveLength(1);
    expect(p.reasons[0]).toContain('taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated; add a toleration {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}');
    expect(p.reasons[0]).toContain('it does not evict a pod already running there');
  });

  test('a taint with a value is named key=value:effect and the fix is an Equal toleration', () => {
    const p = place({}, node('gpu', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }));
    expect(p.reasons[0]).toMatch(/^taint dedicated=gpu:NoSchedule is not tolerated/);
    expect(p.reasons[0]).toContain('{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}');
  });

  test('an untolerated NoExecute taint: neither runs nor continues running', () => {
    const p = place({}, node('n', { taints: [{ key: 'maintenance', effect: 'NoExecute' }] }));
    expect(p).toMatchObject({ shouldRun: false, shouldContinueRunning: false });
    expect(p.reasons[0]).toBe('taint maintenance:NoExecute is not tolerated; add a toleration {key: maintenance, operator: Exists, effect: NoExecute} (NoExecute also evicts a pod already running there)');
  });

  test('one reason per untolerated taint; NoExecute among them stops continued running', () => {
    const p = place({}, node('n', { taints: [CONTROL_PLANE_TAINT, { key: 'x', value: 'y', effect: 'NoExecute' }, { key: 'z', effect: 'PreferNoSchedule' }] }));
    expect(p.reasons).toHaveLength(2);
    expect(p.reasons[0]).toContain('control-plane:NoSchedule');
    expect(p.reasons[1]).toContain('x=y:NoExecute');
    expect(p.shouldContinueRunning).toBe(false);
  });

  test('PreferNoSchedule never blocks', () => {
    const p = place({}, node('n', { taints: [{ key: 'soft', value: 'v', effect: 'PreferNoSchedule' }] }));
    expect(p).toEqual({ nodeName: 'n', shouldRun: true, shouldContinueRunning: true, reasons: [] });
  });

  test('an unknown effect does not block (only NoSchedule and NoExecute count)', () => {
    expect(place({}, node('n', { taints: [{ key: 'k', effect: 'Whatever' }] })).shouldRun).toBe(true);
  });

  const autoTolerated: TaintSpec[] = [
    { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
  ];
  test.each(autoTolerated)('$key:$effect is tolerated automatically', (taint) => {
    expect(place({}, node('n', { taints: [taint] })).shouldRun).toBe(true);
  });

  const notAutoTolerated: TaintSpec[] = [
    { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/disk-pressure', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unschedulable', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute' },
    { key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' },
    CONTROL_PLANE_TAINT,
  ];
  test.each(notAutoTolerated)('$key:$effect is not tolerated automatically', (taint) => {
    const p = place({}, node('n', { taints: [taint] }));
    expect(p.shouldRun).toBe(false);
    expect(p.reasons[0]).toContain(`${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`);
  });

  test('not-ready:NoSchedule explains that only NoExecute is tolerated automatically', () => {
    expect(place({}, node('n', { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] })).reasons[0])
      .toContain('automatically only for NoExecute');
  });

  test('network-unavailable:NoSchedule is tolerated only with hostNetwork: true', () => {
    const n = node('n', { taints: [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }] });
    expect(place({ hostNetwork: true }, n).shouldRun).toBe(true);
    expect(place({ hostNetwork: false }, n).shouldRun).toBe(false);
    expect(place({}, n).reasons[0]).toContain('only with hostNetwork: true');
  });

  test('hostNetwork does not tolerate network-unavailable:NoExecute', () => {
    expect(place({ hostNetwork: true }, node('n', { taints: [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoExecute' }] })).shouldRun).toBe(false);
  });

  test('a cordoned node (spec.unschedulable) still runs the pod, with or without the unschedulable taint', () => {
    expect(place({}, node('n', { unschedulable: true })).shouldRun).toBe(true);
    expect(place({}, node('n', { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] })).shouldRun).toBe(true);
  });
});

describe('toleration matching', () => {
  const taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
  const cases: Array<[string, any, TaintSpec, boolean]> = [
    ['Exists with key and effect', { key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }, taint, true],
    ['Exists with key, any effect (empty effect matches all)', { key: 'dedicated', operator: 'Exists' }, taint, true],
    ['bare {operator: Exists} tolerates everything', { operator: 'Exists' }, taint, true],
    ['bare {operator: Exists} tolerates NoExecute too', { operator: 'Exists' }, { key: 'a', effect: 'NoExecute' }, true],
    ['empty key with Exists and effect NoSchedule', { operator: 'Exists', effect: 'NoSchedule' }, taint, true],
    ['Exists with effect NoSchedule does not tolerate NoExecute', { operator: 'Exists', effect: 'NoSchedule' }, { key: 'a', effect: 'NoExecute' }, false],
    ['effect mismatch', { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }, taint, false],
    ['key mismatch', { key: 'other', operator: 'Exists' }, taint, false],
    ['keys compare case-sensitively', { key: 'Dedicated', operator: 'Exists' }, taint, false],
    ['Equal with the same value', { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, taint, true],
    ['Equal with another value', { key: 'dedicated', operator: 'Equal', value: 'cpu', effect: 'NoSchedule' }, taint, false],
    ['empty operator means Equal', { key: 'dedicated', value: 'gpu' }, taint, true],
    ['Equal with a missing value is "" and does not tolerate k=v', { key: 'dedicated' }, taint, false],
    ['Equal with a missing value tolerates a taint without value', { key: 'k', operator: 'Equal' }, { key: 'k', effect: 'NoSchedule' }, true],
    ['operator is case-sensitive: exists is not Exists', { key: 'dedicated', operator: 'exists' }, taint, false],
    ['operator is case-sensitive: equal is not Equal', { key: 'dedicated', operator: 'equal', value: 'gpu' }, taint, false],
    ['tolerationSeconds does not change matching', { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 }, { key: 'a', effect: 'NoExecute' }, true],
    ['Gt tolerates a taint value greater than the toleration value', { key: 'level', operator: 'Gt', value: '3' }, { key: 'level', value: '5', effect: 'NoSchedule' }, true],
    ['Gt does not tolerate an equal value', { key: 'level', operator: 'Gt', value: '5' }, { key: 'level', value: '5', effect: 'NoSchedule' }, false],
    ['Lt tolerates a taint value less than the toleration value', { key: 'level', operator: 'Lt', value: '10' }, { key: 'level', value: '9', effect: 'NoSchedule' }, true],
    ['Lt compares numbers, not strings', { key: 'level', operator: 'Lt', value: '10' }, { key: 'level', value: '100', effect: 'NoSchedule' }, false],
    ['Lt with a non-integer taint value is not tolerated', { key: 'level', operator: 'Lt', value: '10' }, { key: 'level', value: 'low', effect: 'NoSchedule' }, false],
    ['Gt with a non-integer toleration value is not tolerated', { key: 'level', operator: 'Gt', value: 'x' }, { key: 'level', value: '5', effect: 'NoSchedule' }, false],
    // compareNumericValues (k8s.io/api core/v1 toleration.go) reads both values with content.IsDecimalInteger first
    ['Gt with a leading zero ("0100") is not a number to Kubernetes', { key: 'level', operator: 'Gt', value: '0100' }, { key: 'level', value: '150', effect: 'NoSchedule' }, false],
    ['Lt with a plus sign ("+100") is not a number to Kubernetes', { key: 'level', operator: 'Lt', value: '+100' }, { key: 'level', value: '50', effect: 'NoSchedule' }, false],
    ['Lt with a taint value "+5" does not match', { key: 'level', operator: 'Lt', value: '100' }, { key: 'level', value: '+5', effect: 'NoSchedule' }, false],
    ['Gt with a negative value compares as a negative number', { key: 'level', operator: 'Gt', value: '-10' }, { key: 'level', value: '-5', effect: 'NoSchedule' }, true],
  ];
  test.each(cases)('%s', (_name, toleration, t, tolerated) => {
    const p = place({ tolerations: [toleration] }, node('n', { taints: [t] }));
    expect(p.shouldRun).toBe(tolerated);
    expect(p.reasons).toHaveLength(tolerated ? 0 : 1);
  });

  test('any one toleration is enough', () => {
    const tolerations = [{ key: 'other', operator: 'Exists' }, { key: 'dedicated', operator: 'Equal', value: 'gpu' }];
    expect(place({ tolerations }, node('n', { taints: [taint] })).shouldRun).toBe(true);
  });
});

// ---------- nodeName ----------

describe('template nodeName', () => {
  test('a matching nodeName runs', () => {
    expect(place({ nodeName: 'a' }, node('a')).shouldRun).toBe(true);
  });
  test('a different nodeName blocks, with no continued running, naming the node', () => {
    const p = place({ nodeName: 'a' }, node('b'));
    expect(p).toMatchObject({ shouldRun: false, shouldContinueRunning: false });
    expect(p.reasons).toEqual([expect.stringMatching(/^spec\.template\.spec\.nodeName is a, so the pod runs only on that node; remove nodeName/)]);
  });
});

// ---------- nodeSelector ----------

describe('nodeSelector', () => {
  test('a node with the label and value runs', () => {
    expect(place({ nodeSelector: { agent: 'enabled' } }, node('n', { labels: { agent: 'enabled' } })).shouldRun).toBe(true);
  });

  test('a node without the label does not run, and the reason says it lacks the label and how to add it', () => {
    const p = place({ nodeSelector: { agent: 'enabled' } }, node('kind-worker'));
    expect(p).toMatchObject({ shouldRun: false, shouldContinueRunning: false });
    expect(p.reasons).toEqual([
      'nodeSelector agent=enabled is not met: the node has no label agent; label the node (kubectl label node kind-worker agent=enabled) or remove agent from nodeSelector',
    ]);
  });

  test('a node with another value does not run, and the reason shows both values', () => {
    const p = place({ nodeSelector: { agent: 'enabled' } }, node('n', { labels: { agent: 'disabled' } }));
    expect(p.reasons[0]).toMatch(/^nodeSelector agent=enabled is not met: the node has agent=disabled; .*--overwrite/);
  });

  test('an empty map is no constraint', () => {
    expect(place({ nodeSelector: {} }, node('n')).shouldRun).toBe(true);
  });

  test('{gpu: ""} needs the label gpu with an empty value', () => {
    expect(place({ nodeSelector: { gpu: '' } }, node('n', { labels: { gpu: '' } })).shouldRun).toBe(true);
    expect(place({ nodeSelector: { gpu: '' } }, node('n', { labels: { gpu: 'true' } })).shouldRun).toBe(false);
    const p = place({ nodeSelector: { gpu: '' } }, node('n'));
    expect(p.shouldRun).toBe(false);
    expect(p.reasons[0]).toContain('nodeSelector gpu="" is not met: the node has no label gpu');
  });

  test('every key must match (AND), one reason per unmet key', () => {
    const sel = { nodeSelector: { a: '1', b: '2' } };
    expect(place(sel, node('n', { labels: { a: '1', b: '2' } })).shouldRun).toBe(true);
    expect(place(sel, node('n', { labels: { a: '1' } })).reasons).toHaveLength(1);
    expect(place(sel, node('n')).reasons).toHaveLength(2);
  });

  test('values compare exactly (case-sensitive)', () => {
    expect(place({ nodeSelector: { agent: 'enabled' } }, node('n', { labels: { agent: 'Enabled' } })).shouldRun).toBe(false);
  });

  test('nodeSelector and required affinity are ANDed', () => {
    const spec = { nodeSelector: { agent: 'enabled' }, ...required({ matchExpressions: [expr('zone', 'In', ['a'])] }) };
    expect(place(spec, node('n', { labels: { agent: 'enabled', zone: 'a' } })).shouldRun).toBe(true);
    expect(place(spec, node('n', { labels: { agent: 'enabled', zone: 'b' } })).shouldRun).toBe(false);
    expect(place(spec, node('n', { labels: { zone: 'a' } })).shouldRun).toBe(false);
    expect(place(spec, node('n')).reasons).toHaveLength(2);
  });

  test('a nodeSelector mismatch and an untolerated taint are both reported', () => {
    const p = place({ nodeSelector: { agent: 'enabled' } }, node('cp', { taints: [CONTROL_PLANE_TAINT] }));
    expect(p.reasons).toHaveLength(2);
    expect(p.reasons[0]).toMatch(/^nodeSelector/);
    expect(p.reasons[1]).toMatch(/^taint/);
    expect(p.shouldContinueRunning).toBe(false);
  });
});

// ---------- required node affinity ----------

function affinityRuns(labels: Record<string, string>, ...terms: any[]): boolean {
  return place(required(...terms), node('n', { labels })).shouldRun;
}

describe('required node affinity: operators', () => {
  const cases: Array<[string, any, Record<string, string>, boolean]> = [
    ['In matches a listed value', expr('zone', 'In', ['a', 'b']), { zone: 'b' }, true],
    ['In does not match another value', expr('zone', 'In', ['a', 'b']), { zone: 'c' }, false],
    ['In does not match an absent key', expr('zone', 'In', ['a']), {}, false],
    ['NotIn matches an absent key', expr('zone', 'NotIn', ['a']), {}, true],
    ['NotIn matches another value', expr('zone', 'NotIn', ['a']), { zone: 'b' }, true],
    ['NotIn does not match a listed value', expr('zone', 'NotIn', ['a']), { zone: 'a' }, false],
    ['Exists matches any value', expr('gpu', 'Exists'), { gpu: 'nvidia' }, true],
    ['Exists matches an empty value', expr('gpu', 'Exists'), { gpu: '' }, true],
    ['Exists does not match an absent key', expr('gpu', 'Exists'), {}, false],
    ['DoesNotExist matches an absent key', expr('gpu', 'DoesNotExist'), {}, true],
    ['DoesNotExist does not match an empty value', expr('gpu', 'DoesNotExist'), { gpu: '' }, false],
    ['Gt is numeric: 10 > 9', expr('cores', 'Gt', ['9']), { cores: '10' }, true],
    ['Gt is strict', expr('cores', 'Gt', ['10']), { cores: '10' }, false],
    ['Gt: "08" is 8 (base 10), 8 > 7', expr('cores', 'Gt', ['7']), { cores: '08' }, true],
    ['Gt: "08" is 8, not greater than 8', expr('cores', 'Gt', ['8']), { cores: '08' }, false],
    ['Gt value "08" is 8', expr('cores', 'Gt', ['08']), { cores: '9' }, true],
    ['Gt beyond 2^53', expr('id', 'Gt', ['9007199254740992']), { id: '9007199254740993' }, true],
    ['Lt beyond 2^53', expr('id', 'Lt', ['9007199254740993']), { id: '9007199254740992' }, true],
    ['Gt at int64 max', expr('id', 'Gt', ['9223372036854775806']), { id: '9223372036854775807' }, true],
    ['Gt: a label overflowing int64 does not match', expr('id', 'Gt', ['1']), { id: '9223372036854775808' }, false],
    ['Gt: a non-integer label does not match', expr('cores', 'Gt', ['1']), { cores: 'abc' }, false],
    ['Gt: a decimal label does not match', expr('cores', 'Gt', ['1']), { cores: '7.5' }, false],
    ['Gt: an empty label does not match', expr('cores', 'Gt', ['1']), { cores: '' }, false],
    ['Gt: whitespace does not parse', expr('cores', 'Gt', ['1']), { cores: ' 5' }, false],
    ['Gt: an absent label does not match', expr('cores', 'Gt', ['1']), {}, false],
    ['Lt is numeric: 9 < 10', expr('cores', 'Lt', ['10']), { cores: '9' }, true],
    ['Lt is strict', expr('cores', 'Lt', ['10']), { cores: '10' }, false],
    ['Lt: 100 is not < 20 (a string compare would say it is)', expr('cores', 'Lt', ['20']), { cores: '100' }, false],
    ['metadata.name in matchExpressions is a label key, not the node name', expr('metadata.name', 'In', ['n']), {}, false],
    ['metadata.name as a label key matches a label of that name', expr('metadata.name', 'In', ['x']), { 'metadata.name': 'x' }, true],
  ];
  test.each(cases)('%s', (_name, e, labels, expected) => {
    expect(affinityRuns(labels, { matchExpressions: [e] })).toBe(expected);
  });
});

describe('required node affinity: parse errors make the term never match', () => {
  const invalid: Array<[string, any]> = [
    ['Gt with a non-integer value', expr('cores', 'Gt', ['ten'])],
    ['Lt with a decimal value', expr('cores', 'Lt', ['7.5'])],
    ['Gt with two values', expr('cores', 'Gt', ['1', '2'])],
    ['Gt without values', expr('cores', 'Gt', [])],
    ['Gt with a negative value (not a valid label value)', expr('cores', 'Gt', ['-1'])],
    ['Gt with a value overflowing int64', expr('cores', 'Gt', ['9223372036854775808'])],
    ['In without values', expr('zone', 'In', [])],
    ['NotIn without values', expr('zone', 'NotIn')],
    ['Exists with values', expr('zone', 'Exists', ['a'])],
    ['DoesNotExist with values', expr('zone', 'DoesNotExist', ['a'])],
    ['a lowercase operator', expr('zone', 'in', ['a'])],
    ['an unknown operator', expr('zone', 'Equals', ['a'])],
    ['an invalid label key', expr('bad key', 'Exists')],
    ['an invalid label value', expr('zone', 'In', ['a b'])],
  ];
  test.each(invalid)('%s', (_name, e) => {
    // the same requirement in a term that would otherwise match, plus an always-true second expression
    const p = place(required({ matchExpressions: [expr('zone', 'Exists'), e] }), node('n', { labels: { zone: 'a', cores: '5' } }));
    expect(p.shouldRun).toBe(false);
    expect(p.reasons).toHaveLength(1);
    expect(p.reasons[0]).toMatch(/^required node affinity nodeSelectorTerms\[0\] is invalid and never matches: matchExpressions\[1\] \{key: /);
  });

  test('a null requirement (a YAML "- ~" item) is the empty requirement the API server decodes, invalid, never a crash', () => {
    for (const term of [{ matchExpressions: [expr('zone', 'Exists'), null] }, { matchFields: [null] }]) {
      const p = place(required(term), node('n', { labels: { zone: 'a' } }));
      expect(p.shouldRun).toBe(false);
      expect(p.reasons).toEqual([expect.stringMatching(/^required node affinity nodeSelectorTerms\[0\] is invalid and never matches: match(Expressions\[1\]|Fields\[0\]) /)]);
    }
  });

  test('the reason names the bad value and what is needed', () => {
    const p = place(required({ matchExpressions: [expr('cores', 'Lt', ['ten'])] }), node('n', { labels: { cores: '5' } }));
    expect(p.reasons[0]).toContain('{key: cores, operator: Lt, values: [ten]}: operator Lt needs a base-10 integer value, got "ten"');
  });

  test('an invalid term is skipped and the other terms are still tried', () => {
    expect(affinityRuns({ zone: 'a' }, { matchExpressions: [expr('cores', 'Gt', ['ten'])] }, { matchExpressions: [expr('zone', 'In', ['a'])] })).toBe(true);
  });
});

describe('required node affinity: terms and expressions', () => {
  test('an empty term matches nothing, with a reason', () => {
    const p = place(required({}), node('n'));
    expect(p.shouldRun).toBe(false);
    expect(p.reasons[0]).toMatch(/nodeSelectorTerms\[0\] is empty .* matches no node/);
  });

  test('a term with empty lists is empty', () => {
    expect(affinityRuns({}, { matchExpressions: [], matchFields: [] })).toBe(false);
  });

  test('an empty term next to a matching term: the matching term wins (ORed)', () => {
    expect(affinityRuns({ zone: 'a' }, {}, { matchExpressions: [expr('zone', 'In', ['a'])] })).toBe(true);
  });

  test('zero terms match nothing', () => {
    const p = place(required(), node('n'));
    expect(p.shouldRun).toBe(false);
    expect(p.reasons[0]).toMatch(/^required node affinity has no nodeSelectorTerms, which matches no node/);
  });

  test('a required affinity without nodeSelectorTerms matches nothing', () => {
    const spec = { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {} } } };
    expect(place(spec, node('n')).shouldRun).toBe(false);
  });

  test('a null required affinity is no constraint', () => {
    const spec = { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: null } } };
    expect(place(spec, node('n')).shouldRun).toBe(true);
  });

  test('terms are ORed', () => {
    const terms = [{ matchExpressions: [expr('zone', 'In', ['a'])] }, { matchExpressions: [expr('zone', 'In', ['b'])] }];
    expect(affinityRuns({ zone: 'a' }, ...terms)).toBe(true);
    expect(affinityRuns({ zone: 'b' }, ...terms)).toBe(true);
    const p = place(required(...terms), node('n', { labels: { zone: 'c' } }));
    expect(p.shouldRun).toBe(false);
    expect(p.reasons).toEqual([
      'required node affinity nodeSelectorTerms[0] (one of 2 ORed terms) does not match: matchExpressions[0] {key: zone, operator: In, values: [a]} needs zone in [a], the node has zone=c',
      'required node affinity nodeSelectorTerms[1] (one of 2 ORed terms) does not match: matchExpressions[0] {key: zone, operator: In, values: [b]} needs zone in [b], the node has zone=c',
    ]);
  });

  test('expressions in a term are ANDed and the reason names each failed expression', () => {
    const term = { matchExpressions: [expr('zone', 'In', ['a']), expr('disk', 'Exists'), expr('spot', 'DoesNotExist')] };
    expect(affinityRuns({ zone: 'a', disk: 'ssd' }, term)).toBe(true);
    const p = place(required(term), node('n', { labels: { zone: 'a', spot: 'true' } }));
    expect(p.shouldRun).toBe(false);
    expect(p.reasons).toEqual([
      'required node affinity nodeSelectorTerms[0] does not match: ' +
      'matchExpressions[1] {key: disk, operator: Exists} needs the label disk (any value), the node has no label disk; ' +
      'matchExpressions[2] {key: spot, operator: DoesNotExist} needs no label spot, the node has spot=true',
    ]);
  });

  test('two requirements on the same key both apply', () => {
    const term = { matchExpressions: [expr('cores', 'Gt', ['4']), expr('cores', 'Lt', ['16'])] };
    expect(affinityRuns({ cores: '8' }, term)).toBe(true);
    expect(affinityRuns({ cores: '32' }, term)).toBe(false);
    expect(affinityRuns({ cores: '2' }, term)).toBe(false);
  });

  test('Gt reasons say the node value is not an integer', () => {
    const p = place(required({ matchExpressions: [expr('cores', 'Gt', ['4'])] }), node('n', { labels: { cores: 'many' } }));
    expect(p.reasons[0]).toContain('needs cores to be an integer greater than 4, the node has cores=many, which is not a 64-bit integer');
  });

  test('NotIn reasons say the value is excluded', () => {
    const p = place(required({ matchExpressions: [expr('zone', 'NotIn', ['a'])] }), node('n', { labels: { zone: 'a' } }));
    expect(p.reasons[0]).toContain('needs zone absent or not in [a], the node has zone=a');
  });

  test('preferred affinity never affects eligibility', () => {
    const spec = {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, preference: { matchExpressions: [expr('disk-type', 'In', ['ssd'])] } }],
        },
      },
    };
    expect(place(spec, node('n')).shouldRun).toBe(true);
    expect(place(spec, node('n', { labels: { 'disk-type': 'hdd' } })).shouldRun).toBe(true);
  });

  test('the guide example: required zone In [ap-guangzhou-3] with a preferred ssd', () => {
    const spec = {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr('topology.kubernetes.io/zone', 'In', ['ap-guangzhou-3'])] }] },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, preference: { matchExpressions: [expr('disk-type', 'In', ['ssd'])] } }],
        },
      },
    };
    const plan = DaemonSetCoverage.plan(ds(spec), [
      node('a', { labels: { 'topology.kubernetes.io/zone': 'ap-guangzhou-3' } }),
      node('b', { labels: { 'topology.kubernetes.io/zone': 'ap-guangzhou-4', 'disk-type': 'ssd' } }),
    ]);
    expect(plan.desired).toBe(1);
    expect(plan.placements[1].reasons[0]).toContain('the node has topology.kubernetes.io/zone=ap-guangzhou-4');
  });
});

describe('required node affinity: matchFields', () => {
  const nameIn = (v: string[]) => ({ matchFields: [{ key: 'metadata.name', operator: 'In', values: v }] });
  const nameNotIn = (v: string[]) => ({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: v }] });

  test('In metadata.name matches the named node only', () => {
    expect(place(required(nameIn(['a'])), node('a')).shouldRun).toBe(true);
    const p = place(required(nameIn(['a'])), node('b'));
    expect(p.shouldRun).toBe(false);
    expect(p.reasons[0]).toContain('matchFields[0] {key: metadata.name, operator: In, values: [a]} needs metadata.name = a, the node is named b');
  });

  test('NotIn metadata.name excludes the named node', () => {
    expect(place(required(nameNotIn(['a'])), node('a')).shouldRun).toBe(false);
    expect(place(required(nameNotIn(['a'])), node('b')).shouldRun).toBe(true);
  });

  test('matchFields with two values is a parse error', () => {
    const p = place(required(nameIn(['a', 'b'])), node('a'));
    expect(p.shouldRun).toBe(false);
    expect(p.reasons[0]).toMatch(/is invalid and never matches: matchFields\[0\] .*exactly one value, got 2/);
  });

  test('matchFields with an operator other than In/NotIn is a parse error', () => {
    const p = place(required({ matchFields: [{ key: 'metadata.name', operator: 'Exists', values: ['a'] }] }), node('a'));
    expect(p.shouldRun).toBe(false);
    expect(p.reasons[0]).toContain('use In or NotIn');
  });

  test('matchFields and matchExpressions in one term are ANDed', () => {
    const term = { ...nameIn(['a']), matchExpressions: [expr('zone', 'In', ['x'])] };
    expect(place(required(term), node('a', { labels: { zone: 'x' } })).shouldRun).toBe(true);
    expect(place(required(term), node('a', { labels: { zone: 'y' } })).shouldRun).toBe(false);
    expect(place(required(term), node('b', { labels: { zone: 'x' } })).shouldRun).toBe(false);
  });

  test('matchFields are skipped for a node without a name', () => {
    expect(DaemonSetCoverage.placement(ds(required(nameIn(['a']))), { kind: 'Node', metadata: {} }).shouldRun).toBe(true);
  });

  test('a matchFields key other than metadata.name is an empty field', () => {
    const p = place(required({ matchFields: [{ key: 'spec.podCIDR', operator: 'In', values: ['10.0.0.0/24'] }] }), node('a'));
    expect(p.shouldRun).toBe(false);
    expect(p.reasons[0]).toContain('nodes have no field spec.podCIDR (only metadata.name)');
    expect(place(required({ matchFields: [{ key: 'spec.podCIDR', operator: 'NotIn', values: ['x'] }] }), node('a')).shouldRun).toBe(true);
  });
});

// ---------- properties ----------

const keyArb = fc.constantFrom('agent', 'zone', 'gpu', 'node-role.kubernetes.io/control-plane');
const valueArb = fc.constantFrom('', 'enabled', 'a', 'b', '1');
const effectArb = fc.constantFrom('NoSchedule', 'NoExecute', 'PreferNoSchedule');
const taintArb = fc.record({ key: keyArb, value: valueArb, effect: effectArb });
const nodeArb = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/),
  labels: fc.dictionary(keyArb, valueArb, { maxKeys: 3 }),
  taints: fc.array(taintArb, { maxLength: 3 }),
  unschedulable: fc.boolean(),
}).map((n) => node(n.name, { labels: n.labels, taints: n.taints, unschedulable: n.unschedulable }));
const tolerationArb = fc.record({
  key: fc.option(keyArb, { nil: undefined }),
  operator: fc.constantFrom('Exists', 'Equal', undefined),
  value: fc.option(valueArb, { nil: undefined }),
  effect: fc.option(effectArb, { nil: undefined }),
}).filter((t) => t.key !== undefined || t.operator === 'Exists');
const requirementArb = fc.oneof(
  fc.record({ key: keyArb, operator: fc.constantFrom('In', 'NotIn'), values: fc.array(valueArb, { minLength: 1, maxLength: 2 }) }),
  fc.record({ key: keyArb, operator: fc.constantFrom('Exists', 'DoesNotExist') }),
);
const podSpecArb = fc.record({
  nodeSelector: fc.option(fc.dictionary(keyArb, valueArb, { maxKeys: 2 }), { nil: undefined }),
  tolerations: fc.array(tolerationArb, { maxLength: 3 }),
  hostNetwork: fc.boolean(),
  terms: fc.option(fc.array(fc.record({ matchExpressions: fc.array(requirementArb, { maxLength: 2 }) }), { maxLength: 2 }), { nil: undefined }),
}).map((s) => {
  const spec: any = { tolerations: s.tolerations, hostNetwork: s.hostNetwork };
  if (s.nodeSelector) spec.nodeSelector = s.nodeSelector;
  if (s.terms) Object.assign(spec, required(...s.terms));
  return spec;
});

describe('properties', () => {
  test('desired equals the number of placements with shouldRun, and reasons are empty exactly when it runs', () => {
    fc.assert(fc.property(podSpecArb, fc.array(nodeArb, { maxLength: 6 }), (spec, nodes) => {
      const plan = DaemonSetCoverage.plan(ds(spec), nodes);
      expect(plan.desired).toBe(plan.placements.filter((p) => p.shouldRun).length);
      for (const p of plan.placements) {
        expect(p.reasons.length === 0).toBe(p.shouldRun);
        if (p.shouldRun) expect(p.shouldContinueRunning).toBe(true);
      }
    }));
  });

  test('placements keep the order and names of the nodes', () => {
    fc.assert(fc.property(podSpecArb, fc.array(nodeArb, { maxLength: 6 }), (spec, nodes) => {
      const plan = DaemonSetCoverage.plan(ds(spec), nodes);
      expect(plan.placements.map((p) => p.nodeName)).toEqual(nodes.map((n) => n.metadata.name));
    }));
  });

  test('adding {operator: Exists} never decreases desired, and leaves only placement reasons', () => {
    fc.assert(fc.property(podSpecArb, fc.array(nodeArb, { maxLength: 6 }), (spec, nodes) => {
      const before = DaemonSetCoverage.plan(ds(spec), nodes);
      const after = DaemonSetCoverage.plan(ds({ ...spec, tolerations: [...spec.tolerations, { operator: 'Exists' }] }), nodes);
      expect(after.desired).toBeGreaterThanOrEqual(before.desired);
      for (const p of after.placements) expect(p.reasons.filter((r) => r.startsWith('taint '))).toEqual([]);
    }));
  });

  test('PreferNoSchedule taints never change the result', () => {
    fc.assert(fc.property(podSpecArb, fc.array(nodeArb, { maxLength: 6 }), fc.array(fc.record({ key: keyArb, value: valueArb }), { maxLength: 3 }),
      (spec, nodes, soft) => {
        const softened = nodes.map((n) => ({ ...n, spec: { ...n.spec, taints: [...(n.spec.taints ?? []), ...soft.map((t) => ({ ...t, effect: 'PreferNoSchedule' }))] } }));
        expect(DaemonSetCoverage.plan(ds(spec), softened)).toEqual(DaemonSetCoverage.plan(ds(spec), nodes));
      }));
  });

  test('cordoning a node (unschedulable plus its taint) never changes the result', () => {
    fc.assert(fc.property(podSpecArb, nodeArb, (spec, n) => {
      const cordoned = {
        ...n,
        spec: { ...n.spec, unschedulable: true, taints: [...(n.spec.taints ?? []), { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] },
      };
      expect(DaemonSetCoverage.placement(ds(spec), cordoned)).toEqual(DaemonSetCoverage.placement(ds(spec), n));
    }));
  });

  test('a placement is the same whether planned alone or among other nodes', () => {
    fc.assert(fc.property(podSpecArb, fc.array(nodeArb, { minLength: 1, maxLength: 5 }), (spec, nodes) => {
      const plan = DaemonSetCoverage.plan(ds(spec), nodes);
      nodes.forEach((n, i) => expect(DaemonSetCoverage.placement(ds(spec), n)).toEqual(plan.placements[i]));
    }));
  });

  test('NotIn is the negation of In when the key is present, and matches when it is absent', () => {
    fc.assert(fc.property(fc.option(valueArb, { nil: undefined }), fc.array(valueArb, { minLength: 1, maxLength: 3 }), (label, values) => {
      const labels: Record<string, string> = label === undefined ? {} : { k: label };
      const inRuns = affinityRuns(labels, { matchExpressions: [expr('k', 'In', values)] });
      const notInRuns = affinityRuns(labels, { matchExpressions: [expr('k', 'NotIn', values)] });
      if (label === undefined) {
        expect([inRuns, notInRuns]).toEqual([false, true]);
      } else {
        expect(notInRuns).toBe(!inRuns);
        expect(inRuns).toBe(values.includes(label));
      }
    }));
  });

  const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
  test('Gt and Lt agree with BigInt comparison on random int64 labels', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }), int64, fc.nat({ max: 3 }), (wanted, actual, zeros) => {
      // requirement values must be valid label values, so non-negative; node labels are parsed with a sign
      const label = (actual < 0n ? '-' : '') + '0'.repeat(zeros) + (actual < 0n ? -actual : actual).toString();
      expect(affinityRuns({ n: label }, { matchExpressions: [expr('n', 'Gt', [wanted.toString()])] })).toBe(actual > wanted);
      expect(affinityRuns({ n: label }, { matchExpressions: [expr('n', 'Lt', [wanted.toString()])] })).toBe(actual < wanted);
    }));
  });

  test('labels outside int64 never match Gt or Lt', () => {
    fc.assert(fc.property(fc.bigInt({ min: 2n ** 63n, max: 2n ** 80n }), (big) => {
      expect(affinityRuns({ n: big.toString() }, { matchExpressions: [expr('n', 'Gt', ['0'])] })).toBe(false);
      expect(affinityRuns({ n: big.toString() }, { matchExpressions: [expr('n', 'Lt', ['9223372036854775807'])] })).toBe(false);
    }));
  });
});

describe('a Windows node given a pod that declares no OS', () => {
  const windows = node('win-1', { labels: { 'kubernetes.io/os': 'windows' } });
  const linux = node('linux-1', { labels: { 'kubernetes.io/os': 'linux' } });

  test('placed there, with a warning that its Linux images fail; a Linux node gets none', () => {
    const p = place({}, windows);
    expect(p.shouldRun).toBe(true);
    expect(p.warnings).toEqual([expect.stringContaining('the node runs Windows (kubernetes.io/os=windows) and the pod template declares no OS')]);
    expect(p.warnings![0]).toContain('add nodeSelector kubernetes.io/os: linux');
    expect(place({}, linux).warnings).toBeUndefined();
  });

  test('spec.os.name: linux alone still lands there, and the kubelet rejects it (PodOSNotSupported)', () => {
    expect(place({ os: { name: 'linux' } }, windows).warnings).toEqual([expect.stringContaining('the kubelet rejects it (PodOSNotSupported)')]);
  });

  test.each([
    ['a Windows pod (spec.os.name: windows)', { os: { name: 'windows' } }],
    ['a Windows nodeSelector', { nodeSelector: { 'kubernetes.io/os': 'windows' } }],
    ['a HostProcess pod', { hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true } } }],
  ])('no warning for %s', (_name, spec) => {
    expect(place(spec, windows).warnings).toBeUndefined();
  });

  test('a pod kept off the node has reasons, not warnings', () => {
    const p = place({ nodeSelector: { 'kubernetes.io/os': 'linux' } }, windows);
    expect(p.shouldRun).toBe(false);
    expect(p.warnings).toBeUndefined();
  });
});
