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
      // test/cluster needs the local control plane: it runs in `npm run test:cluster`, not in the default build.
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/examples/', '<rootDir>/test/cluster/'],
      // .cluster/ holds the running control plane's etcd data, whose *.snap files jest would take for obsolete snapshots.
      modulePathIgnorePatterns: ['<rootDir>/.cluster/'],
      // tests import the examples, which import the package by its published name: point it at src/.
      moduleNameMapper: { '^cdk8s-node-agents$': '<rootDir>/src' },
    },
  },
  // .cluster/: the local control plane's runtime state (etcd data, certificates, tokens, kubeconfig, pids, logs).
  gitignore: ['/examples/*/dist/', '/examples/*/node_modules/', '/.bench/', '/.cluster/'],
  npmIgnoreOptions: { ignorePatterns: ['/examples/', '/bench/', '/.ci/', '/scripts/', '/cluster/', '/.cluster/'] },
});

project.addTask('examples', {
  description: 'Synthesizes every example app under examples/ with `cdk8s synth` against the freshly compiled library',
  steps: [
    { spawn: 'compile' },
    { exec: 'node scripts/examples.js' },
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
  description: 'Builds (once, cached outside the repo) and starts etcd, kube-apiserver and kube-controller-manager on loopback; writes .cluster/kubeconfig',
  exec: 'node cluster/up.js',
});
project.addTask('cluster:down', {
  description: 'Stops the processes cluster:up started, by the pids it recorded',
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
