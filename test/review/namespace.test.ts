import { agent, binding, findingsOf, rbac, saSubject } from './util';
import { ReviewPack, SecurityReview, Severity } from '../../src/review';
import { AutomountTokenRule, DedicatedNamespaceRule, RbacSecretsRule } from '../../src/review/rules';

// The namespace of a workload whose manifest sets none, as kubectl would apply it: --namespace
// (ReviewOptions.namespace); else the one namespace every other object of its file sets; else unknown, never default.

const READ_SECRETS = [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }];

/** flannel's shape: a DaemonSet without a namespace in a file whose other objects all target kube-flannel. */
function flannelLike(dsNamespace: string | null = null): any[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-flannel' } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'flannel', namespace: 'kube-flannel' } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-flannel-cfg', namespace: 'kube-flannel' } },
    rbac('ClusterRole', 'flannel', READ_SECRETS),
    binding('ClusterRoleBinding', 'flannel', { kind: 'ClusterRole', name: 'flannel' }, [saSubject('flannel', 'kube-flannel')]),
    agent({ serviceAccountName: 'flannel', automountServiceAccountToken: undefined }, { name: 'kube-flannel-ds', namespace: dsNamespace }),
  ];
}

const DEFAULT_RULES = [new RbacSecretsRule(), new AutomountTokenRule(), new DedicatedNamespaceRule()];

function review(manifests: any[], options: any = {}, files?: string[]) {
  return SecurityReview._reviewFiles(manifests, { ...options, packs: [ReviewPack.custom('t', DEFAULT_RULES)] }, files);
}

describe('the namespace of a workload without metadata.namespace', () => {
  test('the one namespace the other objects of its file use: RBAC, token and namespace rules and the report all take it, and say so', () => {
    const w = review(flannelLike()).workloads[0];
    expect(w).toMatchObject({ namespace: 'kube-flannel', namespaceSource: 'file' });
    expect(w.findings.map((f) => [f.rule, f.namespace, f.message])).toEqual([
      ['NA-RBAC-SECRETS', 'kube-flannel', 'DaemonSet kube-flannel-ds: ServiceAccount kube-flannel/flannel (namespace used by the other objects of its file) ' +
        'can read every Secret cluster-wide (get on secrets), every credential stored there: ClusterRoleBinding flannel binds it to ClusterRole flannel, ' +
        'rules[0] (spec.template.spec.serviceAccountName)'],
      ['NA-NAMESPACE', 'kube-flannel', 'DaemonSet kube-flannel-ds: sets no namespace: kubectl applies it to the namespace of its context (or of ' +
        '--namespace), not necessarily to kube-flannel, the namespace every other object of its file sets, which the review takes (metadata.namespace)'],
    ]);
    expect(w.findings[1].fix).toBe('set metadata.namespace: kube-flannel, as the other objects of its file do');
    expect(SecurityReview.toMarkdown(review(flannelLike()))).toContain('## DaemonSet kube-flannel/kube-flannel-ds\n\nNamespace: kube-flannel (used by ' +
      'the other objects of its file; the manifest sets none)\n\nPod Security level:');
    // the same manifests with the namespace written: only the messages' wording changes
    const written = review(flannelLike('kube-flannel')).workloads[0];
    expect(written).toMatchObject({ namespace: 'kube-flannel', namespaceSource: 'manifest' });
    expect(written.findings.map((f) => f.rule)).toEqual(['NA-RBAC-SECRETS']);
  });

  test('a RoleBinding and a Role without a namespace land in that namespace too, and the message says so', () => {
    const manifests = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'logging' } },
      agent({}, { namespace: null }),
      rbac('Role', 'agent', READ_SECRETS),
      binding('RoleBinding', 'agent', { kind: 'Role', name: 'agent' }, [{ kind: 'ServiceAccount', name: 'node-agent' }]),
    ];
    const findings = findingsOf(new RbacSecretsRule(), manifests);
    expect(findings.map((f) => [f.severity, f.message])).toEqual([[Severity.HIGH, expect.stringContaining('ServiceAccount logging/node-agent ' +
      '(namespace used by the other objects of its file) can read every Secret in namespace logging (get on secrets), every credential stored there: ' +
      'RoleBinding agent in namespace logging (namespace used by the other objects of its file) binds it to Role agent, rules[0]')]]);
  });

  test('--namespace (ReviewOptions.namespace) comes first; it is judged like a namespace the manifest sets', () => {
    const manifests = [agent({}, { namespace: null }), rbac('ClusterRole', 'r', READ_SECRETS),
      binding('ClusterRoleBinding', 'b', { kind: 'ClusterRole', name: 'r' }, [saSubject('node-agent', 'observability')])];
    const w = review(manifests, { namespace: 'observability' }).workloads[0];
    expect(w).toMatchObject({ namespace: 'observability', namespaceSource: 'option' });
    expect(w.findings.map((f) => f.message)).toEqual([expect.stringContaining('ServiceAccount observability/node-agent (namespace from --namespace) can read')]);
    expect(review([agent({}, { namespace: null })], { namespace: 'kube-system' }).workloads[0].findings.map((f) => f.message))
      .toEqual(['DaemonSet node-agent: runs in the shared namespace kube-system (namespace from --namespace) (metadata.namespace)']);
    expect(SecurityReview.toMarkdown(review(manifests, { namespace: 'observability' }))).toContain('Namespace: observability (from --namespace; the manifest sets none)');
  });

  test('an object that sets another namespace than --namespace is an error, as kubectl rejects it; the review judges its own', () => {
    const w = review([agent({}, { namespace: 'logging' })], { namespace: 'observability' }).workloads[0];
    expect(w).toMatchObject({ namespace: 'logging', namespaceSource: 'manifest' });
    const error = w.findings.find((f) => f.rule === SecurityReview.ERROR_RULE)!;
    expect(error.message).toBe('DaemonSet logging/node-agent: sets metadata.namespace logging, but the review was given --namespace observability: ' +
      'kubectl apply --namespace observability rejects an object of another namespace ("the namespace from the provided object "logging" does not match")');
    expect(error.fix).toBe('review (and apply) it with --namespace logging, or remove metadata.namespace so that it lands in the namespace given');
  });

  test('unknown when the other objects use several namespaces or none: never default', () => {
    const manifests = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'one' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'two' } },
      agent({ automountServiceAccountToken: undefined }, { namespace: null }),
      rbac('ClusterRole', 'r', READ_SECRETS),
      binding('ClusterRoleBinding', 'to-default', { kind: 'ClusterRole', name: 'r' }, [saSubject('node-agent', 'default')]),
    ];
    const w = review(manifests).workloads[0];
    expect(w.namespace).toBeUndefined();
    expect(w.namespaceSource).toBeUndefined();
    // the binding names default/node-agent: its rights are reported as they would be if the workload were applied there, saying so,
    // and "no binding grants it" is not claimed
    const byRule = new Map(w.findings.map((f) => [f.rule, f]));
    expect([...byRule.keys()].sort()).toEqual(['NA-NAMESPACE', 'NA-RBAC-SECRETS']);
    expect(byRule.get('NA-NAMESPACE')!.message).toBe('DaemonSet node-agent: sets no namespace: it lands in the namespace ' +
      'kubectl is given (--namespace) or that of its context, often default, and the review cannot tell which (the other objects of its file set none ' +
      'or several); the bindings of its ServiceAccount node-agent name it in namespace default: the RBAC rules judge its rights as applied there ' +
      '(metadata.namespace)');
    expect(byRule.get('NA-RBAC-SECRETS')!.message).toMatch(/^DaemonSet node-agent: if applied in namespace default, as the bindings of its ServiceAccount expect, /);
    expect(byRule.get('NA-RBAC-SECRETS')!.severity).toBe('critical');
    expect(SecurityReview.toMarkdown(review(manifests))).toContain('Namespace: unknown (the manifest sets none; pass --namespace)');
    // cluster-scoped objects say nothing about the namespace, even with a metadata.namespace (the API server drops it)
    const clusterScoped = [agent({}, { namespace: null }), { ...rbac('ClusterRole', 'r', READ_SECRETS), metadata: { name: 'r', namespace: 'x' } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } }];
    expect(review(clusterScoped).workloads[0].namespace).toBeUndefined();
  });

  test('unknown is still one namespace for everything applied without one: a namespace-less RoleBinding and group bindings apply', () => {
    const manifests = [
      agent({ automountServiceAccountToken: undefined }, { namespace: null }),
      rbac('Role', 'agent', READ_SECRETS),
      binding('RoleBinding', 'agent', { kind: 'Role', name: 'agent' }, [{ kind: 'ServiceAccount', name: 'node-agent' }]),
    ];
    expect(findingsOf(new RbacSecretsRule(), manifests).map((f) => f.message)).toEqual([expect.stringContaining('ServiceAccount node-agent (namespace not set) ' +
      'can read every Secret in the namespace it is applied to (get on secrets), every credential stored there: RoleBinding agent in the namespace it ' +
      'is applied to binds it to Role agent, rules[0]')]);
    expect(findingsOf(new AutomountTokenRule(), manifests)).toEqual([]);
    const unbound = [agent({ automountServiceAccountToken: undefined }, { namespace: null })];
    expect(findingsOf(new AutomountTokenRule(), unbound).map((f) => f.message)).toEqual(['DaemonSet node-agent: mounts an API token for ServiceAccount ' +
      'node-agent (namespace not set) (the pod does not set automountServiceAccountToken: false), but no RoleBinding or ClusterRoleBinding in the ' +
      'manifests grants it anything (spec.template.spec.automountServiceAccountToken)']);
  });

  test('the CLI gives each object its file: the namespace of its own file\'s other objects, not of all the files', () => {
    const manifests = [...flannelLike(), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other', namespace: 'elsewhere' } }];
    const files = [...flannelLike().map(() => 'flannel.yaml'), 'other.yaml'];
    expect(review(manifests, {}, files).workloads[0]).toMatchObject({ namespace: 'kube-flannel', namespaceSource: 'file' });
    expect(review(manifests).workloads[0].namespace).toBeUndefined();
    expect(() => review(manifests, {}, ['one.yaml'])).toThrow('files must name the file of each manifest: 1 files for 7 manifests');
  });

  test('acknowledgements given by the resolved namespace or by none both apply', () => {
    const ack = (namespace?: string) => ({ kind: 'DaemonSet', namespace, name: 'kube-flannel-ds', acknowledgements: [{ rule: 'NA-NAMESPACE', reason: 'r' }] });
    for (const namespace of ['kube-flannel', undefined]) {
      expect(review(flannelLike(), { acknowledgements: [ack(namespace)] }).workloads[0].findings.find((f) => f.rule === 'NA-NAMESPACE')!.acknowledged).toBe(true);
    }
    expect(review(flannelLike(), { acknowledgements: [ack('other')] }).workloads[0].findings.find((f) => f.rule === 'NA-NAMESPACE')!.acknowledged).toBe(false);
  });

  test('a namespace that is not a namespace name is a clear error', () => {
    expect(() => SecurityReview.review([], { namespace: 'Kube_System' })).toThrow(
      'review options: namespace must be a namespace name (lowercase letters, digits and "-", starting and ending with a letter or digit), got "Kube_System"');
    expect(() => SecurityReview.review([], { namespace: '' })).toThrow('review options: namespace must be a non-empty namespace name, e.g. observability');
  });
});
