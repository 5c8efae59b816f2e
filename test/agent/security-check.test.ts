import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiObject, App, Chart, JsonPatch, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parseAllDocuments } from 'yaml';
import { Acknowledgements, NodeAgent, SecurityCheck, SecurityReview, Severity } from '../../src';
import { expectValidManifests } from '../util/k8s-schema';

function app(): App {
  return new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-node-agents-check-')) });
}

/** a hand-written DaemonSet with a writable host path and no security context, as charts render them. */
function rawDaemonSet(scope: Chart, id: string): ApiObject {
  return new ApiObject(scope, id, {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'raw-agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'raw-agent' } },
      template: {
        metadata: { labels: { app: 'raw-agent' } },
        spec: {
          containers: [{ name: 'agent', image: 'registry.example.com/raw:1.0.0', volumeMounts: [{ name: 'varlog', mountPath: '/var/log' }] }],
          volumes: [{ name: 'varlog', hostPath: { path: '/var/log' } }],
        },
      },
    },
  });
}

test('reviews raw ApiObjects in the app and fails synth with their construct path', () => {
  const a = app();
  const chart = new Chart(a, 'imported');
  rawDaemonSet(chart, 'raw');
  SecurityCheck.apply(a);
  // the writable /var/log is one finding (NA-HOSTPATH-SENSITIVE, with NA-HOSTPATH-WRITABLE and NA-HOST-ACCESS-REASON merged into it)
  expect(() => a.synth()).toThrow(/imported\/raw: \[high\] NA-HOSTPATH-SENSITIVE: .*or acknowledge it with SecurityCheck.acknowledge\(scope, 'NA-HOSTPATH-SENSITIVE', 'reason'\)/);
});

test('reviews cdk8s-plus workloads too', () => {
  const a = app();
  const chart = new Chart(a, 'plus');
  const ds = new kplus.DaemonSet(chart, 'plus-agent', {
    containers: [{ image: 'registry.example.com/plus:1.0.0', securityContext: { ensureNonRoot: false, privileged: true, allowPrivilegeEscalation: true } }],
  });
  expect(ds).toBeDefined();
  const report = SecurityCheck.review(a);
  expect(report.workloads.map((w) => w.kind)).toEqual(['DaemonSet']);
  expect(report.workloads[0].findings.map((f) => f.rule)).toContain('NA-PRIVILEGED');
});

test('writes the review next to the manifests; acknowledged findings stay in it with their reason', () => {
  const a = app();
  const chart = new Chart(a, 'imported');
  const raw = rawDaemonSet(chart, 'raw');
  SecurityCheck.acknowledge(chart, 'NA-HOSTPATH-WRITABLE', 'the vendor chart keeps its tail database in /var/log');
  SecurityCheck.apply(a, { failOn: Severity.CRITICAL });
  a.synth();
  const md = fs.readFileSync(path.join(a.outdir, 'security-review.md'), 'utf8');
  const json = JSON.parse(fs.readFileSync(path.join(a.outdir, 'security-review.json'), 'utf8'));
  expect(md).toContain('raw-agent');
  // an acknowledgement of a rule merged into the finding, at its severity, still accepts it: rule IDs stay stable
  const finding = json.workloads[0].findings.find((f: any) => (f.mergedRules ?? []).includes('NA-HOSTPATH-WRITABLE'));
  expect(finding).toMatchObject({ rule: 'NA-HOSTPATH-SENSITIVE', acknowledged: true, acknowledgedReason: 'the vendor chart keeps its tail database in /var/log' });
  // the acknowledgement travels with the manifest, for reviews of the YAML
  const written = fs.readFileSync(path.join(a.outdir, 'imported.k8s.yaml'), 'utf8');
  expect(written).toContain(Acknowledgements.ANNOTATION);
  expectValidManifests(parseAllDocuments(written).map((d) => d.toJSON()));
  expect(Acknowledgements.parse(raw.toJson().metadata.annotations)).toEqual([
    { rule: 'NA-HOSTPATH-WRITABLE', reason: 'the vendor chart keeps its tail database in /var/log' },
  ]);
});

test('NodeAgent findings are reported once, by the agent, with its own path', () => {
  const a = app();
  const chart = new Chart(a, 'agents');
  new NodeAgent(chart, 'driver', { image: 'registry.example.com/driver:1.0.0', privileged: { reason: 'loads a kernel module' } });
  SecurityCheck.apply(a, { writeReport: false });
  let message = '';
  try {
    a.synth();
  } catch (e) {
    message = (e as Error).message;
  }
  expect(message).toMatch(/agents\/driver.*NA-PRIVILEGED/);
  expect(message.match(/NA-PRIVILEGED:/g)).toHaveLength(1);
});

test('a JSON patch that adds a privilege to a raw object is judged as rendered', () => {
  const a = app();
  const chart = new Chart(a, 'c');
  const raw = rawDaemonSet(chart, 'raw');
  raw.addJsonPatch(JsonPatch.add('/spec/template/spec/containers/0/securityContext', { privileged: true }));
  const findings = SecurityCheck.review(a).workloads[0].findings.map((f) => f.rule);
  expect(findings).toContain('NA-PRIVILEGED');
});

test('fails on misuse: applying twice, an acknowledgement without rule or reason', () => {
  const a = Testing.app();
  SecurityCheck.apply(a);
  expect(() => SecurityCheck.apply(a)).toThrow(/SecurityCheck.apply was called twice/);
  const chart = new Chart(a, 'c');
  expect(() => SecurityCheck.acknowledge(chart, '', 'reason')).toThrow(/give the ID of the rule/);
  expect(() => SecurityCheck.acknowledge(chart, 'NA-PROBES', ' ')).toThrow(/\[c\] acknowledgement of NA-PROBES needs a reason/);
});

test('an agent that fails its own check still gets reviewed and written into the report', () => {
  const a = app();
  const chart = new Chart(a, 'drivers');
  new NodeAgent(chart, 'kmod', { image: 'registry.example.com/kmod:1.0.0', privileged: { reason: 'loads a kernel module' } });
  SecurityCheck.apply(a);
  expect(() => a.synth()).toThrow(/\[drivers\/kmod\] security review: \[critical\] NA-PRIVILEGED/);
  const report = JSON.parse(fs.readFileSync(path.join(a.outdir, 'security-review.json'), 'utf8'));
  const findings = report.workloads[0].findings.filter((f: any) => !f.acknowledged && f.severity === 'critical');
  expect(findings.map((f: any) => f.rules)).toEqual([['NA-PRIVILEGED', 'PSS-BASELINE-privileged', 'NA-PRIVILEGE-ESCALATION']]);
});

test('one synth reviews the app once, however many charts it renders; the next synth reviews again', () => {
  const a = app();
  for (const cluster of ['a', 'b', 'c']) {
    const chart = new Chart(a, `cluster-${cluster}`);
    new NodeAgent(chart, 'logs', { image: 'registry.example.com/logs:1.0.0', namespace: `logs-${cluster}` });
  }
  SecurityCheck.apply(a);
  const review = jest.spyOn(SecurityReview, 'review');
  try {
    a.synth();
    expect(review).toHaveBeenCalledTimes(1);
    // a change after a synth is reviewed by the next one
    const late = new Chart(a, 'imported');
    rawDaemonSet(late, 'raw');
    expect(() => a.synthYaml()).toThrow(/imported\/raw: \[high\] NA-HOSTPATH-SENSITIVE/);
    expect(review).toHaveBeenCalledTimes(2);
    // outside App.synth (Testing.synth of one chart), every validation reviews
    review.mockClear();
    expect(() => Testing.synth(late)).toThrow(/imported\/raw: \[high\] NA-HOSTPATH-SENSITIVE/);
    expect(review).toHaveBeenCalledTimes(1);
  } finally {
    review.mockRestore();
  }
});
