// Taints and tolerations for DaemonSet pods, as in
// k8s.io/api/core/v1/toleration.go (ToleratesTaint), component-helpers (FindMatchingUntoleratedTaint) and
// pkg/controller/daemon/util/daemonset_util.go (AddOrUpdateDaemonPodTolerations).
// Internal: not exported from the package.

import { list, parseInt64, str } from './_label-selector';

/** a taint or toleration field set read from plain JSON (absent fields are ""). */
export interface PlainToleration {
  readonly key: string;
  readonly operator: string;
  readonly value: string;
  readonly effect: string;
}

/** a node taint read from plain JSON. */
export interface PlainTaint {
  readonly key: string;
  readonly value: string;
  readonly effect: string;
}

/** the tolerations the DaemonSet controller adds to every daemon pod (network-unavailable only with hostNetwork). */
export function daemonPodTolerations(hostNetwork: boolean): PlainToleration[] {
  const auto: Array<[string, string]> = [
    ['node.kubernetes.io/not-ready', 'NoExecute'],
    ['node.kubernetes.io/unreachable', 'NoExecute'],
    ['node.kubernetes.io/disk-pressure', 'NoSchedule'],
    ['node.kubernetes.io/memory-pressure', 'NoSchedule'],
    ['node.kubernetes.io/pid-pressure', 'NoSchedule'],
    ['node.kubernetes.io/unschedulable', 'NoSchedule'],
  ];
  if (hostNetwork) auto.push(['node.kubernetes.io/network-unavailable', 'NoSchedule']);
  return auto.map(([key, effect]) => ({ key, operator: 'Exists', value: '', effect }));
}

export function readTolerations(value: unknown): PlainToleration[] {
  return list(value).map((t) => ({ key: str(t?.key), operator: str(t?.operator), value: str(t?.value), effect: str(t?.effect) }));
}

export function readTaints(value: unknown): PlainTaint[] {
  return list(value).map((t) => ({ key: str(t?.key), value: str(t?.value), effect: str(t?.effect) }));
}

/**
 * Whether a string is a decimal integer as Kubernetes reads toleration values for Lt and Gt (`content.IsDecimalInteger`
 * in k8s.io/apimachinery, then an int64): an optional `-`, no `+`, no leading zero (`0` alone is fine), digits only.
 */
export function decimalInteger(s: string): bigint | undefined {
  if (!/^-?(0|[1-9][0-9]*)$/.test(s) || s === '-0') return undefined;
  return parseInt64(s);
}

/**
 * `Toleration.ToleratesTaint`, with the alpha Lt/Gt operators evaluated as if their gate (TaintTolerationComparisonOperators,
 * alpha since 1.35, off by default) were on: both the toleration's and the taint's value must be decimal integers, or
 * the toleration does not match.
 */
export function toleratesTaint(toleration: PlainToleration, taint: PlainTaint): boolean {
  if (toleration.effect !== '' && toleration.effect !== taint.effect) return false;
  if (toleration.key !== '' && toleration.key !== taint.key) return false;
  switch (toleration.operator) {
    case '':
    case 'Equal':
      return toleration.value === taint.value;
    case 'Exists':
      return true;
    case 'Lt':
    case 'Gt': {
      const taintValue = decimalInteger(taint.value);
      const tolerationValue = decimalInteger(toleration.value);
      if (taintValue === undefined || tolerationValue === undefined) return false;
      return toleration.operator === 'Lt' ? taintValue < tolerationValue : taintValue > tolerationValue;
    }
    default:
      return false;
  }
}

/** whether the taint blocks scheduling at all: only NoSchedule and NoExecute do (PreferNoSchedule never blocks). */
export function isBlockingEffect(effect: string): boolean {
  return effect === 'NoSchedule' || effect === 'NoExecute';
}

/** `key=value:Effect`, or `key:Effect` without a value, as kubectl prints taints. */
export function formatTaint(taint: PlainTaint): string {
  return `${taint.key}${taint.value === '' ? '' : `=${taint.value}`}:${taint.effect}`;
}

/** the narrowest toleration that tolerates the taint, written as a user would add it. */
export function suggestToleration(taint: PlainTaint): string {
  return taint.value === ''
    ? `{key: ${taint.key}, operator: Exists, effect: ${taint.effect}}`
    : `{key: ${taint.key}, operator: Equal, value: ${taint.value}, effect: ${taint.effect}}`;
}

/** a plain-words reason for an untolerated blocking taint, with the toleration that fixes it. */
export function untoleratedTaintReason(taint: PlainTaint): string {
  let note = '';
  if (taint.effect === 'NoSchedule') {
    note = ' (NoSchedule keeps new pods off the node; it does not evict a pod already running there)';
  } else if (taint.effect === 'NoExecute') {
    note = ' (NoExecute also evicts a pod already running there)';
  }
  if (taint.key === 'node.kubernetes.io/network-unavailable') {
    note += ' (DaemonSet pods tolerate it automatically only with hostNetwork: true)';
  } else if (taint.key === 'node.kubernetes.io/not-ready' || taint.key === 'node.kubernetes.io/unreachable') {
    note += ` (DaemonSet pods tolerate ${taint.key} automatically only for NoExecute)`;
  }
  return `taint ${formatTaint(taint)} is not tolerated; add a toleration ${suggestToleration(taint)}${note}`;
}
