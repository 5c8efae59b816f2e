import { Duration } from 'cdk8s';

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
    return new AgentProbe({ httpGet: { path, port: options.port, scheme: options.scheme } }, options);
  }

  /** probes that a TCP port accepts connections. */
  public static tcpSocket(port: number, options: AgentProbeOptions = {}): AgentProbe {
    return new AgentProbe({ tcpSocket: { port } }, options);
  }

  /** runs a command in the container; exit code 0 counts as healthy. */
  public static exec(command: string[], options: AgentProbeOptions = {}): AgentProbe {
    return new AgentProbe({ exec: { command } }, options);
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
