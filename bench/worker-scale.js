'use strict';
// One repetition of a scale case (issue 20): the CLI on a large input against reading that input.
// `node --expose-gc worker-scale.js '{"mode":"parse"|"review"|"status"|"coverage","n":1000}'`
//   parse    the library's reader on the case's input files: bytes read and turned into the JSON documents (the baseline)
//   review   `cdk8s-node-agents review --json chart-copies-N.yaml`: N copies of a real chart with their RBAC
//   status   `cdk8s-node-agents status --from status-snapshot-N.json --json`: N nodes, a pod on each
//   coverage `cdk8s-node-agents coverage --json --nodes nodes.yaml chart-copies-1.yaml`: the N-node inventory
// Each CLI run reads its files itself (inside the clock), as parse does.
const path = require('node:path');
const { CACHE_DIR, LIB_DIR, args, measureAsync, report } = require('./common');

const { mode, n, of } = args();
const file = (name) => path.join(CACHE_DIR, name);
const inputs = {
  review: [file(`chart-copies-${n}.yaml`)],
  status: [file(`status-snapshot-${n}.json`)],
  coverage: [file('nodes.yaml'), file('chart-copies-1.yaml')],
};

const { main } = require(path.join(LIB_DIR, 'cli', 'main'));

function cli(argv) {
  let out = 0;
  let err = '';
  return main(argv, { stdout: { write: (s) => { out += s.length; return true; } }, stderr: { write: (s) => { err += s; return true; } } })
    .then((code) => {
      if (code === 2) throw new Error(`${argv.join(' ')}: exit 2: ${err}`);
      return { code, outputChars: out };
    });
}

async function run() {
  let work;
  if (mode === 'parse') {
    const { readManifestStream } = require(path.join(LIB_DIR, 'model', '_manifest-reader'));
    const { readInputText } = require(path.join(LIB_DIR, 'review', '_input-file'));
    work = () => ({ documents: inputs[of].reduce((s, f) => s + readManifestStream(readInputText(f)).length, 0) });
  } else if (mode === 'review') {
    work = () => cli(['review', '--json', ...inputs.review]);
  } else if (mode === 'status') {
    work = () => cli(['status', '--from', inputs.status[0], '--json']);
  } else if (mode === 'coverage') {
    work = () => cli(['coverage', '--json', '--nodes', inputs.coverage[0], inputs.coverage[1]]);
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  const { result, sample } = await measureAsync(async () => work());
  report({ ...sample, ...result });
}

run().catch((e) => {
  process.stderr.write(`${e.stack ?? e}\n`);
  process.exit(1);
});
