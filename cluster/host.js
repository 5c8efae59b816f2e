// What the real node may change on the host, read before cluster:up starts it and compared after cluster:down:
// processes, the sysctls the kubelet and the CNI bridge set, network devices, mounts, cgroups, network namespaces
// and the host paths the node's components create. `node cluster/host.js save FILE` and `node cluster/host.js
// compare FILE` are CI's check that cluster:down left the host as it found it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/**
 * The sysctls the node changes: the kubelet's kernel tunables (pkg/kubelet/cm/container_manager_linux.go
 * setupKernelTunables, v1.37.2) and the IP forwarding the CNI bridge plugin turns on for its gateway.
 */
const SYSCTLS = [
  'vm.overcommit_memory', 'vm.panic_on_oom', 'kernel.panic', 'kernel.panic_on_oops',
  'kernel.keys.root_maxkeys', 'kernel.keys.root_maxbytes', 'net.ipv4.ip_forward',
];

/**
 * host paths outside .cluster/ that the kubelet, containerd or the CNI plugins create when missing, and the
 * DirectoryOrCreate hostPaths of presets run with their defaults (CsiNodePlugin's hostpath data directory).
 */
const HOST_PATHS = ['/var/lib/kubelet', '/var/log/containers', '/run/containerd', '/run/netns', '/var/lib/cni', '/opt/containerd', '/var/lib/csi-hostpath-data'];

const CGROUP_ROOT = '/sys/fs/cgroup';

function sysctlFile(name) {
  return path.join('/proc/sys', ...name.split('.'));
}

function readSysctls() {
  return Object.fromEntries(SYSCTLS.map((s) => [s, fs.readFileSync(sysctlFile(s), 'utf8').trim()]));
}

function writeSysctl(name, value) {
  fs.writeFileSync(sysctlFile(name), `${value}\n`);
}

/**
 * The propagation of the root mount: its optional fields in /proc/self/mountinfo (`shared:N`, `master:N`), '' when
 * private. A node's / is shared on systemd hosts; a preset mounting / with HostToContainer needs it shared or slave.
 */
function readRootPropagation() {
  const line = fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n').find((l) => l.split(' ')[4] === '/');
  const fields = line.split(' ');
  return fields.slice(6, fields.indexOf('-')).join(' ');
}

/** mount points, in /proc/self/mountinfo order (field 5). */
function readMounts() {
  return fs.readFileSync('/proc/self/mountinfo', 'utf8').trim().split('\n')
    .map((l) => l.split(' ')[4].replace(/\\040/g, ' '));
}

function readLinks() {
  return fs.readdirSync('/sys/class/net').sort();
}

/**
 * The kubelet's cgroups (cgroupfs driver, cgroupsPerQOS): /kubepods and below, in every hierarchy (cgroup v1
 * controllers and the unified one). Only these: the host's own work makes and removes other cgroups meanwhile.
 */
function readCgroups() {
  const out = [];
  const walk = (dir, depth) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const p = path.join(dir, e.name);
      if (depth === 0 && !e.name.startsWith('kubepods')) continue;
      out.push(p);
      if (depth < 12) walk(p, depth + 1);
    }
  };
  for (const h of fs.existsSync(CGROUP_ROOT) ? fs.readdirSync(CGROUP_ROOT) : []) {
    const hierarchy = path.join(CGROUP_ROOT, h);
    if (fs.lstatSync(hierarchy).isSymbolicLink()) continue;
    walk(hierarchy, 0);
  }
  return out.sort();
}

function readNetns() {
  try {
    return fs.readdirSync('/run/netns').sort();
  } catch {
    return [];
  }
}

/** running processes as `pid argv0` (zombies, which have no command line, left out: process 1 reaps them late). */
function readProcesses() {
  const out = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
      if (argv.length > 0) out.push({ pid: Number(pid), argv0: argv[0], cmd: argv.join(' ') });
    } catch { /* exited meanwhile */ }
  }
  return out;
}

function snapshot() {
  return {
    sysctls: readSysctls(),
    links: readLinks(),
    mounts: readMounts(),
    rootPropagation: readRootPropagation(),
    cgroups: readCgroups(),
    netns: readNetns(),
    paths: Object.fromEntries(HOST_PATHS.map((p) => [p, fs.existsSync(p)])),
    processes: readProcesses(),
  };
}

/**
 * The differences between two snapshots, as sentences (empty when the host is as it was). Processes: only new ones
 * that are the node's programs (which nothing else on the host runs) or name `stateDir` (this checkout's control
 * plane) count, since the host runs other work too, other checkouts' control planes included.
 */
function differences(before, after, stateDir) {
  const out = [];
  for (const [k, v] of Object.entries(before.sysctls)) if (after.sysctls[k] !== v) out.push(`sysctl ${k} is ${after.sysctls[k]}, was ${v}`);
  const diff = (what, a, b) => {
    const added = b.filter((x) => !a.includes(x));
    const removed = a.filter((x) => !b.includes(x));
    if (added.length) out.push(`${what} added: ${added.join(', ')}`);
    if (removed.length) out.push(`${what} removed: ${removed.join(', ')}`);
  };
  diff('network devices', before.links, after.links);
  diff('mounts', before.mounts, after.mounts);
  if ((before.rootPropagation ?? after.rootPropagation) !== after.rootPropagation) {
    out.push(`the root mount's propagation is '${after.rootPropagation}', was '${before.rootPropagation}'`);
  }
  diff('cgroups', before.cgroups, after.cgroups);
  diff('network namespaces', before.netns, after.netns);
  for (const [p, existed] of Object.entries(before.paths)) if (after.paths[p] !== existed) out.push(`${p} ${existed ? 'is gone' : 'was created'}`);
  const known = new Set(before.processes.map((p) => `${p.pid} ${p.argv0}`));
  for (const p of after.processes) {
    const ours = NODE_PROGRAMS.includes(path.basename(p.argv0)) || p.cmd.includes(stateDir);
    if (!known.has(`${p.pid} ${p.argv0}`) && ours) out.push(`process ${p.pid} (${p.cmd.slice(0, 200)}) is running`);
  }
  return out;
}

/** the real node's programs: only this checkout's cluster:up starts them on the host. */
const NODE_PROGRAMS = ['kube-scheduler', 'kubelet', 'containerd', 'containerd-shim-runc-v2', 'runc', 'pause', 'node_exporter'];

module.exports = { SYSCTLS, HOST_PATHS, CGROUP_ROOT, snapshot, differences, readSysctls, writeSysctl, readMounts, readRootPropagation, readLinks, readCgroups, readNetns, readProcesses, NODE_PROGRAMS };

if (require.main === module) {
  const [verb, file] = process.argv.slice(2);
  if (verb === 'save' && file) {
    fs.writeFileSync(file, JSON.stringify(snapshot(), null, 2) + '\n');
    console.log(`host state saved to ${file}`);
  } else if (verb === 'compare' && file) {
    const found = differences(JSON.parse(fs.readFileSync(file, 'utf8')), snapshot(), path.resolve(__dirname, '..', '.cluster'));
    if (found.length > 0) {
      console.error(`the host differs from ${file}:\n${found.map((d) => `  ${d}`).join('\n')}`);
      process.exit(1);
    }
    console.log(`the host is as ${file} recorded it: processes, sysctls (${SYSCTLS.join(', ')}), network devices, mounts, cgroups, network namespaces and ${HOST_PATHS.join(', ')}`);
  } else {
    console.error('usage: node cluster/host.js save FILE | compare FILE');
    process.exit(2);
  }
}
