// The review CLI on a third-party chart's shape (examples/review/chart-shaped.yaml): for each workload, the Pod Security
// level `cdk8s-node-agents review --json` reports is the strictest level at which Pod Security admission admits the
// workload's pod (created as a dry run in one namespace per level, at the review's policy version).
import * as path from 'path';
import { admittedLevel, podFromTemplate, psaRefusal, resetCluster, stricter } from './cluster';
import { Kube, ROOT, readManifests } from './kube';
import { PodSecurity, PodSecurityLevel } from '../../src';
import { runCli } from '../cli/run-cli';

const kube = Kube.fromKubeconfig();
const file = path.join(ROOT, 'examples', 'review', 'chart-shaped.yaml');

beforeAll(() => resetCluster(kube));
afterAll(() => resetCluster(kube));

test('each workload\'s Pod Security level in the review is what admission decides', async () => {
  const cli = await runCli('review', '--json', file);
  expect(cli.stderr).toBe('');
  const report = JSON.parse(cli.stdout);
  const version = PodSecurity.versionLabel(report.podSecurityVersion);
  const workloads = readManifests(file).filter((o) => o.spec?.template?.spec);
  expect(report.workloads.map((w: any) => `${w.kind} ${w.name}`)).toEqual(workloads.map((w) => `${w.kind} ${w.metadata.name}`));
  for (const [i, w] of workloads.entries()) {
    const pod = podFromTemplate(w.spec.template, `${w.metadata.name}-review`, 'default');
    const decided = await admittedLevel(kube, pod, version);
    expect({ workload: w.metadata.name, level: decided.level }).toEqual({ workload: w.metadata.name, level: report.workloads[i].podSecurityLevel });
    // and the refusal one level stricter names exactly what the library finds there
    const next = stricter(decided.level as PodSecurityLevel);
    if (next !== undefined) {
      const violations = PodSecurity.violationsAt(w.spec.template.spec, next, { version, annotations: w.spec.template.metadata?.annotations });
      expect(decided.refusals[next]).toBe(psaRefusal(pod.metadata.name, next, version, violations.map((v) => v.message)));
    }
  }
});
