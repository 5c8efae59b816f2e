#!/usr/bin/env bash
# Follows the README's "Use it in your cdk8s app" block as it is written (the ```sh block after the
# `<!-- ci: consumer-app -->` marker), in a new directory outside the repository, with REPO pointing at this clone;
# then checks what a user gets: the manifest applies in order (the Namespace first), and the Quick start agent runs
# on the nodes of a default kind cluster (coverage over examples/kind-cluster/nodes/nodes.yaml is not zero).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
node - "$repo/README.md" > "$work/readme-block.sh" <<'JS'
const fs = require('fs');
const readme = fs.readFileSync(process.argv[2], 'utf8');
const m = readme.match(/<!-- ci: consumer-app -->\n```sh\n([\s\S]*?)^```$/m);
if (!m) { console.error('readme-consumer: the README has no ```sh block after <!-- ci: consumer-app -->'); process.exit(1); }
process.stdout.write(m[1]);
JS
echo "--- the README's block, as written:"
cat "$work/readme-block.sh"
echo "---"
(cd "$work" && REPO="$repo" bash -euo pipefail "$work/readme-block.sh")
app="$work/my-agents"
node - "$app/dist/observability.k8s.yaml" <<'JS'
const fs = require('fs');
const { parseAllDocuments } = require(require.resolve('yaml', { paths: [process.cwd() + '/my-agents', process.cwd()] }));
const docs = parseAllDocuments(fs.readFileSync(process.argv[2], 'utf8')).map((d) => d.toJSON());
const fail = (m) => { console.error(`readme-consumer: ${m}`); process.exit(1); };
if (docs[0]?.kind !== 'Namespace') fail(`the first document is ${docs[0]?.kind}, not the Namespace the others live in`);
if (!docs.some((d) => d.kind === 'DaemonSet' && d.metadata.namespace === 'observability')) fail('no DaemonSet observability/node-agent');
console.log(`readme-consumer: ${docs.map((d) => d.kind).join(', ')}, the Namespace first`);
JS
(cd "$app" && npx --no-install cdk8s-node-agents coverage --json --nodes "$repo/examples/kind-cluster/nodes/nodes.yaml" dist/observability.k8s.yaml) > "$work/coverage.json"
node -e "
const c = require('$work/coverage.json');
const d = c.daemonSets[0];
if (!d || d.desired < 1) { console.error('readme-consumer: the Quick start agent runs on no node of the kind cluster', JSON.stringify(c)); process.exit(1); }
console.log('readme-consumer: on the kind inventory the Quick start agent runs on ' + d.desired + ' of ' + c.nodeCount + ' nodes');
"
