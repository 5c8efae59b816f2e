import { Testing } from 'cdk8s';
import { buildObservabilityApp } from '../../examples/observability/main';
import { HostAccessReasons } from '../../src';
import { synthValid } from '../util/k8s-schema';

/**
 * The observability example: a log collector, a node monitor and a security agent in one chart, each
 * in its own namespace, every object schema-valid.
 */

function manifests(): any[] {
  const app = Testing.app();
  buildObservabilityApp(app);
  expect(app.charts.map((c) => c.node.id)).toEqual(['observability']);
  // the monitors are checked against the operator's CRDs on the API server (test/cluster/examples-apply.test.ts)
  return synthValid(app.charts[0], { customResources: ['monitoring.coreos.com/v1/ServiceMonitor'] });
}

const all = manifests();
const daemonSets = all.filter((m) => m.kind === 'DaemonSet');

test('one DaemonSet per agent, each in its own Pod Security-labelled namespace', () => {
  expect(daemonSets.map((d) => `${d.metadata.namespace}/${d.metadata.name}`)).toEqual(['logging/fluent-bit', 'monitoring/node-exporter', 'falco/falco', 'datadog/datadog-agent']);
  const namespaces = all.filter((m) => m.kind === 'Namespace');
  expect(namespaces.map((n) => n.metadata.name)).toEqual(['logging', 'monitoring', 'falco', 'datadog']);
  for (const ns of namespaces) expect(ns.metadata.labels['pod-security.kubernetes.io/warn']).toEqual('restricted');
});

test('the images are the presets\' pinned defaults', () => {
  expect(daemonSets.map((d) => d.spec.template.spec.containers[0].image)).toEqual([
    'cr.fluentbit.io/fluent/fluent-bit:5.1.1',
    'quay.io/prometheus/node-exporter:v1.12.1',
    'docker.io/falcosecurity/falco:0.44.1',
    'registry.datadoghq.com/agent:7.81.1',
  ]);
});

test('logs go to Loki', () => {
  const config = all.find((m) => m.kind === 'ConfigMap').data['fluent-bit.yaml'];
  expect(config).toContain('name: loki');
  expect(config).toContain('host: loki-gateway.logging.svc');
});

test('every agent records a reason for each host privilege, and none runs privileged', () => {
  for (const ds of daemonSets) {
    expect(HostAccessReasons.parse(ds.metadata.annotations).length).toBeGreaterThan(0);
    for (const c of ds.spec.template.spec.containers) expect(c.securityContext.privileged).toBeUndefined();
  }
});

test('the metrics Services of the log collector and the node monitor, and the Datadog agent\'s node-local DogStatsD Service', () => {
  expect(all.filter((m) => m.kind === 'Service').map((s) => `${s.metadata.namespace}/${s.metadata.name}:${s.spec.ports[0].port}`))
    .toEqual(['logging/fluent-bit:2020', 'monitoring/node-exporter:9100', 'datadog/datadog-agent:8125']);
});

test('the Datadog agent reads its API key from the Secret, never a literal', () => {
  const agent = daemonSets.find((d) => d.metadata.name === 'datadog-agent').spec.template.spec.containers[0];
  expect(agent.env).toContainEqual({ name: 'DD_API_KEY', valueFrom: { secretKeyRef: { name: 'datadog-secret', key: 'api-key' } } });
  expect(agent.env).toEqual(expect.arrayContaining([{ name: 'DD_SITE', value: 'datadoghq.eu' }, { name: 'DD_CLUSTER_NAME', value: 'production' }]));
});

test('a ServiceMonitor for node-exporter and Fluent Bit, each selecting its agent\'s Service and scraping its metrics port', () => {
  const monitors = all.filter((m) => m.kind === 'ServiceMonitor');
  expect(monitors.map((m) => `${m.metadata.namespace}/${m.metadata.name}`)).toEqual(['logging/fluent-bit', 'monitoring/node-exporter']);
  for (const m of monitors) {
    const service = all.find((s) => s.kind === 'Service' && s.metadata.namespace === m.metadata.namespace);
    expect(m.metadata.labels.release).toEqual('kube-prometheus-stack');
    for (const [k, v] of Object.entries(m.spec.selector.matchLabels)) expect(service.metadata.labels[k]).toEqual(v);
    expect(m.spec.endpoints.map((e: any) => e.port)).toEqual([service.spec.ports[0].name]);
  }
  expect(monitors.map((m) => m.spec.endpoints[0].path)).toEqual(['/api/v2/metrics/prometheus', '/metrics']);
});

test('one NetworkPolicy, for the log collector\'s metrics port: node-exporter is on the host network, where none applies', () => {
  const policies = all.filter((m) => m.kind === 'NetworkPolicy');
  expect(policies.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual(['logging/fluent-bit-metrics']);
  expect(policies[0].spec.ingress[0].ports).toEqual([{ protocol: 'TCP', port: 2020 }]);
  expect(daemonSets.find((d) => d.metadata.name === 'node-exporter').spec.template.spec.hostNetwork).toBe(true);
});
