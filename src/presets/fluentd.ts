import { Chart, Size } from 'cdk8s';
import { Construct } from 'constructs';
import { AgentProbe, EnvValue, HostMount, NodeAgent, NodeAgentProps, NodeAgentSettings, Toleration } from '../agent';
import { declareMetricsEndpoint } from '../agent/_metrics';
import { kplus } from '../agent/_plus';
import { checkPortNumber, presetFail, requireConfigFile, withPresetDefaults, withoutKeys } from '../agent/_preset';
import { checkPresetProps, instance, presetProps, Shape } from '../agent/_props-schema';
import { show } from '../agent/_validate';

/** the port of the image's prometheus input plugin (fluent-plugin-prometheus, in every image of the project). */
const METRICS_PORT = 24231;

/** the host directory where the preset keeps Fluentd's tail positions. */
const STATE_DIR = '/var/lib/fluentd';

/** the project's image, one per output plugin set; v1.19.3 of Fluentd, build 1.1 of the image. */
const IMAGE_REPOSITORY = 'docker.io/fluent/fluentd-kubernetes-daemonset';
const IMAGE_RELEASE = { fluentd: 'v1.19.3', build: '1.1' };

/** the image's configuration directory: its entrypoint reads `$FLUENTD_CONF` relative to it. */
const IMAGE_CONFIG_DIR = '/fluentd/etc';

/** the environment variables the Elasticsearch output reads its credentials from. */
const ES_USER = 'FLUENT_ELASTICSEARCH_USER';
const ES_PASSWORD = 'FLUENT_ELASTICSEARCH_PASSWORD';

/**
 * Options for `FluentdOutput.elasticsearch()`.
 */
export interface FluentdElasticsearchOptions {
  /**
   * Elasticsearch's HTTP port.
   *
   * @default 9200
   */
  readonly port?: number;

  /**
   * `https` to connect with TLS (the server's certificate is verified).
   *
   * @default 'http'
   */
  readonly scheme?: string;

  /**
   * The user, read from a Secret key when the container starts.
   *
   * @default - no authentication
   */
  readonly user?: EnvValue;

  /**
   * The password, read from a Secret key when the container starts (never a literal in the manifest).
   *
   * @default - no authentication
   */
  readonly password?: EnvValue;
}

/**
 * Where a `Fluentd` sends the logs it collects: its `<match **>` section, and the project's image that has
 * the output's plugin.
 *
 * @example
 * FluentdOutput.elasticsearch('elasticsearch.logging.svc', {
 *   scheme: 'https',
 *   user: EnvValue.fromSecretKey('elasticsearch-credentials', 'username'),
 *   password: EnvValue.fromSecretKey('elasticsearch-credentials', 'password'),
 * });
 * FluentdOutput.forward('fluentd-aggregator.logging.svc');
 * FluentdOutput.stdout();
 *
 * @see https://github.com/fluent/fluentd-kubernetes-daemonset
 */
export class FluentdOutput {
  /**
   * Prints every record to Fluentd's standard output: to try the pipeline (`kubectl logs`), not for
   * production. Fluentd's own container logs are excluded from the tail, so this does not loop.
   */
  public static stdout(): FluentdOutput {
    return new FluentdOutput('forward', 'stdout', ['@type stdout'], {});
  }

  /**
   * Sends records with the Forward protocol to an aggregator (Fluentd or Fluent Bit), with the
   * project's `debian-forward` image.
   *
   * @param host the aggregator's host name, e.g. `fluentd-aggregator.logging.svc`
   * @param port the aggregator's Forward port
   */
  public static forward(host: string, port: number = 24224): FluentdOutput {
    checkHost('FluentdOutput.forward', host, 'fluentd-aggregator.logging.svc');
    checkPortNumber('FluentdOutput.forward', port);
    return new FluentdOutput('forward', 'forward', [
      '@type forward',
      '<server>',
      `  host ${host}`,
      `  port ${port}`,
      '</server>',
    ], {});
  }

  /**
   * Indexes records in Elasticsearch (logstash-style daily indices, as the project's image does), with the
   * project's `debian-elasticsearch8` image. The credentials are read from Secret keys into
   * `FLUENT_ELASTICSEARCH_USER` and `FLUENT_ELASTICSEARCH_PASSWORD`, which the configuration reads.
   *
   * @param host Elasticsearch's host name, e.g. `elasticsearch.logging.svc`
   */
  public static elasticsearch(host: string, options: FluentdElasticsearchOptions = {}): FluentdOutput {
    const where = 'FluentdOutput.elasticsearch';
    checkHost(where, host, 'elasticsearch.logging.svc');
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw new Error(`${where}: options must be an object such as { scheme: 'https' }, got ${show(options)}`);
    }
    const known = ['port', 'scheme', 'user', 'password'];
    for (const key of Object.keys(options)) {
      if (!known.includes(key)) throw new Error(`${where}: FluentdElasticsearchOptions has no property "${key}" (it has ${known.join(', ')})`);
    }
    const port = options.port ?? 9200;
    checkPortNumber(where, port);
    const scheme = options.scheme ?? 'http';
    if (scheme !== 'http' && scheme !== 'https') throw new Error(`${where}: scheme must be "http" or "https", got ${show(scheme)}`);
    const credentials: { [name: string]: EnvValue } = {};
    for (const [name, value, env] of [['user', options.user, ES_USER], ['password', options.password, ES_PASSWORD]] as const) {
      if (value === undefined) continue;
      if (!(value instanceof EnvValue) || value.kind !== 'secret') {
        throw new Error(`${where}: ${name} must be a Secret key, e.g. EnvValue.fromSecretKey('elasticsearch-credentials', '${name}'), got ${show(value)}: ` +
          'a credential belongs in a Secret, not in the manifest or a ConfigMap');
      }
      credentials[env] = value;
    }
    if ((options.user === undefined) !== (options.password === undefined)) {
      throw new Error(`${where}: give both user and password (basic authentication), or neither`);
    }
    return new FluentdOutput('elasticsearch8', 'elasticsearch', [
      '@type elasticsearch',
      `host ${host}`,
      `port ${port}`,
      `scheme ${scheme}`,
      'ssl_verify true',
      'ssl_version TLSv1_2',
      ...(options.user !== undefined ? [`user "#{ENV['${ES_USER}']}"`, `password "#{ENV['${ES_PASSWORD}']}"`] : []),
      'include_tag_key true',
      'logstash_format true',
      'logstash_prefix logstash',
      'type_name fluentd',
      'reconnect_on_error true',
      'reload_on_failure true',
      'reload_connections false',
      'sniffer_class_name Fluent::Plugin::ElasticsearchSimpleSniffer',
      'request_timeout 5s',
      '<buffer>',
      '  flush_thread_count 8',
      '  flush_interval 5s',
      '  chunk_limit_size 2M',
      '  queue_limit_length 32',
      '  retry_max_interval 30',
      '  retry_forever true',
      '</buffer>',
    ], credentials);
  }

  /** the output plugin, e.g. `elasticsearch`. */
  public readonly plugin: string;
  /** the project's image that has the output's plugin, pinned. */
  public readonly image: string;
  /** the environment variables the output reads its credentials from, by name. */
  public readonly credentials: { [name: string]: EnvValue };
  /** the lines of the `<match **>` section. */
  private readonly lines: string[];

  private constructor(variant: string, plugin: string, lines: string[], credentials: { [name: string]: EnvValue }) {
    this.plugin = plugin;
    this.image = `${IMAGE_REPOSITORY}:${IMAGE_RELEASE.fluentd}-debian-${variant}-${IMAGE_RELEASE.build}`;
    this.lines = lines;
    this.credentials = credentials;
  }

  /**
   * The `<match **>` section, as rendered into the configuration.
   * @internal
   */
  public _section(): string {
    return ['<match **>', `  @id out_${this.plugin}`, ...this.lines.map((l) => `  ${l}`), '</match>'].join('\n');
  }
}

/**
 * Properties for `Fluentd`.
 *
 * Every `NodeAgent` property can be set. A list prop keeps what Fluentd needs and adds your items after
 * it; an item of yours that conflicts with one of those is refused, naming it:
 * - `hostMounts`: `/var/log` (read-only) and `/var/lib/fluentd` (read-write), which the configuration
 *   tails and keeps its positions in, are kept;
 * - `args` is refused unless you set `command` too: the image's entrypoint passes none to Fluentd (give
 *   options in env `FLUENTD_OPT`);
 * - `ports`: `metrics` 24231 (Service, probes, metrics) is kept;
 * - `scratchDirs`: `/tmp` (Fluentd's supervisor socket) is kept;
 * - `clusterPermissions`: get/list/watch on pods and namespaces (the `kubernetes_metadata` filter) is kept;
 * - `tolerations` and `command` replace the preset's;
 * - the other lists have no default: yours are used.
 * The map `envValueFrom` keeps the output's credentials (`FLUENT_ELASTICSEARCH_USER`,
 * `FLUENT_ELASTICSEARCH_PASSWORD`), and `env` keeps `FLUENTD_CONF` and `K8S_NODE_NAME`, yours added.
 * `configMountPath` must be under `/fluentd/etc`, where the entrypoint looks. `configFiles` replaces the rendered configuration and must
 * hold `fluent.conf` (start from `Fluentd.renderConfig(output)`), or it is refused.
 */
export interface FluentdProps extends NodeAgentSettings {
  /**
   * The Fluentd image. The project builds one image per set of output plugins: the default is the one
   * that has the output's plugin.
   *
   * @default - `output.image`, e.g. `docker.io/fluent/fluentd-kubernetes-daemonset:v1.19.3-debian-forward-1.1`
   */
  readonly image?: string;

  /**
   * Where the logs go. Ignored when you set `configFiles` yourself (but for the image and the credentials).
   *
   * @default FluentdOutput.stdout()
   */
  readonly output?: FluentdOutput;
}

/**
 * Fluentd on every node, as the fluent/fluentd-kubernetes-daemonset project runs it: tailing the
 * containers' logs, enriching them with Kubernetes metadata, sending them to a typed output.
 *
 * Defaults (the README's "Differences from the vendors' manifests" compares them with the project's
 * `fluentd-daemonset-elasticsearch-rbac.yaml`):
 * - the project's image for the output, pinned to a release (`v1.19.3-debian-<plugin>-1.1`, never the
 *   rolling `v1-debian-<plugin>`);
 * - the image's entrypoint (`tini -- /fluentd/entrypoint.sh`), pointed with `FLUENTD_CONF` at
 *   `fluent.conf` in a ConfigMap at `/fluentd/etc/conf`: the tail input on `/var/log/containers/*.log`
 *   with the `cri` parser (containerd and CRI-O write that format, the image's default `json` parser is
 *   Docker's), its positions in `/var/lib/fluentd`, Fluentd's own logs excluded, the
 *   `kubernetes_metadata` filter, the prometheus inputs on port 24231, and the output;
 * - host mounts: `/var/log` **read-only** (the project mounts it writable for its position files) and
 *   `/var/lib/fluentd` read-write, created if missing;
 * - runs as **root with every capability dropped** (as the image, whose entrypoint runs Fluentd as root),
 *   a read-only root filesystem and a writable `/tmp`: container log files are root-owned and not
 *   world-readable, and a non-root process gets no capability that would let it read them;
 * - RBAC: get/list/watch on pods and namespaces (the project's ClusterRole);
 * - port `metrics` 24231 behind a ClusterIP Service, `GET /metrics` for probes and `addMetricsMonitor`;
 * - requests 100m CPU and 200Mi memory, memory limit 200Mi (the project's);
 * - tolerates the control-plane taint (the project's tolerations).
 *
 * @see https://github.com/fluent/fluentd-kubernetes-daemonset
 */
export class Fluentd extends NodeAgent {
  /** the image for `FluentdOutput.stdout()` and `forward()`. */
  public static readonly FORWARD_IMAGE = FluentdOutput.stdout().image;

  /**
   * Renders the preset's configuration (`fluent.conf`) for an output, e.g. to start a custom `configFiles`
   * from it.
   *
   * @param output where the logs go
   * @param excludePath a glob of log files not to tail, typically Fluentd's own
   */
  public static renderConfig(output: FluentdOutput, excludePath?: string): string {
    if (!(output instanceof FluentdOutput)) throw new Error(`Fluentd.renderConfig: output must be ${OUTPUT.expected}, got ${show(output)}`);
    if (excludePath !== undefined && excludePath !== null && (typeof excludePath !== 'string' || /["\n]/.test(excludePath))) {
      throw new Error(`Fluentd.renderConfig: excludePath must be a glob such as "/var/log/containers/fluentd-*.log", got ${show(excludePath)}`);
    }
    return [
      '# Fluentd\'s own events (fluent.*) go nowhere',
      '<label @FLUENT_LOG>',
      '  <match fluent.**>',
      '    @type null',
      '    @id ignore_fluent_logs',
      '  </match>',
      '</label>',
      '',
      `# Prometheus metrics on 0.0.0.0:${METRICS_PORT}/metrics`,
      '<source>',
      '  @type prometheus',
      '  @id in_prometheus',
      '  bind 0.0.0.0',
      `  port ${METRICS_PORT}`,
      '  metrics_path /metrics',
      '</source>',
      '<source>',
      '  @type prometheus_output_monitor',
      '  @id in_prometheus_output_monitor',
      '</source>',
      '',
      '<source>',
      '  @type tail',
      '  @id in_tail_container_logs',
      '  path /var/log/containers/*.log',
      ...(excludePath ? [`  exclude_path ["${excludePath}"]`] : []),
      `  pos_file ${STATE_DIR}/fluentd-containers.log.pos`,
      '  tag kubernetes.*',
      '  read_from_head true',
      '  <parse>',
      '    @type cri',
      '  </parse>',
      '</source>',
      '',
      '<filter kubernetes.**>',
      '  @type kubernetes_metadata',
      '  @id filter_kube_metadata',
      '</filter>',
      '',
      output._section(),
      '',
    ].join('\n');
  }

  private static resolve(scope: Construct, id: string, props: FluentdProps): NodeAgentProps {
    props = checkPresetProps<FluentdProps>((m) => presetFail(scope, id, m), props, FLUENTD_PROPS);
    const output = props.output ?? FluentdOutput.stdout();
    const name = props.name ?? id;
    const namespace = props.namespace ?? Chart.of(scope).namespace ?? name;
    const configMountPath = (props.configMountPath ?? '/fluentd/etc/conf').replace(/\/+$/, '');
    if (!configMountPath.startsWith(`${IMAGE_CONFIG_DIR}/`) || configMountPath.split('/').includes('..')) {
      presetFail(scope, id, `configMountPath: "${configMountPath}" is not under ${IMAGE_CONFIG_DIR}: the image's entrypoint runs fluentd -c ` +
        `${IMAGE_CONFIG_DIR}/$FLUENTD_CONF, so the configuration must be mounted below it, e.g. "${IMAGE_CONFIG_DIR}/conf"`);
    }
    if (props.args !== undefined && props.args.length > 0 && props.command === undefined) {
      presetFail(scope, id, 'args: the image\'s entrypoint (tini -- /fluentd/entrypoint.sh) passes no argument to fluentd, so yours would be ' +
        'dropped: give Fluentd\'s options in env FLUENTD_OPT, e.g. env: { FLUENTD_OPT: \'--log-rotate-age 5\' } (or set command too, to run another program)');
    }
    requireConfigFile((m) => presetFail(scope, id, m), props.configFiles, {
      file: 'fluent.conf', runsWith: `Fluentd runs with ${configMountPath}/fluent.conf`, start: 'Fluentd.renderConfig(output)',
    });
    // the image's entrypoint runs fluentd -c /fluentd/etc/$FLUENTD_CONF (and, in the Elasticsearch image, requires the simple sniffer)
    const env = { FLUENTD_CONF: `${configMountPath.slice(IMAGE_CONFIG_DIR.length + 1)}/fluent.conf`, K8S_NODE_NAME: '$(NODE_NAME)' };
    const essentials = {
      hostMounts: {
        items: [
          HostMount.readOnly('/var/log', { reason: 'tails container logs (/var/log/containers links to /var/log/pods)' }),
          HostMount.readWrite(STATE_DIR, 'keeps the tail positions, so a restarted Fluentd neither re-sends nor skips logs', {
            type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
          }),
        ],
        why: `its configuration tails /var/log/containers and keeps its positions in ${STATE_DIR}`,
      },
      ports: { items: [{ name: 'metrics', containerPort: METRICS_PORT }], why: `its Service, probes and metrics use the prometheus input on ${METRICS_PORT}` },
      scratchDirs: { items: ['/tmp'], why: 'Fluentd\'s supervisor creates its socket there, on a read-only root filesystem' },
      clusterPermissions: {
        items: [{ resources: ['namespaces', 'pods'], verbs: ['get', 'list', 'watch'] }],
        why: 'the kubernetes_metadata filter of its configuration reads the pods and namespaces it enriches records with',
      },
    };
    const defaults: NodeAgentProps = {
      image: output.image,
      env,
      envValueFrom: output.credentials,
      configFiles: { 'fluent.conf': Fluentd.renderConfig(output, `/var/log/containers/${name}-*_${namespace}_*.log`) },
      configMountPath,
      runAsRoot: { reason: 'reads container logs under /var/log/pods, which are root-owned and not world-readable; every capability is dropped' },
      hostMounts: essentials.hostMounts.items,
      scratchDirs: essentials.scratchDirs.items,
      ports: essentials.ports.items,
      service: { ports: ['metrics'] },
      liveness: AgentProbe.httpGet('/metrics', { port: METRICS_PORT }),
      readiness: AgentProbe.httpGet('/metrics', { port: METRICS_PORT }),
      resources: { cpuRequest: kplus().Cpu.millis(100), memoryRequest: Size.mebibytes(200), memoryLimit: Size.mebibytes(200) },
      clusterPermissions: essentials.clusterPermissions.items,
      tolerations: [Toleration.controlPlane()],
    };
    return withPresetDefaults(defaults, withoutKeys(props, ['output']), {
      preset: 'Fluentd',
      fail: (m) => presetFail(scope, id, m),
      lists: essentials,
      maps: {
        envValueFrom: { entries: output.credentials, why: `the ${output.plugin} output reads its credentials from them` },
        env: { entries: env, why: 'the image\'s entrypoint reads the configuration named by FLUENTD_CONF, and the kubernetes_metadata filter watches only the pods of its node (K8S_NODE_NAME)' },
      },
    });
  }

  /** where the logs go (meaningful unless `configFiles` was set). */
  public readonly output: FluentdOutput;

  constructor(scope: Construct, id: string, props: FluentdProps = {}) {
    super(scope, id, Fluentd.resolve(scope, id, props));
    declareMetricsEndpoint(this, { port: 'metrics', path: '/metrics' });
    this.output = props?.output ?? FluentdOutput.stdout();
  }
}

const OUTPUT: Shape = instance((v) => v instanceof FluentdOutput, 'created with FluentdOutput.stdout(), forward() or elasticsearch()');
const FLUENTD_PROPS: Shape = presetProps('FluentdProps', { output: OUTPUT });

function checkHost(where: string, host: string, example: string): void {
  if (typeof host !== 'string' || !/^[A-Za-z0-9]([A-Za-z0-9.:\[\]-]*[A-Za-z0-9\]])?$/.test(host)) {
    throw new Error(`${where}: host ${show(host)} is not a host name: give the server's address, e.g. "${example}"`);
  }
}
