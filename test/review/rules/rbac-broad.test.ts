import { RbacBroadRule, Severity } from '../../../src/review';
import { agent, binding, findingsOf, rbac, saSubject } from '../util';

const rule = new RbacBroadRule();
const READ_PODS = { apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] };

function bound(rules: any[]): any[] {
  return [
    agent(),
    rbac('ClusterRole', 'node-agent', rules),
    binding('ClusterRoleBinding', 'node-agent', { kind: 'ClusterRole', name: 'node-agent' }, [saSubject()]),
  ];
}

describe('NA-RBAC-BROAD: RBAC bound to the workload\'s ServiceAccount is minimal', () => {
  test('Noncompliance 1: wildcard verbs', () => {
    const findings = findingsOf(rule, bound([READ_PODS, { apiGroups: [''], resources: ['pods'], verbs: ['*'] }]));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.HIGH, field: 'spec.template.spec.serviceAccountName' });
    expect(findings[0].message).toContain('ServiceAccount observability/node-agent is bound (as ServiceAccount observability/node-agent) ' +
      'by ClusterRoleBinding node-agent to ClusterRole node-agent, whose rules[1] (verbs * on pods) grants every verb ("*")');
  });

  test('Noncompliance 2: wildcard resources', () => {
    const findings = findingsOf(rule, bound([{ apiGroups: ['*'], resources: ['*'], verbs: ['get'] }]));
    expect(findings.map((f) => f.message)).toEqual([expect.stringContaining('grants every resource ("*"), Secrets included')]);
  });

  test('Noncompliance 3: secrets access, even read-only', () => {
    const findings = findingsOf(rule, bound([{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }]));
    expect(findings.map((f) => f.message)).toEqual([expect.stringContaining('grants access to secrets (get, list)')]);
  });

  test('Noncompliance 4: escalate, bind and impersonate', () => {
    const findings = findingsOf(rule, bound([{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind', 'escalate'] }, { apiGroups: [''], resources: ['users'], verbs: ['impersonate'] }]));
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringContaining('rules[0] (verbs bind, escalate on clusterroles) grants the bind, escalate verbs'),
      expect.stringContaining('rules[1] (verbs impersonate on users) grants the impersonate verb'),
    ]);
  });

  test('Noncompliance 5: nodes/proxy', () => {
    const findings = findingsOf(rule, bound([{ apiGroups: [''], resources: ['nodes', 'nodes/proxy'], verbs: ['get'] }]));
    expect(findings.map((f) => f.message)).toEqual([expect.stringContaining('nodes/proxy (the kubelet API: commands in any pod on the node)')]);
  });

  test('Noncompliance 6: a RoleBinding to a namespaced Role, and a binding through the system:serviceaccounts group', () => {
    const manifests = [
      agent(),
      rbac('Role', 'secrets-reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['watch'] }], 'observability'),
      binding('RoleBinding', 'agent-secrets', { kind: 'Role', name: 'secrets-reader' }, [{ kind: 'ServiceAccount', name: 'node-agent' }], 'observability'),
      binding('ClusterRoleBinding', 'all-sa', { kind: 'ClusterRole', name: 'secrets-reader-all' }, [{ kind: 'Group', name: 'system:serviceaccounts' }]),
      rbac('ClusterRole', 'secrets-reader-all', [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]),
    ];
    expect(findingsOf(rule, manifests).map((f) => f.message)).toEqual([
      expect.stringContaining('bound (as Group system:serviceaccounts) by ClusterRoleBinding all-sa to ClusterRole secrets-reader-all'),
      expect.stringContaining('bound (as ServiceAccount observability/node-agent) by RoleBinding agent-secrets to Role secrets-reader'),
    ]);
  });

  test('Noncompliance 7: a binding to the built-in cluster-admin, which is not among the manifests', () => {
    const manifests = [agent(), binding('ClusterRoleBinding', 'oops', { kind: 'ClusterRole', name: 'cluster-admin' }, [saSubject()])];
    expect(findingsOf(rule, manifests).map((f) => f.message)).toEqual([
      expect.stringContaining('to ClusterRole cluster-admin, the built-in role that grants every verb on every resource'),
    ]);
  });

  test('Compliance: read-only access to pods and namespaces, and bindings for other ServiceAccounts or namespaces', () => {
    expect(findingsOf(rule, bound([READ_PODS]))).toEqual([]);
    const others = [
      agent(),
      rbac('ClusterRole', 'admin-ish', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]),
      binding('ClusterRoleBinding', 'other-sa', { kind: 'ClusterRole', name: 'admin-ish' }, [saSubject('other')]),
      binding('ClusterRoleBinding', 'other-ns', { kind: 'ClusterRole', name: 'admin-ish' }, [saSubject('node-agent', 'elsewhere')]),
      binding('RoleBinding', 'in-other-ns', { kind: 'ClusterRole', name: 'admin-ish' }, [saSubject()], 'elsewhere'),
      binding('ClusterRoleBinding', 'group-other-ns', { kind: 'ClusterRole', name: 'admin-ish' }, [{ kind: 'Group', name: 'system:serviceaccounts:elsewhere' }]),
    ];
    expect(findingsOf(rule, others)).toEqual([]);
  });
});
