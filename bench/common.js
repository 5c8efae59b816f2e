'use strict';
// Shared helpers for the benchmark workers: paths, a seeded PRNG, timing and memory probes, and the
// one-line JSON report every worker prints on stdout.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const BENCH_DIR = __dirname;
const REPO_DIR = path.resolve(BENCH_DIR, '..');
const LIB_DIR = path.join(REPO_DIR, 'lib');
/** generated inputs (manifests, node inventory, workloads): rebuilt on every run, never committed. */
const CACHE_DIR = path.join(BENCH_DIR, '.cache');

/** mulberry32: a small deterministic PRNG, so every run benchmarks the same inputs. */
function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(path.join(CACHE_DIR, file), 'utf8'));
}

function readText(file) {
  return fs.readFileSync(path.join(CACHE_DIR, file), 'utf8');
}

function sha256(text) {
  return crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * Runs `work` once and reports its wall time, CPU time (user + system, all threads: GC helpers count too)
 * and memory.
 *
 * Before the clock starts, the worker has loaded its modules and inputs and (with --expose-gc) collected
 * garbage, so `rssBefore` is the baseline; `maxRss` is the kernel's high-water mark for the whole process
 * (`process.resourceUsage().maxRSS`), so `peakRssDelta = maxRss - rssBefore` is the memory the work itself
 * needed. `heapUsedAfter` is the JS heap right after the work (garbage included), `heapRetained` after a GC.
 */
function measure(work) {
  const start = begin();
  return end(start, work());
}

/** measure() for work that returns a promise: the clock stops when it settles. */
async function measureAsync(work) {
  const start = begin();
  return end(start, await work());
}

function begin() {
  if (global.gc) { global.gc(); global.gc(); }
  return { before: process.memoryUsage(), cpu0: process.cpuUsage(), t0: process.hrtime.bigint() };
}

function end({ before, cpu0, t0 }, result) {
  const t1 = process.hrtime.bigint();
  const cpu = process.cpuUsage(cpu0);
  const after = process.memoryUsage();
  const maxRss = process.resourceUsage().maxRSS * 1024;
  if (global.gc) global.gc();
  const retained = process.memoryUsage();
  return {
    result,
    sample: {
      ms: Number(t1 - t0) / 1e6,
      cpuMs: (cpu.user + cpu.system) / 1000,
      rssBefore: before.rss,
      maxRss,
      peakRssDelta: Math.max(0, maxRss - before.rss),
      heapUsedBefore: before.heapUsed,
      heapUsedAfter: after.heapUsed,
      heapRetained: retained.heapUsed,
    },
  };
}

/** prints the worker's report: one JSON line on stdout, read by run.js. */
function report(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

/** parses the worker's single JSON argument. */
function args() {
  return JSON.parse(process.argv[2] || '{}');
}

module.exports = { BENCH_DIR, REPO_DIR, LIB_DIR, CACHE_DIR, prng, readJson, readText, sha256, measure, measureAsync, report, args };
