'use strict';
// The apps each synth variant builds. Shared by prepare.js (which saves what NodeAgent produced) and the
// synth worker (which times them), so the baselines hold exactly the objects NodeAgent rendered.
const { agentNamespace, agentProps, plusAgent, plusNamespace } = require('./fixtures');

/** the fleet case: 5 agents for each of 50 clusters, one chart per cluster with its own namespace. */
const FLEET = { clusters: 50, agents: 5 };

/** N NodeAgents in one chart, spread over a few namespaces. */
function nodeAgentApp(m, n) {
  const app = new m.cdk8s.App();
  const chart = new m.cdk8s.Chart(app, 'agents');
  for (let i = 0; i < n; i++) new m.lib.NodeAgent(chart, `agent-${i}`, agentProps(m.lib, m.plus, i, agentNamespace(i)));
  return app;
}

/** the same objects as raw ApiObjects, from the manifests NodeAgent produced. */
function rawApp(m, manifests) {
  const app = new m.cdk8s.App();
  const chart = new m.cdk8s.Chart(app, 'agents');
  manifests.forEach((doc, j) => new m.cdk8s.ApiObject(chart, `o${j}`, doc));
  return app;
}

/**
 * the same raw ApiObjects with the same review NodeAgent runs at synth, app-wide: `SecurityCheck.apply(app)` at the
 * agents' threshold (high), its report not written (no disk in the timing). The baseline the targets compare with: a
 * NodeAgent reviews itself, so raw objects are compared with the review on.
 */
function rawCheckedApp(m, manifests) {
  const app = rawApp(m, manifests);
  m.lib.SecurityCheck.apply(app, { writeReport: false });
  return app;
}

/** the same agents with cdk8s-plus-28: a Namespace per namespace, a ServiceAccount and a DaemonSet each. */
function plusApp(m, n) {
  const app = new m.cdk8s.App();
  const chart = new m.cdk8s.Chart(app, 'agents');
  const namespaces = new Set();
  for (let i = 0; i < n; i++) {
    const ns = agentNamespace(i);
    if (!namespaces.has(ns)) {
      namespaces.add(ns);
      plusNamespace(m.plus, chart, ns);
    }
    plusAgent(m.plus, m.cdk8s, chart, i, ns);
  }
  return app;
}

/** fleet: one chart per cluster (chart namespace `cluster-<c>-agents`), the same 5 agents in each. */
function fleetNodeAgentApp(m) {
  const app = new m.cdk8s.App();
  for (let c = 0; c < FLEET.clusters; c++) {
    const chart = new m.cdk8s.Chart(app, `cluster-${c}`, { namespace: `cluster-${c}-agents` });
    for (let i = 0; i < FLEET.agents; i++) new m.lib.NodeAgent(chart, `agent-${i}`, agentProps(m.lib, m.plus, i, undefined));
  }
  return app;
}

/**
 * fleet as raw ApiObjects: one chart per cluster holding the manifests NodeAgent produced for it. The charts
 * carry no default namespace: every namespaced manifest names its namespace already, and the cluster-scoped
 * Namespace object must not get one.
 */
function fleetRawApp(m, perChart) {
  const app = new m.cdk8s.App();
  perChart.forEach((manifests, c) => {
    const chart = new m.cdk8s.Chart(app, `cluster-${c}`);
    manifests.forEach((doc, j) => new m.cdk8s.ApiObject(chart, `o${j}`, doc));
  });
  return app;
}

/** the fleet as raw ApiObjects with the same review, app-wide (see rawCheckedApp). */
function fleetRawCheckedApp(m, perChart) {
  const app = fleetRawApp(m, perChart);
  m.lib.SecurityCheck.apply(app, { writeReport: false });
  return app;
}

/** cdk8s' own YAML options (cdk8s `Yaml.stringify`), so the floor prints the very same bytes. */
const CDK8S_YAML_OPTIONS = { keepUndefined: true, lineWidth: 0, version: '1.1' };

/** the floor: each document dumped with the `yaml` package, joined with `---`. */
function dumpYaml(YAML, docs) {
  return docs.map((d) => YAML.stringify(d, CDK8S_YAML_OPTIONS)).join('---\n');
}

function loadModules() {
  const { LIB_DIR } = require('./common');
  return { cdk8s: require('cdk8s'), plus: require('cdk8s-plus-28'), lib: require(LIB_DIR) };
}

module.exports = { FLEET, nodeAgentApp, rawApp, rawCheckedApp, plusApp, fleetNodeAgentApp, fleetRawApp, fleetRawCheckedApp, dumpYaml, loadModules };
