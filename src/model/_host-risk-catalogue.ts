/**
 * Internal: the host-access risk catalogue as data.
 *
 * Risk levels are written as the string values of `RiskLevel` so that this file need not import host-risk.ts.
 */

export type Risk = 'low' | 'medium' | 'high' | 'critical';

export interface RiskText {
  readonly risk: Risk;
  readonly gains: string;
}

export interface PathEntry {
  /** normalised host path (or a Windows named pipe). */
  readonly path: string;
  readonly readOnly: RiskText;
  readonly readWrite: RiskText;
  readonly alternative: string;
  /** what applies to a subdirectory of `path` that has no entry of its own. */
  readonly below?: { readonly readOnly: RiskText; readonly readWrite: RiskText; readonly alternative: string };
}

export interface Assessment {
  readonly risk: Risk;
  readonly gains: string;
  readonly alternative: string;
}

const CONNECT_NOTE = 'a read-only mount does not stop a process from connecting to a socket';

function runtimeSocket(path: string, runtime: string): PathEntry {
  const gains = `talks to the ${runtime} API through its socket (${CONNECT_NOTE}): starts a privileged container with the node's root ` +
    'filesystem mounted, which is root on the node, and reads, stops or execs into every container on it';
  return {
    path,
    readOnly: { risk: 'critical', gains },
    readWrite: { risk: 'critical', gains },
    alternative: 'do not mount a container runtime socket: read container logs from /var/log/pods read-only, and container metadata ' +
      'from the kubelet or the API server with a ServiceAccount limited by RBAC',
  };
}

function entry(path: string, readOnly: [Risk, string], readWrite: [Risk, string], alternative: string): PathEntry {
  return { path, readOnly: { risk: readOnly[0], gains: readOnly[1] }, readWrite: { risk: readWrite[0], gains: readWrite[1] }, alternative };
}

const ENGINE_STORE = (path: string) => entry(path,
  ['high', 'reads every container\'s filesystem and image layers on the node, with any secret baked into them'],
  ['critical', 'rewrites images and running containers\' filesystems: code execution in any pod on the node, privileged ones included'],
  'read container logs from /var/log/pods read-only instead; never mount the runtime\'s storage');

const SYSTEM_BINARIES = (path: string) => entry(path,
  ['low', 'reads the node\'s programs and libraries (their versions tell which exploits apply)'],
  ['critical', 'replaces programs and libraries that run as root on the node: root on the node'],
  'ship the tools the agent needs in its image instead of using the node\'s');

const CA_STORE = (path: string) => entry(path,
  ['low', 'reads the node\'s trusted CA certificates, which are public'],
  ['high', 'adds a certificate authority the node trusts: intercepts the TLS traffic of host processes, image pulls included'],
  'mount read-only; better, ship the CA bundle in the image or a ConfigMap');

const SINGLE_FILE = 'mount read-only with type File';

const HOME = (path: string, whose: string) => entry(path,
  ['high', `reads ${whose} SSH keys, shell history and cloud or kubectl credentials`],
  ['critical', `adds an SSH key to ${whose} authorized_keys: a login on the node`],
  'do not mount home directories');

const KERNEL_MODULES = (path: string) => entry(path,
  ['low', 'reads the installed kernel modules, which tell the exact kernel version'],
  ['critical', 'replaces kernel modules that the node loads: kernel code execution'],
  'mount read-only (eBPF tools and driver loaders only read it)');

const TEMP = (path: string) => entry(path,
  ['low', 'reads temporary files of host processes'],
  ['medium', 'plants files or symlinks in a directory that host processes trust, a classic local privilege escalation path'],
  'use an emptyDir for scratch space');

const DATA = (path: string) => entry(path,
  ['medium', 'reads the data volumes and files that host services keep there'],
  ['high', 'tampers with the data that host services keep there'],
  'use a PersistentVolume for data, or mount only the subdirectory needed, read-only');

const SHADOW = (path: string) => entry(path,
  ['high', 'reads the password hashes of the node\'s users, to crack offline'],
  ['critical', 'sets the password of root: root on the node'],
  'do not mount it: no agent needs password hashes');

const USERS = (path: string) => entry(path,
  ['low', 'reads user and group names, which are not secret'],
  ['critical', 'adds a user with UID 0 or changes group membership: root on the node'],
  SINGLE_FILE);

const NAME_RESOLUTION = (path: string) => entry(path,
  ['low', 'reads the node\'s name resolution settings'],
  ['high', 'redirects the node\'s name resolution (the registry, the API server) to an attacker'],
  `${SINGLE_FILE}, or rely on the pod's own DNS (dnsPolicy)`);

const KERNEL_DEBUG = (path: string) => entry(path,
  ['medium', 'reads kernel internals: addresses that defeat KASLR and tracing data of every process'],
  ['critical', 'turns on kernel tracing and changes kernel debugging knobs: observes and disrupts every process on the node'],
  'use eBPF with CAP_BPF and CAP_PERFMON instead of debugfs or tracefs');

/**
 * The catalogue. Order matters only to choose which descendant to name when a directory contains
 * something riskier than itself: the first of the riskiest in this order.
 */
export const PATH_CATALOGUE: PathEntry[] = [
  // container runtime sockets: critical even read-only
  runtimeSocket('/run/containerd/containerd.sock', 'containerd'),
  runtimeSocket('/run/docker.sock', 'Docker Engine'),
  runtimeSocket('/run/crio/crio.sock', 'CRI-O'),
  runtimeSocket('/run/cri-dockerd.sock', 'cri-dockerd'),
  runtimeSocket('/run/dockershim.sock', 'dockershim'),
  runtimeSocket('/run/podman/podman.sock', 'Podman'),
  runtimeSocket('/run/k3s/containerd/containerd.sock', 'k3s containerd'),
  runtimeSocket('/var/snap/microk8s/common/run/containerd.sock', 'MicroK8s containerd'),
  runtimeSocket('\\\\.\\pipe\\containerd-containerd', 'containerd (Windows named pipe)'),
  runtimeSocket('\\\\.\\pipe\\docker_engine', 'Docker Engine (Windows named pipe)'),

  // cluster state and credentials
  entry('/var/lib/etcd',
    ['critical', 'reads the etcd database: every Secret of the cluster, in plain text unless encryption at rest is on'],
    ['critical', 'rewrites the cluster state: any object, any RBAC binding'],
    'never mount it; back etcd up with etcdctl snapshot from the control plane'),
  entry('/etc/kubernetes',
    ['critical', 'reads the kubelet\'s credentials and, on control-plane nodes, admin.conf and the cluster CA private key: control of the whole cluster'],
    ['critical', 'also writes static pod manifests (/etc/kubernetes/manifests) that the kubelet runs with any privilege, and replaces cluster certificates'],
    'do not mount Kubernetes configuration; talk to the API server with a ServiceAccount limited by RBAC'),
  entry('/var/lib/rancher/k3s/server',
    ['critical', 'reads the k3s datastore and server token: joins nodes to the cluster and reads every Secret'],
    ['critical', 'rewrites the k3s datastore and certificates: control of the whole cluster'],
    'never mount it'),

  // other root-owned sockets
  entry('/run/dbus/system_bus_socket',
    ['critical', `talks to systemd and other root services over the D-Bus system bus (${CONNECT_NOTE}): starts units and reboots the node, as root`],
    ['critical', `talks to systemd and other root services over the D-Bus system bus (${CONNECT_NOTE}): starts units and reboots the node, as root`],
    'do not mount it; read what the agent needs from files, read-only'),
  entry('/run/systemd/private',
    ['critical', `controls systemd through its private socket (${CONNECT_NOTE}): runs any command as root on the node`],
    ['critical', `controls systemd through its private socket (${CONNECT_NOTE}): runs any command as root on the node`],
    'do not mount it'),

  // the root and top-level directories
  entry('/',
    ['high', 'reads every file on the node: host credentials, the kubelet\'s and other pods\' secrets and service account tokens'],
    ['critical', 'rewrites any file on the node (binaries, systemd units, cron jobs, SSH keys): root on the node'],
    'mount only the directories the agent needs, each read-only and typed (Directory, File or Socket)'),
  entry('/etc',
    ['high', 'reads the node\'s configuration, including password hashes (/etc/shadow) and the kubelet\'s kubeconfig and TLS material'],
    ['critical', 'adds users, sudoers rules, cron jobs or systemd units: root on the node'],
    'mount the single file needed (e.g. /etc/os-release, /etc/machine-id) read-only with type File'),
  SHADOW('/etc/shadow'),
  SHADOW('/etc/gshadow'),
  USERS('/etc/passwd'),
  USERS('/etc/group'),
  entry('/etc/sudoers',
    ['medium', 'reads who may become root on the node'],
    ['critical', 'lets any user become root on the node'],
    'do not mount it'),
  entry('/etc/os-release',
    ['low', 'reads the node\'s OS name and version'],
    ['medium', 'misreports the node\'s OS to every tool that reads it'],
    SINGLE_FILE),
  entry('/etc/machine-id',
    ['low', 'reads the node\'s machine ID (used to find its journal)'],
    ['medium', 'changes the node\'s identity for journald and systemd'],
    SINGLE_FILE),
  entry('/etc/localtime',
    ['low', 'reads the node\'s time zone'],
    ['medium', 'changes the time zone of every process on the node, confusing logs and schedules'],
    SINGLE_FILE),
  entry('/etc/hostname',
    ['low', 'reads the node\'s host name'],
    ['medium', 'renames the node at its next boot'],
    SINGLE_FILE),
  NAME_RESOLUTION('/etc/hosts'),
  NAME_RESOLUTION('/etc/resolv.conf'),
  CA_STORE('/etc/ssl'),
  CA_STORE('/etc/pki'),
  CA_STORE('/etc/ca-certificates'),
  CA_STORE('/usr/share/ca-certificates'),
  entry('/etc/cni/net.d',
    ['medium', 'reads the node\'s pod network configuration, which can carry the CNI plugin\'s credentials'],
    ['high', 'rewrites the network configuration used for every new pod on the node: intercepts or blackholes pod traffic'],
    'mount read-only unless the agent is the CNI plugin installing its own configuration'),
  entry('/opt/cni/bin',
    ['low', 'reads the CNI plugin binaries'],
    ['critical', 'replaces binaries that the container runtime runs as root on the host for every new pod: root on the node'],
    'mount it read-write only in the CNI plugin\'s install init container, never in a long-running container'),
  entry('/opt',
    ['low', 'reads third-party software installed on the node'],
    ['high', 'replaces third-party software that host services run'],
    'mount only the subdirectory needed, read-only'),

  // kubelet
  entry('/var/lib/kubelet',
    ['high', 'reads the secrets, ConfigMaps and service account tokens mounted into every pod on the node, and the kubelet\'s credentials'],
    ['critical', 'tampers with other pods\' volumes and with the kubelet\'s state and credentials'],
    'mount only the subdirectory needed, e.g. /var/lib/kubelet/plugins/<driver> for a CSI driver'),
  entry('/var/lib/kubelet/pki',
    ['high', 'reads the kubelet\'s client and serving keys: impersonates the node to the API server'],
    ['critical', 'replaces the kubelet\'s certificates: impersonates the node and intercepts API server to kubelet traffic'],
    'do not mount it'),
  entry('/var/lib/kubelet/plugins',
    ['high', `talks to every CSI driver on the node through its socket (${CONNECT_NOTE}): mounts and unmounts volumes of other pods`],
    ['high', 'replaces other CSI drivers\' sockets: intercepts volume operations on the node'],
    'mount only the driver\'s own directory, /var/lib/kubelet/plugins/<driver>'),
  entry('/var/lib/kubelet/plugins_registry',
    ['medium', 'lists the plugins registered with the kubelet and talks to their registration sockets'],
    ['high', 'registers plugins with the kubelet: poses as a CSI driver or device plugin'],
    'mount it only in a CSI node plugin or device plugin, which need it'),
  entry('/var/lib/kubelet/device-plugins',
    ['high', `talks to the kubelet's device plugin socket (${CONNECT_NOTE}): registers fake devices and receives the pods that request them`],
    ['high', 'registers fake devices with the kubelet and replaces other device plugins\' sockets'],
    'mount it only in a device plugin, which needs it'),
  entry('/var/lib/kubelet/pod-resources',
    ['medium', `lists every pod on the node with its devices and CPUs through the kubelet's pod-resources socket (${CONNECT_NOTE})`],
    ['medium', `lists every pod on the node with its devices and CPUs through the kubelet's pod-resources socket (${CONNECT_NOTE})`],
    'mount it only in monitoring agents that report device assignments'),

  // container runtime storage
  ENGINE_STORE('/var/lib/docker'),
  ENGINE_STORE('/var/lib/containerd'),
  ENGINE_STORE('/var/lib/containers'),
  entry('/var/lib/cni',
    ['low', 'reads the IP addresses allocated to pods on the node'],
    ['medium', 'corrupts IP allocations: pods on the node lose networking'],
    'mount only the plugin\'s own subdirectory'),
  {
    ...entry('/var/lib',
      ['medium', 'reads the state of every service on the node'],
      ['high', 'tampers with the state of every service on the node'],
      'mount only the agent\'s own state directory, e.g. /var/lib/<agent>, with type DirectoryOrCreate'),
    below: {
      readOnly: { risk: 'low', gains: 'reads the state of the host service that owns this directory' },
      readWrite: {
        risk: 'medium',
        gains: 'tampers with the state of the host service that owns this directory; if the directory is the agent\'s own, only with the agent\'s state',
      },
      alternative: 'keep the directory for this agent alone (type DirectoryOrCreate) and mount it read-only if the agent only reads it',
    },
  },

  // logs
  entry('/var/log',
    ['medium', 'reads the logs of every pod and host service on the node, where tokens and personal data often leak'],
    ['high', 'erases or forges logs to hide an attack, and plants symlinks that the kubelet follows when it serves logs: reads any file on the node'],
    'mount read-only and keep the agent\'s own state (read positions) in a directory of its own, e.g. /var/lib/<agent>'),
  entry('/run/log/journal',
    ['medium', 'reads the node\'s volatile system journal'],
    ['high', 'erases or forges entries of the node\'s system journal'],
    'mount read-only'),
  entry('/var/spool',
    ['medium', 'reads queued mail and scheduled jobs'],
    ['critical', 'adds cron or at jobs that run as root: root on the node'],
    'do not mount it'),
  entry('/var/cache',
    ['low', 'reads cached package and application data'],
    ['medium', 'poisons caches used by host services'],
    'mount only the subdirectory needed'),
  TEMP('/tmp'),
  TEMP('/var/tmp'),
  entry('/var',
    ['medium', 'reads logs, caches and the state of every service on the node'],
    ['high', 'tampers with the logs and state of every service on the node'],
    'mount only the subdirectory needed, read-only'),

  // /run (and /var/run, which is treated as /run)
  entry('/run',
    ['medium', 'reads the runtime state of host services'],
    ['critical', 'replaces the sockets and PID files of host services'],
    'mount only the file needed, e.g. /run/xtables.lock'),
  entry('/run/xtables.lock',
    ['low', 'holds the iptables lock: delays kube-proxy and CNI rule updates on the node'],
    ['low', 'holds the iptables lock: delays kube-proxy and CNI rule updates on the node'],
    'mount it with type FileOrCreate: it is what iptables-based agents need'),
  entry('/run/netns',
    ['medium', 'sees the network namespace of every pod on the node; with CAP_SYS_ADMIN it enters them'],
    ['high', 'creates or removes pod network namespaces on the node'],
    'mount it only in the CNI plugin'),
  entry('/run/udev',
    ['low', 'reads the node\'s device database'],
    ['medium', 'misleads device management on the node'],
    'mount read-only'),
  entry('/run/systemd',
    ['medium', 'reads systemd\'s runtime state'],
    ['critical', 'replaces systemd\'s sockets and runtime units'],
    'mount only the file needed, read-only'),

  // kernel interfaces
  entry('/proc',
    ['high', 'reads the command line and environment of every process on the node, other containers\' secrets among them'],
    ['critical', 'writes kernel settings such as /proc/sys/kernel/core_pattern, which runs a program as root on the host: root on the node'],
    'mount read-only and only for node monitoring; prefer the kubelet\'s and the runtime\'s metrics'),
  entry('/sys',
    ['medium', 'reads hardware, kernel and cgroup information of the node'],
    ['critical', 'changes kernel and device settings, e.g. a uevent helper that runs as root on the host'],
    'mount read-only (node metrics need no more)'),
  entry('/sys/fs/cgroup',
    ['low', 'reads the resource usage of every container on the node'],
    ['critical', 'escapes to the host through a cgroup release_agent and changes any container\'s resource limits'],
    'mount read-only'),
  entry('/sys/fs/bpf',
    ['medium', 'reads pinned BPF maps, which can hold network policy and connection state'],
    ['high', 'tampers with pinned BPF programs and maps: bypasses network policy enforced with eBPF'],
    'mount it only in the eBPF-based agent that owns the pins'),
  KERNEL_DEBUG('/sys/kernel/debug'),
  KERNEL_DEBUG('/sys/kernel/tracing'),
  entry('/sys/kernel/security',
    ['medium', 'reads the loaded security module policies (AppArmor, SELinux, IMA)'],
    ['critical', 'replaces or unloads the AppArmor or SELinux policy of every container on the node'],
    'do not mount it'),
  entry('/dev',
    ['high', 'gets every device node of the host; with device access (privileged) it reads raw disks, bypassing file permissions'],
    ['critical', 'writes raw disks and devices: root on the node, or its destruction'],
    'expose the one device needed through a device plugin, or mount just that device node'),
  entry('/dev/kmsg',
    ['medium', 'reads the kernel log (addresses, hardware errors)'],
    ['medium', 'reads the kernel log and writes fake kernel log lines'],
    'mount read-only for node problem detection'),
  entry('/dev/shm',
    ['medium', 'reads the shared memory of host processes'],
    ['high', 'tampers with the shared memory of host processes'],
    'use an emptyDir with medium: Memory'),
  entry('/boot',
    ['medium', 'reads the kernel image and configuration, which help choose a kernel exploit, and the initramfs'],
    ['critical', 'replaces the kernel or boot loader: persistent root on the node after its next reboot'],
    'mount read-only, and only the file needed (e.g. /boot/config-<version>)'),
  KERNEL_MODULES('/lib/modules'),
  KERNEL_MODULES('/usr/lib/modules'),
  entry('/usr/src',
    ['low', 'reads the kernel headers'],
    ['medium', 'alters kernel headers used by tools that build against them'],
    'mount read-only'),

  // programs and homes
  SYSTEM_BINARIES('/usr'),
  SYSTEM_BINARIES('/bin'),
  SYSTEM_BINARIES('/sbin'),
  SYSTEM_BINARIES('/lib'),
  SYSTEM_BINARIES('/lib64'),
  HOME('/root', 'root\'s'),
  HOME('/home', 'users\''),
  DATA('/mnt'),
  DATA('/media'),
  DATA('/srv'),
];

/** what applies to a path no entry covers (a relative or Windows path). */
export const UNKNOWN_PATH: { readOnly: RiskText; readWrite: RiskText; alternative: string } = {
  readOnly: { risk: 'medium', gains: 'reads a host directory this catalogue does not know: what is in it decides the risk' },
  readWrite: { risk: 'high', gains: 'writes a host directory this catalogue does not know: any host service that reads it can be subverted' },
  alternative: 'mount it read-only with a type (Directory or File); if the agent must write, give it a directory of its own',
};

// ---------------------------------------------------------------------------------------------
// capabilities

export interface CapabilityEntry {
  readonly risk: Risk;
  readonly gains: string;
  readonly alternative: string;
}

const BASELINE_NOTE = 'allowed by the baseline Pod Security Standard';
const DROP_IT = 'drop it unless a specific operation needs it';

function cap(risk: Risk, gains: string, alternative: string = DROP_IT): CapabilityEntry {
  return { risk, gains, alternative };
}

export const CAPABILITY_CATALOGUE: { [name: string]: CapabilityEntry } = {
  ALL: cap('critical', 'every Linux capability: mounts, kernel modules, raw devices, tracing; close to privileged', 'add only the capabilities the agent needs, each with a reason, after drop: [ALL]'),
  SYS_ADMIN: cap('critical', 'mounts filesystems, creates namespaces and uses many admin interfaces: known container escapes (cgroup release_agent, mount of host devices)', 'find the narrower capability (BPF, PERFMON, NET_ADMIN, SYS_PTRACE) or an API that does what the agent needs'),
  SYS_MODULE: cap('critical', 'loads kernel modules: arbitrary code in the kernel', 'load the modules the agent needs on the node (at boot) instead of from a container'),
  SYS_RAWIO: cap('critical', 'raw I/O: I/O ports, /dev/mem and raw block device access, reading and writing kernel memory and disks', 'use a device plugin or a narrower interface'),
  SYS_BOOT: cap('critical', 'reboots the node and loads a new kernel with kexec_load: full control of the node'),
  DAC_READ_SEARCH: cap('high', 'bypasses read permission checks and opens files by handle (open_by_handle_at): the "shocker" escape reads any file of the host filesystem', 'run as the file owner or grant read access to the files the agent needs'),
  NET_ADMIN: cap('high', 'reconfigures interfaces, routes, iptables and nftables of its network namespace; with hostNetwork, the node\'s: intercepts or blackholes traffic of every pod', 'keep it only in network agents (CNI, kube-proxy replacements) and never combine it with hostNetwork without need'),
  SYS_PTRACE: cap('high', 'traces and injects code into processes it can see; with hostPID, every process on the node: container escape', 'observe processes with eBPF (BPF, PERFMON) instead of ptrace, and avoid hostPID with it'),
  BPF: cap('high', 'loads BPF programs and maps: observes every syscall and packet and, with PERFMON, reads kernel memory through tracing programs', 'keep it only in eBPF-based agents; restrict which programs it loads'),
  SYS_TIME: cap('high', 'sets the node\'s clock, which is shared by every container: breaks TLS validation, token expiry and log ordering', 'use an NTP daemon on the node'),
  MAC_ADMIN: cap('high', 'changes AppArmor or SELinux policy: lifts confinement of every container on the node', 'load security policies on the node, not from a container'),
  MAC_OVERRIDE: cap('high', 'overrides mandatory access control (Smack)', DROP_IT),
  AUDIT_CONTROL: cap('high', 'changes or disables kernel auditing on the node: blinds audit-based monitoring', 'read audit events with AUDIT_READ only'),
  PERFMON: cap('medium', 'uses performance monitoring and tracing: observes the behaviour of every process on the node; with BPF, tracing programs', 'keep it only in tracing or profiling agents'),
  NET_RAW: cap('medium', 'opens raw and packet sockets: spoofs ARP and DNS on the pod network and sniffs traffic in its network namespace; in Docker\'s default set but not in the baseline one', 'use unprivileged ICMP (net.ipv4.ping_group_range) for ping, and drop NET_RAW'),
  SYSLOG: cap('medium', 'reads the kernel log with syslog(2): kernel addresses that defeat KASLR', 'read /dev/kmsg read-only only if needed'),
  SYS_RESOURCE: cap('medium', 'overrides resource limits and quotas: exhausts the node\'s resources'),
  SYS_NICE: cap('medium', 'raises its own priority and changes others\': starves other workloads on the node'),
  IPC_OWNER: cap('medium', 'bypasses permission checks on IPC objects; with hostIPC, those of host processes'),
  LINUX_IMMUTABLE: cap('medium', 'sets immutable and append-only flags: files on host mounts it writes become undeletable'),
  CHECKPOINT_RESTORE: cap('medium', 'checkpoints and restores processes, chooses PIDs and reads /proc/<pid>/map_files'),
  AUDIT_READ: cap('medium', 'reads the kernel audit log over netlink: every audited action on the node', 'keep it only in audit-collecting agents'),
  SYS_PACCT: cap('low', 'turns process accounting on or off'),
  SYS_TTY_CONFIG: cap('low', 'configures terminals (vhangup)'),
  IPC_LOCK: cap('low', 'locks memory: can pin the node\'s memory'),
  LEASE: cap('low', 'takes leases on files it does not own'),
  WAKE_ALARM: cap('low', 'sets alarms that wake the system'),
  BLOCK_SUSPEND: cap('low', 'prevents the system from suspending'),
  NET_BROADCAST: cap('low', 'broadcasts and listens to multicast'),
  AUDIT_WRITE: cap('low', `writes records to the kernel audit log (${BASELINE_NOTE})`),
  CHOWN: cap('low', `changes the owner of files it can reach (${BASELINE_NOTE})`),
  DAC_OVERRIDE: cap('low', `bypasses file permission checks on files it can reach, host mounts included (${BASELINE_NOTE})`),
  FOWNER: cap('low', `bypasses owner checks on files it can reach (${BASELINE_NOTE})`),
  FSETID: cap('low', `keeps setuid and setgid bits when modifying files (${BASELINE_NOTE})`),
  KILL: cap('low', `signals processes it can see regardless of owner; with hostPID, host processes (${BASELINE_NOTE})`),
  MKNOD: cap('low', `creates device nodes, which the device cgroup still keeps it from opening (${BASELINE_NOTE})`),
  NET_BIND_SERVICE: cap('low', `binds ports below 1024 (${BASELINE_NOTE}, and the one capability the restricted standard allows)`, 'bind a port above 1024, or keep it: it is harmless'),
  SETFCAP: cap('low', `sets file capabilities (${BASELINE_NOTE})`),
  SETGID: cap('low', `changes its group ID (${BASELINE_NOTE})`),
  SETPCAP: cap('low', `changes its own capability sets within its bounding set (${BASELINE_NOTE})`),
  SETUID: cap('low', `changes its user ID, e.g. to become root again in the container (${BASELINE_NOTE})`),
  SYS_CHROOT: cap('low', `uses chroot (${BASELINE_NOTE})`),
};

export const UNKNOWN_CAPABILITY: CapabilityEntry = cap('high',
  'a capability this catalogue does not know: review it as if it were powerful',
  'check the spelling (container runtimes reject capability names they do not know) and drop it unless needed');
