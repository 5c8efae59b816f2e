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
//     helm itself built from its Go module (sources.json `renderers`).
//
// Registry: the Go module proxy, through `go mod download -json M@V` (the module lands in GOMODCACHE, which persists
// between a session and its CI, so a warm run downloads nothing). The module's go.sum hash (h1:) and every file's
// sha256 are verified; any mismatch, a missing `go`, or a version the registry does not serve is an error that
// names the source. Nothing is skipped silently.
//
// usage: node test/corpus/fetch.js [NAME...]     (no NAME: every source)
'use strict';
const { spawnSync } = require('child_process');
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

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, cwd: os.tmpdir(), ...opts });
  if (r.error) {
    if (r.error.code === 'ENOENT') fail(`\`${cmd}\` is not on PATH: the corpus (test/corpus/README.md) needs it`);
    throw r.error;
  }
  return r;
}

/** go mod download -json M@V: the extracted module directory, after checking the go.sum hash. */
const modules = new Map();
function goModule(entry, what) {
  const key = `${entry.module}@${entry.version}`;
  if (!modules.has(key)) {
    const env = { ...process.env, GOWORK: 'off' };
    if (entry.checksumDatabase === false) {
      // the checksum database has no record of this pseudo-version; the h1: hash below, recorded when it was
      // first downloaded, takes its place, and every file's sha256 is checked too.
      env.GONOSUMDB = [process.env.GONOSUMDB, entry.module].filter(Boolean).join(',');
    }
    const r = run('go', ['mod', 'download', '-json', key], { env });
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
  }
  return modules.get(key);
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

function ensureHelm(renderer) {
  const bin = path.join(OUT, 'bin');
  const helm = path.join(bin, 'helm');
  const stamp = path.join(bin, 'helm.source');
  const id = `${renderer.package}@${renderer.version} ${renderer.sum}`;
  goModule(renderer, 'renderer helm');
  if (fs.existsSync(helm) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === id) return helm;
  fs.mkdirSync(bin, { recursive: true });
  const r = run('go', ['install', `${renderer.package}@${renderer.version}`], {
    env: { ...process.env, GOWORK: 'off', GOBIN: bin },
  });
  if (r.status !== 0) fail(`renderer helm: \`go install ${renderer.package}@${renderer.version}\` failed: ${r.stderr.trim()}`);
  fs.writeFileSync(stamp, id);
  return helm;
}

function assemble(entry, renderers) {
  const what = `corpus source ${entry.name} (${entry.module}@${entry.version})`;
  if (entry.registry !== 'go') fail(`${what}: unknown registry ${entry.registry}`);
  const dir = goModule(entry, what);
  if (entry.helmChart) {
    const c = entry.helmChart;
    const chart = path.join(dir, c.path);
    const tree = treeSha256(chart);
    if (tree.sha256 !== c.treeSha256 || tree.files !== c.files) {
      fail(`${what}: chart ${c.path} has ${tree.files} files, tree sha256 ${tree.sha256}; sources.json records ${c.files}, ${c.treeSha256}`);
    }
    const helm = ensureHelm(renderers.helm);
    const home = path.join(OUT, 'helm-home');
    const env = { ...process.env, HELM_CACHE_HOME: home, HELM_CONFIG_HOME: home, HELM_DATA_HOME: home };
    const r = run(helm, ['template', c.release, chart, '--namespace', c.namespace, '--kube-version', c.kubeVersion], { env });
    if (r.status !== 0) fail(`${what}: helm template failed: ${r.stderr.trim()}`);
    return r.stdout;
  }
  let text = '';
  entry.files.forEach((f, i) => {
    const data = fs.readFileSync(path.join(dir, f.path));
    const got = sha256(data);
    if (got !== f.sha256) fail(`${what}: ${f.path} has sha256 ${got}, sources.json records ${f.sha256}`);
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

function main(argv) {
  const start = Date.now();
  const spec = JSON.parse(fs.readFileSync(path.join(HERE, 'sources.json'), 'utf8'));
  const names = new Set(spec.sources.map((s) => s.name));
  for (const a of argv) if (!names.has(a)) fail(`no corpus source named ${a} in test/corpus/sources.json`);
  const todo = argv.length ? spec.sources.filter((s) => argv.includes(s.name)) : spec.sources;
  fs.mkdirSync(OUT, { recursive: true });
  for (const entry of todo) {
    const text = assemble(entry, spec.renderers);
    const file = path.join(OUT, `${entry.name}.yaml`);
    fs.writeFileSync(`${file}.tmp`, text);
    fs.renameSync(`${file}.tmp`, file);
  }
  // other upstream test data, written as published (.corpus/fixtures/<name>.yaml), e.g. Kubernetes' bootstrap RBAC roles
  const fixtures = argv.length ? [] : spec.fixtures ?? [];
  fs.mkdirSync(path.join(OUT, 'fixtures'), { recursive: true });
  for (const entry of fixtures) {
    const file = path.join(OUT, 'fixtures', `${entry.name}.yaml`);
    fs.writeFileSync(`${file}.tmp`, assemble(entry, spec.renderers));
    fs.renameSync(`${file}.tmp`, file);
  }
  const secs = ((Date.now() - start) / 1000).toFixed(1);
  process.stdout.write(`corpus: ${todo.length} manifests and ${fixtures.length} fixtures written to .corpus/ from their registries in ${secs} s\n`);
}

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof CorpusError)) throw e;
    process.stderr.write(`corpus: ${e.message}\n`);
    process.exit(1);
  }
}

module.exports = { documents, dropKinds, treeSha256 };
