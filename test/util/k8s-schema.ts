/**
 * Strict Kubernetes schema validation for tests, in the spirit of `kubectl apply --validate=strict`.
 *
 * Two checks run on every object:
 *  1. kubernetes-models (OpenAPI schema via ajv): types, enums, required fields, and whether the
 *     apiVersion/kind exists at all. It ignores unknown fields.
 *  2. A strict walk over the @kubernetes/client-node model classes (`getAttributeTypeMap()`): every
 *     field that is not in the schema is reported with its JSON path. `IntOrString`, `Date`, `object`,
 *     `any` and primitive fields are leaves; quantities are typed `string` in client-node and are leaves too.
 * Plus one API-server rule the OpenAPI schema cannot express but every `kubectl apply` of a workload
 * hits: a container (`containers[]`, `initContainers[]`) needs a non-empty `image`.
 *
 * Both libraries are loaded lazily, one model file at a time, and cached per model: loading
 * `@kubernetes/client-node` from its root costs ~400 ms (it pulls the HTTP client); its `models.js`
 * barrel ~145 ms; the ~15 files a DaemonSet needs ~10 ms.
 */
import { Chart, Testing } from 'cdk8s';

/** One entry of a client-node model's `getAttributeTypeMap()`. */
interface Attribute {
  readonly name: string;
  readonly baseName: string;
  readonly type: string;
}

interface ClientNodeModel {
  getAttributeTypeMap(): Attribute[];
}

interface KubernetesModelClass {
  readonly apiVersion?: string;
  readonly kind?: string;
  new (data: unknown): { validate(): void };
}

/** A field's type as the strict walk understands it. */
type FieldType =
  | { readonly t: 'leaf' }
  | { readonly t: 'model'; readonly name: string }
  | { readonly t: 'array'; readonly of: FieldType }
  | { readonly t: 'map'; readonly of: FieldType }
  | { readonly t: 'unsupported'; readonly raw: string };

const LEAF: FieldType = { t: 'leaf' };
const LEAF_TYPES = new Set([
  'string', 'boolean', 'number', 'integer', 'double', 'float', 'long', 'any', 'object', 'Date', 'IntOrString',
]);
const CLIENT_NODE_MODELS = '@kubernetes/client-node/dist/gen/model/';

/**
 * Root model class per `apiVersion/kind`. Kinds not listed fall back to `<Version><Kind>`
 * (e.g. `storage.k8s.io/v1` CSIDriver -> `V1CSIDriver`), which is accepted only if that class
 * exists and has `apiVersion` and `kind` fields.
 */
const ROOT_MODELS: Record<string, string> = {
  'v1/Namespace': 'V1Namespace',
  'v1/ServiceAccount': 'V1ServiceAccount',
  'v1/ConfigMap': 'V1ConfigMap',
  'v1/Secret': 'V1Secret',
  'v1/Service': 'V1Service',
  'v1/Pod': 'V1Pod',
  'v1/Event': 'CoreV1Event',
  'apps/v1/DaemonSet': 'V1DaemonSet',
  'apps/v1/Deployment': 'V1Deployment',
  'apps/v1/StatefulSet': 'V1StatefulSet',
  'batch/v1/Job': 'V1Job',
  'batch/v1/CronJob': 'V1CronJob',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'V1ClusterRole',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'V1ClusterRoleBinding',
  'rbac.authorization.k8s.io/v1/Role': 'V1Role',
  'rbac.authorization.k8s.io/v1/RoleBinding': 'V1RoleBinding',
  'scheduling.k8s.io/v1/PriorityClass': 'V1PriorityClass',
  'networking.k8s.io/v1/NetworkPolicy': 'V1NetworkPolicy',
  'events.k8s.io/v1/Event': 'EventsV1Event',
};

/** The kinds this project emits; each is guaranteed to resolve (see k8s-schema.test.ts). */
export const CORE_KINDS: ReadonlyArray<{ readonly apiVersion: string; readonly kind: string }> = Object.keys(ROOT_MODELS)
  .filter(k => !k.endsWith('/Event'))
  .map(k => {
    const i = k.lastIndexOf('/');
    return { apiVersion: k.slice(0, i), kind: k.slice(i + 1) };
  });

/**
 * Loads a module by a computed path. The paths are built from validated apiVersion/kind
 * segments or from type names found in client-node's own type maps; a static `import` cannot
 * express this lazy, per-model loading.
 */
function load(path: string): any {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(path);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// client-node models (strict walk)

const typeCache = new Map<string, FieldType>();
const fieldCache = new Map<string, Map<string, FieldType> | undefined>();

function parseType(raw: string): FieldType {
  const cached = typeCache.get(raw);
  if (cached) {
    return cached;
  }
  const t = raw.trim();
  let parsed: FieldType;
  let m: RegExpMatchArray | null;
  if (LEAF_TYPES.has(t)) {
    parsed = LEAF;
  } else if ((m = /^Array<(.+)>$/.exec(t))) {
    parsed = { t: 'array', of: parseType(m[1]) };
  } else if ((m = /^\{\s*\[key: string\]:\s*(.+?);?\s*\}$/.exec(t))) {
    parsed = { t: 'map', of: parseType(m[1]) };
  } else if (/^[A-Z][A-Za-z0-9]*$/.test(t)) {
    parsed = { t: 'model', name: t }; // resolved lazily, when a value of this type is walked
  } else {
    parsed = { t: 'unsupported', raw };
  }
  typeCache.set(raw, parsed);
  return parsed;
}

/** The fields of a client-node model class, by wire name; undefined if the class does not exist. */
function modelFields(name: string): Map<string, FieldType> | undefined {
  if (fieldCache.has(name)) {
    return fieldCache.get(name);
  }
  // Model files are named after their class with a lower-case first letter (V1PodSpec -> v1PodSpec.js).
  const cls: ClientNodeModel | undefined = load(CLIENT_NODE_MODELS + name[0].toLowerCase() + name.slice(1))?.[name];
  if (!cls || typeof cls.getAttributeTypeMap !== 'function') {
    fieldCache.set(name, undefined);
    return undefined;
  }
  const fields = new Map<string, FieldType>(cls.getAttributeTypeMap().map(a => [a.baseName, parseType(a.type)]));
  fieldCache.set(name, fields);
  return fields;
}

const SEGMENT = {
  group: /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/,
  version: /^v[0-9]+((alpha|beta)[0-9]+)?$/,
  kind: /^[A-Z][A-Za-z0-9]*$/,
};

function splitApiVersion(apiVersion: unknown, kind: unknown): { group: string; version: string; kind: string } | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !SEGMENT.kind.test(kind)) {
    return undefined;
  }
  const parts = apiVersion.split('/');
  const [group, version] = parts.length === 1 ? ['', parts[0]] : parts;
  if (parts.length > 2 || !SEGMENT.version.test(version) || (group !== '' && !SEGMENT.group.test(group))) {
    return undefined;
  }
  return { group, version, kind };
}

/** The client-node root model class name for an apiVersion/kind, or undefined. */
export function rootModelFor(apiVersion: string, kind: string): string | undefined {
  const parts = splitApiVersion(apiVersion, kind);
  if (!parts) {
    return undefined;
  }
  const listed = ROOT_MODELS[`${apiVersion}/${kind}`];
  const name = listed ?? parts.version[0].toUpperCase() + parts.version.slice(1) + kind;
  const fields = modelFields(name);
  if (!fields || !fields.has('apiVersion') || !fields.has('kind')) {
    return undefined;
  }
  return name;
}

/**
 * The model classes reachable from a root, and the type strings the walk could not resolve
 * (which would make it silently lenient). For tests of this module.
 */
export function reachableModels(rootModel: string): { models: string[]; unsupported: string[] } {
  const models = new Set<string>();
  const unsupported = new Set<string>();
  const visit = (type: FieldType): void => {
    switch (type.t) {
      case 'model': {
        if (models.has(type.name) || unsupported.has(type.name)) {
          break;
        }
        const fields = modelFields(type.name);
        if (!fields) {
          unsupported.add(type.name);
          break;
        }
        models.add(type.name);
        for (const f of fields.values()) {
          visit(f);
        }
        break;
      }
      case 'array':
      case 'map':
        visit(type.of);
        break;
      case 'unsupported':
        unsupported.add(type.raw);
        break;
      default:
        break;
    }
  };
  visit(parseType(rootModel));
  return { models: [...models].sort(), unsupported: [...unsupported].sort() };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function childPath(path: string, key: string): string {
  if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key)) {
    return path ? `${path}.${key}` : key;
  }
  return `${path}[${JSON.stringify(key)}]`;
}

function walk(value: unknown, type: FieldType, path: string, problems: string[]): void {
  if (value === null || value === undefined) {
    return; // null is accepted for any field by the API server
  }
  switch (type.t) {
    case 'array':
      // A non-array here is a type error, reported by kubernetes-models.
      if (Array.isArray(value)) {
        value.forEach((item, i) => walk(item, type.of, `${path}[${i}]`, problems));
      }
      return;
    case 'map':
      if (isPlainObject(value)) {
        for (const [k, v] of Object.entries(value)) {
          walk(v, type.of, childPath(path, k), problems);
        }
      }
      return;
    case 'model': {
      if (!isPlainObject(value)) {
        return;
      }
      const fields = modelFields(type.name);
      if (!fields) {
        problems.push(`${path || '(root)'}: cannot check strictly, no client-node model ${JSON.stringify(type.name)}`);
        return;
      }
      for (const [k, v] of Object.entries(value)) {
        const field = fields.get(k);
        if (!field) {
          problems.push(`${childPath(path, k)}: unknown field ${JSON.stringify(k)}`);
        } else {
          walk(v, field, childPath(path, k), problems);
        }
      }
      if (type.name === 'V1Container' && (typeof value.image !== 'string' || value.image.trim() === '')) {
        problems.push(`${childPath(path, 'image')}: required value (the API server rejects a container without an image)`);
      }
      return;
    }
    case 'unsupported':
      problems.push(`${path || '(root)'}: cannot check strictly, unsupported schema type ${JSON.stringify(type.raw)}`);
      return;
    default:
      return;
  }
}

// ---------------------------------------------------------------------------------------------
// kubernetes-models (types, enums, required fields)

const kmCache = new Map<string, KubernetesModelClass | undefined>();

function kubernetesModel(apiVersion: string, kind: string): KubernetesModelClass | undefined {
  const key = `${apiVersion}/${kind}`;
  if (kmCache.has(key)) {
    return kmCache.get(key);
  }
  const parts = splitApiVersion(apiVersion, kind);
  let cls: KubernetesModelClass | undefined;
  if (parts) {
    const dir = parts.group ? `${parts.group}/${parts.version}` : parts.version;
    const candidate: KubernetesModelClass | undefined = load(`kubernetes-models/${dir}/${kind}`)?.[kind];
    // Only top-level kinds carry apiVersion/kind (apps/v1 "DaemonSetSpec" is a file, not a kind).
    if (candidate && candidate.apiVersion === apiVersion && candidate.kind === kind) {
      cls = candidate;
    }
  }
  kmCache.set(key, cls);
  return cls;
}

interface AjvError {
  readonly keyword?: string;
  readonly instancePath?: string;
  readonly message?: string;
  readonly params?: Record<string, unknown>;
}

/** Turns an ajv JSON pointer into the dotted path the strict walk uses. */
function pointerToPath(obj: unknown, pointer: string): string {
  let path = '';
  let node: unknown = obj;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      path += `[${seg}]`;
      node = node[Number(seg)];
    } else {
      path = childPath(path, seg);
      node = isPlainObject(node) ? node[seg] : undefined;
    }
  }
  return path || '(root)';
}

function schemaProblems(obj: any, cls: KubernetesModelClass): string[] {
  try {
    new cls(obj).validate();
    return [];
  } catch (e: any) {
    const errors: AjvError[] | undefined = e?.errors;
    if (!Array.isArray(errors) || errors.length === 0) {
      return [`(root): ${e?.message ?? String(e)}`];
    }
    // IntOrString is a oneOf of integer and string: report "must be integer or string" once
    // instead of one message per branch plus the oneOf summary.
    const oneOfPaths = new Set(errors.filter(err => err.keyword === 'oneOf').map(err => err.instancePath));
    const out: string[] = [];
    for (const err of errors) {
      const path = pointerToPath(obj, err.instancePath ?? '');
      if (err.keyword === 'type' && oneOfPaths.has(err.instancePath)) {
        continue;
      }
      if (err.keyword === 'oneOf') {
        const types = errors
          .filter(other => other.keyword === 'type' && other.instancePath === err.instancePath)
          .map(other => String(other.params?.type));
        out.push(`${path}: ${types.length > 0 ? `must be ${types.join(' or ')}` : err.message}`);
        continue;
      }
      const allowed = err.params?.allowedValues;
      const suffix = Array.isArray(allowed) ? ` (${allowed.map(a => JSON.stringify(a)).join(', ')})` : '';
      out.push(`${path}: ${err.message ?? 'invalid'}${suffix}`);
    }
    return [...new Set(out)];
  }
}

// ---------------------------------------------------------------------------------------------
// public API

/**
 * Every problem with one manifest: schema violations (kubernetes-models), unknown fields (strict
 * walk), a missing container image, or an unknown apiVersion/kind. Empty when valid.
 */
export function validateManifest(obj: any): string[] {
  if (!isPlainObject(obj)) {
    return [`(root): a manifest must be an object, got ${Array.isArray(obj) ? 'an array' : JSON.stringify(obj)}`];
  }
  const { apiVersion, kind } = obj;
  const known = typeof apiVersion === 'string' && typeof kind === 'string';
  const cls = known ? kubernetesModel(apiVersion, kind) : undefined;
  const root = known && cls ? rootModelFor(apiVersion, kind) : undefined;
  if (!cls || !root) {
    return [`(root): unknown apiVersion/kind ${JSON.stringify(apiVersion)}/${JSON.stringify(kind)}`];
  }
  const problems = schemaProblems(obj, cls);
  walk(obj, { t: 'model', name: root }, '', problems);
  return problems;
}

function label(obj: any, index: number): string {
  const kind = obj?.kind ?? '<no kind>';
  const ns = obj?.metadata?.namespace;
  const name = obj?.metadata?.name ?? '<no name>';
  return `#${index} ${kind} ${ns ? `${ns}/` : ''}${name}`;
}

/**
 * Fails the current test, listing every problem of every manifest with its kind/name.
 * An empty list fails too: validating nothing proves nothing.
 */
export function expectValidManifests(objs: any[]): void {
  if (!Array.isArray(objs) || objs.length === 0) {
    throw new Error('expectValidManifests: expected a non-empty array of manifests');
  }
  const report: string[] = [];
  objs.forEach((obj, i) => {
    const problems = validateManifest(obj);
    if (problems.length > 0) {
      report.push(`${label(obj, i)}:`, ...problems.map(p => `  - ${p}`));
    }
  });
  if (report.length > 0) {
    throw new Error(`Invalid Kubernetes manifests (strict schema check):\n${report.join('\n')}`);
  }
  expect(report).toHaveLength(0);
}

/**
 * Synthesizes a chart as `cdk8s synth` does (construct validations first, so errors surface with their
 * construct paths), then validates every manifest strictly; returns the manifests.
 */
export function synthValid(chart: Chart, options: SynthValidOptions = {}): any[] {
  const errors = chart.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
  if (errors.length > 0) throw new Error(`Validation failed with the following errors:\n  ${errors.join('\n  ')}`);
  const manifests = Testing.synth(chart);
  const custom = new Set(options.customResources ?? []);
  const kindOf = (m: any) => `${m?.apiVersion}/${m?.kind}`;
  const missing = [...custom].filter((k) => !manifests.some((m) => kindOf(m) === k));
  if (missing.length > 0) throw new Error(`synthValid: customResources lists ${missing.join(', ')}, which the chart does not render`);
  expectValidManifests(manifests.filter((m) => !custom.has(kindOf(m))));
  return manifests;
}

export interface SynthValidOptions {
  /**
   * Custom resource kinds (`apiVersion/kind`, e.g. `monitoring.coreos.com/v1/ServiceMonitor`) that this schema check
   * cannot know: the integration suite validates them on the API server against their CRDs
   * (test/cluster/metrics.test.ts). Each must be rendered; every other object is checked as usual.
   */
  readonly customResources?: string[];
}
