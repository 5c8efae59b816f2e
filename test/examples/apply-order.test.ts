import { App, Testing } from 'cdk8s';
import { buildClusterAddonsApp } from '../../examples/cluster-addons/main';
import { buildBasicsApp, SECTIONS } from '../../examples/daemonset-basics/main';
import { buildElasticApp } from '../../examples/elastic/main';
import { buildKindClusterApp, EXERCISES } from '../../examples/kind-cluster/main';
import { buildObservabilityApp } from '../../examples/observability/main';
import { buildPrivateRegistryApp } from '../../examples/private-registry/main';
import { buildReviewApp } from '../../examples/review/main';
import { synthValid } from '../util/k8s-schema';

/**
 * Every file an example writes applies on the first try with `kubectl apply -f`, which creates documents in order: a
 * Namespace the file defines comes before every object that lives in it, and every namespace an object lives in is
 * either defined earlier in the same file or one the app never defines (it must exist already).
 */

/** the custom resources an example renders, which the schema check leaves to the API server with their CRDs. */
const CUSTOM_RESOURCES: { [example: string]: string[] } = { observability: ['monitoring.coreos.com/v1/ServiceMonitor'] };

const EXAMPLES: Array<[string, (app: App) => void]> = [
  ['cluster-addons', buildClusterAddonsApp],
  ['elastic', buildElasticApp],
  ...EXERCISES.map((e): [string, (app: App) => void] => [`kind-cluster ${e}`, (app) => buildKindClusterApp(app, e)]),
  ['observability', buildObservabilityApp],
  ['private-registry', buildPrivateRegistryApp],
  ['review', buildReviewApp],
  ...SECTIONS.map(([s]): [string, (app: App) => void] => [`daemonset-basics ${s}`, (app) => buildBasicsApp(app, s)]),
];

describe.each(EXAMPLES)('examples/%s', (name, build) => {
  const app = Testing.app();
  build(app);
  const files = app.charts.map((chart) => ({ chart: chart.node.id, manifests: synthValid(chart, { customResources: CUSTOM_RESOURCES[name] }) }));
  const definedInApp = new Set(files.flatMap((f) => f.manifests.filter((m) => m.kind === 'Namespace').map((m) => m.metadata.name)));

  test.each(files.map((f) => [f.chart, f] as const))('%s: each namespace is created before what lives in it', (__, file) => {
    const seen = new Set<string>();
    expect(file.manifests.length).toBeGreaterThan(0);
    for (const m of file.manifests) {
      if (m.kind === 'Namespace') {
        seen.add(m.metadata.name);
        continue;
      }
      const ns = m.metadata.namespace;
      if (ns === undefined || !definedInApp.has(ns)) continue;
      // the app defines this namespace: this file must too, and earlier
      expect({ object: `${m.kind} ${ns}/${m.metadata.name}`, namespaceBefore: seen.has(ns) })
        .toEqual({ object: `${m.kind} ${ns}/${m.metadata.name}`, namespaceBefore: true });
    }
  });
});
