import { RbacAdmissionRule, Severity } from '../../../src/review';
import { boundCluster, boundInNamespace, findingsOf } from '../util';

const rule = new RbacAdmissionRule();
const GROUP = 'admissionregistration.k8s.io';

describe('NA-RBAC-ADMISSION: the ServiceAccount cannot write admission webhooks or policies', () => {
  test('Noncompliance 1: create or patch on webhook configurations (Longhorn) is critical', () => {
    const findings = findingsOf(rule, boundCluster([{ apiGroups: [GROUP], resources: ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], verbs: ['get', 'create', 'patch', 'delete'] }]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findings[0].message).toContain('can register, rewrite or delete admission webhooks (create, patch, delete on mutatingwebhookconfigurations; ' +
      'create, patch, delete on validatingwebhookconfigurations): a webhook receives every object it registers for, Secrets included, and a ' +
      'mutating one rewrites pods as they are created');
  });

  test('Noncompliance 2: limited by resourceNames to its own configuration (MetalLB) it is high; create cannot be limited by name', () => {
    const findings = findingsOf(rule, boundCluster([{ apiGroups: [GROUP], resources: ['validatingwebhookconfigurations'], resourceNames: ['metallb-webhook-configuration'], verbs: ['create', 'update', 'delete'] }]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.HIGH]);
    expect(findings[0].message).toContain('can rewrite or delete the admission configurations named "metallb-webhook-configuration" (update, delete on ' +
      'validatingwebhookconfigurations, limited by resourceNames): which objects the API server sends them and where, and the checks they enforce');
  });

  test('Noncompliance 3: delete alone and validating admission policies are high', () => {
    expect(findingsOf(rule, boundCluster([{ apiGroups: [GROUP], resources: ['validatingwebhookconfigurations'], verbs: ['delete'] }])).map((f) => [f.severity, f.message]))
      .toEqual([[Severity.HIGH, expect.stringContaining('can delete admission webhooks (delete on validatingwebhookconfigurations): the checks they enforce stop')]]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: [GROUP], resources: ['validatingadmissionpolicies'], verbs: ['create'] }])).map((f) => f.severity))
      .toEqual([Severity.HIGH]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: [GROUP], resources: ['mutatingadmissionpolicies'], verbs: ['create'] }])).map((f) => f.severity))
      .toEqual([Severity.CRITICAL]);
  });

  test('Compliance: reading them; a RoleBinding (they are cluster-scoped)', () => {
    expect(findingsOf(rule, boundCluster([{ apiGroups: [GROUP], resources: ['validatingwebhookconfigurations'], verbs: ['get', 'list', 'watch'] }]))).toEqual([]);
    expect(findingsOf(rule, boundInNamespace('observability', [{ apiGroups: [GROUP], resources: ['validatingwebhookconfigurations'], verbs: ['create'] }]))).toEqual([]);
  });
});
