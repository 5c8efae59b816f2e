import { HostAccessType } from '../../model';
import { hostAccessOf } from '../_memo';
import { containersOf, isWindows, podField, podSecurityContext } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

function runAsRoot(container: string) {
  return { type: HostAccessType.RUN_AS_ROOT, detail: container, container };
}

const WINDOWS_FIX = 'set securityContext.windowsOptions.runAsUserName: ContainerUser on the pod or the container (and runAsNonRoot: true, ' +
  'which makes the Windows kubelet refuse ContainerAdministrator), or acknowledge the finding with the reason administrator is required';

/**
 * The Windows side: a container that is not HostProcess runs as its runAsUserName, else as the image's user
 * (ContainerAdministrator in servercore-based images); runAsNonRoot: true makes the Windows kubelet refuse
 * ContainerAdministrator (pkg/kubelet/kuberuntime/security_context_windows.go). The host-access model decides which.
 */
function windowsAdministrators(workload: WorkloadContext): RuleViolation[] {
  const items = hostAccessOf(workload).filter((h) => h.type === HostAccessType.RUN_AS_ROOT && h.windows);
  return containersOf(workload).filter((c) => items.some((h) => h.container === c.name)).map((c) => {
    const named = c.sc.windowsOptions?.runAsUserName ?? podSecurityContext(workload).windowsOptions?.runAsUserName;
    return {
      message: named !== undefined && named !== null
        ? `runs as ContainerAdministrator, the container's administrator (runAsUserName: ${named})`
        : 'sets no runAsUserName and no runAsNonRoot: true: it runs as the image\'s user, ContainerAdministrator (the container\'s ' +
          'administrator) in servercore-based images',
      container: c.name,
      field: `${c.path}.securityContext.windowsOptions.runAsUserName`,
      fix: WINDOWS_FIX,
      privileges: [runAsRoot(c.name)],
      cause: runAsRoot(c.name),
    };
  });
}

/**
 * `NA-RUN-AS-NON-ROOT`: no container may run as root: each has an effective (its own, else the pod's) `runAsNonRoot: true`
 * or a non-zero `runAsUser`, and none runs as UID 0.
 *
 * Part of the node-agent baseline: root in the container turns any other weakness into root on the node. In a Windows
 * pod, which has no UIDs, root is ContainerAdministrator: a container that is not HostProcess (which runs as the Windows
 * user it names, reported by the hostProcess privilege) and names no other user in runAsUserName.
 */
export class RunAsNonRootRule implements IReviewRule {
  public readonly id = 'NA-RUN-AS-NON-ROOT';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'Containers run as non-root';
  public readonly explanation = 'Without runAsNonRoot or a runAsUser the image decides, and most images run as root. Root in the container ' +
    'reads root-only files on every host mount and turns any other weakness (a writable host path, an added capability, a kernel bug) ' +
    'into root on the node. runAsNonRoot: true makes the kubelet refuse to start a container whose user is root. In a Windows pod, root ' +
    'is ContainerAdministrator, the user of servercore-based images when runAsUserName names none.';
  public readonly fix = 'set runAsNonRoot: true and a non-zero runAsUser (on the pod or the container), reaching files the agent reads ' +
    'through a group allowed to read them (runAsGroup, supplementalGroups); an added capability does not replace root: a non-root ' +
    'process gets none (Kubernetes sets no ambient capabilities). If the agent needs root, or a capability, which only root gets, ' +
    'acknowledge the finding with the reason and keep capabilities.drop: [ALL]';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    if (isWindows(workload)) return windowsAdministrators(workload);
    const pod = podSecurityContext(workload);
    const violations: RuleViolation[] = [];
    for (const c of containersOf(workload)) {
      const ownUser = c.sc.runAsUser;
      const user = ownUser ?? pod.runAsUser;
      const nonRoot = c.sc.runAsNonRoot ?? pod.runAsNonRoot;
      if (user !== undefined && user !== null) {
        if (Number(user) === 0) {
          const field = ownUser !== undefined && ownUser !== null ? `${c.path}.securityContext.runAsUser` : podField(workload, 'securityContext.runAsUser');
          violations.push({ message: 'runs as root (runAsUser: 0)', container: c.name, field, privileges: [runAsRoot(c.name)], cause: runAsRoot(c.name) });
        }
        continue;
      }
      if (nonRoot !== true) {
        violations.push({
          message: nonRoot === false ? 'sets runAsNonRoot: false and no runAsUser: it runs as the image\'s user, often root'
            : 'sets neither runAsNonRoot: true nor a runAsUser: it runs as the image\'s user, often root',
          container: c.name,
          field: `${c.path}.securityContext.runAsNonRoot`,
          privileges: [runAsRoot(c.name)],
          cause: runAsRoot(c.name),
        });
      }
    }
    return violations;
  }
}
