import { HostAccessType } from '../../model';
import { containersOf, isWindows, podField, podSecurityContext } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

function runAsRoot(container: string) {
  return { type: HostAccessType.RUN_AS_ROOT, detail: container, container };
}

/**
 * `NA-RUN-AS-NON-ROOT`: no container may run as root: each has an effective (its own, else the pod's) `runAsNonRoot: true`
 * or a non-zero `runAsUser`, and none runs as UID 0.
 *
 * Part of the node-agent baseline: root in the container turns any other weakness into root on the node. Windows pods
 * are not checked: they have no UIDs (a HostProcess container runs as the Windows user it names, which the hostProcess
 * privilege reports), and with `spec.os.name: windows` the API server rejects runAsUser.
 */
export class RunAsNonRootRule implements IReviewRule {
  public readonly id = 'NA-RUN-AS-NON-ROOT';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'Containers run as non-root';
  public readonly explanation = 'Without runAsNonRoot or a runAsUser the image decides, and most images run as root. Root in the container ' +
    'reads root-only files on every host mount and turns any other weakness (a writable host path, an added capability, a kernel bug) ' +
    'into root on the node. runAsNonRoot: true makes the kubelet refuse to start a container whose user is root. Windows pods are not ' +
    'checked: they have no UIDs.';
  public readonly fix = 'set runAsNonRoot: true and a non-zero runAsUser (on the pod or the container); give the agent the capability it ' +
    'needs (e.g. DAC_READ_SEARCH to read root-owned logs) instead of root, or acknowledge the finding with the reason root is required';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    if (isWindows(workload)) return [];
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
