/**
 * Internal: the host-path part of the host-access risk catalogue, as data.
 *
 * A path is judged by what it is, never by its parent: an entry's text holds for the entry's own path, and for a path
 * below it only when the entry says so. An entry either has no `below` (its text is true of everything below it: a
 * directory of programs, a home directory, the etcd data), or a `below` rule that judges a path below it which has no
 * entry of its own (a program's own runtime directory under /run, a program's own logs under /var/log, one CSI driver's
 * socket directory). Name rules (a runtime socket, a kubeconfig, wherever they are) come before the `below` rules.
 *
 * Texts and advice may depend on how the path is mounted (`PathUse`): advice already applied is never given.
 * Risk levels are written as the string values of `RiskLevel` so that this file need not import host-risk.ts.
 */

export type Risk = 'low' | 'medium' | 'high' | 'critical';

/** how a host path is mounted, as far as the texts depend on it. */
export interface PathUse {
  /** the path as written, normalised (`/var/run/antrea`, not `/run/antrea`). */
  readonly path: string;
  /** whether every mount of it is read-only. */
  readonly readOnly: boolean;
  /** `hostPath.type`, when set. */
  readonly type?: string;
  /** whether only init containers that run to completion write it (read it, for a read-only path). */
  readonly initOnly?: boolean;
}

/** a path below an entry that has no entry of its own. */
export interface BelowUse extends PathUse {
  /** the entry's path, written as the mounted path writes it (`/var/run` for `/run` when the path is under /var/run). */
  readonly parent: string;
  /** the path's segments below the entry: `['antrea']` for /var/run/antrea under /run. */
  readonly rest: string[];
}

export type Text = string | ((use: PathUse) => string);

export interface RiskText {
  readonly risk: Risk;
  readonly gains: Text;
}

/** advice: one text, one per mode, or a function of the use. */
export type Advice = string | { readonly readOnly: string; readonly readWrite: string } | ((use: PathUse) => string);

export interface PathJudgement {
  readonly readOnly: RiskText;
  readonly readWrite: RiskText;
  readonly alternative: Advice;
}

export interface PathEntry extends PathJudgement {
  /** normalised host path (or a Windows named pipe). */
  readonly path: string;
  /** for a container runtime's API socket or named pipe: the runtime's name. */
  readonly runtime?: string;
  /** how a path below `path` without an entry of its own is judged; without it, exactly as `path`. */
  readonly below?: (use: BelowUse) => PathJudgement;
}

const CONNECT_NOTE = 'a read-only mount does not stop a process from connecting to a socket';

function judgement(readOnly: [Risk, Text], readWrite: [Risk, Text], alternative: Advice): PathJudgement {
  return { readOnly: { risk: readOnly[0], gains: readOnly[1] }, readWrite: { risk: readWrite[0], gains: readWrite[1] }, alternative };
}

function entry(
  path: string, readOnly: [Risk, Text], readWrite: [Risk, Text], alternative: Advice, below?: (use: BelowUse) => PathJudgement,
): PathEntry {
  const e: PathEntry = { path, ...judgement(readOnly, readWrite, alternative) };
  return below ? { ...e, below } : e;
}

/** advice for a single file: read-only, typed File; nothing when that is how it is mounted. */
function fileAdvice(more = ''): (use: PathUse) => string {
  return (use) => {
    const typed = use.type === 'File' || use.type === 'FileOrCreate';
    if (use.readOnly && typed) return `nothing narrower: the single file, read-only, typed ${use.type}${more}`;
    if (use.readOnly) return `set type File, so that the kubelet checks it is a file${more}`;
    return `mount read-only${typed ? '' : ' with type File'}${more}`;
  };
}

/** `ro` for a read-only mount, `rw` otherwise. */
function byMode(ro: string, rw: string): Advice {
  return { readOnly: ro, readWrite: rw };
}

const READ_ONLY_IS_ENOUGH = 'nothing narrower: read-only is what reading it needs';

// ---------------------------------------------------------------------------------------------- runtime sockets

const RUNTIME_SOCKET_ADVICE = 'do not mount a container runtime socket: read container logs from /var/log/pods read-only, and container metadata ' +
  'from the kubelet or the API server with a ServiceAccount limited by RBAC';

function runtimeSocketText(runtime: string, note?: string): string {
  return `talks to the ${runtime} API through its socket (${note ? `${note}; ` : ''}${CONNECT_NOTE}): starts a privileged container with the ` +
    'node\'s root filesystem mounted, which is root on the node, and reads, stops or execs into every container it runs';
}

function runtimeSocket(path: string, runtime: string, note?: string): PathEntry {
  const gains = runtimeSocketText(runtime, note);
  return { path, runtime, readOnly: { risk: 'critical', gains }, readWrite: { risk: 'critical', gains }, alternative: RUNTIME_SOCKET_ADVICE };
}

/** a container runtime's runtime directory: its socket, found below it, makes it critical. */
function runtimeDir(path: string, runtime: string): PathEntry {
  return entry(path,
    ['medium', `reads the runtime state of ${runtime}`],
    ['critical', `replaces the sockets and runtime state of ${runtime}`],
    RUNTIME_SOCKET_ADVICE);
}

/** the socket file names the big runtimes use: a socket so named is recognised wherever it is. */
export const RUNTIME_SOCKET_NAMES: { [name: string]: string } = {
  'containerd.sock': 'containerd',
  'docker.sock': 'Docker Engine',
  'crio.sock': 'CRI-O',
  'cri-dockerd.sock': 'cri-dockerd',
  'dockershim.sock': 'dockershim',
  'podman.sock': 'Podman',
};

// ---------------------------------------------------------------------------------------------- shared texts

const ENGINE_STORE = (path: string, runtime: string, parts = true) => entry(path,
  ['high', `reads every container's filesystem and image layers that ${runtime} keeps, with any secret baked into them or written there`],
  ['critical', 'rewrites images and running containers\' filesystems: code execution in any pod on the node, privileged ones included'],
  'read container logs from /var/log/pods read-only instead; never mount the runtime\'s storage',
  // below the store's root, a directory this catalogue does not know is only a part of the storage
  parts ? (use) => judgement(
    ['medium', `reads ${use.path}, part of ${runtime}'s storage: what it holds decides the risk`],
    ['high', `tampers with ${use.path}, part of ${runtime}'s storage, which the runtime trusts when it starts containers`],
    'never mount the runtime\'s storage; read container logs from /var/log/pods read-only',
  ) : undefined);

const SYSTEM_BINARIES = (path: string) => entry(path,
  ['low', 'reads the node\'s programs and libraries (their versions tell which exploits apply)'],
  ['critical', 'replaces programs and libraries that run as root on the node: root on the node'],
  'ship the tools the agent needs in its image instead of using the node\'s');

const CA_STORE = (path: string) => entry(path,
  ['low', 'reads the node\'s trusted CA certificates, which are public'],
  ['high', 'adds a certificate authority the node trusts: intercepts the TLS traffic of host processes, image pulls included'],
  byMode('ship the CA bundle in the image or a ConfigMap instead', 'mount read-only; better, ship the CA bundle in the image or a ConfigMap'));

const HOME = (path: string, whose: string, belowIsUnknown = false) => entry(path,
  ['high', `reads ${whose} SSH keys, shell history and cloud or kubectl credentials`],
  ['critical', `adds an SSH key to ${whose} authorized_keys: a login on the node`],
  'do not mount home directories',
  // /home/<name> may be a user's home directory or anything else kept there (a CSI driver's keys, GKE's /home/kubernetes)
  belowIsUnknown ? (use) => (use.rest.includes('.ssh') ? judgement(
    ['high', `reads ${use.rest[0]}'s SSH keys`], ['critical', `adds an SSH key to ${use.rest[0]}'s authorized_keys: a login on the node`],
    'do not mount home directories') : judgement(
    ['high', `reads ${use.path}, a directory under ${use.parent} that this catalogue does not know: if it is a user's home directory, that ` +
      'user\'s SSH keys, shell history and credentials'],
    ['high', `writes ${use.path}, a directory under ${use.parent} that this catalogue does not know: if it is a user's home directory, adds an ` +
      'SSH key to that user\'s authorized_keys (a login on the node); otherwise what reads it decides the harm'],
    byMode(`check what ${use.path} holds: nothing narrower to suggest without knowing it`,
      `check what ${use.path} holds; mount it read-only unless the agent must write there`),
  )) : undefined);

const KERNEL_MODULES = (path: string) => entry(path,
  ['low', 'reads the installed kernel modules, which tell the exact kernel version'],
  ['critical', 'replaces kernel modules that the node loads: kernel code execution'],
  byMode('nothing narrower for tools that read kernel modules or build against them (eBPF tools, driver loaders); drop it if the agent does neither',
    'mount read-only (eBPF tools and driver loaders only read it)'));

const TEMP = (path: string) => entry(path,
  ['low', 'reads temporary files of host processes'],
  ['medium', 'plants files or symlinks in a directory that host processes trust, a classic local privilege escalation path'],
  'use an emptyDir for scratch space',
  // a directory below the temporary directory is not the shared directory host processes write to: what uses it decides
  (use) => judgement(
    ['low', `reads ${use.path}, a directory under ${use.parent} that this catalogue does not know: what is in it decides the risk`],
    ['medium', `writes ${use.path}, a directory under ${use.parent} that this catalogue does not know: what reads it decides the harm`],
    byMode(`nothing narrower to suggest without knowing what ${use.path} holds`, 'if it is the agent\'s own output, use an emptyDir or a directory of its own under /var/lib'),
  ));

const DATA = (path: string) => entry(path,
  ['medium', `reads the file systems mounted under ${path}: data disks and the files host services keep there`],
  ['high', `tampers with the file systems mounted under ${path} and the data host services keep there`],
  'mount only the directory the agent needs, read-only unless it must write there',
  (use) => judgement(
    ['medium', `reads what is mounted at ${use.path}: for a local volume provisioner's discovery directory, the local disks of PersistentVolumes ` +
      'with the data of the pods bound to them'],
    ['high', `changes what is mounted at ${use.path}: for a local volume provisioner's discovery directory, the local disks of PersistentVolumes ` +
      'with the data of the pods bound to them'],
    byMode(`nothing narrower: ${use.path} is one directory, mounted read-only`,
      'mount it read-only unless the agent must write there (a local volume provisioner cleans released volumes in its discovery directory)'),
  ));

const SHADOW = (path: string) => entry(path,
  ['high', 'reads the password hashes of the node\'s users, to crack offline'],
  ['critical', 'sets the password of root: root on the node'],
  'do not mount it: no agent needs password hashes');

const USERS = (path: string) => entry(path,
  ['low', 'reads user and group names, which are not secret'],
  ['critical', 'adds a user with UID 0 or changes group membership: root on the node'],
  fileAdvice());

const NAME_RESOLUTION = (path: string) => entry(path,
  ['low', 'reads the node\'s name resolution settings'],
  ['high', 'redirects the node\'s name resolution (the registry, the API server) to an attacker'],
  fileAdvice(', or rely on the pod\'s own DNS (dnsPolicy)'));

const KERNEL_DEBUG = (path: string) => entry(path,
  ['medium', 'reads kernel internals: addresses that defeat KASLR and tracing data of every process'],
  ['critical', 'turns on kernel tracing and changes kernel debugging knobs: observes and disrupts every process on the node'],
  'use eBPF with CAP_BPF and CAP_PERFMON instead of debugfs or tracefs');

const ROOT_CONFIG = (path: string, what: string) => entry(path,
  ['medium', `reads ${what}`],
  ['critical', `changes ${what}, which runs as root: root on the node`],
  'do not mount it');

const KUBECONFIG_ADVICE = (use: PathUse) => `${fileAdvice()(use)}; better, use the pod's own ServiceAccount token (projected, short-lived, limited by RBAC)`;

/** a kubeconfig file: the API credentials of whoever it names. */
function kubeconfig(path: string, whose: string, risk: Risk): PathJudgement {
  return judgement(
    [risk, `reads the kubeconfig ${path}, ${whose}: acts on the API server as that identity, with its RBAC`],
    [risk === 'critical' ? 'critical' : 'high', `replaces the kubeconfig ${path}, ${whose}: the programs that read it then talk to an API server or ` +
      'as an identity the attacker chose'],
    KUBECONFIG_ADVICE);
}

/** kubeadm's kubeconfigs in /etc/kubernetes, by file name. */
const KUBEADM_CONFS: { [file: string]: [string, Risk] } = {
  'admin.conf': ['cluster-admin credentials on control-plane nodes', 'critical'],
  'super-admin.conf': ['credentials in group system:masters on control-plane nodes, which RBAC cannot limit', 'critical'],
  'controller-manager.conf': ['the controller manager\'s credentials, which mint tokens for every ServiceAccount', 'critical'],
  'scheduler.conf': ['the scheduler\'s credentials', 'high'],
  'kubelet.conf': ['the kubelet\'s credentials: the node\'s identity', 'high'],
  'bootstrap-kubelet.conf': ['a bootstrap token that joins nodes to the cluster', 'high'],
};

// ---------------------------------------------------------------------------------------------- below rules

function isCgroupMount(use: BelowUse): boolean {
  return use.rest.some((s) => /^cgroup(v2|2|fs)?$/i.test(s));
}

/** a directory under /run without an entry of its own: the cgroup2 hierarchy a program mounts there, or one this catalogue does not know. */
function belowRun(use: BelowUse): PathJudgement {
  if (isCgroupMount(use)) {
    return judgement(
      ['low', `reads the resource usage and limits of every container and host service in the cgroup (v2) hierarchy that a program mounts at ${use.path}`],
      ['high', 'changes the resource limits (memory.max, cpu.max, pids.max) of every container and host service through the cgroup (v2) hierarchy ' +
        `mounted at ${use.path}: starves or kills them (cgroup v2 has no release_agent)`],
      byMode('nothing narrower: read-only is what reading cgroups needs', 'mount read-only unless the agent attaches BPF programs to cgroups'),
    );
  }
  // which program owns an unknown directory under /run, and what it serves there, is not known: the judgement is of what
  // such a directory can hold (a service's sockets, PID files and state), never a guess at its owner
  const what = `${use.path}, a directory under ${use.parent} that this catalogue does not know: what it is decides the risk (a runtime directory ` +
    'holds the sockets, PID files and state of the service that owns it, which may be a host service or the agent itself)';
  return judgement(
    ['medium', `reads ${what}; ${CONNECT_NOTE}, so it can also call the sockets served there, with what they allow`],
    ['high', `replaces the files and sockets in ${what}: impersonates or disrupts whichever service that is`],
    byMode(`check what serves ${use.path}: nothing narrower to suggest without knowing it`,
      `check what serves ${use.path}; keep it to the program that owns it, and mount it read-only in containers that only read it`),
  );
}

function belowVarLog(use: BelowUse): PathJudgement {
  const whose = use.rest.length === 1 ? 'the logs one program writes there (not other pods\' or host services\')'
    : `logs that the program keeping ${use.parent}/${use.rest[0]} writes there (not other pods' or host services')`;
  return judgement(
    ['low', `reads ${use.path}: ${whose}`],
    ['medium', `erases or forges ${use.path}: ${whose}; and plants symlinks there that the kubelet follows when it serves /var/log to API ` +
      'clients with nodes/log or nodes/proxy rights'],
    byMode(`nothing narrower: ${use.path} is one program's log directory, mounted read-only`,
      `keep ${use.path} to the program that writes it, and mount it read-only in containers that only read it`),
  );
}

function belowVarLib(use: BelowUse): PathJudgement {
  const own = use.type === 'DirectoryOrCreate' || use.type === 'Directory';
  return judgement(
    ['low', `reads ${use.path}, the state of the host service or agent that keeps it`],
    ['medium', `tampers with ${use.path}, the state of the host service or agent that keeps it; if the directory is the agent's own, only with the agent's state`],
    byMode(`nothing narrower: ${use.path} is one program's state directory, mounted read-only`,
      own ? `keep ${use.path} for this agent alone, and mount it read-only in containers that only read it`
        : `keep ${use.path} for this agent alone (type DirectoryOrCreate), and mount it read-only in containers that only read it`),
  );
}

function belowEtcKubernetes(use: BelowUse): PathJudgement {
  const first = use.rest[0];
  if (use.rest.length === 1 && Object.prototype.hasOwnProperty.call(KUBEADM_CONFS, first)) {
    const [whose, risk] = KUBEADM_CONFS[first];
    return kubeconfig(use.path, whose, risk);
  }
  if (use.rest.length === 1 && first.endsWith('.conf')) return kubeconfig(use.path, 'a kubeconfig of a node component', 'high');
  const what = `${use.path}, a subdirectory of /etc/kubernetes that one component keeps (not the static pod manifests, the kubeconfigs or pki/)`;
  return judgement(
    ['medium', `reads ${what}: its configuration and sockets`],
    ['high', `rewrites ${what}: its configuration and sockets, subverting that component`],
    byMode(`nothing narrower: ${use.path} is one component's directory, mounted read-only`,
      `keep ${use.path} to the component that owns it, and mount it read-only in containers that only read it`),
  );
}

function belowKubeletPlugins(use: BelowUse): PathJudgement {
  const driver = use.rest[0];
  const what = `the socket directory of the CSI driver ${driver} (one driver's, not other drivers')`;
  return judgement(
    ['medium', `talks to the socket in ${what} (${CONNECT_NOTE}): asks that driver to mount or unmount its volumes`],
    ['high', `replaces the socket in ${what}: receives the kubelet's calls for that driver's volumes, with any secrets they carry; for the ` +
      'driver\'s own node plugin this is what it does anyway'],
    `nothing narrower: ${use.parent}/${driver} is one driver's own directory; mount it only in that driver's node plugin containers (the driver, its ` +
      'registrar and liveness probe)',
  );
}

function belowProc(use: BelowUse): PathJudgement {
  const first = use.rest[0];
  if (/^\d+$/.test(first) || first === 'self' || first === 'thread-self') {
    // the kubelet resolves the path on the host: /proc/self is the kubelet's own process
    const which = first === '1' ? 'the host\'s init process (PID 1)'
      : /^\d+$/.test(first) ? `the host process with PID ${first}, or whatever process has that PID now`
        : `the kubelet's own process (the kubelet resolves the path on the host, where ${first === 'self' ? '/proc/self' : '/proc/thread-self'} is its own)`;
    return judgement(
      ['high', `reads ${use.path}, the /proc entry of ${which}: its command line and, with ptrace access (SYS_PTRACE or privileged), its ` +
        'environment and, through its root link, the host\'s filesystem'],
      ['critical', `writes ${use.path}, the /proc entry of ${which}: its memory and settings, with ptrace access root on the node`],
      'do not mount a process\'s /proc entry; read what the agent needs through /proc read-only, or the kubelet\'s metrics');
  }
  return judgement(
    ['low', `reads ${use.path}, kernel information /proc exposes for the whole node (no process's own data)`],
    ['high', `writes ${use.path}, a kernel interface of the whole node (writable ones such as /proc/sysrq-trigger reboot or crash it)`],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only'));
}

function belowSys(use: BelowUse): PathJudgement {
  return judgement(
    ['low', `reads ${use.path}: hardware, driver and kernel information of the node`],
    ['high', `changes the kernel, driver or device settings under ${use.path}: disrupts the node's hardware and drivers`],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only (reading metrics needs no more)'));
}

function belowDev(use: BelowUse): PathJudgement {
  return judgement(
    ['medium', `gets the device node ${use.path}; a privileged container (or one the device cgroup allows) opens it`],
    ['high', `gets the device node ${use.path} and can replace it; a privileged container (or one the device cgroup allows) writes the device`],
    'expose the device through a device plugin rather than a host path');
}

function belowEtc(use: BelowUse): PathJudgement {
  return judgement(
    ['medium', `reads ${use.path}, configuration of host software (configuration can hold credentials)`],
    ['high', `rewrites ${use.path}, configuration that host software reads: what reads it decides the harm, root on the node if a root service runs ` +
      'what it configures'],
    (u) => {
      if (!u.readOnly) return 'mount read-only; if the agent writes configuration of its own, give it a directory of its own';
      if (u.type === 'File' || u.type === 'FileOrCreate') return `nothing narrower: the single file, read-only, typed ${u.type}`;
      if (u.type === 'Directory' || u.type === 'DirectoryOrCreate') return 'mount only the files the agent reads, each with type File';
      return 'set a type (File or Directory), so that the kubelet checks what it mounts';
    });
}

function belowGeneric(what: string): (use: BelowUse) => PathJudgement {
  return (use) => judgement(
    ['medium', `reads ${use.path}, ${what}: what is in it decides the risk`],
    ['high', `writes ${use.path}, ${what}: any host software that reads it can be subverted`],
    byMode(`nothing narrower: ${use.path} is mounted read-only`, 'mount it read-only with a type (Directory or File); if the agent must write, give it a directory of its own'));
}

// ---------------------------------------------------------------------------------------------- the catalogue

/**
 * The catalogue. Order matters only to choose which descendant to name when a directory contains something riskier
 * than itself: the first of the riskiest in this order.
 */
export const PATH_CATALOGUE: PathEntry[] = [
  // container runtime sockets: critical even read-only
  runtimeSocket('/run/containerd/containerd.sock', 'containerd'),
  runtimeSocket('/run/docker.sock', 'Docker Engine'),
  runtimeSocket('/run/crio/crio.sock', 'CRI-O'),
  runtimeSocket('/run/cri-dockerd.sock', 'cri-dockerd'),
  runtimeSocket('/run/dockershim.sock', 'dockershim', 'on older Bottlerocket releases, the CRI socket of its containerd'),
  runtimeSocket('/run/podman/podman.sock', 'Podman'),
  runtimeSocket('/run/k3s/containerd/containerd.sock', 'k3s (and RKE2) containerd'),
  runtimeSocket('/run/k0s/containerd.sock', 'k0s containerd'),
  runtimeSocket('/run/host-containerd/containerd.sock', 'Bottlerocket host containerd', 'it runs the host containers, admin and control among them'),
  runtimeSocket('/run/docker/containerd/containerd.sock', 'Docker Engine\'s containerd'),
  runtimeSocket('/var/snap/microk8s/common/run/containerd.sock', 'MicroK8s containerd'),
  runtimeSocket('\\\\.\\pipe\\containerd-containerd', 'containerd (Windows named pipe)'),
  runtimeSocket('\\\\.\\pipe\\docker_engine', 'Docker Engine (Windows named pipe)'),

  // the runtimes' own runtime directories
  entry('/run/containerd',
    ['high', 'reads containerd\'s runtime state: every running container\'s bundle (config.json, with the environment variables that carry secrets)'],
    ['critical', 'replaces containerd\'s and its shims\' sockets and the bundles of running containers'],
    RUNTIME_SOCKET_ADVICE),
  entry('/run/containers',
    ['high', 'reads the runtime state of CRI-O and Podman: every running container\'s bundle (config.json, with the environment variables that carry secrets)'],
    ['critical', 'replaces the runtime state and bundles of running containers'],
    RUNTIME_SOCKET_ADVICE),
  runtimeDir('/run/crio', 'CRI-O'),
  runtimeDir('/run/k3s', 'k3s (its containerd among it)'),
  runtimeDir('/run/k0s', 'k0s (its containerd among it)'),
  runtimeDir('/run/host-containerd', 'Bottlerocket\'s host containerd'),
  runtimeDir('/run/docker', 'Docker Engine'),
  runtimeDir('/run/podman', 'Podman'),

  // cluster state and credentials
  entry('/var/lib/etcd',
    ['critical', 'reads the etcd database: every Secret of the cluster, in plain text unless encryption at rest is on'],
    ['critical', 'rewrites the cluster state: any object, any RBAC binding'],
    'never mount it; back etcd up with etcdctl snapshot from the control plane'),
  entry('/etc/kubernetes',
    ['critical', 'reads the kubeconfigs in it (the kubelet\'s; on control-plane nodes admin.conf) and, on control-plane nodes, the cluster CA and ' +
      'service-account signing keys: control of the whole cluster'],
    ['critical', 'also writes static pod manifests (/etc/kubernetes/manifests) that the kubelet runs with any privilege, and replaces cluster certificates'],
    'do not mount Kubernetes configuration; talk to the API server with a ServiceAccount limited by RBAC',
    belowEtcKubernetes),
  entry('/etc/kubernetes/manifests',
    ['medium', 'reads the static pod manifests: the control plane\'s commands, flags and file locations on control-plane nodes'],
    ['critical', 'writes static pod manifests that the kubelet runs with any privilege, host paths and host namespaces: root on the node, and on ' +
      'control-plane nodes control of the cluster'],
    'never mount it'),
  entry('/etc/kubernetes/pki',
    ['critical', 'reads the cluster CA key, the service-account signing key (sa.key) and the etcd CA on control-plane nodes (usually only ca.crt on ' +
      'workers): control of the whole cluster'],
    ['critical', 'replaces the cluster\'s certificates and keys on control-plane nodes: control of the whole cluster'],
    'never mount it; read the cluster CA from the kube-root-ca.crt ConfigMap'),
  entry('/etc/kubernetes/node-feature-discovery',
    ['low', 'reads the local feature files and hooks of Node Feature Discovery'],
    ['medium', 'writes Node Feature Discovery\'s local feature files (features.d), which nfd-worker publishes as labels of this node: draws or ' +
      'repels the workloads that select those labels'],
    (use) => (use.readOnly ? READ_ONLY_IS_ENOUGH
      : /\/features\.d$/.test(use.path) ? 'nothing narrower: features.d is the one directory that feature files go to; mount it only in the agent that publishes features'
        : 'mount only features.d, and only in the agent that publishes features through it')),
  entry('/var/lib/rancher/k3s/server',
    ['critical', 'reads the k3s datastore and server token: joins nodes to the cluster and reads every Secret'],
    ['critical', 'rewrites the k3s datastore and certificates: control of the whole cluster'],
    'never mount it'),

  // other root-owned sockets
  entry('/run/dbus/system_bus_socket',
    ['critical', `talks to systemd and other root services over the D-Bus system bus (${CONNECT_NOTE}): starts units and reboots the node, as root`],
    ['critical', `talks to systemd and other root services over the D-Bus system bus (${CONNECT_NOTE}): starts units and reboots the node, as root`],
    'do not mount it; read what the agent needs from files, read-only'),
  entry('/run/dbus',
    ['medium', 'reads the D-Bus system bus\'s runtime directory'],
    ['critical', 'replaces the D-Bus system bus socket that root services use'],
    'do not mount it; read what the agent needs from files, read-only'),
  entry('/run/systemd/private',
    ['critical', `controls systemd through its private socket (${CONNECT_NOTE}): runs any command as root on the node`],
    ['critical', `controls systemd through its private socket (${CONNECT_NOTE}): runs any command as root on the node`],
    'do not mount it'),

  // the root and top-level directories
  entry('/',
    ['high', 'reads every file on the node: host credentials, the kubelet\'s and other pods\' secrets and service account tokens'],
    ['critical', 'rewrites any file on the node (binaries, systemd units, cron jobs, SSH keys): root on the node'],
    byMode('mount only the directories the agent needs, each typed (Directory, File or Socket)',
      'mount only the directories the agent needs, each read-only and typed (Directory, File or Socket)')),
  entry('/etc',
    ['high', 'reads the node\'s configuration, including password hashes (/etc/shadow) and the kubelet\'s kubeconfig and TLS material'],
    ['critical', 'adds users, sudoers rules, cron jobs or systemd units: root on the node'],
    byMode('mount only the files needed (e.g. /etc/os-release, /etc/machine-id), each with type File',
      'mount the single file needed (e.g. /etc/os-release, /etc/machine-id) read-only with type File'),
    belowEtc),
  SHADOW('/etc/shadow'),
  SHADOW('/etc/gshadow'),
  USERS('/etc/passwd'),
  USERS('/etc/group'),
  entry('/etc/sudoers',
    ['medium', 'reads who may become root on the node'],
    ['critical', 'lets any user become root on the node'],
    'do not mount it'),
  entry('/etc/sudoers.d',
    ['medium', 'reads who may become root on the node'],
    ['critical', 'lets any user become root on the node'],
    'do not mount it'),
  ROOT_CONFIG('/etc/systemd', 'the configuration of systemd and its units'),
  ROOT_CONFIG('/etc/cron.d', 'the cron jobs of the node'),
  ROOT_CONFIG('/etc/crontab', 'the node\'s system crontab'),
  ROOT_CONFIG('/etc/containerd', 'containerd\'s configuration (the runtimes it starts for every container)'),
  ROOT_CONFIG('/etc/crio', 'CRI-O\'s configuration (the runtimes it starts for every container)'),
  ROOT_CONFIG('/etc/docker', 'Docker Engine\'s configuration'),
  entry('/etc/ssh',
    ['high', 'reads the node\'s SSH host keys: impersonates the node to SSH clients'],
    ['critical', 'changes the SSH server\'s configuration and host keys: a login on the node'],
    'do not mount it'),
  entry('/etc/os-release',
    ['low', 'reads the node\'s OS name and version'],
    ['medium', 'misreports the node\'s OS to every tool that reads it'],
    fileAdvice()),
  entry('/etc/machine-id',
    ['low', 'reads the node\'s machine ID (used to find its journal)'],
    ['medium', 'changes the node\'s identity for journald and systemd'],
    fileAdvice()),
  entry('/etc/localtime',
    ['low', 'reads the node\'s time zone'],
    ['medium', 'changes the time zone of every process on the node, confusing logs and schedules'],
    fileAdvice()),
  entry('/etc/hostname',
    ['low', 'reads the node\'s host name'],
    ['medium', 'renames the node at its next boot'],
    fileAdvice()),
  NAME_RESOLUTION('/etc/hosts'),
  NAME_RESOLUTION('/etc/resolv.conf'),
  CA_STORE('/etc/ssl'),
  CA_STORE('/etc/pki'),
  CA_STORE('/etc/ca-certificates'),
  CA_STORE('/usr/share/ca-certificates'),
  entry('/etc/cni/net.d',
    ['medium', 'reads the node\'s pod network configuration, which can carry the CNI plugin\'s credentials'],
    ['high', 'rewrites the network configuration used for every new pod on the node: intercepts or blackholes pod traffic'],
    (use) => (use.readOnly ? READ_ONLY_IS_ENOUGH
      : use.initOnly ? 'nothing narrower: only the install init container writes the network configuration'
        : 'mount it read-write only where the CNI plugin writes its own configuration (best in its install init container), read-only elsewhere')),
  entry('/opt/cni/bin',
    ['low', 'reads the CNI plugin binaries'],
    ['critical', 'replaces binaries that the container runtime runs as root on the host for every new pod: root on the node'],
    (use) => (use.readOnly ? READ_ONLY_IS_ENOUGH
      : use.initOnly ? 'nothing narrower: only the install init container writes it, as it should; pin that image by digest, since what it copies ' +
        'runs as root for every new pod'
        : 'mount it read-write only in the CNI plugin\'s install init container, never in a long-running container')),
  entry('/opt',
    ['low', 'reads third-party software installed on the node'],
    ['high', 'replaces third-party software that host services run'],
    'mount only the subdirectory needed (e.g. /opt/cni/bin for a CNI installer), read-only unless the agent installs software there',
    (use) => judgement(
      ['low', `reads the software installed in ${use.path}`],
      ['high', `replaces the software installed in ${use.path}, which host services may run`],
      byMode(READ_ONLY_IS_ENOUGH, 'mount read-only unless the agent installs that software'))),

  // kubelet
  entry('/var/lib/kubelet',
    ['high', 'reads the secrets, ConfigMaps and service account tokens mounted into every pod on the node, and the kubelet\'s credentials'],
    ['critical', 'tampers with other pods\' volumes and with the kubelet\'s state and credentials'],
    'mount only the subdirectories needed: a CSI node plugin needs /var/lib/kubelet/pods (published volumes), ' +
      '/var/lib/kubelet/plugins/kubernetes.io/csi (staged volumes) and /var/lib/kubelet/plugins/<driver> (its socket)',
    (use) => judgement(
      ['medium', `reads ${use.path}, part of the kubelet's state`],
      ['high', `tampers with ${use.path}, part of the kubelet's state`],
      byMode(READ_ONLY_IS_ENOUGH, 'mount read-only unless the agent is the component that writes it'))),
  entry('/var/lib/kubelet/pods',
    ['high', 'reads the volumes of every pod on the node: their Secrets, ConfigMaps and service account tokens'],
    ['critical', 'tampers with the volumes of every pod on the node'],
    'needed only by a CSI node plugin\'s driver container, which publishes volumes under /var/lib/kubelet/pods/<uid>/volumes; no other agent needs it'),
  entry('/var/lib/kubelet/pki',
    ['high', 'reads the kubelet\'s client and serving keys: impersonates the node to the API server'],
    ['critical', 'replaces the kubelet\'s certificates: impersonates the node and intercepts API server to kubelet traffic'],
    'do not mount it'),
  entry('/var/lib/kubelet/config.yaml',
    ['medium', 'reads the kubelet\'s configuration'],
    ['critical', 'rewrites the kubelet\'s configuration (e.g. anonymous access to its API, which runs commands in every pod): root on the node at the ' +
      'kubelet\'s next start'],
    'do not mount it'),
  entry('/var/lib/kubelet/seccomp',
    ['low', 'reads the seccomp profiles that pods use'],
    ['high', 'replaces the Localhost seccomp profiles of pods: lifts their confinement'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only unless the agent installs the profiles')),
  entry('/var/lib/kubelet/checkpoints',
    ['high', 'reads container checkpoints: memory images of containers, with the secrets in them'],
    ['critical', 'replaces container checkpoints that are restored as running containers'],
    'do not mount it'),
  entry('/var/lib/kubelet/plugins',
    ['high', `talks to every CSI driver on the node through its socket (${CONNECT_NOTE}): mounts and unmounts volumes of other pods`],
    ['high', 'replaces any CSI driver\'s socket: intercepts volume operations on the node, with the secrets they carry'],
    'mount only the driver\'s own directory, /var/lib/kubelet/plugins/<driver>',
    belowKubeletPlugins),
  entry('/var/lib/kubelet/plugins/kubernetes.io',
    ['high', 'reads the volumes the kubelet has staged for every CSI driver (kubernetes.io/csi/...): the data of every pod\'s CSI volumes on the node'],
    ['high', 'tampers with the volumes staged for every CSI driver on the node: the data of every pod\'s CSI volumes'],
    'needed only by a CSI node plugin that stages volumes (NodeStageVolume); no other agent needs it'),
  entry('/var/lib/kubelet/plugins_registry',
    ['medium', 'lists the plugins registered with the kubelet and talks to their registration sockets'],
    ['high', 'registers plugins with the kubelet: poses as a CSI driver or device plugin'],
    'needed only by the container that registers a CSI driver or device plugin with the kubelet (its registrar); no other container needs it'),
  entry('/var/lib/kubelet/device-plugins',
    ['high', `talks to the kubelet's device plugin socket (${CONNECT_NOTE}): registers fake devices and receives the pods that request them`],
    ['high', 'registers fake devices with the kubelet and replaces other device plugins\' sockets'],
    'needed only by a device plugin; no other agent needs it'),
  entry('/var/lib/kubelet/pod-resources',
    ['medium', `lists every pod on the node with its devices and CPUs through the kubelet's pod-resources socket (${CONNECT_NOTE})`],
    ['medium', `lists every pod on the node with its devices and CPUs through the kubelet's pod-resources socket (${CONNECT_NOTE})`],
    'needed only by monitoring agents that report device assignments; no other agent needs it'),

  // container runtime storage
  ENGINE_STORE('/var/lib/docker', 'Docker'),
  entry('/var/lib/docker/containers',
    ['high', 'reads every container\'s log (<id>-json.log) and configuration (config.v2.json), which holds its environment variables: the secrets ' +
      'passed as env'],
    ['critical', 'erases or forges container logs and rewrites container configurations, which Docker reads when it restarts a container (its ' +
      'command, mounts and privileges): root on the node'],
    byMode('read container logs from /var/log/pods (the kubelet\'s log files, without the configurations) instead',
      'mount read-only; better, read container logs from /var/log/pods instead')),
  ENGINE_STORE('/var/lib/docker/overlay2', 'Docker', false),
  ENGINE_STORE('/var/lib/containerd', 'containerd'),
  ENGINE_STORE('/var/lib/containers', 'CRI-O and Podman'),
  entry('/var/lib/cni',
    ['low', 'reads the IP addresses allocated to pods on the node'],
    ['medium', 'corrupts IP allocations: pods on the node lose networking'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount only the plugin\'s own subdirectory (host-local IPAM keeps /var/lib/cni/networks/<network>)')),
  entry('/var/lib/dbus',
    ['low', 'reads D-Bus\'s machine ID (/var/lib/dbus/machine-id)'],
    ['medium', 'replaces D-Bus\'s machine ID, the node\'s identity for D-Bus and the journal'],
    'mount only the file the agent reads, /var/lib/dbus/machine-id (or /etc/machine-id), read-only with type File'),
  entry('/var/lib',
    ['medium', 'reads the state of every service on the node'],
    ['high', 'tampers with the state of every service on the node'],
    'mount only the agent\'s own state directory, e.g. /var/lib/<agent>, with type DirectoryOrCreate',
    belowVarLib),

  // logs
  entry('/var/log',
    ['medium', 'reads the logs of every pod and host service on the node, where tokens and personal data often leak'],
    ['high', 'erases or forges logs to hide an attack, and plants symlinks that the kubelet follows when it serves logs: reads any file on the node'],
    byMode('mount only the log directories the agent reads (e.g. /var/log/pods and /var/log/containers for container logs)',
      'mount read-only and keep the agent\'s own state (read positions) in a directory of its own, e.g. /var/lib/<agent>'),
    belowVarLog),
  entry('/var/log/pods',
    ['medium', 'reads the logs of every pod on the node, where tokens and personal data often leak'],
    ['high', 'erases or forges pod logs, and replaces log files with symlinks that the kubelet follows when it serves them: reads any file on the node'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only and keep the agent\'s own state (read positions) in a directory of its own, e.g. /var/lib/<agent>')),
  entry('/var/log/containers',
    ['medium', 'reads the logs of every pod on the node (through these links to /var/log/pods), where tokens and personal data often leak'],
    ['high', 'replaces the links to every pod\'s logs with symlinks that readers of these logs follow'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only and keep the agent\'s own state (read positions) in a directory of its own, e.g. /var/lib/<agent>')),
  entry('/var/log/journal',
    ['medium', 'reads the node\'s system journal: the logs of every host service, the kubelet and the container runtime among them'],
    ['high', 'erases or forges entries of the node\'s system journal'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only')),
  entry('/run/log/journal',
    ['medium', 'reads the node\'s volatile system journal'],
    ['high', 'erases or forges entries of the node\'s system journal'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only')),
  entry('/var/spool',
    ['medium', 'reads queued mail and scheduled jobs'],
    ['high', 'changes the queues of host services (mail, print, jobs)'],
    'do not mount it',
    (use) => judgement(
      ['low', `reads ${use.path}, the queue of one host service`],
      ['medium', `changes ${use.path}, the queue of one host service`],
      'do not mount it')),
  ROOT_CONFIG('/var/spool/cron', 'the cron and at jobs of the node\'s users and of root'),
  ROOT_CONFIG('/var/spool/at', 'the at jobs of the node'),
  entry('/var/cache',
    ['low', 'reads cached package and application data'],
    ['medium', 'poisons caches used by host services'],
    'mount only the subdirectory needed'),
  TEMP('/tmp'),
  TEMP('/var/tmp'),
  entry('/var',
    ['medium', 'reads logs, caches and the state of every service on the node'],
    ['high', 'tampers with the logs and state of every service on the node'],
    byMode('mount only the subdirectory needed', 'mount only the subdirectory needed, read-only'),
    belowGeneric('a directory under /var that this catalogue does not know')),

  // /run (and /var/run, which is treated as /run): shared locations exactly; anything else below /run is one program's own
  entry('/run',
    ['medium', 'reads the runtime state of host services (their PID files, and the sockets they serve)'],
    ['critical', 'replaces the sockets and PID files of host services'],
    'mount only the program\'s own directory (e.g. /run/<program>) or file (e.g. /run/xtables.lock) that the agent needs',
    belowRun),
  entry('/run/xtables.lock',
    ['low', 'holds the iptables lock: delays kube-proxy and CNI rule updates on the node'],
    ['low', 'holds the iptables lock: delays kube-proxy and CNI rule updates on the node'],
    (use) => (use.type === 'FileOrCreate' || use.type === 'File'
      ? `nothing to change: it is the lock that iptables-based agents share, typed ${use.type}`
      : 'mount it with type FileOrCreate: it is what iptables-based agents need')),
  entry('/run/netns',
    ['medium', 'sees the network namespace of every pod on the node; with CAP_SYS_ADMIN it enters them'],
    ['high', 'creates or removes pod network namespaces on the node'],
    'needed only by the CNI plugin and agents that enter pods\' network namespaces; no other agent needs it'),
  entry('/run/udev',
    ['low', 'reads the node\'s device database'],
    ['critical', 'adds runtime udev rules (/run/udev/rules.d), whose RUN programs udevd runs as root on the next device event, and forges ' +
      'the device database: root on the node'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only (a driver that only queries devices reads the database)')),
  entry('/run/systemd',
    ['medium', 'reads systemd\'s runtime state'],
    ['critical', 'replaces systemd\'s sockets and runtime units'],
    'mount only the file needed, read-only'),
  entry('/run/user',
    ['medium', 'reads the runtime directories of users logged in to the node (their D-Bus and systemd user sockets)'],
    ['high', 'replaces the sockets in the runtime directories of users logged in to the node'],
    'do not mount it'),
  entry('/run/lock',
    ['low', 'reads the lock files that host programs share'],
    ['medium', 'holds or removes the lock files that host programs share'],
    'mount only the lock file the agent shares (e.g. /run/xtables.lock)'),

  // programs' own runtime directories under /run, known by name (each project's manifests and docs): what they serve there
  ...([
    ['/run/flannel', 'flannel\'s runtime directory (subnet.env, read by the flannel CNI plugin for every new pod)', 'medium',
      'rewrites flannel\'s subnet.env, which the flannel CNI plugin reads for every new pod: misroutes or breaks new pods\' networks'],
    ['/run/calico', 'calico-node\'s runtime directory (BIRD\'s control sockets, Felix state)', 'high',
      'replaces calico-node\'s BIRD control sockets and state: changes the routes the node advertises'],
    ['/run/nodeagent', 'Calico\'s node agent socket directory (Felix\'s policy sync and workload credentials for Dikastes and the CSI driver)', 'high',
      'replaces the node agent socket Felix serves: hands pods forged policy and workload credentials'],
    ['/run/cilium', 'cilium-agent\'s runtime directory (its API socket cilium.sock, Envoy\'s sockets, health and BPF state)', 'high',
      'replaces or calls cilium-agent\'s API socket (cilium.sock): changes endpoints and the network policy of every pod on the node'],
    ['/run/aws-node', 'the Amazon VPC CNI\'s runtime directory (ipamd\'s IP allocation checkpoint)', 'medium',
      'rewrites ipamd\'s IP allocation checkpoint: double-assigns or leaks pod IPs on the node'],
    ['/run/istio-cni', 'istio-cni\'s runtime directory (the socket its CNI plugin reports new pods to)', 'medium',
      'replaces istio-cni\'s socket: new pods are not reported, so their traffic is not captured for the mesh'],
    ['/run/ztunnel', 'ztunnel\'s runtime directory (the socket istio-cni hands pods\' network namespaces to)', 'high',
      'replaces ztunnel\'s socket: receives the network namespaces of the mesh\'s pods, and with them their traffic'],
    ['/run/tetragon', 'Tetragon\'s runtime directory (its gRPC socket and BPF state)', 'medium',
      'replaces Tetragon\'s socket and state: hides or forges its security events'],
    ['/run/cilium/tetragon', 'Tetragon\'s runtime directory under Cilium\'s (its gRPC socket and BPF state)', 'medium',
      'replaces Tetragon\'s socket and state: hides or forges its security events'],
    ['/run/secrets-store-csi-providers', 'the Secrets Store CSI driver\'s provider sockets (Azure, AWS, GCP, Vault providers)', 'high',
      'replaces a secret provider\'s socket: receives the pods\' identities the driver sends and returns forged secrets'],
    ['/run/nvidia-fabricmanager', 'NVIDIA fabric manager\'s runtime directory', 'medium', 'replaces NVIDIA fabric manager\'s socket and state: disrupts NVLink for the node\'s GPUs'],
    ['/run/nvidia-topologyd', 'NVIDIA topologyd\'s runtime directory', 'medium', 'replaces NVIDIA topologyd\'s socket and state: misleads GPU topology discovery'],
  ] as [string, string, Risk, string][]).map(([path, what, risk, gains]) => {
    const own = judgement([risk === 'high' ? 'medium' : 'low', `reads ${what}; ${CONNECT_NOTE}`], [risk, gains],
      byMode('nothing narrower: one program\'s own runtime directory, mounted read-only',
        'keep it to the program that owns it, and mount it read-only in containers that only read it'));
    // the cgroup2 hierarchy a program mounts below its directory (Cilium's /run/cilium/cgroupv2) is the cgroup tree, not the program's
    const inside = (use: BelowUse) => judgement(['low', `reads ${use.path}, inside ${what}; ${CONNECT_NOTE}`],
      [risk === 'high' ? 'medium' : risk, `replaces the files and sockets in ${use.path}, inside ${what}: disrupts or impersonates that program`],
      byMode(`nothing narrower: ${use.path} is part of one program's own runtime directory, mounted read-only`,
        `keep ${use.path} to the program that owns it, and mount it read-only in containers that only read it`));
    return { path, ...own, below: (use: BelowUse) => (isCgroupMount(use) ? belowRun(use) : inside(use)) };
  }),
  // what node agents mount, each from its project's documentation or code
  // containerd's NRI socket (containerd docs/NRI.md: /var/run/nri/nri.sock); a plugin adjusts every container's spec
  entry('/run/nri',
    ['critical', `connects to containerd's NRI socket (${CONNECT_NOTE}): as an NRI plugin it changes every container the runtime creates ` +
      '(mounts, devices, hooks, environment, capabilities): root on the node'],
    ['critical', 'serves or replaces containerd\'s NRI socket: as an NRI plugin it changes every container the runtime creates (mounts, ' +
      'devices, hooks, environment, capabilities): root on the node'],
    (use) => (use.path.endsWith('/nri.sock')
      ? (use.type === 'Socket' ? 'nothing narrower: the NRI socket alone, typed Socket; mount it only in the NRI plugin\'s container'
        : 'set type Socket, so that the kubelet checks it is the socket; mount it only in the NRI plugin\'s container')
      : 'mount only the socket file (/var/run/nri/nri.sock, type Socket), and only in the NRI plugin\'s container')),
  // Container Device Interface spec directories (container-device-interface SPEC.md: /etc/cdi and /var/run/cdi)
  ...['/run/cdi', '/etc/cdi'].map((path) => entry(path,
    ['low', 'reads the Container Device Interface specs: which devices, mounts and hooks the runtime adds to the containers that request them'],
    ['critical', 'writes Container Device Interface specs: adds host mounts, devices and hooks (run as root on the host) to every container ' +
      'that requests a device the spec names: root on the node'],
    byMode(READ_ONLY_IS_ENOUGH, 'keep it to the device plugin or operator that generates the specs'))),
  // OCI hooks directories read by CRI-O and Podman (oci-hooks(5))
  ...['/run/containers/oci/hooks.d', '/etc/containers/oci/hooks.d', '/usr/share/containers/oci/hooks.d'].map((path) => entry(path,
    ['low', 'reads the OCI hooks CRI-O runs around containers'],
    ['critical', 'adds an OCI hook: a program CRI-O runs as root on the host around every container the hook matches: root on the node'],
    byMode(READ_ONLY_IS_ENOUGH, 'keep it to the installer of the hook, and mount it read-only elsewhere'))),
  // the NVIDIA GPU operator's roots (gpu-operator assets/state-driver and state-container-toolkit)
  entry('/run/nvidia',
    ['medium', 'reads the NVIDIA GPU operator\'s runtime root: the driver container\'s root filesystem, the container toolkit, validation markers'],
    ['critical', 'replaces the NVIDIA driver root (/run/nvidia/driver) and container toolkit (/run/nvidia/toolkit) that the runtime uses for ' +
      'every GPU container: root on the node'],
    'mount only the subdirectory needed (driver, toolkit or validations), read-only unless the container installs it'),
  entry('/run/nvidia/driver',
    ['low', 'reads the NVIDIA driver container\'s root filesystem (the driver\'s libraries and tools)'],
    ['critical', 'replaces the NVIDIA driver\'s libraries and tools that the container toolkit injects into every GPU container, and the ' +
      'kernel modules and firmware the driver container loads: root on the node'],
    byMode(READ_ONLY_IS_ENOUGH, 'keep it to the driver container; mount it read-only in containers that only use the driver')),
  entry('/run/nvidia/toolkit',
    ['low', 'reads the NVIDIA container toolkit\'s install directory'],
    ['critical', 'replaces the NVIDIA container runtime and hooks that the container runtime is configured to run, as root on the host: root on the node'],
    byMode(READ_ONLY_IS_ENOUGH, 'keep it to the toolkit installer')),
  entry('/run/nvidia/validations',
    ['low', 'reads the GPU operator\'s validation markers'],
    ['medium', 'forges or removes the GPU operator\'s validation markers: its components start before the driver or toolkit is ready, or never'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only in the containers that only wait for the markers')),
  // the Mellanox OFED driver container's root (NVIDIA network operator): kernel sources and modules the drivers build and load
  entry('/run/mellanox/drivers',
    ['low', 'reads the Mellanox OFED driver container\'s root (its kernel sources and modules)'],
    ['critical', 'replaces the Mellanox OFED driver files (kernel sources and modules) that the driver containers build and load: kernel code'],
    byMode(READ_ONLY_IS_ENOUGH, 'keep it to the OFED driver container; mount it read-only in the containers that build against it')),
  // GKE's Container-Optimized OS node: KUBE_HOME=/home/kubernetes, the kubelet and node binaries in bin (k8s.io/kubernetes cluster/gce/gci/configure.sh)
  entry('/home/kubernetes',
    ['medium', 'reads the Kubernetes node files GKE keeps on Container-Optimized OS (binaries, the kubelet\'s configuration)'],
    ['critical', 'replaces the Kubernetes node binaries GKE installs on Container-Optimized OS (the kubelet among them, run as root): root on the node'],
    'mount only the subdirectory needed, read-only unless the agent installs it'),
  entry('/home/kubernetes/bin/nvidia',
    ['low', 'reads the NVIDIA driver GKE installs on Container-Optimized OS'],
    ['critical', 'replaces the NVIDIA driver\'s libraries and binaries on Container-Optimized OS, which the device plugin mounts into every GPU container'],
    byMode(READ_ONLY_IS_ENOUGH, 'keep it to the driver installer')),
  // systemd-journald.socket: /dev/log is journald's syslog socket, not a device
  entry('/dev/log',
    ['medium', `connects to the host's syslog socket, journald's (${CONNECT_NOTE}): forges host log entries`],
    ['medium', 'forges host log entries through the host\'s syslog socket, or replaces it so that host programs\' syslog messages are lost'],
    'use the container\'s own stdout for its logs; mount /dev/log only if the agent must write to the host\'s syslog'),
  // the kernel's firmware search path (Documentation/driver-api/firmware/fw_search_path.rst)
  entry('/sys/module/firmware_class/parameters/path',
    ['low', 'reads the kernel\'s firmware search path'],
    ['critical', 'sets the kernel\'s firmware search path: the kernel loads device firmware from the directory written there, which may be the ' +
      'attacker\'s: firmware with DMA access to the node\'s memory'],
    byMode(READ_ONLY_IS_ENOUGH, 'keep it to the driver container that installs firmware')),
  // udev(7): rules in /etc/udev/rules.d, /run/udev/rules.d and /usr/lib/udev/rules.d; udevd runs their RUN programs as root
  entry('/etc/udev',
    ['low', 'reads udev\'s configuration and rules'],
    ['critical', 'adds udev rules (/etc/udev/rules.d), whose RUN programs udevd runs as root on the next device event: root on the node'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only; a driver that needs a rule should ship it with the node image')),
  // cloud provider configuration with credentials (cloud-provider-azure: /etc/kubernetes/azure.json holds the service principal secret)
  entry('/etc/kubernetes/azure.json',
    ['high', 'reads the Azure cloud provider\'s configuration: the cluster\'s service principal secret or managed identity, which manage its Azure resources'],
    ['critical', 'reads and rewrites the Azure cloud provider\'s configuration: the cluster\'s Azure credentials, and where the kubelet sends its cloud calls'],
    fileAdvice('; better, use workload identity instead of the node\'s cloud credentials')),
  // RHEL-family private keys (/etc/pki/tls/private: the host's TLS keys)
  entry('/etc/pki/tls/private',
    ['high', 'reads the host\'s TLS private keys: impersonates the services that use them'],
    ['critical', 'reads and replaces the host\'s TLS private keys: impersonates the services that use them'],
    'do not mount it: mount a Secret with the agent\'s own key'),

  // kernel interfaces
  entry('/proc',
    ['high', 'reads the command line of every process on the node and, with ptrace access (SYS_PTRACE or privileged), their environment (other ' +
      'containers\' secrets among them) and, through /proc/1/root, the host\'s filesystem'],
    ['critical', 'writes kernel settings such as /proc/sys/kernel/core_pattern, which runs a program as root on the host: root on the node'],
    byMode('mount it only for node monitoring; prefer the kubelet\'s and the runtime\'s metrics',
      'mount read-only and only for node monitoring; prefer the kubelet\'s and the runtime\'s metrics'),
    belowProc),
  entry('/proc/sys',
    ['low', 'reads the kernel\'s settings'],
    ['high', 'changes kernel settings that apply to the whole node'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount only the settings the agent changes, e.g. /proc/sys/net'),
    (use) => judgement(
      ['low', `reads the kernel settings under ${use.path}`],
      ['high', `changes the kernel settings under ${use.path}, which apply to the whole node`],
      byMode(READ_ONLY_IS_ENOUGH, 'mount read-only unless the agent manages these settings'))),
  entry('/proc/sys/kernel',
    ['low', 'reads kernel settings (host name, limits, address randomisation)'],
    ['critical', 'writes kernel settings, among them core_pattern, which runs a program as root on the host when a process crashes: root on the node'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only; set the kernel settings the agent needs on the node, or through the pod\'s safe sysctls')),
  entry('/proc/sys/net',
    ['low', 'reads the network settings of the network namespace it runs in'],
    ['high', 'changes the network settings (IP forwarding, rp_filter, ARP, conntrack) of the network namespace it runs in (/proc/sys/net is per ' +
      'network namespace): with hostNetwork, the node\'s, for every pod on it'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only unless the agent manages the node\'s network settings (a CNI plugin)')),
  entry('/proc/sys/vm',
    ['low', 'reads the node\'s memory management settings'],
    ['medium', 'changes the node\'s memory management (overcommit, swappiness, caches): destabilises every workload on it'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only')),
  entry('/proc/sys/fs',
    ['low', 'reads the node\'s file system limits'],
    ['medium', 'changes the node\'s file system limits (open files, inotify watches): starves other workloads'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only')),
  entry('/proc/sys/fs/binfmt_misc',
    ['low', 'reads the registered binary formats'],
    ['critical', 'registers a binary format whose interpreter the kernel runs for every matching program, with the program\'s privileges: root on the node'],
    'do not mount it'),
  entry('/sys',
    ['medium', 'reads hardware, kernel and cgroup information of the node'],
    ['critical', 'changes kernel and device settings, e.g. /sys/kernel/uevent_helper, a program the kernel runs as root on the host'],
    byMode('mount only the subdirectories needed (e.g. /sys/class/net, /sys/fs/cgroup)', 'mount read-only (node metrics need no more)'),
    belowSys),
  entry('/sys/fs/cgroup',
    ['low', 'reads the resource usage of every container on the node'],
    ['critical', 'changes any container\'s resource limits and, on a cgroup v1 hierarchy, escapes to the host through a release_agent'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only')),
  entry('/sys/fs/bpf',
    ['medium', 'reads pinned BPF maps, which can hold network policy and connection state'],
    ['high', 'tampers with pinned BPF programs and maps: bypasses network policy enforced with eBPF'],
    'needed only by the eBPF-based agent that owns the pins; no other agent needs it'),
  entry('/sys/kernel',
    ['low', 'reads kernel metadata (BTF type information, notes, security module state)'],
    ['critical', 'writes kernel knobs, among them /sys/kernel/uevent_helper, a program the kernel runs as root on device events: root on the node'],
    byMode('mount only the subdirectory needed (e.g. /sys/kernel/btf)', 'mount read-only'),
    belowSys),
  entry('/sys/kernel/btf',
    ['low', 'reads the kernel\'s BTF type information, which eBPF programs are compiled against'],
    ['low', 'reads the kernel\'s BTF type information (the kernel does not let it be written)'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only')),
  KERNEL_DEBUG('/sys/kernel/debug'),
  KERNEL_DEBUG('/sys/kernel/tracing'),
  entry('/sys/kernel/security',
    ['medium', 'reads the loaded security module policies (AppArmor, SELinux, IMA)'],
    ['critical', 'replaces or unloads the AppArmor or SELinux policy of every container on the node'],
    'do not mount it'),
  entry('/sys/module',
    ['low', 'reads the parameters of the loaded kernel modules'],
    ['high', 'changes the run-time parameters of loaded kernel modules (those that allow it): weakens or disrupts drivers and security modules'],
    byMode('nothing narrower for checking which modules are loaded; mount only the module\'s own directory (/sys/module/<module>) if one is enough',
      'mount read-only (checking a module needs no more)')),
  entry('/sys/firmware',
    ['medium', 'reads the firmware tables of the node (DMI, ACPI, EFI variables)'],
    ['critical', 'writes EFI variables and firmware settings: can make the node unbootable'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only')),
  entry('/dev',
    ['high', 'gets every device node of the host; with device access (privileged) it reads raw disks, bypassing file permissions'],
    ['critical', 'writes raw disks and devices: root on the node, or its destruction'],
    'expose the one device needed through a device plugin, or mount just that device node',
    belowDev),
  entry('/dev/kmsg',
    ['medium', 'reads the kernel log (addresses, hardware errors)'],
    ['medium', 'reads the kernel log and writes fake kernel log lines'],
    byMode(READ_ONLY_IS_ENOUGH, 'mount read-only: reading the kernel log needs no more')),
  entry('/dev/shm',
    ['medium', 'reads the shared memory of host processes'],
    ['high', 'tampers with the shared memory of host processes'],
    'use an emptyDir with medium: Memory'),
  entry('/boot',
    ['medium', 'reads the kernel image and configuration, which help choose a kernel exploit, and the initramfs'],
    ['critical', 'replaces the kernel or boot loader: persistent root on the node after its next reboot'],
    byMode('mount only the file needed (e.g. /boot/config-<version>)', 'mount read-only, and only the file needed (e.g. /boot/config-<version>)')),
  KERNEL_MODULES('/lib/modules'),
  KERNEL_MODULES('/usr/lib/modules'),
  entry('/usr/src',
    ['low', 'reads the kernel headers'],
    ['medium', 'alters kernel headers used by tools that build against them'],
    byMode('mount only the headers of the running kernel (/usr/src/linux-headers-<version>)', 'mount read-only')),

  // programs and homes
  SYSTEM_BINARIES('/usr'),
  SYSTEM_BINARIES('/bin'),
  SYSTEM_BINARIES('/sbin'),
  SYSTEM_BINARIES('/lib'),
  SYSTEM_BINARIES('/lib64'),
  HOME('/root', 'root\'s'),
  HOME('/home', 'users\'', true),
  DATA('/mnt'),
  DATA('/media'),
  DATA('/srv'),
];

/** what applies to a path no entry covers (a top-level directory this catalogue does not know, or a Windows path). */
export const UNKNOWN_PATH: PathJudgement = {
  readOnly: { risk: 'medium', gains: 'reads a host directory this catalogue does not know: what is in it decides the risk' },
  readWrite: { risk: 'high', gains: 'writes a host directory this catalogue does not know: any host service that reads it can be subverted' },
  alternative: byMode('nothing narrower to suggest: check that the agent needs all of it, and set a type (Directory or File)',
    'mount it read-only with a type (Directory or File); if the agent must write, give it a directory of its own'),
};

/**
 * A Windows named pipe the catalogue has no entry for: csi-proxy's by their name (kubernetes-csi/csi-proxy: one pipe per API
 * group and version, `\\.\pipe\csi-proxy-<group>-<version>`, served by csi-proxy, a host service that runs as SYSTEM),
 * else a pipe of a host service this catalogue does not know. A pipe is an endpoint, not a directory: a read-only mount
 * does not stop a client from calling it, and it cannot be narrowed.
 */
export function pipeJudgement(path: string): PathJudgement {
  const name = path.replace(/^(\\\\\.\\pipe\\|\/\/\.\/pipe\/)/i, '');
  const csiProxy = /^csi-proxy-([a-z]+)-(v\d+\w*)$/i.exec(name);
  if (csiProxy) {
    const [group, version] = [csiProxy[1].toLowerCase(), csiProxy[2]];
    const gains = `calls csi-proxy's ${group} API (${version}), served as SYSTEM by csi-proxy on the Windows node` +
      (CSI_PROXY_GROUPS[group] ? `: ${CSI_PROXY_GROUPS[group]}` : ': a host service\'s operations on the node\'s storage') +
      ` (${CONNECT_NOTE.replace('socket', 'named pipe')})`;
    return judgement(['critical', gains], ['critical', gains],
      'nothing narrower for a CSI node plugin: mount only the csi-proxy pipes of the API versions the driver uses (not the older beta ones), ' +
      'only in the driver\'s container');
  }
  const gains = `calls ${path}, a named pipe of a host service this catalogue does not know, with whatever that service allows its ` +
    `clients (${CONNECT_NOTE.replace('socket', 'named pipe')})`;
  return judgement(['high', gains], ['high', gains], 'check which host service serves the pipe; mount it only in the container that calls it');
}

/** what each csi-proxy API group does (kubernetes-csi/csi-proxy client/api). */
const CSI_PROXY_GROUPS: { [group: string]: string } = {
  disk: 'lists, partitions and brings online any disk of the node',
  volume: 'formats, mounts, resizes and unmounts any volume of the node',
  filesystem: 'creates, removes and links any path on the node\'s file systems',
  smb: 'mounts SMB shares on the node with the credentials given',
  iscsi: 'connects the node to iSCSI targets',
  system: 'starts and stops Windows services and reads BIOS details',
};

/**
 * Judgements by the path's name, wherever it is: a runtime socket (`containerd.sock`, `docker.sock`...) and a
 * kubeconfig (`kubeconfig`, `*.kubeconfig`, `.kube/config`). They apply to a path without an entry of its own.
 */
export function byName(use: PathUse): PathJudgement | undefined {
  const segments = use.path.split('/');
  const name = segments[segments.length - 1];
  if (Object.prototype.hasOwnProperty.call(RUNTIME_SOCKET_NAMES, name)) {
    const gains = runtimeSocketText(RUNTIME_SOCKET_NAMES[name], `recognised by its name, ${name}`);
    return { readOnly: { risk: 'critical', gains }, readWrite: { risk: 'critical', gains }, alternative: RUNTIME_SOCKET_ADVICE };
  }
  if (name === 'kubeconfig' || name.endsWith('.kubeconfig') || /^kubeconfig\.ya?ml$/.test(name) || (name === 'config' && segments[segments.length - 2] === '.kube')) {
    return kubeconfig(use.path, 'API credentials', 'high');
  }
  return undefined;
}
