'use strict';
// Compares this checkout's synth with another checkout's (an older commit in a git worktree, compiled), to tell
// whether a change made NodeAgent slower: `npm run bench` compares with baselines measured in the same run, this
// compares two versions of the library with each other.
//
//   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci && npx projen compile)
//   node bench/compare.js /tmp/before [--n=1000] [--reps=5]
//
// Each repetition runs each checkout's own bench worker (worker-synth.js, variant nodeagent: build N agents, synth
// YAML) in a fresh process, the two checkouts in turn, so that drift of the machine falls on both. Prints the medians
// of wall and CPU time (CPU time moves less when other jobs share the machine) and their ratio, this / other.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { REPO_DIR } = require('./common');

const argv = process.argv.slice(2);
const other = argv.find((a) => !a.startsWith('--'));
const n = Number((argv.find((a) => a.startsWith('--n=')) ?? '--n=1000').slice(4));
const reps = Number((argv.find((a) => a.startsWith('--reps=')) ?? '--reps=5').slice(7));
if (!other || !Number.isInteger(n) || n < 1 || !Number.isInteger(reps) || reps < 1) {
  console.error('usage: node bench/compare.js <other checkout, compiled> [--n=1000] [--reps=5]');
  process.exit(2);
}
const checkouts = { this: REPO_DIR, other: path.resolve(other) };
for (const [name, dir] of Object.entries(checkouts)) {
  if (!fs.existsSync(path.join(dir, 'lib', 'index.js')) || !fs.existsSync(path.join(dir, 'bench', 'worker-synth.js'))) {
    console.error(`${name} checkout ${dir}: no lib/index.js or bench/worker-synth.js: compile it first (npx projen compile)`);
    process.exit(2);
  }
}

function run(dir) {
  const out = execFileSync(process.execPath, ['--expose-gc', path.join(dir, 'bench', 'worker-synth.js'), JSON.stringify({ variant: 'nodeagent', n })], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: '20' },
  });
  const lines = out.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const samples = { this: [], other: [] };
for (let r = 0; r < reps; r++) {
  for (const name of ['other', 'this']) samples[name].push(run(checkouts[name]));
  process.stderr.write(`round ${r + 1}/${reps}\n`);
}
const summary = {};
for (const [name, list] of Object.entries(samples)) {
  summary[name] = { wallMs: median(list.map((s) => s.ms)), cpuMs: median(list.map((s) => s.cpuMs)), outputSha: [...new Set(list.map((s) => s.outputSha))] };
}
console.log(`synth of ${n} NodeAgents, medians of ${reps} fresh processes each`);
for (const [name, s] of Object.entries(summary)) {
  console.log(`${name.padEnd(6)} ${checkouts[name]}: wall ${s.wallMs.toFixed(0)} ms, CPU ${s.cpuMs.toFixed(0)} ms`);
}
console.log(`this / other: wall ${(summary.this.wallMs / summary.other.wallMs).toFixed(2)}x, CPU ${(summary.this.cpuMs / summary.other.cpuMs).toFixed(2)}x`);
