import { Size } from 'cdk8s';
import { Construct } from 'constructs';
import { AgentProbe, HostMount, NodeAgent, NodeAgentProps, NodeAgentSettings, Toleration } from '../agent';
import { declareMetricsEndpoint } from '../agent/_metrics';
import { kplus } from '../agent/_plus';
import { acknowledgeDefaults, presetFail, withPresetDefaults } from '../agent/_preset';
import { checkPresetProps, presetProps } from '../agent/_props-schema';

/** node-exporter's metrics port. */
const METRICS_PORT = 9100;

/**
 * Properties for `NodeMonitor`.
 *
 * Every `NodeAgent` property can be set. A list prop keeps what node-exporter needs and adds your items
 * after it; an item of yours that conflicts with one of those is refused, naming it:
 * - `hostMounts`: `/proc`, `/sys` and `/` at `/host/proc`, `/host/sys` and `/host/root` are kept;
 * - `args`: `--path.procfs`, `--path.sysfs`, `--path.rootfs` (pointing at those mounts) and
 *   `--web.listen-address=:9100` are kept; `--path.udev.data` and the filesystem collector's
 *   `--collector.filesystem.mount-points-exclude` stay unless your args set the same flag;
 * - `ports`: `metrics` 9100 (hostPort, Service, probes) is kept;
 * - `tolerations` and `command` replace the preset's (where it runs and which program starts are yours);
 * - the other lists have no default: yours are used.
 * Every other prop you set replaces the preset's default. The `add*` methods add to the lists after
 * construction, e.g. `monitor.addToleration(...)`.
 */
export interface NodeMonitorProps extends NodeAgentSettings {
  /**
   * The node-exporter image.
   *
   * @default NodeMonitor.DEFAULT_IMAGE
   */
  readonly image?: string;
}

/**
 * A node monitor: Prometheus node-exporter on every node, exposing the node's hardware and kernel
 * metrics on port 9100.
 *
 * Defaults (each set through the matching `NodeAgent` property; the list props keep what the preset needs, see its props):
 * - image `quay.io/prometheus/node-exporter`, pinned (`NodeMonitor.DEFAULT_IMAGE`);
 * - the host network (the node's own interfaces are what it reports, and it is scraped on the node's
 *   address) and the host PID namespace (process and pressure metrics), each with its reason; the
 *   metrics port is therefore bound on the node, which the preset declares as a `hostPort` with its
 *   reason rather than leaving it to the API server's defaulting;
 * - `/proc`, `/sys` and `/` mounted **read-only** at `/host/proc`, `/host/sys` and `/host/root`, the
 *   root with `HostToContainer` propagation so filesystems mounted later are seen; args
 *   `--path.procfs=/host/proc --path.sysfs=/host/sys --path.rootfs=/host/root` plus the udev path and
 *   the chart's exclusion of pod and kubelet mount points;
 * - runs as `nobody` (UID/GID 65534), non-root, read-only root filesystem, every capability dropped,
 *   no privilege escalation, seccomp `RuntimeDefault` (the chart sets only the read-only root);
 * - no ServiceAccount token: node-exporter never calls the API server;
 * - tolerates every `NoSchedule` taint but no `NoExecute` taint (`Toleration.allNoSchedule()`, as the
 *   chart): it starts on dedicated and control-plane nodes yet leaves nodes being drained;
 * - port `metrics` 9100 behind a ClusterIP Service annotated `prometheus.io/scrape: "true"`;
 *   liveness and readiness `GET /`; `addMetricsMonitor(MetricsMonitor.serviceMonitor())` scrapes it at `/metrics`
 *   (no NetworkPolicy: on the host network none would apply, so `allowFrom` is refused);
 * - requests 50m CPU and 64Mi memory, memory limit 128Mi;
 * - priority class `system-cluster-critical` (as kube-prometheus): on the host network with its port
 *   bound on the node it cannot run anywhere else, so it must not stay Pending on a full node, yet it
 *   ranks below the node-critical CNI and CSI agents;
 * - security review: the finding that `/` contains the container runtime sockets is acknowledged,
 *   with the reason (read-only, and as UID 65534 without capabilities it cannot connect to them),
 *   while `hostMounts`, `runAsRoot` and `runAsUser` keep their defaults.
 *
 * @see https://github.com/prometheus/node_exporter#docker
 */
export class NodeMonitor extends NodeAgent {
  /** the node-exporter image used unless `image` is set. */
  public static readonly DEFAULT_IMAGE = 'quay.io/prometheus/node-exporter:v1.12.1';

  private static resolve(scope: Construct, id: string, props: NodeMonitorProps): NodeAgentProps {
    props = checkPresetProps<NodeMonitorProps>((m) => presetFail(scope, id, m), props, NODE_MONITOR_PROPS);
    const paths = ['--path.procfs=/host/proc', '--path.sysfs=/host/sys', '--path.rootfs=/host/root'];
    const listen = `--web.listen-address=:${METRICS_PORT}`;
    const udev = '--path.udev.data=/host/root/run/udev/data';
    const exclude = '--collector.filesystem.mount-points-exclude=^/(dev|proc|sys|var/lib/docker/.+|var/lib/kubelet/.+)($|/)';
    const metricsPort = {
      name: 'metrics',
      containerPort: METRICS_PORT,
      hostPort: { port: METRICS_PORT, reason: 'on the host network the metrics port is the node\'s port: Prometheus scrapes each node at its own address' },
    };
    const essentials = {
      args: {
        items: [...paths, listen],
        why: `node-exporter reads the host's /proc, /sys and / where the preset mounts them, and serves the port ${METRICS_PORT} its probes, Service and hostPort use`,
        overridable: [udev, exclude],
      },
      hostMounts: {
        items: [
          HostMount.readOnly('/proc', { mountPath: '/host/proc', reason: 'reads kernel, CPU, memory and network statistics' }),
          HostMount.readOnly('/sys', { mountPath: '/host/sys', reason: 'reads hardware, power and cgroup statistics' }),
          HostMount.readOnly('/', {
            mountPath: '/host/root',
            propagation: kplus().MountPropagation.HOST_TO_CONTAINER,
            reason: 'reports the size and usage of the node\'s filesystems, including ones mounted after it started',
          }),
        ],
        why: 'they are the node\'s /proc, /sys and / that node-exporter reports on (its --path.* args point at them)',
      },
      ports: { items: [metricsPort], why: `its Service, probes and scrapes use the metrics port ${METRICS_PORT}` },
    };
    const defaults: NodeAgentProps = {
      image: NodeMonitor.DEFAULT_IMAGE,
      args: [...paths, udev, listen, exclude],
      hostNetwork: { reason: 'reports the node\'s own network interfaces and is scraped on the node\'s address' },
      hostPID: { reason: 'reports process counts and pressure of the whole node, not of its own pod' },
      hostMounts: essentials.hostMounts.items,
      runAsUser: 65534,
      runAsGroup: 65534,
      automountServiceAccountToken: false,
      tolerations: [Toleration.allNoSchedule()],
      ports: essentials.ports.items,
      service: { ports: ['metrics'], annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(METRICS_PORT) } },
      liveness: AgentProbe.httpGet('/', { port: METRICS_PORT }),
      readiness: AgentProbe.httpGet('/', { port: METRICS_PORT }),
      resources: { cpuRequest: kplus().Cpu.millis(50), memoryRequest: Size.mebibytes(64), memoryLimit: Size.mebibytes(128) },
      priorityClassName: 'system-cluster-critical',
    };
    return withPresetDefaults(defaults, props, { preset: 'NodeMonitor', fail: (m) => presetFail(scope, id, m), lists: essentials });
  }

  constructor(scope: Construct, id: string, props: NodeMonitorProps = {}) {
    super(scope, id, NodeMonitor.resolve(scope, id, props));
    declareMetricsEndpoint(this, { port: 'metrics', path: '/metrics' });
    acknowledgeDefaults(this, props, [{
      rule: 'NA-RUNTIME-SOCKET',
      reason: '/ is mounted read-only only to measure the node\'s filesystems; node-exporter runs as nobody (65534) without capabilities, so it cannot connect to the root-only runtime sockets below it',
      unless: ['hostMounts', 'runAsRoot', 'runAsUser'],
    }, {
      rule: 'NA-HOSTPATH-SENSITIVE',
      reason: '/proc and / are mounted read-only to report the node\'s statistics and filesystem usage; node-exporter runs as nobody (65534) without ' +
        'capabilities, so it reads neither other processes\' environments nor root-only files',
      unless: ['hostMounts', 'runAsRoot', 'runAsUser'],
    }]);
  }
}

const NODE_MONITOR_PROPS = presetProps('NodeMonitorProps', {});
