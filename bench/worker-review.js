'use strict';
// One review repetition over 5,000 third-party workloads:
// `node --expose-gc worker-review.js '{"mode":"detect"|"parse"|"review"|"podsecurity"}'`.
// parse: the `yaml` package parsing the manifests (the baseline). review: the review engine, when lib has one
// (see review-entry.js). podsecurity: PodSecurity.evaluate on each pod spec, the stand-in while there is no
// engine. Inputs are parsed from JSON before the clock starts.
const YAML = require('yaml');
const { LIB_DIR, args, measure, readJson, readText, report } = require('./common');
const { findReviewEntryPoint, summarize } = require('./review-entry');
const { podSpecOf } = require('./fixtures');

const { mode } = args();
if (mode === 'detect') {
  const lib = require(LIB_DIR);
  const entry = findReviewEntryPoint(lib);
  const ps = lib.PodSecurity;
  report({ review: entry ? entry.name : null, podSecurity: !!ps && typeof ps.evaluate === 'function' });
  process.exit(0);
}

let work;
if (mode === 'parse') {
  const text = readText('workloads.yaml');
  work = () => ({ workloads: YAML.parseAllDocuments(text).map((d) => d.toJS()).length });
} else if (mode === 'review') {
  const entry = findReviewEntryPoint(require(LIB_DIR));
  if (!entry) throw new Error('no review entry point in lib');
  const manifests = readJson('workloads.json');
  work = () => {
    const out = entry.run(manifests);
    return { workloads: manifests.length, entry: entry.name, ...summarize(out) };
  };
} else if (mode === 'podsecurity') {
  const { PodSecurity } = require(LIB_DIR);
  const manifests = readJson('workloads.json');
  const pods = manifests.map((w) => ({ spec: podSpecOf(w), annotations: (w.kind === 'Pod' ? w.metadata : (w.kind === 'CronJob' ? w.spec.jobTemplate.spec.template : w.spec.template).metadata)?.annotations }));
  work = () => {
    const levels = {};
    for (const p of pods) {
      const { level } = PodSecurity.evaluate(p.spec, { annotations: p.annotations });
      levels[level] = (levels[level] ?? 0) + 1;
    }
    return { workloads: pods.length, levels };
  };
} else {
  throw new Error(`unknown mode ${mode}`);
}
const { result, sample } = measure(work);
report({ ...sample, ...result });
