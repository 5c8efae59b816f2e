/**
 * Internal: the Prometheus operator monitor (and the NetworkPolicy of the metrics port) of one agent, rendered with the
 * constructs `cdk8s import` generated from the pinned operator CRDs (`_prometheus-operator.generated.ts`). Not exported.
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { PatchCheckedApiObject } from './_checked-api-object';
import type * as operator from './_prometheus-operator.generated';
import { fail, hasOwn } from './_validate';
import { AgentPort } from './container-options';
import { AgentMetricsObjects, MetricsMonitor, MetricsMonitorKind } from './metrics-monitor';

/** where an agent serves its metrics by default: a preset that serves metrics declares it. */
export interface MetricsEndpoint {
  readonly port: string;
  readonly path: string;
}

const ENDPOINTS = new WeakMap<Construct, MetricsEndpoint>();

/**
 * The generated constructs, loaded on the first monitor: the module is ~430 KB of JavaScript (13 ms to load), which an
 * app without a monitor should not pay for at require time.
 */
function generated(): typeof operator {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./_prometheus-operator.generated');
}

/** records the metrics port and path of a preset's agent, the defaults of `addMetricsMonitor`. */
export function declareMetricsEndpoint(agent: Construct, endpoint: MetricsEndpoint): void {
  ENDPOINTS.set(agent, endpoint);
}

/** what the monitor reads of its agent. */
export interface MetricsTarget {
  readonly name: string;
  readonly namespace: string;
  readonly selectorLabels: { [key: string]: string };
  /** the labels of the agent's objects. */
  readonly labels: { [key: string]: string };
  readonly ports: AgentPort[];
  /** the port names the agent's Service exposes, when it has one. */
  readonly servicePorts?: string[];
  readonly hostNetwork: boolean;
  /** orders an object after the agent's Namespace, when the agent creates it. */
  readonly inNamespace: (o: ApiObject) => void;
}

export function addMetrics(agent: Construct, target: MetricsTarget, monitor: MetricsMonitor): AgentMetricsObjects {
  const where = 'addMetricsMonitor';
  if (agent.node.tryFindChild('MetricsMonitor') !== undefined) fail(agent, `${where}: the agent already has a metrics monitor: give all its settings in one call`);
  const o = monitor.options;
  const declared = ENDPOINTS.get(agent);
  const portName = o.port ?? declared?.port;
  if (portName === undefined) {
    fail(agent, `${where}: this agent declares no metrics endpoint: give the name of the port that serves its metrics, e.g. MetricsMonitor.${monitorFactory(monitor)}({ port: 'metrics' })`);
  }
  const port = target.ports.find((p) => p.name === portName);
  if (port === undefined) {
    const names = target.ports.map((p) => p.name).filter((n) => n !== undefined);
    fail(agent, `${where}: the agent has no container port named "${portName}" (${names.length > 0 ? `its ports: ${names.join(', ')}` : 'it declares no named port'}): add it to ports, or give the port that serves the metrics`);
  }
  const isService = monitor.kind === MetricsMonitorKind.SERVICE_MONITOR;
  if (isService && !(target.servicePorts ?? []).includes(portName)) {
    fail(agent, `${where}: a ServiceMonitor scrapes the agent's Service, which ${target.servicePorts === undefined ? 'the agent does not have' : `does not expose port "${portName}"`}: ` +
      `set service: { ports: ['${portName}'] }, or use MetricsMonitor.podMonitor()`);
  }
  if (o.allowFrom !== undefined && target.hostNetwork) {
    fail(agent, `${where}: allowFrom would render a NetworkPolicy for pods on the host network, which NetworkPolicies do not apply to ` +
      '(Kubernetes leaves it undefined and most network plugins ignore them): protect the node\'s port with a host firewall instead, and remove allowFrom');
  }
  const labels = { ...target.labels };
  for (const [k, v] of Object.entries(o.labels ?? {})) {
    if (hasOwn(target.labels, k) && target.labels[k] !== v) fail(agent, `${where}: labels.${k} is set by the agent ("${target.labels[k]}"): remove it from labels`);
    labels[k] = v;
  }
  const metadata = { name: target.name, namespace: target.namespace, labels };
  const selector = { matchLabels: { ...target.selectorLabels } };
  const namespaceSelector = { matchNames: [target.namespace] };
  const endpoint = { port: portName, path: o.path ?? declared?.path ?? '/metrics', interval: o.interval, scrapeTimeout: o.scrapeTimeout };
  const { PodMonitor, ServiceMonitor } = generated();
  const object: ApiObject = isService
    ? new ServiceMonitor(agent, 'MetricsMonitor', { metadata, spec: { selector, namespaceSelector, endpoints: [endpoint] } })
    : new PodMonitor(agent, 'MetricsMonitor', { metadata, spec: { selector, namespaceSelector, podMetricsEndpoints: [endpoint] } });
  target.inNamespace(object);
  if (o.allowFrom === undefined) return { monitor: object };

  const peer: any = {};
  if (Object.keys(o.allowFrom.namespaceLabels ?? {}).length > 0) peer.namespaceSelector = { matchLabels: { ...o.allowFrom.namespaceLabels } };
  if (Object.keys(o.allowFrom.podLabels ?? {}).length > 0) peer.podSelector = { matchLabels: { ...o.allowFrom.podLabels } };
  const networkPolicy = new PatchCheckedApiObject(agent, 'MetricsNetworkPolicy', {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: `${target.name}-metrics`, namespace: target.namespace, labels: { ...target.labels } },
    spec: {
      podSelector: { matchLabels: { ...target.selectorLabels } },
      policyTypes: ['Ingress'],
      ingress: [{ from: [peer], ports: [{ protocol: port.protocol ?? 'TCP', port: port.containerPort }] }],
    },
  });
  target.inNamespace(networkPolicy);
  return { monitor: object, networkPolicy };
}

function monitorFactory(monitor: MetricsMonitor): string {
  return monitor.kind === MetricsMonitorKind.SERVICE_MONITOR ? 'serviceMonitor' : 'podMonitor';
}
