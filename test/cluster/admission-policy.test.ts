// The host-access admission policy on the real API server: installed as generated, it admits a workload exactly when
// the synth gate's reason check accepts it (for the privileges the policy checks: checkedAtAdmission), on every
// corpus manifest (as published, with every reason written, and with each privilege's reason taken out), every
// example's output and every preset; the library's own output is always admitted; Warn warns and admits; a pod spec
// far larger than any agent's stays within the API server's CEL cost budget.
import * as fs from 'fs';
import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import { resetCluster } from './cluster';
import { Kube, ROOT, eventually, exampleOutputs, ok, readManifests, rel } from './kube';
import { CniFlavor, CniPlugin, CsiNodePlugin, HostAccess, HostAccessPolicy, HostAccessReason, HostAccessReasons, LogCollector, NodeMonitor, PolicyAction, PolicyWorkload, SecurityAgent } from '../../src';
import { loadObjects } from '../../src/cli/_manifests';
import { checkedAtAdmission } from '../../src/model/_admission-checks';
import { POLICY_WORKLOADS } from '../../src/model/_admission-policy';
import { REASON_ANNOTATION_PREFIX, reasonAnnotations, reasonsInBothForms, unexplainedPrivileges } from '../../src/model/_reason-annotations';
import { synthValid } from '../util/k8s-schema';

const kube = Kube.fromKubeconfig();
const DENY_NS = 'admission-deny';
const WARN_NS = 'admission-warn';
/** a namespace no binding selects: what the API server says of an object without the policy. */
const PLAIN_NS = 'admission-plain';
const WORKLOAD_KINDS = Object.keys(POLICY_WORKLOADS);

function policyObjects(name: string, actions: PolicyAction[], label: string): any[] {
  const chart = new Chart(new App(), 'policy');
  new HostAccessPolicy(chart, 'policy', { name, actions, workloads: Object.values(PolicyWorkload), namespaceLabels: { 'node-agents-admission-test': label } });
  return synthValid(chart);
}

function podSpecOf(o: any): any {
  return o.kind === 'Pod' ? o.spec : o.kind === 'CronJob' ? o.spec.jobTemplate.spec.template.spec : o.spec.template.spec;
}

/** what the synth gate's reason check says of a workload, for the privileges the policy checks. */
function gateAccepts(o: any): boolean {
  const spec = podSpecOf(o);
  const items = HostAccess.of(spec).filter((i) => checkedAtAdmission(i, spec, o.kind));
  return unexplainedPrivileges(items, HostAccessReasons.parse(o.metadata?.annotations)).length === 0;
}

/** the workload in `namespace`, under a name of its own, with the annotations given (undefined: as it is). */
function variant(o: any, name: string, namespace: string, annotations?: { [k: string]: string }): any {
  const metadata = { ...o.metadata, name, namespace };
  if (annotations !== undefined) metadata.annotations = annotations;
  delete metadata.resourceVersion;
  delete metadata.uid;
  delete metadata.creationTimestamp;
  return { ...o, metadata };
}

/** the workload with a reason written for every privilege, in both forms (as NodeAgent writes them). */
function withAllReasons(o: any): { [k: string]: string } {
  const reasons = HostAccess.of(podSpecOf(o)).map((i) => ({ type: i.type, detail: i.detail, container: i.container, reason: `needed by ${o.metadata.name}` }));
  return reasonsInBothForms(reasons);
}

/** dry-run create: true when admitted, false when this policy refused it; anything else fails the test. */
async function admitted(o: any, policy = 'host-access-deny'): Promise<{ admitted: boolean; message: string; warnings: string[] }> {
  // unknown fields dropped with a warning rather than refused (a published manifest may carry a misspelt field; it
  // grants nothing): what is judged here is the policy, not the field validation
  const r = await kube.request('POST', await kube.pathOf(o.apiVersion, o.kind, o.metadata.namespace), o, { query: { dryRun: 'All', fieldValidation: 'Warn' } });
  if (r.status === 201) return { admitted: true, message: '', warnings: r.warnings };
  const message = String(r.body?.message ?? '');
  if (r.status === 403 && message.includes(`ValidatingAdmissionPolicy '${policy}'`)) return { admitted: false, message, warnings: r.warnings };
  throw new Error(`${o.kind} ${o.metadata.name}: ${r.status} ${message || JSON.stringify(r.body)}`);
}

const UNEXPLAINED = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'probe', namespace: DENY_NS },
  spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { hostPID: true, containers: [{ name: 'c', image: 'registry.example.com/c:1', securityContext: { runAsUser: 1000 } }] } } },
};

beforeAll(async () => {
  await resetCluster(kube);
  for (const o of [...policyObjects('host-access-deny', [PolicyAction.DENY], 'deny'), ...policyObjects('host-access-warn', [PolicyAction.WARN], 'warn')]) {
    await kube.delete(`/apis/admissionregistration.k8s.io/v1/${o.kind === 'ValidatingAdmissionPolicy' ? 'validatingadmissionpolicies' : 'validatingadmissionpolicybindings'}/${o.metadata.name}`);
    ok(await kube.create(o), `create ${o.kind} ${o.metadata.name}`);
  }
  for (const [ns, label] of [[DENY_NS, 'deny'], [WARN_NS, 'warn'], [PLAIN_NS, 'none']]) {
    ok(await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'node-agents-admission-test': label } } }), `namespace ${ns}`);
  }
  // the API server compiles a new policy and binding asynchronously: wait until the policy refuses a workload it must refuse
  await eventually('the policy to be in force', async () => ((await kube.create(UNEXPLAINED, { dryRun: true })).status === 403 ? true : undefined),
    { timeoutMs: 60_000, intervalMs: 250 });
}, 120_000);

afterAll(async () => {
  for (const name of ['host-access-deny', 'host-access-warn']) {
    await kube.delete(`/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/${name}`);
    await kube.delete(`/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/${name}`);
  }
  await resetCluster(kube);
});

const CORPUS = path.join(ROOT, '.corpus');
const corpusFiles = fs.readdirSync(CORPUS).filter((f) => f.endsWith('.yaml')).sort();

describe.each(corpusFiles)('corpus %s', (file) => {
  // read by the library's one reader, as the review reads it
  const workloads = loadObjects([path.join(CORPUS, file)]).map((l) => l.object)
    .filter((o) => WORKLOAD_KINDS.includes(o?.kind) && ['apps/v1', 'batch/v1', 'v1'].includes(o.apiVersion));

  test('admitted exactly when the synth gate accepts it: as published, with every reason, and with each reason taken out', async () => {
    expect(workloads.length).toBeGreaterThan(0);
    // admitted where no policy applies: what the policy decides below is the policy's own
    const plain = await kube.request('POST', await kube.pathOf(workloads[0].apiVersion, workloads[0].kind, PLAIN_NS),
      variant(workloads[0], 'plain', PLAIN_NS), { query: { dryRun: 'All', fieldValidation: 'Warn' } });
    expect(plain.status).toBe(201);
    let n = 0;
    for (const o of workloads) {
      const cases = [variant(o, `c${n++}`, DENY_NS)];
      const all = withAllReasons(o);
      cases.push(variant(o, `c${n++}`, DENY_NS, { ...o.metadata.annotations, ...all }));
      // each per-privilege annotation taken out in turn, and the JSON list with it (so that both forms agree)
      // with every reason written, the gate accepts it (and so must the policy)
      expect(gateAccepts(cases[1])).toBe(true);
      const reasons = HostAccessReasons.parse(all);
      const identityOf = (r: HostAccessReason) => Object.values(reasonAnnotations([r]))[0].split(' | ')[0];
      for (const key of Object.keys(all).filter((k) => k.startsWith(REASON_ANNOTATION_PREFIX))) {
        const identity = all[key].split(' | ')[0];
        const kept = reasons.filter((r) => identityOf(r) !== identity);
        const annotations = { ...o.metadata.annotations, ...reasonsInBothForms(kept) };
        cases.push(variant(o, `c${n++}`, DENY_NS, annotations));
      }
      for (const c of cases) {
        const decision = await admitted(c);
        expect({ name: `${o.kind} ${o.metadata.name}`, admitted: decision.admitted }).toEqual({ name: `${o.kind} ${o.metadata.name}`, admitted: gateAccepts(c) });
      }
    }
  });
});

function presetOutputs(): any[] {
  const chart = new Chart(Testing.app(), 'presets');
  new LogCollector(chart, 'logs');
  new NodeMonitor(chart, 'monitor');
  new CniPlugin(chart, 'cni', { flavor: CniFlavor.flannel() });
  new CsiNodePlugin(chart, 'csi', { driverName: 'csi.example.com', image: 'registry.example.com/csi:1.0.0' });
  new SecurityAgent(chart, 'security');
  return synthValid(chart);
}

const libraryOutputs: [string, any][] = [
  ...exampleOutputs().flatMap((f) => readManifests(f).map((o): [string, any] => [`${rel(f)} ${o.kind} ${o.metadata?.name}`, o])),
  ...presetOutputs().map((o): [string, any] => [`preset ${o.kind} ${o.metadata?.name}`, o]),
].filter(([, o]) => WORKLOAD_KINDS.includes(o.kind));

test.each(libraryOutputs)('the library\'s own output is admitted, as the gate accepts it: %s', async (_name, o) => {
  const c = variant(o, o.metadata.name, DENY_NS);
  expect(gateAccepts(c)).toBe(true);
  expect(await admitted(c)).toEqual({ admitted: true, message: '', warnings: expect.any(Array) });
});

test('Warn: an unexplained privilege is admitted with the refusal as a warning naming the privilege and the line to add', async () => {
  const r = await kube.create({ ...UNEXPLAINED, metadata: { name: 'warned', namespace: WARN_NS } }, { dryRun: true });
  expect(r.status).toBe(201);
  expect(r.warnings).toEqual([expect.stringContaining('DaemonSet warned takes hostPID without a reason')]);
  expect(r.warnings[0]).toContain(`${REASON_ANNOTATION_PREFIX}<name>: "hostPID | <why it is needed>"`);
});

test('Deny: the message names the privilege and the annotation line to add', async () => {
  const decision = await admitted({ ...UNEXPLAINED, metadata: { name: 'denied', namespace: DENY_NS } });
  expect(decision.admitted).toBe(false);
  expect(decision.message).toContain('DaemonSet denied takes hostPID without a reason');
  expect(decision.message).toContain(`${REASON_ANNOTATION_PREFIX}<name>: "hostPID | <why it is needed>"`);
});

/** a DaemonSet of `n` containers that each mount the same `n` host paths read-only and add `caps` capabilities, running as root. */
function large(n: number, caps: number): any {
  const volumes = Array.from({ length: n }, (_, i) => ({ name: `v${i}`, hostPath: { path: `/var/lib/agent/dir-${i}/` } }));
  const containers = Array.from({ length: n }, (_, c) => ({
    name: `c${c}`,
    image: 'registry.example.com/agent:1.0.0',
    ports: [{ containerPort: 1000 + c, hostPort: 1000 + c }],
    securityContext: { runAsUser: 0, capabilities: { add: Array.from({ length: caps }, (__, k) => `CAP_X_${k}`) } },
    volumeMounts: volumes.map((v) => ({ name: v.name, mountPath: `/mnt/${v.name}`, readOnly: c % 2 === 0 })),
  }));
  const ds = { ...UNEXPLAINED, metadata: { name: `large-${n}`, namespace: DENY_NS }, spec: { ...UNEXPLAINED.spec, template: { ...UNEXPLAINED.spec.template, spec: { volumes, containers } } } };
  return { ...ds, metadata: { ...ds.metadata, annotations: withAllReasons(ds) } };
}

test('within the CEL cost budget: 80 containers mounting 80 host paths each (6,400 mounts), 2 capabilities and a host port each, every one explained, is admitted', async () => {
  const explained = large(80, 2);
  expect(Object.keys(explained.metadata.annotations).length).toBe(1 + 80 + 80 * (1 + 1 + 2));
  expect(gateAccepts(explained)).toBe(true);
  expect(await admitted(explained)).toEqual({ admitted: true, message: '', warnings: [] });
  // and one reason fewer is refused, by the policy's message, not by a cost error
  const annotations = explained.metadata.annotations;
  const { [Object.keys(annotations).find((k) => annotations[k].startsWith('capability[c79] X_1'))!]: _dropped, ...fewer } = annotations;
  const refused = await admitted({ ...explained, metadata: { ...explained.metadata, annotations: fewer } });
  expect(refused.message).toContain('takes capability[c79] X_1 without a reason');
});

test('beyond the budget (100 containers mounting 100 host paths each, 10,000 mounts) the API server stops the evaluation: refused (failurePolicy Fail), as the README says', async () => {
  const explained = large(100, 1);
  expect(gateAccepts(explained)).toBe(true);
  const r = await kube.create(explained, { dryRun: true });
  expect(r.status).toBe(422);
  expect(r.body.message).toContain('ValidatingAdmissionPolicy \'host-access-deny\' with binding \'host-access-deny\' denied request');
  expect(r.body.message).toContain('operation cancelled: actual cost limit exceeded');
});
