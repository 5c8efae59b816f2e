import { RbacSecretsRule, Severity } from '../../../src/review';
import { agent, binding, boundCluster, boundInNamespace, findingsOf, rbac, rbacFindings, saSubject } from '../util';

const rule = new RbacSecretsRule();
const READ = { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] };

describe('NA-RBAC-SECRETS: the ServiceAccount reads no Secrets through the API', () => {
  test('Noncompliance 1: cluster-wide read is critical', () => {
    const findings = findingsOf(rule, boundCluster([READ]));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.CRITICAL, field: 'spec.template.spec.serviceAccountName' });
    expect(findings[0].message).toBe('DaemonSet observability/node-agent: ServiceAccount observability/node-agent can read every Secret cluster-wide ' +
      '(get, list, watch on secrets), every credential stored there: ClusterRoleBinding node-agent binds it to ClusterRole node-agent, rules[0] ' +
      '(spec.template.spec.serviceAccountName)');
    expect(findings[0].fix).toBe('grant Secrets access with a RoleBinding in the namespace that holds the Secrets the agent needs, limited by ' +
      'resourceNames to them, or mount them as Secret volumes');
  });

  test('Noncompliance 2: in kube-system critical, in another namespace high (a RoleBinding in a namespace other than the workload\'s counts)', () => {
    expect(findingsOf(rule, boundInNamespace('kube-system', [READ])).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    const other = findingsOf(rule, boundInNamespace('cilium-secrets', [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]));
    expect(other.map((f) => [f.severity, f.fix])).toEqual([[Severity.HIGH, 'limit the rule with resourceNames to the Secrets the agent needs, or mount them as Secret volumes']]);
    expect(other[0].message).toContain('can read every Secret in namespace cilium-secrets (list on secrets), every credential stored there: ' +
      'RoleBinding node-agent in namespace cilium-secrets binds it to Role node-agent, rules[0]');
  });

  test('Noncompliance 3: limited by resourceNames to named Secrets it is medium, and says which', () => {
    const findings = findingsOf(rule, boundInNamespace('observability', [{ ...READ, resourceNames: ['agent-tls'] }]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.MEDIUM]);
    expect(findings[0].message).toContain('can read the Secrets named "agent-tls" in namespace observability (get, list, watch on secrets, limited by resourceNames)');
  });

  test('Noncompliance 4: * resources of every group reach Secrets; the core group written "" or *', () => {
    expect(findingsOf(rule, boundCluster([{ apiGroups: ['*'], resources: ['*'], verbs: ['list'] }])).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findingsOf(rule, boundCluster([{ apiGroups: ['*'], resources: ['secrets'], verbs: ['watch'] }])).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
  });

  test('Noncompliance 5: writing without reading: update or delete cluster-wide medium, create alone low', () => {
    const replace = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['secrets'], verbs: ['update', 'delete'] }]));
    expect(replace.map((f) => f.severity)).toEqual([Severity.MEDIUM]);
    expect(replace[0].message).toContain('can change every Secret cluster-wide (update, delete on secrets) without reading them: it can replace or delete credentials other workloads read');
    const create = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['secrets'], verbs: ['create'] }]));
    expect(create.map((f) => f.severity)).toEqual([Severity.LOW]);
    expect(findingsOf(rule, boundInNamespace('cilium-secrets', [{ apiGroups: [''], resources: ['secrets'], verbs: ['patch'] }])).map((f) => f.severity))
      .toEqual([Severity.LOW]);
  });

  test('one cause, one finding: the same right through two bindings is reported once, at its highest severity, naming the others', () => {
    const manifests = [
      ...boundInNamespace('observability', [READ]),
      rbac('ClusterRole', 'secrets-all', [READ]),
      binding('ClusterRoleBinding', 'all-sa', { kind: 'ClusterRole', name: 'secrets-all' }, [{ kind: 'Group', name: 'system:serviceaccounts' }]),
    ];
    const findings = findingsOf(rule, manifests);
    expect(findings).toHaveLength(1);
    expect(findings[0].severity).toBe(Severity.CRITICAL);
    expect(findings[0].message).toContain('ClusterRoleBinding all-sa binds it, as Group system:serviceaccounts (every ServiceAccount), to ClusterRole ' +
      'secrets-all, rules[0]; also granted by RoleBinding node-agent in namespace observability → Role node-agent');
  });

  test('Compliance: a * resource in a named API group (Multus, Calico) grants no Secret; nor do bindings for others', () => {
    expect(rbacFindings(boundCluster([{ apiGroups: ['k8s.cni.cncf.io'], resources: ['*'], verbs: ['*'] }])).map((f) => f.rule)).toEqual(['NA-RBAC-BROAD']);
    expect(findingsOf(rule, boundCluster([{ apiGroups: ['crd.projectcalico.org', 'projectcalico.org'], resources: ['*'], verbs: ['get', 'list'] }]))).toEqual([]);
    expect(findingsOf(rule, [agent(), rbac('ClusterRole', 'r', [READ]), binding('ClusterRoleBinding', 'b', { kind: 'ClusterRole', name: 'r' }, [saSubject('other')])])).toEqual([]);
  });

  test('a pod that mounts no token of its ServiceAccount is not said to hold the right: the ServiceAccount is', () => {
    const manifests = boundCluster([READ]);
    delete manifests[0].spec.template.spec.automountServiceAccountToken;
    manifests.push({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'node-agent', namespace: 'observability' }, automountServiceAccountToken: false });
    const [finding] = findingsOf(rule, manifests);
    expect(finding.message).toContain('can read every Secret');
    expect(finding.message).toContain('this workload\'s pods mount no token of it (automountServiceAccountToken: false, no projected token), so they do not hold the right');
    expect(findingsOf(rule, boundCluster([READ]))[0].message).not.toContain('mount no token');
  });

  test('two grants at one severity: the finding names the broader one, whatever the order of the documents (metallb\'s controller: its '
    + 'Role reads and writes Secrets, another Role only reads them)', () => {
    const ns = 'observability';
    const manifests = [
      agent(),
      rbac('Role', 'pod-lister', [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }, READ], ns),
      binding('RoleBinding', 'pod-lister', { kind: 'Role', name: 'pod-lister' }, [saSubject()], ns),
      rbac('Role', 'controller', [{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] }], ns),
      binding('RoleBinding', 'controller', { kind: 'Role', name: 'controller' }, [saSubject()], ns),
    ];
    const message = 'DaemonSet observability/node-agent: ServiceAccount observability/node-agent can read every Secret in namespace observability ' +
      '(get, list, watch, create, update, patch, delete on secrets), every credential stored there: RoleBinding controller in namespace observability ' +
      'binds it to Role controller, rules[0]; also granted by RoleBinding pod-lister in namespace observability → Role pod-lister; this workload\'s pods mount ' +
      'no token of it (automountServiceAccountToken: false, no projected token), so they do not hold the right: other pods and tokens of the ' +
      'ServiceAccount do (spec.template.spec.serviceAccountName)';
    expect(findingsOf(rule, manifests).map((f) => f.message)).toEqual([message]);
    expect(findingsOf(rule, [...manifests].reverse()).map((f) => f.message)).toEqual([message]);
  });
});
