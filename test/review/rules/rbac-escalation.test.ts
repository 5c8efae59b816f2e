import { RbacEscalationRule, Severity } from '../../../src/review';
import { boundCluster, boundInNamespace, findingsOf } from '../util';

const rule = new RbacEscalationRule();
const RBAC = 'rbac.authorization.k8s.io';

describe('NA-RBAC-ESCALATION: the ServiceAccount cannot escalate, bind or impersonate', () => {
  test('Noncompliance 1: escalate with update on ClusterRoles is critical; escalate alone takes no effect: medium', () => {
    const paired = findingsOf(rule, boundCluster([{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['escalate', 'update'] }]));
    expect(paired.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(paired[0].message).toContain('can give any ClusterRole rights it does not hold cluster-wide (escalate on clusterroles): it grants itself any right');
    const alone = findingsOf(rule, boundCluster([{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['escalate'] }]));
    expect(alone.map((f) => f.severity)).toEqual([Severity.MEDIUM]);
    expect(alone[0].message).toContain('; it takes effect with create or update on clusterroles, which no binding in these manifests grants it');
  });

  test('Noncompliance 2: bind on ClusterRoles with create on bindings (Longhorn\'s * on RBAC) is critical; limited by resourceNames high', () => {
    const findings = findingsOf(rule, boundCluster([{ apiGroups: [RBAC], resources: ['clusterroles', 'clusterrolebindings'], verbs: ['*'] }]));
    expect(findings.map((f) => [f.severity, f.message.match(/can (give|bind) [^(]*/)![0]])).toEqual([
      [Severity.CRITICAL, 'can bind any ClusterRole, cluster-admin included, to anyone cluster-wide '],
      [Severity.CRITICAL, 'can give any ClusterRole rights it does not hold cluster-wide '],
    ]);
    const named = findingsOf(rule, boundCluster([
      { apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['view'], verbs: ['bind'] },
      { apiGroups: [RBAC], resources: ['clusterrolebindings'], verbs: ['create'] },
    ]));
    expect(named.map((f) => [f.severity, f.message])).toEqual([[Severity.HIGH, expect.stringContaining('can bind the roles named "view" to anyone cluster-wide')]]);
  });

  test('Noncompliance 3: impersonating users or groups is critical, one finding; as the group system:masters too; other named identities high', () => {
    const all = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['users', 'groups', 'serviceaccounts'], verbs: ['impersonate'] }]));
    expect(all.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(all[0].message).toContain('can act as any user, any group, system:masters included, any ServiceAccount cluster-wide (impersonate on users; ' +
      'impersonate on groups; impersonate on serviceaccounts): it holds their rights');
    const masters = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['groups'], resourceNames: ['system:masters'], verbs: ['impersonate'] }]));
    expect(masters.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    const someone = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['users'], resourceNames: ['jane'], verbs: ['impersonate'] }]));
    expect(someone.map((f) => [f.severity, f.message])).toEqual([[Severity.HIGH, expect.stringContaining('can act as the users named "jane" cluster-wide')]]);
  });

  test('Noncompliance 4: in a namespace: impersonating its ServiceAccounts is high (kube-system critical); bind with create on RoleBindings is critical', () => {
    expect(findingsOf(rule, boundInNamespace('longhorn-system', [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }]))
      .map((f) => f.severity)).toEqual([Severity.HIGH]);
    expect(findingsOf(rule, boundInNamespace('kube-system', [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }]))
      .map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    const bind = findingsOf(rule, boundInNamespace('tenant', [{ apiGroups: [RBAC], resources: ['clusterroles', 'rolebindings'], verbs: ['bind', 'create'] }]));
    expect(bind.map((f) => [f.severity, f.message])).toEqual([[Severity.CRITICAL, expect.stringContaining('can bind any ClusterRole, cluster-admin ' +
      'included, to anyone in namespace tenant (bind on clusterroles): it grants itself any right in namespace tenant')]]);
  });

  test('Compliance: a RoleBinding grants nothing on cluster-scoped users, groups or ClusterRole escalation; create on bindings alone', () => {
    expect(findingsOf(rule, boundInNamespace('tenant', [
      { apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'] },
      { apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['escalate', 'update'] },
    ]))).toEqual([]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: [RBAC], resources: ['rolebindings', 'clusterrolebindings'], verbs: ['create', 'bind'] }]))).toEqual([]);
  });
});
