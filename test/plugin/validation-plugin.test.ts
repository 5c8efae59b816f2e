import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing, Yaml, Chart } from 'cdk8s';
import { NodeAgent, SecurityReviewValidation } from '../../src';

/** a stand-in for cdk8s-cli's ValidationContext: the manifests and a report that records what the plugin says. */
function context(files: string[], stdout = false) {
  const violations: any[] = [];
  const submitted: { status?: string; metadata?: any } = {};
  return {
    violations,
    submitted,
    ctx: {
      manifests: files,
      stdout,
      report: {
        addViolation: (v: any) => violations.push(v),
        submit: (status: string, metadata: any) => Object.assign(submitted, { status, metadata }),
      },
    },
  };
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-node-agents-plugin-'));
}

const chartShaped = path.join(__dirname, '..', '..', 'examples', 'review', 'chart-shaped.yaml');

test('fails cdk8s synth on the chart-shaped manifest, one violation per open finding, with the file', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'chart.k8s.yaml');
  fs.copyFileSync(chartShaped, file);
  const { ctx, violations, submitted } = context([file]);
  await new SecurityReviewValidation().validate(ctx);
  expect(submitted.status).toEqual('failure');
  expect(violations.length).toBeGreaterThan(0);
  expect(violations.map((v) => v.ruleName)).toContain('NA-HOSTPATH-SENSITIVE (high)');
  for (const v of violations) {
    expect(v.violatingResources).toEqual([expect.objectContaining({ resourceName: 'fluent-bit', manifestPath: file })]);
    expect(v.fix.length).toBeGreaterThan(0);
  }
  expect(submitted.metadata.openFindings).toEqual(String(violations.length));
  // the review is written next to the manifests
  expect(fs.readFileSync(path.join(dir, 'security-review.md'), 'utf8')).toContain('fluent-bit');
  expect(JSON.parse(fs.readFileSync(path.join(dir, 'security-review.json'), 'utf8')).workloads).toHaveLength(1);
});

test('passes on a NodeAgent\'s output', async () => {
  const chart = new Chart(Testing.app(), 'agents');
  new NodeAgent(chart, 'node-agent', { image: 'registry.example.com/node-agent:1.2.0' });
  const dir = tempDir();
  const file = path.join(dir, 'agents.k8s.yaml');
  fs.writeFileSync(file, Yaml.stringify(...Testing.synth(chart)));
  const { ctx, violations, submitted } = context([file], true);
  await new SecurityReviewValidation({ failOn: 'high' }).validate(ctx);
  expect(violations).toEqual([]);
  expect(submitted.status).toEqual('success');
  // with --stdout the manifests are temporary: no report is written
  expect(fs.existsSync(path.join(dir, 'security-review.md'))).toBe(false);
});

test('failOn and packs select what fails', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'chart.k8s.yaml');
  fs.copyFileSync(chartShaped, file);
  const critical = context([file]);
  await new SecurityReviewValidation({ failOn: 'critical', writeReport: false }).validate(critical.ctx);
  expect(critical.violations.every((v) => v.ruleName.endsWith('(critical)'))).toBe(true);
  const pss = context([file]);
  await new SecurityReviewValidation({ failOn: 'low', packs: ['pss-baseline'], writeReport: false }).validate(pss.ctx);
  expect(pss.violations.length).toBeGreaterThan(0);
  expect(pss.violations.every((v) => v.ruleName.startsWith('PSS-BASELINE-'))).toBe(true);
});

test('fails on bad properties with a clear error', () => {
  expect(() => new SecurityReviewValidation({ failOn: 'urgent' })).toThrow(/urgent/);
  expect(() => new SecurityReviewValidation({ packs: ['nope'] })).toThrow(/unknown review pack "nope"/);
});

describe('the properties of cdk8s.yaml are checked when the plugin is loaded, each error naming cdk8s.yaml and the property', () => {
  const WHERE = 'cdk8s.yaml, validations (SecurityReviewValidation): ';
  test.each([
    ['a misspelled property (was: ignored)', { failOnn: 'high' }, `${WHERE}properties: SecurityReviewValidation has no property "failOnn": did you mean "failOn"?`],
    ['an unknown property', { rules: ['NA-PROBES'] }, `${WHERE}properties: SecurityReviewValidation has no property "rules": remove it (the properties of SecurityReviewValidation are listed in API.md)`],
    ['a bad failOn (was: named neither the property nor the file)', { failOn: 'urgent' }, `${WHERE}properties.failOn "urgent" is not a severity: use one of low, medium, high, critical (e.g. failOn: high)`],
    ['failOn as a number', { failOn: 3 }, `${WHERE}properties.failOn must be a string (e.g. high), got 3`],
    ['packs as a string', { packs: 'pss-baseline' }, `${WHERE}properties.packs must be a list of pack IDs (e.g. [node-agent-baseline, pss-baseline]), got "pss-baseline": write a list, e.g. ["pss-baseline"]`],
    ['an unknown pack', { packs: ['pss-baseline', 'pss-restrictd'] }, `${WHERE}properties.packs[1]: unknown review pack "pss-restrictd": use one of node-agent-baseline, node-agent-practices, pss-baseline, pss-restricted`],
    ['writeReport as text', { writeReport: 'false' }, `${WHERE}properties.writeReport must be true or false, got "false": write false without quotes`],
    ['an unknown Pod Security version', { podSecurityVersion: 'v9' }, /^cdk8s\.yaml, validations \(SecurityReviewValidation\): properties: pod security version must be/],
    ['an empty registry', { allowedRegistries: [''] }, /^cdk8s\.yaml, validations \(SecurityReviewValidation\): properties: review options: allowedRegistries must be a list of registry hosts/],
    ['properties that are not a mapping', 'high', `${WHERE}properties must be a mapping of properties (e.g. properties: { failOn: high }), got "high"`],
  ])('%s', (_, props, message) => {
    let error: unknown;
    try {
      new SecurityReviewValidation(props as any);
    } catch (e) {
      error = e;
    }
    expect((error as Error)?.constructor).toBe(Error);
    if (typeof message === 'string') expect((error as Error).message).toBe(message);
    else expect((error as Error).message).toMatch(message);
  });

  test('properties left empty (null in YAML) are the defaults', () => {
    expect(() => new SecurityReviewValidation(null as any)).not.toThrow();
    expect(() => new SecurityReviewValidation({ failOn: null, packs: null } as any)).not.toThrow();
  });
});

test('reads the manifests as kubectl does: privileged: on through a merge key is a privileged container; bad YAML names the file', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'agent.k8s.yaml');
  fs.writeFileSync(file, `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: monitoring}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      initContainers:
      - name: init
        image: registry.example.com/init:1.0.0
        securityContext: &host {privileged: on}
      containers:
      - name: agent
        image: registry.example.com/agent:1.0.0
        securityContext:
          <<: *host
`);
  const { ctx, violations, submitted } = context([file], true);
  await new SecurityReviewValidation().validate(ctx);
  expect(submitted.status).toEqual('failure');
  expect(violations.filter((v) => v.ruleName === 'NA-PRIVILEGED (critical)').map((v) => v.violatingResources[0].locations[0])
    .sort()).toEqual(['spec.template.spec.containers[0].securityContext.privileged', 'spec.template.spec.initContainers[0].securityContext.privileged']);
  const bad = path.join(dir, 'bad.k8s.yaml');
  fs.writeFileSync(bad, 'kind: DaemonSet\n--- oops\n');
  await expect(new SecurityReviewValidation().validate(context([bad], true).ctx)).rejects.toThrow(`${bad}:2:1: document 2: invalid YAML document separator`);
});
