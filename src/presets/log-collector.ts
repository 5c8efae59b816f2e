import { Chart, Size, Yaml } from 'cdk8s';
import { Construct } from 'constructs';
import { AgentProbe, HostMount, NodeAgent, NodeAgentProps, NodeAgentSettings, Toleration } from '../agent';
import { declareMetricsEndpoint } from '../agent/_metrics';
import { kplus } from '../agent/_plus';
import { checkPortNumber, presetFail, requireConfigFile, withPresetDefaults, withoutKeys } from '../agent/_preset';
import { checkPresetProps, instance, presetProps, Shape } from '../agent/_props-schema';
import { show } from '../agent/_validate';

/** the port of Fluent Bit's HTTP server (metrics and health). */
const HTTP_PORT = 2020;

/** the host directory where Fluent Bit keeps its state: tail positions and the filesystem buffer. */
const STATE_DIR = '/var/lib/fluent-bit';

/**
 * Where a `LogCollector` sends the logs it collects: one Fluent Bit output section.
 *
 * @example
 * LogOutput.loki('http://loki-gateway.logging.svc:80');
 * LogOutput.forward('fluentd.logging.svc', 24224);
 * LogOutput.custom({ name: 'es', match: 'kube.*', host: 'elasticsearch.logging.svc', port: '9200' });
 *
 * @see https://docs.fluentbit.io/manual/pipeline/outputs
 */
export class LogOutput {
  /**
   * Prints every record to the collector's own standard output, as JSON lines: handy to try the
   * pipeline out (`kubectl logs`), not meant for production. The collector never tails its own logs,
   * so this does not loop.
   */
  public static stdout(): LogOutput {
    return new LogOutput({ name: 'stdout', match: '*', format: 'json_lines' });
  }

  /**
   * Sends records with the Forward protocol, e.g. to a Fluentd or Fluent Bit aggregator.
   *
   * @param host the aggregator's host name, e.g. `fluentd.logging.svc`
   * @param port the aggregator's Forward port
   */
  public static forward(host: string, port: number = 24224): LogOutput {
    if (typeof host !== 'string' || host.trim() === '' || /\s/.test(host)) {
      throw new Error(`LogOutput.forward: host ${typeof host === 'string' ? `"${host}"` : show(host)} is not a host name: give the aggregator's address, e.g. "fluentd.logging.svc"`);
    }
    checkPortNumber('LogOutput.forward', port);
    return new LogOutput({ name: 'forward', match: '*', host, port: String(port) });
  }

  /**
   * Pushes records to Grafana Loki, labelled with `job=fluent-bit` and the node name, plus the
   * namespace and container from the Kubernetes metadata.
   *
   * @param url the Loki base URL or push URL, e.g. `http://loki-gateway.logging.svc` or
   * `https://logs.example.com/loki/api/v1/push`; the push path defaults to `/loki/api/v1/push`
   */
  public static loki(url: string): LogOutput {
    if (typeof url !== 'string') throw new Error(`LogOutput.loki: the URL must be a string such as "http://loki-gateway.logging.svc", got ${show(url)}`);
    const notAUrl = `LogOutput.loki: "${url}" is not a URL: give Loki's address, e.g. "http://loki-gateway.logging.svc"`;
    if (url.trim() === '' || /\s/.test(url)) throw new Error(notAUrl);
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
      // Without "scheme://", new URL() reads "host:port" as the scheme "host:" and the port as a path.
      throw new Error(`LogOutput.loki: "${url}" has no scheme: write the URL with http:// or https://, e.g. LogOutput.loki('http://${url}')`);
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(notAUrl);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error(`LogOutput.loki: "${url}" must use http:// or https://, got "${parsed.protocol}//"`);
    }
    if (parsed.username || parsed.password || parsed.search || parsed.hash) {
      throw new Error(`LogOutput.loki: "${url}" carries credentials, a query or a fragment: give only scheme, host, port and path, and use LogOutput.custom() for authentication (http_user, http_passwd)`);
    }
    const tls = parsed.protocol === 'https:';
    const port = parsed.port !== '' ? parsed.port : tls ? '443' : '80';
    const uri = parsed.pathname === '/' ? '/loki/api/v1/push' : parsed.pathname;
    return new LogOutput({
      name: 'loki',
      match: '*',
      host: parsed.hostname,
      port,
      uri,
      tls: tls ? 'on' : 'off',
      labels: 'job=fluent-bit, node=${NODE_NAME}',
      label_keys: '$kubernetes[\'namespace_name\'],$kubernetes[\'container_name\']',
      line_format: 'json',
    });
  }

  /**
   * Any Fluent Bit output, given as the properties of its section (YAML configuration keys, values
   * as strings). `name` is required; `match` defaults to `*`.
   *
   * @param properties e.g. `{ name: 'http', host: 'collector.example.com', port: '443', tls: 'on' }`
   */
  public static custom(properties: { [key: string]: string }): LogOutput {
    if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) {
      throw new Error(`LogOutput.custom: the properties must be an object of strings, e.g. { name: 'http', host: 'collector.example.com' }, got ${show(properties)}`);
    }
    if (typeof properties.name !== 'string' || properties.name.trim() === '') {
      throw new Error('LogOutput.custom: the section needs a "name", the output plugin, e.g. { name: \'http\', host: \'collector.example.com\' }');
    }
    for (const [key, value] of Object.entries(properties)) {
      if (typeof value !== 'string') {
        throw new Error(`LogOutput.custom: property "${key}" must be a string, got ${show(value)}`);
      }
    }
    const { name, ...rest } = properties;
    return new LogOutput({ name, match: '*', ...rest });
  }

  /** the properties of the output section, as rendered into the configuration. */
  public readonly properties: { [key: string]: string };

  private constructor(properties: { [key: string]: string }) {
    this.properties = properties;
  }
}

/**
 * Properties for `LogCollector`.
 *
 * Every `NodeAgent` property can be set. A list prop keeps what Fluent Bit needs and adds your items
 * after it; an item of yours that conflicts with one of those is refused, naming it:
 * - `hostMounts`: `/var/log` (read-only) and `/var/lib/fluent-bit` (read-write), which the
 *   configuration tails and keeps its database and buffer in, are kept;
 * - `args`: `--config=<configMountPath>/fluent-bit.yaml` is kept (give your own configuration with
 *   `configFiles`);
 * - `ports`: `http` 2020 (Service, probes, metrics) is kept;
 * - `clusterPermissions`: get/list/watch on pods and namespaces (the `kubernetes` filter) is kept;
 * - `tolerations` and `command` replace the preset's (where it runs and which program starts are yours);
 * - the other lists have no default: yours are used.
 * `configFiles` replaces the rendered configuration and must hold `fluent-bit.yaml` (start from
 * `LogCollector.renderConfig(output)`), or it is refused. Every other prop you set replaces the preset's
 * default. The `add*` methods add to the lists after construction, e.g. `collector.addHostMount(...)`.
 */
export interface LogCollectorProps extends NodeAgentSettings {
  /**
   * The Fluent Bit image.
   *
   * @default LogCollector.DEFAULT_IMAGE
   */
  readonly image?: string;

  /**
   * Where the logs go. Ignored when you set `configFiles` yourself.
   *
   * @default LogOutput.stdout()
   */
  readonly output?: LogOutput;

}

/**
 * A log collector: Fluent Bit on every node, tailing container logs, enriching them with Kubernetes
 * metadata and sending them to a pluggable output.
 *
 * Defaults (each set through the matching `NodeAgent` property; the list props keep what the preset needs, see its props):
 * - image `cr.fluentbit.io/fluent/fluent-bit`, pinned (`LogCollector.DEFAULT_IMAGE`);
 * - configuration `fluent-bit.yaml` in a ConfigMap mounted at `/fluent-bit/etc/conf`: tail input on
 *   `/var/log/containers/*.log` with the `cri` multiline parser, a tail position database and a
 *   filesystem buffer in `/var/lib/fluent-bit`, the collector's own logs excluded, the `kubernetes`
 *   filter for metadata, an HTTP server on port 2020 with health checks, and `output`;
 * - host mounts: `/var/log` **read-only** (the charts mount it writable, though only the tail database
 *   needs to write, and that lives elsewhere) and `/var/lib/fluent-bit` read-write, created if missing,
 *   the one place the collector keeps state;
 * - runs as **root with every capability dropped**, a read-only root filesystem and no privilege
 *   escalation: container log files under `/var/log/pods` are root-owned and not world-readable, and
 *   Kubernetes gives a non-root process no (ambient) capability such as `DAC_READ_SEARCH` that would
 *   let it read them (fluent/helm-charts#330); root without capabilities reads them as their owner;
 * - RBAC: get/list/watch on pods and namespaces only (for the `kubernetes` filter);
 * - port `http` 2020 behind a ClusterIP Service (metrics at `/api/v2/metrics/prometheus`, the defaults of
 *   `addMetricsMonitor`);
 *   liveness `GET /`, readiness `GET /api/v1/health`;
 * - requests 100m CPU and 128Mi memory, memory limit 256Mi;
 * - tolerates the control-plane taint, so control-plane nodes' logs are collected too.
 *
 * @see https://docs.fluentbit.io/manual/installation/kubernetes
 */
export class LogCollector extends NodeAgent {
  /** the Fluent Bit image used unless `image` is set. */
  public static readonly DEFAULT_IMAGE = 'cr.fluentbit.io/fluent/fluent-bit:5.1.1';

  /**
   * Renders the default Fluent Bit configuration (`fluent-bit.yaml`) for an output, e.g. to start a
   * custom `configFiles` from it.
   *
   * @param output where the logs go
   * @param excludePath a glob of log files not to tail, typically the collector's own
   */
  public static renderConfig(output: LogOutput, excludePath?: string): string {
    if (!(output instanceof LogOutput)) throw new Error(`LogCollector.renderConfig: output must be ${OUTPUT.expected}, got ${show(output)}`);
    if (excludePath !== undefined && excludePath !== null && typeof excludePath !== 'string') {
      throw new Error(`LogCollector.renderConfig: excludePath must be a glob such as "/var/log/containers/fluent-bit-*.log", got ${show(excludePath)}`);
    }
    const tail: { [key: string]: string } = {
      'name': 'tail',
      'tag': 'kube.*',
      'path': '/var/log/containers/*.log',
      'multiline.parser': 'cri',
      'db': `${STATE_DIR}/tail.db`,
      'db.locking': 'true',
      'mem_buf_limit': '5MB',
      'skip_long_lines': 'on',
      'refresh_interval': '10',
      'storage.type': 'filesystem',
    };
    if (excludePath) tail.exclude_path = excludePath;
    const config = {
      service: {
        'flush': '1',
        'log_level': 'info',
        'http_server': 'on',
        'http_listen': '0.0.0.0',
        'http_port': String(HTTP_PORT),
        'health_check': 'on',
        'storage.path': `${STATE_DIR}/buffer`,
        'storage.sync': 'normal',
        'storage.backlog.mem_limit': '5M',
      },
      pipeline: {
        inputs: [tail],
        filters: [{
          'name': 'kubernetes',
          'match': 'kube.*',
          'merge_log': 'on',
          'keep_log': 'off',
          'k8s-logging.parser': 'on',
          'k8s-logging.exclude': 'on',
        }],
        outputs: [{ ...output.properties }],
      },
    };
    // cdk8s' own YAML writer: the library then loads no YAML package of its own at require time.
    return Yaml.stringify(config);
  }

  private static resolve(scope: Construct, id: string, props: LogCollectorProps): NodeAgentProps {
    props = checkPresetProps<LogCollectorProps>((m) => presetFail(scope, id, m), props, LOG_COLLECTOR_PROPS);
    const output = props.output ?? LogOutput.stdout();
    const name = props.name ?? id;
    const namespace = props.namespace ?? Chart.of(scope).namespace ?? name;
    const configMountPath = props.configMountPath ?? '/fluent-bit/etc/conf';
    requireConfigFile((m) => presetFail(scope, id, m), props.configFiles, {
      file: 'fluent-bit.yaml', runsWith: `Fluent Bit runs with --config=${configMountPath}/fluent-bit.yaml`, start: 'LogCollector.renderConfig(output)',
    });
    const essentials = {
      args: {
        items: [`--config=${configMountPath}/fluent-bit.yaml`],
        why: 'it points Fluent Bit at its configuration file (set configFiles to give your own fluent-bit.yaml)',
      },
      hostMounts: {
        items: [
          HostMount.readOnly('/var/log', { reason: 'tails container logs (/var/log/containers links to /var/log/pods)' }),
          HostMount.readWrite(STATE_DIR, 'keeps the tail position database and the filesystem buffer, so a restart neither re-sends nor loses logs', {
            type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
          }),
        ],
        why: `its configuration tails /var/log/containers and keeps its tail database and buffer in ${STATE_DIR}`,
      },
      ports: { items: [{ name: 'http', containerPort: HTTP_PORT }], why: `its Service, probes and metrics use Fluent Bit's HTTP server on ${HTTP_PORT}` },
      clusterPermissions: {
        items: [{ resources: ['namespaces', 'pods'], verbs: ['get', 'list', 'watch'] }],
        why: 'the kubernetes filter of its configuration reads the pods and namespaces it enriches records with',
      },
    };
    const defaults: NodeAgentProps = {
      image: LogCollector.DEFAULT_IMAGE,
      command: ['/fluent-bit/bin/fluent-bit'],
      args: essentials.args.items,
      configFiles: { 'fluent-bit.yaml': LogCollector.renderConfig(output, `/var/log/containers/${name}-*_${namespace}_*.log`) },
      configMountPath,
      runAsRoot: { reason: 'reads container logs under /var/log/pods, which are root-owned and not world-readable; every capability is dropped' },
      hostMounts: essentials.hostMounts.items,
      ports: essentials.ports.items,
      service: { ports: ['http'] },
      liveness: AgentProbe.httpGet('/', { port: HTTP_PORT }),
      readiness: AgentProbe.httpGet('/api/v1/health', { port: HTTP_PORT }),
      resources: { cpuRequest: kplus().Cpu.millis(100), memoryRequest: Size.mebibytes(128), memoryLimit: Size.mebibytes(256) },
      clusterPermissions: essentials.clusterPermissions.items,
      tolerations: [Toleration.controlPlane()],
    };
    return withPresetDefaults(defaults, withoutKeys(props, ['output']), { preset: 'LogCollector', fail: (m) => presetFail(scope, id, m), lists: essentials });
  }

  /** where the logs go (meaningful unless `configFiles` was set). */
  public readonly output: LogOutput;

  constructor(scope: Construct, id: string, props: LogCollectorProps = {}) {
    super(scope, id, LogCollector.resolve(scope, id, props));
    declareMetricsEndpoint(this, { port: 'http', path: '/api/v2/metrics/prometheus' });
    this.output = props?.output ?? LogOutput.stdout();
  }
}

const OUTPUT: Shape = instance((v) => v instanceof LogOutput, 'created with LogOutput.stdout(), forward(), loki() or custom()');
const LOG_COLLECTOR_PROPS: Shape = presetProps('LogCollectorProps', { output: OUTPUT });
