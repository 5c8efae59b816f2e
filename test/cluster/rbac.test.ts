// RBAC judged as the API server's authorizer judges it: for each rule, bound cluster-wide or in a namespace, the review
// reports NA-RBAC-NODES or NA-RBAC-NODE-PROXY exactly when a SubjectAccessReview for the workload's ServiceAccount is
// allowed, and at the lower severity exactly when only named nodes are allowed. This checks the matching the review
// relies on (API groups, `*`, subresources, resourceNames, RoleBindings on cluster-scoped resources) against the RBAC
// authorizer itself.
import { resetCluster } from './cluster';
import { Kube, eventually, ok } from './kube';
import { SecurityReview, Severity } from '../../src';

const kube = Kube.fromKubeconfig();
const NAMESPACE = 'rbac-oracle';
const PREFIX = 'rbac-oracle-';
const NODE = 'node-1';

interface Case {
  readonly name: string;
  readonly rule: any;
  readonly binding: 'ClusterRoleBinding' | 'RoleBinding';
  /** the review rule under test, and the request that rule is about. */
  readonly reviewRule: 'NA-RBAC-NODES' | 'NA-RBAC-NODE-PROXY';
  /** what the review says, read from the rule by hand: its severity, or none. */
  readonly expected: 'critical' | 'high' | 'medium' | 'none';
}

const core = (resources: string[], verbs: string[], extra: any = {}) => ({ apiGroups: [''], resources, verbs, ...extra });
const CASES: Case[] = [
  { name: 'patch-nodes', expected: 'high', rule: core(['nodes'], ['get', 'patch']), binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODES' },
  { name: 'patch-nodes-rolebinding', expected: 'none', rule: core(['nodes'], ['patch']), binding: 'RoleBinding', reviewRule: 'NA-RBAC-NODES' },
  { name: 'update-nodes-any-group', expected: 'high', rule: { apiGroups: ['*'], resources: ['nodes'], verbs: ['update'] }, binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODES' },
  { name: 'patch-every-core-resource', expected: 'high', rule: core(['*'], ['patch']), binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODES' },
  { name: 'patch-named-node', expected: 'medium', rule: core(['nodes'], ['patch'], { resourceNames: [NODE] }), binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODES' },
  { name: 'delete-nodes', expected: 'medium', rule: core(['nodes'], ['delete']), binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODES' },
  { name: 'patch-node-status', expected: 'none', rule: core(['nodes/status'], ['patch', 'update']), binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODES' },
  { name: 'every-verb-on-status', expected: 'none', rule: core(['*/status'], ['*']), binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODES' },
  { name: 'patch-metrics-nodes', expected: 'none', rule: { apiGroups: ['metrics.k8s.io'], resources: ['nodes'], verbs: ['patch'] }, binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODES' },
  { name: 'read-nodes', expected: 'none', rule: core(['nodes'], ['get', 'list', 'watch']), binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODES' },
  { name: 'get-node-proxy', expected: 'critical', rule: core(['nodes/proxy'], ['get']), binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODE-PROXY' },
  { name: 'get-any-proxy', expected: 'critical', rule: core(['*/proxy'], ['get']), binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODE-PROXY' },
  { name: 'get-node-subresources', expected: 'none', rule: core(['nodes/*'], ['get']), binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODE-PROXY' },
  { name: 'node-proxy-rolebinding', expected: 'none', rule: core(['nodes/proxy'], ['get', 'create']), binding: 'RoleBinding', reviewRule: 'NA-RBAC-NODE-PROXY' },
  { name: 'create-named-node-proxy', expected: 'high', rule: core(['nodes/proxy'], ['create'], { resourceNames: [NODE] }), binding: 'ClusterRoleBinding', reviewRule: 'NA-RBAC-NODE-PROXY' },
];

/** the requests each review rule is about. */
const REQUESTS: { [rule: string]: { verb: string; subresource?: string }[] } = {
  'NA-RBAC-NODES': [{ verb: 'update' }, { verb: 'patch' }, { verb: 'delete' }],
  'NA-RBAC-NODE-PROXY': [{ verb: 'get', subresource: 'proxy' }, { verb: 'create', subresource: 'proxy' }],
};

function objectsOf(c: Case): any[] {
  const sa = `${PREFIX}${c.name}`;
  // the canary rule tells when the authorizer's cache holds this role and binding
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: sa }, rules: [c.rule, core(['configmaps'], ['get'], { resourceNames: [sa] })] };
  const subjects = [{ kind: 'ServiceAccount', name: sa, namespace: NAMESPACE }];
  const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: sa };
  const binding = c.binding === 'ClusterRoleBinding'
    ? { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: sa }, subjects, roleRef }
    : { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: sa, namespace: NAMESPACE }, subjects, roleRef };
  const daemonSet = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: sa, namespace: NAMESPACE },
    spec: {
      selector: { matchLabels: { app: sa } },
      template: { metadata: { labels: { app: sa } }, spec: { serviceAccountName: sa, containers: [{ name: 'agent', image: 'registry.example.com/agent:1.0.0' }] } },
    },
  };
  return [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, namespace: NAMESPACE } }, role, binding, daemonSet];
}

async function allowed(sa: string, attributes: any): Promise<boolean> {
  const review = {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: {
      user: `system:serviceaccount:${NAMESPACE}:${sa}`,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${NAMESPACE}`, 'system:authenticated'],
      resourceAttributes: attributes,
    },
  };
  return ok(await kube.create(review), `SubjectAccessReview for ${sa}`).body.status.allowed === true;
}

beforeAll(async () => {
  await resetCluster(kube);
  ok(await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }), 'namespace');
});

afterAll(async () => {
  for (const c of CASES) {
    await kube.delete(`/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${PREFIX}${c.name}`);
    await kube.delete(`/apis/rbac.authorization.k8s.io/v1/clusterroles/${PREFIX}${c.name}`);
  }
  await resetCluster(kube);
});

test.each(CASES.map((c) => [c.name, c] as const))('%s: the review reports what the RBAC authorizer allows', async (_name, c) => {
  const objects = objectsOf(c);
  for (const o of objects.slice(0, 3)) ok(await kube.create(o), `create ${o.kind}`);
  const sa = objects[0].metadata.name;
  await eventually(`the authorizer to see ${sa}'s role`, async () =>
    (await allowed(sa, { namespace: NAMESPACE, verb: 'get', resource: 'configmaps', name: sa })) ? true : undefined, { timeoutMs: 10_000, intervalMs: 100 });

  const server = { anyNode: false, namedOnly: false };
  for (const r of REQUESTS[c.reviewRule]) {
    const unnamed = await allowed(sa, { verb: r.verb, resource: 'nodes', subresource: r.subresource });
    const named = await allowed(sa, { verb: r.verb, resource: 'nodes', subresource: r.subresource, name: NODE });
    server.anyNode ||= unnamed;
    server.namedOnly ||= named && !unnamed;
  }
  const findings = SecurityReview.review(objects).workloads[0].findings.filter((f) => f.rule === c.reviewRule);
  expect(findings.map((f) => f.severity as string)).toEqual(c.expected === 'none' ? [] : [c.expected]);
  const reported = findings.length > 0;
  expect({ case: c.name, reported }).toEqual({ case: c.name, reported: server.anyNode || server.namedOnly });
  if (reported) {
    // the full severity for a right on every node; the lower one for named nodes (and, for NA-RBAC-NODES, delete alone)
    const [full, lower] = c.reviewRule === 'NA-RBAC-NODE-PROXY' ? [Severity.CRITICAL, Severity.HIGH] : [Severity.HIGH, Severity.MEDIUM];
    const onEveryNode = c.reviewRule === 'NA-RBAC-NODES'
      ? (await allowed(sa, { verb: 'patch', resource: 'nodes' })) || (await allowed(sa, { verb: 'update', resource: 'nodes' }))
      : server.anyNode;
    expect({ case: c.name, severity: findings[0].severity }).toEqual({ case: c.name, severity: onEveryNode ? full : lower });
  }
});
