'use strict';
// One synth repetition in a fresh process: `node --expose-gc worker-synth.js '{"variant":..,"n":..}'`, or, with
// `"warm":{"warmup":2,"reps":5}`, the median of several repetitions in one warm process.
// Modules and inputs are loaded before the clock starts; the clock covers building the constructs and
// synthesizing YAML (or, for the floor, dumping the same documents with the `yaml` package).
const YAML = require('yaml');
const { args, measure, readJson, report, sha256 } = require('./common');
const { nodeAgentApp, rawApp, rawCheckedApp, plusApp, fleetNodeAgentApp, fleetRawApp, fleetRawCheckedApp, dumpYaml, loadModules } = require('./builders');

// `warm: { warmup, reps }`: time the work in one warm process instead of once in a fresh one (see the end)
const { variant, n, warm } = args();
const m = loadModules();

let work;
switch (variant) {
  case 'nodeagent':
    work = () => nodeAgentApp(m, n).synthYaml();
    break;
  case 'nodeagent-unreviewed':
    // diagnostic, not a way to use the library: the agents' synth-time review gate stubbed out, to show its share
    m.lib.SecurityReview._openFindings = () => [];
    work = () => nodeAgentApp(m, n).synthYaml();
    break;
  case 'raw': {
    const docs = readJson(`agents-${n}.json`);
    work = () => rawApp(m, docs).synthYaml();
    break;
  }
  case 'raw-checked': {
    const docs = readJson(`agents-${n}.json`);
    work = () => rawCheckedApp(m, docs).synthYaml();
    break;
  }
  case 'plus':
    work = () => plusApp(m, n).synthYaml();
    break;
  case 'yaml': {
    const docs = readJson(`agents-${n}.json`);
    work = () => dumpYaml(YAML, docs);
    break;
  }
  case 'fleet-nodeagent':
    work = () => fleetNodeAgentApp(m).synthYaml();
    break;
  case 'fleet-nodeagent-checked':
    // the fleet as the examples build it: the app-wide review on top (its report is not written: no disk in the timing)
    work = () => {
      const app = fleetNodeAgentApp(m);
      m.lib.SecurityCheck.apply(app, { writeReport: false });
      return app.synthYaml();
    };
    break;
  case 'fleet-raw': {
    const perChart = readJson('fleet.json');
    work = () => fleetRawApp(m, perChart).synthYaml();
    break;
  }
  case 'fleet-raw-checked': {
    const perChart = readJson('fleet.json');
    work = () => fleetRawCheckedApp(m, perChart).synthYaml();
    break;
  }
  default:
    throw new Error(`unknown variant ${variant}`);
}

if (warm === undefined) {
  const { result, sample } = measure(work);
  report({ ...sample, outputSha: sha256(result), outputBytes: Buffer.byteLength(result), documents: result.split(/^---$/m).length });
} else {
  // one warm process: the same work `warm.warmup` times untimed (the JIT compiles the hot paths, caches fill), then
  // `warm.reps` times timed; the sample is the median repetition. Every repetition must print the same bytes.
  for (let i = 0; i < warm.warmup; i++) work();
  // `warm.profile`: a .cpuprofile of the timed repetitions only (bench/profile.js --warm)
  const profiler = warm.profile ? startProfiler() : undefined;
  const reps = [];
  for (let i = 0; i < warm.reps; i++) reps.push(measure(work));
  profiler?.stop(warm.profile);
  const shas = new Set(reps.map((r) => sha256(r.result)));
  if (shas.size !== 1) throw new Error(`warm repetitions printed different YAML: ${[...shas].join(', ')}`);
  const mid = (key) => reps.map((r) => r.sample[key]).sort((a, b) => a - b)[reps.length >> 1];
  const result = reps[0].result;
  report({ ms: mid('ms'), cpuMs: mid('cpuMs'), repMs: reps.map((r) => r.sample.ms), warmup: warm.warmup, outputSha: [...shas][0], outputBytes: Buffer.byteLength(result), documents: result.split(/^---$/m).length });
}

/** V8's CPU profiler in this process (node:inspector), so that a profile can leave the warm-up out. */
function startProfiler() {
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method, params) => {
    let out;
    session.post(method, params, (err, res) => {
      if (err) throw err;
      out = res;
    });
    return out; // the in-process session answers synchronously
  };
  post('Profiler.enable');
  post('Profiler.setSamplingInterval', { interval: 200 });
  post('Profiler.start');
  return { stop: (file) => require('node:fs').writeFileSync(file, JSON.stringify(post('Profiler.stop').profile)) };
}
