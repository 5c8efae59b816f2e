import * as path from 'node:path';
import { Testing, Yaml } from 'cdk8s';
import { buildKindClusterApp } from '../../examples/kind-cluster/main';
import { runCli, tempFiles } from '../cli/run-cli';
import { synthValid } from '../util/k8s-schema';

/**
 * The walk-through in examples/kind-cluster/README.md, as a test: the exercise apps synthesized, then
 * `cdk8s-node-agents coverage` over the kind inventories, with the DESIRED counts the README shows.
 */
const inventory = (name: string) => path.join(__dirname, '..', '..', 'examples', 'kind-cluster', 'nodes', `${name}.yaml`);

function manifestFiles(): { a: string; b: string } {
  const files = tempFiles();
  const write = (id: string) => {
    const app = Testing.app();
    buildKindClusterApp(app, id);
    const chart = app.charts.find((c) => c.node.id === id)!;
    return files.write(`${id}.k8s.yaml`, Yaml.stringify(...synthValid(chart)));
  };
  return { a: write('exercise-a'), b: write('exercise-b') };
}

async function desired(nodes: string, manifest: string): Promise<{ desired: number; notOn: string[] }> {
  const result = await runCli('coverage', '--json', '--nodes', inventory(nodes), manifest);
  expect(result.code).toBe(0);
  const ds = JSON.parse(result.stdout).daemonSets;
  expect(ds).toHaveLength(1);
  return { desired: ds[0].desired, notOn: ds[0].nodes.filter((n: any) => !n.shouldRun).map((n: any) => n.name) };
}

test('exercise A: DESIRED is 1, then 2 when a second node is labelled, then back to 1', async () => {
  const { a } = manifestFiles();
  expect(await desired('nodes', a)).toEqual({ desired: 0, notOn: ['kind-control-plane', 'kind-worker', 'kind-worker2'] });
  expect(await desired('nodes-one-labelled', a)).toEqual({ desired: 1, notOn: ['kind-control-plane', 'kind-worker2'] });
  expect(await desired('nodes-two-labelled', a)).toEqual({ desired: 2, notOn: ['kind-control-plane'] });
  expect(await desired('nodes-one-labelled', a)).toEqual({ desired: 1, notOn: ['kind-control-plane', 'kind-worker2'] });
});

test('exercise B: the labelled control-plane node joins only with the toleration', async () => {
  const { a, b } = manifestFiles();
  expect(await desired('nodes-all-labelled', a)).toEqual({ desired: 2, notOn: ['kind-control-plane'] });
  expect(await desired('nodes-all-labelled', b)).toEqual({ desired: 3, notOn: [] });
  const text = await runCli('coverage', '--nodes', inventory('nodes-all-labelled'), a);
  expect(text.stdout).toContain('taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated');
});
