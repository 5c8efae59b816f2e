// Writes src/model/_api-types.ts, the JSON types of the API objects the library reads, from the OpenAPI v3 schema of
// the pinned Kubernetes version (k8s.io/kubernetes' api/openapi-spec/v3, the schema its API server serves at /openapi/v3):
//
//   npx ts-node test/model/write-api-types.ts "$(go env GOMODCACHE)/k8s.io/kubernetes@v1.37.2/api/openapi-spec/v3" > src/model/_api-types.ts
//
// (the module is in the cache once `npm run cluster:up` has built the control plane). test/cluster/api-types.test.ts
// checks that the table equals what this writes from the schema the running API server serves.
import * as fs from 'fs';
import * as path from 'path';

/** the schema documents that hold the roots' definitions. */
export const SCHEMA_FILES: { [file: string]: string } = {
  'api__v1_openapi.json': '/openapi/v3/api/v1',
  'apis__apps__v1_openapi.json': '/openapi/v3/apis/apps/v1',
  'apis__batch__v1_openapi.json': '/openapi/v3/apis/batch/v1',
  'apis__rbac.authorization.k8s.io__v1_openapi.json': '/openapi/v3/apis/rbac.authorization.k8s.io/v1',
};

/** the kinds the library reads, by `apiVersion/kind`: their definitions and every one they refer to go in the table. */
export const ROOTS: { [apiVersionKind: string]: string } = {
  'v1/Pod': 'io.k8s.api.core.v1.Pod',
  'v1/Node': 'io.k8s.api.core.v1.Node',
  'v1/Namespace': 'io.k8s.api.core.v1.Namespace',
  'v1/ServiceAccount': 'io.k8s.api.core.v1.ServiceAccount',
  'apps/v1/DaemonSet': 'io.k8s.api.apps.v1.DaemonSet',
  'apps/v1/Deployment': 'io.k8s.api.apps.v1.Deployment',
  'apps/v1/ReplicaSet': 'io.k8s.api.apps.v1.ReplicaSet',
  'apps/v1/StatefulSet': 'io.k8s.api.apps.v1.StatefulSet',
  'apps/v1/ControllerRevision': 'io.k8s.api.apps.v1.ControllerRevision',
  'batch/v1/Job': 'io.k8s.api.batch.v1.Job',
  'batch/v1/CronJob': 'io.k8s.api.batch.v1.CronJob',
  'rbac.authorization.k8s.io/v1/Role': 'io.k8s.api.rbac.v1.Role',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'io.k8s.api.rbac.v1.ClusterRole',
  'rbac.authorization.k8s.io/v1/RoleBinding': 'io.k8s.api.rbac.v1.RoleBinding',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'io.k8s.api.rbac.v1.ClusterRoleBinding',
};

const short = (ref: string) => ref.split('/').pop()!.split('.').pop()!;

/** the type code of a definition that is a scalar or free-form (no properties), or undefined for a structure. */
function scalarDefinition(name: string, d: any): string | undefined {
  if (d.format === 'int-or-string' || d['x-kubernetes-int-or-string']) return 'int-or-string';
  if (name === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return 'quantity';
  if (d.properties !== undefined) return undefined;
  if (d.type === 'string') return 'string';
  return 'object';
}

function typeOf(p: any, schemas: any): string {
  const ref = p.$ref ?? (Array.isArray(p.allOf) && p.allOf.length === 1 ? p.allOf[0].$ref : undefined);
  if (ref !== undefined) {
    const name = ref.split('/').pop();
    return scalarDefinition(name, schemas[name]) ?? short(ref);
  }
  if (p['x-kubernetes-int-or-string']) return 'int-or-string';
  switch (p.type) {
    case 'string': return 'string';
    case 'boolean': return 'boolean';
    case 'number': return 'number';
    case 'integer': return p.format === 'int32' ? 'int32' : 'integer';
    case 'array': return `[]${typeOf(p.items, schemas)}`;
    case 'object': return p.additionalProperties !== undefined && typeof p.additionalProperties === 'object' ? `{}${typeOf(p.additionalProperties, schemas)}` : 'object';
    default: return 'any';
  }
}

/** the table's lines: one per definition reachable from the roots, in name order, fields in name order. */
export function apiTypesSource(schemas: any): string {
  const seen = new Set<string>();
  const queue = Object.values(ROOTS);
  const refsOf = (o: any, out: string[]) => {
    if (o === null || typeof o !== 'object') return;
    if (typeof o.$ref === 'string') out.push(o.$ref.split('/').pop());
    for (const v of Object.values(o)) refsOf(v, out);
  };
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    if (schemas[name] === undefined) throw new Error(`the schema has no definition ${name}`);
    seen.add(name);
    const out: string[] = [];
    refsOf(schemas[name], out);
    queue.push(...out);
  }
  const byShortName = (a: string, b: string) => (short(a) < short(b) ? -1 : short(a) > short(b) ? 1 : 0);
  const structures = [...seen].filter((n) => scalarDefinition(n, schemas[n]) === undefined).sort(byShortName);
  const names = new Set<string>();
  for (const n of structures) {
    if (names.has(short(n))) throw new Error(`two definitions are named ${short(n)}: the table needs unique short names`);
    names.add(short(n));
  }
  const lines = structures.map((n) => {
    const props = schemas[n].properties as { [field: string]: any };
    const fields = Object.keys(props).sort().map((f) => `${JSON.stringify(f)}: '${typeOf(props[f], schemas)}'`);
    return `  ${short(n)}: { ${fields.join(', ')} },`;
  });
  const roots = Object.entries(ROOTS).map(([k, v]) => `  '${k}': '${short(v)}',`);
  return [
    '// Generated by test/model/write-api-types.ts from the OpenAPI v3 schema of Kubernetes v1.37.2 (k8s.io/kubernetes',
    '// api/openapi-spec/v3, what its API server serves at /openapi/v3); do not edit. Regenerate with:',
    '//   npx ts-node test/model/write-api-types.ts "$(go env GOMODCACHE)/k8s.io/kubernetes@v1.37.2/api/openapi-spec/v3" > src/model/_api-types.ts',
    '// Type codes: string, boolean, number, integer (int64), int32, int-or-string, quantity (a string or a number),',
    '// object (free-form), any; []T a list of T, {}T a mapping to T, any other name a definition of this table.',
    '/* eslint-disable */',
    '',
    '/** the fields of each definition, with their type codes. */',
    'export const API_DEFINITIONS: { readonly [definition: string]: { readonly [field: string]: string } } = {',
    ...lines,
    '};',
    '',
    '/** the definition of each kind the library reads, by `apiVersion/kind`. */',
    'export const API_ROOTS: { readonly [apiVersionKind: string]: string } = {',
    ...roots,
    '};',
    '',
  ].join('\n');
}

/** the schemas of the documents in a directory of k8s.io/kubernetes' api/openapi-spec/v3. */
export function schemasIn(dir: string): any {
  const schemas: any = {};
  for (const file of Object.keys(SCHEMA_FILES)) Object.assign(schemas, JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')).components.schemas);
  return schemas;
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: write-api-types.ts <k8s.io/kubernetes@v1.37.2/api/openapi-spec/v3>');
  process.stdout.write(apiTypesSource(schemasIn(dir)));
}
