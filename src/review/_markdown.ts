// Internal: the Markdown rendering of a review (SecurityReview.toMarkdown). Lists rather than tables, so that it also
// reads well in a terminal, where the CLI prints it.
import { labelPrivilege } from './_privileges';
import { Finding } from './finding';
import { HostAccessEntry, ReviewReport, WorkloadReview } from './review-report';
import { Severities, Severity } from './severity';

function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}

function refOf(w: { kind: string; namespace?: string; name: string }): string {
  return `${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name || '<unnamed>'}`;
}

/**
 * `hostPath /var/log (read-only) in containers "a", "b"`, `capability NET_ADMIN in container "agent"`, `hostNetwork`; a
 * host path no container mounts says so.
 */
function privilege(h: HostAccessEntry): string {
  const what = labelPrivilege(h);
  const containers = h.containers ?? (h.container !== undefined ? [h.container] : undefined);
  if (containers === undefined) return what;
  if (containers.length === 0) return `${what}, mounted by no container`;
  return `${what} in ${containers.length === 1 ? 'container' : 'containers'} ${containers.map((c) => JSON.stringify(c)).join(', ')}`;
}

/** `2 critical, 1 high` (severities with findings only), or `none`. */
function countBySeverity(findings: Finding[]): string {
  const parts = Severities.all().reverse()
    .map((s: Severity) => ({ s, n: findings.filter((f) => f.severity === s).length }))
    .filter(({ n }) => n > 0)
    .map(({ s, n }) => `${n} ${s}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

function renderFinding(f: Finding): string[] {
  const merged = f.mergedRules !== undefined && f.mergedRules.length > 0 ? ` (with ${f.mergedRules.join(', ')})` : '';
  const lines = [`- [${f.severity}] ${f.rule}${merged}: ${f.message}`];
  if (f.acknowledged) {
    lines.push(`  - acknowledged: ${f.acknowledgedReason}`);
  } else {
    lines.push(`  - fix: ${f.fix}`);
    if (f.unacceptedAcknowledgements !== undefined) {
      lines.push(`  - not accepted by the acknowledgement of ${f.unacceptedAcknowledgements.join(', ')}: that part is less severe than ` +
        `this ${f.severity} finding; acknowledge ${f.rule} to accept it`);
    }
  }
  return lines;
}

/** how the report states a namespace the manifest does not set. */
function namespaceLine(w: WorkloadReview): string[] {
  switch (w.namespaceSource) {
    case 'manifest': return [];
    case 'option': return [`Namespace: ${w.namespace} (from --namespace; the manifest sets none)`, ''];
    case 'file': return [`Namespace: ${w.namespace} (used by the other objects of its file; the manifest sets none)`, ''];
    default: return w.namespace === undefined ? ['Namespace: unknown (the manifest sets none; pass --namespace)', ''] : [];
  }
}

/** the path of a hostPath detail without its mode: `/var/log (read-only)` -> `/var/log`. */
function withoutMode(detail: string): string {
  return detail.replace(/ \((read-only|read-write)\)$/, '');
}

/** the findings about the entry's privilege (one per container that has it, or one for the pod). */
function findingsAbout(h: HostAccessEntry, findings: Finding[]): Finding[] {
  return findings.filter((f) => {
    const p = f.privilege;
    if (p === undefined || p.type !== h.type) return false;
    if (h.type === 'hostPath') {
      return withoutMode(p.detail) === withoutMode(h.detail) && (f.container === undefined || (h.containers ?? []).includes(f.container));
    }
    return p.detail === h.detail && p.container === h.container;
  });
}

/**
 * The open findings that already say what the entry would (its attacker gains in the message, its safer alternative in
 * the fix), so that the entry points to them instead of saying it again: one privilege, one statement. Empty when any
 * finding about the privilege is acknowledged or says it otherwise: the entry then says it itself.
 */
function statedBy(h: HostAccessEntry, findings: Finding[]): Finding[] {
  const about = findingsAbout(h, findings);
  const says = (f: Finding) => !f.acknowledged && f.message.includes(h.attackerGains) && f.fix.includes(h.saferAlternative);
  return about.length > 0 && about.every(says) ? about : [];
}

function renderWorkload(w: WorkloadReview): string[] {
  const lines: string[] = [`## ${refOf(w)}`, '', ...namespaceLine(w), `Pod Security level: ${w.podSecurityLevel}`, ''];
  if (w.hostAccess.length === 0) {
    lines.push('Host access: none', '');
  } else {
    lines.push(`Host access (${w.hostAccess.length}, by risk):`, '');
    // by risk, critical first, as the findings are by severity (the JSON keeps HostAccess order); in HostAccess order within a risk
    const byRisk = w.hostAccess.map((h, i) => ({ h, i }))
      .sort((a, b) => Severities.rank(Severities.ofRisk(b.h.risk)) - Severities.rank(Severities.ofRisk(a.h.risk)) || a.i - b.i)
      .map(({ h }) => h);
    for (const h of byRisk) {
      lines.push(`- ${privilege(h)}: risk ${h.risk}`);
      lines.push(`  - reason: ${h.reason ?? 'no reason recorded'}`);
      const stated = statedBy(h, w.findings);
      if (stated.length > 0) {
        const which = stated.map((f) => `[${f.severity}] ${f.rule}${f.container !== undefined ? ` (container ${JSON.stringify(f.container)})` : ''}`);
        lines.push(`  - attacker gains and safer alternative: in the open finding ${which.join(', ')} below`);
      } else {
        lines.push(`  - attacker gains: ${h.attackerGains}`);
        lines.push(`  - safer alternative: ${h.saferAlternative}`);
      }
    }
    lines.push('');
  }
  const open = w.findings.filter((f) => !f.acknowledged);
  const acknowledged = w.findings.filter((f) => f.acknowledged);
  if (open.length === 0) {
    lines.push('Open findings: none', '');
  } else {
    lines.push(`Open findings (${open.length}: ${countBySeverity(open)}):`, '');
    for (const f of open) lines.push(...renderFinding(f));
    lines.push('');
  }
  if (acknowledged.length > 0) {
    lines.push(`Acknowledged findings (${acknowledged.length}):`, '');
    for (const f of acknowledged) lines.push(...renderFinding(f));
    lines.push('');
  }
  return lines;
}

export function renderMarkdown(report: ReviewReport): string {
  const all = report.workloads.flatMap((w) => w.findings);
  const open = all.filter((f) => !f.acknowledged);
  const settings: string[] = [];
  if (report.podSecurityVersion !== undefined) settings.push(`Pod Security policy version ${report.podSecurityVersion}`);
  if (report.packs !== undefined) settings.push(`packs ${report.packs.length === 0 ? 'none' : report.packs.join(', ')}`);
  const lines: string[] = [
    '# Security review',
    '',
    `${plural(report.workloads.length, 'workload')}${settings.length > 0 ? `; ${settings.join('; ')}` : ''}.`,
    `Open findings: ${countBySeverity(open)}. Acknowledged: ${countAcknowledged(all)}.`,
    '',
  ];
  if (report.workloads.length === 0) lines.push('No workloads (DaemonSet, Deployment, StatefulSet, ReplicaSet, Job, CronJob, Pod) found.', '');
  for (const w of report.workloads) lines.push(...renderWorkload(w));
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

function countAcknowledged(findings: Finding[]): number {
  return findings.filter((f) => f.acknowledged).length;
}
