'use strict';
// One synth repetition in a fresh process: `node --expose-gc worker-synth.js '{"variant":..,"n":..}'`.
// Modules and inputs are loaded before the clock starts; the clock covers building the constructs and
// synthesizing YAML (or, for the floor, dumping the same documents with the `yaml` package).
const YAML = require('yaml');
const { args, measure, readJson, report, sha256 } = require('./common');
const { nodeAgentApp, rawApp, rawCheckedApp, plusApp, fleetNodeAgentApp, fleetRawApp, fleetRawCheckedApp, dumpYaml, loadModules } = require('./builders');

const { variant, n } = args();
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

const { result, sample } = measure(work);
report({ ...sample, outputSha: sha256(result), outputBytes: Buffer.byteLength(result), documents: result.split(/^---$/m).length });
