import { HostAccessItem, HostAccessReasons, HostAccessType, HostRisk } from '../../model';
import { hostAccessOf } from '../_memo';
import { describePrivilege } from '../_privileges';
import { containersOf, podField, workloadAnnotations } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severities, Severity } from '../severity';

/**
 * `NA-HOST-ACCESS-REASON`: every host privilege the pod takes (as `HostAccess` lists them: hostPath, hostNetwork, hostPID,
 * hostIPC, hostPort, privileged, capability, runAsRoot) has a reason in the workload's `node-agents.cdk8s.io/host-access`
 * annotation. Each finding's severity is the privilege's risk (`HostRisk`).
 */
export class HostAccessReasonRule implements IReviewRule {
  public readonly id = 'NA-HOST-ACCESS-REASON';
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'Every host privilege has a recorded reason';
  public readonly explanation = 'Host privileges are near node-level power and must be reviewed one by one. ' +
    'A reason recorded next to each privilege (in the workload\'s node-agents.cdk8s.io/host-access annotation, which NodeAgent writes ' +
    'from the reason given for each privilege) tells a reviewer why it is there and lets the next maintainer drop it when the need goes. ' +
    'A privilege without a reason is an unreviewed one. The severity of each finding is the privilege\'s risk: critical for privileged, ' +
    'high for hostNetwork and hostPID, and by path, capability or port for the others.';
  public readonly fix = 'record why the agent needs the privilege in the node-agents.cdk8s.io/host-access annotation ' +
    '(a JSON array of {"type", "detail", "reason"}; NodeAgent writes it from each privilege\'s reason), or drop the privilege';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const reasons = HostAccessReasons.parse(workloadAnnotations(workload));
    const containers = containersOf(workload);
    const pathOf = (name?: string) => containers.find((c) => c.name === name)?.path;
    const volumes = Array.isArray(workload.podSpec.volumes) ? workload.podSpec.volumes : [];
    const violations: RuleViolation[] = [];
    for (const item of hostAccessOf(workload)) {
      const found = HostAccessReasons.find(reasons, item.type, item.detail, item.container);
      if (found && found.reason.trim() !== '') continue;
      const assessment = HostRisk.assess(item);
      const container = item.container ?? (item.containers?.length === 1 ? item.containers[0] : undefined);
      const entry = JSON.stringify({ type: item.type, detail: item.detail, ...(item.container ? { container: item.container } : {}), reason: '...' });
      violations.push({
        message: `takes ${describePrivilege(item)} (risk ${assessment.risk}) without a reason in annotation ${HostAccessReasons.ANNOTATION}`,
        container,
        field: fieldOf(workload, item, pathOf(item.container), volumes),
        severity: Severities.ofRisk(assessment.risk),
        fix: `add ${entry} to the ${HostAccessReasons.ANNOTATION} annotation, or drop the privilege: ${assessment.saferAlternative}`,
      });
    }
    return violations;
  }
}

function fieldOf(workload: WorkloadContext, item: HostAccessItem, containerPath: string | undefined, volumes: any[]): string {
  switch (item.type) {
    case HostAccessType.HOST_NETWORK:
    case HostAccessType.HOST_PID:
    case HostAccessType.HOST_IPC:
      return podField(workload, item.type);
    case HostAccessType.HOST_PATH: {
      const i = volumes.findIndex((v: any) => v && v.name === item.volumes?.[0]);
      return i >= 0 ? podField(workload, `volumes[${i}].hostPath`) : podField(workload, 'volumes');
    }
    case HostAccessType.PRIVILEGED:
      return `${containerPath}.securityContext.privileged`;
    case HostAccessType.CAPABILITY:
      return `${containerPath}.securityContext.capabilities.add`;
    case HostAccessType.HOST_PORT:
      return `${containerPath}.ports`;
    default:
      return `${containerPath}.securityContext.runAsNonRoot`;
  }
}
