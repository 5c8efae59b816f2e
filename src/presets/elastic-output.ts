import { EnvValue } from '../agent';
import { instance, list, string, struct } from '../agent/_props-schema';
import { checkOptions, show } from '../agent/_validate';

/** the environment variables the rendered configurations read credentials from (Elastic's own manifests' names). */
const USERNAME_VAR = 'ELASTICSEARCH_USERNAME';
const PASSWORD_VAR = 'ELASTICSEARCH_PASSWORD';
const API_KEY_VAR = 'ELASTICSEARCH_API_KEY';

/**
 * Options for `ElasticOutput.elasticsearch()`.
 *
 * Credentials come from keys of Secrets (`EnvValue.fromSecretKey`), never from literals: the manifest carries
 * the reference, the kubelet sets the variable when the container starts, and the configuration reads it as
 * `${ELASTICSEARCH_PASSWORD}` (Beats expand environment variables in their configuration).
 */
export interface ElasticsearchOutputOptions {
  /**
   * The user name, from a Secret or ConfigMap key (variable `ELASTICSEARCH_USERNAME`). Give it with `password`.
   *
   * @default - no basic authentication
   */
  readonly username?: EnvValue;

  /**
   * The password, from a Secret key (variable `ELASTICSEARCH_PASSWORD`). Give it with `username`.
   *
   * @default - no basic authentication
   */
  readonly password?: EnvValue;

  /**
   * An Elasticsearch API key as `id:api_key`, from a Secret key (variable `ELASTICSEARCH_API_KEY`); instead of
   * `username` and `password`.
   *
   * @default - no API key
   */
  readonly apiKey?: EnvValue;

  /**
   * Paths, in the container, of the PEM certificate authorities that sign the hosts' certificates (mount them
   * with `volumes: [AgentVolume.fromSecret(...)]` or `fromConfigMap(...)`), for `https://` hosts.
   *
   * @default - the image's system trust store
   */
  readonly certificateAuthorities?: string[];
}

/**
 * Where a `Filebeat` or an `Auditbeat` sends its events: one Beats `output.*` section.
 *
 * @example
 * ElasticOutput.elasticsearch(['https://elasticsearch.logging.svc:9200'], {
 *   username: EnvValue.fromSecretKey('elasticsearch-credentials', 'username'),
 *   password: EnvValue.fromSecretKey('elasticsearch-credentials', 'password'),
 * });
 * ElasticOutput.logstash(['logstash.logging.svc:5044']);
 * ElasticOutput.console();
 *
 * @see https://www.elastic.co/guide/en/beats/filebeat/7.17/configuring-output.html
 */
export class ElasticOutput {
  /**
   * Sends events to Elasticsearch (`output.elasticsearch`), authenticated with a user name and password or an API
   * key read from Secret keys.
   *
   * @param hosts the nodes' URLs or `host:port`, e.g. `['https://elasticsearch.logging.svc:9200']`
   */
  public static elasticsearch(hosts: string[], options: ElasticsearchOutputOptions = {}): ElasticOutput {
    const where = 'ElasticOutput.elasticsearch';
    checkHosts(where, hosts, 'https://elasticsearch.logging.svc:9200');
    const o = checkOptions<ElasticsearchOutputOptions>(where, options, ELASTICSEARCH_OPTIONS);
    if ((o.username === undefined) !== (o.password === undefined)) {
      throw new Error(`${where}: give username and password together (basic authentication needs both), got only the ${o.username ? 'username' : 'password'}`);
    }
    if (o.apiKey !== undefined && o.password !== undefined) {
      throw new Error(`${where}: give either an apiKey or a username and password, not both: Elasticsearch authenticates a request with one of them`);
    }
    for (const [field, value] of [['password', o.password], ['apiKey', o.apiKey]] as const) {
      if (value !== undefined && value.kind !== 'secret') {
        const from = value.kind === 'configMap' ? `the ConfigMap ${value.name}` : `the pod field ${value.name}`;
        const fix = value.kind === 'configMap' ? `EnvValue.fromSecretKey('${value.name}', '${value.key}')` : "EnvValue.fromSecretKey('<secret>', '<key>')";
        throw new Error(`${where}: the ${field} comes from ${from}; a credential belongs in a Secret: ${fix}`);
      }
    }
    for (const ca of o.certificateAuthorities ?? []) {
      if (!ca.startsWith('/')) throw new Error(`${where}: certificateAuthorities: "${ca}" must be an absolute path in the container, where a volume mounts the CA`);
    }
    const section: { [key: string]: unknown } = { hosts: [...hosts] };
    const env: { [name: string]: EnvValue } = {};
    if (o.username !== undefined && o.password !== undefined) {
      section.username = `\${${USERNAME_VAR}}`;
      section.password = `\${${PASSWORD_VAR}}`;
      env[USERNAME_VAR] = o.username;
      env[PASSWORD_VAR] = o.password;
    }
    if (o.apiKey !== undefined) {
      section.api_key = `\${${API_KEY_VAR}}`;
      env[API_KEY_VAR] = o.apiKey;
    }
    if (o.certificateAuthorities !== undefined && o.certificateAuthorities.length > 0) {
      section['ssl.certificate_authorities'] = [...o.certificateAuthorities];
    }
    return new ElasticOutput('elasticsearch', [...hosts], section, env);
  }

  /**
   * Sends events to Logstash's Beats input (`output.logstash`), e.g. for a Logstash pipeline that authenticates to
   * Elasticsearch itself.
   *
   * @param hosts `host:port` of each Logstash, e.g. `['logstash.logging.svc:5044']`
   */
  public static logstash(hosts: string[]): ElasticOutput {
    const where = 'ElasticOutput.logstash';
    checkHosts(where, hosts, 'logstash.logging.svc:5044');
    for (const host of hosts) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) {
        throw new Error(`${where}: "${host}" is a URL; the Beats protocol takes host:port, e.g. "${host.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')}"`);
      }
    }
    return new ElasticOutput('logstash', [...hosts], { hosts: [...hosts] }, {});
  }

  /**
   * Writes every event to the beat's standard output as one JSON line (`output.console`): handy to try the
   * configuration out (`kubectl logs`), not meant for production. Filebeat never harvests its own log, so this
   * does not loop.
   */
  public static console(): ElasticOutput {
    return new ElasticOutput('console', [], { codec: { json: { pretty: false } } }, {});
  }

  /** the output type: `elasticsearch`, `logstash` or `console`. */
  public readonly kind: string;
  /** the hosts events are sent to (none for the console). */
  public readonly hosts: string[];
  private readonly section: { [key: string]: unknown };
  private readonly env: { [name: string]: EnvValue };

  private constructor(kind: string, hosts: string[], section: { [key: string]: unknown }, env: { [name: string]: EnvValue }) {
    this.kind = kind;
    this.hosts = hosts;
    this.section = section;
    this.env = env;
  }

  /**
   * The configuration's `output.<kind>` entry.
   * @internal
   */
  public _config(): { [key: string]: unknown } {
    return { [`output.${this.kind}`]: JSON.parse(JSON.stringify(this.section)) };
  }

  /**
   * The environment variables the section reads, each from its key.
   * @internal
   */
  public _env(): { [name: string]: EnvValue } {
    return { ...this.env };
  }
}

const ELASTICSEARCH_OPTIONS = struct('ElasticsearchOutputOptions', {
  username: instance((v) => v instanceof EnvValue, "created with EnvValue.fromSecretKey('elasticsearch-credentials', 'username')"),
  password: instance((v) => v instanceof EnvValue, "created with EnvValue.fromSecretKey('elasticsearch-credentials', 'password')"),
  apiKey: instance((v) => v instanceof EnvValue, "created with EnvValue.fromSecretKey('elasticsearch-credentials', 'api-key')"),
  certificateAuthorities: list(string(), 'a list of absolute paths', "['/etc/elasticsearch-ca/ca.crt']"),
}, { example: "{ username: EnvValue.fromSecretKey('es', 'username'), password: EnvValue.fromSecretKey('es', 'password') }" });

/** a non-empty list of hosts without whitespace, none carrying credentials (they belong in a Secret). */
function checkHosts(where: string, hosts: unknown, example: string): asserts hosts is string[] {
  if (!Array.isArray(hosts) || hosts.length === 0) {
    throw new Error(`${where}: hosts must be a non-empty list of addresses, e.g. ['${example}'], got ${show(hosts)}`);
  }
  for (const host of hosts) {
    if (typeof host !== 'string' || host.trim() === '' || /\s/.test(host)) {
      throw new Error(`${where}: host ${show(host)} is not an address: give e.g. '${example}'`);
    }
    if (/^([a-z][a-z0-9+.-]*:\/\/)?[^/@]*@/i.test(host)) {
      throw new Error(`${where}: host "${host.replace(/\/\/[^/@]*@|^[^/@]*@/, (m) => (m.startsWith('//') ? '//***@' : '***@'))}" carries credentials: ` +
        'give them from a Secret with the username and password (or apiKey) options, never in the address');
    }
  }
}
