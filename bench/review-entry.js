'use strict';
// ============================================================================================================
// THE REVIEW ENTRY POINT: the only place in the benchmark that knows how to call the review engine.
// The engine (src/review/) is being written; when lib exports it, this finds and calls it. If its API turns
// out different from what is tried here, change this one function.
// ============================================================================================================

/** static or instance method names tried, in order, on an exported class whose name contains "review". */
const METHODS = ['review', 'run', 'reviewManifests', 'check', 'evaluate'];

/**
 * Finds the review engine among lib's exports.
 *
 * @returns `{ name, run(manifests) }`, or `null` when lib exports no review entry point.
 */
function findReviewEntryPoint(lib) {
  const names = Object.keys(lib).filter((k) => /review/i.test(k) && typeof lib[k] === 'function');
  names.sort((a, b) => rank(a) - rank(b));
  for (const name of names) {
    const exported = lib[name];
    const isClass = /^class\s/.test(Function.prototype.toString.call(exported));
    if (!isClass) return { name: `${name}()`, run: (manifests) => exported(manifests) };
    for (const method of METHODS) {
      if (typeof exported[method] === 'function') {
        return { name: `${name}.${method}()`, run: (manifests) => exported[method](manifests) };
      }
    }
    for (const method of METHODS) {
      if (typeof exported.prototype?.[method] === 'function') {
        return { name: `new ${name}().${method}()`, run: (manifests) => new exported()[method](manifests) };
      }
    }
  }
  return null;
}

/** prefer an engine over rules, packs and reports: `review`, `Review`, `ReviewEngine` first. */
function rank(name) {
  const order = ['SecurityReview', 'review', 'Review', 'ReviewEngine', 'NodeAgentReview', 'ManifestReview', 'Reviewer'];
  const i = order.indexOf(name);
  return i >= 0 ? i : order.length + (/rule|pack|report|acknowledg/i.test(name) ? 1 : 0);
}

/** a short summary of what the engine returned (a ReviewReport has `workloads[].findings`). */
function summarize(out) {
  if (Array.isArray(out?.workloads)) {
    return { reviewed: out.workloads.length, findings: out.workloads.reduce((s, w) => s + (Array.isArray(w.findings) ? w.findings.length : 0), 0) };
  }
  if (Array.isArray(out)) return { findings: out.length };
  if (Array.isArray(out?.findings)) return { findings: out.findings.length };
  return {};
}

/** what the output and results.json say when there is no engine to measure. */
const SKIPPED_NO_ENGINE = 'skipped: the review engine is not in lib yet';

module.exports = { findReviewEntryPoint, summarize, SKIPPED_NO_ENGINE };
