import { Testing } from 'cdk8s';
import { buildBasicsApp } from '../../examples/daemonset-basics/main';
import { DaemonSetCoverage } from '../../src';
import { guideFixture } from '../util/guide';
import { synthValid } from '../util/k8s-schema';

/**
 * The daemonset-basics example must reproduce every manifest of the source document: each field of the document's
 * YAML (copied verbatim into fixtures/) appears in the synthesized DaemonSet with the same value.
 */

function daemonSetOf(section: string): any {
  const app = Testing.app();
  buildBasicsApp(app, section);
  const chart = app.charts.find((c) => c.node.id === section);
  if (!chart) throw new Error(`no chart ${section}`);
  const manifests = synthValid(chart);
  const daemonSets = manifests.filter((m) => m.kind === 'DaemonSet');
  expect(daemonSets).toHaveLength(1);
  return daemonSets[0];
}

/** every leaf of `expected` that `actual` lacks or holds with another value, as `path: expected != actual`. */
function differences(expected: any, actual: any, at = ''): string[] {
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(expected) !== Array.isArray(actual)) {
      return [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
    }
    return Object.keys(expected).flatMap((k) => differences(expected[k], actual[k], at ? `${at}.${k}` : k));
  }
  return expected === actual ? [] : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

test.each([
  ['2-1-node-selector'],
  ['2-2-tolerations'],
  ['2-3-node-affinity'],
  ['3-rolling-update'],
])('section %s: every field of the document is synthesized with the same value', (section) => {
  expect(differences(guideFixture(section), daemonSetOf(section))).toEqual([]);
});

test('section 4.2: every field of the document, with drop placed where Kubernetes expects it, and root so that the capabilities take effect', () => {
  const doc = guideFixture('4-2-least-privilege');
  const securityContext = doc.spec.template.spec.containers[0].securityContext;
  // the document lists `drop` beside `capabilities`, a field the API server rejects as unknown.
  expect(securityContext.drop).toEqual(['ALL']);
  expect(securityContext.capabilities.drop).toBeUndefined();
  securityContext.capabilities.drop = securityContext.drop;
  delete securityContext.drop;

  const ds = daemonSetOf('4-2-least-privilege');
  // the document's runAsNonRoot: true leaves the process none of its added capabilities on a node (CapEff 0 under a
  // real kubelet): the example runs as root instead, and that is the only difference.
  expect(differences(doc, ds)).toEqual(['spec.template.spec.containers.0.securityContext.runAsNonRoot: expected true, got false']);
  expect(ds.spec.template.spec.containers[0].securityContext).toMatchObject({
    runAsUser: 0, allowPrivilegeEscalation: false, capabilities: { add: ['NET_ADMIN', 'SYS_PTRACE'], drop: ['ALL'] },
  });
  expect(ds.spec.template.spec.containers[0].securityContext.drop).toBeUndefined();
});

test('the differences helper reports a changed and a missing field (so the tests above can fail)', () => {
  expect(differences({ a: { b: 1, c: [1] } }, { a: { b: 2 } })).toEqual(['a.b: expected 1, got 2', 'a.c: expected [1], got undefined']);
});

test('section 4.2: each added capability, and root, carries its reason on the DaemonSet', () => {
  const ds = daemonSetOf('4-2-least-privilege');
  const reasons = JSON.parse(ds.metadata.annotations['node-agents.cdk8s.io/host-access']);
  expect(reasons.map((r: any) => `${r.type}:${r.detail}`)).toEqual(['capability:NET_ADMIN', 'capability:SYS_PTRACE', 'hostPath:/var/log (read-only)', 'runAsRoot:agent']);
});

describe('exercises', () => {
  const node = (name: string, labels: any, taints?: any[]) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/os': 'linux', ...labels } },
    spec: { taints },
  });
  const controlPlaneTaint = [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }];

  test('A: nginx:1.27-alpine on nodes labelled agent=enabled; DESIRED follows the labels', () => {
    const ds = daemonSetOf('exercise-a');
    const spec = ds.spec.template.spec;
    expect(spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux', 'agent': 'enabled' });
    expect(spec.containers[0].image).toEqual('nginx:1.27-alpine');
    const cp = node('kind-control-plane', { 'node-role.kubernetes.io/control-plane': '' }, controlPlaneTaint);
    expect(DaemonSetCoverage.plan(ds, [cp, node('kind-worker', { agent: 'enabled' }), node('kind-worker2', {})]).desired).toEqual(1);
    expect(DaemonSetCoverage.plan(ds, [cp, node('kind-worker', { agent: 'enabled' }), node('kind-worker2', { agent: 'enabled' })]).desired).toEqual(2);
  });

  test('B: the same DaemonSet tolerating the control-plane taint also covers a labelled control-plane node', () => {
    const a = daemonSetOf('exercise-a');
    const b = daemonSetOf('exercise-b');
    expect(b.metadata.name).toEqual(a.metadata.name);
    expect(b.spec.template.spec.tolerations).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }]);
    const nodes = [
      node('kind-control-plane', { 'node-role.kubernetes.io/control-plane': '', 'agent': 'enabled' }, controlPlaneTaint),
      node('kind-worker', { agent: 'enabled' }),
    ];
    expect(DaemonSetCoverage.plan(a, nodes).desired).toEqual(1);
    expect(DaemonSetCoverage.plan(b, nodes).desired).toEqual(2);
  });
});
