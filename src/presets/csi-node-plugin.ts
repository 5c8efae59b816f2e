import { ApiObject, Chart, Duration, JsonPatch, Size } from 'cdk8s';
import { Construct } from 'constructs';
import { AgentContainerProps, AgentProbe, HostMount, NodeAgent, NodeAgentProps, NodeAgentSettings, Toleration } from '../agent';
import { CsiDriverOptions, CsiVolumeLifecycleMode } from './csi-driver-options';
import { PatchCheckedApiObject } from '../agent/_checked-api-object';
import { kplus } from '../agent/_plus';
import { acknowledgeDefaults, presetFail, withPresetDefaults, withoutKeys } from '../agent/_preset';
import { boolean, checkPresetProps, list, oneOf, presetProps, string, struct } from '../agent/_props-schema';
import { show } from '../agent/_validate';

/** where every container of the pod sees the driver's socket directory. */
const SOCKET_DIR = '/csi';
/** the port of the livenessprobe sidecar, which checks the driver over its socket. */
const DRIVER_HEALTH_PORT = 9898;
/** the port of node-driver-registrar's own health endpoint. */
const REGISTRAR_HEALTH_PORT = 9809;
/** why the driver container is privileged. */
const PRIVILEGED_REASON = 'mounts volumes into pods through /var/lib/kubelet with Bidirectional propagation, which Kubernetes allows only in privileged containers';
/** a CSI driver name: a DNS subdomain (at most 63 characters, by the CSI spec). */
const DRIVER_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * Properties for `CsiNodePlugin`.
 *
 * Every `NodeAgent` property can be set. A list prop keeps what every CSI node plugin needs and adds
 * your items after it; an item of yours that conflicts with one of those is refused, naming it:
 * - `sidecars`: `node-driver-registrar` (registers the driver with the kubelet) and `liveness-probe`
 *   (serves the driver's probes) are kept;
 * - `hostMounts`: `CsiNodePlugin.standardHostMounts(driverName)` (plugin directory, `/var/lib/kubelet`,
 *   `/dev`) are kept; the hostpath driver's data directory is replaced by yours;
 * - `args` replace the hostpath driver's (they are your driver's own flags) but must give the driver
 *   its endpoint `unix:///csi/csi.sock` (in args or env), or they are refused;
 * - `tolerations` and `command` replace the preset's (where it runs and which program starts are yours);
 * - the other lists have no default: yours are used.
 * Every other prop you set replaces the preset's default. The defaults run the Kubernetes CSI
 * hostpath example driver; for your own driver set `driverName`, `image` and `args`, `hostMounts`
 * for what it needs beyond the standard ones, and `clusterPermissions` if it reads the API.
 */
export interface CsiNodePluginProps extends NodeAgentSettings {
  /**
   * The CSI driver's name, as registered with the kubelet (the `CSIDriver` object's name). It names
   * the plugin directory `/var/lib/kubelet/plugins/<driverName>` that holds the driver's socket.
   *
   * @default 'hostpath.csi.k8s.io' - the Kubernetes CSI hostpath example driver, chosen because it is
   * maintained by SIG Storage next to the sidecars, needs no cloud account and shows the bare
   * node-plugin pattern; replace it (with `image`, `args` and `hostMounts`) for a real driver
   */
  readonly driverName?: string;

  /**
   * The driver image.
   *
   * @default CsiNodePlugin.DEFAULT_IMAGE (the hostpath example driver)
   */
  readonly image?: string;

  /**
   * The node-driver-registrar sidecar image.
   *
   * @default CsiNodePlugin.DEFAULT_REGISTRAR_IMAGE
   */
  readonly registrarImage?: string;

  /**
   * The livenessprobe sidecar image.
   *
   * @default CsiNodePlugin.DEFAULT_LIVENESS_PROBE_IMAGE
   */
  readonly livenessProbeImage?: string;

  /**
   * Renders the driver's `CSIDriver` object (cluster-wide, named `driverName`) with these options. The kubelet
   * publishes a CSI ephemeral inline volume only for a driver whose `CSIDriver` lists `Ephemeral`.
   *
   * @default - no CSIDriver object: ship it with the driver's controller, or the kubelet refuses the driver's inline volumes
   */
  readonly csiDriver?: CsiDriverOptions;
}

/**
 * A CSI node plugin: the storage driver on every node, with the two standard sidecars, so the
 * kubelet can stage, mount and unmount the driver's volumes there.
 *
 * Defaults (each set through the matching `NodeAgent` property; the list props keep what the preset needs, see its props):
 * - the driver container (`agent`): the hostpath example driver, pinned, with args
 *   `--drivername=<driverName> --endpoint=unix:///csi/csi.sock --nodeid=$(NODE_NAME)`. It is
 *   **privileged**, with the reason: it mounts volumes into pods through `/var/lib/kubelet` with
 *   `Bidirectional` propagation, which Kubernetes allows only in privileged containers (as the EBS
 *   driver, it keeps a read-only root filesystem). It runs as root, with the reason;
 * - host mounts of the driver (`CsiNodePlugin.standardHostMounts`): the plugin directory
 *   `/var/lib/kubelet/plugins/<driverName>` (DirectoryOrCreate, read-write, at `/csi`) where it
 *   creates its socket; `/var/lib/kubelet` (Directory, read-write, Bidirectional); `/dev`
 *   (Directory, read-write, as the GCE PD driver mounts it: with `/dev` read-only this privileged
 *   container never started on kubelet v1.37.2 with runc, which could not create the kubelet's
 *   termination-log mount point `/dev/termination-log` in it; a privileged container could remount
 *   it anyway); plus, for the hostpath driver, its data directory `/var/lib/csi-hostpath-data`;
 * - sidecars `node-driver-registrar` (registers the driver's socket with the kubelet through
 *   `/var/lib/kubelet/plugins_registry`, type Directory) and `liveness-probe` (serves the driver's
 *   health on port 9898), both pinned `registry.k8s.io/sig-storage` images and hardened: read-only
 *   root filesystem, every capability dropped, no privilege escalation, seccomp `RuntimeDefault`,
 *   the plugin directory read-only. They run as **UID 0** (without capabilities), with the reason:
 *   the registrar must create its socket in the kubelet's root-owned `plugins_registry` directory
 *   and both connect to the driver's root-owned socket, which fails for any other UID
 *   (spiffe/helm-charts-hardened#955, aws-efs-csi-driver#1001);
 * - `system-node-critical` priority, so the plugin is never the pod left Pending on a full node;
 * - tolerates every taint (`Toleration.everything()`): the plugin must keep running on nodes being
 *   drained, after the workloads are evicted, to unstage and unmount their volumes (aws-ebs-csi-driver
 *   PR #2165);
 * - no RBAC and no ServiceAccount token (the hostpath driver does not read the API);
 * - liveness and readiness `GET /healthz` on port 9898 through the livenessprobe sidecar; the
 *   registrar has its own probes on 9809, the livenessprobe sidecar TCP probes on 9898;
 * - requests 10m CPU and 64Mi memory, memory limit 256Mi for the driver; 10m and 32Mi, limit 64Mi,
 *   for each sidecar;
 * - security review: the findings its defaults cause (the privileged driver, and writing under
 *   `/var/lib/kubelet`) are acknowledged for the driver container, each with the reason, while the
 *   props that cause them (`privileged`, `hostMounts`) keep their defaults.
 *
 * It renders the driver's `CSIDriver` object only with `csiDriver` (cluster-wide, usually shipped with the
 * driver's controller): the kubelet publishes a CSI ephemeral inline volume only for a driver whose
 * `CSIDriver` lists `Ephemeral` in `volumeLifecycleModes`; without one, kubelet v1.37.2 fails the pod's
 * mount with `volume mode "Ephemeral" not supported by driver <driverName> (no CSIDriver object)`.
 *
 * @see https://kubernetes-csi.github.io/docs/deploying.html
 */
export class CsiNodePlugin extends NodeAgent {
  /** the driver image used unless `image` is set: the Kubernetes CSI hostpath example driver. */
  public static readonly DEFAULT_IMAGE = 'registry.k8s.io/sig-storage/hostpathplugin:v1.17.0';
  /** the node-driver-registrar image used unless `registrarImage` is set. */
  public static readonly DEFAULT_REGISTRAR_IMAGE = 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.15.0';
  /** the livenessprobe image used unless `livenessProbeImage` is set. */
  public static readonly DEFAULT_LIVENESS_PROBE_IMAGE = 'registry.k8s.io/sig-storage/livenessprobe:v2.17.0';
  /** the driver name used unless `driverName` is set. */
  public static readonly DEFAULT_DRIVER_NAME = 'hostpath.csi.k8s.io';

  /**
   * The host mounts every CSI node plugin's driver container needs: its plugin directory (socket),
   * `/var/lib/kubelet` with Bidirectional propagation, and `/dev` (read-write: the kubelet mounts the
   * termination log in it). The preset always keeps
   * them: `hostMounts` you set are added to these (giving these back renders them once). The review
   * rates the writable `/var/lib/kubelet` and `/dev` critical: the preset acknowledges them only for its default
   * `hostMounts`, so acknowledge it yourself (`plugin.acknowledge('NA-HOSTPATH-SENSITIVE', reason,
   * 'agent')`) when you set your own, which then lie in the same container.
   *
   * @param driverName the CSI driver's name, e.g. `ebs.csi.aws.com`
   */
  public static standardHostMounts(driverName: string): HostMount[] {
    checkDriverName(driverName);
    return [
      HostMount.readWrite(pluginDir(driverName), 'creates the CSI socket that the kubelet and the sidecars connect to', {
        type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
        mountPath: SOCKET_DIR,
        volumeName: 'plugin-dir',
      }),
      HostMount.readWrite('/var/lib/kubelet', 'stages and publishes volumes under the kubelet\'s pod directories; Bidirectional so the kubelet and the pods see those mounts', {
        type: kplus().HostPathVolumeType.DIRECTORY,
        propagation: kplus().MountPropagation.BIDIRECTIONAL,
        volumeName: 'kubelet-dir',
      }),
      HostMount.readWrite('/dev', 'opens the block devices of attached volumes, including ones attached after it started; read-write because ' +
        'the kubelet mounts the container\'s termination log at /dev/termination-log, which a read-only /dev refused in this privileged container', {
        type: kplus().HostPathVolumeType.DIRECTORY,
        volumeName: 'device-dir',
      }),
    ];
  }

  private static resolve(scope: Construct, id: string, props: CsiNodePluginProps): NodeAgentProps {
    props = checkPresetProps<CsiNodePluginProps>((m) => presetFail(scope, id, m), props, CSI_NODE_PLUGIN_PROPS);
    const driverName = props.driverName ?? CsiNodePlugin.DEFAULT_DRIVER_NAME;
    if (!isDriverName(driverName)) presetFail(scope, id, `driverName "${driverName}" is invalid: ${DRIVER_NAME_HINT}`);
    const socketDir = HostMount.readOnly(pluginDir(driverName), {
      type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
      mountPath: SOCKET_DIR,
      volumeName: 'plugin-dir',
      reason: 'connects to the driver\'s CSI socket',
    });
    const sidecarResources = { cpuRequest: kplus().Cpu.millis(10), memoryRequest: Size.mebibytes(32), memoryLimit: Size.mebibytes(64) };
    const registrar: AgentContainerProps = {
      name: 'node-driver-registrar',
      image: props.registrarImage ?? CsiNodePlugin.DEFAULT_REGISTRAR_IMAGE,
      args: [
        '--v=2',
        `--csi-address=${SOCKET_DIR}/csi.sock`,
        `--kubelet-registration-path=${pluginDir(driverName)}/csi.sock`,
        `--http-endpoint=:${REGISTRAR_HEALTH_PORT}`,
      ],
      runAsRoot: { reason: 'creates its registration socket in the kubelet\'s root-owned plugins_registry directory and connects to the driver\'s root-owned socket; every capability is dropped' },
      hostMounts: [
        socketDir,
        HostMount.readWrite('/var/lib/kubelet/plugins_registry', 'creates the registration socket through which the kubelet discovers the driver', {
          type: kplus().HostPathVolumeType.DIRECTORY,
          mountPath: '/registration',
          volumeName: 'registration-dir',
        }),
      ],
      ports: [{ name: 'registrar', containerPort: REGISTRAR_HEALTH_PORT }],
      liveness: AgentProbe.httpGet('/healthz', { port: REGISTRAR_HEALTH_PORT, initialDelay: Duration.seconds(5), timeout: Duration.seconds(3), period: Duration.seconds(10), failureThreshold: 5 }),
      readiness: AgentProbe.httpGet('/healthz', { port: REGISTRAR_HEALTH_PORT, timeout: Duration.seconds(3), period: Duration.seconds(10) }),
      resources: sidecarResources,
    };
    const livenessProbe: AgentContainerProps = {
      name: 'liveness-probe',
      image: props.livenessProbeImage ?? CsiNodePlugin.DEFAULT_LIVENESS_PROBE_IMAGE,
      args: [`--csi-address=${SOCKET_DIR}/csi.sock`, `--health-port=${DRIVER_HEALTH_PORT}`],
      runAsRoot: { reason: 'connects to the driver\'s root-owned CSI socket; every capability is dropped' },
      hostMounts: [socketDir],
      ports: [{ name: 'healthz', containerPort: DRIVER_HEALTH_PORT }],
      liveness: AgentProbe.tcpSocket(DRIVER_HEALTH_PORT, { period: Duration.seconds(10) }),
      readiness: AgentProbe.tcpSocket(DRIVER_HEALTH_PORT, { period: Duration.seconds(10) }),
      resources: sidecarResources,
    };
    const essentials = {
      sidecars: {
        items: [registrar, livenessProbe],
        why: 'node-driver-registrar registers the driver with the kubelet (without it the driver never receives a volume) and ' +
          `liveness-probe answers the driver's liveness and readiness probes on port ${DRIVER_HEALTH_PORT}`,
      },
      hostMounts: {
        items: CsiNodePlugin.standardHostMounts(driverName),
        why: 'every CSI node plugin creates its socket in its plugin directory, stages and publishes volumes under /var/lib/kubelet and opens devices under /dev',
      },
    };
    if (props.args !== undefined && ![...props.args, ...Object.values(props.env ?? {})].some((a) => a.includes(`${SOCKET_DIR}/csi.sock`))) {
      presetFail(scope, id, `args: none of your args (nor env) gives the driver its endpoint unix://${SOCKET_DIR}/csi.sock, where node-driver-registrar ` +
        'and liveness-probe connect to it. The args you set replace the hostpath driver\'s (they are your driver\'s own flags): add its endpoint, ' +
        `e.g. --endpoint=unix://${SOCKET_DIR}/csi.sock`);
    }
    const modes = props.csiDriver?.volumeLifecycleModes;
    if (modes !== undefined && modes.length === 0) {
      presetFail(scope, id, 'csiDriver.volumeLifecycleModes: the list is empty, and a CSIDriver without a mode serves no volume: leave it unset ' +
        'for Persistent, or list the modes, e.g. [CsiVolumeLifecycleMode.EPHEMERAL]');
    }
    const twice = modes?.find((m, i) => modes.indexOf(m) !== i);
    if (twice !== undefined) presetFail(scope, id, `csiDriver.volumeLifecycleModes: "${twice}" is listed twice, which the API server refuses: list it once`);
    const defaults: NodeAgentProps = {
      image: CsiNodePlugin.DEFAULT_IMAGE,
      args: [
        `--drivername=${driverName}`,
        '--v=2',
        `--endpoint=unix://${SOCKET_DIR}/csi.sock`,
        '--nodeid=$(NODE_NAME)',
      ],
      privileged: { reason: PRIVILEGED_REASON },
      runAsRoot: { reason: 'formats and mounts volumes, which only root can do' },
      hostMounts: [
        ...essentials.hostMounts.items,
        HostMount.readWrite('/var/lib/csi-hostpath-data', 'the hostpath example driver keeps its volumes\' data there', {
          type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
          mountPath: '/csi-data-dir',
          volumeName: 'csi-data-dir',
        }),
      ],
      liveness: AgentProbe.httpGet('/healthz', { port: DRIVER_HEALTH_PORT, initialDelay: Duration.seconds(10), timeout: Duration.seconds(3), period: Duration.seconds(10), failureThreshold: 5 }),
      readiness: AgentProbe.httpGet('/healthz', { port: DRIVER_HEALTH_PORT, timeout: Duration.seconds(3), period: Duration.seconds(5) }),
      resources: { cpuRequest: kplus().Cpu.millis(10), memoryRequest: Size.mebibytes(64), memoryLimit: Size.mebibytes(256) },
      sidecars: essentials.sidecars.items,
      priorityClassName: 'system-node-critical',
      tolerations: [Toleration.everything()],
    };
    return withPresetDefaults(defaults, withoutKeys(props, ['driverName', 'registrarImage', 'livenessProbeImage', 'csiDriver']), {
      preset: 'CsiNodePlugin',
      fail: (m) => presetFail(scope, id, m),
      lists: essentials,
    });
  }

  /** the CSI driver's name. */
  public readonly driverName: string;
  /** the driver's `CSIDriver` object, when `csiDriver` is set. */
  public readonly csiDriverObject?: ApiObject;

  constructor(scope: Construct, id: string, props: CsiNodePluginProps = {}) {
    super(scope, id, CsiNodePlugin.resolve(scope, id, props));
    this.driverName = props?.driverName ?? CsiNodePlugin.DEFAULT_DRIVER_NAME;
    if (props.csiDriver !== undefined) this.csiDriverObject = this.renderCsiDriver(props.csiDriver);
    acknowledgeDefaults(this, props, [
      { rule: 'NA-PRIVILEGED', reason: PRIVILEGED_REASON, unless: ['privileged'] },
      { rule: 'PSS-BASELINE-privileged', reason: PRIVILEGED_REASON, unless: ['privileged'], pod: true },
      {
        rule: 'NA-PRIVILEGE-ESCALATION',
        reason: 'a privileged container can escalate by definition, and the API server rejects allowPrivilegeEscalation: false beside privileged',
        unless: ['privileged'],
      },
      {
        rule: 'NA-HOSTPATH-SENSITIVE',
        reason: 'the kubelet has the driver stage and publish volumes under /var/lib/kubelet (Bidirectional) and find its socket under /var/lib/kubelet/plugins, ' +
          'and the driver opens attached devices under /dev (read-write: the kubelet mounts the termination log there); no narrower path works for a CSI node plugin',
        unless: ['hostMounts'],
      },
      {
        rule: 'NA-HOSTPATH-SENSITIVE',
        reason: 'the registrar creates the driver\'s registration socket in /var/lib/kubelet/plugins_registry: that is how the kubelet discovers a CSI driver',
        // the registrar is kept whatever sidecars are added, and the acknowledgement names its container only
        unless: [],
        container: 'node-driver-registrar',
      },
    ]);
  }

  private renderCsiDriver(options: CsiDriverOptions): ApiObject {
    const modes = options.volumeLifecycleModes;
    const object = new PatchCheckedApiObject(this, 'CSIDriver', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: this.driverName, labels: { ...this.selectorLabels } },
      spec: {
        attachRequired: options.attachRequired,
        podInfoOnMount: options.podInfoOnMount,
        volumeLifecycleModes: modes ? [...modes] : undefined,
      },
    });
    // cluster-scoped: no namespace, whatever the chart's default.
    if (Chart.of(this).namespace !== undefined) object.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    return object;
  }
}

function pluginDir(driverName: string): string {
  return `/var/lib/kubelet/plugins/${driverName}`;
}

const DRIVER_NAME_HINT = 'use at most 63 lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit, e.g. "ebs.csi.aws.com"';

function isDriverName(driverName: string): boolean {
  return typeof driverName === 'string' && driverName.length <= 63 && DRIVER_NAME.test(driverName);
}

function checkDriverName(driverName: string): void {
  if (!isDriverName(driverName)) {
    throw new Error(`CsiNodePlugin: driver name ${typeof driverName === 'string' ? `"${driverName}"` : show(driverName)} is invalid: ${DRIVER_NAME_HINT}`);
  }
}

const CSI_NODE_PLUGIN_PROPS = presetProps('CsiNodePluginProps', {
  driverName: string("'ebs.csi.aws.com'"),
  registrarImage: string(),
  livenessProbeImage: string(),
  csiDriver: struct('CsiDriverOptions', {
    volumeLifecycleModes: list(oneOf(() => CsiVolumeLifecycleMode, 'CsiVolumeLifecycleMode.EPHEMERAL'), 'a list of CsiVolumeLifecycleMode',
      '[CsiVolumeLifecycleMode.EPHEMERAL]'),
    attachRequired: boolean(),
    podInfoOnMount: boolean(),
  }, { example: '{ volumeLifecycleModes: [CsiVolumeLifecycleMode.EPHEMERAL], attachRequired: false }' }),
});
