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
  return synthValid(app.charts[0]);
}

const all = manifests();
const daemonSets = all.filter((m) => m.kind === 'DaemonSet');

test('one DaemonSet per agent, each in its own Pod Security-labelled namespace', () => {
  expect(daemonSets.map((d) => `${d.metadata.namespace}/${d.metadata.name}`)).toEqual(['logging/fluent-bit', 'monitoring/node-exporter', 'falco/falco']);
  const namespaces = all.filter((m) => m.kind === 'Namespace');
  expect(namespaces.map((n) => n.metadata.name)).toEqual(['logging', 'monitoring', 'falco']);
  for (const ns of namespaces) expect(ns.metadata.labels['pod-security.kubernetes.io/warn']).toEqual('restricted');
});

test('the images are the presets\' pinned defaults', () => {
  expect(daemonSets.map((d) => d.spec.template.spec.containers[0].image)).toEqual([
    'cr.fluentbit.io/fluent/fluent-bit:5.1.1',
    'quay.io/prometheus/node-exporter:v1.12.1',
    'docker.io/falcosecurity/falco:0.44.1',
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

test('the metrics Services of the log collector and the node monitor', () => {
  expect(all.filter((m) => m.kind === 'Service').map((s) => `${s.metadata.namespace}/${s.metadata.name}:${s.spec.ports[0].port}`))
    .toEqual(['logging/fluent-bit:2020', 'monitoring/node-exporter:9100']);
});
