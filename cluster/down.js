#!/usr/bin/env node
// npm run cluster:down — stops exactly the processes cluster/up.js started, by the pids it recorded in
// .cluster/state.json (each checked to still be the recorded binary, so a reused pid is never signalled):
// SIGTERM, then SIGKILL after 10 s. Keeps .cluster/logs for reading; the next cluster:up wipes .cluster/.
'use strict';
const fs = require('node:fs');
const lib = require('./lib');

/** stops the recorded processes, controller manager first and etcd last. */
async function stopRecorded(state, log) {
  for (const p of [...(state.processes ?? [])].reverse()) {
    if (!lib.isOurs(p.pid, p.binary)) {
      log(`${p.name} (pid ${p.pid}) is not running`);
      continue;
    }
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
  fs.rmSync(lib.STATE_FILE, { force: true });
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
