'use strict';
// `npm run bench` (issue 6): benchmarks of cdk8s-node-agents, each case as a ratio to a baseline measured
// side by side in the same run, medians over repetitions, every repetition in a fresh Node process.
//
//   node bench/run.js                  the full run (about 6 to 8 minutes on 2 cores); writes bench/results.json
//   node bench/run.js --quick          3 repetitions everywhere (writes bench/.cache/results-partial.json)
//   node bench/run.js --only=synth,cold   some groups: synth, fleet, cold, coverage, review, scale (partial file too)
//   node bench/run.js --sizes=100,300     other synth sizes (partial file too)
//
// The run exits with 1 when a target is missed (or a case with a target could not run, or outputs that must be
// identical differ), so that `npm run bench` fails. The synth group includes the warm cases (N=1000, one process
// per sample repeating the synth; see warmSynth).
//
// The compiled library is read from ../lib (`npx projen bench` compiles it first). Inputs are generated
// deterministically into bench/.cache by prepare.js at the start of each run.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { BENCH_DIR, CACHE_DIR, LIB_DIR, REPO_DIR } = require('./common');
const { SKIPPED_NO_ENGINE } = require('./review-entry');

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const ONLY = (argv.find((a) => a.startsWith('--only=')) ?? '').slice('--only='.length).split(',').filter(Boolean);
const SIZES = (argv.find((a) => a.startsWith('--sizes=')) ?? '').slice('--sizes='.length).split(',').filter(Boolean).map(Number);
const PARTIAL = QUICK || ONLY.length > 0 || SIZES.length > 0;
const RESULTS = PARTIAL ? path.join(CACHE_DIR, 'results-partial.json') : path.join(BENCH_DIR, 'results.json');
const PREVIOUS = fs.existsSync(RESULTS) ? RESULTS : path.join(BENCH_DIR, 'results.json');

const CONFIG = {
  sizes: SIZES.length > 0 ? SIZES : [100, 1000, 5000],
  synthReps: QUICK ? { 100: 3, 1000: 3, 5000: 3 } : { 100: 9, 1000: 7, 5000: 5 },
  // the warm cases: at this size only (a warm process repeats the synth warmup + reps times), `warmProcesses` per variant.
  // NodeAgent's synth reaches its steady time after about 5 synths of 1,000 agents (cdk8s-plus-28's after 2 or 3).
  warmSize: 1000,
  warm: QUICK ? { warmup: 5, reps: 3 } : { warmup: 6, reps: 5 },
  warmProcesses: QUICK ? 3 : 5,
  fleetReps: QUICK ? 3 : 7,
  coldReps: QUICK ? 5 : 15,
  coverageReps: QUICK ? 3 : 5,
  reviewReps: QUICK ? 3 : 5,
  nodes: 5000,
  coverageDaemonSets: 100,
  workloads: 5000,
  scaleCopies: [1000, 5000],
  scaleReps: QUICK ? 3 : 5,
};

/** targets: the ratio ours / baseline must be at most `max` (`strict`: below it). */
// NodeAgent reviews itself at synth (that is the product): its baselines are cdk8s-plus-28 and raw ApiObjects with the
// same review (SecurityCheck.apply); bare raw ApiObjects are reported for information (the cost of the review itself).
const TARGETS = {
  'synth-time-vs-raw-checked': { max: 1.2, from: 1000 },
  'synth-time-vs-plus': { max: 1.0, from: 1000 },
  // issue 24: in one warm process (the JIT has compiled both sides' hot paths), with the review on
  'synth-warm-time-vs-plus': { max: 1.2, from: 1000 },
  'synth-mem-vs-raw-checked': { max: 1.3, from: 1000 },
  'fleet-time-vs-raw-checked': { max: 1.2 },
  'fleet-mem-vs-raw-checked': { max: 1.3 },
  'cold-vs-plus': { max: 1.0 },
  'coverage-vs-parse': { max: 1.0 },
  // issue 20: review, status and coverage time linear in workloads, RBAC objects and nodes
  'scale-review-vs-parse': { max: 3.0 },
  'scale-status-vs-parse': { max: 3.0 },
  'scale-coverage-vs-parse': { max: 3.0 },
};

const started = Date.now();
const log = (msg) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${msg}\n`);

// ---------------------------------------------------------------- running workers

/** a repetition that runs longer than this is killed and recorded as a lower bound. */
const TIMEOUT_MS = QUICK ? 60000 : 150000;
/** a variant whose first repetition takes longer than this gets at most `SLOW_REPS` repetitions. */
const SLOW_FIRST_MS = 20000;
const SLOW_REPS = 3;
/** a synth variant predicted to need longer than this per repetition at the next N is not run there. */
const SKIP_PREDICTED_MS = 120000;

/** runs one worker in a fresh process and returns its JSON report. */
function runWorker(script, spec, nodeFlags = ['--expose-gc'], timeout = TIMEOUT_MS) {
  const out = execFileSync(process.execPath, [...nodeFlags, path.join(BENCH_DIR, script), JSON.stringify(spec)], {
    cwd: REPO_DIR,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout,
    killSignal: 'SIGKILL',
    env: { ...process.env, JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: '20' },
  });
  const lines = out.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

/**
 * Measures several variants side by side: each round runs every variant once, in turn, so drift of the
 * machine (other jobs on it) spreads over all of them, and `round` pairs the samples for paired ratios.
 * A variant whose first repetition is slow gets fewer repetitions; one that times out stops.
 * Returns `{ variant: { samples, error?, timedOut?, note? } }`.
 */
function sideBySide(label, script, variants, reps, warmup = false) {
  const results = Object.fromEntries(Object.keys(variants).map((v) => [v, { samples: [] }]));
  const rounds = warmup ? reps + 1 : reps;
  for (let r = 0; r < rounds; r++) {
    for (const [v, spec] of Object.entries(variants)) {
      const res = results[v];
      if (res.error || res.timedOut || (res.cap !== undefined && res.samples.length >= res.cap)) continue;
      const t0 = Date.now();
      try {
        const sample = runWorker(script, spec.args, spec.flags);
        if (!(warmup && r === 0)) res.samples.push({ round: r, ...sample });
        if (res.samples.length === 1 && sample.ms > SLOW_FIRST_MS && reps > SLOW_REPS) {
          res.cap = SLOW_REPS;
          res.note = `${(sample.ms / 1000).toFixed(0)} s per repetition: ${SLOW_REPS} repetitions only`;
          log(`${label} ${v}: ${res.note}`);
        }
      } catch (e) {
        if (e.code === 'ETIMEDOUT' || e.signal === 'SIGKILL') {
          res.timedOut = true;
          res.samples.push({ round: r, ms: Date.now() - t0, timedOut: true });
          res.note = `timed out after ${(TIMEOUT_MS / 1000).toFixed(0)} s (the time is a lower bound)`;
          log(`${label} ${v}: ${res.note}`);
        } else {
          res.error = String(e.stderr || e.message).trim().split('\n').slice(-6).join('\n');
          log(`${label} ${v}: FAILED\n${res.error}`);
        }
      }
    }
    log(`${label}: round ${warmup ? r : r + 1}/${reps}${warmup && r === 0 ? ' (warm-up, discarded)' : ''}`);
  }
  return results;
}

function median(values) {
  const s = values.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (s.length === 0) return undefined;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

// ---------------------------------------------------------------- recording

const measurements = [];
const cases = [];
const checks = [];
const notes = [];

function record(group, n, results) {
  for (const [variant, { samples, error, timedOut, note, skipped }] of Object.entries(results)) {
    const med = {};
    for (const key of ['ms', 'cpuMs', 'peakRssDelta', 'maxRss', 'heapUsedAfter', 'heapRetained']) {
      const m = median(samples.map((x) => x[key]));
      if (m !== undefined) med[key] = m;
    }
    measurements.push({
      id: `${group}/${variant}${n ? `/${n}` : ''}`, group, variant, n, repetitions: samples.length,
      median: med, timedOut: timedOut || undefined, note, skipped, error, samples,
    });
  }
}

function get(group, variant, n) {
  return measurements.find((m) => m.group === group && m.variant === variant && m.n === n);
}

/**
 * adds a case row: ours / baseline on `metric` (ms, or peakRssDelta in bytes). Besides the ratio of the
 * medians, the ratios of the samples taken in the same round (one right after the other) give a spread that
 * shows how much the machine's noise could move the verdict.
 */
function addCase(id, title, group, n, ours, baseline, metric = 'ms') {
  const a = get(group, ours, n);
  const b = get(group, baseline, n);
  const t = TARGETS[id];
  const applies = t && (t.from === undefined || (n ?? 0) >= t.from);
  const target = applies ? `${t.strict ? '<' : '≤'}${t.max.toFixed(1)}x` : 'info';
  const row = { id: `${id}${n ? `/${n}` : ''}`, title, n, metric, ours: a?.id, baseline: b?.id, target };
  if (a?.skipped || b?.skipped) {
    cases.push({ ...row, skipped: a?.skipped ?? b?.skipped });
    return;
  }
  const lowerBound = !!a?.timedOut && metric === 'ms';
  const oursMedian = a?.median[metric];
  const baselineMedian = b?.median[metric];
  const ratio = oursMedian !== undefined && baselineMedian ? oursMedian / baselineMedian : undefined;
  const paired = [];
  for (const x of a?.samples ?? []) {
    const y = (b?.samples ?? []).find((s) => s.round === x.round);
    if (y && typeof x[metric] === 'number' && y[metric]) paired.push(x[metric] / y[metric]);
  }
  let met;
  if (applies && ratio !== undefined) met = lowerBound ? (ratio > t.max ? false : undefined) : t.strict ? ratio < t.max : ratio <= t.max;
  cases.push({
    ...row, oursMedian, baselineMedian, ratio, lowerBound: lowerBound || undefined, met,
    pairedRatios: paired.length > 0 ? { median: median(paired), min: Math.min(...paired), max: Math.max(...paired), values: paired } : undefined,
    note: [a?.note, b?.note].filter(Boolean).join('; ') || undefined,
    error: a?.error || b?.error,
  });
}

/** the same bytes must come out of NodeAgent, raw ApiObjects and the floor, else the comparison is void. */
function checkIdentical(group, n, variants) {
  const shas = variants.map((v) => get(group, v, n)?.samples.map((x) => x.outputSha)).flat().filter(Boolean);
  const missing = variants.filter((v) => !get(group, v, n)?.samples.some((x) => x.outputSha));
  const ok = shas.length > 0 && new Set(shas).size === 1;
  checks.push({
    check: `${group}${n ? ` N=${n}` : ''}: ${variants.filter((v) => !missing.includes(v)).join(', ')} print identical YAML, every repetition${missing.length ? ` (${missing.join(', ')} not run)` : ''}`,
    ok, shas: [...new Set(shas)],
  });
}

// ---------------------------------------------------------------- the groups

function want(group) {
  return ONLY.length === 0 || ONLY.includes(group);
}

let inputs;
function prepare() {
  log('preparing inputs (NodeAgent manifests, node inventory, workloads) in bench/.cache');
  inputs = runWorker('prepare.js', { sizes: CONFIG.sizes, nodes: CONFIG.nodes, daemonSets: CONFIG.coverageDaemonSets, workloads: CONFIG.workloads, scaleCopies: CONFIG.scaleCopies }, []);
  notes.push(
    'synth: agents are the least-privilege agent of examples/daemonset-basics (4-2-least-privilege: NET_ADMIN + SYS_PTRACE with reasons, /var/log read-only, 2 tolerations, nodeSelector) in 4 namespaces; raw-checked adds SecurityCheck.apply(app), the same review; raw and yaml hold exactly the objects NodeAgent rendered (checked byte for byte)',
    'cdk8s-plus-28 variant: nodeSelector as required node affinity, plus its own defaults (selector label, resources it injects are overridden where it allows)',
    `coverage: ${inputs.nodes.count} nodes (${inputs.nodes.tainted} tainted, ${inputs.nodes.cordoned} cordoned, 3 control-plane), 10 status.images each (kubectl lists up to 50), ${(inputs.nodes.yamlBytes / 1048576).toFixed(1)} MB of YAML`,
    `review: ${inputs.workloads.count} workloads (Deployments, StatefulSets, DaemonSets, Jobs, CronJobs, Pods), ${(inputs.workloads.yamlBytes / 1048576).toFixed(1)} MB of YAML`,
    inputs.scale.skipped ? `scale: ${inputs.scale.skipped}` : `scale: copies of the corpus's ${inputs.scale.chart} (each in its own namespace, cluster-scoped names suffixed): ${CONFIG.scaleCopies.map((n) => `${n} copies = ${inputs.scale.copies[n].workloads} workloads + ${inputs.scale.copies[n].rbac} RBAC objects, ${(inputs.scale.copies[n].yamlBytes / 1048576).toFixed(1)} MB`).join('; ')}; status snapshot of ${inputs.scale.snapshot.nodes} nodes with a DaemonSet pod on each, ${(inputs.scale.snapshot.jsonBytes / 1048576).toFixed(1)} MB of JSON; each CLI run against the library's reader on the same files (reading included on both sides)`,
  );
}

function synthGroup() {
  const history = {}; // variant -> [{ n, ms }] of the sizes measured so far
  for (const n of CONFIG.sizes) {
    const variants = {};
    const skipped = {};
    for (const v of ['nodeagent', 'raw-checked', 'plus', 'raw', 'yaml', 'nodeagent-unreviewed']) {
      const why = skipReason(history[v], n);
      if (why) skipped[v] = { samples: [], skipped: why };
      else variants[v] = { args: { variant: v, n } };
      if (why) log(`synth N=${n} ${v}: skipped: ${why}`);
    }
    // without NodeAgent at this size the baselines only compare with each other: fewer repetitions do.
    let reps = CONFIG.synthReps[n] ?? (QUICK ? 3 : 7);
    if (skipped.nodeagent) reps = Math.min(reps, SLOW_REPS);
    const results = { ...sideBySide(`synth N=${n}`, 'worker-synth.js', variants, reps), ...skipped };
    record('synth', n, results);
    for (const v of Object.keys(variants)) {
      const ms = get('synth', v, n)?.median.ms;
      if (ms !== undefined) (history[v] ??= []).push({ n, ms, timedOut: results[v].timedOut });
      if (results[v].timedOut) history[v].push({ n, ms: Infinity });
    }
    checkIdentical('synth', n, ['nodeagent', 'raw-checked', 'raw', 'yaml', 'nodeagent-unreviewed']);
    addCase('synth-time-vs-raw-checked', 'synth time: NodeAgent / raw ApiObject + SecurityCheck', 'synth', n, 'nodeagent', 'raw-checked');
    addCase('synth-time-vs-plus', 'synth time: NodeAgent / cdk8s-plus-28', 'synth', n, 'nodeagent', 'plus');
    addCase('synth-time-vs-raw', 'synth time: NodeAgent / bare raw ApiObject (the review\'s cost)', 'synth', n, 'nodeagent', 'raw');
    addCase('synth-time-checked-vs-raw', 'synth time: raw ApiObject + SecurityCheck / bare raw', 'synth', n, 'raw-checked', 'raw');
    // CPU time moves less than wall time when other jobs share the machine
    addCase('synth-cpu-vs-raw-checked', 'synth CPU time: NodeAgent / raw + SecurityCheck', 'synth', n, 'nodeagent', 'raw-checked', 'cpuMs');
    addCase('synth-cpu-vs-plus', 'synth CPU time: NodeAgent / cdk8s-plus-28', 'synth', n, 'nodeagent', 'plus', 'cpuMs');
    addCase('synth-time-vs-yaml', 'synth time: NodeAgent / yaml floor', 'synth', n, 'nodeagent', 'yaml');
    addCase('synth-time-plus-vs-raw', 'synth time: cdk8s-plus-28 / raw', 'synth', n, 'plus', 'raw');
    addCase('synth-time-raw-vs-yaml', 'synth time: raw ApiObject / yaml floor', 'synth', n, 'raw', 'yaml');
    addCase('synth-time-unreviewed-vs-raw', 'synth time: NodeAgent, review gate stubbed (diagnostic) / raw', 'synth', n, 'nodeagent-unreviewed', 'raw');
    addCase('synth-mem-vs-raw-checked', 'synth peak RSS: NodeAgent / raw + SecurityCheck', 'synth', n, 'nodeagent', 'raw-checked', 'peakRssDelta');
    addCase('synth-mem-vs-raw', 'synth peak RSS: NodeAgent / bare raw', 'synth', n, 'nodeagent', 'raw', 'peakRssDelta');
    addCase('synth-mem-vs-plus', 'synth peak RSS: NodeAgent / cdk8s-plus-28', 'synth', n, 'nodeagent', 'plus', 'peakRssDelta');
    if (n === CONFIG.warmSize) warmSynth(n);
  }
}

/** the synth repeated in one warm process per variant (median of its timed repetitions), the processes side by side. */
function warmSynth(n) {
  const variants = {};
  for (const v of ['nodeagent', 'plus']) variants[v] = { args: { variant: v, n, warm: CONFIG.warm } };
  record('synth-warm', n, sideBySide(`synth warm N=${n}`, 'worker-synth.js', variants, CONFIG.warmProcesses));
  // the same bytes as the fresh NodeAgent synth (each warm process checks its repetitions agree)
  checkIdentical('synth-warm', n, ['nodeagent']);
  const fresh = get('synth', 'nodeagent', n)?.samples.find((x) => x.outputSha)?.outputSha;
  const warmSha = get('synth-warm', 'nodeagent', n)?.samples.find((x) => x.outputSha)?.outputSha;
  if (fresh && warmSha) checks.push({ check: `synth N=${n}: NodeAgent prints the same YAML warm as fresh`, ok: fresh === warmSha, shas: [...new Set([fresh, warmSha])] });
  addCase('synth-warm-time-vs-plus', 'warm synth time: NodeAgent / cdk8s-plus-28', 'synth-warm', n, 'nodeagent', 'plus');
  addCase('synth-warm-cpu-vs-plus', 'warm synth CPU time: NodeAgent / cdk8s-plus-28', 'synth-warm', n, 'nodeagent', 'plus', 'cpuMs');
}

/**
 * Why a synth variant is not run at size n: it timed out at a smaller size, or the growth seen over the
 * smaller sizes (t ~ N^k, k from the last two sizes, at least 1) predicts more than SKIP_PREDICTED_MS.
 */
function skipReason(hist, n) {
  if (!hist || hist.length === 0) return undefined;
  const last = hist[hist.length - 1];
  if (last.ms === Infinity) return `timed out at N=${last.n}`;
  let k = 1;
  if (hist.length >= 2) {
    const prev = hist[hist.length - 2];
    k = Math.max(1, Math.log(last.ms / prev.ms) / Math.log(last.n / prev.n));
  }
  const predicted = last.ms * Math.pow(n / last.n, k);
  if (predicted <= SKIP_PREDICTED_MS) return undefined;
  return `predicted ${(predicted / 1000).toFixed(0)} s per repetition (${(last.ms / 1000).toFixed(1)} s at N=${last.n}, growing as N^${k.toFixed(2)}), over the ${(SKIP_PREDICTED_MS / 1000).toFixed(0)} s budget`;
}

function fleetGroup() {
  const variants = {
    nodeagent: { args: { variant: 'fleet-nodeagent' } },
    'raw-checked': { args: { variant: 'fleet-raw-checked' } },
    raw: { args: { variant: 'fleet-raw' } },
    checked: { args: { variant: 'fleet-nodeagent-checked' } },
  };
  record('fleet', undefined, sideBySide('fleet 50 clusters x 5 agents', 'worker-synth.js', variants, CONFIG.fleetReps));
  checkIdentical('fleet', undefined, ['nodeagent', 'raw-checked', 'raw', 'checked']);
  addCase('fleet-time-vs-raw-checked', 'fleet (50 charts x 5 agents) time: NodeAgent / raw + SecurityCheck', 'fleet', undefined, 'nodeagent', 'raw-checked');
  addCase('fleet-mem-vs-raw-checked', 'fleet peak RSS: NodeAgent / raw + SecurityCheck', 'fleet', undefined, 'nodeagent', 'raw-checked', 'peakRssDelta');
  addCase('fleet-time-vs-raw', 'fleet time: NodeAgent / bare raw', 'fleet', undefined, 'nodeagent', 'raw');
  addCase('fleet-checked-vs-raw-checked', 'fleet + SecurityCheck.apply(app) time: NodeAgent / raw + SecurityCheck', 'fleet', undefined, 'checked', 'raw-checked');
}

function coldGroup() {
  const variants = {
    lib: { args: { target: 'lib' }, flags: [] },
    'cdk8s-plus-28': { args: { target: 'cdk8s-plus-28' }, flags: [] },
    cdk8s: { args: { target: 'cdk8s' }, flags: [] },
  };
  record('cold', undefined, sideBySide('cold require', 'worker-cold.js', variants, CONFIG.coldReps, true));
  addCase('cold-vs-plus', 'cold require: cdk8s-node-agents / cdk8s-plus-28', 'cold', undefined, 'lib', 'cdk8s-plus-28');
  addCase('cold-cpu-vs-plus', 'cold require CPU time: cdk8s-node-agents / plus', 'cold', undefined, 'lib', 'cdk8s-plus-28', 'cpuMs');
  addCase('cold-vs-cdk8s', 'cold require: cdk8s-node-agents / cdk8s', 'cold', undefined, 'lib', 'cdk8s');
}

function scaleGroup() {
  if (inputs.scale.skipped) {
    log(`scale: ${inputs.scale.skipped}`);
    return;
  }
  const big = ['--expose-gc', '--max-old-space-size=8192'];
  for (const n of CONFIG.scaleCopies) {
    const variants = { review: { args: { mode: 'review', n }, flags: big }, parse: { args: { mode: 'parse', n, of: 'review' }, flags: big } };
    record('scale-review', n, sideBySide(`scale review N=${n}`, 'worker-scale.js', variants, CONFIG.scaleReps));
    addCase('scale-review-vs-parse', `review --json of ${n} chart copies (${inputs.scale.copies[n].workloads} workloads, ${inputs.scale.copies[n].rbac} RBAC objects) / reading them`, 'scale-review', n, 'review', 'parse');
  }
  const n = CONFIG.nodes;
  for (const [group, mode] of [['scale-status', 'status'], ['scale-coverage', 'coverage']]) {
    const variants = { [mode]: { args: { mode, n }, flags: big }, parse: { args: { mode: 'parse', n, of: mode }, flags: big } };
    record(group, n, sideBySide(`scale ${mode} N=${n}`, 'worker-scale.js', variants, CONFIG.scaleReps));
  }
  addCase('scale-status-vs-parse', `status --from a ${n}-node snapshot (a DaemonSet pod on each node) --json / reading it`, 'scale-status', n, 'status', 'parse');
  addCase('scale-coverage-vs-parse', `coverage --json of one chart over ${n} nodes / reading nodes and chart`, 'scale-coverage', n, 'coverage', 'parse');
}

function coverageGroup() {
  const variants = { plan: { args: { mode: 'plan' } }, parse: { args: { mode: 'parse' } } };
  record('coverage', CONFIG.nodes, sideBySide('coverage', 'worker-coverage.js', variants, CONFIG.coverageReps));
  addCase('coverage-vs-parse', `coverage: plan ${CONFIG.coverageDaemonSets} DaemonSets / parse inventory YAML`, 'coverage', CONFIG.nodes, 'plan', 'parse');
}

let review;
function reviewGroup() {
  const detected = runWorker('worker-review.js', { mode: 'detect' });
  const variants = { parse: { args: { mode: 'parse' } } };
  if (detected.review) variants.review = { args: { mode: 'review' } };
  if (detected.podSecurity) variants.podsecurity = { args: { mode: 'podsecurity' } };
  review = {
    engine: detected.review ?? null,
    status: detected.review ? `measured: ${detected.review}` : SKIPPED_NO_ENGINE,
    podSecurityStandIn: detected.podSecurity ? 'measured: PodSecurity.evaluate over the 5,000 pod specs' : 'skipped: PodSecurity is not in lib',
  };
  log(`review: ${review.status}; stand-in ${review.podSecurityStandIn}`);
  record('review', CONFIG.workloads, sideBySide('review', 'worker-review.js', variants, CONFIG.reviewReps));
  if (detected.review) addCase('review-vs-parse', 'review: review engine / parse manifests YAML', 'review', CONFIG.workloads, 'review', 'parse');
  if (detected.podSecurity) addCase('podsecurity-vs-parse', 'review stand-in: PodSecurity.evaluate / parse YAML', 'review', CONFIG.workloads, 'podsecurity', 'parse');
}

// ---------------------------------------------------------------- output

function fmt(metric, v) {
  if (v === undefined) return '-';
  return metric === 'ms' || metric === 'cpuMs' ? `${v < 100 ? v.toFixed(1) : v.toFixed(0)} ms` : `${(v / 1048576).toFixed(1)} MB`;
}

function table(rows, headers) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function loadPrevious() {
  try {
    return JSON.parse(fs.readFileSync(PREVIOUS, 'utf8'));
  } catch {
    return undefined;
  }
}

/** a fingerprint of the compiled library (paths, sizes, mtimes), to notice a recompile during the run. */
function libFingerprint() {
  const files = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js')) {
        const st = fs.statSync(p);
        files.push(`${path.relative(LIB_DIR, p)}:${st.size}:${st.mtimeMs}`);
      }
    }
  };
  walk(LIB_DIR);
  files.sort();
  const newest = Math.max(...files.map((f) => Number(f.split(':')[2])));
  return { sha: require('./common').sha256(files.join('\n')), newest: new Date(newest).toISOString(), files: files.length };
}

function main() {
  if (!fs.existsSync(path.join(LIB_DIR, 'index.js'))) {
    throw new Error('lib/index.js is missing: compile first (npx projen compile, or run npx projen bench)');
  }
  const libAtStart = libFingerprint();
  const previous = loadPrevious();
  prepare();
  if (want('synth')) synthGroup();
  if (want('fleet')) fleetGroup();
  if (want('cold')) coldGroup();
  if (want('coverage')) coverageGroup();
  if (want('review')) reviewGroup();
  if (want('scale')) scaleGroup();

  const prevCases = new Map((previous?.cases ?? []).map((c) => [c.id, c]));
  const rows = cases.map((c) => {
    const p = prevCases.get(c.id);
    let result = '';
    if (c.skipped) result = c.target === 'info' ? 'skipped' : 'NOT RUN';
    else if (c.error) result = 'error';
    else if (c.met !== undefined) result = c.met ? 'met' : 'MISSED';
    const gt = c.lowerBound ? '>' : '';
    const ratio = c.ratio !== undefined ? `${gt}${c.ratio.toFixed(2)}x` : '-';
    const spread = c.pairedRatios && c.pairedRatios.values.length > 1 ? `${c.pairedRatios.min.toFixed(2)}-${c.pairedRatios.max.toFixed(2)}` : '-';
    const prevRatio = p?.ratio !== undefined ? `${p.lowerBound ? '>' : ''}${p.ratio.toFixed(2)}x` : '-';
    let change = '-';
    if (p?.oursMedian && c.oursMedian !== undefined) {
      const pct = (c.oursMedian / p.oursMedian - 1) * 100;
      change = `${pct >= 0 ? '+' : ''}${pct.toFixed(0)}%`;
    }
    return [c.title, c.n ?? '', c.skipped ? 'not run' : `${gt}${fmt(c.metric, c.oursMedian)}`, fmt(c.metric, c.baselineMedian),
      ratio, spread, c.target, result, prevRatio, change];
  });

  const machine = {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 1073741824 * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  };
  const out = [];
  out.push('');
  out.push(`cdk8s-node-agents benchmarks: ${new Date().toISOString()}`);
  out.push(`machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, node ${machine.node}, ${machine.platform}`);
  out.push(`medians of ${Object.values(CONFIG.synthReps).join('/')} (synth N=${CONFIG.sizes.join('/')}), ${CONFIG.warmProcesses} warm processes of ${CONFIG.warm.warmup} + ${CONFIG.warm.reps} repetitions each (warm synth N=${CONFIG.warmSize}, the median repetition of each), ${CONFIG.fleetReps} (fleet), ${CONFIG.coldReps} (cold), ${CONFIG.coverageReps} (coverage), ${CONFIG.reviewReps} (review) fresh processes per variant; time = construct + synth (not module loading); memory = peak RSS growth during that work`);
  if (previous) out.push(`previous run: ${previous.date} (prev = its ratio; Δ ours = change of our median)`);
  out.push('');
  out.push(table(rows, ['case', 'N', 'ours', 'baseline', 'ratio', 'paired', 'target', 'result', 'prev', 'Δ ours']));
  out.push('ratio = median(ours) / median(baseline); paired = min-max of ours/baseline within each round (run back to back)');
  out.push('');
  if (review) {
    out.push(`review engine: ${review.status}`);
    out.push(`review stand-in: ${review.podSecurityStandIn}`);
  }
  for (const n of notes) out.push(`note: ${n}`);
  for (const c of checks) out.push(`check: ${c.check}: ${c.ok ? 'yes' : `NO (${c.shas.join(', ')})`}`);
  for (const c of cases.filter((x) => x.error)) out.push(`error in ${c.id}: ${c.error}`);
  for (const m of measurements.filter((x) => x.note)) out.push(`${m.id}: ${m.note}`);
  for (const m of measurements.filter((x) => x.skipped)) out.push(`not run ${m.id}: ${m.skipped}`);
  const libAtEnd = libFingerprint();
  const libChanged = libAtEnd.sha !== libAtStart.sha;
  if (libChanged) out.push(`WARNING: lib/ was recompiled during the run (newest file ${libAtStart.newest} at start, ${libAtEnd.newest} at the end): cases measured after that used other code; run again`);
  const missed = cases.filter((c) => c.met === false || (c.skipped && c.target !== 'info')).map((c) => c.id);
  out.push(missed.length > 0 ? `targets missed: ${missed.join(', ')}` : 'all targets met');
  // a missed target, a failed case or outputs that differ fail the run (and `npm run bench`)
  const failedChecks = checks.filter((c) => !c.ok).map((c) => c.check);
  const errors = cases.filter((c) => c.error && c.target !== 'info').map((c) => c.id);
  if (failedChecks.length > 0) out.push(`checks failed: ${failedChecks.join('; ')}`);
  if (errors.length > 0) out.push(`cases with a target failed to run: ${errors.join(', ')}`);
  if (missed.length > 0 || failedChecks.length > 0 || errors.length > 0 || libChanged) process.exitCode = 1;
  out.push(`total ${((Date.now() - started) / 1000).toFixed(0)} s; results in ${path.relative(REPO_DIR, RESULTS)}`);
  console.log(out.join('\n'));

  const results = {
    schema: 1,
    date: new Date().toISOString(),
    command: ['node', path.relative(REPO_DIR, process.argv[1]), ...argv].join(' '),
    // how it was started, when through npm/npx (`npx projen bench` shows as "projen"; `npm run bench` as "projen bench").
    via: process.env.npm_lifecycle_script,
    machine,
    lib: { atStart: libAtStart, atEnd: libAtEnd, changedDuringRun: libChanged },
    durationSeconds: Math.round((Date.now() - started) / 1000),
    config: CONFIG,
    targets: TARGETS,
    inputs,
    review,
    checks,
    notes,
    cases,
    measurements,
    previous: previous ? { date: previous.date, cases: (previous.cases ?? []).map(({ id, ratio, lowerBound, oursMedian, baselineMedian, met }) => ({ id, ratio, lowerBound, oursMedian, baselineMedian, met })) } : undefined,
  };
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, JSON.stringify(results, null, 1) + '\n');
}

main();
