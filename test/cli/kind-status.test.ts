// The README's daily-checks section: `status` on examples/kind-cluster/snapshot.yaml (see kind-snapshot.ts).
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { daemonSetOf, kindSnapshotYaml, SNAPSHOT_FILE } from './kind-snapshot';
import { runCli } from './run-cli';
import { ExerciseBChart } from '../../examples/daemonset-basics/main';
import { validateManifest } from '../util/k8s-schema';

const README = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf-8');

/** the output shown under a `$ ...` line of the README, up to the end of its code block. */
function readmeOutput(command: string): string {
  const start = README.indexOf(`$ ${command}\n`);
  expect(start).toBeGreaterThan(-1);
  const body = README.slice(start + command.length + 3);
  return body.slice(0, body.indexOf('```'));
}

describe('examples/kind-cluster/snapshot.yaml', () => {
  test('is the generated snapshot, with the DaemonSet the example synthesizes', () => {
    expect(fs.readFileSync(SNAPSHOT_FILE, 'utf-8')).toBe(kindSnapshotYaml());
    const ds = parse(fs.readFileSync(SNAPSHOT_FILE, 'utf-8')).items.find((o: any) => o.kind === 'DaemonSet');
    const { creationTimestamp, ...metadata } = ds.spec.template.metadata;
    expect(creationTimestamp).toBeNull();
    expect({ ...ds.spec.template, metadata }).toEqual(daemonSetOf(ExerciseBChart).spec.template);
  });

  test('every object in it is a valid Kubernetes object', () => {
    for (const obj of parse(fs.readFileSync(SNAPSHOT_FILE, 'utf-8')).items) {
      expect([obj.kind, obj.metadata.name, validateManifest(obj)]).toEqual([obj.kind, obj.metadata.name, []]);
    }
  });

  test('the README shows exactly what status prints on it; exit 1 while the rollout runs', async () => {
    const r = await runCli('status', '--from', SNAPSHOT_FILE);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout.replace(SNAPSHOT_FILE, 'snapshot.yaml')).toBe(readmeOutput('npx cdk8s-node-agents status --from snapshot.yaml'));
    const json = JSON.parse((await runCli('status', '--from', SNAPSHOT_FILE, '--json')).stdout);
    expect(json.daemonSets[0].nodes.map((n: any) => [n.name, n.state])).toEqual([
      ['kind-control-plane', 'healthy'], ['kind-worker', 'creating'], ['kind-worker2', 'outdated'],
    ]);
    expect(json.daemonSets[0].rollout).toEqual({ updated: 1, wavesLeft: 2, blocked: false });
  });
});
