import { PodSpecValidation } from '../../model';
import { removedApi } from '../../model/_removed-apis';
import { workloadApiViolations } from '../../model/_workload-api-rules';
import { selectorViolations } from '../../model/_workload-selector';
import { podField } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * The pod spec as the API server validates it: a StatefulSet's pods also have a volume for each of its
 * volumeClaimTemplates, which replaces a pod volume of the same name (ValidateStatefulSetSpec, volumesToAddForTemplates,
 * k8s.io/kubernetes pkg/apis/apps/validation), so that mounting a claim template is no mount of a missing volume. The
 * pod's own volumes keep their places, so that the findings' field paths stay the manifest's.
 */
function validatedPodSpec(workload: WorkloadContext): any {
  const claims = workload.kind === 'StatefulSet' ? workload.manifest.spec?.volumeClaimTemplates : undefined;
  if (!Array.isArray(claims) || claims.length === 0 || workload.podSpec === null || typeof workload.podSpec !== 'object') return workload.podSpec;
  const claimVolumes = new Map<string, any>();
  for (const c of claims) {
    const name = c?.metadata?.name;
    if (typeof name === 'string') claimVolumes.set(name, { name, persistentVolumeClaim: { claimName: name } });
  }
  const volumes: any[] = Array.isArray(workload.podSpec.volumes) ? workload.podSpec.volumes : [];
  const own = volumes.map((v) => (typeof v?.name === 'string' && claimVolumes.has(v.name) ? claimVolumes.get(v.name) : v));
  const added = [...claimVolumes.values()].filter((c) => !volumes.some((v) => v?.name === c.name));
  return { ...workload.podSpec, volumes: [...own, ...added] };
}

/**
 * `NA-API-REJECTED`: the pod spec breaks none of the API server's host-access rules that `PodSpecValidation` checks
 * (host port conflicts, hostPort on the host network, Bidirectional propagation outside privileged containers,
 * allowPrivilegeEscalation: false beside privileged or CAP_SYS_ADMIN, Windows HostProcess pods that mix containers or
 * lack hostNetwork, Linux settings on a `spec.os.name: windows` pod and windowsOptions on a linux one, Lt/Gt toleration
 * values; container names, ports and protocols, volume names and mounts, hostPath `..` and types, tolerations, the pods'
 * restartPolicy), the object's name is one its kind allows, the selector of an apps/v1 controller is present, valid, not empty and matches its pod template's labels, and
 * the workload is written in an API version a current API server serves.
 *
 * The engine runs it on every review, whatever the packs: a manifest the API server rejects is reported on any YAML, and
 * its findings cannot be acknowledged. A NodeAgent fails its synth on them whatever its `reviewFailOn`.
 */
export class ApiRejectedRule implements IReviewRule {
  public readonly id = 'NA-API-REJECTED';
  public readonly severity = Severity.HIGH;
  public readonly title = 'The API server accepts the workload';
  public readonly explanation = 'Some combinations of valid fields are rejected by the Kubernetes API server: two containers binding the ' +
    'same host port, a hostPort other than the containerPort on the host network, Bidirectional mount propagation in a container that is ' +
    'not privileged, allowPrivilegeEscalation: false beside privileged: true or CAP_SYS_ADMIN, a Windows HostProcess pod whose containers ' +
    'are not all HostProcess containers or that lacks hostNetwork, Linux settings (runAsUser, seccomp, capabilities, ' +
    'allowPrivilegeEscalation, readOnlyRootFilesystem...) on a pod that sets spec.os.name: windows, a Lt/Gt toleration whose value is ' +
    'not a decimal integer; a container or volume name that is not an RFC 1123 label, two containers with one name, a port outside ' +
    '1 to 65535, a protocol other than TCP, UDP or SCTP (in capitals), a volumeMount of a volume the pod does not have (a ' +
    'StatefulSet\'s volumeClaimTemplates are volumes of its pods), ".." in a host ' +
    'path, a toleration with operator Exists and a value, an unknown toleration operator or effect, a DaemonSet whose pods do not restart ' +
    'Always, a Job whose pods do not set OnFailure or Never, an object name its kind does not allow; an apps/v1 DaemonSet, Deployment, ReplicaSet or StatefulSet whose spec.selector is missing, invalid, ' +
    'empty or does not match its pod template\'s labels; and workloads written in an API version no API server serves any more ' +
    '(extensions/v1beta1, apps/v1beta1 and apps/v1beta2 since 1.16, batch/v1beta1 CronJobs since 1.25). kubectl apply fails on them, often ' +
    'half-way through a release. The rule always runs and cannot be acknowledged: the fix is to the manifest.';
  public readonly fix = 'change the manifest as each finding says; the API server rejects it as it is';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const removed = removedApi(workload.manifest.apiVersion, workload.kind);
    const api: RuleViolation[] = removed === undefined ? [] : [{
      message: `is written in apiVersion ${removed.apiVersion}, which no API server serves since Kubernetes ${removed.removedIn}` +
        (removed.apiVersion === 'extensions/v1beta1' && workload.kind === 'DaemonSet' && workload.manifest.spec?.updateStrategy?.type === undefined
          ? '; in it a DaemonSet defaulted to updateStrategy OnDelete, in apps/v1 to RollingUpdate'
          : ''),
      field: 'apiVersion',
      fix: `write apiVersion: ${removed.replacement} (spec.selector is then required and immutable, and must match the template's labels)`,
    }];
    const selector: RuleViolation[] = [...workloadApiViolations(workload.manifest), ...selectorViolations(workload.manifest)]
      .map((v) => ({ ...v, message: `${v.message}; the API server rejects this` }));
    return [...api, ...selector, ...PodSpecValidation.check(validatedPodSpec(workload)).map((v) => ({
      message: `${v.message}; the API server rejects this`,
      container: v.container,
      field: podField(workload, v.field),
      fix: v.fix,
    }))];
  }
}
