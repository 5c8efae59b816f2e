/**
 * Internal: the workload API versions no current API server serves (Kubernetes' deprecated API migration guide): an
 * object written in one of them fails at `kubectl apply` with "no matches for kind".
 */

interface RemovedApi {
  readonly apiVersion: string;
  readonly kinds: string[];
  /** the first Kubernetes minor that no longer serves it. */
  readonly removedIn: string;
  /** the version to write instead. */
  readonly replacement: string;
}

const REMOVED: RemovedApi[] = [
  { apiVersion: 'extensions/v1beta1', kinds: ['DaemonSet', 'Deployment', 'ReplicaSet'], removedIn: '1.16', replacement: 'apps/v1' },
  { apiVersion: 'apps/v1beta1', kinds: ['Deployment', 'StatefulSet'], removedIn: '1.16', replacement: 'apps/v1' },
  { apiVersion: 'apps/v1beta2', kinds: ['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet'], removedIn: '1.16', replacement: 'apps/v1' },
  { apiVersion: 'batch/v1beta1', kinds: ['CronJob'], removedIn: '1.25', replacement: 'batch/v1' },
];

/** the removal of `apiVersion` for `kind`, or undefined when a current API server serves it. */
export function removedApi(apiVersion: unknown, kind: unknown): RemovedApi | undefined {
  return REMOVED.find((r) => r.apiVersion === apiVersion && r.kinds.includes(String(kind)));
}
