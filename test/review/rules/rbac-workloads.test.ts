import { RbacWorkloadsRule, Severity } from '../../../src/review';
import { agent, binding, boundCluster, boundInNamespace, findingsOf, rbac, saSubject } from '../util';

const rule = new RbacWorkloadsRule();

describe('NA-RBAC-WORKLOADS: the ServiceAccount cannot create or change pods and workloads', () => {
  test('Noncompliance 1: create on daemonsets in kube-system (cilium-operator) is critical', () => {
    const findings = findingsOf(rule, boundInNamespace('kube-system', [{ apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['create', 'delete'] }]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findings[0].message).toContain('can create pods or workloads in namespace kube-system (create on daemonsets): a pod it defines can be ' +
      'privileged or mount the host\'s /, on any node it selects: RoleBinding node-agent in namespace kube-system binds it to Role node-agent, rules[0]');
    expect(findings[0].fix).toBe('remove create, update and patch on pods and workload kinds: a node agent is deployed by its DaemonSet and needs none');
  });

  test('Noncompliance 2: every workload kind, cronjobs plural included, and the extensions group', () => {
    for (const [group, resource] of [['', 'pods'], ['', 'replicationcontrollers'], ['apps', 'deployments'], ['apps', 'statefulsets'], ['apps', 'replicasets'],
      ['extensions', 'daemonsets'], ['batch', 'jobs'], ['batch', 'cronjobs']]) {
      expect([resource, findingsOf(rule, boundCluster([{ apiGroups: [group], resources: [resource], verbs: ['create'] }])).map((f) => f.severity)])
        .toEqual([resource, [Severity.CRITICAL]]);
    }
  });

  test('Noncompliance 3: update on pods (Multus) swaps a running pod\'s image; patch on pods/ephemeralcontainers adds a container', () => {
    const update = findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['pods', 'pods/status'], verbs: ['get', 'update'] }]));
    expect(update.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(update[0].message).toContain('can change every running pod cluster-wide (update on pods): it can swap a container\'s image (or add an ' +
      'ephemeral container) and run its own code with that pod\'s privileges; a privileged agent\'s pod is root on its node');
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['pods/ephemeralcontainers'], verbs: ['patch'] }])).map((f) => f.severity))
      .toEqual([Severity.CRITICAL]);
  });

  test('Noncompliance 4: update limited by resourceNames to the workload itself (kured) is high, and says so', () => {
    const manifests = [
      agent({}, { namespace: 'kube-system', name: 'kured' }),
      rbac('Role', 'kured', [{ apiGroups: ['apps'], resources: ['daemonsets'], resourceNames: ['kured'], verbs: ['update'] }], 'kube-system'),
      binding('RoleBinding', 'kured', { kind: 'Role', name: 'kured' }, [saSubject('node-agent', 'kube-system')], 'kube-system'),
    ];
    const findings = findingsOf(rule, manifests);
    expect(findings.map((f) => f.severity)).toEqual([Severity.HIGH]);
    expect(findings[0].message).toContain('can change DaemonSet kured, the workload itself, in namespace kube-system (update on daemonsets, limited by ' +
      'resourceNames): it can rewrite its pod template (image, privileges, host access), which runs on every node it selects');
  });

  test('Noncompliance 5: high in a namespace a Namespace among the manifests labels to enforce baseline', () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'jobs', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } };
    expect(findingsOf(rule, boundInNamespace('jobs', [{ apiGroups: ['batch'], resources: ['jobs'], verbs: ['create'] }], [ns])).map((f) => f.severity))
      .toEqual([Severity.HIGH]);
  });

  test('Compliance: create limited by resourceNames grants no create; delete, eviction and reads are not control', () => {
    expect(findingsOf(rule, boundCluster([{ apiGroups: ['apps'], resources: ['daemonsets'], resourceNames: ['x'], verbs: ['create'] }]))).toEqual([]);
    expect(findingsOf(rule, boundCluster([
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'delete'] },
      { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
      { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get'] },
    ]))).toEqual([]);
  });
});
