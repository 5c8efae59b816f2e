// The library's copy of Kubernetes' built-in ClusterRoles (src/review/_builtin-roles.ts), against the bootstrap policy
// Kubernetes tests itself with, as its module publishes it (a corpus fixture).
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { BUILT_IN_CLUSTER_ROLES } from '../../src/review/_builtin-roles';

describe('built-in ClusterRoles', () => {
  test('equal the bootstrap policy of Kubernetes 1.37.2 (its testdata/cluster-roles.yaml, fetched by test/corpus/fetch.js), role by role', () => {
    const file = path.join(__dirname, '..', '..', '.corpus', 'fixtures', 'bootstrap-cluster-roles.yaml');
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run node test/corpus/fetch.js (npm run test:corpus does)`);
    const upstream = parse(fs.readFileSync(file, 'utf8'));
    const normalise = (r: any) => ({
      name: r.metadata.name,
      labels: r.metadata.labels ?? {},
      aggregationRule: r.aggregationRule ?? null,
      rules: (r.rules ?? []).map((x: any) => ({ ...x })),
    });
    expect(upstream.items).toHaveLength(32);
    expect(BUILT_IN_CLUSTER_ROLES.map(normalise)).toEqual(upstream.items.map(normalise));
  });
});
