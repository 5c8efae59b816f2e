#!/usr/bin/env node
// npm run cluster:down — stops exactly the processes cluster/up.js started, by the pids it recorded in
// .cluster/state.json (each checked to still be the recorded binary, so a reused pid is never signalled):
// SIGTERM, then SIGKILL after 10 s, each waited for, in the reverse order of their start: kubelet, kube-scheduler,
// containerd, kube-controller-manager, kube-apiserver, etcd. Before the kubelet stops, the pods on the real node
// are deleted with a grace period, so the kubelet tears their sandboxes down; before containerd stops, what is left
// of containers goes; after the last process, the host is restored from what up recorded (cluster/node.js).
// Keeps .cluster/logs for reading; the next cluster:up wipes .cluster/.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const host = require('./host');
const lib = require('./lib');
const realNode = require('./node');

/** stops the recorded processes, the node's first and etcd last, and undoes what the node changed on the host. */
async function stopRecorded(state, log) {
  const byName = (n) => (state.processes ?? []).find((p) => p.name === n);
  for (const p of [...(state.processes ?? [])].reverse()) {
    if (!lib.isOurs(p.pid, p.binary)) {
      log(`${p.name} (pid ${p.pid}) is not running`);
      continue;
    }
    if (p.name === 'kubelet' && state.node) await drainWhileApiServes(state, byName, log);
    if (p.name === 'containerd' && state.node) realNode.removeContainers(state, log);
    process.kill(p.pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (lib.isOurs(p.pid, p.binary) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (lib.isOurs(p.pid, p.binary)) {
      process.kill(p.pid, 'SIGKILL');
      log(`stopped ${p.name} (pid ${p.pid}) with SIGKILL: it did not exit within 10 s of SIGTERM`);
    } else {
      log(`stopped ${p.name} (pid ${p.pid})`);
    }
  }
  if (state.node) {
    killLeftoverShims(state, log);
    realNode.cleanupNode(state, log);
    const left = host.differences(state.host.before, host.snapshot(), lib.STATE_DIR);
    if (left.length > 0) log(`the host differs from what cluster:up recorded:\n${left.map((d) => `  ${d}`).join('\n')}`);
    else log('the host is as cluster:up found it (processes, sysctls, network devices, mounts, cgroups, network namespaces, host paths)');
  }
  fs.rmSync(lib.STATE_FILE, { force: true });
}

/** the pods on the real node deleted with their grace period, through the API server (still running). */
async function drainWhileApiServes(state, byName, log) {
  const apiserver = byName('kube-apiserver');
  if (!apiserver || !lib.isOurs(apiserver.pid, apiserver.binary)) {
    log('the API server is not running: the real node\'s pods cannot be deleted through it; their sandboxes are removed directly');
    return;
  }
  const pki = path.join(lib.STATE_DIR, 'pki');
  const ca = fs.readFileSync(path.join(pki, 'ca.crt'));
  const token = fs.readFileSync(path.join(pki, 'tokens.csv'), 'utf8').split('\n')[0].split(',')[0];
  const api = (method, urlPath, query) => {
    const url = new URL(urlPath, state.server);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, String(v));
    return lib.request(method, url.toString(), { ca, token, timeoutMs: 10_000 });
  };
  try {
    await realNode.drainNode(state, api, log);
  } catch (e) {
    log(`deleting the real node's pods failed (${e.message}): their sandboxes are removed directly`);
  }
}

/**
 * containerd's shims outlive containerd when a task is left; they name this cluster's containerd socket in their
 * command line (-address), which is how they are found: by that path, never by a program's name.
 */
function killLeftoverShims(state, log) {
  for (const p of host.readProcesses()) {
    if (p.cmd.includes(state.node.socket)) {
      try {
        process.kill(p.pid, 'SIGKILL');
        log(`stopped leftover process ${p.pid} (${p.cmd.slice(0, 120)})`);
      } catch { /* exited meanwhile */ }
    }
  }
}

async function main() {
  const state = lib.readState();
  if (!state) {
    console.log(`control plane not running (no ${lib.rel(lib.STATE_FILE)})`);
    return;
  }
  await stopRecorded(state, console.log);
}

module.exports = { stopRecorded };

if (require.main === module) {
  main().catch((e) => {
    console.error(`error: ${e instanceof lib.ClusterError ? e.message : e.stack}`);
    process.exit(1);
  });
}
