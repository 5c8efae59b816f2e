#!/usr/bin/env node
// Brings the real-manifest corpus into .corpus/ (gitignored) from the package registry that serves each upstream
// file, as test/corpus/sources.json records it. The repository holds no upstream bytes: only where to get them, the
// sha256 of every file and the assembly, which is this script's own code and nothing else:
//
//   - files: each file as published, several files of one install concatenated in the listed order with a '---' line
//     between them (and a newline added to a file that lacks a final one);
//   - dropKinds: whole documents of these kinds removed (CustomResourceDefinitions only: schemas, no workload, no
//     rights), the number removed checked against sources.json;
//   - helmChart: the chart as the project publishes it in its module, rendered with its defaults by `helm template`,
//     helm itself built from its Go module (sources.json `renderers`);
//   - kustomize: an overlay as the project publishes it, rendered by `kustomize build`, kustomize built from its Go
//     module the same way and cached beside helm;
//   - program: objects a project generates in code rather than publishes as a file (kubeadm's kube-proxy addon), printed
//     by the project's own code: a Go program of this repository (test/reference/<name>, which imports the module at
//     the recorded version and calls the function the project's own command runs), built with its go.mod/go.sum into
//     a cache outside the repository keyed by its files, as helm is; the module's source files that hold the templates
//     are sha256-checked like published files.
//
// Registry: the Go module proxy, through `go mod download -json M@V` (the module lands in GOMODCACHE, which persists
// between a session and its CI, so a warm run downloads nothing). The module's go.sum hash (h1:) and every file's
// sha256 are verified; any mismatch, a missing `go`, or a version the registry does not serve is an error that
// names the source. Nothing is skipped silently.
//
// Speed on a cold machine: the modules are downloaded by several `go mod download` processes at once (the module
// cache locks what they share), while helm is built beside them; helm's binary is cached outside the repository,
// keyed by its module version and go.sum hash (`$XDG_CACHE_HOME/cdk8s-node-agents/helm/`, as the control plane's
// binaries are), so a fresh clone on the same machine does not build it again. A line is printed as each module
// arrives, and every 10 s while anything is still under way.
//
// usage: node test/corpus/fetch.js [NAME...]     (no NAME: every source)
'use strict';
const { spawn, spawnSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const HERE = __dirname;
const ROOT = path.resolve(HERE, '..', '..');
const OUT = path.join(ROOT, '.corpus');

class CorpusError extends Error {}

function fail(message) {
  throw new CorpusError(message);
}

function sha256(data) {
  return crypto.createHash('sha256').update(data).digest('hex');
}

/** the processes runAsync started and that still run: stopped when the fetch fails. */
const children = new Set();

/** `cmd args` as a promise of { status, stdout, stderr }: several run at once. */
function runAsync(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: os.tmpdir(), ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    child.on('exit', () => children.delete(child));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', (e) => reject(e.code === 'ENOENT' ? new CorpusError(`\`${cmd}\` is not on PATH: the corpus (test/corpus/README.md) needs it`) : e));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, cwd: os.tmpdir(), ...opts });
  if (r.error) {
    if (r.error.code === 'ENOENT') fail(`\`${cmd}\` is not on PATH: the corpus (test/corpus/README.md) needs it`);
    throw r.error;
  }
  return r;
}

/** how many `go mod download` processes run at once: the downloads wait on the network more than on the CPU. */
const PARALLEL_DOWNLOADS = 6;

/** go mod download -json M@V: the extracted module directory, after checking the go.sum hash. */
const modules = new Map();
async function downloadModule(entry, what) {
  const key = `${entry.module}@${entry.version}`;
  const env = { ...process.env, GOWORK: 'off' };
  if (entry.checksumDatabase === false) {
    // the checksum database has no record of this pseudo-version; the h1: hash below, recorded when it was
    // first downloaded, takes its place, and every file's sha256 is checked too.
    env.GONOSUMDB = [process.env.GONOSUMDB, entry.module].filter(Boolean).join(',');
  }
  const r = await runAsync('go', ['mod', 'download', '-json', key], { env });
  let info;
  try {
    info = JSON.parse(r.stdout);
  } catch {
    fail(`${what}: \`go mod download -json ${key}\` failed: ${(r.stderr || r.stdout).trim()}`);
  }
  if (info.Error || r.status !== 0) {
    fail(`${what}: the Go module proxy does not serve ${key}: ${info.Error || r.stderr.trim()}`);
  }
  if (info.Sum !== entry.sum) fail(`${what}: ${key} has go.sum hash ${info.Sum}, sources.json records ${entry.sum}`);
  modules.set(key, info.Dir);
  return info;
}

/** the extracted directory of a module downloaded by downloadAll. */
function goModule(entry) {
  return modules.get(`${entry.module}@${entry.version}`);
}

/** downloads every module of `entries` (each once), PARALLEL_DOWNLOADS at a time, printing a line as each arrives. */
async function downloadAll(entries, progress) {
  const unique = new Map();
  for (const { entry, what } of entries) unique.set(`${entry.module}@${entry.version}`, { entry, what });
  const queue = [...unique.values()];
  let done = 0;
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const key = `${next.entry.module}@${next.entry.version}`;
      progress.active.add(key);
      const info = await downloadModule(next.entry, next.what);
      progress.active.delete(key);
      done++;
      const size = info.Zip && fs.existsSync(info.Zip) ? ` (${(fs.statSync(info.Zip).size / 1e6).toFixed(1)} MB)` : '';
      progress.line(`module ${done}/${unique.size}: ${key}${size}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_DOWNLOADS, queue.length) }, worker));
}

/** sha256 over the sorted list of "relative path NUL sha256 LF" of every file under dir. */
function treeSha256(dir) {
  const lines = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else lines.push(`${path.relative(dir, p).split(path.sep).join('/')}\0${sha256(fs.readFileSync(p))}\n`);
    }
  };
  walk(dir);
  lines.sort();
  return { sha256: sha256(lines.join('')), files: lines.length };
}

/** A YAML stream split into documents, each with the separator line that opens it (the first has none). */
function documents(text) {
  return text.split(/^(?=---[ \t]*(?:#.*)?$)/m);
}

/** Removes the documents whose top-level kind is one of kinds; returns the text and the count removed per kind. */
function dropKinds(text, kinds, what) {
  const removed = Object.fromEntries(kinds.map((k) => [k, 0]));
  const kept = [];
  for (const doc of documents(text)) {
    // a top-level key starts at column 0; nested `kind:` keys (schemas) are indented.
    const kind = /^kind:[ \t]*["']?([A-Za-z]+)["']?[ \t]*(?:#.*)?$/m.exec(doc);
    if (kind && kind[1] === 'List') fail(`${what}: a List document cannot be trimmed by kind`);
    if (kind && kinds.includes(kind[1])) removed[kind[1]]++;
    else kept.push(doc);
  }
  return { text: kept.join(''), removed };
}

/** where a renderer's binary (helm, kustomize) for this renderer entry is cached, outside the repository. */
function rendererCacheDir(name, renderer) {
  const root = (name === 'helm' ? process.env.CDK8S_NODE_AGENTS_HELM_CACHE : undefined)
    ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'cdk8s-node-agents', name);
  const key = crypto.createHash('sha256').update(`${renderer.package}@${renderer.version} ${renderer.sum}`).digest('hex').slice(0, 12);
  return path.join(root, `${renderer.version}-${key}`);
}

/** a renderer's binary: cached, or built now with `go install` (its module's go.sum hash checked first). */
async function ensureRenderer(name, renderer, progress) {
  if (!renderer) fail(`renderer ${name}: not in sources.json \`renderers\``);
  const dir = rendererCacheDir(name, renderer);
  const exe = path.join(dir, name);
  if (fs.existsSync(exe)) {
    progress.line(`${name} ${renderer.version}: cached in ${dir}`);
    return exe;
  }
  await downloadModule(renderer, `renderer ${name}`);
  progress.line(`${name} ${renderer.version}: building it with Go (cold caches: a few minutes on 2 cores), into ${dir}`);
  progress.active.add(`go install ${name} ${renderer.version}`);
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.mkdirSync(tmp, { recursive: true });
  const r = await runAsync('go', ['install', `${renderer.package}@${renderer.version}`], {
    env: { ...process.env, GOWORK: 'off', GOBIN: tmp },
  });
  progress.active.delete(`go install ${name} ${renderer.version}`);
  if (r.status !== 0) fail(`renderer ${name}: \`go install ${renderer.package}@${renderer.version}\` failed: ${r.stderr.trim()}`);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  try {
    fs.renameSync(tmp, dir);
  } catch (e) {
    // another run built it meanwhile: keep that one
    if (!fs.existsSync(exe)) throw e;
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  progress.line(`${name} ${renderer.version}: built`);
  return exe;
}

/** a program entry's binary: cached by the sha256 of its go.mod, go.sum and main.go, or built now with `go build`. */
async function ensureProgram(entry, progress) {
  const what = describe(entry);
  const src = path.join(ROOT, entry.program.path);
  const goMod = fs.readFileSync(path.join(src, 'go.mod'), 'utf8');
  // the program must import the very module version whose files are checked below
  if (!new RegExp(`^require ${entry.module.replace(/[.]/g, '\\.')} ${entry.version.replace(/[.]/g, '\\.')}$`, 'm').test(goMod)) {
    fail(`${what}: ${entry.program.path}/go.mod does not require ${entry.module} ${entry.version}`);
  }
  const hash = crypto.createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'main.go']) hash.update(fs.readFileSync(path.join(src, f)));
  hash.update(JSON.stringify(PROGRAM_BUILD_ARGS));
  const name = path.basename(src);
  const dir = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'cdk8s-node-agents', name, hash.digest('hex').slice(0, 12));
  const exe = path.join(dir, name);
  if (fs.existsSync(exe)) {
    progress.line(`${name}: cached in ${dir}`);
    return exe;
  }
  progress.line(`${name}: building ${entry.program.path} with Go (cold caches: a few minutes on 2 cores), into ${dir}`);
  progress.active.add(`go build ${name}`);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = `${exe}.${process.pid}.tmp`;
  const r = await runAsync('go', [...PROGRAM_BUILD_ARGS, tmp, '.'], { cwd: src, env: { ...process.env, GOWORK: 'off', CGO_ENABLED: '0' } });
  progress.active.delete(`go build ${name}`);
  if (r.status !== 0) fail(`${what}: \`go build\` in ${entry.program.path} failed: ${r.stderr.trim()}`);
  fs.renameSync(tmp, exe);
  progress.line(`${name}: built`);
  return exe;
}

const PROGRAM_BUILD_ARGS = ['build', '-mod=readonly', '-trimpath', '-o'];

/** the tree at dir must be the one sources.json records (file count and tree sha256). */
function checkTree(dir, rel, expected, what) {
  const tree = treeSha256(dir);
  if (tree.sha256 !== expected.treeSha256 || tree.files !== expected.files) {
    fail(`${what}: ${rel} has ${tree.files} files, tree sha256 ${tree.sha256}; sources.json records ${expected.files}, ${expected.treeSha256}`);
  }
}

function describe(entry) {
  return `corpus source ${entry.name} (${entry.module}@${entry.version})`;
}

/** every file of entry.files must have its recorded sha256 in the module directory. */
function checkFiles(entry, dir, what) {
  return entry.files.map((f) => {
    const data = fs.readFileSync(path.join(dir, f.path));
    const got = sha256(data);
    if (got !== f.sha256) fail(`${what}: ${f.path} has sha256 ${got}, sources.json records ${f.sha256}`);
    return data;
  });
}

function assemble(entry, renderers) {
  const what = describe(entry);
  const dir = goModule(entry);
  if (entry.helmChart) {
    const c = entry.helmChart;
    const chart = path.join(dir, c.path);
    checkTree(chart, `chart ${c.path}`, c, what);
    const home = path.join(OUT, 'helm-home');
    const env = { ...process.env, HELM_CACHE_HOME: home, HELM_CONFIG_HOME: home, HELM_DATA_HOME: home };
    const r = run(renderers.helm, ['template', c.release, chart, '--namespace', c.namespace, '--kube-version', c.kubeVersion], { env });
    if (r.status !== 0) fail(`${what}: helm template failed: ${r.stderr.trim()}`);
    return r.stdout;
  }
  if (entry.kustomize) {
    // the whole kustomize tree is checked, since an overlay reads its bases and components from sibling directories
    const k = entry.kustomize;
    const root = path.join(dir, k.root);
    checkTree(root, `kustomize tree ${k.root}`, k, what);
    const r = run(renderers.kustomize, ['build', path.join(root, k.path)]);
    if (r.status !== 0) fail(`${what}: kustomize build failed: ${r.stderr.trim()}`);
    return r.stdout;
  }
  if (entry.program) {
    checkFiles(entry, dir, what);
    const r = run(renderers.programs.get(entry.name), entry.program.args);
    if (r.status !== 0) fail(`${what}: ${entry.program.path} failed: ${r.stderr.trim()}`);
    return r.stdout;
  }
  let text = '';
  checkFiles(entry, dir, what).forEach((data, i) => {
    if (i > 0) text += '---\n';
    const s = data.toString('utf8');
    text += s.endsWith('\n') || s === '' ? s : `${s}\n`;
  });
  if (entry.dropKinds) {
    const kinds = Object.keys(entry.dropKinds);
    const d = dropKinds(text, kinds, what);
    for (const k of kinds) {
      if (d.removed[k] !== entry.dropKinds[k]) fail(`${what}: ${d.removed[k]} ${k} documents found, sources.json records ${entry.dropKinds[k]}`);
    }
    text = d.text;
  }
  return text;
}

/** one line per event, and every 10 s a line naming what is still under way. */
function progressReporter(start) {
  const active = new Set();
  const seconds = () => ((Date.now() - start) / 1000).toFixed(0);
  const line = (text) => process.stdout.write(`corpus: ${text} [${seconds()} s]\n`);
  const timer = setInterval(() => {
    if (active.size > 0) line(`still under way: ${[...active].join(', ')}`);
  }, 10000);
  return { active, line, stop: () => clearInterval(timer) };
}

/** go on PATH, or a message saying what it is for and how to get it. */
function checkGo() {
  const r = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (r.error?.code === 'ENOENT') {
    fail('`go` is not on PATH: the corpus is fetched from the Go module proxy and helm is built with Go ' +
      '(Go 1.26 or later, which helm v3.22 needs; a Go from 1.21 on fetches that toolchain itself): install it from https://go.dev/dl/ ' +
      'or with your package manager (e.g. apt-get install golang-go), then run the build again');
  }
  if (r.status !== 0) fail(`\`go version\` failed: ${(r.stderr || r.stdout).trim()}`);
  return r.stdout.trim();
}

async function main(argv) {
  const start = Date.now();
  const spec = JSON.parse(fs.readFileSync(path.join(HERE, 'sources.json'), 'utf8'));
  const names = new Set(spec.sources.map((s) => s.name));
  for (const a of argv) if (!names.has(a)) fail(`no corpus source named ${a} in test/corpus/sources.json`);
  const todo = argv.length ? spec.sources.filter((s) => argv.includes(s.name)) : spec.sources;
  // other upstream test data, written as published (.corpus/fixtures/<name>.yaml), e.g. Kubernetes' bootstrap RBAC roles
  const fixtures = argv.length ? [] : spec.fixtures ?? [];
  for (const entry of [...todo, ...fixtures]) if (entry.registry !== 'go') fail(`${describe(entry)}: unknown registry ${entry.registry}`);
  const go = checkGo();
  const progress = progressReporter(start);
  progress.line(`${todo.length} manifests and ${fixtures.length} fixtures from the Go module proxy, with ${go}`);
  try {
    // the renderers are the long pole on a cold machine: they build while the modules download
    const helm = todo.some((e) => e.helmChart) ? ensureRenderer('helm', spec.renderers.helm, progress) : Promise.resolve(undefined);
    const kustomize = todo.some((e) => e.kustomize) ? ensureRenderer('kustomize', spec.renderers.kustomize, progress) : Promise.resolve(undefined);
    const programs = todo.filter((e) => e.program).map((e) => ensureProgram(e, progress).then((exe) => [e.name, exe]));
    await Promise.all([downloadAll([...todo, ...fixtures].map((entry) => ({ entry, what: describe(entry) })), progress), helm, kustomize, ...programs]);
    const renderers = { helm: await helm, kustomize: await kustomize, programs: new Map(await Promise.all(programs)) };
    fs.mkdirSync(path.join(OUT, 'fixtures'), { recursive: true });
    for (const entry of todo) write(path.join(OUT, `${entry.name}.yaml`), assemble(entry, renderers));
    for (const entry of fixtures) write(path.join(OUT, 'fixtures', `${entry.name}.yaml`), assemble(entry, renderers));
  } finally {
    progress.stop();
  }
  const secs = ((Date.now() - start) / 1000).toFixed(1);
  process.stdout.write(`corpus: ${todo.length} manifests and ${fixtures.length} fixtures written to .corpus/ from their registries in ${secs} s\n`);
}

function write(file, text) {
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e) => {
    for (const child of children) child.kill();
    if (!(e instanceof CorpusError)) throw e;
    process.stderr.write(`corpus: ${e.message}\n`);
    process.exit(1);
  });
}

module.exports = { documents, dropKinds, treeSha256 };
