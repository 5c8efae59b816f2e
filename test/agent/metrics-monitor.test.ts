import { Chart, Testing } from 'cdk8s';
import {
  CniPlugin, CsiNodePlugin, LogCollector, MetricsMonitor, MetricsMonitorKind, MetricsMonitorOptions, NodeAgent, NodeMonitor, SecurityAgent,
} from '../../src';
import { synthValid } from '../util/k8s-schema';

const SERVICE_MONITOR = 'monitoring.coreos.com/v1/ServiceMonitor';
const POD_MONITOR = 'monitoring.coreos.com/v1/PodMonitor';
const image = 'registry.example.com/node-agent:1.2.0';

function chart(): Chart {
  return new Chart(Testing.app(), 'test');
}

/** the chart's manifests: the monitors are left to the API server with the CRDs (test/cluster/metrics.test.ts), the rest checked here. */
function synth(c: Chart, customResources: string[]): any[] {
  return synthValid(c, { customResources });
}

function one(manifests: any[], kind: string): any {
  const found = manifests.filter((m) => m.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
}

/** whether a label selector's matchLabels select an object with these labels. */
function selects(matchLabels: { [k: string]: string }, labels: { [k: string]: string }): boolean {
  return Object.entries(matchLabels).every(([k, v]) => labels?.[k] === v);
}

describe('a ServiceMonitor on NodeMonitor', () => {
  const c = chart();
  const monitor = new NodeMonitor(c, 'node-exporter');
  const objects = monitor.addMetricsMonitor(MetricsMonitor.serviceMonitor({ interval: '30s', scrapeTimeout: '10s', labels: { release: 'prometheus' } }));
  const manifests = synth(c, [SERVICE_MONITOR]);
  const sm = one(manifests, 'ServiceMonitor');
  const service = one(manifests, 'Service');

  test('selects the agent\'s Service in its namespace and scrapes its metrics port at /metrics', () => {
    expect(sm.apiVersion).toEqual('monitoring.coreos.com/v1');
    expect(sm.metadata).toEqual({
      name: 'node-exporter',
      namespace: 'node-exporter',
      labels: { 'app.kubernetes.io/name': 'node-exporter', 'app.kubernetes.io/managed-by': 'cdk8s-node-agents', 'release': 'prometheus' },
    });
    expect(selects(sm.spec.selector.matchLabels, service.metadata.labels)).toBe(true);
    expect(sm.spec.namespaceSelector).toEqual({ matchNames: [service.metadata.namespace] });
    expect(sm.spec.endpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: '30s', scrapeTimeout: '10s' }]);
    // the endpoint's port is a port name of the Service, which targets node-exporter's port 9100
    expect(service.spec.ports).toContainEqual(expect.objectContaining({ name: 'metrics', targetPort: 'metrics', port: 9100 }));
  });

  test('is the object returned, a child of the agent; no NetworkPolicy without allowFrom', () => {
    expect(objects.monitor.kind).toEqual('ServiceMonitor');
    expect(objects.monitor.node.scope).toBe(monitor);
    expect(objects.networkPolicy).toBeUndefined();
    expect(manifests.filter((m) => m.kind === 'NetworkPolicy')).toEqual([]);
  });

  test('the agent\'s review is unchanged by it', () => {
    const bare = new NodeMonitor(chart(), 'node-exporter');
    const findings = (a: NodeAgent) => a.review().workloads.flatMap((w) => w.findings.map((f) => `${f.rule}:${f.acknowledged}`));
    expect(findings(monitor)).toEqual(findings(bare));
  });

  test('a NetworkPolicy is refused: node-exporter is on the host network, where none would apply', () => {
    expect(() => new NodeMonitor(chart(), 'node-exporter').addMetricsMonitor(MetricsMonitor.serviceMonitor({ allowFrom: { podLabels: { app: 'prometheus' } } })))
      .toThrow(/\[test\/node-exporter\] addMetricsMonitor: allowFrom would render a NetworkPolicy for pods on the host network, which NetworkPolicies do not apply to .*remove allowFrom/);
  });
});

describe('a PodMonitor and a NetworkPolicy on LogCollector', () => {
  const c = chart();
  const collector = new LogCollector(c, 'fluent-bit');
  const objects = collector.addMetricsMonitor(MetricsMonitor.podMonitor({
    allowFrom: { namespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' }, podLabels: { 'app.kubernetes.io/name': 'prometheus' } },
  }));
  const manifests = synth(c, [POD_MONITOR]);
  const pm = one(manifests, 'PodMonitor');
  const policy = one(manifests, 'NetworkPolicy');
  const template = one(manifests, 'DaemonSet').spec.template;

  test('selects the agent\'s pods and scrapes Fluent Bit\'s Prometheus endpoint on port http', () => {
    expect(selects(pm.spec.selector.matchLabels, template.metadata.labels)).toBe(true);
    expect(pm.spec.namespaceSelector).toEqual({ matchNames: ['fluent-bit'] });
    expect(pm.spec.podMetricsEndpoints).toEqual([{ port: 'http', path: '/api/v2/metrics/prometheus' }]);
    expect(template.spec.containers[0].ports).toContainEqual(expect.objectContaining({ name: 'http', containerPort: 2020 }));
    // what the endpoint serves is what the Fluent Bit configuration turns on
    expect(one(manifests, 'ConfigMap').data['fluent-bit.yaml']).toMatch(/http_server: "?on"?/);
  });

  test('the NetworkPolicy isolates the agent\'s pods for ingress and admits the scrapers to port 2020 only', () => {
    expect(objects.networkPolicy).toBeDefined();
    expect(policy.metadata).toEqual(expect.objectContaining({ name: 'fluent-bit-metrics', namespace: 'fluent-bit' }));
    expect(selects(policy.spec.podSelector.matchLabels, template.metadata.labels)).toBe(true);
    expect(policy.spec.policyTypes).toEqual(['Ingress']);
    expect(policy.spec.ingress).toEqual([{
      from: [{
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
      }],
      ports: [{ protocol: 'TCP', port: 2020 }],
    }]);
  });

  test('namespaceLabels alone select every pod of those namespaces; podLabels alone, pods of the agent\'s namespace', () => {
    const policyOf = (allowFrom: MetricsMonitorOptions['allowFrom']) => {
      const cc = chart();
      new LogCollector(cc, 'fluent-bit').addMetricsMonitor(MetricsMonitor.podMonitor({ allowFrom }));
      return one(synth(cc, [POD_MONITOR]), 'NetworkPolicy').spec.ingress[0].from;
    };
    expect(policyOf({ namespaceLabels: { team: 'obs' } })).toEqual([{ namespaceSelector: { matchLabels: { team: 'obs' } } }]);
    expect(policyOf({ podLabels: { app: 'prometheus' } })).toEqual([{ podSelector: { matchLabels: { app: 'prometheus' } } }]);
  });

  test('a ServiceMonitor works on LogCollector too (its Service exposes http)', () => {
    const cc = chart();
    new LogCollector(cc, 'fluent-bit').addMetricsMonitor(MetricsMonitor.serviceMonitor());
    expect(one(synth(cc, [SERVICE_MONITOR]), 'ServiceMonitor').spec.endpoints).toEqual([{ port: 'http', path: '/api/v2/metrics/prometheus' }]);
  });
});

describe('on a NodeAgent', () => {
  function agent(c: Chart, props: object = {}): NodeAgent {
    return new NodeAgent(c, 'agent', { image, ports: [{ name: 'metrics', containerPort: 8080 }], ...props });
  }

  test('the port is required: the agent declares no metrics endpoint of its own', () => {
    expect(() => agent(chart()).addMetricsMonitor(MetricsMonitor.podMonitor()))
      .toThrow("[test/agent] addMetricsMonitor: this agent declares no metrics endpoint: give the name of the port that serves its metrics, e.g. MetricsMonitor.podMonitor({ port: 'metrics' })");
  });

  test('with the port named: a PodMonitor at /metrics, and a custom path', () => {
    const c = chart();
    agent(c).addMetricsMonitor(MetricsMonitor.podMonitor({ port: 'metrics', path: '/stats/prometheus' }));
    const pm = one(synth(c, [POD_MONITOR]), 'PodMonitor');
    expect(pm.spec.podMetricsEndpoints).toEqual([{ port: 'metrics', path: '/stats/prometheus' }]);
    const c2 = chart();
    agent(c2).addMetricsMonitor(MetricsMonitor.podMonitor({ port: 'metrics' }));
    expect(one(synth(c2, [POD_MONITOR]), 'PodMonitor').spec.podMetricsEndpoints).toEqual([{ port: 'metrics', path: '/metrics' }]);
  });

  test('a port the agent does not declare, a ServiceMonitor without a Service or without the port in it', () => {
    expect(() => agent(chart()).addMetricsMonitor(MetricsMonitor.podMonitor({ port: 'prom' })))
      .toThrow('[test/agent] addMetricsMonitor: the agent has no container port named "prom" (its ports: metrics): add it to ports, or give the port that serves the metrics');
    expect(() => agent(chart()).addMetricsMonitor(MetricsMonitor.serviceMonitor({ port: 'metrics' })))
      .toThrow("[test/agent] addMetricsMonitor: a ServiceMonitor scrapes the agent's Service, which the agent does not have: set service: { ports: ['metrics'] }, or use MetricsMonitor.podMonitor()");
    const twoPorts = { ports: [{ name: 'metrics', containerPort: 8080 }, { name: 'api', containerPort: 8443 }], service: { ports: ['api'] } };
    expect(() => agent(chart(), twoPorts).addMetricsMonitor(MetricsMonitor.serviceMonitor({ port: 'metrics' })))
      .toThrow(/which does not expose port "metrics": set service: \{ ports: \['metrics'\] \}/);
  });

  test('a UDP metrics port keeps its protocol in the NetworkPolicy', () => {
    const c = chart();
    agent(c, { ports: [{ name: 'metrics', containerPort: 8125, protocol: 'UDP' }] })
      .addMetricsMonitor(MetricsMonitor.podMonitor({ port: 'metrics', allowFrom: { podLabels: { app: 'p' } } }));
    expect(one(synth(c, [POD_MONITOR]), 'NetworkPolicy').spec.ingress[0].ports).toEqual([{ protocol: 'UDP', port: 8125 }]);
  });

  test('a created Namespace comes before the monitor and the NetworkPolicy', () => {
    const c = chart();
    agent(c).addMetricsMonitor(MetricsMonitor.podMonitor({ port: 'metrics', allowFrom: { podLabels: { app: 'p' } } }));
    const order = synth(c, [POD_MONITOR]).map((m) => m.kind);
    expect(order.indexOf('Namespace')).toBeLessThan(order.indexOf('PodMonitor'));
    expect(order.indexOf('Namespace')).toBeLessThan(order.indexOf('NetworkPolicy'));
  });

  test('one monitor per agent; the argument must be a MetricsMonitor', () => {
    const a = agent(chart());
    a.addMetricsMonitor(MetricsMonitor.podMonitor({ port: 'metrics' }));
    expect(() => a.addMetricsMonitor(MetricsMonitor.podMonitor({ port: 'metrics' })))
      .toThrow('[test/agent] addMetricsMonitor: the agent already has a metrics monitor: give all its settings in one call');
    expect(() => agent(chart()).addMetricsMonitor({ kind: 'PodMonitor', options: {} } as any))
      .toThrow(/addMetricsMonitor\(monitor\).*created with MetricsMonitor\.serviceMonitor\(\) or podMonitor\(\)/);
  });

  test('labels may not override the agent\'s own', () => {
    expect(() => agent(chart()).addMetricsMonitor(MetricsMonitor.podMonitor({ port: 'metrics', labels: { 'app.kubernetes.io/name': 'other' } })))
      .toThrow('[test/agent] addMetricsMonitor: labels.app.kubernetes.io/name is set by the agent ("agent"): remove it from labels');
  });
});

describe('presets that serve no metrics endpoint as configured', () => {
  test.each([
    ['CniPlugin', (c: Chart) => new CniPlugin(c, 'cni')],
    ['CsiNodePlugin', (c: Chart) => new CsiNodePlugin(c, 'csi', { driverName: 'csi.example.com', image })],
    ['SecurityAgent', (c: Chart) => new SecurityAgent(c, 'falco')],
  ])('%s: addMetricsMonitor asks for the port', (_name, build) => {
    expect(() => build(chart()).addMetricsMonitor(MetricsMonitor.podMonitor())).toThrow(/addMetricsMonitor: this agent declares no metrics endpoint/);
  });
});

describe('MetricsMonitor options', () => {
  test('the kinds', () => {
    expect(MetricsMonitor.serviceMonitor().kind).toEqual(MetricsMonitorKind.SERVICE_MONITOR);
    expect(MetricsMonitor.podMonitor().kind).toEqual('PodMonitor');
  });

  test.each(['30s', '1m', '1m30s', '500ms', '2h', '1d', '1w', '1y', '1h2m3s4ms'])('interval %s is a Prometheus duration', (d) => {
    expect(MetricsMonitor.podMonitor({ interval: d }).options.interval).toEqual(d);
  });

  test.each(['30', '30S', '1.5s', '-1s', '1m 30s', '30sec', '1s1m', '', ' 30s'])('interval %j is refused', (d) => {
    expect(() => MetricsMonitor.podMonitor({ interval: d })).toThrow(`MetricsMonitor.podMonitor: interval ${JSON.stringify(d)} is not a Prometheus duration`);
  });

  test('interval 0 never scrapes; a scrape timeout longer than the interval is refused, equal is fine', () => {
    expect(() => MetricsMonitor.serviceMonitor({ interval: '0' })).toThrow('MetricsMonitor.serviceMonitor: interval "0" would never scrape');
    expect(() => MetricsMonitor.podMonitor({ interval: '1m', scrapeTimeout: '1m1s' }))
      .toThrow('MetricsMonitor.podMonitor: scrapeTimeout "1m1s" is longer than interval "1m", which Prometheus refuses: make it at most the interval');
    expect(MetricsMonitor.podMonitor({ interval: '1m', scrapeTimeout: '60s' }).options.scrapeTimeout).toEqual('60s');
    expect(() => MetricsMonitor.podMonitor({ scrapeTimeout: '10 s' })).toThrow(/scrapeTimeout "10 s" is not a Prometheus duration/);
  });

  test('label keys and values, port names and paths are checked', () => {
    expect(() => MetricsMonitor.podMonitor({ labels: { 'bad key': 'x' } })).toThrow(/MetricsMonitor.podMonitor: labels: "bad key" is not a valid label key/);
    expect(() => MetricsMonitor.podMonitor({ labels: { release: 'not valid!' } })).toThrow(/labels.release: "not valid!" is not a valid label value/);
    expect(() => MetricsMonitor.podMonitor({ allowFrom: { namespaceLabels: { '-x': 'y' } } })).toThrow(/allowFrom.namespaceLabels: "-x" is not a valid label key/);
    expect(() => MetricsMonitor.podMonitor({ port: 'Metrics' })).toThrow('MetricsMonitor.podMonitor: port "Metrics" is not a container port name');
    expect(() => MetricsMonitor.podMonitor({ path: 'metrics' })).toThrow('MetricsMonitor.podMonitor: path "metrics" must start with "/", e.g. "/metrics"');
  });

  test('allowFrom must select someone: empty selectors would admit every pod of the namespace', () => {
    expect(() => MetricsMonitor.podMonitor({ allowFrom: {} })).toThrow(/allowFrom selects no one in particular: give namespaceLabels, podLabels or both/);
    expect(() => MetricsMonitor.podMonitor({ allowFrom: { podLabels: {}, namespaceLabels: {} } })).toThrow(/allowFrom selects no one in particular/);
  });

  test('a JavaScript caller\'s misspelt option or wrong type is named', () => {
    expect(() => MetricsMonitor.podMonitor({ intervall: '30s' } as any)).toThrow(/MetricsMonitor.podMonitor: .*intervall.*interval/);
    expect(() => MetricsMonitor.podMonitor({ interval: 30 } as any)).toThrow(/MetricsMonitor.podMonitor: interval.*string.*30/);
  });
});
