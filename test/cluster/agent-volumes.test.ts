// Secret, ConfigMap, projected and emptyDir volumes, env from keys, envFrom and imagePullSecrets as the API server
// judges them: an agent with every one of them is accepted (the boundaries included: mode 0777, a token valid for
// exactly ten minutes), and for each value the library refuses at construction, the valid DaemonSet forced to hold it
// is refused by the server on that field. The library's checks are the server's: not looser, not stricter by accident.
import { Chart, Duration, Size, Testing } from 'cdk8s';
import { EmptyDirMedium } from 'cdk8s-plus-28';
import { applyAll, resetCluster } from './cluster';
import { Kube } from './kube';
import { AgentVolume, EnvSource, EnvValue, NodeAgent, NodeAgentProps, ProjectedSource } from '../../src';

const kube = Kube.fromKubeconfig();
const image = 'registry.example.com/node-agent:1.2.0';
const NAMESPACE = 'agent-volumes';

beforeAll(async () => {
  await resetCluster(kube);
  await applyAll(kube, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }]);
});
afterAll(() => resetCluster(kube));

const VALID: Partial<NodeAgentProps> = {
  volumes: [
    AgentVolume.fromSecret('loki-credentials', '/etc/loki', { items: [{ key: 'password', path: 'password', mode: 0o400 }], defaultMode: 0o777, optional: true }),
    AgentVolume.projected('/var/run/secrets/vault', [
      ProjectedSource.serviceAccountToken({ path: 'token', audience: 'vault', expiration: Duration.minutes(10) }),
      ProjectedSource.downwardApi([{ path: 'app', fieldPath: "metadata.labels['app.kubernetes.io/name']" }]),
      ProjectedSource.configMap('agent-extra', { items: [{ key: 'extra.yaml', path: 'extra/extra.yaml' }] }),
    ], { defaultMode: 0o440 }),
    AgentVolume.emptyDir('/buffer', { sizeLimit: Size.mebibytes(64), medium: EmptyDirMedium.MEMORY }),
  ],
  envValueFrom: {
    LOKI_PASSWORD: EnvValue.fromSecretKey('loki-credentials', 'password'),
    LOKI_URL: EnvValue.fromConfigMapKey('loki', 'url', { optional: true }),
  },
  env: { LOKI_AUTH: 'fluent-bit:$(LOKI_PASSWORD)' },
  envFrom: [EnvSource.fromConfigMap('agent-env', { prefix: 'AGENT_' }), EnvSource.fromSecret('agent-secrets', { optional: true })],
  imagePullSecrets: ['mirror-credentials'],
};

function daemonSet(props: Partial<NodeAgentProps>): any {
  const chart = new Chart(Testing.app(), 'volumes');
  const agent = new NodeAgent(chart, 'agent', { namespace: NAMESPACE, createNamespace: false, image, ...props });
  for (const rule of new Set(agent.review().workloads.flatMap((w) => w.findings).map((f) => f.rule))) agent.acknowledge(rule, 'the review is not under test here');
  return chart.toJson().find((o: any) => o.kind === 'DaemonSet');
}

async function serverSays(ds: any): Promise<{ status: number; causes: { field: string; message: string }[] }> {
  const r = await kube.apply(ds, { dryRun: true });
  return { status: r.status, causes: (r.body?.details?.causes ?? []).map((c: any) => ({ field: c.field, message: c.message })) };
}

const VOLUMES = 'spec.template.spec.volumes';

interface Case {
  readonly name: string;
  /** the library refusing the value. */
  readonly library: () => unknown;
  readonly libraryError: RegExp;
  /** the valid DaemonSet, changed to hold the value. */
  readonly force: (ds: any) => void;
  /** the field the server names, and a part of its message. */
  readonly server: { field: string; message: string };
}

const secretVolume = (ds: any) => ds.spec.template.spec.volumes[0].secret;
const projected = (ds: any) => ds.spec.template.spec.volumes[1].projected;

const CASES: Case[] = [
  {
    name: 'a defaultMode above 0777',
    library: () => AgentVolume.fromSecret('loki-credentials', '/etc/loki', { defaultMode: 0o1000 }),
    libraryError: /defaultMode must be a file mode from 0 to 0777/,
    force: (ds) => { secretVolume(ds).defaultMode = 0o1000; },
    server: { field: `${VOLUMES}[0].secret.defaultMode`, message: '0777' },
  },
  {
    name: 'an item mode below 0',
    library: () => AgentVolume.fromSecret('loki-credentials', '/etc/loki', { items: [{ key: 'password', path: 'password', mode: -1 }] }),
    libraryError: /items\[password\]\.mode must be a file mode from 0 to 0777/,
    force: (ds) => { secretVolume(ds).items[0].mode = -1; },
    server: { field: `${VOLUMES}[0].secret.items[0].mode`, message: '0777' },
  },
  {
    name: 'an item path with ..',
    library: () => AgentVolume.fromSecret('loki-credentials', '/etc/loki', { items: [{ key: 'password', path: '../password' }] }),
    libraryError: /must not contain a "\.\." segment/,
    force: (ds) => { secretVolume(ds).items[0].path = '../password'; },
    server: { field: `${VOLUMES}[0].secret.items[0].path`, message: '..' },
  },
  {
    name: 'an absolute item path',
    library: () => AgentVolume.fromSecret('loki-credentials', '/etc/loki', { items: [{ key: 'password', path: '/password' }] }),
    libraryError: /must be relative to the mount path/,
    force: (ds) => { secretVolume(ds).items[0].path = '/password'; },
    server: { field: `${VOLUMES}[0].secret.items[0].path`, message: 'must be a relative path' },
  },
  {
    name: 'a token valid for less than 10 minutes',
    library: () => ProjectedSource.serviceAccountToken({ path: 'token', expiration: Duration.seconds(599) }),
    libraryError: /expiration must be a whole number of seconds from 600/,
    force: (ds) => { projected(ds).sources[0].serviceAccountToken.expirationSeconds = 599; },
    server: { field: `${VOLUMES}[1].projected.sources[0].serviceAccountToken.expirationSeconds`, message: '10 minutes' },
  },
  {
    name: 'spec.nodeName in a downward API volume',
    library: () => ProjectedSource.downwardApi([{ path: 'node', fieldPath: 'spec.nodeName' }]),
    libraryError: /is not a field a downward API volume supports/,
    force: (ds) => { projected(ds).sources[1].downwardAPI.items[0].fieldRef.fieldPath = 'spec.nodeName'; },
    // the server names the field without the item's index
    server: { field: `${VOLUMES}[1].projected.sources[1].downwardAPI.fieldRef.fieldPath`, message: 'supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"' },
  },
  {
    name: 'two projected sources writing one file',
    library: () => AgentVolume.projected('/p', [ProjectedSource.configMap('c', { items: [{ key: 'k', path: 'app' }] }), ProjectedSource.downwardApi([{ path: 'app', fieldPath: 'metadata.name' }])]),
    libraryError: /the configMap and the downwardAPI sources both write "app"/,
    force: (ds) => { projected(ds).sources[2].configMap.items[0].path = 'app'; },
    // the server names the projected volume, and the object whose item clashed
    server: { field: `${VOLUMES}[1].projected`, message: '"agent-extra": conflicting duplicate paths' },
  },
];

test('an agent with every volume kind, env from keys, envFrom and a pull secret is accepted', async () => {
  expect(await serverSays(daemonSet(VALID))).toEqual({ status: 201, causes: [] });
});

describe.each(CASES.map((c) => [c.name, c]))('%s', (_name, c) => {
  test('the library refuses it, and the API server refuses the forced DaemonSet on that field', async () => {
    expect(c.library).toThrow(c.libraryError);
    const forced = daemonSet(VALID);
    c.force(forced);
    const answer = await serverSays(forced);
    expect(answer.status).toBe(422);
    expect(answer.causes.filter((x) => x.field === c.server.field && x.message.includes(c.server.message))).toHaveLength(1);
  });
});

/**
 * Where the library is stricter than the pod's validation, on purpose: the server accepts a reference to a Secret name or
 * key that no Secret can have (it validates those when the Secret is created), so the pod could never start.
 */
const UNRESOLVABLE: { name: string; library: () => unknown; libraryError: RegExp; force: (ds: any) => void; secret: any }[] = [
  {
    name: 'a Secret name that is no DNS subdomain',
    library: () => AgentVolume.fromSecret('Loki_Credentials', '/etc/loki'),
    libraryError: /the name "Loki_Credentials" is not a valid name/,
    force: (ds) => { secretVolume(ds).secretName = 'Loki_Credentials'; },
    secret: { metadata: { name: 'Loki_Credentials' }, stringData: { password: 'p' } },
  },
  {
    name: 'a key with a slash',
    library: () => EnvValue.fromSecretKey('loki-credentials', 'a/b'),
    libraryError: /the key "a\/b" is not a Secret or ConfigMap key/,
    force: (ds) => { secretVolume(ds).items[0].key = 'a/b'; },
    secret: { metadata: { name: 'loki-credentials' }, stringData: { 'a/b': 'p' } },
  },
  {
    name: 'an image pull secret name that is no DNS subdomain',
    library: () => daemonSet({ imagePullSecrets: ['Mirror'] }),
    libraryError: /imagePullSecrets "Mirror" is not a valid name/,
    force: (ds) => { ds.spec.template.spec.imagePullSecrets = [{ name: 'Mirror' }]; },
    secret: { metadata: { name: 'Mirror' }, type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': '{"auths":{}}' } },
  },
];

describe.each(UNRESOLVABLE.map((c) => [c.name, c]))('%s', (_name, c) => {
  test('the library refuses it; the server takes the reference but refuses every Secret it could name', async () => {
    expect(c.library).toThrow(c.libraryError);
    const forced = daemonSet(VALID);
    c.force(forced);
    expect((await serverSays(forced)).status).toBe(201);
    const secret = await kube.apply({ apiVersion: 'v1', kind: 'Secret', ...c.secret, metadata: { ...c.secret.metadata, namespace: NAMESPACE } }, { dryRun: true });
    expect(secret.status).toBe(422);
  });
});

test('a token at the path of another source: the server does not compare token paths, the library refuses it as any two sources writing one file', async () => {
  expect(() => AgentVolume.projected('/p', [ProjectedSource.serviceAccountToken({ path: 'app' }), ProjectedSource.downwardApi([{ path: 'app', fieldPath: 'metadata.name' }])]))
    .toThrow(/the serviceAccountToken and the downwardAPI sources both write "app"/);
  const forced = daemonSet(VALID);
  projected(forced).sources[0].serviceAccountToken.path = 'app';
  expect((await serverSays(forced)).status).toBe(201);
});
