// The Fluentd and DatadogAgent presets on the real API server: every object of each variant (each output, each feature)
// is accepted by server-side apply with fieldValidation=Strict, in file order, with no warning but Pod Security's warn
// level, and the DaemonSet the server stores is the one the preset rendered (its env references, the Secret keys and
// the downward API's status.hostIP among them, kept as sent, the server adding only its defaults). Fluentd's
// ServiceMonitor needs the operator's CRDs.
import { Chart, Testing } from 'cdk8s';
import { applyAll, resetCluster } from './cluster';
import { Kube } from './kube';
import { withPrometheusCrds } from './prometheus-crds';
import { DatadogAgent, EnvValue, Fluentd, FluentdOutput, MetricsMonitor, PodSecurity, PodSecurityLevel } from '../../src';
import { synthValid } from '../util/k8s-schema';

const kube = Kube.fromKubeconfig();
withPrometheusCrds(kube);

const apiKey = EnvValue.fromSecretKey('datadog-secret', 'api-key');
const SERVICE_MONITOR = 'monitoring.coreos.com/v1/ServiceMonitor';

const CASES: Array<[string, (c: Chart) => void]> = [
  ['Fluentd, stdout, with a ServiceMonitor and its NetworkPolicy', (c) => new Fluentd(c, 'fluentd').addMetricsMonitor(MetricsMonitor.serviceMonitor({
    interval: '30s', allowFrom: { namespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
  }))],
  ['Fluentd, Elasticsearch with credentials from a Secret', (c) => new Fluentd(c, 'fluentd', {
    output: FluentdOutput.elasticsearch('elasticsearch.logging.svc', {
      scheme: 'https', user: EnvValue.fromSecretKey('es-credentials', 'username'), password: EnvValue.fromSecretKey('es-credentials', 'password'),
    }),
  })],
  ['Fluentd, forward to an aggregator', (c) => new Fluentd(c, 'fluentd', { output: FluentdOutput.forward('fluentd-aggregator.logging.svc') })],
  ['DatadogAgent, defaults', (c) => new DatadogAgent(c, 'datadog', { apiKey })],
  ['DatadogAgent, every feature', (c) => new DatadogAgent(c, 'datadog', {
    apiKey,
    site: 'datadoghq.eu',
    clusterName: 'production',
    dogstatsdSocket: true,
    processCollection: true,
    containerRuntimeSockets: ['/run/containerd/containerd.sock'],
  })],
];

describe.each(CASES)('%s', (_name, build) => {
  const c = new Chart(Testing.app(), 'vendor');
  build(c);
  // the unit tests' schema does not know the ServiceMonitor: the API server checks it here, against the operator's CRD
  const objects = synthValid(c, { customResources: c.node.findAll().some((x: any) => x.kind === 'ServiceMonitor') ? [SERVICE_MONITOR] : [] });

  beforeAll(() => resetCluster(kube), 120_000);

  test('every object is accepted (server-side apply, strict), with no warning but the Pod Security warn level\'s; the stored DaemonSet is the rendered one', async () => {
    const responses = await applyAll(kube, objects, true);
    const namespace = objects.find((o) => o.kind === 'Namespace');
    const ds = objects.find((o) => o.kind === 'DaemonSet');
    for (const { obj, status, warnings } of responses) {
      expect({ object: `${obj.kind} ${obj.metadata.name}`, status: status === 200 ? 201 : status }).toEqual({ object: `${obj.kind} ${obj.metadata.name}`, status: 201 });
      const expected: string[] = [];
      if (obj.kind === 'DaemonSet') {
        const level = namespace.metadata.labels['pod-security.kubernetes.io/warn'] as PodSecurityLevel;
        const version = namespace.metadata.labels['pod-security.kubernetes.io/warn-version'] ?? 'latest';
        const violations = PodSecurity.violationsAt(obj.spec.template.spec, level, { version, annotations: obj.spec.template.metadata?.annotations });
        if (violations.length > 0) expected.push(`would violate PodSecurity "${level}:${version}": ${violations.map((v) => v.message).join(', ')}`);
      }
      expect({ object: `${obj.kind} ${obj.metadata.name}`, warnings }).toEqual({ object: `${obj.kind} ${obj.metadata.name}`, warnings: expected });
    }
    const live = await kube.get(`/apis/apps/v1/namespaces/${ds.metadata.namespace}/daemonsets/${ds.metadata.name}`);
    const sent = ds.spec.template.spec;
    const stored = live.spec.template.spec;
    for (const [i, container] of [...sent.initContainers ?? [], ...sent.containers].entries()) {
      const back = [...stored.initContainers ?? [], ...stored.containers][i];
      // as sent, plus what the API server defaults (fieldRef.apiVersion v1)
      expect(back).toMatchObject({
        name: container.name, env: container.env, volumeMounts: container.volumeMounts, securityContext: container.securityContext,
      });
    }
    expect(stored.hostPID).toEqual(sent.hostPID);
  }, 120_000);
});
