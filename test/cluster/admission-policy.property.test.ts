// The host-access admission policy's CEL against the model on the real API server, on generated pod specs: for any
// API-valid DaemonSet and bare Pod (host paths written in any form, mounted read-only or not by any container, init containers,
// host namespaces, host ports, capabilities in any case, with or without CAP_, privileged, runAsUser and runAsNonRoot
// at either level, Windows node selectors and user names) and any subset of its privileges explained (with or without a container,
// some reasons blank), the policy admits it exactly when the synth gate's reason check accepts it.
import { App, Chart } from 'cdk8s';
import * as fc from 'fast-check';
import { resetCluster } from './cluster';
import { Kube, eventually, ok } from './kube';
import { HostAccess, HostAccessPolicy, HostAccessReasons, PolicyWorkload } from '../../src';
import { checkedAtAdmission } from '../../src/model/_admission-checks';
import { reasonsInBothForms, unexplainedPrivileges } from '../../src/model/_reason-annotations';

const kube = Kube.fromKubeconfig();
const NS = 'admission-property';
const POLICY = 'host-access-property';

const PATHS = ['/var/log', '/var//log/', '/var/./log', '/run/agent', '/a|b%c', '/', 'C:\\logs'];
const CAPS = ['NET_ADMIN', 'net_admin', 'CAP_SYS_ADMIN', ' cap_bpf ', 'Cap_Net_Raw', 'SYS_PTRACE', ''];
const optionalBool = fc.constantFrom(undefined, true, false);
const optionalUser = fc.constantFrom(undefined, 0, 1000);

const securityContext = fc.record({
  privileged: optionalBool,
  runAsUser: optionalUser,
  runAsNonRoot: optionalBool,
  capabilities: fc.option(fc.record({ add: fc.uniqueArray(fc.constantFrom(...CAPS), { maxLength: 3 }) }), { nil: undefined }),
}).map(drop);

const podSpec = fc.record({
  hostNetwork: optionalBool,
  hostPID: optionalBool,
  hostIPC: optionalBool,
  windowsSelector: fc.boolean(),
  podSc: fc.record({
    runAsUser: optionalUser,
    runAsNonRoot: optionalBool,
    windowsOptions: fc.option(fc.record({ runAsUserName: fc.constantFrom('ContainerUser', 'ContainerAdministrator', 'containeradministrator') }), { nil: undefined }),
  }).map(drop),
  volumes: fc.uniqueArray(fc.constantFrom(...PATHS), { maxLength: 4 }),
  containers: fc.array(fc.record({
    init: fc.boolean(),
    sc: fc.option(securityContext, { nil: undefined }),
    mounts: fc.array(fc.record({ volume: fc.nat(3), readOnly: optionalBool }), { maxLength: 3 }),
    port: fc.option(fc.constantFrom('TCP', 'UDP', undefined), { nil: null }),
  }), { minLength: 1, maxLength: 3 }),
}).map((g) => {
  const volumes = g.volumes.map((p, i) => ({ name: `v${i}`, hostPath: { path: p } }));
  const containers = g.containers.map((c, i) => drop({
    name: `c${i}`,
    image: 'registry.example.com/agent:1.0.0',
    securityContext: c.sc,
    // a declared hostPort; on the host network it must equal the container port
    ports: c.port === null || c.init ? undefined : [drop({ containerPort: 9000 + i, hostPort: 9000 + i, protocol: c.port })],
    volumeMounts: volumes.length === 0 ? undefined
      : uniqueBy(c.mounts.map((m) => drop({ name: volumes[m.volume % volumes.length].name, mountPath: `/mnt/${m.volume % volumes.length}`, readOnly: m.readOnly })), (m) => m.mountPath),
    init: c.init,
  }));
  return drop({
    hostNetwork: g.hostNetwork,
    hostPID: g.hostPID,
    hostIPC: g.hostIPC,
    nodeSelector: g.windowsSelector ? { 'kubernetes.io/os': 'windows' } : undefined,
    securityContext: Object.keys(g.podSc).length === 0 ? undefined : g.podSc,
    volumes: volumes.length === 0 ? undefined : volumes,
    initContainers: orUndefined(containers.filter((c) => c.init).map(({ init, ...c }) => c)),
    containers: orUndefined(containers.filter((c) => !c.init).map(({ init, ...c }) => c)) ?? [{ name: 'main', image: 'registry.example.com/agent:1.0.0' }],
  });
});

function drop<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
function orUndefined<T>(list: T[]): T[] | undefined {
  return list.length === 0 ? undefined : list;
}
function uniqueBy<T>(list: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return list.filter((t) => !seen.has(key(t)) && seen.add(key(t)) !== undefined);
}

beforeAll(async () => {
  await resetCluster(kube);
  const chart = new Chart(new App(), 'policy');
  new HostAccessPolicy(chart, 'policy', { name: POLICY, workloads: [PolicyWorkload.DAEMON_SET, PolicyWorkload.POD], namespaceLabels: { 'node-agents-admission-test': 'property' } });
  for (const o of chart.toJson()) ok(await kube.create(o), `create ${o.kind}`);
  ok(await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { 'node-agents-admission-test': 'property' } } }), 'namespace');
  const probe = daemonSet('probe', { hostPID: true, containers: [{ name: 'c', image: 'registry.example.com/c:1', securityContext: { runAsUser: 1000 } }] }, {});
  await eventually('the policy to be in force', async () => ((await kube.create(probe, { dryRun: true })).status === 403 ? true : undefined),
    { timeoutMs: 60_000, intervalMs: 250 });
}, 120_000);

afterAll(async () => {
  await kube.delete(`/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/${POLICY}`);
  await kube.delete(`/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/${POLICY}`);
  await resetCluster(kube);
});

function daemonSet(name: string, spec: any, annotations: { [k: string]: string }): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: NS, annotations },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec } },
  };
}

test('admitted exactly when the synth gate accepts it, on generated DaemonSets and reasons', async () => {
  let n = 0;
  const tally = { admitted: 0, refused: 0 };
  await fc.assert(fc.asyncProperty(podSpec, fc.infiniteStream(fc.constantFrom('explained', 'explained', 'explained', 'explained', 'explained', 'explained-in-container', 'explained-in-container', 'blank', 'missing')), async (spec, choices) => {
    const items = HostAccess.of(spec);
    const reasons = items.flatMap((i) => {
      const choice = choices.next().value;
      if (choice === 'missing') return [];
      const container = choice === 'explained-in-container' ? i.container : undefined;
      return [drop({ type: i.type, detail: i.detail, container, reason: choice === 'blank' ? ' ' : `why ${i.type}` })];
    });
    const annotations = reasonsInBothForms(reasons);
    // the same pod spec in a DaemonSet's template and in a bare Pod (which the API server defaults differently)
    const name = `p${n++}`;
    for (const o of [daemonSet(name, spec, annotations), { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS, annotations }, spec }]) {
      const r = await kube.create(o, { dryRun: true });
      if (r.status !== 201 && !(r.status === 403 && String(r.body?.message).includes(`ValidatingAdmissionPolicy '${POLICY}'`))) {
        throw new Error(`${r.status} ${JSON.stringify(r.body?.message ?? r.body)} for ${JSON.stringify(o)}`);
      }
      const gate = unexplainedPrivileges(items.filter((i) => checkedAtAdmission(i, spec, o.kind)), HostAccessReasons.parse(annotations)).length === 0;
      tally[r.status === 201 ? 'admitted' : 'refused']++;
      expect({ kind: o.kind, spec, annotations, admitted: r.status === 201 }).toEqual({ kind: o.kind, spec, annotations, admitted: gate });
    }
  }), { numRuns: 500 });
  // both outcomes occur: the property is not vacuous
  expect(tally.admitted).toBeGreaterThan(20);
  expect(tally.refused).toBeGreaterThan(20);
});

test('a Windows HostProcess pod needs the hostProcess reason of each container, and no runAsRoot one', async () => {
  const spec = {
    hostNetwork: true,
    securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
    containers: [{ name: 'installer', image: 'registry.example.com/installer:1.0.0' }],
  };
  const reasons = [{ type: 'hostNetwork', detail: '', reason: 'HostProcess containers run on the host network' }] as any[];
  const refused = await kube.create(daemonSet('windows-a', spec, reasonsInBothForms(reasons)), { dryRun: true });
  expect(refused.status).toBe(403);
  expect(refused.body.message).toContain('takes hostProcess[installer] installer without a reason');
  const withReason = [...reasons, { type: 'hostProcess', detail: 'installer', container: 'installer', reason: 'installs the node driver' }];
  const admitted = await kube.create(daemonSet('windows-b', spec, reasonsInBothForms(withReason)), { dryRun: true });
  expect(admitted.status).toBe(201);
  expect(unexplainedPrivileges(HostAccess.of(spec), withReason)).toEqual([]);
});
