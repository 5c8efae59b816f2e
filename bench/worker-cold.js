'use strict';
// One cold-start repetition: `node worker-cold.js '{"target":"lib"|"cdk8s-plus-28"|"cdk8s"}'` times the first
// `require` of the target in a fresh process (module resolution, reading and compiling its whole graph).
// Nothing else is required before the clock starts.
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
const spec = JSON.parse(process.argv[2]);
const target = spec.target === 'lib' ? require('node:path').resolve(__dirname, '..', 'lib') : spec.target;
require(target);
const t1 = process.hrtime.bigint();
const cpu = process.cpuUsage(cpu0);
const modules = Object.keys(require.cache).length;
process.stdout.write(JSON.stringify({ ms: Number(t1 - t0) / 1e6, cpuMs: (cpu.user + cpu.system) / 1000, modules, maxRss: process.resourceUsage().maxRSS * 1024 }) + '\n');
