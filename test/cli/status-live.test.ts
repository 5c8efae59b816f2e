// `cdk8s-node-agents status` live: the kubeconfig rules and the authentication plumbing, against a local HTTPS stub of
// the API server that serves the objects of status-scenario.ts as the API does (lists without apiVersion/kind on the
// items, pages with `continue`, Status objects for errors). The real end-to-end test on a real control plane is
// separate. TLS material: fixtures/tls (generate.sh).
import * as fs from 'fs';
import * as https from 'https';
import { AddressInfo } from 'net';
import * as path from 'path';
import { stringify } from 'yaml';
import { expectOneErrorLine, runCli, tempFiles } from './run-cli';
import { scenarioObjects } from './status-scenario';

const TLS = path.join(__dirname, 'fixtures', 'tls');
const read = (f: string) => fs.readFileSync(path.join(TLS, f));
const b64 = (f: string) => read(f).toString('base64');

interface Stub {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

interface StubOptions {
  /** whether a request is authenticated; default: bearer token "t0ken" or a client certificate of CN status-tester. */
  readonly auth?: (req: any) => boolean;
  readonly pageSize?: number;
  /** paths (without query) that answer 403. */
  readonly forbidden?: string[];
  readonly selfSigned?: boolean;
}

const ROUTES: Array<[RegExp, string]> = [
  [/^\/api\/v1\/nodes$/, 'Node'],
  [/^\/apis\/apps\/v1\/(?:namespaces\/([^/]+)\/)?daemonsets$/, 'DaemonSet'],
  [/^\/apis\/apps\/v1\/(?:namespaces\/([^/]+)\/)?controllerrevisions$/, 'ControllerRevision'],
  [/^\/api\/v1\/(?:namespaces\/([^/]+)\/)?pods$/, 'Pod'],
  [/^\/api\/v1\/(?:namespaces\/([^/]+)\/)?events$/, 'Event'],
];

function status(code: number, reason: string, message: string): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

async function startStub(objects: any[], opts: StubOptions = {}): Promise<Stub> {
  const requests: string[] = [];
  const defaultAuth = (req: any) => req.headers.authorization === 'Bearer t0ken'
    || (req.socket.authorized && req.socket.getPeerCertificate()?.subject?.CN === 'status-tester');
  const auth = opts.auth ?? defaultAuth;
  const server = https.createServer({
    key: read(opts.selfSigned ? 'selfsigned.key' : 'server.key'),
    cert: read(opts.selfSigned ? 'selfsigned.crt' : 'server.crt'),
    ca: read('ca.crt'),
    requestCert: true,
    rejectUnauthorized: false,
  }, (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? '/', 'https://stub');
    res.setHeader('Content-Type', 'application/json');
    if (req.method !== 'GET') return void res.writeHead(405).end(status(405, 'MethodNotAllowed', 'read-only stub'));
    if (!auth(req)) return void res.writeHead(401).end(status(401, 'Unauthorized', 'Unauthorized'));
    if (opts.forbidden?.includes(url.pathname)) {
      return void res.writeHead(403).end(status(403, 'Forbidden',
        'daemonsets.apps is forbidden: User "system:serviceaccount:default:viewer" cannot list resource "daemonsets" in API group "apps" in the namespace "observability"'));
    }
    const ns = /^\/api\/v1\/namespaces\/([^/]+)$/.exec(url.pathname);
    if (ns) {
      return objects.some((o) => o.metadata?.namespace === ns[1])
        ? void res.writeHead(200).end(JSON.stringify({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: ns[1] }, status: { phase: 'Active' } }))
        : void res.writeHead(404).end(status(404, 'NotFound', `namespaces "${ns[1]}" not found`));
    }
    for (const [re, kind] of ROUTES) {
      const m = re.exec(url.pathname);
      if (!m) continue;
      const all = objects.filter((o) => o.kind === kind && (m[1] === undefined || o.metadata?.namespace === m[1]));
      const size = opts.pageSize ?? Number(url.searchParams.get('limit') ?? all.length);
      const start = Number(url.searchParams.get('continue') ?? 0);
      const page = all.slice(start, start + size).map(({ apiVersion, kind: _kind, ...rest }) => rest);
      const next = start + size < all.length ? String(start + size) : undefined;
      const apiVersion = kind === 'DaemonSet' || kind === 'ControllerRevision' ? 'apps/v1' : 'v1';
      return void res.writeHead(200).end(JSON.stringify({ kind: `${kind}List`, apiVersion, metadata: { resourceVersion: '9000', ...(next ? { continue: next } : {}) }, items: page }));
    }
    res.writeHead(404).end(status(404, 'NotFound', 'the server could not find the requested resource'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

function kubeconfig(server: string, user: any, extra: { cluster?: any; namespace?: string; name?: string } = {}): any {
  const name = extra.name ?? 'kind-kind';
  return {
    'apiVersion': 'v1',
    'kind': 'Config',
    'current-context': name,
    'clusters': [{ name, cluster: { server, ...(extra.cluster ?? { 'certificate-authority-data': b64('ca.crt') }) } }],
    'users': [{ name, user }],
    'contexts': [{ name, context: { cluster: name, user: name, ...(extra.namespace ? { namespace: extra.namespace } : {}) } }],
    'preferences': {},
  };
}

let stub: Stub;
const savedEnv = { KUBECONFIG: process.env.KUBECONFIG, HOME: process.env.HOME };

beforeAll(async () => {
  stub = await startStub(scenarioObjects());
});
afterAll(async () => {
  await stub.close();
});
afterEach(() => {
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
});

/** the same command against a snapshot of the same objects. */
async function fromSnapshot(...args: string[]) {
  const t = tempFiles();
  const file = t.write('snapshot.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: scenarioObjects(), metadata: { resourceVersion: '' } }));
  return runCli('status', '--from', file, ...args);
}

describe('status live: same answer as the snapshot of the same cluster', () => {
  test('token + CA file (relative to the kubeconfig), namespace from the context; only GETs', async () => {
    const t = tempFiles();
    fs.copyFileSync(path.join(TLS, 'ca.crt'), path.join(t.dir, 'ca.crt'));
    const cfg = t.write('config', stringify(kubeconfig(stub.url, { token: 't0ken' }, { cluster: { 'certificate-authority': 'ca.crt' }, namespace: 'observability' })));
    stub.requests.length = 0;
    const live = await runCli('status', '--kubeconfig', cfg, '--json');
    expect(live.stderr).toBe('');
    expect(live).toEqual(await fromSnapshot('-n', 'observability', '--json'));
    expect(live.code).toBe(1);
    expect(stub.requests.every((r) => r.startsWith('GET '))).toBe(true);
    expect(stub.requests.map((r) => r.replace(/\?.*/, '')).sort()).toEqual([
      'GET /api/v1/namespaces/observability',
      'GET /api/v1/namespaces/observability/events',
      'GET /api/v1/namespaces/observability/pods',
      'GET /api/v1/nodes',
      'GET /apis/apps/v1/namespaces/observability/controllerrevisions',
      'GET /apis/apps/v1/namespaces/observability/daemonsets',
    ]);
  });

  test('client certificate and key as data, CA as data, -A; pages followed with continue', async () => {
    const paged = await startStub(scenarioObjects(), { pageSize: 2 });
    try {
      const t = tempFiles();
      const cfg = t.write('config', stringify(kubeconfig(paged.url, { 'client-certificate-data': b64('client.crt'), 'client-key-data': b64('client.key') })));
      const live = await runCli('status', '--kubeconfig', cfg, '-A', '--json');
      expect(live).toEqual(await fromSnapshot('-A', '--json'));
      expect(paged.requests).toContain('GET /api/v1/nodes?limit=500&continue=2');
      expect(paged.requests.some((r) => r.startsWith('GET /api/v1/namespaces/'))).toBe(false); // -A: no namespace to check
    } finally {
      await paged.close();
    }
  });

  test('client certificate and key as files, tokenFile, text output', async () => {
    const t = tempFiles();
    fs.copyFileSync(path.join(TLS, 'client.crt'), path.join(t.dir, 'client.crt'));
    fs.copyFileSync(path.join(TLS, 'client.key'), path.join(t.dir, 'client.key'));
    const certs = t.write('certs.yaml', stringify(kubeconfig(stub.url, { 'client-certificate': 'client.crt', 'client-key': path.join(t.dir, 'client.key') }, { namespace: 'kube-system' })));
    const live = await runCli('status', '--kubeconfig', certs);
    expect(live.code).toBe(0);
    expect(live.stdout).toContain(`context kind-kind (${stub.url}); 3 nodes`);
    expect(live.stdout.split('\n').slice(1)).toEqual((await fromSnapshot('-n', 'kube-system')).stdout.split('\n').slice(1));
    t.write('token', 't0ken\n');
    const tokenFile = t.write('token.yaml', stringify(kubeconfig(stub.url, { tokenFile: 'token' }, { namespace: 'kube-system' })));
    expect((await runCli('status', '--kubeconfig', tokenFile)).code).toBe(0);
  });

  test('exec credential plugin (client.authentication.k8s.io/v1): env from the kubeconfig, KUBERNETES_EXEC_INFO, relative command', async () => {
    const t = tempFiles();
    const plugin = t.write('get-token.js', `#!/usr/bin/env node
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
if (info.apiVersion !== 'client.authentication.k8s.io/v1' || info.kind !== 'ExecCredential' || info.spec.interactive !== false) process.exit(3);
if (!info.spec.cluster || info.spec.cluster.server !== process.argv[2]) { console.error('no cluster info'); process.exit(4); }
process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: process.env.STUB_TOKEN, expirationTimestamp: '2099-01-01T00:00:00Z' } }));
`);
    fs.chmodSync(plugin, 0o755);
    const exec = { apiVersion: 'client.authentication.k8s.io/v1', command: './get-token.js', args: [stub.url], env: [{ name: 'STUB_TOKEN', value: 't0ken' }], interactiveMode: 'Never', provideClusterInfo: true };
    const cfg = t.write('config', stringify(kubeconfig(stub.url, { exec }, { namespace: 'kube-system' })));
    const r = await runCli('status', '--kubeconfig', cfg, '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const bad = t.write('bad.yaml', stringify(kubeconfig(stub.url, { exec: { ...exec, env: [{ name: 'STUB_TOKEN', value: 'wrong' }] } }, { namespace: 'kube-system' })));
    expectOneErrorLine(await runCli('status', '--kubeconfig', bad), 2, /no access: GET \/api\/v1\/namespaces\/kube-system: 401 Unauthorized/);
    const failing = t.write('failing.yaml', stringify(kubeconfig(stub.url, { exec: { ...exec, args: ['elsewhere'], installHint: 'install get-token' } })));
    expectOneErrorLine(await runCli('status', '--kubeconfig', failing), 2, /exec plugin .*get-token\.js failed: no cluster info; install get-token/);
  });
});

describe('status live: kubeconfig selection as kubectl does it', () => {
  test('KUBECONFIG lists files: missing ones are ignored, the first to define a context or current-context wins', async () => {
    const t = tempFiles();
    const first = t.write('first.yaml', stringify(kubeconfig(stub.url, { token: 't0ken' }, { namespace: 'kube-system' })));
    const second = kubeconfig(stub.url, { token: 'wrong' }, { namespace: 'observability' });
    second['current-context'] = 'other';
    second.contexts.push({ name: 'other', context: { cluster: 'kind-kind', user: 'kind-kind', namespace: 'observability' } });
    const secondFile = t.write('second.yaml', stringify(second));
    process.env.KUBECONFIG = [path.join(t.dir, 'missing.yaml'), first, secondFile].join(path.delimiter);
    const r = await runCli('status', '--json');
    expect(r.code).toBe(0); // current-context kind-kind (first file), namespace kube-system, token t0ken (first file's user)
    expect(JSON.parse(r.stdout).daemonSets.map((d: any) => d.name)).toEqual(['kube-proxy']);
    const other = await runCli('status', '--context', 'other', '--json'); // defined only in the second file; its user is the first file's
    expect(JSON.parse(other.stdout).daemonSets.map((d: any) => d.name)).toEqual(['node-agent']);
    expect(other.code).toBe(1);
  });

  test('without KUBECONFIG: ~/.kube/config', async () => {
    const t = tempFiles();
    fs.mkdirSync(path.join(t.dir, '.kube'));
    fs.writeFileSync(path.join(t.dir, '.kube', 'config'), stringify(kubeconfig(stub.url, { token: 't0ken' }, { namespace: 'kube-system' })));
    delete process.env.KUBECONFIG;
    process.env.HOME = t.dir;
    expect((await runCli('status')).code).toBe(0);
  });

  test('insecure-skip-tls-verify against a self-signed server; without it the TLS error is one line', async () => {
    const selfSigned = await startStub(scenarioObjects(), { selfSigned: true });
    try {
      const t = tempFiles();
      const insecure = t.write('insecure.yaml', stringify(kubeconfig(selfSigned.url, { token: 't0ken' }, { cluster: { 'insecure-skip-tls-verify': true }, namespace: 'kube-system' })));
      expect((await runCli('status', '--kubeconfig', insecure)).code).toBe(0);
      const strict = t.write('strict.yaml', stringify(kubeconfig(selfSigned.url, { token: 't0ken' }, { namespace: 'kube-system' })));
      expectOneErrorLine(await runCli('status', '--kubeconfig', strict), 2, /^error: cannot reach the API server https:\/\/127\.0\.0\.1:\d+ \(context "kind-kind"\): .*self.signed certificate/);
    } finally {
      await selfSigned.close();
    }
  });

  test('tls-server-name is the name the certificate is checked against', async () => {
    const t = tempFiles();
    const ok = t.write('ok.yaml', stringify(kubeconfig(stub.url, { token: 't0ken' }, { cluster: { 'certificate-authority-data': b64('ca.crt'), 'tls-server-name': 'kubernetes.default.svc' }, namespace: 'kube-system' })));
    expect((await runCli('status', '--kubeconfig', ok)).code).toBe(0);
    const wrong = t.write('wrong.yaml', stringify(kubeconfig(stub.url, { token: 't0ken' }, { cluster: { 'certificate-authority-data': b64('ca.crt'), 'tls-server-name': 'api.example.com' }, namespace: 'kube-system' })));
    expectOneErrorLine(await runCli('status', '--kubeconfig', wrong), 2, /ERR_TLS_CERT_ALTNAME_INVALID|does not match certificate's altnames/);
  });
});

describe('status live: bad input exits 2 with one line', () => {
  test('no access: 403 with the API server\'s message', async () => {
    const denied = await startStub(scenarioObjects(), { forbidden: ['/apis/apps/v1/namespaces/observability/daemonsets'] });
    try {
      const cfg = tempFiles().write('config', stringify(kubeconfig(denied.url, { token: 't0ken' }, { namespace: 'observability' })));
      expectOneErrorLine(await runCli('status', '--kubeconfig', cfg), 2,
        /^error: no access: GET \/apis\/apps\/v1\/namespaces\/observability\/daemonsets\?limit=500: daemonsets\.apps is forbidden: User "system:serviceaccount:default:viewer" cannot list/);
    } finally {
      await denied.close();
    }
  });

  test('an unknown namespace, an unknown DaemonSet', async () => {
    const cfg = tempFiles().write('config', stringify(kubeconfig(stub.url, { token: 't0ken' })));
    expectOneErrorLine(await runCli('status', '--kubeconfig', cfg, '-n', 'observabilty'), 2, /^error: namespace observabilty not found \(context "kind-kind"\)\n$/);
    expectOneErrorLine(await runCli('status', '--kubeconfig', cfg, '-n', 'observability', 'fluent-bit'), 2, /DaemonSet fluent-bit not found in namespace observability/);
  });

  test('kubeconfig problems: missing file, unknown context, missing certificate file, unsupported auth-provider', async () => {
    const t = tempFiles();
    expectOneErrorLine(await runCli('status', '--kubeconfig', path.join(t.dir, 'nope')), 2, /kubeconfig .*nope: cannot read file: no such file/);
    const cfg = t.write('config', stringify(kubeconfig(stub.url, { token: 't0ken' })));
    expectOneErrorLine(await runCli('status', '--kubeconfig', cfg, '--context', 'prod'), 2, /context "prod" not found \(contexts: kind-kind\)/);
    const noCa = t.write('noca.yaml', stringify(kubeconfig(stub.url, { token: 't0ken' }, { cluster: { 'certificate-authority': 'missing-ca.crt' } })));
    expectOneErrorLine(await runCli('status', '--kubeconfig', noCa), 2, /certificate-authority .*missing-ca\.crt: cannot read file: no such file/);
    const gcp = t.write('gcp.yaml', stringify(kubeconfig(stub.url, { 'auth-provider': { name: 'gcp' } })));
    expectOneErrorLine(await runCli('status', '--kubeconfig', gcp), 2, /uses auth-provider, which this command does not support/);
    process.env.KUBECONFIG = path.join(t.dir, 'none.yaml');
    expectOneErrorLine(await runCli('status'), 2, /no kubeconfig found .*; pass --kubeconfig FILE, set KUBECONFIG, or use --from SNAPSHOT/);
  });

  test('an API server that is not there', async () => {
    const cfg = tempFiles().write('config', stringify(kubeconfig('https://127.0.0.1:1', { token: 't0ken' })));
    expectOneErrorLine(await runCli('status', '--kubeconfig', cfg), 2, /cannot reach the API server https:\/\/127\.0\.0\.1:1 .*ECONNREFUSED/);
  });
});
