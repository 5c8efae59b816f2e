// A workload that sets no namespace, whose ServiceAccount the manifests' bindings name in one namespace (common in
// upstream examples: the DaemonSet leaves its namespace to kubectl, the ClusterRoleBinding names kube-system): its
// rights are judged as applied there, at their severity, and each finding says so.
import { agent, binding, rbac, rbacFindings, saSubject } from './util';
import { Severity } from '../../src/review';

const PATCH_DAEMONSETS = { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get', 'patch'] };

function unnamespaced(...subjects: any[]): any[] {
  return [
    agent({ automountServiceAccountToken: true }, { namespace: null }),
    rbac('ClusterRole', 'node-agent', [PATCH_DAEMONSETS]),
    binding('ClusterRoleBinding', 'node-agent', { kind: 'ClusterRole', name: 'node-agent' }, subjects),
  ];
}

describe('RBAC of a workload without a namespace', () => {
  test('the binding names its ServiceAccount in one namespace: the rights are reported there, conditionally, at their severity', () => {
    const findings = rbacFindings(unnamespaced(saSubject('node-agent', 'kube-system')));
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['NA-RBAC-WORKLOADS', Severity.CRITICAL]]);
    expect(findings[0].message).toContain('if applied in namespace kube-system, as the bindings of its ServiceAccount expect, ServiceAccount');
    expect(findings[0].message).toContain('patch on daemonsets');
  });

  test('bindings that name it in two namespaces: no guess, nothing reported (the namespace rule says the bindings could not be matched)', () => {
    expect(rbacFindings(unnamespaced(saSubject('node-agent', 'kube-system'), saSubject('node-agent', 'monitoring')))).toEqual([]);
  });

  test('a workload with its namespace is judged there, without the condition', () => {
    const manifests = unnamespaced(saSubject('node-agent', 'observability'));
    manifests[0] = agent({ automountServiceAccountToken: true });
    const findings = rbacFindings(manifests);
    expect(findings.map((f) => f.rule)).toEqual(['NA-RBAC-WORKLOADS']);
    expect(findings[0].message).not.toContain('if applied in namespace');
  });
});
