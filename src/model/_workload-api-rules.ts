/**
 * Internal: the API server's validation of a workload object around its pod spec, transcribed from Kubernetes'
 * `pkg/apis/apps/validation` and `pkg/apis/batch/validation` (v1.37.2) and checked against a real API server by the
 * integration suite (`test/cluster/api-rules.test.ts`):
 *
 * - **the object's name** (`ValidateObjectMeta` with each kind's name rule): an RFC 1123 subdomain for a Pod,
 *   DaemonSet, Deployment, ReplicaSet, Job and CronJob (a CronJob's at most 52 characters, as the Jobs it creates add
 *   11), an RFC 1123 label for a StatefulSet (its pods' hostnames).
 * - **the restart policy of the pods** (`ValidateDaemonSetSpec`, `ValidateDeploymentSpec`/`ValidateReplicaSetSpec`'s
 *   `ValidatePodTemplateSpecForReplicaSet`, `ValidateStatefulSetSpec`, `ValidateJobSpec`): Always for the apps/v1
 *   controllers, whose pods must keep running (unset is Always by defaulting); OnFailure or Never for a Job and a
 *   CronJob's Job (unset is Always, so it must be set), Never with a podFailurePolicy.
 */
import { dig, isObject, podSpecPathOf } from './_pod-spec';
import { dnsLabelError, dnsSubdomainError } from './_pod-spec-api-rules';

/** a rule broken: a field relative to the manifest. */
export interface WorkloadApiViolation {
  readonly field: string;
  readonly message: string;
  readonly fix: string;
}

const CONTROLLERS = ['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet'];

/** the workload rules a manifest breaks, empty for kinds without them. */
export function workloadApiViolations(manifest: any): WorkloadApiViolation[] {
  if (!isObject(manifest) || typeof manifest.kind !== 'string') return [];
  return [...nameViolations(manifest), ...restartPolicyViolations(manifest)];
}

function nameViolations(manifest: any): WorkloadApiViolation[] {
  const name = dig(manifest, ['metadata', 'name']);
  const kind: string = manifest.kind;
  if (typeof name !== 'string' || name === '' || !['Pod', 'Job', 'CronJob', ...CONTROLLERS].includes(kind)) return [];
  const label = kind === 'StatefulSet';
  const error = label ? dnsLabelError(name) : dnsSubdomainError(name);
  if (error !== undefined) {
    const suggestion = name.toLowerCase().replace(label ? /[^a-z0-9-]+/g : /[^a-z0-9.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '');
    return [{
      field: 'metadata.name',
      message: `the name ${JSON.stringify(name)} ${error}, which a ${kind}'s name must be`,
      fix: suggestion !== '' && suggestion.length <= (label ? 63 : 253) ? `rename it, e.g. to ${JSON.stringify(suggestion)}` : 'rename it (lowercase letters, digits and "-")',
    }];
  }
  if (kind === 'CronJob' && name.length > 52) {
    return [{
      field: 'metadata.name',
      message: `the name ${JSON.stringify(name)} is ${name.length} characters long, more than the 52 a CronJob's name may have (its Jobs' names add 11)`,
      fix: 'shorten the name to 52 characters or fewer',
    }];
  }
  return [];
}

function restartPolicyViolations(manifest: any): WorkloadApiViolation[] {
  const kind: string = manifest.kind;
  const path = CONTROLLERS.includes(kind) || kind === 'Job' || kind === 'CronJob' ? podSpecPathOf(kind) : undefined;
  const podSpec = path === undefined ? undefined : dig(manifest, [...path]);
  if (!isObject(podSpec)) return [];
  const field = `${path!.join('.')}.restartPolicy`;
  const policy = podSpec.restartPolicy === undefined || podSpec.restartPolicy === null ? '' : String(podSpec.restartPolicy);
  // a value that is no restart policy at all is the pod spec's own violation (PodSpecValidation): one finding for it
  if (!['', 'Always', 'OnFailure', 'Never'].includes(policy)) return [];
  if (CONTROLLERS.includes(kind)) {
    if (policy === '' || policy === 'Always') return [];
    return [{
      field,
      message: `the pods' restartPolicy is ${JSON.stringify(policy)}: a ${kind}'s pods must restart Always (they are meant to keep running)`,
      fix: 'set restartPolicy: Always, or remove it (Always)',
    }];
  }
  const jobSpec = kind === 'Job' ? manifest.spec : dig(manifest, ['spec', 'jobTemplate', 'spec']);
  const failurePolicy = isObject(jobSpec) && jobSpec.podFailurePolicy !== undefined && jobSpec.podFailurePolicy !== null;
  if (policy === 'Never' || (policy === 'OnFailure' && !failurePolicy)) return [];
  const allowed = failurePolicy ? 'Never (the Job sets a podFailurePolicy)' : 'OnFailure or Never';
  return [{
    field,
    message: policy === '' || policy === 'Always'
      ? `the pods' restartPolicy is ${policy === '' ? 'not set (Always by default)' : '"Always"'}: a Job's pods must set ${allowed}`
      : `the pods' restartPolicy is ${JSON.stringify(policy)}: a Job's pods must set ${allowed}`,
    fix: failurePolicy ? 'set restartPolicy: Never' : 'set restartPolicy: OnFailure (the kubelet restarts a failed container in place) or Never',
  }];
}
