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

  jestOptions: {
    // a changed snapshot must fail the run; `npm run test:update` updates them deliberately.
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/examples/'],
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
  gitignore: ['/examples/*/dist/', '/examples/*/node_modules/', '/.bench/'],
  npmIgnoreOptions: { ignorePatterns: ['/examples/', '/bench/', '/.ci/', '/scripts/'] },
});

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

project.synth();
