import { RbacExecRule, Severity } from '../../../src/review';
import { boundCluster, boundInNamespace, findingsOf } from '../util';

const rule = new RbacExecRule();
const WEBSOCKET = 'get suffices over WebSocket before Kubernetes 1.35, and on 1.35+ while the AuthorizePodWebsocketUpgradeCreatePermission feature gate is off';

describe('NA-RBAC-EXEC: the ServiceAccount cannot exec into pods', () => {
  test('Noncompliance 1: create on pods/exec and pods/attach cluster-wide is critical', () => {
    const findings = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['pods/exec', 'pods/attach'], verbs: ['create'] }]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findings[0].message).toContain('can run commands in every pod cluster-wide (create on pods/exec; create on pods/attach): with each pod\'s ' +
      'ServiceAccount token and host access, root on the node for a privileged agent\'s pod: ClusterRoleBinding node-agent binds it');
    expect(findings[0].message).not.toContain('WebSocket');
  });

  test('Noncompliance 2: get alone is exec over WebSocket (KEP-4006): critical, and the message says when it applies', () => {
    const findings = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['pods/attach'], verbs: ['get'] }]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findings[0].message).toContain(`(get on pods/attach): with each pod's ServiceAccount token and host access, root on the node for a privileged agent's pod; ${WEBSOCKET}`);
  });

  test('Noncompliance 3: in a namespace: critical; high where a Namespace among the manifests enforces baseline, or when limited to named pods', () => {
    const exec = { apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] };
    expect(findingsOf(rule, boundInNamespace('observability', [exec])).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } };
    const enforced = findingsOf(rule, boundInNamespace('apps', [exec], [ns]));
    expect(enforced.map((f) => f.severity)).toEqual([Severity.HIGH]);
    expect(enforced[0].message).toContain('its Namespace in these manifests enforces Pod Security restricted, so pods there take no host access');
    const named = findingsOf(rule, boundInNamespace('observability', [{ ...exec, resourceNames: ['debug-pod'] }]));
    expect(named.map((f) => [f.severity, f.message])).toEqual([[Severity.HIGH, expect.stringContaining('can run commands in the pods named "debug-pod"')]]);
  });

  test('Noncompliance 4: * and */exec reach pods/exec; pods/portforward alone is high', () => {
    const star = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['*'], verbs: ['create'] }]));
    expect(star.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    // the fix names what to change in this manifest: the *, not a pods/exec it does not write
    expect(star[0].fix).toBe('replace * in the rule\'s resources with the resources the agent uses; then: remove pods/exec, pods/attach and ' +
      'pods/portforward: a node agent acts on its own node through its own process, never through other pods');
    expect(findingsOf(rule, boundCluster([{ apiGroups: ['*'], resources: ['*/exec'], verbs: ['create'] }])).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    const pf = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['pods/portforward'], verbs: ['create'] }]));
    expect(pf.map((f) => [f.severity, f.message])).toEqual([[Severity.HIGH, expect.stringContaining('can forward ports of every pod cluster-wide')]]);
  });

  test('Compliance: pods/* is no RBAC wildcard; get on pods and pods/log', () => {
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['pods/*'], verbs: ['create', 'get'] }]))).toEqual([]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch'] }]))).toEqual([]);
  });
});
