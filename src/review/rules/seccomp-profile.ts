import { containersOf, isWindows, obj, podField, podSecurityContext } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

const CONFINED = ['RuntimeDefault', 'Localhost'];

/**
 * `NA-SECCOMP`: every container of a Linux pod runs with a `RuntimeDefault` or `Localhost` seccomp profile (its own, else
 * the pod's). Windows pods are not checked: Windows has no seccomp (with `spec.os.name: windows` the API server rejects
 * the field).
 */
export class SeccompProfileRule implements IReviewRule {
  public readonly id = 'NA-SECCOMP';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'Containers run with a RuntimeDefault or Localhost seccomp profile';
  public readonly explanation = 'Without a seccomp profile the kubelet runs containers Unconfined (unless its seccompDefault setting is on, ' +
    'which it is not by default): every system call is allowed, including those behind most container escapes (unshare, keyctl, bpf, mount). ' +
    'The runtime\'s default profile blocks them and breaks almost no agent; none of the common agent charts sets it, so it has to be asked ' +
    'for. Windows pods are not checked: Windows has no seccomp.';
  public readonly fix = 'set spec.template.spec.securityContext.seccompProfile.type: RuntimeDefault (or a Localhost profile written for the agent)';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    if (isWindows(workload)) return [];
    const podSc = podSecurityContext(workload);
    const podType = obj(podSc.seccompProfile, podField(workload, 'securityContext.seccompProfile')).type;
    const containers = containersOf(workload);
    const bad = containers
      .map((c) => ({ c, own: obj(c.sc.seccompProfile, `${c.path}.securityContext.seccompProfile`).type }))
      .filter(({ own }) => !CONFINED.includes(own ?? podType));
    if (bad.length === 0) return [];
    if (!CONFINED.includes(podType) && bad.length === containers.length && bad.every(({ own }) => own === undefined || own === null)) {
      return [{
        message: podType === undefined || podType === null
          ? 'sets no seccomp profile on the pod or its containers: they run Unconfined unless the kubelet\'s seccompDefault is on (it is off by default)'
          : `sets seccomp profile ${podType} on the pod and none on its containers`,
        field: podField(workload, 'securityContext.seccompProfile.type'),
      }];
    }
    return bad.map(({ c, own }) => ({
      message: own !== undefined && own !== null ? `sets seccomp profile ${own}` : `sets no seccomp profile and the pod's is ${podType ?? 'unset'}`,
      container: c.name,
      field: `${c.path}.securityContext.seccompProfile.type`,
    }));
  }
}
