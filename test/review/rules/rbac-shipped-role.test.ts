import { RbacShippedRoleRule, Severity } from '../../../src/review';
import { agent, binding, boundCluster, findingsOf, rbac, saSubject } from '../util';

const rule = new RbacShippedRoleRule();
const NODE_PROXY = { apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] };
const clusterRef = (name: string) => ({ kind: 'ClusterRole', name });

describe('NA-RBAC-SHIPPED-ROLE: the manifests ship no dangerous role that none of their workloads holds', () => {
  test('Noncompliance 1: a ClusterRole bound to another ServiceAccount is reported with its rights and whom it is bound to, never as the workload\'s', () => {
    const findings = findingsOf(rule, [
      agent(),
      rbac('ClusterRole', 'scraper', [NODE_PROXY]),
      binding('ClusterRoleBinding', 'scraper', clusterRef('scraper'), [saSubject('prometheus', 'monitoring')]),
    ]);
    expect(findings.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findings[0].message).toContain('these manifests ship ClusterRole scraper, which gives whoever it is bound to these rights: can reach ' +
      'the kubelet API of every node (get on nodes/proxy)');
    expect(findings[0].message).toContain('[NA-RBAC-NODE-PROXY]; these manifests bind it with ClusterRoleBinding scraper to ServiceAccount ' +
      'monitoring/prometheus, none of them a ServiceAccount a workload here runs as. It is not this workload\'s right');
    expect(findings[0].message).not.toContain('ServiceAccount observability/node-agent');
  });

  test('Noncompliance 2: a role bound by nothing is one step lower, judged where a binding would grant it; a Role in its namespace', () => {
    const unbound = findingsOf(rule, [agent(), rbac('ClusterRole', 'spare', [NODE_PROXY])]);
    expect(unbound.map((f) => f.severity)).toEqual([Severity.HIGH]);
    expect(unbound[0].message).toContain('no binding among these manifests binds it: it grants this to whatever binding the cluster has or gets ' +
      '(as a ClusterRoleBinding would, judged cluster-wide)');
    const role = findingsOf(rule, [agent(), rbac('Role', 'reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }], 'kube-system')]);
    expect(role.map((f) => f.severity)).toEqual([Severity.HIGH]);
    expect(role[0].message).toContain('ship Role reader in namespace kube-system, which gives whoever it is bound to these rights: can read every ' +
      'Secret in namespace kube-system');
  });

  test('Noncompliance 3: the traffic rights too, and a ClusterRole aggregated into a built-in role says whoever holds that gets it', () => {
    const findings = findingsOf(rule, [
      agent(),
      { ...rbac('ClusterRole', 'lb-edit', [{ apiGroups: [''], resources: ['services/status'], verbs: ['update'] }]), metadata: { name: 'lb-edit', labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } } },
    ]);
    expect(findings.map((f) => f.severity)).toEqual([Severity.HIGH]);
    expect(findings[0].message).toContain('[NA-RBAC-TRAFFIC]');
    expect(findings[0].message).toContain('built-in ClusterRole edit aggregates it: whoever holds that role gets it too');
  });

  test('Noncompliance 4: reported on the workloads of the namespace it is bound into, on every workload when none is there', () => {
    const twoWorkloads = (subjectNamespace: string) => [
      agent({}, { name: 'agent-a', namespace: 'team-a' }),
      agent({}, { name: 'agent-b', namespace: 'team-b' }),
      rbac('ClusterRole', 'scraper', [NODE_PROXY]),
      binding('ClusterRoleBinding', 'scraper', clusterRef('scraper'), [saSubject('prometheus', subjectNamespace)]),
    ];
    const carriers = (manifests: any[]) => findingsOf(rule, manifests).map((f) => f.name).sort();
    expect(carriers(twoWorkloads('team-b'))).toEqual(['agent-b']);
    expect(carriers(twoWorkloads('monitoring'))).toEqual(['agent-a', 'agent-b']);
  });

  test('Compliance: a role a workload holds (directly, through a group, or aggregated into a role it holds) is its own findings\' business', () => {
    expect(findingsOf(rule, boundCluster([NODE_PROXY]))).toEqual([]);
    expect(findingsOf(rule, [
      agent(),
      rbac('ClusterRole', 'all-agents', [NODE_PROXY]),
      binding('ClusterRoleBinding', 'all-agents', clusterRef('all-agents'), [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:serviceaccounts:observability' }]),
    ])).toEqual([]);
    expect(findingsOf(rule, [
      agent(),
      { ...rbac('ClusterRole', 'part', [NODE_PROXY]), metadata: { name: 'part', labels: { 'example.com/agg': 'true' } } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'whole' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/agg': 'true' } }] } },
      binding('ClusterRoleBinding', 'whole', clusterRef('whole'), [saSubject()]),
    ])).toEqual([]);
  });

  test('Compliance: a shipped role with no right the RBAC rules report', () => {
    expect(findingsOf(rule, [agent(), rbac('ClusterRole', 'reader', [{ apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }])])).toEqual([]);
  });
});
