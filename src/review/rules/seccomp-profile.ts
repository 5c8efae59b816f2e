import { containersOf, isWindows, obj, podField, podSecurityContext } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

const CONFINED = ['RuntimeDefault', 'Localhost'];

/**
 * `NA-SECCOMP`: every container of a Linux pod runs with a `RuntimeDefault` or `Localhost` seccomp profile (its own, else
 * the pod's). Windows pods are not checked: Windows has no seccomp (with `spec.os.name: windows` the API server rejects
 * the field). Privileged containers are not checked either: the runtime applies no seccomp profile to them, whatever the
 * manifest sets ("Privileged containers always run as Unconfined", Kubernetes' Seccomp reference,
 * kubernetes.io/docs/reference/node/seccomp/), so asking them for one would be a fix with no effect; NA-PRIVILEGED says
 * they have no confinement.
 */
export class SeccompProfileRule implements IReviewRule {
  public readonly id = 'NA-SECCOMP';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'Containers run with a RuntimeDefault or Localhost seccomp profile';
  public readonly explanation = 'Without a seccomp profile the kubelet runs containers Unconfined (unless its seccompDefault setting is on, ' +
    'which it is not by default): every system call is allowed, including those behind most container escapes (unshare, keyctl, bpf, mount). ' +
    'The runtime\'s default profile blocks them and breaks almost no agent; none of the common agent charts sets it, so it has to be asked ' +
    'for. Windows pods are not checked: Windows has no seccomp. Privileged containers are not checked: they always run Unconfined, ' +
    'whatever profile is set (NA-PRIVILEGED reports them).';
  public readonly fix = 'set spec.template.spec.securityContext.seccompProfile.type: RuntimeDefault (or a Localhost profile written for the agent)';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    if (isWindows(workload)) return [];
    const podSc = podSecurityContext(workload);
    const podType = obj(podSc.seccompProfile, podField(workload, 'securityContext.seccompProfile')).type;
    // a privileged container runs Unconfined whatever it sets: a profile asked of it would change nothing (on the real
    // node, kubelet v1.37.2 with containerd and runc, the CSI preset's privileged driver under the pod's RuntimeDefault
    // ran with Seccomp 0: test/cluster/real-csi.test.ts)
    const containers = containersOf(workload).filter((c) => c.sc.privileged !== true);
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
