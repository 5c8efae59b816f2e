import { RbacTrafficRule, Severity } from '../../../src/review';
import { boundCluster, boundInNamespace, findingsOf } from '../util';

const rule = new RbacTrafficRule();

describe('NA-RBAC-TRAFFIC: the ServiceAccount cannot redirect Service traffic', () => {
  test('Noncompliance 1: update on services/status (what kube-router, MetalLB\'s controller and cilium-operator hold) is high: CVE-2020-8554', () => {
    const findings = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['services', 'services/status'], verbs: ['get', 'update'] }]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.HIGH, Severity.HIGH]);
    const [status, services] = [findings.find((f) => f.message.includes('services/status'))!, findings.find((f) => !f.message.includes('services/status'))!];
    expect(services.message).toContain('can set a Service\'s externalIPs, and so intercept the traffic every pod of the cluster sends to those ' +
      'addresses, any external address included (CVE-2020-8554, from any namespace), and can point existing Services at other pods by changing ' +
      'their selectors (update on services in every namespace): ClusterRoleBinding node-agent binds it to ClusterRole node-agent, rules[0]');
    expect(status.message).toContain('status.loadBalancer.ingress addresses, which kube-proxy then routes to that Service\'s pods');
    expect(status.message).toContain('(update on services/status in every namespace)');
    expect(findings[0].fix).toContain('DenyServiceExternalIPs admission plugin');
  });

  test('Noncompliance 2: a Role in any namespace still intercepts every pod\'s traffic through externalIPs (high)', () => {
    const findings = findingsOf(rule, boundInNamespace('observability', [{ apiGroups: [''], resources: ['services'], verbs: ['create'] }]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.HIGH]);
    expect(findings[0].message).toContain('(create on services in namespace observability)');
  });

  test('Noncompliance 3: endpoints and endpointslices: high cluster-wide and in default (default/kubernetes), medium elsewhere', () => {
    const endpoints = [{ apiGroups: [''], resources: ['endpoints'], verbs: ['patch'] }, { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['create'] }];
    const cluster = findingsOf(rule, boundCluster(endpoints));
    expect(cluster.map((f) => f.severity)).toEqual([Severity.HIGH, Severity.HIGH]);
    expect(cluster[0].message).toContain('the API server\'s own default/kubernetes included');
    expect(cluster[0].message).toContain('CVE-2021-25740');
    expect(findingsOf(rule, boundInNamespace('default', endpoints)).map((f) => f.severity)).toEqual([Severity.HIGH, Severity.HIGH]);
    const elsewhere = findingsOf(rule, boundInNamespace('observability', endpoints));
    expect(elsewhere.map((f) => f.severity)).toEqual([Severity.MEDIUM, Severity.MEDIUM]);
    expect(elsewhere[0].message).not.toContain('default/kubernetes');
  });

  test('Noncompliance 4: * verbs or resources of the core group, and writes limited to named Services (medium)', () => {
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['*'], verbs: ['patch'] }])).map((f) => f.severity))
      .toEqual([Severity.HIGH, Severity.HIGH, Severity.HIGH]);
    const named = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['services'], resourceNames: ['my-lb'], verbs: ['patch'] }]));
    expect(named.map((f) => f.severity)).toEqual([Severity.MEDIUM]);
    expect(named[0].message).toContain('for the objects named "my-lb" can set');
    expect(named[0].message).toContain('limited by resourceNames');
  });

  test('Compliance: reading Services and Endpoints (kube-proxy); another API group; delete alone', () => {
    expect(findingsOf(rule, boundCluster([{ apiGroups: ['', 'discovery.k8s.io'], resources: ['services', 'endpoints', 'endpointslices'], verbs: ['get', 'list', 'watch'] }]))).toEqual([]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: ['networking.k8s.io'], resources: ['services'], verbs: ['patch'] }]))).toEqual([]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['services', 'endpoints'], verbs: ['delete'] }]))).toEqual([]);
  });
});
