#!/usr/bin/env bash
# The same app in every jsii language that can be built here, each installing the package from dist/ as a user
# installs it from the registry; the YAML each synthesizes must be identical, byte for byte, to the TypeScript app's.
#   examples/languages/typescript  the library compiled in lib/ (the reference)
#   examples/languages/python      the wheel in dist/python, pip-installed into a fresh virtualenv
# Java and Go cannot be built from this machine's registries: see the end of this script.
# Needs `npx projen compile` and `npx projen package-all` first. Prints how long each step took.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=20
cdk8s="$repo/node_modules/.bin/cdk8s"
langs="$repo/examples/languages"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

step_start=0
start() { step_start=$(date +%s%N); echo "--- $1"; }
took() { echo "    took $(( ($(date +%s%N) - step_start) / 1000000 )) ms: $1"; }

# --- The README's Quick start blocks are true: every line of its ```ts block is in the TypeScript app and every
# line of its ```python block in the Python app, in the same order (the apps add a preset and the check).
start "README Quick start blocks are in the apps"
node - "$repo/README.md" "$langs/typescript/main.ts" "$langs/python/main.py" <<'JS'
const fs = require('fs');
const [readme, tsApp, pyApp] = process.argv.slice(2).map((f) => fs.readFileSync(f, 'utf8'));
const block = (lang) => {
  const m = readme.match(new RegExp('^```' + lang + '[^\\n]*\\n([\\s\\S]*?)^```$', 'm'));
  if (!m) throw new Error(`README has no \`\`\`${lang} block`);
  return m[1];
};
for (const [lang, app, file] of [['ts', tsApp, 'typescript/main.ts'], ['python', pyApp, 'python/main.py']]) {
  const appLines = app.split('\n');
  let at = 0;
  for (const line of block(lang).split('\n').filter((l) => l.trim() !== '')) {
    while (at < appLines.length && appLines[at] !== line) at++;
    if (at === appLines.length) {
      console.error(`consumers: the README's ${lang} Quick start line ${JSON.stringify(line)} is not in examples/languages/${file} (in order)`);
      process.exit(1);
    }
    at++;
  }
  console.log(`    README ${lang} Quick start: every line in examples/languages/${file}`);
}
JS
took "README check"

# --- TypeScript: the reference output. The package name resolves to this checkout, as in `npm run examples`.
start "typescript: cdk8s synth"
[ -e node_modules/cdk8s-node-agents ] || ln -s .. node_modules/cdk8s-node-agents
rm -rf "$langs/typescript/dist"
(cd "$langs/typescript" && "$cdk8s" synth --no-check-upgrade)
took "typescript synth"

# --- Python
wheel="$(ls dist/python/cdk8s_node_agents-*-py3-none-any.whl)"
start "python: fresh virtualenv, pip install $(basename "$wheel")"
# a virtualenv without its own pip (creating one with pip costs about 7 s), filled by this Python's pip
python3 -m venv --without-pip "$work/venv"
# cdk8s, constructs and cdk8s-plus-28 at the versions the TypeScript app ran with, so that a difference in the YAML
# can only come from the bindings.
for p in cdk8s constructs cdk8s-plus-28; do
  echo "$p==$(node -p "require('$p/package.json').version")"
done > "$work/constraints.txt"
# pip's HTTP cache stores nothing from this machine's registry (its responses carry no caching headers): keep the
# wheels of the dependencies in a persistent wheelhouse, filled from PyPI the first time only.
wheelhouse="${CDK8S_NODE_AGENTS_WHEELHOUSE:-$HOME/.cache/cdk8s-node-agents/wheels}"
mkdir -p "$wheelhouse"
pip=(python3 -m pip --python "$work/venv/bin/python" --disable-pip-version-check --quiet)
if ! "${pip[@]}" install --no-index --find-links "$wheelhouse" -c "$work/constraints.txt" "$wheel" 2>/dev/null; then
  echo "    wheelhouse incomplete: downloading the dependencies from PyPI into $wheelhouse"
  "${pip[@]}" download --dest "$wheelhouse" -c "$work/constraints.txt" "$wheel"
  rm -f "$wheelhouse/$(basename "$wheel")"
  "${pip[@]}" install --no-index --find-links "$wheelhouse" -c "$work/constraints.txt" "$wheel"
fi
python3 -m pip --python "$work/venv/bin/python" list --disable-pip-version-check 2>/dev/null | grep -E '^(cdk8s|cdk8s-plus-28|cdk8s-node-agents|constructs|jsii) ' | tr -s ' ' | sed 's/^/    /'
took "python install"

start "python: cdk8s synth (python main.py)"
rm -rf "$langs/python/dist"
(cd "$langs/python" && PATH="$work/venv/bin:$PATH" "$cdk8s" synth --no-check-upgrade)
took "python synth"

start "python: YAML identical to typescript's"
if ! diff -r "$langs/typescript/dist" "$langs/python/dist"; then
  echo "consumers: the Python app's output differs from the TypeScript app's (diff above)" >&2
  exit 1
fi
files="$(cd "$langs/python/dist" && ls | tr '\n' ' ')"
[ -s "$langs/python/dist/observability.k8s.yaml" ] || { echo "consumers: no observability.k8s.yaml" >&2; exit 1; }
echo "    identical: $files($(cat "$langs/python/dist"/* | wc -c) bytes)"
took "compare"

# --- Java and Go: their packages cannot be built from the registries this machine reaches (checked 2026-11-30):
# Maven Central serves org.cdk8s:cdk8s only up to 2.70.47 (the package requires [2.70.106,3.0.0)) and no version of
# org.cdk8s:cdk8s-plus-28; the Go module proxy refuses every version of github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2
# (403). package-all generates their sources (dist/java, dist/go). Their apps (examples/languages/java, go) wait
# for those packages: see examples/languages/README.md.
echo "--- java: not run: Maven Central lacks org.cdk8s:cdk8s >= 2.70.106 and org.cdk8s:cdk8s-plus-28 (sources in dist/java)"
echo "--- go: not run: the Go module proxy refuses github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 (sources in dist/go)"
echo "consumers: python synthesized the same YAML as typescript"
