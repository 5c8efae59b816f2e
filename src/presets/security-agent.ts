import { Duration, Size } from 'cdk8s';
import { Construct } from 'constructs';
import { AgentContainerProps, AgentProbe, CapabilityGrant, HostMount, NodeAgent, NodeAgentProps, NodeAgentSettings, Toleration } from '../agent';
import { kplus } from '../agent/_plus';
import { PresetAcknowledgement, acknowledgeDefaults, presetFail, withPresetDefaults, withoutKeys } from '../agent/_preset';
import { checkPresetProps, instance, presetProps, string, strings } from '../agent/_props-schema';
import { show } from '../agent/_validate';

/** the driver loader's container name. */
const LOADER = 'falco-driver-loader';

/** the port of Falco's embedded webserver (health). */
const WEB_PORT = 8765;

/**
 * How Falco captures the node's system calls.
 *
 * The default, `modernEbpf()`, needs no kernel module and no privileged container: four capabilities,
 * each with its reason. The kernel module is a privileged opt-in for kernels older than 5.8 (no BTF,
 * no ring buffer), and takes the reason as a required argument.
 *
 * @see https://falco.org/docs/concepts/event-sources/kernel/
 */
export class FalcoDriver {
  /**
   * The modern eBPF probe (`engine.kind: modern_ebpf`), bundled in Falco and loaded through CO-RE:
   * no driver loader, no kernel headers, no privileged container. Needs a kernel with BTF and the BPF
   * ring buffer (5.8 or later, and most distributions' 4.18+ backports).
   */
  public static modernEbpf(): FalcoDriver {
    return new FalcoDriver('modern_ebpf', undefined);
  }

  /**
   * The kernel module (`engine.kind: kmod`), built or downloaded and loaded by the falco-driver-loader
   * init container. Both containers then run **privileged**, which is root on the node: use it only
   * where the modern eBPF probe cannot run.
   *
   * @param reason one line saying why this node pool needs the kernel module, e.g. 'kernel 4.14 without BTF'
   */
  public static kernelModule(reason: string): FalcoDriver {
    if (typeof reason !== 'string' || reason.trim() === '' || /[\r\n]/.test(reason)) {
      throw new Error(`FalcoDriver.kernelModule: the reason must be one non-empty line saying why the privileged kernel module is needed (e.g. 'kernel 4.14 without BTF'), got ${show(reason)}`);
    }
    return new FalcoDriver('kmod', reason.trim());
  }

  /** Falco's `engine.kind`: `modern_ebpf` or `kmod`. */
  public readonly kind: string;
  /** why the driver needs privileged containers, for the kernel module. */
  public readonly privilegedReason?: string;

  private constructor(kind: string, privilegedReason: string | undefined) {
    this.kind = kind;
    this.privilegedReason = privilegedReason;
  }
}

/**
 * Properties for `SecurityAgent`.
 *
 * Every `NodeAgent` property can be set. A list prop keeps what Falco needs and adds your items after
 * it; an item of yours that conflicts with one of those is refused, naming it:
 * - `hostMounts`: the driver's mounts and the `containerRuntimeSockets` are kept;
 * - `capabilities`: the modern eBPF driver's `BPF`, `PERFMON`, `SYS_RESOURCE` and `SYS_PTRACE` are kept;
 * - `args`: the `-o` overrides (driver, webserver, JSON output) are kept, yours after them (a later
 *   `-o` of the same key wins in Falco);
 * - `initContainers`: the kernel module's driver loader is kept;
 * - `ports` (`web` 8765) and `scratchDirs` (`/root/.falco`) are kept;
 * - `tolerations` and `command` replace the preset's (where it runs and which program starts are yours);
 * - the other lists have no default: yours are used.
 * Two maps keep theirs too: `env` (`HOST_ROOT`, `FALCO_HOSTNAME`, `FALCO_K8S_NODE_NAME`) and, for the
 * eBPF driver, `podAnnotations` (the AppArmor `unconfined` annotation); yours are added, another value
 * for one of theirs is refused. Every other prop you set replaces the preset's default. The `add*`
 * methods add to the lists after construction, e.g. `falco.addHostMount(...)`.
 */
export interface SecurityAgentProps extends NodeAgentSettings {
  /**
   * The Falco image.
   *
   * @default SecurityAgent.DEFAULT_IMAGE
   */
  readonly image?: string;

  /**
   * How Falco captures system calls.
   *
   * @default FalcoDriver.modernEbpf()
   */
  readonly driver?: FalcoDriver;

  /**
   * Host paths of the container runtime sockets Falco's container plugin reads container metadata
   * from, each mounted read-only (type Socket) at `/host<path>`. A socket is the runtime's API: even
   * read-only, connecting to it controls every container on the node, which is why only the runtime
   * the nodes actually use should be listed (a missing socket keeps the pod from starting). The
   * list you set replaces the default one; `hostMounts` you set are added to these.
   *
   * @default ['/run/containerd/containerd.sock'] - containerd, the runtime of EKS, GKE, AKS, kubeadm
   * and kind; use `/run/crio/crio.sock` for CRI-O or `/run/k3s/containerd/containerd.sock` for k3s
   */
  readonly containerRuntimeSockets?: string[];

  /**
   * The falco-driver-loader image, used with `FalcoDriver.kernelModule()`.
   *
   * @default SecurityAgent.DEFAULT_DRIVER_LOADER_IMAGE
   */
  readonly driverLoaderImage?: string;
}

/**
 * A runtime security agent: Falco on every node, matching the node's system calls against its rules
 * and printing alerts as JSON lines.
 *
 * Defaults (each set through the matching `NodeAgent` property; the list props keep what the preset needs, see its props):
 * - image `docker.io/falcosecurity/falco`, pinned (`SecurityAgent.DEFAULT_IMAGE`), run as
 *   `/usr/bin/falco` with `-o` overrides of its bundled configuration (engine, webserver, JSON output);
 * - the **least-privileged modern eBPF driver** instead of a privileged container (the chart's
 *   default `auto` driver runs privileged): capabilities `BPF`, `PERFMON`, `SYS_RESOURCE` and
 *   `SYS_PTRACE`, each with its reason, every other capability dropped, no privilege escalation,
 *   read-only root filesystem, seccomp `RuntimeDefault` (whose profile allows `bpf` and
 *   `perf_event_open` to holders of these capabilities), and root, with the reason (added
 *   capabilities are effective only for UID 0). As the chart, it sets the container's AppArmor
 *   profile to `unconfined` (a pod annotation): on AppArmor nodes the runtime's default profile
 *   blocks Falco's reads of other processes. The privileged kernel module is an explicit opt-in
 *   (`FalcoDriver.kernelModule(reason)`);
 * - host mounts, all **read-only** (the chart mounts `/proc` writable): `/proc` and `/etc` (users,
 *   groups, OS release) at `/host/proc` and `/host/etc`, `/sys/kernel` at `/sys/kernel` (the probe
 *   reads BTF and tracing data at their absolute paths, which `HOST_ROOT` does not prefix), and the
 *   container runtime socket at `/host/run/containerd/containerd.sock` (type Socket); the kernel
 *   module adds `/dev` at `/host/dev` and `/sys/module`. `/dev` is not mounted for the eBPF driver,
 *   which does not use it (the chart mounts it only for the kernel module too);
 * - env `HOST_ROOT=/host`, `FALCO_HOSTNAME` and `FALCO_K8S_NODE_NAME` from the node name;
 * - tolerates the control-plane taint (as the chart): control planes are watched too;
 * - no RBAC and no ServiceAccount token: Falco takes Kubernetes metadata from the container runtime;
 * - webserver port `web` 8765: startup, liveness and readiness `GET /healthz` with the chart's timings;
 * - requests 100m CPU and 512Mi memory, memory limit 1Gi (the chart's);
 * - security review: the findings its defaults cause (the runtime socket, the AppArmor override; the
 *   privileged containers of the kernel module, with the reason you give) are acknowledged, each with
 *   the reason, while the props that cause them (`hostMounts`, `podAnnotations`, `privileged`) keep
 *   their defaults.
 *
 * @see https://falco.org/docs/setup/kubernetes/
 */
export class SecurityAgent extends NodeAgent {
  /** the Falco image used unless `image` is set. */
  public static readonly DEFAULT_IMAGE = 'docker.io/falcosecurity/falco:0.44.1';
  /** the falco-driver-loader image used with the kernel module unless `driverLoaderImage` is set. */
  public static readonly DEFAULT_DRIVER_LOADER_IMAGE = 'docker.io/falcosecurity/falco-driver-loader:0.44.1';

  private static resolve(scope: Construct, id: string, props: SecurityAgentProps): NodeAgentProps {
    props = checkPresetProps<SecurityAgentProps>((m) => presetFail(scope, id, m), props, SECURITY_AGENT_PROPS);
    const driver = props.driver ?? FalcoDriver.modernEbpf();
    const kmod = driver.kind === 'kmod';
    const containerName = props.containerName ?? 'agent';
    const sockets = props.containerRuntimeSockets ?? ['/run/containerd/containerd.sock'];
    for (const socket of sockets) {
      if (typeof socket !== 'string' || !socket.startsWith('/')) {
        presetFail(scope, id, `containerRuntimeSockets: "${socket}" must be an absolute host path, e.g. "/run/containerd/containerd.sock"`);
      }
    }
    const hostRoot = (path: string, reason: string, type = kplus().HostPathVolumeType.DIRECTORY) =>
      HostMount.readOnly(path, { mountPath: `/host${path}`, type, reason });

    const hostMounts: HostMount[] = [
      hostRoot('/proc', 'reads every process\'s command line, credentials and namespaces, which the rules match on'),
      hostRoot('/etc', 'names users and groups (/etc/passwd, /etc/group) and the OS (/etc/os-release) in events'),
      ...sockets.map((s) => hostRoot(s, 'the container plugin reads container names, images and pod labels from the container runtime', kplus().HostPathVolumeType.SOCKET)),
    ];
    if (kmod) {
      hostMounts.push(
        hostRoot('/dev', 'opens the kernel module\'s devices (/dev/falco*)'),
        HostMount.readOnly('/sys/module', { reason: 'checks that the Falco kernel module is loaded and reads its parameters' }),
      );
    } else {
      hostMounts.push(HostMount.readOnly('/sys/kernel', { reason: 'the eBPF probe reads the kernel\'s BTF type information and tracing metadata' }));
    }

    const capabilities: CapabilityGrant[] = kmod ? [] : [
      { capability: kplus().Capability.BPF, reason: 'loads the modern eBPF probe and creates its maps' },
      { capability: kplus().Capability.PERFMON, reason: 'attaches the probe to the kernel\'s tracepoints and reads its ring buffer' },
      { capability: kplus().Capability.SYS_RESOURCE, reason: 'raises the memlock limit for the probe\'s ring buffers' },
      { capability: kplus().Capability.SYS_PTRACE, reason: 'reads /proc of other processes (environment, executable, file descriptors) to enrich events' },
    ];

    const loader: AgentContainerProps = {
      name: LOADER,
      image: props.driverLoaderImage ?? SecurityAgent.DEFAULT_DRIVER_LOADER_IMAGE,
      args: ['kmod'],
      env: { HOST_ROOT: '/host', FALCOCTL_DRIVER_CONFIG_UPDATE_FALCO: 'false' },
      privileged: { reason: `loads the Falco kernel module into the node's kernel: ${driver.privilegedReason}` },
      runAsRoot: { reason: 'builds or downloads and loads the kernel module as root' },
      hostMounts: [
        hostRoot('/proc', 'reads the running kernel\'s version and configuration'),
        hostRoot('/boot', 'reads the kernel configuration to build the module'),
        hostRoot('/lib/modules', 'reads the kernel\'s modules and build tree to build the module'),
        hostRoot('/usr', 'reads kernel headers under /usr/src to build the module'),
        hostRoot('/etc', 'reads /etc/os-release to download the module for this distribution'),
      ],
      scratchDirs: ['/root/.falco', '/tmp'],
      resources: { cpuRequest: kplus().Cpu.millis(100), memoryRequest: Size.mebibytes(128), memoryLimit: Size.mebibytes(512) },
    };

    const healthz = (options: { period: number; failureThreshold: number; initialDelay?: number }) => AgentProbe.httpGet('/healthz', {
      port: WEB_PORT,
      initialDelay: options.initialDelay !== undefined ? Duration.seconds(options.initialDelay) : undefined,
      period: Duration.seconds(options.period),
      timeout: Duration.seconds(5),
      failureThreshold: options.failureThreshold,
    });

    const essentials = {
      args: {
        items: [
          '-o', `engine.kind=${driver.kind}`,
          '-o', 'webserver.enabled=true',
          '-o', `webserver.listen_port=${WEB_PORT}`,
          '-o', 'webserver.k8s_healthz_endpoint=/healthz',
          '-o', 'json_output=true',
        ],
        why: `they select the driver and enable the webserver on port ${WEB_PORT} that the probes use`,
      },
      hostMounts: { items: hostMounts, why: 'Falco reads the node\'s processes, users, kernel data and container runtime through them' },
      capabilities: { items: capabilities, why: `the ${driver.kind} driver needs them to load and read its probe` },
      scratchDirs: { items: ['/root/.falco'], why: 'Falco writes its runtime files there (its root filesystem is read-only)' },
      ports: { items: [{ name: 'web', containerPort: WEB_PORT }], why: `the probes use Falco's webserver on port ${WEB_PORT}` },
      initContainers: { items: kmod ? [loader] : [], why: 'the driver loader builds or downloads and loads the Falco kernel module' },
    };
    const env = { HOST_ROOT: '/host', FALCO_HOSTNAME: '$(NODE_NAME)', FALCO_K8S_NODE_NAME: '$(NODE_NAME)' };
    const podAnnotations = kmod ? undefined : { [`container.apparmor.security.beta.kubernetes.io/${containerName}`]: 'unconfined' };
    const maps = {
      env: { entries: env, why: 'Falco finds the host\'s /proc and /etc under HOST_ROOT and names the node in its events' },
      ...podAnnotations ? {
        podAnnotations: { entries: podAnnotations, why: 'on AppArmor nodes the runtime\'s default profile blocks Falco\'s reads of other processes' },
      } : {},
    };
    const defaults: NodeAgentProps = {
      image: SecurityAgent.DEFAULT_IMAGE,
      command: ['/usr/bin/falco'],
      args: essentials.args.items,
      env,
      runAsRoot: { reason: kmod ? 'reads the kernel module\'s devices as root' : 'the added capabilities are effective only for UID 0 (Kubernetes grants no ambient capabilities); every other capability is dropped' },
      privileged: kmod ? { reason: `reads system calls from the Falco kernel module: ${driver.privilegedReason}` } : undefined,
      capabilities,
      hostMounts,
      scratchDirs: essentials.scratchDirs.items,
      initContainers: kmod ? essentials.initContainers.items : undefined,
      podAnnotations,
      ports: essentials.ports.items,
      startup: healthz({ initialDelay: 3, period: 5, failureThreshold: 20 }),
      liveness: healthz({ period: 15, failureThreshold: 3 }),
      readiness: healthz({ period: 15, failureThreshold: 3 }),
      resources: { cpuRequest: kplus().Cpu.millis(100), memoryRequest: Size.mebibytes(512), memoryLimit: Size.mebibytes(1024) },
      tolerations: [Toleration.controlPlane()],
    };
    return withPresetDefaults(defaults, withoutKeys(props, ['driver', 'containerRuntimeSockets', 'driverLoaderImage']), {
      preset: 'SecurityAgent',
      fail: (m) => presetFail(scope, id, m),
      lists: essentials,
      maps,
    });
  }

  /** how Falco captures system calls. */
  public readonly driver: FalcoDriver;

  constructor(scope: Construct, id: string, props: SecurityAgentProps = {}) {
    super(scope, id, SecurityAgent.resolve(scope, id, props));
    this.driver = props?.driver ?? FalcoDriver.modernEbpf();
    const acks: PresetAcknowledgement[] = [{
      rule: 'NA-RUNTIME-SOCKET',
      reason: 'Falco\'s container plugin reads container and pod metadata from the runtime socket to attribute every event to its workload; mounted read-only, typed Socket, only the runtime the nodes use',
      unless: ['hostMounts'],
    }, {
      rule: 'NA-HOSTPATH-SENSITIVE',
      reason: 'Falco reads the host\'s /proc (processes, credentials, namespaces) and /etc (user, group and OS names) read-only: they are what its rules match on' +
        (this.driver.kind === 'kmod' ? ', and opens its kernel module\'s devices under /dev' : ''),
      unless: ['hostMounts'],
    }];
    if (this.driver.kind === 'kmod') {
      const reason = `the Falco kernel module is loaded and read by privileged containers: ${this.driver.privilegedReason}`;
      const escalation = 'a privileged container can escalate by definition, and the API server rejects allowPrivilegeEscalation: false beside privileged';
      acks.push(
        { rule: 'NA-PRIVILEGED', reason, unless: ['privileged'] },
        { rule: 'NA-PRIVILEGED', reason, unless: [], container: LOADER },
        { rule: 'PSS-BASELINE-privileged', reason, unless: ['privileged'], pod: true },
        { rule: 'NA-PRIVILEGE-ESCALATION', reason: escalation, unless: ['privileged'] },
        { rule: 'NA-PRIVILEGE-ESCALATION', reason: escalation, unless: [], container: LOADER },
        {
          rule: 'NA-HOSTPATH-SENSITIVE',
          reason: 'the driver loader reads the host\'s /proc and /etc read-only to find the running kernel and distribution it builds or downloads the module for',
          unless: [],
          container: LOADER,
        },
      );
    } else {
      acks.push({
        rule: 'PSS-BASELINE-appArmorProfile',
        reason: 'on AppArmor nodes the runtime\'s default profile blocks Falco\'s reads of other processes\' /proc entries; the Falco chart sets the same override in least-privileged mode',
        // the annotation is kept whatever podAnnotations add (another value for it is refused)
        unless: [],
        pod: true,
      });
    }
    acknowledgeDefaults(this, props, acks);
  }
}

const SECURITY_AGENT_PROPS = presetProps('SecurityAgentProps', {
  driver: instance((v) => v instanceof FalcoDriver, 'created with FalcoDriver.modernEbpf() or FalcoDriver.kernelModule(reason)'),
  containerRuntimeSockets: strings('a list of host paths', "['/run/containerd/containerd.sock']"),
  driverLoaderImage: string(),
});
