// The admission policy's registry check on the real API server, against the review's NA-IMAGE-REGISTRY: with the
// allowed registries in the policy's parameter ConfigMap, a workload whose privileges are all explained is admitted
// exactly when the review (given the same list) finds no image outside it: on every corpus manifest, example and
// preset, and on generated image references (registries with ports, localhost, Docker Hub and its aliases, official
// images, tags, digests, upper case) and allowed lists (hosts, path prefixes, trailing slashes, upper case).
import * as fs from 'fs';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import { resetCluster } from './cluster';
import { Kube, ROOT, eventually, exampleOutputs, ok, readManifests } from './kube';
import { HostAccess, HostAccessPolicy, PolicyWorkload, SecurityReview } from '../../src';
import { loadObjects } from '../../src/cli/_manifests';
import { POLICY_WORKLOADS } from '../../src/model/_admission-policy';
import { reasonsInBothForms } from '../../src/model/_reason-annotations';
import { normalizeRegistry } from '../../src/review/_image';

const kube = Kube.fromKubeconfig();
const NS = 'admission-registries';
const POLICY = 'host-access-registries';
// a parameter name of its own per run: once the namespace holding a parameter ConfigMap was deleted (the previous run's
// reset), v1.37.2 kept judging with that ConfigMap's data for over a minute after one of the same name was created again
const PARAMETER = `registries-${Date.now()}`;
const KINDS = Object.keys(POLICY_WORKLOADS);
const ALLOWED = ['registry.k8s.io', 'quay.io/cilium', 'docker.io/library', 'GHCR.io/', 'localhost:5000'];

const probe = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'probe', namespace: NS },
  spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'evil.example.com/c:1', securityContext: { runAsUser: 1000 } }] } } },
};

async function install(allowed: string[]): Promise<void> {
  const chart = new Chart(new App(), 'policy');
  new HostAccessPolicy(chart, 'policy', {
    name: POLICY,
    workloads: Object.values(PolicyWorkload),
    namespaceLabels: { 'node-agents-admission-test': 'registries' },
    allowedRegistries: { registries: allowed, namespace: NS, configMapName: PARAMETER },
  });
  for (const o of chart.toJson()) {
    if (o.kind === 'ConfigMap') {
      await kube.delete(`/api/v1/namespaces/${NS}/configmaps/${o.metadata.name}`);
      ok(await kube.create(o), 'create the parameter');
    } else if ((await kube.request('GET', `/apis/admissionregistration.k8s.io/v1/${o.kind === 'ValidatingAdmissionPolicy' ? 'validatingadmissionpolicies' : 'validatingadmissionpolicybindings'}/${POLICY}`)).status === 404) {
      ok(await kube.create(o), `create ${o.kind}`);
    }
  }
  // the policy and its parameter are read through informers: wait until the policy refuses the probe with this list
  let last = '';
  await eventually('the policy with this list to be in force', async () => {
    const r = await kube.create(probe, { dryRun: true });
    last = `${r.status} ${r.body?.message}`;
    return last.includes(`allowed registry (${allowedAsNormalised(allowed)})`) ? true : undefined;
  }, { timeoutMs: 60_000, intervalMs: 100, last: () => last });
}

/** the allowed list as the policy's message prints it: trimmed, without trailing '/', host lower-cased, Docker Hub as docker.io. */
function allowedAsNormalised(allowed: string[]): string {
  return allowed.map((e) => normalizeRegistry(e)).filter((e) => e !== '').join(', ');
}

function podSpecOf(o: any): any {
  return o.kind === 'Pod' ? o.spec : o.kind === 'CronJob' ? o.spec.jobTemplate.spec.template.spec : o.spec.template.spec;
}

/** the workload in the test namespace with every privilege explained: only its images are judged. */
function explained(o: any, name: string): any {
  const reasons = HostAccess.of(podSpecOf(o)).map((i) => ({ type: i.type, detail: i.detail, container: i.container, reason: 'explained' }));
  return { ...o, metadata: { name, namespace: NS, labels: o.metadata?.labels, annotations: reasonsInBothForms(reasons) } };
}

/** what the review says of the images: true when no NA-IMAGE-REGISTRY finding (ASCII images: see _admission-registries.ts). */
function reviewAllows(o: any, allowed: string[]): boolean {
  const report = SecurityReview.review([o], { allowedRegistries: allowed });
  return !report.workloads.flatMap((w) => w.findings).some((f) => f.rule === 'NA-IMAGE-REGISTRY');
}

async function admitted(o: any): Promise<boolean> {
  const r = await kube.request('POST', await kube.pathOf(o.apiVersion, o.kind, NS), o, { query: { dryRun: 'All', fieldValidation: 'Warn' } });
  if (r.status === 201) return true;
  if (r.status === 403 && String(r.body?.message).includes(`ValidatingAdmissionPolicy '${POLICY}'`)) return false;
  throw new Error(`${o.kind} ${o.metadata.name}: ${r.status} ${r.body?.message ?? JSON.stringify(r.body)}`);
}


beforeAll(async () => {
  await resetCluster(kube);
  ok(await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { 'node-agents-admission-test': 'registries' } } }), 'namespace');
  await install(ALLOWED);
}, 120_000);

afterAll(async () => {
  await kube.delete(`/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/${POLICY}`);
  await kube.delete(`/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/${POLICY}`);
  await resetCluster(kube);
});

test('the message names the image, its container and the allowed registries', async () => {
  const r = await kube.create(probe, { dryRun: true });
  expect(r.status).toBe(403);
  expect(r.body.message).toContain('DaemonSet probe uses image evil.example.com/c:1 (container c), which is not from an allowed registry ' +
    '(registry.k8s.io, quay.io/cilium, docker.io/library, ghcr.io, localhost:5000)');
});

test('corpus, examples and presets: admitted exactly when the review finds every image in an allowed registry', async () => {
  const corpus = fs.readdirSync(path.join(ROOT, '.corpus')).filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => loadObjects([path.join(ROOT, '.corpus', f)]).map((l) => l.object));
  const library = exampleOutputs().flatMap((f) => readManifests(f));
  const workloads = [...corpus, ...library].filter((o) => KINDS.includes(o?.kind) && ['apps/v1', 'batch/v1', 'v1'].includes(o.apiVersion));
  const decisions = { admitted: 0, refused: 0 };
  let n = 0;
  for (const o of workloads) {
    const c = explained(o, `w${n++}`);
    const decision = await admitted(c);
    decisions[decision ? 'admitted' : 'refused']++;
    expect({ workload: `${o.kind} ${o.metadata.name}`, admitted: decision }).toEqual({ workload: `${o.kind} ${o.metadata.name}`, admitted: reviewAllows(c, ALLOWED) });
  }
  expect(decisions.admitted).toBeGreaterThan(5);
  expect(decisions.refused).toBeGreaterThan(5);
});

const host = fc.constantFrom('registry.k8s.io', 'Registry.K8s.io', 'quay.io', 'ghcr.io', 'docker.io', 'index.docker.io', 'registry-1.docker.io',
  'localhost', 'localhost:5000', 'evil.example.com', 'ghcr.io:443', 'quay.io.evil.com');
const repo = fc.constantFrom('nginx', 'library/nginx', 'cilium/cilium', 'cilium-evil/agent', 'falcosecurity/falco', 'a/b/c');
const image = fc.tuple(fc.option(host, { nil: undefined }), repo, fc.option(fc.constantFrom(':1.0', ':latest'), { nil: '' }),
  fc.option(fc.constant(`@sha256:${'a'.repeat(64)}`), { nil: '' }))
  .map(([h, r, tag, digest]) => `${h === undefined ? '' : `${h}/`}${r}${tag}${digest}`);
const entry = fc.constantFrom('registry.k8s.io', 'quay.io/cilium', 'quay.io/cilium/', 'docker.io/library', 'index.docker.io', 'GHCR.IO', 'localhost:5000',
  ' docker.io/falcosecurity ', 'quay.io//');

test('generated images and allowed lists: admitted exactly when the review allows every image', async () => {
  const tally = { admitted: 0, refused: 0 };
  const lists = fc.uniqueArray(entry, { maxLength: 4 });
  await fc.assert(fc.asyncProperty(lists, fc.array(image, { minLength: 1, maxLength: 3 }), async (allowed, images) => {
    await install(allowed);
    const ds = explained({
      ...probe,
      spec: { ...probe.spec, template: { ...probe.spec.template, spec: { containers: images.map((i, k) => ({ name: `c${k}`, image: i, securityContext: { runAsUser: 1000 } })) } } },
    }, 'generated');
    const expected = reviewAllows(ds, allowed);
    const decision = await admitted(ds);
    tally[decision ? 'admitted' : 'refused']++;
    expect({ allowed, images, admitted: decision }).toEqual({ allowed, images, admitted: expected });
  }), { numRuns: 100 });
  // both outcomes occur: the property is not vacuous
  expect(tally.admitted).toBeGreaterThan(0);
  expect(tally.refused).toBeGreaterThan(0);
});
