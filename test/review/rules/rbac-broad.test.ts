import { RbacBroadRule, Severity } from '../../../src/review';
import { boundCluster, boundInNamespace, findingsOf, rbacFindings, rulesAndSeverities } from '../util';

const rule = new RbacBroadRule();
const READ_PODS = { apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] };
const NAD_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'network-attachment-definitions.k8s.cni.cncf.io' },
  spec: { group: 'k8s.cni.cncf.io', names: { plural: 'network-attachment-definitions', kind: 'NetworkAttachmentDefinition' }, scope: 'Namespaced', versions: [] },
};

describe('NA-RBAC-BROAD: RBAC names its verbs and resources', () => {
  test('Noncompliance 1: * on * in a named API group (Multus) grants that group\'s resources, never Secrets: one medium finding', () => {
    const manifests = boundCluster([{ apiGroups: ['k8s.cni.cncf.io'], resources: ['*'], verbs: ['*'] }], [NAD_CRD]);
    const findings = rbacFindings(manifests);
    expect(rulesAndSeverities(findings)).toEqual(['NA-RBAC-BROAD:medium']);
    expect(findings[0].message).toBe('DaemonSet observability/node-agent: ServiceAccount observability/node-agent has every verb (*) on every resource ' +
      'of API group k8s.cni.cncf.io cluster-wide: those it serves now (among these manifests: network-attachment-definitions) and any it adds ' +
      'later; no resource of another group (Secrets, pods and RBAC are not in it): ClusterRoleBinding node-agent binds it to ClusterRole ' +
      'node-agent, rules[0] (spec.template.spec.serviceAccountName)');
    expect(findings[0].fix).toBe('list the resources the agent uses instead of *');
  });

  test('Noncompliance 2: * verbs on a named resource, with its API group and scope', () => {
    const findings = findingsOf(rule, boundInNamespace('observability', [READ_PODS, { apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }]));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.MEDIUM, fix: 'list the verbs the agent uses instead of *' });
    expect(findings[0].message).toContain('has every verb (*) on configmaps (API group core ("")) in namespace observability: delete and ' +
      'deletecollection included, and verbs the API adds later: RoleBinding node-agent in namespace observability binds it to Role node-agent, rules[1]');
  });

  test('one cause, one finding: a wildcard that grants a right another rule reports is reported there only', () => {
    // * resources in every group with get: Secrets (and get on pods/exec, nodes/proxy), never a second finding for the *
    const findings = rbacFindings(boundCluster([{ apiGroups: ['*'], resources: ['*'], verbs: ['get'] }]));
    expect(rulesAndSeverities(findings).sort()).toEqual(['NA-RBAC-EXEC:critical', 'NA-RBAC-NODE-PROXY:critical', 'NA-RBAC-SECRETS:critical']);
  });

  test('Compliance: named verbs and resources; rules on nonResourceURLs', () => {
    expect(findingsOf(rule, boundCluster([READ_PODS]))).toEqual([]);
    expect(rbacFindings(boundCluster([{ nonResourceURLs: ['/metrics', '/healthz'], verbs: ['*'] }]))).toEqual([]);
    expect(rbacFindings(boundCluster([READ_PODS]))).toEqual([]);
  });
});
