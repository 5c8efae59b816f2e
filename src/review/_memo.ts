// Internal: memoisation of the model's evaluations per workload context, shared by the rules and the engine (the 19 Pod
// Security rules would otherwise evaluate the same pod 19 times). Keyed by the context object the engine builds for one
// review, so a manifest changed between two reviews is evaluated afresh.
import { HostAccess, HostAccessItem, PodSecurity, PodSecurityResult } from '../model';
import { WorkloadContext } from './review-rule';

interface Outcome<T> {
  readonly value?: T;
  readonly error?: unknown;
}

interface Memo {
  podSecurity?: Outcome<PodSecurityResult>;
  hostAccess?: Outcome<HostAccessItem[]>;
}

const memos = new WeakMap<object, Memo>();

function memoOf(ctx: WorkloadContext): Memo {
  let memo = memos.get(ctx);
  if (!memo) {
    memo = {};
    memos.set(ctx, memo);
  }
  return memo;
}

function settle<T>(outcome: Outcome<T>): T {
  if (outcome.error !== undefined) throw outcome.error;
  return outcome.value as T;
}

function attempt<T>(fn: () => T): Outcome<T> {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: error ?? new Error('evaluation failed') };
  }
}

/** the Pod Security evaluation of the workload at the review's policy version. */
export function podSecurityOf(ctx: WorkloadContext): PodSecurityResult {
  const memo = memoOf(ctx);
  const version = ctx.options.podSecurityVersion ?? PodSecurity.DEFAULT_VERSION;
  memo.podSecurity ??= attempt(() => PodSecurity.evaluateWorkload(ctx.manifest, { version }));
  return settle(memo.podSecurity);
}

/** the host privileges the workload's pod takes. */
export function hostAccessOf(ctx: WorkloadContext): HostAccessItem[] {
  const memo = memoOf(ctx);
  memo.hostAccess ??= attempt(() => HostAccess.ofWorkload(ctx.manifest));
  return settle(memo.hostAccess);
}

/** what the review evaluated of a workload (the evaluations that failed, or did not run, are left out). */
export interface WorkloadEvaluation {
  readonly podSecurity?: PodSecurityResult;
  readonly hostAccess?: HostAccessItem[];
}

/** the evaluations the review of `ctx` has made, without making any. */
export function evaluationsOf(ctx: WorkloadContext): WorkloadEvaluation {
  const memo = memos.get(ctx);
  return { podSecurity: memo?.podSecurity?.value, hostAccess: memo?.hostAccess?.value };
}
