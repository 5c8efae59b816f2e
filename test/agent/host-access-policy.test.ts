import { Chart, Testing } from 'cdk8s';
import { HostAccessPolicy, HostAccessType, PolicyAction, PolicyFailurePolicy, PolicyWorkload } from '../../src';
import { errorOf } from '../util/errors';
import { synthValid } from '../util/k8s-schema';

function synth(props?: ConstructorParameters<typeof HostAccessPolicy>[2]): any[] {
  const chart = new Chart(Testing.app(), 'test');
  new HostAccessPolicy(chart, 'policy', props);
  return synthValid(chart);
}

test('defaults: DaemonSets in every namespace, Deny, Fail; one validation per host privilege type, generated in type order', () => {
  const [policy, binding] = synth();
  expect(policy.kind).toBe('ValidatingAdmissionPolicy');
  expect(policy.metadata.name).toBe('node-agents-host-access');
  expect(policy.spec.failurePolicy).toBe('Fail');
  expect(policy.spec.matchConstraints.resourceRules).toEqual([{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['daemonsets'] }]);
  expect(policy.spec.validations.map((v: any) => v.expression)).toEqual(Object.values(HostAccessType).map((t) => expect.stringMatching(new RegExp(`^variables\\.${t}\\.all\\(`))));
  expect(policy.spec.variables.find((v: any) => v.name === 'podSpec').expression).toBe('object.spec.template.spec');
  expect(binding).toEqual({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'node-agents-host-access' },
    spec: { policyName: 'node-agents-host-access', validationActions: ['Deny'] },
  });
});

test('options: workloads, actions, failure policy, selectors and exempt namespaces', () => {
  const [policy, binding] = synth({
    name: 'agents',
    workloads: [PolicyWorkload.POD, PolicyWorkload.CRON_JOB, PolicyWorkload.DAEMON_SET],
    actions: [PolicyAction.WARN, PolicyAction.AUDIT],
    failurePolicy: PolicyFailurePolicy.IGNORE,
    namespaceLabels: { team: 'nodes' },
    objectLabels: { tier: 'agent' },
    exemptNamespaces: ['kube-system'],
  });
  expect(policy.spec.failurePolicy).toBe('Ignore');
  expect(policy.spec.matchConstraints.resourceRules.map((r: any) => [r.apiGroups, r.resources])).toEqual([
    [['apps'], ['daemonsets']], [['batch'], ['cronjobs']], [[''], ['pods']],
  ]);
  expect(policy.spec.variables[0].expression).toBe("object.kind == 'DaemonSet' ? object.spec.template.spec : object.kind == 'CronJob' ? " +
    'object.spec.jobTemplate.spec.template.spec : object.spec');
  expect(binding.spec).toEqual({
    policyName: 'agents',
    validationActions: ['Warn', 'Audit'],
    matchResources: {
      namespaceSelector: { matchLabels: { team: 'nodes' }, matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }] },
      objectSelector: { matchLabels: { tier: 'agent' } },
    },
  });
});

test.each([
  [{ actions: [PolicyAction.DENY, PolicyAction.WARN] }, 'actions cannot hold both Deny and Warn'],
  [{ actions: [] }, 'actions must be one or more of Deny, Warn, Audit, got []'],
  [{ workloads: ['Service' as PolicyWorkload] }, 'workloads must be one or more of DaemonSet, Deployment, StatefulSet, ReplicaSet, Job, CronJob, Pod, got ["Service"]'],
  [{ name: 'Not_A_Name' }, 'name must be a DNS subdomain'],
  [{ exemptNamespaces: ['kube_system'] }, 'exempt namespace "kube_system" is not a namespace name'],
])('bad props fail with the construct path and the fix: %j', (props, message) => {
  const error = errorOf(() => new HostAccessPolicy(new Chart(Testing.app(), 'test'), 'policy', props));
  expect(error).toContain('[test/policy] ');
  expect(error).toContain(message);
});

test('allowed registries: a ConfigMap first, the policy\'s parameter, read by one more validation', () => {
  const [parameter, policy, binding] = synth({ allowedRegistries: { registries: ['registry.example.com', ' docker.io/falcosecurity/ '], namespace: 'policies' } });
  expect(parameter).toEqual({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'node-agents-host-access', namespace: 'policies' },
    data: { allowedRegistries: 'registry.example.com\ndocker.io/falcosecurity/' },
  });
  expect(policy.spec.paramKind).toEqual({ apiVersion: 'v1', kind: 'ConfigMap' });
  expect(policy.spec.validations.length).toBe(Object.values(HostAccessType).length + 1);
  expect(binding.spec.paramRef).toEqual({ name: 'node-agents-host-access', namespace: 'policies', parameterNotFoundAction: 'Deny' });
});

test.each([
  [{ registries: ['a.io\nb.io'], namespace: 'policies' }, 'allowed registry "a.io\\nb.io" must be a registry host or a host and path prefix on one line'],
  [{ registries: [''], namespace: 'policies' }, 'allowed registry "" must be'],
  [{ registries: ['a.io'], namespace: 'Policies' }, 'the registries ConfigMap\'s namespace must be a namespace name (a DNS label), got "Policies"'],
])('bad allowed registries fail with the construct path: %j', (allowedRegistries, message) => {
  const error = errorOf(() => new HostAccessPolicy(new Chart(Testing.app(), 'test'), 'policy', { allowedRegistries }));
  expect(error).toContain('[test/policy] ');
  expect(error).toContain(message);
});
