import { Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { AgentContainerProps, AgentProbe, AgentVolume, EnvValue, HostMount, NodeAgent, NodeAgentProps, NodeAgentSettings } from '../agent';
import { kplus } from '../agent/_plus';
import { PresetAcknowledgement, acknowledgeDefaults, presetFail, withPresetDefaults, withoutKeys } from '../agent/_preset';
import { boolean, checkPresetProps, instance, presetProps, Shape, string, strings } from '../agent/_props-schema';
import { show } from '../agent/_validate';

/** the agent's health server (DD_HEALTH_PORT): /live, /ready, /startup. */
const HEALTH_PORT = 5555;

/** DogStatsD's UDP port. */
const DOGSTATSD_PORT = 8125;

/** the host directory of the DogStatsD socket (the chart's `dsdsocket` volume). */
const SOCKET_DIR = '/var/run/datadog';

/**
 * the kubelet endpoints the kubelet check reads, with fine-grained kubelet authorization (Kubernetes 1.33+): the
 * chart's `datadog.kubelet.fineGrainedAuthorization` list but `nodes/logs`, a subresource the kubelet never checks
 * (it authorizes /logs as `nodes/log`), instead of the chart's default `nodes/proxy`.
 */
const KUBELET_RESOURCES = ['nodes/metrics', 'nodes/spec', 'nodes/stats', 'nodes/pods', 'nodes/healthz', 'nodes/configz'];

/** the emptyDir the init containers fill with the agent's configuration (the chart's `config` volume). */
const CONFIG_VOLUME = 'datadog-config';

/**
 * Properties for `DatadogAgent`.
 *
 * Every `NodeAgent` property can be set. A list prop keeps what the agent needs and adds your items after
 * it; an item of yours that conflicts with one of those is refused, naming it:
 * - `hostMounts`: `/proc`, `/sys/fs/cgroup` and `/etc/os-release` (read-only, under `/host`), and those of
 *   the features you enable, are kept;
 * - `initContainers`: `init-volume` and `init-config`, which prepare `/etc/datadog-agent`, are kept;
 * - `volumes`: the configuration directory and the agent's writable directories are kept;
 * - `ports`: `dogstatsdport` 8125/UDP (the node-local Service) is kept;
 * - `tolerations` and `command` replace the preset's;
 * - the other lists have no default: yours are used.
 * The maps keep theirs too: `envValueFrom` (`DD_API_KEY`, `DD_KUBERNETES_KUBELET_HOST`) and `env` (the
 * settings the preset derives from its props, or that its probes, port and volumes rely on: `KUBERNETES`,
 * `DD_SITE`, `DD_CLUSTER_NAME`, `DD_HEALTH_PORT`, `DD_AUTH_TOKEN_FILE_PATH`, `DD_DOGSTATSD_PORT`,
 * `DD_DOGSTATSD_SOCKET`, `DD_CRI_SOCKET_PATH`, `DD_PROCESS_CONFIG_PROCESS_COLLECTION_ENABLED`); yours are added,
 * another value for one of theirs is refused (set the preset's own props instead). The other `env` defaults
 * (`DD_LOG_LEVEL`, `DD_APM_ENABLED`, `DD_LOGS_ENABLED`, `DD_DOGSTATSD_NON_LOCAL_TRAFFIC`,
 * `DD_KUBELET_USE_API_SERVER`) yours replace.
 */
export interface DatadogAgentProps extends NodeAgentSettings {
  /**
   * The agent image (the init containers use it too).
   *
   * @default DatadogAgent.DEFAULT_IMAGE
   */
  readonly image?: string;

  /**
   * The Datadog API key: a key of a Secret, never a literal.
   */
  readonly apiKey: EnvValue;

  /**
   * The Datadog site the agent reports to, e.g. `datadoghq.eu`.
   *
   * @default 'datadoghq.com'
   */
  readonly site?: string;

  /**
   * The cluster's name, a tag on everything the agent reports.
   *
   * @default - none: the agent detects it on the cloud providers that publish it
   */
  readonly clusterName?: string;

  /**
   * The container runtime sockets the agent reads container names, images and lifecycle events from,
   * mounted read-only at `/host<path>`. Connecting to a runtime socket controls every container on the
   * node (it is root on the node), so it is off by default: the kubelet already gives the agent the pods,
   * their containers and their metrics. With a socket the agent adds the runtime's own checks
   * (containerd, CRI), container image and lifecycle collection.
   *
   * @default [] - no runtime socket
   */
  readonly containerRuntimeSockets?: string[];

  /**
   * Serves DogStatsD on a Unix socket in the node's `/var/run/datadog` too (the chart's default), for
   * applications that mount that directory. DogStatsD's origin detection over the socket maps each
   * client's process ID to its container, which needs the host PID namespace: enabling it also sets
   * `hostPID`, with that reason.
   *
   * @default false - DogStatsD on UDP 8125 only, through the node-local Service
   */
  readonly dogstatsdSocket?: boolean;

  /**
   * Live process collection: the host's processes, with their users. Sets `hostPID` (the processes of
   * the node, not of the pod) and mounts `/etc/passwd` read-only (user names).
   *
   * @default false
   */
  readonly processCollection?: boolean;
}

/**
 * The Datadog node agent on every node, configured as Datadog's Helm chart (`datadog`) configures its
 * `agent` container: host metrics from `/proc` and the cgroups, the kubelet check, DogStatsD, reporting
 * to a Datadog site with an API key from a Secret.
 *
 * Defaults (the README's "Differences from the vendors' manifests" compares them with the chart's rendered
 * default, `test/datadog/baseline/manifests/daemonset_default.yaml` of DataDog/helm-charts):
 * - image `registry.datadoghq.com/agent`, pinned (`DatadogAgent.DEFAULT_IMAGE`), `agent run`;
 * - the chart's init containers `init-volume` (copies `/etc/datadog-agent` into an emptyDir) and
 *   `init-config` (runs the image's `/etc/cont-init.d` scripts on it), so the agent runs with a read-only
 *   root filesystem;
 * - host mounts, read-only under `/host`: `/proc` and `/sys/fs/cgroup` (host and container metrics),
 *   `/etc/os-release` (the node's OS); no container runtime socket unless `containerRuntimeSockets`;
 * - no host PID namespace unless `dogstatsdSocket` or `processCollection`;
 * - runs as **root with every capability dropped** (the chart runs it as root with the runtime's default
 *   capabilities): the image runs as root, and reads root-owned files of the host's `/proc`;
 * - RBAC: get on `nodes/metrics`, `nodes/spec`, `nodes/stats`, `nodes/pods`, `nodes/healthz` and
 *   `nodes/configz`, the kubelet endpoints the kubelet check reads, authorized one by one by kubelets of
 *   Kubernetes 1.33 and later (fine-grained kubelet authorization, the chart's
 *   `datadog.kubelet.fineGrainedAuthorization`). The chart's default grants `nodes/proxy` instead, which
 *   reaches every kubelet endpoint of every node, exec into its containers included (a GET upgraded to a
 *   WebSocket): on older kubelets, which authorize `/pods` as `nodes/proxy`, add
 *   `clusterPermissions: [{ resources: ['nodes/proxy'], verbs: ['get'] }]` and acknowledge NA-RBAC-NODE-PROXY;
 * - port `dogstatsdport` 8125/UDP behind a node-local Service (`internalTrafficPolicy: Local`, as the chart);
 *   liveness `/live`, readiness `/ready`, startup `/startup` on the health port 5555 (the chart's);
 * - APM (the chart's `trace-agent` container), logs and system-probe are not part of it.
 *
 * No metrics endpoint is declared: the agent sends its metrics to Datadog, and the chart's DaemonSet
 * declares no metrics port for it either (only DogStatsD's).
 *
 * @see https://docs.datadoghq.com/containers/kubernetes/installation/
 */
export class DatadogAgent extends NodeAgent {
  /** the agent image used unless `image` is set: the chart's default (chart 3.240.0). */
  public static readonly DEFAULT_IMAGE = 'registry.datadoghq.com/agent:7.81.1';

  private static resolve(scope: Construct, id: string, props: DatadogAgentProps): NodeAgentProps {
    props = checkPresetProps<DatadogAgentProps>((m) => presetFail(scope, id, m), props, DATADOG_AGENT_PROPS);
    if (props.apiKey === undefined) {
      presetFail(scope, id, 'apiKey is required: give the Secret key that holds the Datadog API key, e.g. apiKey: EnvValue.fromSecretKey(\'datadog-secret\', \'api-key\')');
    }
    if (props.apiKey.kind !== 'secret') {
      presetFail(scope, id, `apiKey must be a Secret key, e.g. EnvValue.fromSecretKey('datadog-secret', 'api-key'), got the ${props.apiKey.kind} ${show(props.apiKey.name)}: ` +
        'the API key is a credential, which belongs in a Secret');
    }
    const site = props.site ?? 'datadoghq.com';
    if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(site)) {
      presetFail(scope, id, `site: ${show(site)} is not a Datadog site: give its domain, e.g. "datadoghq.com" or "datadoghq.eu"`);
    }
    const sockets = props.containerRuntimeSockets ?? [];
    for (const socket of sockets) {
      if (typeof socket !== 'string' || !socket.startsWith('/')) {
        presetFail(scope, id, `containerRuntimeSockets: ${show(socket)} must be an absolute host path, e.g. "/run/containerd/containerd.sock"`);
      }
    }
    const image = props.image ?? DatadogAgent.DEFAULT_IMAGE;
    const hostRoot = (path: string, reason: string, type = kplus().HostPathVolumeType.DIRECTORY) =>
      HostMount.readOnly(path, { mountPath: `/host${path}`, type, reason });

    const hostMounts: HostMount[] = [
      hostRoot('/proc', 'reads the node\'s CPU, memory, disk and network statistics and its processes\' cgroups'),
      hostRoot('/sys/fs/cgroup', 'reads each container\'s resource usage from its cgroup'),
      hostRoot('/etc/os-release', 'reports the node\'s operating system', kplus().HostPathVolumeType.FILE),
      ...sockets.map((s) => hostRoot(s, 'reads container names, images and lifecycle events from the container runtime', kplus().HostPathVolumeType.SOCKET)),
    ];
    if (props.dogstatsdSocket) {
      hostMounts.push(HostMount.readWrite(SOCKET_DIR, 'creates the DogStatsD socket that applications on the node mount and send metrics to', {
        type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
      }));
    }
    if (props.processCollection) hostMounts.push(hostRoot('/etc/passwd', 'names the users the node\'s processes run as', kplus().HostPathVolumeType.FILE));

    // what the props, the probes, the port and the volumes rely on: kept
    const derived: { [name: string]: string } = {
      KUBERNETES: 'yes',
      DD_SITE: site,
      ...(props.clusterName !== undefined ? { DD_CLUSTER_NAME: props.clusterName } : {}),
      DD_HEALTH_PORT: String(HEALTH_PORT),
      DD_AUTH_TOKEN_FILE_PATH: '/etc/datadog-agent/auth/token',
      DD_DOGSTATSD_PORT: String(DOGSTATSD_PORT),
      ...(props.dogstatsdSocket ? { DD_DOGSTATSD_SOCKET: `${SOCKET_DIR}/dsd.socket`, DD_DOGSTATSD_ORIGIN_DETECTION: 'true' } : {}),
      ...(sockets.length > 0 ? { DD_CRI_SOCKET_PATH: `/host${sockets[0]}` } : {}),
      DD_PROCESS_CONFIG_PROCESS_COLLECTION_ENABLED: props.processCollection ? 'true' : 'false',
    };
    // the chart's settings, but APM (no trace-agent here): yours replace them
    const settings: { [name: string]: string } = {
      DD_KUBELET_USE_API_SERVER: 'false',
      DD_DOGSTATSD_NON_LOCAL_TRAFFIC: 'true',
      DD_APM_ENABLED: 'false',
      DD_LOGS_ENABLED: 'false',
      DD_LOG_LEVEL: 'INFO',
    };
    const env = { ...derived, ...settings };
    const envValueFrom = { DD_API_KEY: props.apiKey, DD_KUBERNETES_KUBELET_HOST: EnvValue.fromPodField('status.hostIP') };
    const configVolume = (mountPath: string) => AgentVolume.emptyDir(mountPath, { volumeName: CONFIG_VOLUME });
    const initRoot = { reason: 'runs the image\'s setup as the image\'s user, root, on the agent\'s own configuration directory (an emptyDir), as the chart does' };
    const initContainers: AgentContainerProps[] = [{
      name: 'init-volume',
      image,
      command: ['bash', '-c'],
      args: ['cp -r /etc/datadog-agent /opt'],
      runAsRoot: initRoot,
      volumes: [configVolume('/opt/datadog-agent')],
    }, {
      name: 'init-config',
      image,
      command: ['bash', '-c'],
      args: ['for script in $(find /etc/cont-init.d/ -type f -name \'*.sh\' | sort) ; do bash $script ; done'],
      runAsRoot: initRoot,
      env: { KUBERNETES: 'yes', DD_SITE: site },
      envValueFrom,
      volumes: [configVolume('/etc/datadog-agent')],
      hostMounts: [hostMounts[0]],
    }];
    const volumes = [
      configVolume('/etc/datadog-agent'),
      AgentVolume.emptyDir('/etc/datadog-agent/auth'),
      AgentVolume.emptyDir('/var/log/datadog'),
      AgentVolume.emptyDir('/opt/datadog-agent/run'),
      AgentVolume.emptyDir('/tmp'),
    ];
    const port = { name: 'dogstatsdport', containerPort: DOGSTATSD_PORT, protocol: kplus().Protocol.UDP };
    const essentials = {
      hostMounts: { items: hostMounts, why: 'they are the node\'s statistics, cgroups and OS the agent reports on, and what the features you enabled read' },
      initContainers: { items: initContainers, why: 'they prepare /etc/datadog-agent, which the agent reads and writes on a read-only root filesystem' },
      volumes: { items: volumes, why: 'the agent reads its configuration from /etc/datadog-agent and writes its token, logs, run state and temporary files there' },
      ports: { items: [port], why: `its node-local Service sends DogStatsD traffic to ${DOGSTATSD_PORT}/UDP` },
    };
    const probe = (path: string) => AgentProbe.httpGet(path, {
      port: HEALTH_PORT, initialDelay: Duration.seconds(15), period: Duration.seconds(15), timeout: Duration.seconds(5), failureThreshold: 6,
    });
    const defaults: NodeAgentProps = {
      image,
      command: ['agent', 'run'],
      env,
      envValueFrom,
      initContainers,
      volumes,
      hostMounts,
      runAsRoot: { reason: 'the agent image runs as root (as the chart runs it) and reads root-owned statistics of the host\'s /proc; every capability is dropped' },
      ...(props.dogstatsdSocket || props.processCollection ? {
        hostPID: {
          reason: [
            props.dogstatsdSocket ? 'DogStatsD origin detection maps the process ID of each client on the socket to its container' : undefined,
            props.processCollection ? 'live process collection reports the node\'s processes, not the pod\'s' : undefined,
          ].filter((r) => r !== undefined).join('; '),
        },
      } : {}),
      ports: [port],
      service: { ports: ['dogstatsdport'], nodeLocal: true },
      liveness: probe('/live'),
      readiness: probe('/ready'),
      startup: probe('/startup'),
      clusterPermissions: [{ resources: KUBELET_RESOURCES, verbs: ['get'] }],
    };
    const given = withoutKeys(props, ['apiKey', 'site', 'clusterName', 'containerRuntimeSockets', 'dogstatsdSocket', 'processCollection']);
    return withPresetDefaults(defaults, { ...given, env: props.env === undefined ? undefined : { ...settings, ...props.env } }, {
      preset: 'DatadogAgent',
      fail: (m) => presetFail(scope, id, m),
      lists: essentials,
      maps: {
        env: { entries: derived, why: 'they are the settings the preset derives from its props, or that its probes, port and volumes rely on (set site, clusterName and the feature props instead)' },
        envValueFrom: { entries: envValueFrom, why: 'the agent reads its API key and its kubelet\'s address from them' },
      },
    });
  }

  constructor(scope: Construct, id: string, props: DatadogAgentProps) {
    super(scope, id, DatadogAgent.resolve(scope, id, props));
    const unless = ['hostMounts', 'runAsRoot', 'runAsUser'];
    const procfs = 'the agent reads the node\'s /proc read-only for the node\'s and its containers\' statistics, as the chart; as root without ' +
      'capabilities (no SYS_PTRACE) it cannot read the memory or environment of processes that hold capabilities it lacks, such as the ' +
      'node\'s services, though it can those of other root processes without capabilities';
    const acks: PresetAcknowledgement[] = [
      { rule: 'NA-HOSTPATH-SENSITIVE', reason: procfs + (props?.dogstatsdSocket ? `; ${SOCKET_DIR} is the agent's own socket directory, which it creates` : ''), unless },
      { rule: 'NA-HOSTPATH-SENSITIVE', reason: `init-config runs the image's setup scripts with the node's /proc mounted as the chart mounts it; ${procfs}`, unless: [...unless, 'initContainers'], container: 'init-config' },
    ];
    if ((props?.containerRuntimeSockets ?? []).length > 0) {
      acks.push({
        rule: 'NA-RUNTIME-SOCKET',
        reason: 'enabled with containerRuntimeSockets: the agent reads container names, images and lifecycle events from the runtime; mounted read-only, typed Socket, only the runtimes listed',
        unless: ['hostMounts'],
      });
    }
    acknowledgeDefaults(this, props, acks);
  }
}

const DATADOG_AGENT_PROPS: Shape = presetProps('DatadogAgentProps', {
  apiKey: instance((v) => v instanceof EnvValue, 'a Secret key created with EnvValue.fromSecretKey()'),
  site: string("'datadoghq.eu'"),
  clusterName: string("'production'"),
  containerRuntimeSockets: strings('a list of host paths', "['/run/containerd/containerd.sock']"),
  dogstatsdSocket: boolean(),
  processCollection: boolean(),
});
