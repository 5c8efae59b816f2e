// Agents for a cluster that pulls every image through a private mirror and keeps its credentials in Secrets:
// - every image of every agent (presets, init containers, sidecars) is pulled through mirror.example.com, with the
//   mirror's pull secret, the tags and digests as pinned (RegistryMirror); so is every other object of the app that
//   holds a pod spec: here a cdk8s-plus Deployment of the Prometheus blackbox exporter;
// - Fluent Bit ships to a Loki behind basic authentication: the user name and password come from keys of the Secret
//   loki-credentials as environment variables (valueFrom.secretKeyRef), which the Fluent Bit configuration reads as
//   ${LOKI_USERNAME} and ${LOKI_PASSWORD}; the manifests carry the references, never the values;
// - the CA that signed Loki's certificate comes from a Secret too, mounted read-only.
// The Secrets (mirror-credentials of type kubernetes.io/dockerconfigjson in each namespace, loki-credentials and
// loki-ca in logging) are created outside the app, by whoever holds the credentials.
import { App, Chart } from 'cdk8s';
import {
  AgentVolume, EnvValue, LogCollector, LogOutput, NodeMonitor, RegistryMirror, SecurityAgent, SecurityCheck,
} from 'cdk8s-node-agents';
import { Capability, Deployment, Probe, SeccompProfileType, ServiceAccount } from 'cdk8s-plus-28';
import { Construct } from 'constructs';

/** where Loki's CA certificate is mounted in the collector. */
const LOKI_CA_DIR = '/etc/loki-ca';

/** the Prometheus blackbox exporter, as its project publishes it. */
export const BLACKBOX_EXPORTER_IMAGE = 'quay.io/prometheus/blackbox-exporter:v0.27.0';

/** the log collector, the node monitor and the security agent, one namespace each, and the blackbox exporter next to the monitor. */
export class PrivateRegistryChart extends Chart {
  /** the log collector, shipping to the authenticated Loki. */
  public readonly logs: LogCollector;
  /** the node monitor. */
  public readonly metrics: NodeMonitor;
  /** the security agent. */
  public readonly security: SecurityAgent;
  /** a workload that is not an agent: its image is pulled through the mirror too. */
  public readonly probes: Deployment;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const loki = LogOutput.loki('https://logs.example.com/loki/api/v1/push');
    this.logs = new LogCollector(this, 'fluent-bit', {
      namespace: 'logging',
      // Fluent Bit replaces ${VAR} in its configuration with the environment variable's value
      output: LogOutput.custom({
        ...loki.properties,
        'http_user': '${LOKI_USERNAME}',
        'http_passwd': '${LOKI_PASSWORD}',
        'tls.verify': 'on',
        'tls.ca_file': `${LOKI_CA_DIR}/ca.crt`,
      }),
      envValueFrom: {
        LOKI_USERNAME: EnvValue.fromSecretKey('loki-credentials', 'username'),
        LOKI_PASSWORD: EnvValue.fromSecretKey('loki-credentials', 'password'),
      },
      volumes: [AgentVolume.fromSecret('loki-ca', LOKI_CA_DIR, { items: [{ key: 'ca.crt', path: 'ca.crt' }], defaultMode: 0o444 })],
    });
    this.metrics = new NodeMonitor(this, 'node-exporter', { namespace: 'monitoring' });
    this.security = new SecurityAgent(this, 'falco', { namespace: 'falco' });
    this.probes = new Deployment(this, 'blackbox-exporter', {
      metadata: { namespace: 'monitoring' },
      // its own identity, without a token: the exporter calls no API
      serviceAccount: new ServiceAccount(this, 'blackbox-exporter-identity', { metadata: { namespace: 'monitoring' }, automountToken: false }),
      containers: [{
        name: 'blackbox-exporter',
        image: BLACKBOX_EXPORTER_IMAGE,
        portNumber: 9115,
        // the image's user is "nobody", a name the kubelet cannot check against runAsNonRoot: give its UID
        // and the restricted Pod Security level the monitoring namespace enforces: no capability, the runtime's seccomp profile
        securityContext: { user: 65534, group: 65534, capabilities: { drop: [Capability.ALL] }, seccompProfile: { type: SeccompProfileType.RUNTIME_DEFAULT } },
        readiness: Probe.fromHttpGet('/-/healthy', { port: 9115 }),
        liveness: Probe.fromHttpGet('/-/healthy', { port: 9115 }),
      }],
    });
  }
}

/** builds the app: the mirror for every image, one chart, the security review. */
export function buildPrivateRegistryApp(app: App): void {
  RegistryMirror.of(app, 'mirror.example.com', { pullSecrets: ['mirror-credentials'] });
  new PrivateRegistryChart(app, 'private-registry');
  SecurityCheck.apply(app);
}

if (require.main === module) {
  const app = new App();
  buildPrivateRegistryApp(app);
  app.synth();
}
