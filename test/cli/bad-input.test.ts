// Every malformed input, fed to every command that reads files (coverage's manifests and --nodes, review, status
// --from): exit 2, one `error:` line of at most MAX_LINE characters naming the file, the document and the field;
// never a stack trace, never "unexpected failure", never exit 0 on an object the API server would reject.
import * as path from 'path';
import { stringify } from 'yaml';
import { CliResult, runCli, tempFiles } from './run-cli';
import { scenarioList } from './status-scenario';
import { MAX_ERROR_LINES, MAX_LINE } from '../../src/cli/_command';
import { MAX_DEPTH } from '../../src/model/_manifest-reader';

// ---------- fixtures ----------

function nodeObj(name: string, spec: any = {}): any {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } }, spec };
}

function container(extra: any = {}): any {
  return { name: 'agent', image: 'registry.example.com/node-agent:1.2.0', ...extra };
}

function dsObj(name: string, podSpec: any = {}, spec: any = {}): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'observability' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [container()], ...podSpec } },
      ...spec,
    },
  };
}

function yamlStream(...objects: any[]): string {
  return objects.map((o) => stringify(o)).join('---\n');
}

/** deterministic pseudo-random bytes (a linear congruential generator), so that the garbage is the same on every run. */
function garbage(length: number, seed: number = 12): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    bytes[i] = Math.floor(x / 8388608) % 256;
  }
  return bytes;
}

type Run = (file: string) => Promise<CliResult>;

/** each command, given one input file; the other inputs (nodes, manifests) are valid. */
function commands(): Array<[string, Run]> {
  const t = tempFiles();
  const nodes = t.write('nodes.yaml', yamlStream(nodeObj('a'), nodeObj('b')));
  const app = t.write('app.yaml', stringify(dsObj('agent')));
  return [
    ['coverage FILE', (file) => runCli('coverage', '--nodes', nodes, file)],
    ['coverage --nodes', (file) => runCli('coverage', '--nodes', file, app)],
    ['review', (file) => runCli('review', file)],
    ['status --from', (file) => runCli('status', '--from', file)],
  ];
}

/** exit 2, nothing on stdout, exactly one `error:` line, short, without a stack trace, matching `pattern`. */
function expectOneInputError(r: CliResult, pattern: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^error: [^\n]*\n$/);
  expect(r.stderr.length).toBeLessThanOrEqual(MAX_LINE + 1);
  expect(r.stderr).not.toMatch(/unexpected failure|\n\s+at /);
  expect(r.stderr).toMatch(pattern);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------- files that cannot be read as Kubernetes objects ----------

describe('a file that cannot be read as Kubernetes objects: every command exits 2 with one line naming it', () => {
  const t = tempFiles();
  const lol = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    .concat('bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)).join('\n') + '\n';
  const cases: Array<[string, string, RegExp]> = [
    ['a missing file', path.join(t.dir, 'missing.yaml'), /missing\.yaml: cannot read file: no such file\n$/],
    ['a directory', t.dir, /: cannot read file: is a directory, not a file\n$/],
    ['a path through a file', path.join(t.write('file.yaml', 'x'), 'inside.yaml'), /inside\.yaml: cannot read file: a part of the path is not a directory\n$/],
    ['an empty file', t.write('empty.yaml', ''), /empty\.yaml: no Kubernetes objects: the file is empty; /],
    ['a file of blank lines', t.write('blank.yaml', '\n  \n\n'), /blank\.yaml: no Kubernetes objects: the file is empty; /],
    ['only comments and empty documents', t.write('comments.yaml', '# nothing\n---\n---\n# here\n'), /comments\.yaml: no Kubernetes objects: the file has only comments and empty documents; /],
    ['invalid YAML', t.write('bad.yaml', 'kind: Node\nmetadata: {name: a\n'), /bad\.yaml:\d+:\d+: document 1: invalid YAML: /],
    ['prose', t.write('README.md', 'Install the agent first.\n'), /README\.md:1: document 1: expected a Kubernetes object \(a mapping with apiVersion and kind\), got "Install the agent first\."\n$/],
    ['a binary file (300,000 random bytes)', t.write('garbage.bin', garbage(300_000) as any), /garbage\.bin: not a YAML or JSON text file: it is not UTF-8 text \(the byte at offset \d+ of 300000 is 0x[0-9a-f]{2}\); /],
    ['a NUL byte in a text file', t.write('nul.yaml', 'apiVersion: v1\nkind: Node\nmetadata: {name: "a\u0000b"}\n'), /nul\.yaml:3:20: not a YAML or JSON text file: control character U\+0000 /],
    ['a "billion laughs" alias bomb', t.write('lol.yaml', lol), /lol\.yaml:1:1: document 1: document contains excessive aliasing \(as in a "billion laughs" alias bomb; kubectl refuses it too\); /],
    ['an alias that contains itself', t.write('cycle.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: &d {self: *d}\n'), /cycle\.yaml:4:17: document 1: anchor 'd' value contains itself, a cycle /],
    ['10,000 nested flow lists', t.write('deep-seq.yaml', '['.repeat(10_000) + ']'.repeat(10_000)), new RegExp(`deep-seq\\.yaml:1:${MAX_DEPTH + 1}: document 1: nested deeper than ${MAX_DEPTH} levels of lists and mappings`)],
    ['10,000 nested JSON objects', t.write('deep.json', '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)), /deep\.json:1:\d+: document 1: nested deeper than 200 levels/],
    // indented block mappings take a line per level and i spaces on line i: 1,000 levels are half a million characters
    ['1,000 nested block mappings', t.write('deep-map.yaml', Array.from({ length: 1_000 }, (_, i) => `${' '.repeat(i)}a:\n`).join('')), /deep-map\.yaml:201:201: document 1: nested deeper than 200 levels/],
    ['10,000 nested block lists', t.write('deep-dash.yaml', '- '.repeat(10_000) + 'x\n'), /deep-dash\.yaml:1:\d+: document 1: nested deeper than 200 levels/],
    ['nesting built by an alias', t.write('alias-deep.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\na: &a ${'['.repeat(150)}1${']'.repeat(150)}\nb: ${'['.repeat(150)}*a${']'.repeat(150)}\n`),
      /alias-deep\.yaml:1:1: document 1: nested deeper than 200 levels of lists and mappings once its aliases are expanded/],
    ['a mapping key that is a list', t.write('key.yaml', 'apiVersion: v1\nkind: Node\nmetadata: {name: a}\n? [x, y]\n: 1\n'), /key\.yaml:4:3: document 1: a mapping key is a list or mapping; /],
  ];

  test.each(cases)('%s', async (_, file, pattern) => {
    for (const [name, run] of commands()) {
      const r = await run(file);
      try {
        expectOneInputError(r, new RegExp(`^error: ${escape(file)}`));
        expectOneInputError(r, pattern);
      } catch (e: any) {
        throw new Error(`${name}: ${e.message}`);
      }
    }
  });

  test('a file that cannot be read (permission denied) says so', async () => {
    const fs = jest.requireActual('fs');
    const file = t.write('secret.yaml', stringify(nodeObj('a')));
    const real = fs.openSync;
    const spy = jest.spyOn(fs, 'openSync').mockImplementation((...args: any[]) => {
      if (args[0] === file) throw Object.assign(new Error(`EACCES: permission denied, open '${file}'`), { code: 'EACCES' });
      return real(...args);
    });
    try {
      for (const [, run] of commands()) expectOneInputError(await run(file), new RegExp(`^error: ${escape(file)}: cannot read file: permission denied\n$`));
    } finally {
      spy.mockRestore();
    }
  });

  test('300,000 characters of text on one line are not echoed: the value is shortened', async () => {
    const text = garbage(300_000).toString('base64');
    const file = t.write('long.txt', text);
    for (const [, run] of commands()) {
      const r = await run(file);
      expectOneInputError(r, /long\.txt:1: document 1: expected a Kubernetes object \(a mapping with apiVersion and kind\), got "[A-Za-z0-9+/]{70,80}\.\.\.\n$/);
    }
  });

  test('a control character in a file name or a value is escaped, never printed', async () => {
    const file = t.write('new\nline\u001b[31m.yaml', '');
    const r = await runCli('review', file);
    expectOneInputError(r, /new\\nline\\u001b\[31m\.yaml: no Kubernetes objects/);
  });

  test('a UTF-16 file with its BOM (Windows PowerShell\'s >) is read', async () => {
    const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const nodes = t.write('nodes-utf16.yaml', utf16(yamlStream(nodeObj('a'), nodeObj('b'))) as any);
    const app = t.write('app-utf16.yaml', utf16(stringify(dsObj('agent'))) as any);
    const r = await runCli('coverage', '--json', '--nodes', nodes, app);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).daemonSets[0].desired).toBe(2);
    // a UTF-16 file broken in the middle is not text either
    const broken = t.write('broken-utf16.yaml', Buffer.concat([utf16('kind: Node\n'), Buffer.from([0x00, 0xd8])]) as any);
    expectOneInputError(await runCli('review', broken), /broken-utf16\.yaml: not a YAML or JSON text file: it is not UTF-16LE text; /);
  });

  test('the items of a typed list without apiVersion and kind (an API list response) take them from the list', async () => {
    const items = [nodeObj('a'), nodeObj('b')].map(({ apiVersion, kind, ...rest }) => rest);
    const nodes = t.write('nodelist.json', JSON.stringify({ apiVersion: 'v1', kind: 'NodeList', metadata: {}, items }));
    const r = await runCli('coverage', '--json', '--nodes', nodes, t.write('app.yaml', stringify(dsObj('agent'))));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).nodeCount).toBe(2);
    // in a plain List, kind is required of every item: kubectl gives items without either apiVersion v1 and kind ''
    const plain = t.write('list.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    expect((await runCli('review', plain)).stderr).toMatch(/^error: [^\n]*list\.json:1: document 1, items\[0\] \(name a\): kind is missing: [^\n]*\nerror: [^\n]*items\[1\] \(name b\): kind is missing/);
  });
});

// ---------- documents that are not Kubernetes objects ----------

describe('a document that is not a Kubernetes object (the API server rejects it): exit 2, naming the document', () => {
  const t = tempFiles();
  const cases: Array<[string, any, RegExp]> = [
    ['no kind', { apiVersion: 'apps/v1', metadata: { name: 'x' } }, /document 2 \(name x\): kind is missing: every Kubernetes object needs apiVersion and kind, e\.g\. apiVersion: apps\/v1 and kind: DaemonSet\n$/],
    ['Kind instead of kind', { apiVersion: 'apps/v1', Kind: 'DaemonSet', metadata: { name: 'x' } }, /document 2 \(name x\): kind is missing \(found "Kind": field names are case-sensitive\): /],
    ['no apiVersion', { kind: 'DaemonSet', metadata: { name: 'x' } }, /document 2 \(DaemonSet x\): apiVersion is missing: /],
    ['a kind that is a number', { apiVersion: 'v1', kind: 5, metadata: { name: 'x' } }, /document 2 \(name x\): kind must be a string, got 5: /],
    ['no metadata', { apiVersion: 'v1', kind: 'ConfigMap' }, /document 2 \(ConfigMap\): metadata is missing: every Kubernetes object needs metadata\.name\n$/],
    ['metadata that is a string', { apiVersion: 'v1', kind: 'ConfigMap', metadata: 'x' }, /document 2 \(ConfigMap\): metadata must be a mapping, got "x": /],
    ['no name', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'a' } }, /document 2 \(ConfigMap\): metadata\.name is missing: /],
    ['a name that is a number', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 42 } }, /document 2 \(ConfigMap\): metadata\.name must be a string, got 42: quote it \("42"\)\n$/],
    ['a label value that is a boolean', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { enabled: true } } },
      /document 2 \(ConfigMap x\): metadata\.labels\.enabled must be a string, got true: quote it \("true"\); YAML reads an unquoted true as a boolean\n$/],
    ['annotations that are a list', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', annotations: ['a'] } }, /document 2 \(ConfigMap x\): metadata\.annotations must be a mapping of strings, got \["a"\]\n$/],
  ];

  test.each(cases)('%s', async (_, object, pattern) => {
    const prefix = stringify(nodeObj('first'));
    const file = t.write('doc.yaml', `${prefix}---\n${stringify(object)}`);
    const line = prefix.split('\n').length; // the second document starts after the first and its ---
    for (const [name, run] of commands()) {
      try {
        expectOneInputError(await run(file), new RegExp(`^error: ${escape(file)}:${line + 1}: ${pattern.source}`));
      } catch (e: any) {
        throw new Error(`${name}: ${e.message}`);
      }
    }
  });

  test('one line per invalid document, in order, each naming its document; at most 20 lines', async () => {
    const file = t.write('many.yaml', yamlStream(nodeObj('ok'), { apiVersion: 'v1', metadata: { name: 'a' } }, nodeObj('ok2'), 'just text', { kind: 'Node', metadata: { name: 'b' } }));
    const r = await runCli('review', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').filter(Boolean).map((l) => /^(error: \S+:\d+: document \d+(?: \([^)]*\))?): /.exec(l.replace(`${file}:`, 'F:'))?.[1])).toEqual([
      expect.stringMatching(/^error: F:\d+: document 2 \(name a\)$/),
      expect.stringMatching(/^error: F:\d+: document 4$/),
      expect.stringMatching(/^error: F:\d+: document 5 \(Node b\)$/),
    ]);
    const many = t.write('many-more.yaml', yamlStream(...Array.from({ length: 30 }, (_, i) => ({ apiVersion: 'v1', metadata: { name: `n${i}` } }))));
    const lines = (await runCli('review', many)).stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(MAX_ERROR_LINES);
    expect(lines[MAX_ERROR_LINES - 1]).toBe('error: 11 more problems not shown; fix the ones above and run again');
  });

  test('a problem in each of two files: one line each, both reported in one run', async () => {
    const a = t.write('a.yaml', '');
    const b = t.write('b.yaml', stringify({ apiVersion: 'v1', metadata: { name: 'x' } }));
    const r = await runCli('coverage', '--nodes', a, b);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: ${escape(a)}: no Kubernetes objects: the file is empty; [^\n]*\nerror: ${escape(b)}:1: document 1 \\(name x\\): kind is missing: [^\n]*\n$`));
  });
});

// ---------- Kubernetes objects whose fields have the wrong shape ----------

describe('an object whose fields have the wrong shape, or that the API server rejects: exit 2, one line per object', () => {
  const t = tempFiles();
  const nodesFile = t.write('nodes.yaml', yamlStream(nodeObj('a'), nodeObj('b')));

  const cases: Array<[string, any, RegExp]> = [
    ['a DaemonSet without spec.template', { ...dsObj('x'), spec: { selector: { matchLabels: { app: 'x' } } } },
      /\(DaemonSet observability\/x\): spec\.template is missing: set the pod template every node runs \(the API server requires it\)\n$/],
    ['containers: "oops"', dsObj('x', { containers: 'oops' }), /\(DaemonSet observability\/x\): spec\.template\.spec\.containers must be a list, got "oops": write it as a YAML\/JSON list\n$/],
    ['a container that is a string', dsObj('x', { containers: ['agent'] }), /\(DaemonSet observability\/x\): spec\.template\.spec\.containers\[0\] must be an object \(a Container\), got "agent"/],
    ['volumes: 5', dsObj('x', { volumes: 5 }), /\(DaemonSet observability\/x\): spec\.template\.spec\.volumes must be a list, got 5/],
    ['securityContext: "privileged"', dsObj('x', { containers: [container({ securityContext: 'privileged' })] }), /spec\.template\.spec\.containers\[0\]\.securityContext must be an object \(a SecurityContext\), got "privileged"/],
    ['tolerations: "oops"', dsObj('x', { tolerations: 'oops' }), /\(DaemonSet observability\/x\): spec\.template\.spec\.tolerations must be a list, got "oops": write it as a YAML\/JSON list\n$/],
    ['nodeSelector: "oops"', dsObj('x', { nodeSelector: 'oops' }), /spec\.template\.spec\.nodeSelector must be an object \(of string values\), got "oops"/],
    ['a nodeSelector value that is a boolean', dsObj('x', { nodeSelector: { gpu: true } }), /spec\.template\.spec\.nodeSelector\.gpu must be a string, got true: quote it \("true"\)/],
    ['updateStrategy: "oops"', dsObj('x', {}, { updateStrategy: 'oops' }), /\(DaemonSet observability\/x\): spec\.updateStrategy must be an object \(a DaemonSetUpdateStrategy\), got "oops"/],
    ['an update strategy the API server rejects', dsObj('x', {}, { updateStrategy: { rollingUpdate: { maxSurge: 1 } } }), /maxSurge 1 may not be set when maxUnavailable is non-zero/],
    ['a host port bound twice', dsObj('x', { containers: [container({ ports: [{ containerPort: 80, hostPort: 80 }] }), container({ name: 'b', ports: [{ containerPort: 81, hostPort: 80 }] })] }),
      /\(DaemonSet observability\/x\): NA-API-REJECTED: container "b": host port 80\/TCP is also bound by container "agent"/],
    ['hostPort other than containerPort on the host network', dsObj('x', { hostNetwork: true, containers: [container({ ports: [{ containerPort: 80, hostPort: 8080 }] })] }),
      /NA-API-REJECTED: container "agent": port 80: on the host network hostPort \(8080\) must equal containerPort \(80\)/],
    ['Bidirectional propagation without privileged', dsObj('x', {
      containers: [container({ volumeMounts: [{ name: 'k', mountPath: '/k', mountPropagation: 'Bidirectional' }] })],
      volumes: [{ name: 'k', hostPath: { path: '/var/lib/kubelet' } }],
    }), /NA-API-REJECTED: container "agent": mounts \/var\/lib\/kubelet with Bidirectional propagation/],
    ['privileged with allowPrivilegeEscalation: false', dsObj('x', { containers: [container({ securityContext: { privileged: true, allowPrivilegeEscalation: false } })] }),
      /NA-API-REJECTED: container "agent": sets privileged: true beside allowPrivilegeEscalation: false/],
    ['resources.requests: true', dsObj('x', { containers: [container({ resources: { requests: true } })] }),
      /\(DaemonSet observability\/x\): spec\.template\.spec\.containers\[0\]\.resources\.requests must be an object \(of quantities such as "100m"\), got true/],
    // the issue's cases: values the API server cannot decode are refused, never read as something else
    ['privileged: "true"', dsObj('x', { containers: [container({ securityContext: { privileged: 'true' } })] }),
      /spec\.template\.spec\.containers\[0\]\.securityContext\.privileged must be a boolean, got "true": write true without quotes/],
    ['containerPort: "9100"', dsObj('x', { containers: [container({ ports: [{ containerPort: '9100' }] })] }),
      /spec\.template\.spec\.containers\[0\]\.ports\[0\]\.containerPort must be an integer \(32 bits\), got "9100": write 9100 without quotes/],
    ['tolerationSeconds: "5"', dsObj('x', { tolerations: [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: '5' }] }),
      /spec\.template\.spec\.tolerations\[0\]\.tolerationSeconds must be an integer, got "5"/],
    ['a container name that is a mapping', dsObj('x', { containers: [container({ name: { agent: true } })] }),
      /spec\.template\.spec\.containers\[0\]\.name must be a string, got \{"agent":true\}/],
    ['capabilities.add: [1, null]', dsObj('x', { containers: [container({ securityContext: { capabilities: { add: [1, null] } } })] }),
      /spec\.template\.spec\.containers\[0\]\.securityContext\.capabilities\.add\[0\] must be a string, got 1: quote it \("1"\)/],
    ['a Deployment with containers: "oops"', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { containers: 'oops' } } } },
      /\(Deployment d\): spec\.template\.spec\.containers must be a list, got "oops": write it as a YAML\/JSON list\n$/],
  ];

  test.each(cases)('%s: coverage prints nothing, review prints its report; both exit 2 with one line', async (_, object, pattern) => {
    const file = t.write('app.yaml', yamlStream(dsObj('fine'), object));
    const where = new RegExp(`^error: ${escape(file)}:\\d+: document 2 `);
    const coverage = await runCli('coverage', '--nodes', nodesFile, file);
    expectOneInputError(coverage, where);
    expectOneInputError(coverage, pattern);
    const review = await runCli('review', '--json', file);
    expect(review.code).toBe(2);
    expect(review.stderr).toMatch(/^error: [^\n]*\n$/);
    expect(review.stderr).toMatch(where);
    expect(review.stderr).toMatch(pattern);
    expect(review.stderr.length).toBeLessThanOrEqual(MAX_LINE + 1);
    // the report covers every workload, the valid one too
    expect(JSON.parse(review.stdout).workloads.map((w: any) => w.name)).toEqual(['fine', object.metadata.name]);
  });

  test('exit 2 wins over --fail-on in review', async () => {
    const file = t.write('app.yaml', stringify(dsObj('x', { volumes: 5 })));
    expect((await runCli('review', '--fail-on', 'critical', file)).code).toBe(2);
  });

  test.each([
    ['taints: "oops"', { taints: 'oops' }, /\(Node bad\): spec\.taints must be a list, got "oops": write it as a YAML\/JSON list\n$/],
    ['a taint that is a string', { taints: ['gpu=true:NoSchedule'] }, /\(Node bad\): spec\.taints\[0\] must be an object \(a Taint\), got "gpu=true:NoSchedule"/],
    ['spec: 5', 5, /\(Node bad\): spec must be an object \(a NodeSpec\), got 5/],
  ])('a Node with %s: coverage exits 2 naming the node (it would have read as untainted)', async (_, spec, pattern) => {
    const nodes = t.write('bad-nodes.yaml', yamlStream(nodeObj('good'), nodeObj('bad', spec)));
    const r = await runCli('coverage', '--nodes', nodes, t.write('app.yaml', stringify(dsObj('x'))));
    expectOneInputError(r, new RegExp(`^error: ${escape(nodes)}:\\d+: document 2 `));
    expectOneInputError(r, pattern);
  });

  test('several invalid objects: one line each, in file order', async () => {
    const file = t.write('app.yaml', yamlStream(dsObj('a', { tolerations: 'x' }), dsObj('ok'), dsObj('b', { volumes: 5 }), { ...dsObj('c'), spec: {} }));
    const r = await runCli('coverage', '--nodes', nodesFile, file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').filter(Boolean).map((l) => /document (\d) \(DaemonSet observability\/(\w)\)/.exec(l)?.slice(1).join(':'))).toEqual(['1:a', '3:b', '4:c']);
  });
});

describe('status --from: the same rules for the snapshot', () => {
  const t = tempFiles();

  function snapshotWith(change: (objects: any[]) => void): string {
    const snapshot = scenarioList();
    change(snapshot.items);
    return t.write('snapshot.json', JSON.stringify(snapshot, null, 2));
  }

  test('a DaemonSet without spec.template', async () => {
    const file = snapshotWith((items) => delete items.find((o) => o.kind === 'DaemonSet').spec.template);
    expectOneInputError(await runCli('status', '--from', file),
      new RegExp(`^error: ${escape(file)}:\\d+: document 1, items\\[\\d+\\] \\(DaemonSet observability/node-agent\\): spec\\.template is missing: `));
  });

  test('a Node with taints: "oops"', async () => {
    const file = snapshotWith((items) => { items.find((o) => o.kind === 'Node').spec.taints = 'oops'; });
    expectOneInputError(await runCli('status', '--from', file), /document 1, items\[0\] \(Node kind-control-plane\): spec\.taints must be a list, got "oops"/);
  });

  test('a DaemonSet with tolerations: "oops"', async () => {
    const file = snapshotWith((items) => { items.find((o) => o.kind === 'DaemonSet').spec.template.spec.tolerations = 'oops'; });
    expectOneInputError(await runCli('status', '--from', file), /\(DaemonSet observability\/node-agent\): spec\.template\.spec\.tolerations must be a list/);
  });

  test('a Pod whose restartCount is a string (the API server cannot decode it)', async () => {
    const file = snapshotWith((items) => { items.find((o) => o.kind === 'Pod').status.containerStatuses[0].restartCount = '2'; });
    expectOneInputError(await runCli('status', '--from', file),
      /\(Pod [^)]+\): status\.containerStatuses\[0\]\.restartCount must be an integer \(32 bits\), got "2": write 2 without quotes/);
  });

  test('an object without kind', async () => {
    const file = snapshotWith((items) => { delete items.find((o) => o.kind === 'Pod').kind; });
    expectOneInputError(await runCli('status', '--from', file), /document 1, items\[\d+\] \(name [^)]+\): kind is missing: /);
  });
});

describe('--help documents the exit status for bad input', () => {
  test.each(['coverage', 'review', 'status'])('%s', async (command) => {
    const help = (await runCli(command, '--help')).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('2 for bad input, with');
    expect(help).toContain("one 'error:' line per");
    for (const word of ['unreadable, empty, not UTF-8', 'an alias bomb', 'nested deeper than 200 levels', 'a document without apiVersion, kind or metadata.name', 'wrong type']) {
      expect(help).toContain(word);
    }
  });

  test('review says the report is still printed, and that exit 2 wins over --fail-on', async () => {
    const help = (await runCli('review', '--help')).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('The report is printed first');
    expect(help).toContain('Exit 2 wins over --fail-on');
    expect((await runCli('coverage', '--help')).stdout.replace(/\s+/g, ' ')).toContain('with nothing on stdout');
  });
});
