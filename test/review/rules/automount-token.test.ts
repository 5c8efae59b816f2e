import { AutomountTokenRule, Severity } from '../../../src/review';
import { agent, binding, findingsOf, rbac, saSubject } from '../util';

const rule = new AutomountTokenRule();
const SA = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'node-agent', namespace: 'observability' } };

describe('NA-AUTOMOUNT-TOKEN: No API token is mounted for a ServiceAccount without RBAC', () => {
  test('Noncompliance 1: automount left to the default, no binding', () => {
    const findings = findingsOf(rule, [agent({ automountServiceAccountToken: undefined }), SA]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.LOW, field: 'spec.template.spec.automountServiceAccountToken' });
    expect(findings[0].message).toContain('mounts an API token for ServiceAccount observability/node-agent (neither the pod nor its ServiceAccount ' +
      'sets automountServiceAccountToken: false), but no RoleBinding or ClusterRoleBinding in the manifests grants it anything');
  });

  test('Noncompliance 2: automount true on the pod overrides the ServiceAccount; the default ServiceAccount not among the manifests', () => {
    const sa = { ...SA, automountServiceAccountToken: false };
    expect(findingsOf(rule, [agent({ automountServiceAccountToken: true }), sa]).map((f) => f.message)).toEqual([
      expect.stringContaining('(the pod sets automountServiceAccountToken: true)'),
    ]);
    expect(findingsOf(rule, [agent({ automountServiceAccountToken: undefined, serviceAccountName: undefined })]).map((f) => f.message)).toEqual([
      expect.stringContaining('ServiceAccount observability/default (the pod does not set automountServiceAccountToken: false)'),
    ]);
  });

  test('Noncompliance 3: kube-proxy (as the Kubernetes addon runs it, through sh -c) needs its token: the fix does not turn it off', () => {
    // k8s.io/kubernetes cluster/addons/kube-proxy/kube-proxy-ds.yaml: command /bin/sh -c "kube-proxy ... 1>>/var/log/kube-proxy.log"
    const c = { name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.34.1', command: ['/bin/sh', '-c', 'kube-proxy --oom-score-adj=-998 1>>/var/log/kube-proxy.log 2>&1'] };
    const [finding] = findingsOf(rule, [agent({ automountServiceAccountToken: undefined, containers: [c] }), SA]);
    expect(finding.message).toContain('container "kube-proxy" runs kube-proxy, which calls the API with that token');
    expect(finding.fix).toMatch(/^keep the token: kube-proxy watches the API with it/);
    expect(finding.fix).not.toContain('automountServiceAccountToken: false');
    // any other agent: turning the token off is offered only for an agent that never calls the API
    const [other] = findingsOf(rule, [agent({ automountServiceAccountToken: undefined }), SA]);
    expect(other.fix).toMatch(/^if the agent never calls the API, set automountServiceAccountToken: false/);
  });

  test('Compliance: false on the pod or on the ServiceAccount; or the ServiceAccount is bound', () => {
    expect(findingsOf(rule, [agent()])).toEqual([]);
    expect(findingsOf(rule, [agent({ automountServiceAccountToken: undefined }), { ...SA, automountServiceAccountToken: false }])).toEqual([]);
    const bound = [
      agent({ automountServiceAccountToken: undefined }),
      rbac('ClusterRole', 'read-pods', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]),
      binding('ClusterRoleBinding', 'node-agent', { kind: 'ClusterRole', name: 'read-pods' }, [saSubject()]),
    ];
    expect(findingsOf(rule, bound)).toEqual([]);
  });
});
