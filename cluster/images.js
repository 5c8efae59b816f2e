// The real node's images, built here because no image registry is reachable: each one a single-layer OCI archive
// (oci-layout, index.json, one gzip layer, a config naming User and Entrypoint), cached outside the repository by a
// hash of its inputs, and imported into containerd's k8s.io namespace with `ctr images import`.
//
// - pause: the sandbox image, a static C program that waits for a signal and reaps children (the kubelet asks the
//   runtime for a sandbox per pod; containerd runs this image there)
// - agent: busybox-static with a passwd file (root, nobody); runs as root, as most images do
// - node-exporter: github.com/prometheus/node_exporter built from its Go module at the version NodeMonitor pins,
//   named as NodeMonitor's default image, so the preset runs unchanged; user nobody, as upstream's image
// - csi-driver, csi-registrar, csi-livenessprobe: this project's own CSI test programs (cluster/csi, its own go.mod
//   of served modules), because the Go module proxy refuses the upstream hostpath driver, node-driver-registrar and
//   livenessprobe. Named as ours, never as the upstream images: the tests set them through CsiNodePlugin's image
//   props and keep the preset's args and probes, which these programs take as the upstream ones do
// - filebeat, auditbeat: Elastic's Beats built from their Go module (github.com/elastic/beats/v7) at the version of
//   cluster/beats/go.mod, which the Filebeat and Auditbeat presets pin, named as their default images; the binary at
//   /usr/share/<beat>/<beat> as in Elastic's images (its home, its data directory below it); filebeat user 1000, as
//   upstream's image, auditbeat root, as upstream's
'use strict';
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const lib = require('./lib');

/** the version of node_exporter NodeMonitor pins (src/presets/node-monitor.ts DEFAULT_IMAGE; a test checks they agree). */
const NODE_EXPORTER_VERSION = 'v1.12.1';

const PAUSE_C = `
/* the sandbox's process: holds the pod's namespaces until the runtime stops it. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static void stop(int sig) { (void)sig; _exit(0); }
static void reap(int sig) { (void)sig; while (waitpid(-1, NULL, WNOHANG) > 0) {} }
int main(void) {
  signal(SIGINT, stop);
  signal(SIGTERM, stop);
  signal(SIGCHLD, reap);
  for (;;) pause();
  return 0;
}
`;

const PASSWD = 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n';
const GROUP = 'root:x:0:\nnobody:x:65534:\n';

/** the Go module of the CSI test programs, one main package per program. */
const CSI_DIR = path.join(__dirname, 'csi');

/** an image of one CSI test program of cluster/csi (built with its go.mod, static), run as root as CSI sidecars are. */
function csiImage(program) {
  return {
    ref: `localhost/cdk8s-node-agents/csi-${program}:1`,
    inputs: () => [goVersion(), ...csiSources().map((f) => `${path.relative(CSI_DIR, f)}:${sha256File(f)}`)],
    build(root, work, log) {
      const bin = path.join(root, 'bin');
      fs.mkdirSync(bin, { recursive: true });
      goBuild(['build', '-mod=readonly', '-buildvcs=false', '-trimpath', '-ldflags=-s -w', '-o', path.join(bin, program), `./${program}`], CSI_DIR, `cluster/csi/${program}`, log);
      writeUsers(root);
      return { Entrypoint: [`/bin/${program}`] };
    },
  };
}

/** every file of cluster/csi the build reads (go.mod, go.sum, the Go sources), sorted. */
function csiSources() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (/\.go$|^go\.(mod|sum)$/.test(e.name)) out.push(f);
    }
  };
  walk(CSI_DIR);
  return out.sort();
}

/** the Beats module's version, from cluster/beats/go.mod's require line (the one place it is pinned for the node). */
const BEATS_DIR = path.join(__dirname, 'beats');
function beatsVersion() {
  const m = /^require github\.com\/elastic\/beats\/v7 (v\S+)$/m.exec(fs.readFileSync(path.join(BEATS_DIR, 'go.mod'), 'utf8'));
  if (!m) throw new lib.ClusterError('cluster/beats/go.mod has no "require github.com/elastic/beats/v7 vX.Y.Z" line');
  return m[1];
}

/**
 * One Beat's image: the binary built in cluster/beats, at Elastic's path, and the users file. Cold, on this kind of
 * machine, with one core (GOMAXPROCS=1 -p 1) while others built: filebeat 213 s including the module downloads,
 * auditbeat 10 s after it.
 */
function beatImage(beat, user) {
  return {
    ref: `docker.elastic.co/beats/${beat}:${beatsVersion().slice(1)}`,
    inputs: () => [goVersion(), fs.readFileSync(path.join(BEATS_DIR, 'go.mod'), 'utf8'), fs.readFileSync(path.join(BEATS_DIR, 'go.sum'), 'utf8'), PASSWD, GROUP],
    build(root, work, log) {
      const home = path.join(root, 'usr', 'share', beat);
      fs.mkdirSync(path.join(home, 'data'), { recursive: true });
      log(`building ${beat} from Elastic's Beats module (cold about 3.5 minutes; the second Beat seconds after the first)`);
      goBuild(['build', '-trimpath', '-ldflags=-s -w', '-o', path.join(home, beat), `github.com/elastic/beats/v7/${beat}`], BEATS_DIR, `github.com/elastic/beats/v7/${beat}`, log);
      writeUsers(root);
      return { User: user, WorkingDir: `/usr/share/${beat}`, Entrypoint: [`/usr/share/${beat}/${beat}`], Cmd: ['-environment', 'container'] };
    },
  };
}

/** the images the real node gets; `ref` is the name the pods ask for. */
const IMAGES = {
  pause: {
    ref: 'localhost/cdk8s-node-agents/pause:1',
    inputs: () => [PAUSE_C, gccVersion()],
    build(root, work) {
      const src = path.join(work, 'pause.c');
      fs.writeFileSync(src, PAUSE_C);
      need('gcc', ['-static', '-O2', '-s', '-o', path.join(root, 'pause'), src], 'gcc (apt-get install gcc libc6-dev) to build the pause image');
      return { User: '65535:65535', Entrypoint: ['/pause'] };
    },
  },
  agent: {
    ref: 'localhost/cdk8s-node-agents/agent:1',
    inputs: () => [sha256File(busybox()), PASSWD, GROUP],
    build(root) {
      addBusybox(root);
      return { Entrypoint: ['/bin/sh', '-c'], Cmd: ['sleep 3600'], Env: ['PATH=/bin'] };
    },
  },
  'node-exporter': {
    ref: `quay.io/prometheus/node-exporter:${NODE_EXPORTER_VERSION}`,
    inputs: () => [NODE_EXPORTER_VERSION, goVersion(), PASSWD, GROUP],
    build(root, work, log) {
      const bin = path.join(root, 'bin');
      fs.mkdirSync(bin, { recursive: true });
      goInstall(`github.com/prometheus/node_exporter@${NODE_EXPORTER_VERSION}`, bin, work, log);
      writeUsers(root);
      return { User: '65534', Entrypoint: ['/bin/node_exporter'], ExposedPorts: { '9100/tcp': {} } };
    },
  },
  'csi-driver': csiImage('driver'),
  'csi-registrar': csiImage('registrar'),
  'csi-livenessprobe': csiImage('livenessprobe'),
  filebeat: beatImage('filebeat', '1000'),
  auditbeat: beatImage('auditbeat', '0'),
};

/** builds (unless cached) and returns the archive of each image: { name: { ref, archive, built } }. */
function ensureImages(log = console.log) {
  const dir = path.join(lib.cacheRoot(), 'images');
  fs.mkdirSync(dir, { recursive: true });
  const out = {};
  for (const [name, image] of Object.entries(IMAGES)) {
    const hash = crypto.createHash('sha256').update(JSON.stringify([image.ref, image.build.toString(), ...image.inputs()])).digest('hex').slice(0, 12);
    const archive = path.join(dir, `${name}-${hash}.tar`);
    const built = !fs.existsSync(archive);
    if (built) {
      const t = Date.now();
      const work = fs.mkdtempSync(path.join(os.tmpdir(), `cdk8s-node-agents-image-${name}-`));
      try {
        const root = path.join(work, 'rootfs');
        fs.mkdirSync(root);
        const config = image.build(root, work, log);
        writeOciArchive(root, config, image.ref, work, `${archive}.tmp-${process.pid}`);
        fs.renameSync(`${archive}.tmp-${process.pid}`, archive);
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
      log(`built image ${image.ref} in ${((Date.now() - t) / 1000).toFixed(1)} s: ${archive}`);
    }
    out[name] = { ref: image.ref, archive, built };
  }
  return out;
}

/** a single-layer OCI image layout, as one tar: the layer is the root filesystem, reproducible (sorted, mtime 0, owner 0). */
function writeOciArchive(root, config, ref, work, file) {
  const layout = path.join(work, 'layout');
  const blobs = path.join(layout, 'blobs', 'sha256');
  fs.mkdirSync(blobs, { recursive: true });
  const layerTar = path.join(work, 'layer.tar');
  need('tar', ['--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '-C', root, '-cf', layerTar, '.'], 'GNU tar');
  const tarBytes = fs.readFileSync(layerTar);
  const gz = zlib.gzipSync(tarBytes, { level: 6 });
  const blob = (bytes) => {
    const digest = crypto.createHash('sha256').update(bytes).digest('hex');
    fs.writeFileSync(path.join(blobs, digest), bytes);
    return { digest: `sha256:${digest}`, size: bytes.length };
  };
  const layer = blob(gz);
  const imageConfig = Buffer.from(JSON.stringify({
    architecture: 'amd64',
    os: 'linux',
    config: { Env: ['PATH=/bin:/usr/bin'], ...config },
    rootfs: { type: 'layers', diff_ids: [`sha256:${crypto.createHash('sha256').update(tarBytes).digest('hex')}`] },
    history: [{ created_by: 'cdk8s-node-agents cluster/images.js' }],
  }));
  const cfg = blob(imageConfig);
  const manifest = blob(Buffer.from(JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...cfg },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...layer }],
  })));
  fs.writeFileSync(path.join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  fs.writeFileSync(path.join(layout, 'index.json'), JSON.stringify({
    schemaVersion: 2,
    manifests: [{
      mediaType: 'application/vnd.oci.image.manifest.v1+json', ...manifest,
      platform: { architecture: 'amd64', os: 'linux' },
      annotations: { 'io.containerd.image.name': ref, 'org.opencontainers.image.ref.name': ref.split(':').pop() },
    }],
  }));
  need('tar', ['--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '-C', layout, '-cf', file, '.'], 'GNU tar');
}

/** imports every archive into containerd (namespace k8s.io, the CRI's), unpacked for the overlayfs snapshotter. */
function importImages(ctr, socket, images, log = console.log) {
  const t = Date.now();
  for (const image of Object.values(images)) {
    const r = spawnSync(ctr, ['--address', socket, '--namespace', 'k8s.io', 'images', 'import', '--snapshotter', 'overlayfs', image.archive], { encoding: 'utf8' });
    if (r.status !== 0) throw new lib.ClusterError(`ctr images import ${image.archive} failed: ${(r.stderr || r.stdout || r.error?.message || '').trim()}`);
  }
  log(`imported ${Object.values(images).map((i) => i.ref).join(', ')} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

function addBusybox(root) {
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.copyFileSync(busybox(), path.join(bin, 'busybox'));
  fs.chmodSync(path.join(bin, 'busybox'), 0o755);
  const list = spawnSync(busybox(), ['--list'], { encoding: 'utf8' });
  for (const applet of list.stdout.split('\n').filter((a) => /^[\w.[-]+$/.test(a) && a !== 'busybox')) {
    fs.symlinkSync('busybox', path.join(bin, applet));
  }
  writeUsers(root);
}

function writeUsers(root) {
  for (const d of ['etc', 'tmp', 'proc', 'sys', 'dev', 'root']) fs.mkdirSync(path.join(root, d), { recursive: true });
  fs.chmodSync(path.join(root, 'tmp'), 0o1777);
  fs.writeFileSync(path.join(root, 'etc', 'passwd'), PASSWD);
  fs.writeFileSync(path.join(root, 'etc', 'group'), GROUP);
}

/** `go install module@version` into `bin`, static (CGO off), with the module's own go.mod (no local module needed). */
function goInstall(moduleAtVersion, bin, work, log) {
  log(`building ${moduleAtVersion} from the Go module proxy (go install; cold about 2 minutes on 2 cores)`);
  goBuild(['install', '-trimpath', '-ldflags=-s -w', moduleAtVersion], work, moduleAtVersion, log, { GOBIN: bin });
}

/** runs `go <args>` in `cwd`, niced, static (CGO off), the Go build cache where Go keeps it (outside the repository). */
function goBuild(args, cwd, what, log, env = {}) {
  if (args[0] === 'build') log(`building ${what} (go build; cold about 1 minute on 2 cores)`);
  const hasNice = spawnSync('nice', ['true']).status === 0;
  const [cmd, cmdArgs] = hasNice ? ['nice', ['-n', '10', 'go', ...args]] : ['go', args];
  const r = spawnSync(cmd, cmdArgs, { cwd, stdio: 'inherit', env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '', ...env } });
  if (r.status !== 0) throw new lib.ClusterError(`go ${args[0]} ${what} failed (${r.error?.message ?? `exit ${r.status}`}); its output is above`);
}

function busybox() {
  for (const candidate of ['/bin/busybox', '/usr/bin/busybox']) {
    if (fs.existsSync(candidate) && /statically linked|static-pie/.test(spawnSync('file', ['-L', candidate], { encoding: 'utf8' }).stdout ?? 'statically linked')) return candidate;
  }
  throw new lib.ClusterError('a static busybox is needed for the agent image: apt-get install busybox-static');
}

function need(cmd, args, what) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new lib.ClusterError(`${cmd} ${args.join(' ')} failed (${(r.stderr || r.error?.message || `exit ${r.status}`).trim()}): ${what} is needed`);
}

function gccVersion() {
  return spawnSync('gcc', ['-dumpfullversion'], { encoding: 'utf8' }).stdout?.trim() ?? 'no gcc';
}

function goVersion() {
  return spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).stdout?.trim() ?? 'no go';
}

function sha256File(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

module.exports = { IMAGES, NODE_EXPORTER_VERSION, ensureImages, importImages };

if (require.main === module) {
  try {
    for (const [name, i] of Object.entries(ensureImages())) console.log(`${name}: ${i.ref} ${i.archive}${i.built ? ' (built)' : ' (cached)'}`);
  } catch (e) {
    console.error(`error: ${e instanceof lib.ClusterError ? e.message : e.stack}`);
    process.exit(1);
  }
}
