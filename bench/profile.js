'use strict';
// Profiles one benchmark repetition with V8's CPU profiler and prints where the time goes.
//
//   node bench/profile.js synth nodeagent 1000      (worker-synth.js variants: nodeagent, raw, plus, yaml,
//   node bench/profile.js synth fleet-nodeagent      fleet-nodeagent, fleet-nodeagent-checked, fleet-raw)
//   node bench/profile.js coverage plan
//   node bench/profile.js cold lib
//
// Prints the top functions by self time and by inclusive time (each function counted once per sample, so
// recursion is not double counted). The .cpuprofile is kept in bench/.cache/profiles (open it in Chrome
// DevTools for the flame chart).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { BENCH_DIR, CACHE_DIR, REPO_DIR } = require('./common');

//   node bench/profile.js --script path/to/experiment.js [args...]   (any script; TOP=40 for more rows)
//   node bench/profile.js --warm synth nodeagent 1000   the timed repetitions of one warm process (the bench's warm case)
const WARM = process.argv.includes('--warm');
const ARGS = process.argv.slice(2).filter((a) => a !== '--warm');
const SCRIPT = ARGS[0] === '--script' ? path.resolve(ARGS[1]) : undefined;
const [group = 'synth', variant = 'nodeagent', n = '1000', top = process.env.TOP ?? '25'] = SCRIPT ? ['script', path.basename(SCRIPT, '.js')] : ARGS;
const scripts = { synth: 'worker-synth.js', coverage: 'worker-coverage.js', review: 'worker-review.js', cold: 'worker-cold.js' };
if (WARM && group !== 'synth') throw new Error('--warm profiles the synth group only');
const dir = path.join(CACHE_DIR, 'profiles');
fs.mkdirSync(dir, { recursive: true });
const name = SCRIPT ? `script-${variant}-${ARGS.slice(2).join('-').replace(/[^\w.-]+/g, '_')}.cpuprofile`
  : `${group}-${WARM ? 'warm-' : ''}${variant}${group === 'synth' && !variant.startsWith('fleet') ? `-${n}` : ''}.cpuprofile`;
const file = path.join(dir, name);
const spec = group === 'synth' ? { variant, n: Number(n), warm: WARM ? { warmup: 6, reps: 5, profile: file } : undefined }
  : group === 'cold' ? { target: variant } : { mode: variant };
// warm: the worker profiles its timed repetitions itself; otherwise the whole process, from its start
const profileFlags = WARM ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}`, '--cpu-prof-interval=200'];
const out = execFileSync(process.execPath, ['--expose-gc', ...profileFlags,
  ...(SCRIPT ? [SCRIPT, ...ARGS.slice(2)] : [path.join(BENCH_DIR, scripts[group]), JSON.stringify(spec)])], { cwd: REPO_DIR, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
console.log(`worker report: ${out.trim().split('\n').pop()}`);

const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const keyOf = (node) => {
  const f = node.callFrame;
  const where = f.url ? `${f.url.replace(`file://${REPO_DIR}/`, '').replace(/^.*node_modules\//, '')}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'} ${where}`.trim();
};
const self = new Map();
const incl = new Map();
let total = 0;
for (const [id, us] of selfUs) {
  total += us;
  const node = byId.get(id);
  self.set(keyOf(node), (self.get(keyOf(node)) ?? 0) + us);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = keyOf(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + us);
  }
}
const print = (title, map) => {
  console.log(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
  [...map.entries()].filter(([k]) => !/^\((root|program|idle)\)/.test(k)).sort((a, b) => b[1] - a[1]).slice(0, Number(top))
    .forEach(([k, us]) => console.log(`${(us / 1000).toFixed(0).padStart(7)} ms ${(100 * us / total).toFixed(1).padStart(5)}%  ${k}`));
};
print('self time', self);
print('inclusive time', incl);
console.log(`\nprofile: ${path.relative(REPO_DIR, file)}`);
