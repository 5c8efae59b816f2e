// Shared by cluster/up.js and cluster/down.js: where things live, the pinned version, the binaries and the
// processes of the local control plane. Node's standard library only (the scripts run before `npm ci` matters).
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const https = require('node:https');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const CLUSTER_DIR = __dirname;
const ROOT = path.resolve(CLUSTER_DIR, '..');
/** runtime state: etcd data, certificates, tokens, kubeconfigs, logs, pids. Gitignored; wiped on every fresh start. */
const STATE_DIR = path.join(ROOT, '.cluster');
const STATE_FILE = path.join(STATE_DIR, 'state.json');
const KUBECONFIG = path.join(STATE_DIR, 'kubeconfig');
const GO_MOD = path.join(CLUSTER_DIR, 'go.mod');
const GO_SUM = path.join(CLUSTER_DIR, 'go.sum');

/** what is built, and the name each binary gets (etcd's main package is its module root, which Go names "server"). */
const PACKAGES = [
  { pkg: 'go.etcd.io/etcd/server/v3', goName: 'server', name: 'etcd' },
  { pkg: 'k8s.io/kubernetes/cmd/kube-apiserver', goName: 'kube-apiserver', name: 'kube-apiserver' },
  { pkg: 'k8s.io/kubernetes/cmd/kube-controller-manager', goName: 'kube-controller-manager', name: 'kube-controller-manager' },
  { pkg: 'k8s.io/kubernetes/cmd/kube-scheduler', goName: 'kube-scheduler', name: 'kube-scheduler' },
  { pkg: 'k8s.io/kubernetes/cmd/kubelet', goName: 'kubelet', name: 'kubelet' },
];

class ClusterError extends Error {}

/**
 * The Kubernetes version pinned in cluster/go.mod, checked: `require k8s.io/kubernetes v1.Y.Z` and one replace per
 * staging module at v0.Y.Z. A replace at another version would build a binary mixing two releases, so it is an error.
 */
function readPin() {
  const text = fs.readFileSync(GO_MOD, 'utf8');
  const req = /^\s*(?:require\s+)?k8s\.io\/kubernetes\s+(v1\.(\d+)\.(\d+))\s*(?:\/\/ indirect)?\s*$/m.exec(text);
  if (!req) throw new ClusterError(`${rel(GO_MOD)} has no "require k8s.io/kubernetes v1.Y.Z" line: pin the Kubernetes version there`);
  const [, kubernetes, minor, patch] = req;
  const staging = `v0.${minor}.${patch}`;
  const replaces = [...text.matchAll(/^\s*(k8s\.io\/[a-z0-9-]+)\s*=>\s*(\S+)\s+(\S+)\s*$/gm)];
  if (replaces.length === 0) {
    throw new ClusterError(`${rel(GO_MOD)} has no replace lines: k8s.io/kubernetes needs one per staging module (its own go.mod's replace block) at ${staging}`);
  }
  const wrong = replaces.filter(([, from, to, version]) => from !== to || version !== staging);
  if (wrong.length > 0) {
    throw new ClusterError(
      `${rel(GO_MOD)} pins k8s.io/kubernetes ${kubernetes}, so every staging module must be replaced by itself at ${staging}; ` +
      `these are not: ${wrong.map(([, from, to, version]) => `${from} => ${to} ${version}`).join(', ')}`,
    );
  }
  return { kubernetes, staging, major: '1', minor };
}

/** the go build command for the pinned version, as an argument list (run in cluster/). */
function buildArgs(pin, outDir) {
  const ldflags = ['-s', '-w'];
  // the API server reports (and derives its emulated version from) these; without them it says v0.0.0-master.
  for (const pkg of ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']) {
    ldflags.push(`-X ${pkg}.gitVersion=${pin.kubernetes}`, `-X ${pkg}.gitMajor=${pin.major}`, `-X ${pkg}.gitMinor=${pin.minor}`);
  }
  return ['build', '-mod=readonly', '-trimpath', '-ldflags', ldflags.join(' '), '-o', outDir + path.sep, ...PACKAGES.map((p) => p.pkg)];
}

/** where the binaries of this exact go.mod/go.sum and build recipe are cached, outside the repository. */
function binDir(pin) {
  const hash = crypto.createHash('sha256')
    .update(fs.readFileSync(GO_MOD)).update(fs.readFileSync(GO_SUM))
    .update(JSON.stringify(buildArgs(pin, 'OUT')))
    .digest('hex').slice(0, 12);
  return path.join(cacheRoot(), `${pin.kubernetes}-${hash}`);
}

/** the cache of binaries and images, outside the repository (CDK8S_NODE_AGENTS_CLUSTER_CACHE overrides it). */
function cacheRoot() {
  return process.env.CDK8S_NODE_AGENTS_CLUSTER_CACHE
    ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'cdk8s-node-agents', 'cluster');
}

function binaries(dir) {
  return Object.fromEntries(PACKAGES.map((p) => [p.name, path.join(dir, p.name)]));
}

/**
 * Builds etcd, kube-apiserver and kube-controller-manager unless this recipe's binaries are cached.
 * Returns the binaries' paths and the build's duration (undefined when cached).
 */
function ensureBinaries(pin, log = console.log) {
  const dir = binDir(pin);
  const bins = binaries(dir);
  if (Object.values(bins).every((b) => fs.existsSync(b))) {
    log(`binaries for Kubernetes ${pin.kubernetes}: cached in ${dir}`);
    return { bins, buildSeconds: undefined };
  }
  const go = spawnSync('go', ['env', 'GOVERSION'], { cwd: CLUSTER_DIR, encoding: 'utf8' });
  if (go.error || go.status !== 0) {
    throw new ClusterError(`cannot run "go" (${go.error?.message ?? go.stderr.trim()}): install Go 1.26 or later; cluster/go.mod builds the control plane from Kubernetes' Go modules`);
  }
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const args = buildArgs(pin, tmp);
  const hasNice = spawnSync('nice', ['true']).status === 0;
  const [cmd, cmdArgs] = hasNice ? ['nice', ['-n', '10', 'go', ...args]] : ['go', args];
  log(`building etcd, kube-apiserver and kube-controller-manager for Kubernetes ${pin.kubernetes} with ${go.stdout.trim()} ` +
    '(cold: about 16 minutes on 2 cores; with the Go build cache populated, about 20 s)');
  log(`  (cd cluster && CGO_ENABLED=0 ${cmd} ${cmdArgs.map(quote).join(' ')})`);
  const started = process.hrtime.bigint();
  const result = spawnSync(cmd, cmdArgs, { cwd: CLUSTER_DIR, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '0' } });
  const buildSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.error || result.status !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new ClusterError(`go build failed after ${buildSeconds.toFixed(0)} s (${result.error?.message ?? `exit ${result.status}`}); its output is above`);
  }
  for (const p of PACKAGES) fs.renameSync(path.join(tmp, p.goName), path.join(tmp, p.name));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  log(`built in ${buildSeconds.toFixed(1)} s into ${dir}`);
  return { bins, buildSeconds };
}

function readState() {
  try {
    return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
  } catch (e) {
    if (e.code === 'ENOENT') return undefined;
    throw new ClusterError(`cannot read ${rel(STATE_FILE)}: ${e.message}; remove it after stopping any process it names`);
  }
}

/**
 * Whether `pid` is alive and is the recorded binary: a pid can be reused once its process has exited, and
 * down must never signal a stranger. Reads /proc (Linux), which is where this suite runs.
 */
function isOurs(pid, binary) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const argv0 = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
    return argv0 === binary;
  } catch {
    return false;
  }
}

/** GET a URL on the local control plane; resolves { status, body } (never rejects on an HTTP status). */
function get(url, options = {}) {
  return request('GET', url, options);
}

/**
 * One request to the local cluster; resolves { status, body }. `insecure` skips the certificate check, for the health
 * endpoint of a component serving a certificate it made itself (kube-scheduler), on loopback only.
 */
function request(method, url, { ca, token, timeoutMs = 2000, insecure = false, body, contentType = 'application/json' } = {}) {
  return new Promise((resolve, reject) => {
    const mod = url.startsWith('https:') ? https : http;
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    if (body !== undefined) headers['Content-Type'] = contentType;
    const req = mod.request(url, { method, ca, headers, timeout: timeoutMs, rejectUnauthorized: !insecure }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    if (body !== undefined) req.write(JSON.stringify(body));
    req.end();
  });
}

/** the last lines of a log, for an error message. */
function tail(file, lines = 25) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).map((l) => `    ${l}`).join('\n');
  } catch {
    return `    (no log at ${file})`;
  }
}

function rel(p) {
  return path.relative(process.cwd(), p) || '.';
}

function quote(a) {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`;
}

function which(cmd) {
  return spawnSync(cmd, ['version'], { encoding: 'utf8' }).error === undefined;
}

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

module.exports = {
  ClusterError, CLUSTER_DIR, ROOT, STATE_DIR, STATE_FILE, KUBECONFIG, PACKAGES,
  readPin, buildArgs, binDir, cacheRoot, ensureBinaries, readState, isOurs, get, request, tail, rel, quote, which, run,
};
