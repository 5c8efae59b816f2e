/**
 * JSON patches on the library's objects: a patch that does not apply (a path that does not exist, a list index out of
 * range, a step through a value that is neither an object nor a list) fails the synth with an Error naming the object,
 * the patch and the path; a patch that applies but breaks the manifest (a wrong type, a required field removed) fails
 * with the construct path and the field. Never a TypeError from the patch library or a rule, never a silent no-op.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Chart, JsonPatch, Lazy } from 'cdk8s';
import * as fc from 'fast-check';
import * as YAML from 'yaml';
import { HostMount, NodeAgent, SecurityCheck } from '../../src';
import { errorOf } from '../util/errors';
import { expectValidManifests } from '../util/k8s-schema';

const IMAGE = 'registry.example.com/node-agent:1.2.0';
const OUTDIR = path.join(os.tmpdir(), 'cdk8s-node-agents-patch-unused');
const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? '1');

/** an agent with a host mount (so the pod has volumes), its DaemonSet patched with `ops`, synthesized as an app does. */
function synthPatched(...ops: JsonPatch[]): string {
  const app = new App({ outdir: OUTDIR });
  const agent = new NodeAgent(new Chart(app, 'c'), 'agent', {
    namespace: 'ns', image: IMAGE, hostMounts: [HostMount.readOnly('/var/log', { reason: 'tails the node logs' })],
  });
  agent.daemonSet.addJsonPatch(...ops);
  return app.synthYaml();
}

const PATCH_ERROR = (n: number, op: object) => `[c/agent] JSON patch ${n} of ${n} to c/agent/Resource (${JSON.stringify(op)}): `;

describe('a JSON patch that does not apply names the patch and the path', () => {
  test.each([
    // the TypeError this replaces: "Cannot read properties of undefined (reading 'securityContext')"
    [JsonPatch.add('/spec/template/spec/containers/5/securityContext/privileged', true),
      '"path" /spec/template/spec/containers/5/securityContext/privileged does not exist: /spec/template/spec/containers has no item "5" (a list of 1: indexes 0 to 0)'],
    [JsonPatch.replace('/spec/template/spec/initContainers/0/securityContext', {}),
      '"path" /spec/template/spec/initContainers/0/securityContext does not exist: /spec/template/spec has no field "initContainers": add /spec/template/spec/initContainers first, or patch a path that exists'],
    // cdk8s' patch library removes and replaces a missing field silently (RFC 6902 requires the target to exist)
    [JsonPatch.remove('/spec/template/spec/hostPID'), '"path" /spec/template/spec/hostPID does not exist: /spec/template/spec has no field "hostPID"'],
    [JsonPatch.replace('/spec/minReadySeconds', 10), '"path" /spec/minReadySeconds does not exist: /spec has no field "minReadySeconds"'],
    [JsonPatch.add('/spec/template/spec/containers/2', { name: 'x', image: IMAGE }),
      '"path" /spec/template/spec/containers/2 does not exist: /spec/template/spec/containers has no item "2" (a list of 1: indexes 0 to 1, or "-" to append)'],
    [JsonPatch.add('/spec/template/spec/automountServiceAccountToken/x', 1),
      '"path" /spec/template/spec/automountServiceAccountToken/x does not exist: /spec/template/spec/automountServiceAccountToken is false, not an object or a list'],
    [JsonPatch.move('/spec/template/spec/tolerations', '/spec/template/spec/x'),
      '"from" /spec/template/spec/tolerations does not exist: /spec/template/spec has no field "tolerations"'],
    [JsonPatch.add('spec/template', {}), '"path" "spec/template" is not a JSON pointer: start it with "/", e.g. "/spec/template/spec"'],
    [JsonPatch.test('/spec/template/spec/hostNetwork', true), '"path" /spec/template/spec/hostNetwork does not exist: /spec/template/spec has no field "hostNetwork"'],
  ])('%j', (patch, problem) => {
    expect(errorOf(() => synthPatched(patch))).toBe(`Validation failed with the following errors:\n  ${PATCH_ERROR(1, (patch as any)._toJson())}${problem}`);
  });

  test('a failed test operation names the patch', () => {
    const patch = JsonPatch.test('/spec/template/spec/automountServiceAccountToken', true);
    expect(errorOf(() => synthPatched(patch))).toMatch(new RegExp(`^Validation failed with the following errors:\n  ${escape(PATCH_ERROR(1, (patch as any)._toJson()))}Test operation failed`));
  });

  test('patches apply in order: a later patch may use what an earlier one added, and "~1" stands for "/"', () => {
    const yaml = synthPatched(
      JsonPatch.add('/spec/template/metadata/annotations', {}),
      JsonPatch.add('/spec/template/metadata/annotations/example.com~1team', 'observability'),
      JsonPatch.add('/spec/template/spec/containers/0/env', []),
      JsonPatch.add('/spec/template/spec/containers/0/env/-', { name: 'A', value: '1' }),
      JsonPatch.add('/spec/template/spec/containers/0/env/0', { name: 'B', value: '2' }),
    );
    const ds = YAML.parseAllDocuments(yaml).map((d) => d.toJSON()).find((o) => o.kind === 'DaemonSet');
    expect(ds.spec.template.metadata.annotations).toEqual({ 'example.com/team': 'observability' });
    expect(ds.spec.template.spec.containers[0].env).toEqual([{ name: 'B', value: '2' }, { name: 'A', value: '1' }]);
  });

  test('the ServiceAccount checks its patches too', () => {
    const app = new App({ outdir: OUTDIR });
    const agent = new NodeAgent(new Chart(app, 'c'), 'agent', { namespace: 'ns', image: IMAGE });
    agent.serviceAccount.addJsonPatch(JsonPatch.add('/metadata/annotations/x', 'y'));
    expect(errorOf(() => app.synthYaml())).toMatch(/JSON patch 1 of 1 to c\/agent\/ServiceAccount \(.*\): "path" \/metadata\/annotations\/x does not exist: \/metadata has no field "annotations"/);
  });
});

describe('a JSON patch that breaks the manifest fails with the field, as the API server would', () => {
  test.each([
    // removing what the API server requires (checked against it in test/cluster/bad-input.test.ts)
    [JsonPatch.remove('/spec/template/spec/containers'), /NA-API-REJECTED: DaemonSet ns\/agent: has no containers, and a pod needs at least one; the API server rejects this \(spec\.template\.spec\.containers\)/],
    [JsonPatch.replace('/spec/template/spec/containers', []), /has no containers, and a pod needs at least one/],
    [JsonPatch.remove('/spec/template/spec/containers/0/image'), /NA-API-REJECTED: DaemonSet ns\/agent, container "agent": has no image, which the API server requires; the API server rejects this \(spec\.template\.spec\.containers\[0\]\.image\)/],
    [JsonPatch.remove('/spec/template/spec/containers/0/name'), /NA-API-REJECTED: DaemonSet ns\/agent: spec\.containers\[0\] has no name, which the API server requires; the API server rejects this \(spec\.template\.spec\.containers\[0\]\.name\)/],
    [JsonPatch.remove('/spec/selector'), /NA-API-REJECTED: DaemonSet ns\/agent: has no spec\.selector/],
    // a wrong type where the library reads
    [JsonPatch.replace('/spec/template/spec/containers', 'x'), /\[c\/agent\] the DaemonSet as its JSON patches leave it: spec\.containers must be a list, got "x"/],
    [JsonPatch.replace('/spec/template/spec/containers/0/securityContext', 'x'), /containers\[0\]\.securityContext must be an object, got "x"/],
    [JsonPatch.replace('/spec/template/spec/volumes', { a: 1 }), /spec\.volumes must be a list/],
    [JsonPatch.replace('/kind', 'Deployment'), /^Validation failed with the following errors:\n {2}\[c\/agent\] the DaemonSet as its JSON patches leave it is apiVersion "apps\/v1", kind "Deployment": a NodeAgent renders an apps\/v1 DaemonSet/],
  ])('%j', (patch, error) => {
    const message = errorOf(() => synthPatched(patch));
    expect(message).toMatch(error);
    expect(message.split('\n').slice(1).every((l) => l.startsWith('  [c/agent] '))).toBe(true);
  });
});

// ------------------------------------------------------------------ property: any patch, never a crash

/** the paths of every value in `json`, as JSON pointers. */
function pointers(json: any, prefix = ''): string[] {
  if (json === null || typeof json !== 'object') return [prefix];
  const keys = Array.isArray(json) ? json.map((_, i) => String(i)) : Object.keys(json);
  return [prefix, ...keys.flatMap((k) => pointers(json[k], `${prefix}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`))];
}

const BASE = YAML.parseAllDocuments(synthPatched()).map((d) => d.toJSON()).find((o) => o.kind === 'DaemonSet');
const EXISTING = pointers(BASE).filter((p) => p !== '' && !p.startsWith('/metadata/annotations'));

/** a path that exists, one that exists plus a segment or two that may not, or an index beyond a list. */
const pointer = fc.oneof(
  fc.constantFrom(...EXISTING),
  fc.tuple(fc.constantFrom(...EXISTING), fc.array(fc.constantFrom('securityContext', 'x', '0', '3', '-', 'name', 'containers'), { minLength: 1, maxLength: 2 }))
    .map(([p, extra]) => `${p}/${extra.join('/')}`),
);
const value = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer({ min: -2, max: 70000 }), fc.constantFrom('', 'x', 'Always', '/var/log'),
  fc.constant([]), fc.constant({}), fc.constant([{}]), fc.constant({ name: 'x' }),
);
const patch = fc.oneof(
  fc.tuple(pointer, value).map(([p, v]) => JsonPatch.add(p, v)),
  fc.tuple(pointer, value).map(([p, v]) => JsonPatch.replace(p, v)),
  pointer.map((p) => JsonPatch.remove(p)),
  fc.tuple(pointer, pointer).map(([from, to]) => JsonPatch.copy(from, to)),
  fc.tuple(pointer, pointer).map(([from, to]) => JsonPatch.move(from, to)),
);

test('any JSON patch: a valid manifest, or an Error whose every line names the agent (never a crash)', () => {
  fc.assert(fc.property(fc.array(patch, { minLength: 1, maxLength: 3 }), (ops) => {
    let yaml: string;
    try {
      yaml = synthPatched(...ops);
    } catch (e) {
      if (!(e instanceof Error) || e.constructor !== Error) throw new Error(`crashed with ${(e as any)?.constructor?.name}: ${(e as any)?.message ?? e}`);
      const lines = e.message.startsWith('Validation failed with the following errors:\n') ? e.message.split('\n').slice(1) : [e.message];
      if (!lines.every((l) => l.startsWith('  [c/agent] '))) throw new Error(`an error line does not name the agent: ${e.message}`);
      return;
    }
    // accepted: every patch took effect as RFC 6902 says, nothing else changed
    const ds = YAML.parseAllDocuments(yaml).map((d) => d.toJSON()).find((o) => o?.kind === 'DaemonSet');
    expect(ds).toEqual(JsonPatch.apply(JSON.parse(JSON.stringify(BASE)), ...ops));
  }), { numRuns: Math.ceil(300 * SCALE) });
});

test('a patch whose path does not resolve is reported as such, with its number', () => {
  fc.assert(fc.property(fc.constantFrom(...EXISTING), fc.constantFrom('nope', '9', 'x/y'), (p, missing) => {
    const target = `${p}/${missing}`;
    const message = errorOf(() => synthPatched(JsonPatch.add('/spec/template/spec/hostNetwork', false), JsonPatch.replace(target, 1)));
    expect(message).toContain(`JSON patch 2 of 2 to c/agent/Resource ({"op":"replace","path":"${target}","value":1}): "path" ${target} does not exist: `);
  }), { numRuns: Math.ceil(100 * SCALE) });
});

test('the unpatched agent the patches start from is schema-valid', () => {
  expectValidManifests(YAML.parseAllDocuments(synthPatched()).map((d) => d.toJSON()));
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ------------------------------------------------------------------ rendered once per synth

describe("the agent's other objects are rendered once per synth: the review's rendering is the one written", () => {
  /** an agent whose ServiceAccount carries a label that counts its renderings. */
  function countingAgent() {
    const app = new App({ outdir: OUTDIR });
    const chart = new Chart(app, 'c');
    const agent = new NodeAgent(chart, 'agent', { namespace: 'ns', image: IMAGE });
    const counter = { renderings: 0 };
    agent.serviceAccount.metadata.addLabel('example.com/rendering', Lazy.any({ produce: () => `r${++counter.renderings}` }) as any);
    const serviceAccount = (yaml: string) => YAML.parseAllDocuments(yaml).map((d) => d.toJSON()).find((o) => o.kind === 'ServiceAccount');
    return { app, chart, agent, counter, serviceAccount };
  }

  test('synthYaml renders it once (the gate reviews it, the synth writes that rendering); the next synth renders it again', () => {
    const { app, agent, counter, serviceAccount } = countingAgent();
    const first = serviceAccount(app.synthYaml());
    expect(counter.renderings).toBe(1);
    expect(first.metadata.labels['example.com/rendering']).toBe('r1');
    // nothing is kept from one synth to the next: a change in between is written (and reviewed)
    agent.serviceAccount.metadata.addLabel('example.com/added', 'between-synths');
    const second = serviceAccount(app.synthYaml());
    expect(counter.renderings).toBe(2);
    expect(second.metadata.labels).toMatchObject({ 'example.com/rendering': 'r2', 'example.com/added': 'between-synths' });
    expectValidManifests(YAML.parseAllDocuments(app.synthYaml()).map((d) => d.toJSON()));
  });

  test('with SecurityCheck.apply too, the app-wide review and the gate share that one rendering', () => {
    const { app, counter, serviceAccount } = countingAgent();
    SecurityCheck.apply(app, { writeReport: false });
    expect(serviceAccount(app.synthYaml()).metadata.labels['example.com/rendering']).toBe('r1');
    expect(counter.renderings).toBe(1);
  });

  test('outside App.synth()/synthYaml() nothing is kept: every toJson() renders', () => {
    const { agent, counter } = countingAgent();
    expect(agent.serviceAccount.toJson().metadata.labels['example.com/rendering']).toBe('r1');
    expect(agent.serviceAccount.toJson().metadata.labels['example.com/rendering']).toBe('r2');
    expect(agent.review().workloads).toHaveLength(1);
    expect(agent.serviceAccount.toJson().metadata.labels['example.com/rendering']).toBe('r4');
    expect(counter.renderings).toBe(4);
  });
});
