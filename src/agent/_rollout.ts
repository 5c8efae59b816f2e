/**
 * Internal: the rolling-update budgets a strategy renders. Not exported from the package.
 */
import type { PercentOrAbsolute } from 'cdk8s-plus-28';

/** `rollingUpdate` as rendered: the API defaults maxUnavailable to 1, which it then rejects beside a non-zero surge, so say 0. */
export function rollingUpdateBudgets(maxUnavailable?: PercentOrAbsolute, maxSurge?: PercentOrAbsolute): { maxUnavailable: any; maxSurge?: any } {
  const surging = maxSurge !== undefined && !maxSurge.isZero();
  return {
    maxUnavailable: maxUnavailable?.value ?? (surging ? 0 : 1),
    maxSurge: maxSurge?.value,
  };
}
