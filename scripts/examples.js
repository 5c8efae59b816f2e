#!/usr/bin/env node
// Synthesizes every example app under examples/ with `cdk8s synth`, against the library compiled into
// lib/. Examples import the package by its published name, `cdk8s-node-agents`: a link in
// node_modules points that name at this checkout, so they run exactly as a user's app would.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const link = path.join(root, 'node_modules', 'cdk8s-node-agents');
if (!fs.existsSync(path.join(root, 'lib', 'index.js'))) {
  console.error('lib/index.js is missing: compile the library first (npx projen compile)');
  process.exit(1);
}
let created = false;
try {
  const stat = fs.lstatSync(link);
  if (!stat.isSymbolicLink()) {
    console.error(`${link} exists and is not a link to this checkout; remove it and run again`);
    process.exit(1);
  }
} catch {
  fs.symlinkSync('..', link, 'dir');
  created = true;
}
// the link makes node_modules contain the checkout, node_modules included: tools that walk node_modules (jsii-docgen
// in the build) can then fail with ELOOP, so the link this run created goes when it ends, whatever happens.
process.on('exit', () => {
  if (created) fs.rmSync(link, { force: true });
});

const only = process.argv.slice(2);
const examples = fs.readdirSync(path.join(root, 'examples'))
  .filter((name) => fs.existsSync(path.join(root, 'examples', name, 'cdk8s.yaml')))
  .filter((name) => only.length === 0 || only.includes(name))
  .sort();
if (examples.length === 0) {
  console.error('no example apps found under examples/ (each needs a cdk8s.yaml)');
  process.exit(1);
}
const cdk8s = path.join(root, 'node_modules', '.bin', 'cdk8s');
for (const name of examples) {
  const dir = path.join(root, 'examples', name);
  fs.rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
  console.log(`\n=== examples/${name}: cdk8s synth`);
  execFileSync(cdk8s, ['synth', '--no-check-upgrade'], { cwd: dir, stdio: 'inherit', env: { ...process.env, JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: '20' } });
  const files = fs.readdirSync(path.join(dir, 'dist')).sort();
  console.log(`examples/${name}/dist: ${files.join(', ')}`);
}
console.log(`\nsynthesized ${examples.length} example app(s): ${examples.join(', ')}`);
