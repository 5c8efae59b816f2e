// Internal: the JSON rendering of a review (SecurityReview.toJson): a fixed key order, so that the same review is the
// same text.
import { ReviewReport } from './review-report';
import { dropUndefined } from '../model/_pod-spec';

export function renderJson(report: ReviewReport): string {
  const out = dropUndefined({
    podSecurityVersion: report.podSecurityVersion,
    packs: report.packs,
    workloads: report.workloads.map((w) => dropUndefined({
      kind: w.kind,
      namespace: w.namespace,
      namespaceSource: w.namespaceSource,
      name: w.name,
      podSecurityLevel: w.podSecurityLevel,
      hostAccess: w.hostAccess.map((h) => dropUndefined({
        type: h.type,
        detail: h.detail,
        risk: h.risk,
        container: h.container,
        containers: h.containers,
        viaHostNetwork: h.viaHostNetwork,
        reason: h.reason,
        attackerGains: h.attackerGains,
        saferAlternative: h.saferAlternative,
      })),
      findings: w.findings.map((f) => dropUndefined({
        rule: f.rule,
        severity: f.severity,
        message: f.message,
        fix: f.fix,
        kind: f.kind,
        namespace: f.namespace,
        name: f.name,
        container: f.container,
        field: f.field,
        mergedRules: f.mergedRules,
        privilege: f.privilege,
        rules: f.rules,
        podSecurity: f.podSecurity,
        acknowledged: f.acknowledged,
        acknowledgedReason: f.acknowledgedReason,
        unacceptedAcknowledgements: f.unacceptedAcknowledgements,
      })),
    })),
  });
  return `${JSON.stringify(out, null, 2)}\n`;
}
