/**
 * Internal: the capability part of the host-access risk catalogue, as data.
 *
 * Risk levels are written as the string values of `RiskLevel` so that this file need not import host-risk.ts.
 */
import { Risk } from './_host-risk-catalogue';

/** the host namespaces that change what some capabilities reach. */
export type HostNamespace = 'hostNetwork' | 'hostPID' | 'hostIPC';

export interface CapabilityText {
  readonly risk: Risk;
  readonly gains: string;
}

export interface CapabilityEntry extends CapabilityText {
  readonly alternative: string;
  /**
   * What the capability gives when the pod shares none of the host namespaces below: in its own namespaces only.
   * Without it, `risk`/`gains` hold whatever the pod shares.
   */
  readonly alone?: CapabilityText;
  /** what it gives when the pod shares that host namespace (the first one listed that the pod shares applies). */
  readonly with?: { readonly [ns in HostNamespace]?: CapabilityText };
}

const BASELINE_NOTE = 'allowed by the baseline Pod Security Standard';
const DROP_IT = 'drop it unless a specific operation needs it';

function cap(risk: Risk, gains: string, alternative: string = DROP_IT, context: Partial<Pick<CapabilityEntry, 'alone' | 'with'>> = {}): CapabilityEntry {
  return { risk, gains, alternative, ...context };
}

export const CAPABILITY_CATALOGUE: { [name: string]: CapabilityEntry } = {
  ALL: cap('critical', 'every Linux capability: mounts, kernel modules, raw devices, tracing; close to privileged', 'add only the capabilities the agent needs, each with a reason, after drop: [ALL]'),
  SYS_ADMIN: cap('critical', 'mounts filesystems, creates namespaces and uses many admin interfaces: known container escapes (cgroup release_agent, mount of host devices)', 'find the narrower capability (BPF, PERFMON, NET_ADMIN, SYS_PTRACE) or an API that does what the agent needs'),
  SYS_MODULE: cap('critical', 'loads kernel modules: arbitrary code in the kernel', 'load the modules the agent needs on the node (at boot) instead of from a container'),
  SYS_RAWIO: cap('critical', 'raw I/O: I/O ports, /dev/mem and raw block device access, reading and writing kernel memory and disks', 'use a device plugin or a narrower interface'),
  SYS_BOOT: cap('critical', 'reboots the node and loads a new kernel with kexec_load: full control of the node'),
  DAC_READ_SEARCH: cap('high', 'bypasses read permission checks and opens files by handle (open_by_handle_at): the "shocker" escape reads any file of the host filesystem', 'run as the file owner or grant read access to the files the agent needs'),
  NET_ADMIN: cap('high',
    'reconfigures interfaces, routes, iptables and nftables of its network namespace; with hostNetwork, the node\'s: intercepts or blackholes traffic of every pod',
    'keep it only in network agents (CNI, kube-proxy replacements) and never combine it with hostNetwork without need',
    {
      alone: {
        risk: 'high',
        gains: 'reconfigures the interfaces, routes and netfilter rules of its own pod\'s network namespace (the pod does not use hostNetwork), and ' +
          'reaches the kernel\'s netfilter code (nf_tables) behind several container escapes',
      },
      with: {
        hostNetwork: {
          risk: 'high',
          gains: 'reconfigures the node\'s interfaces, routes, iptables and nftables (the pod uses hostNetwork): intercepts or blackholes the traffic of every pod on the node',
        },
      },
    }),
  SYS_PTRACE: cap('high',
    'traces and injects code into processes it can see; with hostPID, every process on the node: container escape',
    'observe processes with eBPF (BPF, PERFMON) instead of ptrace, and avoid hostPID with it',
    {
      alone: {
        risk: 'medium',
        gains: 'traces and injects code into the processes it can see, which are its own pod\'s (the pod does not use hostPID)',
      },
      with: {
        hostPID: {
          risk: 'high',
          gains: 'traces and injects code into every process on the node (the pod uses hostPID), host services running as root included, unless an ' +
            'AppArmor profile forbids tracing them: a container escape',
        },
      },
    }),
  BPF: cap('high', 'loads BPF programs and maps: observes every syscall and packet and, with PERFMON, reads kernel memory through tracing programs', 'keep it only in eBPF-based agents; restrict which programs it loads'),
  SYS_TIME: cap('high', 'sets the node\'s clock, which is shared by every container: breaks TLS validation, token expiry and log ordering', 'use an NTP daemon on the node'),
  MAC_ADMIN: cap('high', 'changes AppArmor or SELinux policy: lifts confinement of every container on the node', 'load security policies on the node, not from a container'),
  MAC_OVERRIDE: cap('high', 'overrides mandatory access control (Smack)', DROP_IT),
  AUDIT_CONTROL: cap('high', 'changes or disables kernel auditing on the node: blinds audit-based monitoring', 'read audit events with AUDIT_READ only'),
  PERFMON: cap('medium', 'uses performance monitoring and tracing: observes the behaviour of every process on the node; with BPF, tracing programs', 'keep it only in tracing or profiling agents'),
  NET_RAW: cap('medium',
    'opens raw and packet sockets: spoofs ARP and DNS on the pod network and sniffs traffic in its network namespace; in Docker\'s default set but not in the baseline one',
    'use unprivileged ICMP (net.ipv4.ping_group_range) for ping, and drop NET_RAW',
    {
      alone: {
        risk: 'medium',
        gains: 'opens raw and packet sockets in its own pod\'s network namespace (the pod does not use hostNetwork): spoofs ARP and DNS towards ' +
          'other pods on the node\'s pod network and sniffs its own pod\'s traffic',
      },
      with: {
        hostNetwork: {
          risk: 'high',
          gains: 'opens raw and packet sockets on the node\'s interfaces (the pod uses hostNetwork): sniffs and spoofs the traffic of the node ' +
            'and of every pod on it',
        },
      },
    }),
  SYSLOG: cap('medium', 'reads the kernel log with syslog(2): kernel addresses that defeat KASLR', 'read /dev/kmsg read-only only if needed'),
  SYS_RESOURCE: cap('medium', 'overrides resource limits and quotas: exhausts the node\'s resources'),
  SYS_NICE: cap('medium', 'raises its own priority and changes others\': starves other workloads on the node'),
  IPC_OWNER: cap('medium', 'bypasses permission checks on IPC objects; with hostIPC, those of host processes', DROP_IT, {
    alone: { risk: 'low', gains: 'bypasses permission checks on the IPC objects of its own pod (the pod does not use hostIPC)' },
    with: { hostIPC: { risk: 'medium', gains: 'bypasses permission checks on the shared memory and IPC objects of host processes (the pod uses hostIPC)' } },
  }),
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
  KILL: cap('low', `signals processes it can see regardless of owner; with hostPID, host processes (${BASELINE_NOTE})`, DROP_IT, {
    alone: { risk: 'low', gains: `signals the processes of its own pod regardless of owner (${BASELINE_NOTE}; the pod does not use hostPID)` },
    with: { hostPID: { risk: 'low', gains: `signals host processes regardless of owner (the pod uses hostPID; ${BASELINE_NOTE})` } },
  }),
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
