import { HostAccess } from '../../model';
import { stringItems } from '../../model/_pod-spec';
import { ContainerInfo, containersOf, isWindows, obj, podSecurityContext } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-CAPABILITY-INERT`: no container that runs as non-root adds capabilities, which a non-root process does not get from
 * the container runtime.
 *
 * Linux gives a non-root process a capability only through ambient capabilities, which Kubernetes does not set, or the
 * file capabilities of a program it executes (and a setuid-root program makes it root). The container runtime puts the
 * added capabilities in the bounding and permitted sets of the container's first process; executing the entrypoint as
 * non-root then keeps only those its file carries. With `allowPrivilegeEscalation: false` (no_new_privs) no later
 * program can gain one back, so the capability works only if the entrypoint's own file carries it (medium); when the
 * container may escalate, any program whose file carries it, or a setuid-root program, gets it (low). The review cannot
 * see the image's files, so each finding says so. Measured on a real kubelet v1.37.2 with containerd and runc: a
 * non-root container with `add: [NET_ADMIN, SYS_PTRACE]` and no_new_privs had `CapBnd 0000000000081000`, `CapEff 0`.
 *
 * A container runs as non-root when its effective `runAsUser` (its own, else the pod's) is not 0, or, without one, when
 * its effective `runAsNonRoot` is true (the image's user, which the kubelet requires to be non-root). Without either the
 * image decides, and the review does not know. Windows pods are not checked (no Linux capabilities).
 */
export class CapabilityInertRule implements IReviewRule {
  public readonly id = 'NA-CAPABILITY-INERT';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'Added capabilities can take effect';
  public readonly explanation = 'Only root gets the added capabilities as they are. Kubernetes sets no ambient capabilities, so a non-root ' +
    'process gets one only from the file capabilities of a program it executes (setcap), or by executing a setuid-root program. With ' +
    'allowPrivilegeEscalation: false (no_new_privs) only the container\'s entrypoint can, from its own file: a program executed later ' +
    'never gains one it does not hold. Otherwise the capability stays in the bounding set, never effective, and the agent fails at what ' +
    'it was granted for (medium). When the container may escalate, any program of the image whose file carries it, or a setuid-root ' +
    'one, gets it (low). The review cannot see the image\'s files. Not merged with NA-CAPABILITIES: the privilege stays granted (in the ' +
    'bounding set), and that rule rates its risk.';
  public readonly fix = 'run the container as root with every other capability dropped (runAsUser: 0, runAsNonRoot not true, ' +
    'capabilities.drop: [ALL]): root gets exactly the added capabilities; or, if the image\'s program carries the capability as a file ' +
    'capability, acknowledge the finding saying which program; or remove the capability';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    if (isWindows(workload)) return [];
    const pod = podSecurityContext(workload);
    const violations: RuleViolation[] = [];
    for (const c of containersOf(workload)) {
      const field = `${c.path}.securityContext.capabilities.add`;
      // an empty name (`add: [null]` is stored as [""]) adds no capability
      const added = [...new Set(stringItems(obj(c.sc.capabilities, `${c.path}.securityContext.capabilities`).add, field)
        .filter((raw) => raw.trim() !== '').map((raw) => HostAccess.normalizeCapability(raw)))];
      if (added.length === 0) continue;
      const user = nonRootUser(c, pod);
      if (user === undefined) continue;
      const names = added.join(', ');
      if (c.sc.allowPrivilegeEscalation === false) {
        violations.push({
          message: `adds ${names} but runs as non-root (${user}) with allowPrivilegeEscalation: false: Kubernetes sets no ambient ` +
            `capabilities, so the process has ${added.length > 1 ? 'them' : 'it'} only if the file of its entrypoint carries ` +
            `${added.length > 1 ? 'them' : 'it'} as file capabilities (setcap), which the review cannot see in the image; otherwise ` +
            `${added.length > 1 ? 'they stay' : 'it stays'} in the bounding set, never effective`,
          container: c.name,
          field,
        });
      } else {
        const setting = c.sc.privileged === true ? 'privileged, which may escalate' : c.sc.allowPrivilegeEscalation === true
          ? 'allowPrivilegeEscalation: true' : 'allowPrivilegeEscalation not set to false';
        violations.push({
          message: `adds ${names} but runs as non-root (${user}, ${setting}): Kubernetes sets no ambient capabilities, so only a program ` +
            `whose file carries ${added.length > 1 ? 'them' : 'it'} as file capabilities (setcap), or a setuid-root program, gets ` +
            `${added.length > 1 ? 'them' : 'it'}; the review cannot see which programs of the image do`,
          container: c.name,
          field,
          severity: Severity.LOW,
        });
      }
    }
    return violations;
  }
}

/** how the container is known to run as non-root, in words; undefined when it runs as root or the image decides. */
function nonRootUser(c: ContainerInfo, pod: any): string | undefined {
  const own = c.sc.runAsUser;
  if (own !== undefined && own !== null) return Number(own) === 0 ? undefined : `runAsUser: ${own}`;
  if (pod.runAsUser !== undefined && pod.runAsUser !== null) {
    return Number(pod.runAsUser) === 0 ? undefined : `runAsUser: ${pod.runAsUser} from the pod's securityContext`;
  }
  const ownNonRoot = c.sc.runAsNonRoot;
  const nonRoot = ownNonRoot ?? pod.runAsNonRoot;
  if (nonRoot !== true) return undefined;
  return `runAsNonRoot: true${ownNonRoot === true ? '' : ' from the pod\'s securityContext'} and no runAsUser: the image's user, which ` +
    'the kubelet requires to be non-root';
}
