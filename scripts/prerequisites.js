#!/usr/bin/env node
// The build's prerequisites, checked before it compiles anything: Node.js 20 or later (with npm, which `npm ci` used).
// The build needs nothing else: the suites that need Go (npm run test:corpus, npm run cluster:up) check for it
// themselves. See the README's "Set-up on a fresh clone".
'use strict';
const major = Number(process.versions.node.split('.')[0]);
if (!(major >= 20)) {
  process.stderr.write(`prerequisites: Node.js ${process.versions.node} is too old: the build needs Node.js 20 or later ` +
    '(22 or 24 recommended: see the README\'s "Node.js versions"); install it from https://nodejs.org/ or with nvm, then run npm ci again\n');
  process.exit(1);
}
process.stdout.write(`prerequisites: Node.js ${process.versions.node}${major === 20 ? ' (jsii prints an end-of-life banner on Node 20: see the README\'s "Node.js versions")' : ''}\n`);
