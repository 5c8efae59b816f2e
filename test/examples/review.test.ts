import * as fs from 'node:fs';
import * as path from 'node:path';
import { Testing, Yaml } from 'cdk8s';
import { buildReviewApp } from '../../examples/review/main';
import { runCli, tempFiles } from '../cli/run-cli';
import { synthValid } from '../util/k8s-schema';

const README = path.join(__dirname, '..', '..', 'examples', 'review', 'README.md');

function manifests(): any[] {
  const app = Testing.app();
  buildReviewApp(app);
  return synthValid(app.charts[0]);
}

test('the library-built log collector has no open finding, and its review is written next to the manifests', () => {
  const app = Testing.app();
  buildReviewApp(app);
  app.synth();
  const review = JSON.parse(fs.readFileSync(path.join(app.outdir, 'security-review.json'), 'utf8'));
  expect(review.workloads).toHaveLength(1);
  expect(review.workloads[0].findings.filter((f: any) => !f.acknowledged)).toEqual([]);
  for (const access of review.workloads[0].hostAccess) expect(access.reason).toBeTruthy();
});

test('the README shows the review command\'s current output for the synthesized manifest', async () => {
  const file = tempFiles().write('fluent-bit.k8s.yaml', Yaml.stringify(...manifests()));
  const run = await runCli('review', file);
  expect(run.code).toBe(0);
  const readme = fs.readFileSync(README, 'utf8');
  const command = '$ node bin/cdk8s-node-agents review examples/review/dist/fluent-bit.k8s.yaml\n';
  const start = readme.indexOf(command);
  expect(start).toBeGreaterThan(0);
  expect(readme.slice(start + command.length, readme.indexOf('```', start))).toBe(run.stdout);
});
