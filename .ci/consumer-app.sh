#!/usr/bin/env bash
# Packs the library in $1 and installs the tarball into a new cdk8s app in a temporary directory (outside
# the repository), then checks that `cdk8s synth` renders the expected DaemonSet.
set -euo pipefail
repo="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tarball="$(cd "$repo" && npm pack --silent --pack-destination "$work" | tail -n 1)"
echo "packed $tarball"
cd "$work"
mkdir app && cd app
npm init -y >/dev/null
peer() { node -e "const p=require('$repo/package.json'); console.log(p.peerDependencies['$1'])"; }
dev() { node -e "const p=require('$repo/package.json'); console.log(p.devDependencies['$1'])"; }
# typescript 7 has no JS compiler API, which ts-node needs: pin the 6.0 line.
npm install --no-audit --no-fund "$work/$tarball" "cdk8s@$(peer cdk8s)" "constructs@$(peer constructs)" \
  "cdk8s-plus-28@$(peer cdk8s-plus-28)" "cdk8s-cli@$(dev cdk8s-cli)" ts-node@^10 typescript@~6.0.3 @types/node@^20 >/dev/null
version="$(node -e "console.log(require('$repo/package.json').version)")"
cat > cdk8s.yaml <<YAML
language: typescript
app: npx ts-node main.ts
output: dist
validations:
  - package: ./node_modules/cdk8s-node-agents
    class: SecurityReviewValidation
    version: $version
    properties:
      failOn: high
YAML
cat > tsconfig.json <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "commonjs", "strict": true, "esModuleInterop": true, "skipLibCheck": true } }
JSON
cat > main.ts <<'TS'
import { App, Chart } from 'cdk8s';
import { HostMount, NodeAgent, Toleration } from 'cdk8s-node-agents';

const app = new App();
const chart = new Chart(app, 'observability');
new NodeAgent(chart, 'node-agent', {
  namespace: 'observability',
  image: 'registry.example.com/node-agent:1.2.0',
  nodeSelector: { 'node-role.kubernetes.io/worker': '' },
  tolerations: [Toleration.controlPlane()],
  hostMounts: [HostMount.readOnly('/var/log', { reason: 'reads node and container logs' })],
});
app.synth();
TS
npx cdk8s synth --no-check-upgrade
node - <<'JS'
const fs = require('fs');
const { parseAllDocuments } = require('yaml');
const docs = parseAllDocuments(fs.readFileSync('dist/observability.k8s.yaml', 'utf8')).map((d) => d.toJSON());
const ds = docs.find((d) => d.kind === 'DaemonSet');
const fail = (m) => { console.error(`consumer app: ${m}`); process.exit(1); };
if (!ds) fail('no DaemonSet in dist/observability.k8s.yaml');
const spec = ds.spec.template.spec;
if (ds.metadata.name !== 'node-agent' || ds.metadata.namespace !== 'observability') fail(`unexpected DaemonSet ${ds.metadata.namespace}/${ds.metadata.name}`);
if (spec.nodeSelector['node-role.kubernetes.io/worker'] !== '') fail('nodeSelector missing');
if (spec.containers[0].image !== 'registry.example.com/node-agent:1.2.0') fail('image differs');
if (spec.volumes[0].hostPath.path !== '/var/log' || spec.containers[0].volumeMounts[0].readOnly !== true) fail('host mount differs');
if (!docs.some((d) => d.kind === 'Namespace') || !docs.some((d) => d.kind === 'ServiceAccount')) fail('Namespace or ServiceAccount missing');
if (!fs.existsSync('dist/security-review.md')) fail('the validation plugin wrote no dist/security-review.md');
console.log(`consumer app: synthesized ${docs.map((d) => d.kind).join(', ')} from the packed library, reviewed by the validation plugin`);
JS

# the package's command works from the install: review the synthesized manifest, and predict its coverage.
npx --no-install cdk8s-node-agents review --fail-on high dist/observability.k8s.yaml > review.md
grep -q "DaemonSet observability/node-agent" review.md || { cat review.md; echo "consumer app: review output lacks the DaemonSet" >&2; exit 1; }
cat > nodes.yaml <<'YAML'
apiVersion: v1
kind: List
items:
  - { apiVersion: v1, kind: Node, metadata: { name: worker-1, labels: { kubernetes.io/os: linux, node-role.kubernetes.io/worker: "" } } }
  - { apiVersion: v1, kind: Node, metadata: { name: worker-2, labels: { kubernetes.io/os: linux } } }
YAML
npx --no-install cdk8s-node-agents coverage --json --nodes nodes.yaml dist/observability.k8s.yaml > coverage.json
node -e "const c=require('./coverage.json'); if (c.nodeCount !== 2 || c.daemonSets[0].desired !== 1) { console.error('consumer app: unexpected coverage', JSON.stringify(c)); process.exit(1); }"
echo "consumer app: cdk8s-node-agents review and coverage ran from the installed package"

# the validation plugin must fail the synth of a workload that is not a NodeAgent: a raw DaemonSet with a
# writable host path, as charts render them.
sed -i '/^app.synth();$/d' main.ts
cat >> main.ts <<'TS'
import { ApiObject } from 'cdk8s';
new ApiObject(chart, 'raw', {
  apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'raw-agent', namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'raw-agent' } },
    template: {
      metadata: { labels: { app: 'raw-agent' } },
      spec: {
        containers: [{ name: 'agent', image: 'registry.example.com/raw:1.0.0', volumeMounts: [{ name: 'varlog', mountPath: '/var/log' }] }],
        volumes: [{ name: 'varlog', hostPath: { path: '/var/log' } }],
      },
    },
  },
});
app.synth();
TS
if npx cdk8s synth --no-check-upgrade > synth.log 2>&1; then
  cat synth.log
  echo "consumer app: cdk8s synth passed although the validation plugin should have failed it" >&2
  exit 1
fi
# one cause, one finding: the writable /var/log is reported once, by the rule that judges what the path holds
grep -q "NA-HOSTPATH-SENSITIVE (high)" synth.log && grep -q "mounts host path /var/log read-write" synth.log \
  || { cat synth.log; echo "consumer app: the failing synth does not report /var/log read-write as NA-HOSTPATH-SENSITIVE (high)" >&2; exit 1; }
echo "consumer app: the validation plugin failed the synth of a raw DaemonSet with a writable host path, as it should"
