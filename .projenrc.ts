import { cdk8s, javascript } from 'projen';

const project = new cdk8s.ConstructLibraryCdk8s({
  name: 'cdk8s-node-agents',
  description:
    'cdk8s constructs for Kubernetes node agents (DaemonSets): least-privilege host access with written reasons, ' +
    'safe rollouts, offline node-coverage prediction and a security review with Pod Security levels.',
  author: 'cdk8s-node-agents maintainers',
  authorAddress: 'maintainers@example.com',
  repositoryUrl: 'https://example.com/cdk8s-node-agents.git',
  keywords: ['cdk8s', 'kubernetes', 'daemonset', 'node-agent', 'pod-security', 'security-review'],
  defaultReleaseBranch: 'main',
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,
  // no hosted CI here: .ci/run is the pipeline, so skip projen's GitHub workflows and release machinery.
  github: false,
  release: false,

  cdk8sVersion: '2.70.106',
  constructsVersion: '10.3.0',
  jsiiVersion: '~6.0.0',
  peerDeps: ['cdk8s-plus-28@^2.5.6'],
  // the CLI parses YAML at run time; cdk8s itself already depends on the same package.
  bundledDeps: ['yaml@^2.8.0'],
  devDeps: [
    '@types/node@^20',
    'cdk8s-cli@^2.207.0',
    'fast-check@^4.3.0',
    // the official client's models list every field with its wire name: the strict (unknown-field) schema check
    // in the tests walks them. 0.22.x is the last CommonJS line.
    '@kubernetes/client-node@0.22.3',
    // 4.5.x ships CommonJS, which ts-jest loads (5.x is ESM-only).
    'kubernetes-models@~4.5.1',
  ],
  bin: { 'cdk8s-node-agents': 'bin/cdk8s-node-agents' },

  // The other cdk8s languages, named the way cdk8s and cdk8s-plus-28 name theirs (see their package.json
  // jsii.targets): the npm name on PyPI with an underscore module; Maven group = the publisher's reverse
  // domain, artifact = the npm name, Java package = group + library; a Go module in a repository of its own
  // (cdk8s-plus: github.com/cdk8s-team/cdk8s-plus-go) whose package is the npm name without dashes.
  // The publisher's domain is the repository's (example.com): change it with repositoryUrl.
  publishToPypi: { distName: 'cdk8s-node-agents', module: 'cdk8s_node_agents' },
  publishToMaven: {
    mavenGroupId: 'com.example',
    mavenArtifactId: 'cdk8s-node-agents',
    javaPackage: 'com.example.cdk8s.nodeagents',
  },
  publishToGo: { moduleName: 'example.com/cdk8s-node-agents-go' },

  jestOptions: {
    // a changed snapshot must fail the run; `npm run test:update` updates them deliberately.
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      // test/cluster needs the local control plane: it runs in `npm run test:cluster`, not in the default build.
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/examples/', '<rootDir>/test/cluster/', '<rootDir>/test/corpus/'],
      // .cluster/ holds the running control plane's etcd data, whose *.snap files jest would take for obsolete snapshots.
      modulePathIgnorePatterns: ['<rootDir>/.cluster/'],
      // tests import the examples, which import the package by its published name: point it at src/.
      moduleNameMapper: { '^cdk8s-node-agents$': '<rootDir>/src' },
      // coverage made every test run about four times slower (v8 coverage converted per test file: 92 s of CPU
      // instead of 23 s for the suite), and nothing reads it: `npx projen test:coverage` collects it on demand.
      collectCoverage: false,
      // on 2 cores jest's default (cores - 1) runs the files one by one in its own process; one worker per core.
      maxWorkers: '100%',
    },
  },
  // ts-jest only transpiles (test/tsconfig.json sets isolatedModules): the test task type-checks the tests and the
  // examples they import first (tsc --noEmit -p test/tsconfig.json), so a type error in a test fails the build.
  typecheckTests: true,
  tsconfigDev: {
    compilerOptions: {
      // the examples import the package by its published name: type-check them against src/.
      paths: { 'cdk8s-node-agents': ['../src'] },
    },
  },
  // /.corpus/: the real-manifest corpus, brought from the registries by test/corpus/fetch.js (never committed);
  // /.cluster/: the local control plane's runtime state (etcd data, certificates, tokens, kubeconfig, pids, logs).
  gitignore: ['/examples/*/dist/', '/examples/*/node_modules/', '/examples/languages/*/dist/', '/examples/languages/java/target/', '__pycache__/', '/.bench/', '.jsii.tabl.json', '/.corpus/', '/.cluster/'],
  // /docs/: sources of generated documents (docs/rules-comparison.md is the end of RULES.md, which the package has).
  npmIgnoreOptions: { ignorePatterns: ['/examples/', '/bench/', '/.ci/', '/scripts/', '/rosetta/', '.jsii.tabl.json', '/.corpus/', '/cluster/', '/.cluster/', '/docs/'] },
});

// The corpus tests (test/corpus/) review upstream manifests that the repository does not hold: a suite of its own,
// `npm run test:corpus`, which brings them from their package registries (checked by sha256) before jest runs; a
// source that cannot be had fails it. Cold, it needs Go and minutes (helm is built from its module), so the build's
// tests do not wait for it; .ci/run always runs it.
// The build's prerequisites (Node.js 20 or later), checked before anything compiles.
project.preCompileTask.exec('node scripts/prerequisites.js');

project.addTask('test:corpus', {
  description: 'Fetches the real-manifest corpus (test/corpus/fetch.js: Go module proxy, helm) and runs its suite (test/corpus)',
  steps: [
    { exec: 'node test/corpus/fetch.js' },
    { exec: 'jest --config test/corpus/jest.config.js' },
  ],
});

// projen silences jsii's reserved-word warnings; a name that reads badly in Python or Java must show. Those that
// remain are harmless: `type` (Go) and `namespace`/`operator` (C#) are capitalized in those languages, a Go
// parameter `type` becomes `type_`, and `NodeRequirement.in` is the deprecated alias of `isIn`.
project.compileTask.reset('jsii');
project.tasks.tryFind('watch')?.reset('jsii -w');

// Every code example of the docs (docstrings, README) is compiled and translated to Python, Java and Go, which the
// packages then show; --strict fails the packaging on an example that does not compile against rosetta/*.ts-fixture.
const translateDocs = project.addTask('docs:translate', {
  description: 'Compiles every code example of the API docs and README and translates it for the other languages (.jsii.tabl.json)',
  // the tablet of the previous run is the cache: an example whose source and types did not change is not compiled again.
  exec: 'jsii-rosetta extract --strict --cache-from .jsii.tabl.json',
});
for (const lang of ['python', 'java', 'go']) {
  project.tasks.tryFind(`package:${lang}`)!.prependSpawn(translateDocs);
}
// The Java and Go packages cannot be built from the registries this project reaches: Maven Central serves no
// org.cdk8s:cdk8s-plus-28 and org.cdk8s:cdk8s only up to 2.70.47 (the package needs >= 2.70.106); the Go module proxy
// refuses every version of github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2. package-all builds npm and PyPI and
// generates the Java and Go sources (the API and the translated doc examples), so that a change that jsii cannot
// render in those languages fails here too. .ci/consumers.sh then builds cdk8s's Java and Go bindings from its npm
// packages with jsii-pacmak, as cdk8s publishes them, and builds and runs the Java and Go apps against them.
// pacmak gives Maven an empty local repository of its own by default: use the persistent one.
project.tasks.tryFind('package:java')!.reset('jsii-pacmak -v --target java --maven-local-repository="$HOME/.m2/repository"');
project.tasks.tryFind('package:java')!.prependSpawn(translateDocs);
const javaGoSources = project.addTask('package:java-go-sources', {
  description: 'Generates the Java and Go sources without building them (dist/java, dist/go)',
  steps: [
    { spawn: translateDocs.name },
    { exec: 'jsii-pacmak -v --code-only --target java --target go' },
  ],
});
const packageAll = project.tasks.tryFind('package-all')!;
packageAll.reset();
packageAll.spawn(project.tasks.tryFind('package:js')!);
packageAll.spawn(project.tasks.tryFind('package:python')!);
packageAll.spawn(javaGoSources);

project.addTask('examples', {
  description: 'Synthesizes every example app under examples/ with `cdk8s synth` against the freshly compiled library',
  steps: [
    { spawn: 'compile' },
    { exec: 'node scripts/examples.js' },
  ],
});

project.addTask('test:coverage', {
  description: 'Runs the tests with coverage (coverage/ and a summary): slower than `test`, which collects none',
  steps: [
    { exec: 'jest --passWithNoTests --ci --coverage' },
  ],
});

project.addTask('bench', {
  description: 'Runs the benchmarks (not part of the tests) and writes bench/results.json',
  steps: [
    { spawn: 'compile' },
    { exec: 'node bench/run.js' },
  ],
});

// The integration suite against a real control plane (etcd, kube-apiserver, kube-controller-manager) built from
// Kubernetes' Go modules; the version is pinned in cluster/go.mod only. See the README's "Integration suite".
project.addTask('cluster:up', {
  description: 'Builds (once, cached outside the repo) and starts etcd, kube-apiserver and kube-controller-manager on loopback and a real node (containerd, kube-scheduler, kubelet; Debian packages installed when missing); writes .cluster/kubeconfig',
  exec: 'node cluster/up.js',
});
project.addTask('cluster:down', {
  description: 'Drains the real node, stops the processes cluster:up started, by the pids it recorded, and undoes what the node changed on the host',
  exec: 'node cluster/down.js',
});
project.addTask('test:cluster', {
  description: 'Synthesizes the examples, then runs the integration suite (test/cluster) against the control plane of cluster:up',
  steps: [
    { spawn: 'examples' },
    { exec: 'jest --config test/cluster/jest.config.js --runInBand' },
  ],
});

project.synth();
