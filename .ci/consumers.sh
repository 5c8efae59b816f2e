#!/usr/bin/env bash
# The same app in every jsii language that can be built here, each installing the package from dist/ as a user
# installs it from the registry; the YAML each synthesizes must be identical, byte for byte, to the TypeScript app's.
#   examples/languages/typescript  the library compiled in lib/ (the reference)
#   examples/languages/python      the wheel in dist/python, pip-installed into a fresh virtualenv
#   examples/languages/java        the package in dist/java (a Maven repository), built by `npx projen package:java`
#   examples/languages/go          the module in dist/go, through a `replace`
# Java and Go need cdk8s's own bindings, which this machine's registries do not serve: see that section below.
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

# --- Java and Go. The registries this machine reaches serve neither language's cdk8s bindings at the versions the
# package needs (checked 2026-11-30): Maven Central has org.cdk8s:cdk8s only up to 2.70.47 and no
# org.cdk8s:cdk8s-plus-28; the Go module proxy refuses github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 and
# github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2 (403). cdk8s publishes those bindings by running jsii-pacmak on
# its npm packages; this step does the same on the npm packages the TypeScript app runs, then builds this library's
# Java package and Go module and their apps against them. It proves this library's bindings and apps in Java and Go
# end to end; it does not stand for the registries' packages. The Java bindings go into a Maven repository of their
# own, never ~/.m2, so that no other build takes them for Central's.
version() { node -p "require('$1/package.json').version"; }
bindings="$work/bindings"
start "java, go: cdk8s $(version cdk8s) and cdk8s-plus-28 $(version cdk8s-plus-28) bindings, generated by jsii-pacmak from their npm packages"
for b in cdk8s cdk8s-plus-28; do
  node_modules/.bin/jsii-pacmak --target java --target go --code-only -o "$bindings/$b" "node_modules/$b" > "$work/pacmak-$b.log" 2>&1 \
    || { cat "$work/pacmak-$b.log" >&2; exit 1; }
done
took "generate bindings"

maven_repo="${CDK8S_NODE_AGENTS_BINDINGS_REPO:-$HOME/.cache/cdk8s-node-agents/java-bindings-m2}"
start "java: bindings installed into $maven_repo; the package built into dist/java"
for b in cdk8s cdk8s-plus-28; do
  (cd "$bindings/$b/java" && mvn -q -B -Dmaven.repo.local="$maven_repo" install -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -Dgpg.skip=true) \
    > "$work/mvn-$b.log" 2>&1 || { cat "$work/mvn-$b.log" >&2; exit 1; }
done
# the command of `npx projen package:java` (whose doc translation package-all ran), with the bindings' repository
node_modules/.bin/jsii-pacmak -v --target java --maven-local-repository="$maven_repo" > "$work/package-java.log" 2>&1 \
  || { cat "$work/package-java.log" >&2; exit 1; }
ls dist/java/com/example/cdk8s-node-agents/0.0.0/cdk8s-node-agents-0.0.0.jar > /dev/null
took "java package"

start "java: cdk8s synth (mvn compile exec:java)"
rm -rf "$langs/java/dist"
# Maven keeps a copy of each release it resolves and never fetches 0.0.0 again: drop the previous run's copy, so
# that the app runs the package just built
rm -rf "$maven_repo/com/example/cdk8s-node-agents"
(cd "$langs/java" && MAVEN_OPTS="-Dmaven.repo.local=$maven_repo" "$cdk8s" synth --no-check-upgrade)
took "java synth"

start "go: the app with dist/go and the generated bindings as replacements (go mod tidy, cdk8s synth)"
cp -r "$langs/go" "$work/go-app"
rm -rf "$work/go-app/dist"
(
  cd "$work/go-app"
  go mod edit \
    -replace "example.com/cdk8s-node-agents-go/cdk8snodeagents=$repo/dist/go/cdk8snodeagents" \
    -replace "github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2=$bindings/cdk8s/go/cdk8s" \
    -replace "github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2=$bindings/cdk8s-plus-28/go/cdk8splus28"
  go mod tidy
  "$cdk8s" synth --no-check-upgrade
)
took "go synth"

for lang in java go; do
  out="$langs/$lang/dist"
  [ "$lang" = go ] && out="$work/go-app/dist"
  start "$lang: YAML identical to typescript's"
  if ! diff -r "$langs/typescript/dist" "$out"; then
    echo "consumers: the $lang app's output differs from the TypeScript app's (diff above)" >&2
    exit 1
  fi
  echo "    identical: $(cd "$out" && ls | tr '\n' ' ')($(cat "$out"/* | wc -c) bytes)"
  took "compare"
done
echo "consumers: python, java and go synthesized the same YAML as typescript"
