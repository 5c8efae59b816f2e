// Observability agents on every node, each a preset of cdk8s-node-agents with its defaults: a log
// collector (Fluent Bit) shipping to Loki, a node monitor (node-exporter) and a runtime security agent
// (Falco, least-privileged modern eBPF). Each agent gets its own namespace, labelled for Pod Security
// admission, so that the privileges one needs are not granted to the others' namespaces. The node monitor and the log
// collector are scraped by a Prometheus operator (its CRDs installed in the cluster): a ServiceMonitor each, and for the
// log collector a NetworkPolicy admitting only Prometheus, from the monitoring namespace, to its metrics port. A team on
// Datadog runs its node agent beside them, the API key read from the Secret datadog-secret (created out of band, never in
// the manifests).
import { App, Chart } from 'cdk8s';
import { DatadogAgent, EnvValue, LogCollector, LogOutput, MetricsMonitor, NodeMonitor, SecurityAgent, SecurityCheck } from 'cdk8s-node-agents';
import { Construct } from 'constructs';

/** the observability agents, one namespace each. */
export class ObservabilityChart extends Chart {
  /** the log collector. */
  public readonly logs: LogCollector;
  /** the node monitor. */
  public readonly metrics: NodeMonitor;
  /** the security agent. */
  public readonly security: SecurityAgent;
  /** the Datadog node agent. */
  public readonly datadog: DatadogAgent;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.logs = new LogCollector(this, 'fluent-bit', {
      namespace: 'logging',
      output: LogOutput.loki('http://loki-gateway.logging.svc'),
    });
    this.metrics = new NodeMonitor(this, 'node-exporter', { namespace: 'monitoring' });
    // kube-prometheus-stack's Prometheus selects the monitors labelled with its release name.
    const release = { release: 'kube-prometheus-stack' };
    this.metrics.addMetricsMonitor(MetricsMonitor.serviceMonitor({ interval: '30s', scrapeTimeout: '10s', labels: release }));
    this.logs.addMetricsMonitor(MetricsMonitor.serviceMonitor({
      interval: '30s',
      labels: release,
      // node-exporter runs on the host network, where no NetworkPolicy applies: only the log collector gets one
      allowFrom: {
        namespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' },
        podLabels: { 'app.kubernetes.io/name': 'prometheus' },
      },
    }));
    this.security = new SecurityAgent(this, 'falco', { namespace: 'falco' });
    this.datadog = new DatadogAgent(this, 'datadog-agent', {
      namespace: 'datadog',
      apiKey: EnvValue.fromSecretKey('datadog-secret', 'api-key'),
      site: 'datadoghq.eu',
      clusterName: 'production',
    });
  }
}

/** builds the app: one chart, one output file. */
export function buildObservabilityApp(app: App): void {
  new ObservabilityChart(app, 'observability');
  // review every workload at synth and write dist/security-review.md and .json next to the manifests.
  SecurityCheck.apply(app);
}

if (require.main === module) {
  const app = new App();
  buildObservabilityApp(app);
  app.synth();
}
