import { RbacNodeProxyRule, Severity } from '../../../src/review';
import { boundCluster, boundInNamespace, findingsOf } from '../util';

const rule = new RbacNodeProxyRule();

describe('NA-RBAC-NODE-PROXY: the ServiceAccount cannot reach the kubelet API through nodes/proxy', () => {
  test('Noncompliance 1: get on nodes/proxy is critical (exec over WebSocket), with the fine-grained subresources as the fix', () => {
    const findings = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['nodes', 'nodes/proxy'], verbs: ['get'] }]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findings[0].message).toContain('can reach the kubelet API of every node (get on nodes/proxy): its /exec, /run and /attach endpoints run ' +
      'commands in any container there (get suffices, over WebSocket): ClusterRoleBinding node-agent binds it to ClusterRole node-agent, rules[0]');
    expect(findings[0].fix).toBe('grant only the kubelet endpoints the agent reads: nodes/metrics, nodes/stats, nodes/log and, from Kubernetes 1.33, ' +
      'nodes/pods, nodes/healthz and nodes/configz (fine-grained kubelet authorization)');
  });

  test('Noncompliance 2: create, */proxy and * reach it; named nodes are high', () => {
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['create'] }])).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['*/proxy'], verbs: ['get'] }])).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: ['*'], resources: ['*'], verbs: ['get'] }])).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['nodes/proxy'], resourceNames: ['node-1'], verbs: ['get'] }])).map((f) => f.severity))
      .toEqual([Severity.HIGH]);
  });

  test('Compliance: nodes/* is no RBAC wildcard; the fine-grained subresources; a RoleBinding (nodes are cluster-scoped); verbs the kubelet maps to nothing', () => {
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['nodes/*'], verbs: ['get'] }]))).toEqual([]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['nodes/metrics', 'nodes/stats', 'nodes/log', 'nodes/pods', 'nodes/healthz'], verbs: ['get'] }]))).toEqual([]);
    expect(findingsOf(rule, boundInNamespace('observability', [{ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }]))).toEqual([]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['list', 'watch'] }]))).toEqual([]);
  });
});
