/**
 * Which rule IDs can be acknowledged. The library's own IDs (NA-*, PSS-*) are checked when acknowledged, everywhere an
 * acknowledgement is made (agent.acknowledge, SecurityCheck.acknowledge, the annotation); a custom pack's IDs are checked
 * by SecurityCheck.apply against its packs.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiObject, App, Chart, Testing } from 'cdk8s';
import {
  Acknowledgements, IReviewRule, NodeAgent, ReviewPack, RuleViolation, SecurityCheck, SecurityReview, Severity, WorkloadContext,
} from '../../src';
import { errorOf } from '../util/errors';

const image = 'registry.example.com/node-agent:1.2.0';


function app(): App {
  return new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-node-agents-acks-')) });
}

/** a custom rule: every workload without a `team` label. */
class TeamLabelRule implements IReviewRule {
  public readonly id = 'ACME-TEAM-LABEL';
  public readonly severity = Severity.HIGH;
  public readonly title = 'Workloads carry a team label';
  public readonly explanation = 'Every workload names its owning team.';
  public readonly fix = 'add the team label';
  public evaluate(w: WorkloadContext): RuleViolation[] {
    return w.manifest.metadata?.labels?.team ? [] : [{ message: 'has no team label' }];
  }
}

const ACME = () => ReviewPack.custom('acme', [new TeamLabelRule()]);

describe('the library rule IDs', () => {
  test('every built-in rule ID is accepted, from every pack', () => {
    const ids = [...new Set(ReviewPack.all().flatMap((p) => p.rules.map((r) => r.id)))];
    expect(ids.length).toBeGreaterThan(30);
    const a = new NodeAgent(new Chart(Testing.app(), 'test'), 'node-agent', { image });
    for (const id of ids) a.acknowledge(id, 'accepted in a test');
    expect(SecurityCheck.acknowledgementsOf(a)).toHaveLength(ids.length);
  });

  test.each([
    ['agent.acknowledge', (rule: string) => new NodeAgent(new Chart(Testing.app(), 'test'), 'node-agent', { image }).acknowledge(rule, 'r'), '[test/node-agent] acknowledge: '],
    ['SecurityCheck.acknowledge', (rule: string) => SecurityCheck.acknowledge(new Chart(Testing.app(), 'test'), rule, 'r'), '[test] acknowledge: '],
  ])('%s: a misspelled ID fails with the closest one (was: accepted, and the finding still failed the synth)', (_, acknowledge, prefix) => {
    expect(errorOf(() => acknowledge('NA-PRIORTY-CLASS'))).toBe(`${prefix}"NA-PRIORTY-CLASS" is not the ID of a rule of this library ` +
      '(IDs that start with NA- or PSS- are its rules, listed in RULES.md): did you mean "NA-PRIORITY-CLASS"?');
    expect(errorOf(() => acknowledge('na-priority-class'))).toMatch(/did you mean "NA-PRIORITY-CLASS"\?$/);
    expect(errorOf(() => acknowledge('PSS-BASELINE-Privileged'))).toMatch(/did you mean "PSS-BASELINE-privileged"\?$/);
    expect(errorOf(() => acknowledge('NA-WHATEVER-I-LIKE'))).toMatch(/: use an ID from RULES\.md; the rules of a custom pack need IDs of their own prefix$/);
  });

  test.each([['NA-API-REJECTED', 'the API server rejects the manifest'], ['NA-REVIEW-ERROR', 'the manifest cannot be read']])('%s cannot be acknowledged: it says so', (rule, why) => {
    const a = new NodeAgent(new Chart(Testing.app(), 'test'), 'node-agent', { image });
    expect(errorOf(() => a.acknowledge(rule, 'r'))).toBe(`[test/node-agent] acknowledge: ${rule} cannot be acknowledged: ${why}` +
      (rule === 'NA-API-REJECTED' ? ' as it is, which no reason changes: fix the manifest as the finding says' : ' as Kubernetes reads it, which no reason changes: fix the field the finding names'));
    expect(SecurityReview.API_REJECTED_RULE).toBe('NA-API-REJECTED');
    expect(SecurityReview.ERROR_RULE).toBe('NA-REVIEW-ERROR');
  });

  test('the annotation: a misspelled ID is a review error naming the entry and the closest ID; no acknowledgement of the workload applies', () => {
    const key = Acknowledgements.ANNOTATION;
    expect(errorOf(() => Acknowledgements.parse({ [key]: '[{"rule":"NA-PROBES","reason":"r"},{"rule":"NA-PRIORTY-CLASS","reason":"r"}]' })))
      .toMatch(/^annotation node-agents\.cdk8s\.io\/acknowledged: entry 1: "NA-PRIORTY-CLASS" is not the ID of a rule of this library .*: did you mean "NA-PRIORITY-CLASS"\?$/);
    expect(errorOf(() => Acknowledgements.parse({ [key]: '[{"rule":"NA-API-REJECTED","reason":"r"}]' }))).toMatch(/entry 0: NA-API-REJECTED cannot be acknowledged/);
    // a custom pack's ID passes: the annotation may come from a review with packs this one does not run
    expect(Acknowledgements.parse({ [key]: '[{"rule":"ACME-TEAM-LABEL","reason":"r"}]' })).toEqual([{ rule: 'ACME-TEAM-LABEL', reason: 'r' }]);

    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'agents', annotations: { [key]: '[{"rule":"NA-PROBE","reason":"no health endpoint"}]' } },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'agent', image }] } } },
    };
    const findings = SecurityReview.review([ds]).workloads[0].findings;
    const error = findings.find((f) => f.rule === SecurityReview.ERROR_RULE);
    expect(error?.message).toMatch(/entry 0: "NA-PROBE" is not the ID .*: did you mean "NA-PROBES"\?; no acknowledgement of this workload applies$/);
    expect(findings.find((f) => f.rule === 'NA-PROBES')?.acknowledged).toBe(false);
  });

  test('Acknowledgements.format refuses them too (the review options carry acknowledgements in the same form)', () => {
    expect(errorOf(() => Acknowledgements.format([{ rule: 'NA-PRIORTY-CLASS', reason: 'r' }]))).toMatch(/^acknowledgement: "NA-PRIORTY-CLASS" is not the ID/);
    expect(errorOf(() => Acknowledgements.format([{ rule: 'NA-PROBES', reason: 'r', container: 3 as any }]))).toBe('acknowledgement of NA-PROBES: container must be a container name, got 3');
    expect(errorOf(() => Acknowledgements.format('NA-PROBES' as any))).toBe('acknowledgements must be a list of {rule, reason}, got "NA-PROBES"');
    expect(errorOf(() => SecurityReview.review([], { acknowledgements: [{ kind: 'DaemonSet', name: 'a', acknowledgements: [{ rule: 'NA-PROBE', reason: 'r' }] }] })))
      .toMatch(/did you mean "NA-PROBES"\?$/);
  });
});

describe("a custom pack's rule IDs", () => {
  test('are accepted when acknowledged, and apply in a SecurityCheck that runs the pack', () => {
    const a = app();
    const chart = new Chart(a, 'imported');
    new ApiObject(chart, 'raw', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'raw', namespace: 'default' },
      spec: { containers: [{ name: 'c', image, securityContext: { runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false } }] },
    });
    SecurityCheck.acknowledge(chart, 'ACME-TEAM-LABEL', 'the imported pod belongs to no team');
    SecurityCheck.apply(a, { packs: [ACME()], failOn: Severity.HIGH, writeReport: false });
    expect(() => a.synth()).not.toThrow();
    const finding = SecurityCheck.review(a, { packs: [ACME()] }).workloads[0].findings.find((f) => f.rule === 'ACME-TEAM-LABEL');
    expect(finding?.acknowledged).toBe(true);
  });

  test('a misspelled one fails the SecurityCheck that runs the packs, with the closest ID and the construct path', () => {
    const a = app();
    const chart = new Chart(a, 'imported');
    SecurityCheck.acknowledge(chart, 'ACME-TEAM-LABLE', 'r');
    SecurityCheck.apply(a, { packs: [...ReviewPack.defaults(), ACME()], writeReport: false });
    expect(errorOf(() => a.synth())).toMatch(/\[imported\] acknowledgement of "ACME-TEAM-LABLE": no rule of the packs this SecurityCheck runs \(node-agent-baseline, node-agent-practices, pss-baseline, acme\) has this ID: did you mean "ACME-TEAM-LABEL"\?/);
  });

  test('one of a pack the check does not run fails it, saying which pack to give', () => {
    const a = app();
    SecurityCheck.acknowledge(new Chart(a, 'imported'), 'ACME-TEAM-LABEL', 'r');
    SecurityCheck.apply(a, { writeReport: false });
    expect(errorOf(() => a.synth())).toMatch(/\[imported\] acknowledgement of "ACME-TEAM-LABEL": no rule of the packs this SecurityCheck runs \(node-agent-baseline, node-agent-practices, pss-baseline\) has this ID: give the pack that defines it to SecurityCheck\.apply\(scope, \{ packs: \[\.\.\.ReviewPack\.defaults\(\), yourPack\] \}\)/);
  });

  test('without a SecurityCheck, a NodeAgent keeps it in its annotation, for a review elsewhere', () => {
    const chart = new Chart(Testing.app(), 'test');
    const a = new NodeAgent(chart, 'node-agent', { image, reviewFailOn: Severity.CRITICAL });
    a.acknowledge('ACME-TEAM-LABEL', 'labelled by the platform team');
    const ds = Testing.synth(chart).find((m) => m.kind === 'DaemonSet');
    expect(Acknowledgements.parse(ds.metadata.annotations)).toEqual([{ rule: 'ACME-TEAM-LABEL', reason: 'labelled by the platform team' }]);
  });
});

describe("SecurityCheck's own arguments", () => {
  test.each([
    ['a scope that is not a construct', () => SecurityCheck.apply('app' as any), 'SecurityCheck.apply: scope must be a construct (an App, a Chart or a construct in one), got "app"'],
    ['acknowledge without a scope', () => SecurityCheck.acknowledge(undefined as any, 'NA-PROBES', 'r'), /^SecurityCheck\.acknowledge: scope must be a construct/],
    ['a misspelled option', () => SecurityCheck.apply(app(), { failon: Severity.LOW } as any), '[] SecurityCheck.apply: options: SecurityCheckOptions has no property "failon": did you mean "failOn"?'],
    ['failOn in upper case', () => SecurityCheck.apply(app(), { failOn: 'HIGH' as any }), /^\[\] SecurityCheck\.apply: options\.failOn "HIGH" is not one of low, medium, high, critical .*did you mean Severity\.HIGH\?$/],
    ['packs by ID', () => SecurityCheck.apply(app(), { packs: ['pss-restricted'] as any }), /^\[\] SecurityCheck\.apply: options\.packs\[0\] must be a ReviewPack/],
    ['writeReport as text', () => SecurityCheck.review(app(), { writeReport: 'no' } as any), '[] SecurityCheck.review: options.writeReport must be true or false, got "no"'],
    ['an unknown Pod Security version', () => SecurityCheck.apply(app(), { podSecurityVersion: '2.0' }), /^\[\] SecurityCheck\.apply: podSecurityVersion: /],
    ['a container that is a number', () => SecurityCheck.acknowledge(new Chart(Testing.app(), 'c'), 'NA-PROBES', 'r', 3 as any), '[c] acknowledgement of NA-PROBES: container must be a container name, got 3'],
  ])('%s', (_, f, message) => {
    if (typeof message === 'string') expect(errorOf(f)).toBe(message);
    else expect(errorOf(f)).toMatch(message);
  });
});
