'use strict';
// Generates the benchmark inputs into bench/.cache (run once per `node bench/run.js`, in its own process):
// the manifests NodeAgent renders for each N and for the fleet, a 5,000-node inventory, 100 DaemonSets to
// plan, and 5,000 third-party workloads.
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const { CACHE_DIR, args, report, sha256 } = require('./common');
const { FLEET, nodeAgentApp, fleetNodeAgentApp, dumpYaml, loadModules } = require('./builders');
const { nodeInventory, coverageAgentProps, workloads } = require('./fixtures');
const { chartCopies, statusSnapshot, CHART } = require('./scale-fixtures');

const { sizes, nodes: nodeCount, daemonSets: dsCount, workloads: workloadCount, scaleCopies } = args();
const m = loadModules();
fs.mkdirSync(CACHE_DIR, { recursive: true });
const write = (file, text) => fs.writeFileSync(path.join(CACHE_DIR, file), text);
const info = {};

/**
 * The manifests of a chart, in the order `chart.toJson()` emits them, rendered without running the app's
 * validations: validation adds nothing to the output, and the NodeAgent synth variant (which validates)
 * prints the same bytes, which run.js checks. This keeps the preparation linear even when validation is not.
 */
function render(chart) {
  return new m.cdk8s.DependencyGraph(chart.node).topology()
    .filter((x) => m.cdk8s.ApiObject.isApiObject(x) && m.cdk8s.Chart.of(x) === chart)
    .map((o) => o.toJson());
}

// the smallest app is synthesized for real, so an agent that no longer validates stops the run here.
nodeAgentApp(m, Math.min(...sizes)).synthYaml();

for (const n of sizes) {
  const app = nodeAgentApp(m, n);
  const docs = render(app.charts[0]);
  write(`agents-${n}.json`, JSON.stringify(docs));
  const kinds = {};
  for (const d of docs) kinds[d.kind] = (kinds[d.kind] ?? 0) + 1;
  info[`agents-${n}`] = { objects: docs.length, kinds, yamlSha: sha256(dumpYaml(YAML, docs)) };
}

{
  const app = fleetNodeAgentApp(m);
  const perChart = app.charts.map(render);
  write('fleet.json', JSON.stringify(perChart));
  info.fleet = { ...FLEET, objects: perChart.reduce((s, c) => s + c.length, 0), yamlSha: sha256(perChart.map((docs) => dumpYaml(YAML, docs)).join('---\n')) };
}

{
  const list = nodeInventory(nodeCount);
  const text = YAML.stringify(list, { lineWidth: 0 });
  write('nodes.yaml', text);
  write('nodes.json', JSON.stringify(list));
  const tainted = list.items.filter((n) => (n.spec.taints ?? []).length > 0).length;
  const cordoned = list.items.filter((n) => n.spec.unschedulable).length;
  info.nodes = { count: list.items.length, tainted, cordoned, yamlBytes: Buffer.byteLength(text) };
}

{
  const app = new m.cdk8s.App();
  const chart = new m.cdk8s.Chart(app, 'coverage');
  const agents = [];
  for (let i = 0; i < dsCount; i++) agents.push(new m.lib.NodeAgent(chart, `agent-${i}`, coverageAgentProps(m.lib, m.plus, i)));
  const daemonSets = agents.map((a) => a.daemonSet.toJson());
  write('coverage-daemonsets.json', JSON.stringify(daemonSets));
  info.coverageDaemonSets = daemonSets.length;
}

{
  const list = workloads(workloadCount);
  const text = dumpYaml(YAML, list);
  write('workloads.yaml', text);
  write('workloads.json', JSON.stringify(list));
  info.workloads = { count: list.length, yamlBytes: Buffer.byteLength(text) };
}

// the scale cases: copies of a real chart from the corpus (fetched by test/corpus/fetch.js), a status snapshot
if (fs.existsSync(CHART)) {
  info.scale = { chart: path.basename(CHART), copies: {} };
  for (const n of [1, ...scaleCopies]) {
    const c = chartCopies(n);
    write(`chart-copies-${n}.yaml`, c.text);
    info.scale.copies[n] = { objects: c.objects, workloads: c.workloads, rbac: c.rbac, yamlBytes: Buffer.byteLength(c.text) };
  }
  const snapshot = JSON.stringify(statusSnapshot(nodeCount));
  write(`status-snapshot-${nodeCount}.json`, snapshot);
  info.scale.snapshot = { nodes: nodeCount, pods: nodeCount, jsonBytes: Buffer.byteLength(snapshot) };
} else {
  info.scale = { skipped: `${path.relative(path.resolve(CACHE_DIR, '..', '..'), CHART)} is missing: run node test/corpus/fetch.js first` };
}

report(info);
