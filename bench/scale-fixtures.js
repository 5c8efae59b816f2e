'use strict';
// Inputs for the scale cases (issue 20): N copies of one real chart from the corpus with their RBAC, names made unique
// (each copy in its own namespace; cluster-scoped objects and the references to them suffixed), and a 5,000-node
// status snapshot. Deterministic: the same N gives the same bytes.
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const { REPO_DIR } = require('./common');

/** the chart copied: auditbeat's install file (DaemonSet, ClusterRole, Roles and their bindings, ServiceAccount), 8 KB. */
const CHART = path.join(REPO_DIR, '.corpus', 'auditbeat.yaml');
const CLUSTER_SCOPED = new Set(['ClusterRole', 'ClusterRoleBinding', 'Namespace', 'CustomResourceDefinition', 'CSIDriver', 'PriorityClass']);

function chartObjects() {
  if (!fs.existsSync(CHART)) throw new Error(`${path.relative(REPO_DIR, CHART)} is missing: run \`node test/corpus/fetch.js\` first`);
  return YAML.parseAllDocuments(fs.readFileSync(CHART, 'utf8')).map((d) => d.toJS()).filter((o) => o && typeof o === 'object');
}

/** copy `i` of the chart's objects, in the namespace copy-i, cluster-scoped names suffixed -i. */
function copyOf(objects, i) {
  const ns = `copy-${i}`;
  return objects.map((o) => {
    const c = JSON.parse(JSON.stringify(o));
    if (CLUSTER_SCOPED.has(c.kind)) c.metadata.name = `${c.metadata.name}-${i}`;
    else c.metadata.namespace = ns;
    if (c.roleRef?.kind === 'ClusterRole') c.roleRef.name = `${c.roleRef.name}-${i}`;
    for (const s of c.subjects ?? []) if (s.kind === 'ServiceAccount') s.namespace = ns;
    return c;
  });
}

/** N copies as one YAML stream, and how many workloads and RBAC objects it holds. */
function chartCopies(n) {
  const objects = chartObjects();
  const all = [];
  for (let i = 0; i < n; i++) all.push(...copyOf(objects, i));
  const text = all.map((o) => YAML.stringify(o)).join('---\n');
  const count = (kinds) => all.filter((o) => kinds.includes(o.kind)).length;
  return { text, objects: all.length, workloads: count(['DaemonSet', 'Deployment', 'StatefulSet']), rbac: count(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']) };
}

module.exports = { chartCopies, CHART };

/**
 * A `kubectl get nodes,ds,controllerrevisions,pods,events -A -o json` snapshot of an n-node cluster where one
 * DaemonSet runs a ready pod on every node, built from the status tests' fixtures (test/model/status-fixtures.ts).
 */
function statusSnapshot(n) {
  require('ts-node').register({ transpileOnly: true, project: path.join(REPO_DIR, 'test', 'tsconfig.json') });
  const f = require(path.join(REPO_DIR, 'test', 'model', 'status-fixtures.ts'));
  const worker = f.kindNodes()[1];
  const nodes = [];
  const pods = [];
  for (let i = 0; i < n; i++) {
    const name = `node-${String(i).padStart(5, '0')}`;
    const node = JSON.parse(JSON.stringify(worker));
    node.metadata.name = name;
    if (node.metadata.labels?.['kubernetes.io/hostname']) node.metadata.labels['kubernetes.io/hostname'] = name;
    nodes.push(node);
    pods.push(f.pod(name, { name: `node-agent-${i.toString(36).padStart(5, '0')}` }));
  }
  const all = { desiredNumberScheduled: n, currentNumberScheduled: n, numberReady: n, updatedNumberScheduled: n, numberAvailable: n };
  return f.list([...nodes, f.daemonSet({ status: all }), f.revision(1, f.HASH_V1), ...pods]);
}

module.exports.statusSnapshot = statusSnapshot;
