'use strict';
// One coverage repetition: `node --expose-gc worker-coverage.js '{"mode":"plan"|"parse"}'`.
// plan: DaemonSetCoverage.plan for each of the 100 DaemonSets over the 5,000-node inventory (inputs already
// parsed from JSON before the clock starts). parse: the `yaml` package parsing that inventory's YAML text.
const YAML = require('yaml');
const { LIB_DIR, args, measure, readJson, readText, report } = require('./common');

const { mode } = args();
let work;
if (mode === 'plan') {
  const { DaemonSetCoverage } = require(LIB_DIR);
  const nodes = readJson('nodes.json').items;
  const daemonSets = readJson('coverage-daemonsets.json');
  work = () => {
    let desired = 0;
    for (const ds of daemonSets) desired += DaemonSetCoverage.plan(ds, nodes).desired;
    return { desired, daemonSets: daemonSets.length, nodes: nodes.length };
  };
} else if (mode === 'parse') {
  const text = readText('nodes.yaml');
  work = () => ({ nodes: YAML.parse(text).items.length });
} else {
  throw new Error(`unknown mode ${mode}`);
}
const { result, sample } = measure(work);
report({ ...sample, ...result });
