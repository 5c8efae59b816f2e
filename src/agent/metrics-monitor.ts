import { ApiObject } from 'cdk8s';
import { checkLabelKey, checkLabelValue, checkOptions, factoryReport, show } from './_validate';
import { map, string, struct } from '../review/_guard';

/**
 * The pods allowed to scrape an agent's metrics port, for the NetworkPolicy `MetricsMonitor` renders with
 * `allowFrom`. The two selectors together are one NetworkPolicy peer: with both, only pods carrying `podLabels` in
 * namespaces carrying `namespaceLabels` are admitted; with `podLabels` alone, only such pods in the agent's own
 * namespace; with `namespaceLabels` alone, every pod of such namespaces.
 */
export interface MetricsScrapers {
  /**
   * Labels of the namespaces the scrapers run in, e.g. `{ 'kubernetes.io/metadata.name': 'monitoring' }` (the label
   * Kubernetes sets on every namespace).
   *
   * @default the agent's own namespace only (then `podLabels` is required)
   */
  readonly namespaceLabels?: { [key: string]: string };

  /**
   * Labels of the scraping pods, e.g. `{ 'app.kubernetes.io/name': 'prometheus' }`.
   *
   * @default every pod of the selected namespaces (then `namespaceLabels` is required)
   */
  readonly podLabels?: { [key: string]: string };
}

/**
 * What a `MetricsMonitor` scrapes and how often. Every field the Prometheus operator defaults is left out of the
 * object unless set, so the operator's (and the Prometheus' global) defaults apply.
 */
export interface MetricsMonitorOptions {
  /**
   * The name of the agent's container port serving the metrics (for a ServiceMonitor, the agent's Service must expose
   * it: `service.ports`).
   *
   * @default the metrics port of a preset that serves metrics (`NodeMonitor`: `metrics`, `LogCollector`: `http`);
   * required on any other agent
   */
  readonly port?: string;

  /**
   * The HTTP path of the metrics.
   *
   * @default the preset's metrics path (`LogCollector`: `/api/v2/metrics/prometheus`), otherwise `/metrics`
   */
  readonly path?: string;

  /**
   * How often Prometheus scrapes, as a Prometheus duration (`30s`, `1m`, `1m30s`).
   *
   * @default the Prometheus' global scrape interval
   */
  readonly interval?: string;

  /**
   * How long a scrape may take, as a Prometheus duration; at most `interval`.
   *
   * @default the Prometheus' global scrape timeout
   */
  readonly scrapeTimeout?: string;

  /**
   * Labels added to the ServiceMonitor or PodMonitor, e.g. the `release` label a Prometheus' `serviceMonitorSelector`
   * or `podMonitorSelector` selects on. The agent's own labels are on it too and cannot be overridden.
   *
   * @default the agent's labels only
   */
  readonly labels?: { [key: string]: string };

  /**
   * Renders a NetworkPolicy that admits ingress to the metrics port only, from these pods. The policy isolates the
   * agent's pods for ingress: any other port of theirs then admits no traffic from pods (traffic from the node itself,
   * such as the kubelet's probes, stays allowed, as Kubernetes defines it). An agent on the host network cannot have
   * one: NetworkPolicies do not apply to host-network pods (Kubernetes leaves it undefined, and most network plugins
   * ignore them), so it is refused rather than rendered without effect.
   *
   * @default no NetworkPolicy
   */
  readonly allowFrom?: MetricsScrapers;
}

/** The objects `NodeAgent.addMetricsMonitor` rendered. */
export interface AgentMetricsObjects {
  /** the ServiceMonitor or PodMonitor. */
  readonly monitor: ApiObject;

  /**
   * The NetworkPolicy of the metrics port.
   *
   * @default - none, unless `allowFrom` is set
   */
  readonly networkPolicy?: ApiObject;
}

/** The Prometheus operator's kinds of monitor. */
export enum MetricsMonitorKind {
  /** scrapes the endpoints of the agent's Service. */
  SERVICE_MONITOR = 'ServiceMonitor',
  /** scrapes the agent's pods directly, without a Service. */
  POD_MONITOR = 'PodMonitor',
}

/** a Prometheus duration, as the operator's CRDs validate it (their `pattern`). */
const PROMETHEUS_DURATION = /^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$/;
const UNIT_MS: { [unit: string]: number } = { y: 365 * 86_400_000, w: 7 * 86_400_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

const LABELS = map(string(), 'a map of label keys to values', "{ release: 'prometheus' }");
const OPTIONS = struct('MetricsMonitorOptions', {
  port: string("'metrics'"),
  path: string("'/metrics'"),
  interval: string("'30s'"),
  scrapeTimeout: string("'10s'"),
  labels: LABELS,
  allowFrom: struct('MetricsScrapers', { namespaceLabels: LABELS, podLabels: LABELS }),
}, { example: "{ interval: '30s', labels: { release: 'prometheus' } }" });

/**
 * A Prometheus operator ServiceMonitor or PodMonitor (`monitoring.coreos.com/v1`) for an agent's metrics, and
 * optionally a NetworkPolicy for its metrics port: give it to `NodeAgent.addMetricsMonitor`.
 *
 * @example
 * MetricsMonitor.serviceMonitor({ interval: '30s', labels: { release: 'prometheus' } });
 * MetricsMonitor.podMonitor({ port: 'metrics', allowFrom: { namespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } });
 *
 * @see https://prometheus-operator.dev/docs/developer/getting-started/
 */
export class MetricsMonitor {
  /**
   * A ServiceMonitor, selecting the agent's Service (the agent needs `service` with the metrics port).
   */
  public static serviceMonitor(options: MetricsMonitorOptions = {}): MetricsMonitor {
    return new MetricsMonitor(MetricsMonitorKind.SERVICE_MONITOR, checkMonitorOptions('MetricsMonitor.serviceMonitor', options));
  }

  /**
   * A PodMonitor, selecting the agent's pods (no Service needed).
   */
  public static podMonitor(options: MetricsMonitorOptions = {}): MetricsMonitor {
    return new MetricsMonitor(MetricsMonitorKind.POD_MONITOR, checkMonitorOptions('MetricsMonitor.podMonitor', options));
  }

  private constructor(
    /** which kind of monitor is rendered. */
    public readonly kind: MetricsMonitorKind,
    /** the options, as checked. */
    public readonly options: MetricsMonitorOptions,
  ) {}
}

/** milliseconds of a Prometheus duration (already matched by PROMETHEUS_DURATION). */
function durationMs(duration: string): number {
  let total = 0;
  for (const m of duration.matchAll(/([0-9]+)(ms|[ywdhms])/g)) total += Number(m[1]) * UNIT_MS[m[2]];
  return total;
}

function checkMonitorOptions(where: string, options: MetricsMonitorOptions): MetricsMonitorOptions {
  const o = checkOptions<MetricsMonitorOptions>(where, options, OPTIONS);
  const report = factoryReport(where);
  for (const field of ['interval', 'scrapeTimeout'] as const) {
    const value = o[field];
    if (value !== undefined && (value === '' || !PROMETHEUS_DURATION.test(value))) {
      report(`${field} ${show(value)} is not a Prometheus duration: write units from largest to smallest, e.g. "30s", "1m" or "1m30s" (units y, w, d, h, m, s, ms)`);
    }
  }
  if (o.interval !== undefined && durationMs(o.interval) === 0) report('interval "0" would never scrape: give a positive duration such as "30s"');
  if (o.interval !== undefined && o.scrapeTimeout !== undefined && durationMs(o.scrapeTimeout) > durationMs(o.interval)) {
    report(`scrapeTimeout "${o.scrapeTimeout}" is longer than interval "${o.interval}", which Prometheus refuses: make it at most the interval`);
  }
  if (o.port !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(o.port)) {
    report(`port ${show(o.port)} is not a container port name: give the name of the agent's port, e.g. "metrics"`);
  }
  if (o.path !== undefined && !o.path.startsWith('/')) report(`path ${show(o.path)} must start with "/", e.g. "/metrics"`);
  checkLabels(where, 'labels', o.labels);
  if (o.allowFrom !== undefined) {
    checkLabels(where, 'allowFrom.namespaceLabels', o.allowFrom.namespaceLabels);
    checkLabels(where, 'allowFrom.podLabels', o.allowFrom.podLabels);
    if (Object.keys(o.allowFrom.namespaceLabels ?? {}).length === 0 && Object.keys(o.allowFrom.podLabels ?? {}).length === 0) {
      report('allowFrom selects no one in particular: give namespaceLabels, podLabels or both, e.g. { namespaceLabels: { \'kubernetes.io/metadata.name\': \'monitoring\' } }');
    }
  }
  return o;
}

function checkLabels(where: string, field: string, labels: { [key: string]: string } | undefined): void {
  for (const [k, v] of Object.entries(labels ?? {})) {
    checkLabelKey(undefined, `${where}: ${field}`, k);
    checkLabelValue(undefined, `${where}: ${field}.${k}`, v);
  }
}
