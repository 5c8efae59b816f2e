import { HostAccessReasons, HostRisk } from '../../model';
import { descriptorOf, HOST_PRIVILEGES } from '../../model/_host-privileges';
import { RiskLevel } from '../../model/risk-level';
import { hostAccessOf } from '../_memo';
import { describePrivilege } from '../_privileges';
import { podField, workloadAnnotations } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severities, Severity } from '../severity';

/**
 * `NA-HOST-ACCESS-REASON`: every host privilege the pod takes (every `HostAccessType`, as `HostAccess` lists them) has a
 * reason in the workload's
 * `node-agents.cdk8s.io/host-access` annotation. Each finding's severity is the privilege's risk (`HostRisk`). A container
 * port that is a node port only through hostNetwork needs no reason of its own: the hostNetwork's explains it.
 */
export class HostAccessReasonRule implements IReviewRule {
  public readonly id = 'NA-HOST-ACCESS-REASON';
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'Every host privilege has a recorded reason';
  public readonly explanation = 'Host privileges are near node-level power and must be reviewed one by one. ' +
    'A reason recorded next to each privilege (in the workload\'s node-agents.cdk8s.io/host-access annotation, which NodeAgent writes ' +
    'from the reason given for each privilege) tells a reviewer why it is there and lets the next maintainer drop it when the need goes. ' +
    `A privilege without a reason is an unreviewed one. The severity of each finding is the privilege's risk: ${riskByType()}.`;
  public readonly fix = 'record why the agent needs the privilege in the node-agents.cdk8s.io/host-access annotation ' +
    '(a JSON array of {"type", "detail", "reason"}; NodeAgent writes it from each privilege\'s reason), or drop the privilege';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const reasons = HostAccessReasons.parse(workloadAnnotations(workload));
    const violations: RuleViolation[] = [];
    for (const item of hostAccessOf(workload)) {
      if (!descriptorOf(item.type).reasonRequired(item)) continue;
      const found = HostAccessReasons.find(reasons, item.type, item.detail, item.container);
      if (found && found.reason.trim() !== '') continue;
      const assessment = HostRisk.assess(item);
      const container = item.container ?? (item.containers?.length === 1 ? item.containers[0] : undefined);
      const entry = JSON.stringify({ type: item.type, detail: item.detail, ...(item.container ? { container: item.container } : {}), reason: '...' });
      violations.push({
        // the risk first, in the words of the report's entry, which then points here instead of saying it again
        message: `takes ${describePrivilege(item)}, which is ${assessment.risk} risk: ${assessment.attackerGains}; no reason is recorded for it ` +
          `in annotation ${HostAccessReasons.ANNOTATION}`,
        container,
        field: podField(workload, descriptorOf(item.type).field(item, workload.podSpec)),
        severity: Severities.ofRisk(assessment.risk),
        // an alternative that says nothing narrower exists is not a way to drop the privilege
        fix: `add ${entry} to the ${HostAccessReasons.ANNOTATION} annotation, or drop the privilege` +
          `${assessment.saferAlternative.startsWith('nothing') ? '; ' : ': '}${assessment.saferAlternative}`,
        cause: item.container === undefined ? { type: item.type, detail: item.detail }
          : { type: item.type, detail: item.detail, container: item.container },
      });
    }
    return violations;
  }
}

/** the risk of each host privilege type, in words, from the descriptors: `critical for privileged and hostProcess; ...`. */
function riskByType(): string {
  const fixed = new Map<RiskLevel, string[]>();
  const computed: string[] = [];
  for (const d of HOST_PRIVILEGES) {
    if ('fixed' in d.riskBasis) fixed.set(d.riskBasis.fixed, [...fixed.get(d.riskBasis.fixed) ?? [], d.type]);
    else computed.push(`for ${d.type}, by ${d.riskBasis.dependsOn}`);
  }
  const levels = [RiskLevel.CRITICAL, RiskLevel.HIGH, RiskLevel.MEDIUM, RiskLevel.LOW].filter((l) => fixed.has(l))
    .map((l) => `${l} for ${andList(fixed.get(l)!)}`);
  return [...levels, ...computed].join('; ');
}

function andList(words: string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
