import { ApiObject, App, Chart, Testing } from 'cdk8s';
import { NodeAgent } from '../../src';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';
const enforce = (manifests: any[], name: string) =>
  manifests.find((m) => m.kind === 'Namespace' && m.metadata.name === name)?.metadata.labels['pod-security.kubernetes.io/enforce'];

describe('the Namespace of an agent', () => {
  test('comes first in its chart, before everything that lives in it (RBAC and config included)', () => {
    const c = new Chart(Testing.app(), 'test');
    const agent = new NodeAgent(c, 'a', {
      image,
      namespace: 'observability',
      configFiles: { 'a.conf': 'x' },
      namespacePermissions: [{ resources: ['configmaps'], verbs: ['get'] }],
      ports: [{ name: 'metrics', containerPort: 9100 }],
      service: { ports: ['metrics'] },
    });
    agent.addClusterPermission({ resources: ['nodes'], verbs: ['get'] });
    const kinds = synthValid(c).map((m) => m.kind);
    expect(kinds[0]).toBe('Namespace');
    expect(kinds.slice(1).sort()).toEqual(['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'DaemonSet', 'Role', 'RoleBinding', 'Service', 'ServiceAccount']);
  });

  test('agents of one namespace in two charts: each chart writes it, identically, at the least strict level any of them needs', () => {
    const app = Testing.app();
    const a = new Chart(app, 'a');
    const b = new Chart(app, 'b');
    new NodeAgent(a, 'quiet', { image, namespace: 'agents' });
    new NodeAgent(b, 'noisy', { image, namespace: 'agents', hostPID: { reason: 'sees node processes' } });
    const [ma, mb] = [synthValid(a), synthValid(b)];
    expect(enforce(ma, 'agents')).toBe('privileged');
    expect(ma.find((m) => m.kind === 'Namespace')).toEqual(mb.find((m) => m.kind === 'Namespace'));
    expect(app.synthYaml().match(/kind: Namespace/g)).toHaveLength(2);
  });

  test('two Pod Security versions in one namespace, across charts, fail naming the first agent', () => {
    const app = Testing.app();
    new NodeAgent(new Chart(app, 'a'), 'one', { image, namespace: 'agents', podSecurityVersion: '1.28' });
    expect(() => new NodeAgent(new Chart(app, 'b'), 'two', { image, namespace: 'agents', podSecurityVersion: '1.32' }))
      .toThrow('[b/two] namespace "agents" is shared with agents that pin Pod Security version "1.28" (a/one), but this one pins "1.32": use one podSecurityVersion per namespace');
  });

  test('a hand-written Namespace of the same name fails the synth, naming both constructs', () => {
    const app = new App({ outdir: Testing.app().outdir });
    const c = new Chart(app, 'test');
    new NodeAgent(c, 'a', { image, namespace: 'observability' });
    new ApiObject(c, 'mine', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'observability' } });
    expect(() => app.synthYaml()).toThrow(/\[test\/Namespace-observability\] Namespace observability is written for its agents .* and also by test\/mine: keep one: set createNamespace: false on the agents of namespace observability and label yours with pod-security\.kubernetes\.io\/enforce: restricted, or remove yours/);
  });

  test('with createNamespace: false, a hand-written Namespace is the only one', () => {
    const c = new Chart(Testing.app(), 'test');
    new NodeAgent(c, 'a', { image, namespace: 'observability', createNamespace: false });
    new ApiObject(c, 'mine', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'observability' } });
    expect(synthValid(c).filter((m) => m.kind === 'Namespace')).toHaveLength(1);
  });
});

describe('objects of one name in the app', () => {
  test('two agents of one name in one namespace fail, in one chart or two, naming both', () => {
    const one = new Chart(Testing.app(), 'one');
    new NodeAgent(one, 'a', { image, name: 'agent', namespace: 'x' });
    new NodeAgent(one, 'b', { image, name: 'agent', namespace: 'x' });
    expect(() => synthValid(one)).toThrow(/\[one\/a\] DaemonSet x\/agent is also defined by one\/b\/Resource: one of them would replace the other when applied/);

    const app = new App({ outdir: Testing.app().outdir });
    new NodeAgent(new Chart(app, 'c1'), 'agent', { image, namespace: 'x' });
    new NodeAgent(new Chart(app, 'c2'), 'agent', { image, namespace: 'x' });
    expect(() => app.synthYaml()).toThrow(/\[c2\/agent\] ServiceAccount x\/agent is also defined by c1\/agent\/ServiceAccount/);
  });

  test('one name in two namespaces is two objects; a ClusterRole of the same agent name in two namespaces is not shared either', () => {
    const c = new Chart(Testing.app(), 'test');
    const perms = [{ resources: ['nodes'], verbs: ['get'] }];
    new NodeAgent(c, 'a', { image, name: 'agent', namespace: 'x', clusterPermissions: perms });
    new NodeAgent(c, 'b', { image, name: 'agent', namespace: 'y', clusterPermissions: perms });
    expect(synthValid(c).filter((m) => m.kind === 'DaemonSet')).toHaveLength(2);
  });

  test('a hand-written object that takes an agent\'s name fails', () => {
    const c = new Chart(Testing.app(), 'test');
    new NodeAgent(c, 'agent', { image, namespace: 'x' });
    new ApiObject(c, 'sa', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'agent', namespace: 'x' } });
    expect(() => synthValid(c)).toThrow(/\[test\/agent\] ServiceAccount x\/agent is also defined by test\/sa/);
  });
});
