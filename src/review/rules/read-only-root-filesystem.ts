import { containersOf, isWindows } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-READONLY-ROOTFS`: every container sets `securityContext.readOnlyRootFilesystem: true`.
 *
 * Part of the node-agent baseline: a read-only root filesystem keeps an attacker from replacing the agent's own files.
 * Windows pods are not checked: the setting does not exist there (with `spec.os.name: windows` the API server rejects it).
 */
export class ReadOnlyRootFilesystemRule implements IReviewRule {
  public readonly id = 'NA-READONLY-ROOTFS';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'Containers have a read-only root filesystem';
  public readonly explanation = 'With a writable root filesystem an attacker can drop tools and replace the agent\'s own binaries and ' +
    'configuration, and the change survives until the container is recreated. Agents write little: scratch space and state fit in an ' +
    'emptyDir or a directory of their own. Windows pods are not checked: the setting does not exist there.';
  public readonly fix = 'set securityContext.readOnlyRootFilesystem: true and mount an emptyDir where the agent writes (e.g. /tmp)';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    if (isWindows(workload)) return [];
    return containersOf(workload)
      .filter((c) => c.sc.readOnlyRootFilesystem !== true)
      .map((c) => ({
        message: 'does not set securityContext.readOnlyRootFilesystem: true',
        container: c.name,
        field: `${c.path}.securityContext.readOnlyRootFilesystem`,
      }));
  }
}
