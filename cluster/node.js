// The real node of the local cluster (cluster/up.js starts it after the control plane, cluster/down.js stops it
// first): containerd with runc and a CNI bridge (Debian's packages, installed when missing), kube-scheduler and one
// kubelet built from the same Go modules as the control plane, and the images of cluster/images.js imported.
//
// Isolation from the tests that play kubelet and scheduler through the API (decided here, documented in the README):
// - the node registers with the taint cdk8s-node-agents.test/real-node=true:NoExecute, which only a DaemonSet that
//   tolerates every taint (Toleration.everything: the CNI and CSI presets) or this key tolerates, and the label
//   cdk8s-node-agents.test/real-node=true;
// - kube-scheduler's one profile is named `real-node-scheduler`: it schedules only pods that ask for it by
//   spec.schedulerName, so the pods other tests bind themselves are never raced, and a pod for the real node that
//   does not ask for it stays Pending (test/cluster/cluster.ts leaves such pods alone).
//
// Everything it changes on the host is recorded in .cluster/state.json before it is changed (host.before: the host
// as it was) and undone by stopNode: pods deleted with a grace period so the kubelet tears their sandboxes down, the
// processes stopped by their pids, what is left of sandboxes removed, mounts, network devices, network namespaces,
// cgroups and host paths it created removed, sysctls restored.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const lib = require('./lib');
const host = require('./host');
const images = require('./images');

const NODE_NAME = 'cdk8s-real-node';
const TAINT = { key: 'cdk8s-node-agents.test/real-node', value: 'true', effect: 'NoExecute' };
const LABEL = 'cdk8s-node-agents.test/real-node';
const SCHEDULER_NAME = 'real-node-scheduler';
const BRIDGE = 'cdk8s0';
const POD_SUBNET = '10.123.0.0/24';
/** the kubelet's root directory: where real nodes have it, so presets' defaults (CSI's /var/lib/kubelet) hold. */
const KUBELET_ROOT = '/var/lib/kubelet';
const NODE_DIR = path.join(lib.STATE_DIR, 'node');

/** Debian packages the node needs, by the file that shows each is installed. */
const PACKAGES = [
  { file: '/usr/bin/containerd', pkg: 'containerd' },
  { file: '/usr/bin/ctr', pkg: 'containerd' },
  { file: '/usr/sbin/runc', pkg: 'runc' },
  { file: '/usr/lib/cni/bridge', pkg: 'containernetworking-plugins' },
  { file: '/bin/busybox', pkg: 'busybox-static' },
  { file: '/usr/bin/gcc', pkg: 'gcc' },
  { file: '/usr/sbin/ip', pkg: 'iproute2' },
];

/** installs the missing Debian packages (apt-get update once, then install), as CI runs on a fresh machine. */
function ensurePackages(log) {
  const missing = [...new Set(PACKAGES.filter((p) => !fs.existsSync(p.file)).map((p) => p.pkg))];
  if (missing.length === 0) return undefined;
  const t = Date.now();
  log(`installing ${missing.join(', ')} (apt-get): the real node needs them`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', ...missing]]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.error || r.status !== 0) {
      throw new lib.ClusterError(`apt-get ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}): install ${missing.join(', ')} (Debian 12) and run cluster:up again`);
    }
  }
  // the Debian package starts no daemon here (no init system), but make sure: this script starts its own containerd.
  return (Date.now() - t) / 1000;
}

function paths() {
  const containerd = path.join(NODE_DIR, 'containerd');
  return {
    containerd,
    config: path.join(containerd, 'config.toml'),
    socket: path.join(containerd, 'containerd.sock'),
    cniConf: path.join(NODE_DIR, 'cni', 'net.d'),
    cniData: path.join(NODE_DIR, 'cni', 'ipam'),
    kubeletConfig: path.join(NODE_DIR, 'kubelet-config.yaml'),
    podLogs: path.join(NODE_DIR, 'pod-logs'),
  };
}

function containerdConfig(p) {
  return `# containerd for the real node of cdk8s-node-agents' local cluster (cluster/node.js)
version = 2
root = ${JSON.stringify(path.join(p.containerd, 'root'))}
state = ${JSON.stringify(path.join(p.containerd, 'state'))}

[grpc]
  address = ${JSON.stringify(p.socket)}

[plugins."io.containerd.internal.v1.opt"]
  path = ${JSON.stringify(path.join(p.containerd, 'opt'))}

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = ${JSON.stringify(images.IMAGES.pause.ref)}
  # the host has neither; this machine lacks CAP_SYS_RESOURCE, so runc cannot lower oom_score_adj below ours
  disable_apparmor = true
  enable_selinux = false
  restrict_oom_score_adj = true
  stream_server_address = "127.0.0.1"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = ${JSON.stringify(path.join(p.containerd, 'runc'))}
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = ${JSON.stringify(p.cniConf)}
    max_conf_num = 1
`;
}

function cniConfig(p) {
  return JSON.stringify({
    cniVersion: '1.0.0',
    name: 'cdk8s-node-agents',
    plugins: [
      {
        type: 'bridge', bridge: BRIDGE, isGateway: true, ipMasq: false, hairpinMode: true,
        ipam: { type: 'host-local', dataDir: p.cniData, ranges: [[{ subnet: POD_SUBNET }]], routes: [{ dst: '0.0.0.0/0' }] },
      },
      { type: 'loopback' },
    ],
  }, null, 2) + '\n';
}

function kubeletConfig(p, ports, caFile) {
  return [
    'apiVersion: kubelet.config.k8s.io/v1beta1',
    'kind: KubeletConfiguration',
    `containerRuntimeEndpoint: unix://${p.socket}`,
    'cgroupDriver: cgroupfs',
    // this machine mounts cgroup v1 hierarchies (plus cgroup2 at /sys/fs/cgroup/unified)
    'failCgroupV1: false',
    'failSwapOn: false',
    'address: 127.0.0.1',
    `port: ${ports.kubelet}`,
    'healthzBindAddress: 127.0.0.1',
    `healthzPort: ${ports.kubeletHealthz}`,
    'readOnlyPort: 0',
    'registerNode: true',
    'registerWithTaints:',
    `- key: ${TAINT.key}`,
    `  value: "${TAINT.value}"`,
    `  effect: ${TAINT.effect}`,
    `podLogsDir: ${p.podLogs}`,
    'authentication:',
    '  anonymous: {enabled: false}',
    '  webhook: {enabled: false}',
    `  x509: {clientCAFile: ${caFile}}`,
    'authorization: {mode: AlwaysAllow}',
    // the disk is shared with other work: evict only when nearly full, never collect images (they cannot be pulled)
    'evictionHard: {memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1%, nodefs.inodesFree: 1%}',
    'imageGCHighThresholdPercent: 100',
    'imageGCLowThresholdPercent: 99',
    'maxPods: 30',
    'serializeImagePulls: false',
    '',
  ].join('\n');
}

/**
 * Starts containerd, kube-scheduler and the kubelet, after recording the host as it is. `ctx` is up.js's:
 * { state, save, startProcess, waitFor, bins, server, credentials, schedulerKubeconfig, kubeletKubeconfig, ports }.
 */
async function startNode(ctx, log = console.log) {
  const { state, save, startProcess, waitFor, bins } = ctx;
  const timings = {};
  let t = Date.now();
  const installSeconds = ensurePackages(log);
  if (installSeconds !== undefined) timings['apt-get'] = installSeconds * 1000;
  for (const p of host.HOST_PATHS) {
    if (p === KUBELET_ROOT && fs.existsSync(p)) {
      throw new lib.ClusterError(`${KUBELET_ROOT} exists and is not this cluster's: the real node's kubelet uses it as its root directory. Remove it if nothing uses it, then run cluster:up again`);
    }
  }
  t = Date.now();
  const imgs = images.ensureImages(log);
  timings.images = Date.now() - t;

  const p = paths();
  for (const d of [p.containerd, p.cniConf, p.cniData, p.podLogs]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(p.config, containerdConfig(p));
  fs.writeFileSync(path.join(p.cniConf, '10-cdk8s-node-agents.conflist'), cniConfig(p));
  fs.writeFileSync(p.kubeletConfig, kubeletConfig(p, ctx.ports, ctx.caFile));

  // what the host is before anything of the node runs: down restores and compares against it.
  state.node = { name: NODE_NAME, taint: TAINT, label: LABEL, schedulerName: SCHEDULER_NAME, bridge: BRIDGE, kubeletRoot: KUBELET_ROOT, socket: p.socket, images: Object.fromEntries(Object.entries(imgs).map(([k, v]) => [k, v.ref])) };
  state.host = { before: host.snapshot() };
  save();

  // HostToContainer propagation of / (NodeMonitor's default) needs / to be a shared or slave mount, as systemd makes
  // it on real nodes; this machine's is private. Made shared (not recursively) here, made private again by down.
  if (state.host.before.rootPropagation === '') {
    const r = spawnSync('mount', ['--make-shared', '/'], { encoding: 'utf8' });
    if (r.status !== 0) throw new lib.ClusterError(`mount --make-shared / failed: ${r.stderr.trim()}`);
    state.node.madeRootShared = true;
    save();
    log('made / a shared mount (it was private), as on systemd nodes: HostToContainer propagation needs it');
  }

  t = Date.now();
  startProcess(state, save, 'containerd', '/usr/bin/containerd', ['--config', p.config, '--log-level', 'warn']);
  await waitFor(state, 'containerd', 30, async () => ctr(p.socket, ['version']).status === 0);
  timings.containerd = Date.now() - t;
  t = Date.now();
  images.importImages('/usr/bin/ctr', p.socket, imgs, log);
  timings['image import'] = Date.now() - t;

  t = Date.now();
  const schedulerConfig = path.join(NODE_DIR, 'kube-scheduler-config.yaml');
  fs.writeFileSync(schedulerConfig, [
    'apiVersion: kubescheduler.config.k8s.io/v1',
    'kind: KubeSchedulerConfiguration',
    `clientConnection: {kubeconfig: ${ctx.schedulerKubeconfig}}`,
    'leaderElection: {leaderElect: false}',
    'profiles:',
    `- schedulerName: ${SCHEDULER_NAME}`,
    '',
  ].join('\n'));
  startProcess(state, save, 'kube-scheduler', bins['kube-scheduler'], [
    `--config=${schedulerConfig}`,
    `--authentication-kubeconfig=${ctx.schedulerKubeconfig}`, `--authorization-kubeconfig=${ctx.schedulerKubeconfig}`,
    '--bind-address=127.0.0.1', `--secure-port=${ctx.ports.kubeScheduler}`,
    `--cert-dir=${path.join(NODE_DIR, 'scheduler-certs')}`,
  ]);
  await waitFor(state, 'kube-scheduler', 60, async () => (await lib.get(`https://127.0.0.1:${ctx.ports.kubeScheduler}/healthz`, { insecure: true })).status === 200);
  timings['kube-scheduler'] = Date.now() - t;

  t = Date.now();
  startProcess(state, save, 'kubelet', bins.kubelet, [
    `--config=${p.kubeletConfig}`, `--kubeconfig=${ctx.kubeletKubeconfig}`, `--root-dir=${KUBELET_ROOT}`,
    `--hostname-override=${NODE_NAME}`, `--node-labels=${LABEL}=true`, '--v=1',
  ]);
  await waitFor(state, 'kubelet', 90, async () => {
    const r = await lib.get(`${ctx.server}/api/v1/nodes/${NODE_NAME}`, { ca: ctx.credentials.ca, token: ctx.credentials.adminToken });
    if (r.status !== 200) return false;
    const ready = (JSON.parse(r.body).status?.conditions ?? []).find((c) => c.type === 'Ready');
    return ready?.status === 'True';
  });
  timings.kubelet = Date.now() - t;
  // the node lifecycle controller's part for a Ready node: remove the not-ready taint the API server's admission put
  // on the new Node. That controller is not run (it would mark the API-only Nodes of other tests unreachable), so
  // this is done once here, as test/cluster/cluster.ts createNodes does for those Nodes.
  const admin = { ca: ctx.credentials.ca, token: ctx.credentials.adminToken };
  const patched = await lib.request('PATCH', `${ctx.server}/api/v1/nodes/${NODE_NAME}`, {
    ...admin, body: { spec: { taints: [TAINT] } }, contentType: 'application/merge-patch+json',
  });
  if (patched.status !== 200) throw new lib.ClusterError(`removing the not-ready taint from ${NODE_NAME} failed: ${patched.status} ${patched.body}`);
  const nodeObj = JSON.parse((await lib.get(`${ctx.server}/api/v1/nodes/${NODE_NAME}`, admin)).body);
  state.node.nodeInfo = nodeObj.status.nodeInfo;
  state.node.addresses = nodeObj.status.addresses;
  save();
  log(`node ${NODE_NAME} Ready: kubelet ${nodeObj.status.nodeInfo.kubeletVersion}, ${nodeObj.status.nodeInfo.containerRuntimeVersion}, ` +
    `taint ${TAINT.key}=${TAINT.value}:${TAINT.effect}, scheduler profile ${SCHEDULER_NAME}`);
  return timings;
}

function ctr(socket, args) {
  return spawnSync('/usr/bin/ctr', ['--address', socket, '--namespace', 'k8s.io', ...args], { encoding: 'utf8', timeout: 30_000 });
}

/**
 * Before the node's processes stop: deletes every pod bound to the real node with a grace period (DaemonSets that
 * own one are deleted first, orphaning nothing else), so the kubelet stops their containers and tears their
 * sandboxes down (CNI DEL, network namespace) while it still can: grace periods cut to 5 s at most, so an agent
 * that ignores SIGTERM does not hold cluster:down for its full period. Waits up to 60 s.
 */
async function drainNode(state, api, log) {
  const nodeName = state.node.name;
  const podsOnNode = async () => {
    const r = await api('GET', `/api/v1/pods?fieldSelector=spec.nodeName%3D${nodeName}`);
    return r.status === 200 ? JSON.parse(r.body).items : [];
  };
  const pods = await podsOnNode();
  if (pods.length === 0) return;
  const owners = new Map();
  for (const pod of pods) {
    const ds = (pod.metadata.ownerReferences ?? []).find((o) => o.kind === 'DaemonSet' && o.controller);
    if (ds) owners.set(`${pod.metadata.namespace}/${ds.name}`, { namespace: pod.metadata.namespace, name: ds.name });
  }
  for (const o of owners.values()) {
    await api('DELETE', `/apis/apps/v1/namespaces/${o.namespace}/daemonsets/${o.name}`, { propagationPolicy: 'Orphan' });
  }
  for (const pod of pods) {
    const grace = Math.max(1, Math.min(pod.spec.terminationGracePeriodSeconds ?? 30, 5));
    await api('DELETE', `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`, { gracePeriodSeconds: grace });
  }
  log(`deleting ${pods.length} pod(s) on ${nodeName} with a grace period of at most 5 s (DaemonSets deleted first: ${[...owners.keys()].join(', ') || 'none'})`);
  const deadline = Date.now() + 60_000;
  let left = pods;
  while (Date.now() < deadline) {
    left = await podsOnNode();
    if (left.length === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  if (left.length > 0) log(`${left.length} pod(s) still on ${nodeName} after 60 s: their sandboxes are removed below`);
}

/** after containerd's last task: removes what the node left on the host and restores the sysctls. */
function cleanupNode(state, log) {
  const before = state.host?.before;
  if (!before) return;
  const done = [];
  // network namespaces the CRI made (bind mounts under /run/netns), then the mounts the kubelet and containerd made
  // (projected volumes, the kubelet's rshared root, overlay rootfs, shm), deepest first
  const mine = (m) => [KUBELET_ROOT, NODE_DIR, '/run/containerd', '/run/netns'].some((d) => m === d || m.startsWith(`${d}/`));
  for (let round = 0; round < 3; round++) {
    const extra = host.readMounts().filter((m) => !before.mounts.includes(m) && mine(m)).sort((a, b) => b.length - a.length);
    if (extra.length === 0) break;
    for (const m of extra) {
      const r = spawnSync('umount', [m], { encoding: 'utf8' });
      if (r.status !== 0) spawnSync('umount', ['-l', m]);
      done.push(`unmounted ${m}`);
    }
  }
  for (const ns of host.readNetns().filter((n) => !before.netns.includes(n))) {
    fs.rmSync(path.join('/run/netns', ns), { force: true });
    done.push(`removed network namespace ${ns}`);
  }
  // the bridge and what is left of the pods' veth pairs (gone with their namespace, normally)
  for (const link of host.readLinks().filter((l) => !before.links.includes(l))) {
    if (link === state.node.bridge || link.startsWith('veth')) {
      spawnSync('ip', ['link', 'delete', link]);
      done.push(`deleted network device ${link}`);
    } else {
      log(`network device ${link} appeared while the node ran and is not the node's: left alone`);
    }
  }
  // cgroups the kubelet made (kubepods and the pods' under each hierarchy), deepest first; a cgroup whose last
  // process is exiting may refuse once
  for (let round = 0; round < 20; round++) {
    const extra = host.readCgroups().filter((c) => !before.cgroups.includes(c)).sort((a, b) => b.length - a.length);
    if (extra.length === 0) break;
    for (const c of extra) {
      try {
        fs.rmdirSync(c);
        if (round === 0 || !done.includes(`removed cgroup ${c}`)) done.push(`removed cgroup ${c}`);
      } catch { /* busy: next round */ }
    }
    spawnSync('sleep', ['0.25']);
  }
  // host paths created while the node ran; never through a mount still in place
  for (const [p, existed] of Object.entries(before.paths)) {
    if (existed || !fs.existsSync(p)) continue;
    const stillMounted = host.readMounts().filter((m) => m === p || m.startsWith(`${p}/`));
    if (stillMounted.length > 0) {
      log(`${p} was created by the node but still has mounts (${stillMounted.join(', ')}): left in place`);
      continue;
    }
    fs.rmSync(p, { recursive: true, force: true });
    done.push(`removed ${p}`);
  }
  if (state.node.madeRootShared && host.readRootPropagation() !== '') {
    spawnSync('mount', ['--make-private', '/']);
    done.push('restored root-mount propagation to private');
  }
  for (const [k, v] of Object.entries(before.sysctls)) {
    const now = host.readSysctls()[k];
    if (now !== v) {
      host.writeSysctl(k, v);
      done.push(`restored ${k} ${now} -> ${v}`);
    }
  }
  const counts = {};
  for (const d of done) {
    const kind = d.split(' ').slice(0, 2).join(' ');
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  log(`host: ${Object.entries(counts).map(([k, n]) => `${k} x${n}`).join(', ') || 'nothing to undo'}`);
  for (const d of done.filter((x) => x.startsWith('restored'))) log(`  ${d}`);
  return done;
}

/**
 * With the kubelet stopped and containerd still up: kills and deletes what is left of the pods' containers and
 * sandboxes (a pod force-deleted through the API, whose teardown the kubelet had not finished), so their shims exit.
 */
function removeContainers(state, log) {
  const socket = state.node.socket;
  const tasks = ctr(socket, ['tasks', 'ls', '-q']).stdout?.split('\n').filter(Boolean) ?? [];
  for (const id of tasks) {
    ctr(socket, ['tasks', 'kill', '-s', 'SIGKILL', id]);
  }
  for (const id of tasks) {
    for (let i = 0; i < 20 && ctr(socket, ['tasks', 'delete', id]).status !== 0; i++) spawnSync('sleep', ['0.25']);
  }
  const containers = ctr(socket, ['containers', 'ls', '-q']).stdout?.split('\n').filter(Boolean) ?? [];
  for (const id of containers) ctr(socket, ['containers', 'delete', id]);
  if (tasks.length + containers.length > 0) log(`removed ${tasks.length} task(s) and ${containers.length} container(s) the kubelet left in containerd`);
}

module.exports = { NODE_NAME, TAINT, LABEL, SCHEDULER_NAME, KUBELET_ROOT, NODE_DIR, startNode, drainNode, removeContainers, cleanupNode, ensurePackages };
