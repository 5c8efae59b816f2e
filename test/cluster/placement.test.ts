// Placement: the kind cluster's node inventories (examples/kind-cluster/nodes) created as Nodes through the API, every
// example's DaemonSets applied, and the DaemonSet controller's answer — status.desiredNumberScheduled and the nodes it
// creates pods for — compared with what `cdk8s-node-agents coverage --json` predicts from the same inventory file, with
// the real node of cluster:up added to it.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { applyAll, createNodes, expectSettled, inventoryNodes, inventoryWithRealNode, resetCluster } from './cluster';
import { Kube, ROOT, exampleDaemonSetOutputs, readManifests, rel } from './kube';
import { withPrometheusCrds } from './prometheus-crds';
import { runCli } from '../cli/run-cli';

const kube = Kube.fromKubeconfig();
const INVENTORIES = ['nodes', 'nodes-one-labelled', 'nodes-two-labelled', 'nodes-all-labelled'];
const inventoryFile = (name: string) => path.join(ROOT, 'examples', 'kind-cluster', 'nodes', `${name}.yaml`);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-placement-'));

// the observability example's ServiceMonitors need the Prometheus operator's CRDs
withPrometheusCrds(kube);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each(INVENTORIES)('Nodes of examples/kind-cluster/nodes/%s.yaml', (inventory) => {
  const file = inventoryFile(inventory);

  test.each(exampleDaemonSetOutputs().map((f) => [rel(f), f]))('%s: DESIRED and the pods\' nodes are what coverage predicts', async (_name, manifest) => {
    // a fresh cluster per file: examples share namespaces and names between variants.
    await resetCluster(kube);
    await createNodes(kube, inventoryNodes(file));
    const objects = readManifests(manifest);
    await applyAll(kube, objects);

    // the real node is among the Nodes (tainted NoExecute: only DaemonSets that tolerate every taint run there)
    const nodes = await inventoryWithRealNode(kube, file, path.join(tmp, `${inventory}.json`));
    const cli = await runCli('coverage', '--json', '--nodes', nodes, manifest);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    const predicted = JSON.parse(cli.stdout).daemonSets;
    const daemonSets = objects.filter((o) => o.kind === 'DaemonSet');
    expect(predicted.map((d: any) => `${d.namespace}/${d.name}`)).toEqual(daemonSets.map((d) => `${d.metadata.namespace}/${d.metadata.name}`));
    expect(daemonSets.length).toBeGreaterThan(0);
    for (const [i, ds] of daemonSets.entries()) {
      const expected = { desired: predicted[i].desired, podNodes: predicted[i].nodes.filter((n: any) => n.shouldRun).map((n: any) => n.name) };
      await expectSettled(kube, ds, expected);
    }
  });
});
