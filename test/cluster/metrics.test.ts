// The metrics objects of every agent that serves metrics, on the real API server with the Prometheus operator's CRDs
// of the pinned release installed: each ServiceMonitor, PodMonitor and NetworkPolicy is accepted (dry-run create,
// fieldValidation=Strict, which refuses any field the CRD's schema does not have), and the server agrees with
// MetricsMonitor on which scrape intervals are Prometheus durations.
import { Chart, Testing } from 'cdk8s';
import { Protocol } from 'cdk8s-plus-28';
import { applyAll, resetCluster } from './cluster';
import { Kube, ok } from './kube';
import { generatedConstructs, installPrometheusCrds, PROMETHEUS_OPERATOR_VERSION, removePrometheusCrds } from './prometheus-crds';
import { LogCollector, MetricsMonitor, NodeAgent, NodeMonitor } from '../../src';
import { synthValid } from '../util/k8s-schema';

const kube = Kube.fromKubeconfig();
const SERVICE_MONITOR = 'monitoring.coreos.com/v1/ServiceMonitor';
const POD_MONITOR = 'monitoring.coreos.com/v1/PodMonitor';
const scrapers = { namespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' }, podLabels: { 'app.kubernetes.io/name': 'prometheus' } };

beforeAll(async () => {
  await resetCluster(kube);
  const crds = await installPrometheusCrds(kube);
  expect(crds.map((c) => c.metadata.name).sort()).toEqual(['podmonitors.monitoring.coreos.com', 'servicemonitors.monitoring.coreos.com']);
  expect(crds.map((c) => c.metadata.annotations['operator.prometheus.io/version'])).toEqual([PROMETHEUS_OPERATOR_VERSION.slice(1), PROMETHEUS_OPERATOR_VERSION.slice(1)]);
}, 180_000);
afterAll(async () => {
  await resetCluster(kube);
  await removePrometheusCrds(kube);
}, 180_000);

test('the committed constructs are what cdk8s import generates from the pinned CRDs (node scripts/prometheus-crds.js import)', () => {
  const { generated, committed } = generatedConstructs();
  expect(committed).toContain('export class ServiceMonitor extends ApiObject');
  expect(committed).toContain('export class PodMonitor extends ApiObject');
  expect(committed === generated).toBe(true);
}, 120_000);

/** every preset that serves metrics, with each kind of monitor, and a plain NodeAgent naming its port. */
const CASES: Array<[string, string, (c: Chart) => void]> = [
  ['NodeMonitor, ServiceMonitor', SERVICE_MONITOR, (c) => new NodeMonitor(c, 'node-exporter').addMetricsMonitor(
    MetricsMonitor.serviceMonitor({ interval: '30s', scrapeTimeout: '10s', labels: { release: 'prometheus' } }))],
  ['NodeMonitor, PodMonitor', POD_MONITOR, (c) => new NodeMonitor(c, 'node-exporter').addMetricsMonitor(MetricsMonitor.podMonitor({ interval: '1m' }))],
  ['LogCollector, ServiceMonitor and NetworkPolicy', SERVICE_MONITOR, (c) => new LogCollector(c, 'fluent-bit').addMetricsMonitor(
    MetricsMonitor.serviceMonitor({ interval: '15s', allowFrom: scrapers }))],
  ['LogCollector, PodMonitor and NetworkPolicy', POD_MONITOR, (c) => new LogCollector(c, 'fluent-bit').addMetricsMonitor(
    MetricsMonitor.podMonitor({ scrapeTimeout: '5s', allowFrom: { podLabels: scrapers.podLabels } }))],
  ['NodeAgent, PodMonitor on a UDP port and NetworkPolicy', POD_MONITOR, (c) => new NodeAgent(c, 'agent', {
    image: 'registry.example.com/node-agent:1.2.0', ports: [{ name: 'statsd', containerPort: 8125, protocol: Protocol.UDP }],
  }).addMetricsMonitor(MetricsMonitor.podMonitor({ port: 'statsd', path: '/stats', allowFrom: { namespaceLabels: scrapers.namespaceLabels } }))],
];

describe.each(CASES)('%s', (_name, monitorKind, build) => {
  const c = new Chart(Testing.app(), 'metrics');
  build(c);
  const manifests = synthValid(c, { customResources: [monitorKind] });
  const metricsObjects = manifests.filter((m) => /Monitor$|^NetworkPolicy$/.test(m.kind));

  beforeAll(() => resetCluster(kube), 120_000);

  test('the monitor and the NetworkPolicy are accepted by the API server with the CRDs (dry run, strict field validation), without a warning', async () => {
    expect(metricsObjects.length).toBeGreaterThan(0);
    await applyAll(kube, manifests.filter((m) => m.kind === 'Namespace'));
    for (const obj of manifests.filter((m) => m.kind !== 'Namespace')) {
      const r = await kube.create(obj, { dryRun: true });
      expect({ object: `${obj.kind} ${obj.metadata.name}`, status: r.status, body: r.status === 201 ? undefined : r.body })
        .toEqual({ object: `${obj.kind} ${obj.metadata.name}`, status: 201, body: undefined });
      if (metricsObjects.includes(obj)) {
        expect({ object: obj.kind, warnings: r.warnings }).toEqual({ object: obj.kind, warnings: [] });
        // what the server would store is what was sent: no field pruned by the CRD's structural schema
        expect(r.body.spec).toEqual(obj.spec);
      }
    }
  });
});

describe('the API server is the oracle of the CRD schema', () => {
  const NAMESPACE = 'metrics-oracle';
  const monitor = (endpoint: object) => ({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name: 'probe', namespace: NAMESPACE },
    spec: { selector: { matchLabels: { app: 'x' } }, endpoints: [{ port: 'metrics', ...endpoint }] },
  });

  beforeAll(async () => {
    await resetCluster(kube);
    await applyAll(kube, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }]);
  }, 120_000);

  test('strict field validation is in force: a field the CRD does not define is refused', async () => {
    const r = await kube.create(monitor({ intervall: '30s' }), { dryRun: true });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toMatch(/unknown field \\?"spec\.endpoints\[0\]\.intervall\\?"/);
  });

  // "0" is the one difference, by design: the CRD accepts it, MetricsMonitor refuses an interval that never scrapes.
  const DURATIONS = ['30s', '1m', '1m30s', '500ms', '2h', '1d', '1w', '1y', '1h2m3s4ms', '30', '30S', '1.5s', '-1s', '1m 30s', '30sec', '1s1m', ' 30s'];

  test.each(DURATIONS)('interval %j: the server and MetricsMonitor agree', async (interval) => {
    const r = await kube.create(monitor({ interval }), { dryRun: true });
    let library = true;
    try {
      MetricsMonitor.serviceMonitor({ interval });
    } catch {
      library = false;
    }
    expect({ interval, server: r.status === 201 }).toEqual({ interval, server: library });
    if (r.status !== 201) expect(r.status).toBe(422);
    else ok(r, 'dry-run create');
  });

  test('interval "0": the server accepts it, MetricsMonitor refuses it (it would never scrape)', async () => {
    expect((await kube.create(monitor({ interval: '0' }), { dryRun: true })).status).toBe(201);
    expect(() => MetricsMonitor.serviceMonitor({ interval: '0' })).toThrow(/would never scrape/);
  });
});
