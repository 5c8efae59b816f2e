// Elastic's Beats on every node, shipping to an Elasticsearch that requires authentication:
// - Filebeat harvests every container's log and sends it to Elasticsearch over TLS, as the user whose name and
//   password are the keys `username` and `password` of the Secret elasticsearch-credentials: the manifests carry
//   references (valueFrom.secretKeyRef), the kubelet sets ELASTICSEARCH_USERNAME and ELASTICSEARCH_PASSWORD when the
//   container starts, and filebeat.yml reads them as ${ELASTICSEARCH_USERNAME} and ${ELASTICSEARCH_PASSWORD};
// - the CA that signed Elasticsearch's certificate comes from the Secret elasticsearch-ca, mounted read-only;
// - Auditbeat sends the kernel's audit events and the file integrity of the node's binaries and /etc to the same
//   cluster, authenticated with an API key from the Secret elasticsearch-api-key.
// The Secrets (in the namespace elastic) are created outside the app, by whoever holds the credentials.
import { App, Chart } from 'cdk8s';
import { AgentVolume, Auditbeat, ElasticOutput, EnvValue, Filebeat, SecurityCheck } from 'cdk8s-node-agents';
import { Construct } from 'constructs';

/** where Elasticsearch's CA certificate is mounted in the beats. */
const CA_DIR = '/etc/elasticsearch-ca';
const HOSTS = ['https://elasticsearch-es-http.elastic.svc:9200'];

/** Filebeat and Auditbeat in the namespace elastic. */
export class ElasticChart extends Chart {
  /** the log shipper. */
  public readonly logs: Filebeat;
  /** the auditor. */
  public readonly audit: Auditbeat;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const ca = AgentVolume.fromSecret('elasticsearch-ca', CA_DIR, { items: [{ key: 'ca.crt', path: 'ca.crt' }], defaultMode: 0o444 });
    this.logs = new Filebeat(this, 'filebeat', {
      namespace: 'elastic',
      output: ElasticOutput.elasticsearch(HOSTS, {
        username: EnvValue.fromSecretKey('elasticsearch-credentials', 'username'),
        password: EnvValue.fromSecretKey('elasticsearch-credentials', 'password'),
        certificateAuthorities: [`${CA_DIR}/ca.crt`],
      }),
      volumes: [ca],
    });
    this.audit = new Auditbeat(this, 'auditbeat', {
      namespace: 'elastic',
      output: ElasticOutput.elasticsearch(HOSTS, {
        apiKey: EnvValue.fromSecretKey('elasticsearch-api-key', 'api-key'),
        certificateAuthorities: [`${CA_DIR}/ca.crt`],
      }),
      volumes: [ca],
    });
  }
}

/** builds the app: one chart, the security review. */
export function buildElasticApp(app: App): void {
  new ElasticChart(app, 'elastic');
  SecurityCheck.apply(app);
}

if (require.main === module) {
  const app = new App();
  buildElasticApp(app);
  app.synth();
}
