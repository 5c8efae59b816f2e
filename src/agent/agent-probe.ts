import { Duration } from 'cdk8s';
import { HTTP_PROBE_OPTIONS, PROBE_OPTIONS } from './_shapes';
import { checkOptions, factoryReport } from './_validate';
import { guard, list, number, required, string } from '../review/_guard';

/**
 * Timing options for a probe.
 */
export interface AgentProbeOptions {
  /**
   * Delay before the first probe.
   *
   * @default - no delay
   */
  readonly initialDelay?: Duration;

  /**
   * How often to probe.
   *
   * @default Duration.seconds(10)
   */
  readonly period?: Duration;

  /**
   * How long one probe may take.
   *
   * @default Duration.seconds(1)
   */
  readonly timeout?: Duration;

  /**
   * Consecutive failures before the probe counts as failed.
   *
   * @default 3
   */
  readonly failureThreshold?: number;
}

/**
 * Options for an HTTP probe.
 */
export interface AgentHttpProbeOptions extends AgentProbeOptions {
  /** the container port to probe. */
  readonly port: number;

  /**
   * `HTTP` or `HTTPS`.
   *
   * @default 'HTTP'
   */
  readonly scheme?: string;
}

/**
 * A liveness, readiness or startup probe of an agent container.
 *
 * @see https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/
 */
export class AgentProbe {
  /** probes an HTTP path on a container port; 2xx and 3xx count as healthy. */
  public static httpGet(path: string, options: AgentHttpProbeOptions): AgentProbe {
    // the factories check types and shapes; the container checks the values (a path, a port in range) with its path.
    guard(factoryReport('AgentProbe.httpGet'), 'path', path, required(string("'/healthz'"), "give the path to probe, e.g. AgentProbe.httpGet('/healthz', { port: 8080 })"));
    if (options === undefined || options === null) factoryReport('AgentProbe.httpGet')(`options are required: give at least the port, e.g. AgentProbe.httpGet(${JSON.stringify(path)}, { port: 8080 })`);
    const o = checkOptions<AgentHttpProbeOptions>('AgentProbe.httpGet', options, HTTP_PROBE_OPTIONS);
    guard(factoryReport('AgentProbe.httpGet'), 'port', o.port, required(number('8080'), `give the container port, e.g. AgentProbe.httpGet(${JSON.stringify(path)}, { port: 8080 })`));
    return new AgentProbe({ httpGet: { path, port: o.port, scheme: o.scheme } }, o);
  }

  /** probes that a TCP port accepts connections. */
  public static tcpSocket(port: number, options: AgentProbeOptions = {}): AgentProbe {
    guard(factoryReport('AgentProbe.tcpSocket'), 'port', port, required(number('8080'), 'give the container port, e.g. AgentProbe.tcpSocket(8080)'));
    return new AgentProbe({ tcpSocket: { port } }, checkOptions<AgentProbeOptions>('AgentProbe.tcpSocket', options, PROBE_OPTIONS));
  }

  /** runs a command in the container; exit code 0 counts as healthy. */
  public static exec(command: string[], options: AgentProbeOptions = {}): AgentProbe {
    const checked = guard<string[]>(factoryReport('AgentProbe.exec'), 'command', command,
      required(list(string(), 'a list of strings', "['cat', '/tmp/healthy']"), "give the command, e.g. AgentProbe.exec(['cat', '/tmp/healthy'])"));
    return new AgentProbe({ exec: { command: checked } }, checkOptions<AgentProbeOptions>('AgentProbe.exec', options, PROBE_OPTIONS));
  }

  /** the probe handler as Kubernetes JSON. */
  public readonly handler: any;
  /** the timing options. */
  public readonly options: AgentProbeOptions;

  private constructor(handler: any, options: AgentProbeOptions) {
    this.handler = handler;
    this.options = options;
  }
}
