import { RbacNodesRule, Severity } from '../../../src/review';
import { boundCluster, boundInNamespace, findingsOf } from '../util';

const rule = new RbacNodesRule();

describe('NA-RBAC-NODES: the ServiceAccount cannot change or delete Node objects', () => {
  test('Noncompliance 1: patch on nodes (what kured and cilium-operator hold) is high: labels and taints decide where pods run', () => {
    const findings = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'patch'] }]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.HIGH]);
    expect(findings[0].message).toContain('can change the labels and taints of every node (patch on nodes), and so where pods run: take taints off ' +
      '(the control plane\'s included), add the labels pods select, node-restriction.kubernetes.io/ ones included (which the NodeRestriction ' +
      'admission plugin keeps kubelets from setting), cordon nodes: ClusterRoleBinding node-agent binds it to ClusterRole node-agent, rules[0]');
    expect(findings[0].fix).toMatch(/^keep it only if the agent must label, taint, cordon or remove nodes, and acknowledge the finding with that reason/);
  });

  test('Noncompliance 2: update, * verbs, and changes limited to named nodes (medium)', () => {
    const severity = (r: any) => findingsOf(rule, boundCluster([r])).map((f) => f.severity);
    expect(severity({ apiGroups: [''], resources: ['nodes'], verbs: ['update'] })).toEqual([Severity.HIGH]);
    expect(severity({ apiGroups: [''], resources: ['nodes', 'nodes/status'], verbs: ['*'] })).toEqual([Severity.HIGH]);
    expect(severity({ apiGroups: [''], resources: ['*'], verbs: ['patch'] })).toEqual([Severity.HIGH]);
    const named = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['nodes'], resourceNames: ['node-1'], verbs: ['patch'] }]));
    expect(named.map((f) => f.severity)).toEqual([Severity.MEDIUM]);
    expect(named[0].message).toContain('can change the labels and taints of the nodes named "node-1" (patch on nodes, limited by resourceNames)');
  });

  test('Noncompliance 3: delete alone is medium, and says what deleting a Node does', () => {
    const findings = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['nodes'], verbs: ['delete', 'deletecollection'] }]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.MEDIUM]);
    expect(findings[0].message).toContain('can delete every node (delete, deletecollection on nodes): the pods bound to a deleted Node are deleted, ' +
      'and the node takes no new pods until its kubelet registers it again');
  });

  test('Compliance: reading nodes; nodes/status alone (CNI plugins, node-problem-detector); another API group; a RoleBinding (nodes are cluster-scoped)', () => {
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] }]))).toEqual([]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['nodes/status'], verbs: ['patch', 'update'] }]))).toEqual([]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: ['cilium.io'], resources: ['ciliumnodes'], verbs: ['patch'] }]))).toEqual([]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: ['metrics.k8s.io'], resources: ['nodes'], verbs: ['patch'] }]))).toEqual([]);
    expect(findingsOf(rule, boundInNamespace('observability', [{ apiGroups: [''], resources: ['nodes'], verbs: ['patch'] }]))).toEqual([]);
  });
});
