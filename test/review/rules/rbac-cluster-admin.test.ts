import { RbacClusterAdminRule, Severity } from '../../../src/review';
import { agent, binding, boundCluster, findingsOf, rbac, rbacFindings, rulesAndSeverities, saSubject } from '../util';

const rule = new RbacClusterAdminRule();

describe('NA-RBAC-CLUSTER-ADMIN: no role that grants everything is bound', () => {
  test('Noncompliance 1: * on * in every group is one critical finding, not one per right it includes', () => {
    const findings = rbacFindings(boundCluster([
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
    ]));
    expect(rulesAndSeverities(findings)).toEqual(['NA-RBAC-CLUSTER-ADMIN:critical']);
    expect(findings[0].message).toBe('DaemonSet observability/node-agent: ServiceAccount observability/node-agent holds every verb on every resource ' +
      'of every API group (* on *): control of the cluster: ClusterRoleBinding node-agent binds it to ClusterRole node-agent, rules[0] ' +
      '(spec.template.spec.serviceAccountName)');
  });

  test('Noncompliance 2: the built-in cluster-admin, which is not among the manifests, is judged by its rules', () => {
    const findings = rbacFindings([agent(), binding('ClusterRoleBinding', 'oops', { kind: 'ClusterRole', name: 'cluster-admin' }, [saSubject()])]);
    expect(rulesAndSeverities(findings)).toEqual(['NA-RBAC-CLUSTER-ADMIN:critical']);
    expect(findings[0].message).toContain('ClusterRoleBinding oops binds it to built-in ClusterRole cluster-admin (as Kubernetes 1.37 defines it), rules[0]');
  });

  test('Noncompliance 3: * on * in the core group includes impersonating any group: control of the cluster', () => {
    const findings = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['*'], verbs: ['*'] }]));
    expect(findings).toHaveLength(1);
    expect(findings[0].severity).toBe(Severity.CRITICAL);
    expect(findings[0].message).toContain('holds every verb on every resource of the core API group (* on *): every Secret, exec into every pod, ' +
      'every kubelet (nodes/proxy), and acting as any user or group (impersonate), system:masters included: control of the cluster');
  });

  test('Noncompliance 4: bound in a namespace it is every right there: critical, high where the manifests enforce Pod Security baseline', () => {
    const inNs = (extra: any[] = []) => [
      agent(),
      binding('RoleBinding', 'admin-here', { kind: 'ClusterRole', name: 'cluster-admin' }, [saSubject()], 'tenant'),
      ...extra,
    ];
    const open = findingsOf(rule, inNs());
    expect(open.map((f) => [f.severity, f.message])).toEqual([[Severity.CRITICAL, expect.stringContaining(
      'holds every verb on every resource of every API group in namespace tenant (* on *): its Secrets, its pods and workloads, its Roles and ' +
      'RoleBindings, and its Services and their endpoints, whose externalIPs and load-balancer status intercept traffic from every pod of ' +
      'the cluster (CVE-2020-8554): RoleBinding admin-here in namespace tenant binds it to built-in ClusterRole cluster-admin')]]);
    const restricted = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tenant', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } };
    const enforced = findingsOf(rule, inNs([restricted]));
    expect(enforced.map((f) => f.severity)).toEqual([Severity.HIGH]);
    expect(enforced[0].message).toContain('; its Namespace in these manifests enforces Pod Security baseline, so pods there take no host access');
  });

  test('Noncompliance 5: through a group that includes the ServiceAccount: system:authenticated, system:serviceaccounts', () => {
    for (const group of ['system:authenticated', 'system:serviceaccounts', 'system:serviceaccounts:observability']) {
      const findings = findingsOf(rule, [agent(), binding('ClusterRoleBinding', 'everyone', { kind: 'ClusterRole', name: 'cluster-admin' }, [{ kind: 'Group', name: group }])]);
      expect(findings.map((f) => f.message)).toEqual([expect.stringContaining(`ClusterRoleBinding everyone binds it, as Group ${group} (`)]);
    }
    const user = findingsOf(rule, [agent(), binding('ClusterRoleBinding', 'by-name', { kind: 'ClusterRole', name: 'cluster-admin' },
      [{ kind: 'User', name: 'system:serviceaccount:observability:node-agent' }])]);
    expect(user.map((f) => f.message)).toEqual([expect.stringContaining('binds it, as User system:serviceaccount:observability:node-agent, to')]);
  });

  test('Compliance: the group of another namespace, another ServiceAccount, * verbs on named resources', () => {
    const others = [
      agent(),
      binding('ClusterRoleBinding', 'other-sa', { kind: 'ClusterRole', name: 'cluster-admin' }, [saSubject('other')]),
      binding('ClusterRoleBinding', 'other-ns', { kind: 'ClusterRole', name: 'cluster-admin' }, [saSubject('node-agent', 'elsewhere')]),
      binding('ClusterRoleBinding', 'group-other-ns', { kind: 'ClusterRole', name: 'cluster-admin' }, [{ kind: 'Group', name: 'system:serviceaccounts:elsewhere' }]),
      rbac('ClusterRole', 'wide', [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list'] }]),
    ];
    expect(findingsOf(rule, others)).toEqual([]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: ['*'], resources: ['pods'], verbs: ['*'] }]))).toEqual([]);
  });
});
