/**
 * Internal: one descriptor per host privilege type. Everything the library knows about a kind of host access lives in
 * its descriptor: how it is detected in a pod spec, how it is written in a `detail` and described to people, which field
 * grants it, how its risk is rated, whether it needs a recorded reason, and which Pod Security check it fails.
 *
 * `HostAccess.of` (detection), `HostRisk.assess` (risk), the review rules and report (wording, fields), NodeAgent (reason
 * bookkeeping) and the CLI help all read these descriptors. Adding a host privilege type is a `HostAccessType` value
 * plus one descriptor here (the `satisfies` clause below fails to compile until every type has one); `descriptorOf`
 * rejects a type it does not know, so nothing falls back to a default.
 */
import { normalizeHostPath } from './_paths';
import {
  ContainerRef, containerField, containersOf, describe, dropUndefined, isHostProcess, list, object, runsToCompletion, stringItems, volumesOf,
  windowsUserOf,
} from './_pod-spec';
import { BASELINE_CAPABILITIES } from './_psa-common';
import { capabilityRisk, highestRisk, hostPortRisk, mountPropagationRisk, pathRisk } from './_risk-assessors';
import { HostAccessItem } from './host-access-item';
import { HostAccessType } from './host-access-type';
import { PodSecurityCheck } from './pod-security';
import { HostRiskAssessment, RiskLevel } from './risk-level';

/** a pod spec as the detectors read it: the spec, its containers (init, regular, ephemeral) and pod security context. */
export interface PodSpecView {
  readonly spec: any;
  readonly containers: ContainerRef[];
  readonly podSecurityContext: any;
  /** whether the pod runs on Windows (`isWindowsPod`): it has no UIDs; root there is ContainerAdministrator. */
  readonly windows: boolean;
}

/** a privilege as identified in a reason or a finding: its type, detail and (for container privileges) container. */
export interface PrivilegeRef {
  readonly type: HostAccessType;
  readonly detail: string;
  readonly container?: string;
}

export interface HostPrivilegeDescriptor {
  readonly type: HostAccessType;
  /** whether the privilege belongs to the pod (host namespaces, hostPath volumes) or to one container. */
  readonly scope: 'pod' | 'container';
  /** where it is granted in a pod spec, for people: `spec.hostNetwork: true`. */
  readonly grantedBy: string;
  /** how `detail` identifies one privilege of this type, for people. */
  readonly detailFormat: string;
  /** what its risk depends on, for people (the explanation of NA-HOST-ACCESS-REASON in RULES.md): a fixed level, or the facts `assess` reads. */
  readonly riskBasis: { readonly fixed: RiskLevel } | { readonly dependsOn: string };
  /** every privilege of this type the pod takes (unsorted; `HostAccess.of` sorts). Throws on a field of the wrong type. */
  detect(view: PodSpecView): HostAccessItem[];
  /** the privilege in a finding's words: `hostPath /var/log (read-only)`, `hostNetwork`, `runAsRoot (may run as root)`. */
  describe(ref: PrivilegeRef): string;
  /** the privilege as the report lists it: `hostPath /var/log (read-only)`, `hostNetwork`, `privileged`. */
  label(ref: PrivilegeRef): string;
  /** the JSON path, relative to the pod spec, of the field that grants it: `hostNetwork`, `containers[0].ports`. */
  field(item: HostAccessItem, podSpec: any): string;
  /** how much it gives an attacker who controls the container. */
  assess(item: HostAccessItem): HostRiskAssessment;
  /** whether NodeAgent requires a recorded reason for it before it synthesizes. */
  reasonRequired(item: HostAccessItem): boolean;
  /** the Pod Security baseline check this privilege alone fails, if any. */
  podSecurityCheck(item: PrivilegeRef): PodSecurityCheck | undefined;
}

// ---------------------------------------------------------------------------------------------- details

/** the `detail` of a hostPath privilege: `/var/log (read-only)`. */
export function hostPathDetail(path: string, readOnly: boolean): string {
  return `${normalizeHostPath(path)} (${readOnly ? 'read-only' : 'read-write'})`;
}

/** the `detail` of a hostPort privilege: `9100/TCP`. */
export function hostPortDetail(port: number, protocol?: string): string {
  return `${port}/${protocol ?? 'TCP'}`;
}

/** a capability as `detail` writes it: trimmed, upper case, without `CAP_`. */
export function capabilityDetail(capability: string): string {
  const upper = capability.trim().toUpperCase();
  return upper.startsWith('CAP_') ? upper.slice(4) : upper;
}

/** a hostPath privilege's path and mode, from its fields or, for a reason, from its detail. */
function pathAndMode(item: HostAccessItem | PrivilegeRef): { path: string; readOnly: boolean } {
  const match = /^(.*) \((read-only|read-write)\)$/.exec(item.detail);
  const path = (item as HostAccessItem).path ?? (match ? match[1] : item.detail);
  const readOnly = (item as HostAccessItem).readOnly ?? (match ? match[2] === 'read-only' : false);
  return { path, readOnly };
}

// ---------------------------------------------------------------------------------------------- shared parts

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function containerPath(c: ContainerRef): string {
  return `spec.${c.list}[name=${c.name}]`;
}

/** the field of a container privilege: `containers[0]` plus `suffix`; the pod spec itself when the container is gone. */
function containerFieldOf(podSpec: any, name: string | undefined, suffix: string): string {
  const c = containersOf(podSpec).find((ref) => ref.name === name);
  return c ? `${containerField(c)}.${suffix}` : suffix;
}

interface FixedRisk {
  readonly risk: RiskLevel;
  readonly attackerGains: string;
  readonly saferAlternative: string;
}

/** a pod-level host namespace: `spec.<field>: true`. */
function hostNamespace(type: HostAccessType, risk: FixedRisk): HostPrivilegeDescriptor {
  return {
    type,
    scope: 'pod',
    grantedBy: `spec.${type}: true`,
    detailFormat: 'empty',
    detect: (view) => (view.spec[type] === true ? [{ type, detail: '' }] : []),
    describe: () => type,
    label: () => type,
    field: () => type,
    assess: () => ({ ...risk }),
    riskBasis: { fixed: risk.risk },
    reasonRequired: () => true,
    podSecurityCheck: () => PodSecurityCheck.HOST_NAMESPACES,
  };
}

/** a container privilege whose detail is the container's name. */
function containerFlag(
  type: HostAccessType, grantedBy: string, words: string, fieldSuffix: string, risk: FixedRisk,
  holds: (c: ContainerRef, view: PodSpecView) => boolean, check: PodSecurityCheck | undefined,
): HostPrivilegeDescriptor {
  return {
    type,
    scope: 'container',
    grantedBy,
    detailFormat: 'the container name',
    detect: (view) => view.containers.filter((c) => holds(c, view)).map((c) => ({ type, detail: c.name, container: c.name })),
    describe: () => words,
    label: () => type,
    field: (item, podSpec) => containerFieldOf(podSpec, item.container, fieldSuffix),
    assess: () => ({ ...risk }),
    riskBasis: { fixed: risk.risk },
    reasonRequired: () => true,
    podSecurityCheck: () => check,
  };
}

const ROOT_RISK: FixedRisk = {
  risk: RiskLevel.MEDIUM,
  attackerGains: 'root in the container: whatever else goes wrong (a writable host path, an added capability, a container escape) ' +
    'happens as root, and root-only files on host mounts are readable',
  saferAlternative: 'set runAsNonRoot: true and a non-zero runAsUser, with a group allowed to read what the agent reads (runAsGroup, ' +
    'supplementalGroups); added capabilities do not replace root (a non-root process gets none of them), so an agent that needs one ' +
    'stays root with every other capability dropped',
};

const CONTAINER_ADMINISTRATOR_RISK: FixedRisk = {
  risk: RiskLevel.MEDIUM,
  attackerGains: 'ContainerAdministrator, the administrator of the Windows container (the user of images such as servercore when ' +
    'runAsUserName is unset): whatever else goes wrong (a writable host path, a host service\'s named pipe) happens as administrator',
  saferAlternative: 'set securityContext.windowsOptions.runAsUserName: ContainerUser (and runAsNonRoot: true, which the Windows kubelet ' +
    'enforces by refusing ContainerAdministrator)',
};

/**
 * Whether a container may run as root: on Linux UID 0 (`mayRunAsRoot`); on Windows ContainerAdministrator, unless it is
 * a HostProcess container (which runs as the Windows user it names: see hostProcess). The Windows kubelet refuses
 * ContainerAdministrator, named or the image's, under runAsNonRoot: true (pkg/kubelet/kuberuntime/security_context_windows.go).
 */
function mayRunAsAdministrator(c: ContainerRef, view: PodSpecView): boolean {
  if (!view.windows) return mayRunAsRoot(view.podSecurityContext, c.sc);
  if (isHostProcess(c, view.podSecurityContext)) return false;
  if ((c.sc.runAsNonRoot ?? view.podSecurityContext.runAsNonRoot) === true) return false;
  const user = windowsUserOf(c, view.podSecurityContext);
  return user === undefined || user.toLowerCase() === 'containeradministrator';
}

function mayRunAsRoot(podSc: any, sc: any): boolean {
  const runAsUser = sc.runAsUser ?? podSc.runAsUser;
  if (runAsUser !== undefined && runAsUser !== null) return Number(runAsUser) === 0;
  const runAsNonRoot = sc.runAsNonRoot ?? podSc.runAsNonRoot;
  return runAsNonRoot !== true;
}

const PROPAGATION_STRENGTH: { [mode: string]: number } = { HostToContainer: 1, Bidirectional: 2 };

interface PathAccess {
  path: string;
  volumes: Set<string>;
  /** the volumes' `type`s, `''` for a volume without one. */
  types: Set<string>;
  containers: Set<string>;
  /** the containers that mount it, and those that mount it read-write. */
  mounters: ContainerRef[];
  writers: ContainerRef[];
  readWrite: boolean;
  propagation?: string;
}

/**
 * hostPath: one item per normalised host path, whatever the number of volumes pointing at it. The path is read-write
 * when any container (init, regular or ephemeral) mounts it without `readOnly: true`. A hostPath volume that no container
 * mounts still counts, as read-write: any container added later (an ephemeral debug container, say) may mount it, and
 * nothing in the spec limits that mount to read-only. A `subPath` does not narrow the path reported.
 */
function detectHostPaths(view: PodSpecView): HostAccessItem[] {
  const byVolume = new Map<string, PathAccess>();
  const byPath = new Map<string, PathAccess>();
  volumesOf(view.spec).forEach((v, i) => {
    const hostPath = object(v.hostPath, `spec.volumes[${i}].hostPath`);
    if (hostPath === undefined) return;
    if (typeof hostPath.path !== 'string' || hostPath.path === '') {
      throw new Error(`spec.volumes[${i}].hostPath.path must be a non-empty string, got ${describe(hostPath.path)}: set the host path to mount`);
    }
    const path = normalizeHostPath(hostPath.path);
    let access = byPath.get(path);
    if (!access) {
      access = { path, volumes: new Set(), types: new Set(), containers: new Set(), mounters: [], writers: [], readWrite: false };
      byPath.set(path, access);
    }
    const name = v.name === undefined || v.name === null ? '' : String(v.name);
    access.volumes.add(name);
    access.types.add(hostPath.type === undefined || hostPath.type === null ? '' : String(hostPath.type));
    byVolume.set(name, access);
  });

  const mounted = new Set<PathAccess>();
  for (const c of view.containers) {
    list(c.container.volumeMounts, `${containerPath(c)}.volumeMounts`).forEach((m) => {
      const access = byVolume.get(String(m?.name));
      if (!access) return;
      mounted.add(access);
      access.containers.add(c.name);
      access.mounters.push(c);
      if (m.readOnly !== true) {
        access.readWrite = true;
        access.writers.push(c);
      }
      const strength = PROPAGATION_STRENGTH[String(m.mountPropagation)] ?? 0;
      if (strength > (PROPAGATION_STRENGTH[access.propagation ?? ''] ?? 0)) access.propagation = String(m.mountPropagation);
    });
  }

  return [...byPath.values()].map((a) => {
    const readOnly = mounted.has(a) && !a.readWrite;
    const [type] = a.types;
    const holders = readOnly ? a.mounters : a.writers;
    return dropUndefined({
      type: HostAccessType.HOST_PATH,
      detail: hostPathDetail(a.path, readOnly),
      readOnly,
      path: a.path,
      volumes: [...a.volumes].sort(compareStrings),
      containers: [...a.containers].sort(compareStrings),
      hostPathType: a.types.size === 1 && type !== '' ? type : undefined,
      onlyInitContainers: holders.length > 0 && holders.every(runsToCompletion) ? true : undefined,
      mountPropagation: a.propagation,
    });
  });
}

/**
 * hostPort: one item per container, port and protocol (`TCP` when unset) with a non-zero `hostPort`; with
 * `hostNetwork: true`, also every other container port (`viaHostNetwork`): on the host network it is a port of the node.
 */
function detectHostPorts(view: PodSpecView): HostAccessItem[] {
  const items: HostAccessItem[] = [];
  const hostNetwork = view.spec.hostNetwork === true;
  for (const c of view.containers) {
    // declared and reached through hostNetwork apart: a port both declared and reached is the declared one (filtered below)
    const seen = new Set<string>();
    const seenVia = new Set<string>();
    list(c.container.ports, `${containerPath(c)}.ports`).forEach((p, i) => {
      const hostPort = Number(p?.hostPort ?? 0);
      const protocol = p?.protocol === undefined || p?.protocol === null ? 'TCP' : String(p.protocol);
      if (hostPort === 0) {
        if (!hostNetwork) return;
        const port = Number(p?.containerPort);
        if (!Number.isInteger(port) || port < 1 || port > 65535) {
          throw new Error(`${containerPath(c)}.ports[${i}].containerPort must be a port number from 1 to 65535, got ${describe(p?.containerPort)}: fix the port`);
        }
        const detail = hostPortDetail(port, protocol);
        if (seenVia.has(detail)) return;
        seenVia.add(detail);
        items.push({ type: HostAccessType.HOST_PORT, detail, container: c.name, port, protocol, viaHostNetwork: true });
        return;
      }
      if (!Number.isInteger(hostPort) || hostPort < 1 || hostPort > 65535) {
        throw new Error(`${containerPath(c)}.ports[${i}].hostPort must be a port number from 1 to 65535, got ${describe(p.hostPort)}: fix the port or remove hostPort`);
      }
      const detail = hostPortDetail(hostPort, protocol);
      if (seen.has(detail)) return;
      seen.add(detail);
      items.push({ type: HostAccessType.HOST_PORT, detail, container: c.name, port: hostPort, protocol });
    });
  }
  // a port both declared and reached through hostNetwork (two entries for one port) is the declared one
  const declared = (item: HostAccessItem) => items.some((o) => !o.viaHostNetwork && o.container === item.container && o.detail === item.detail);
  return items.filter((item) => !item.viaHostNetwork || !declared(item));
}

/** capability: one item per container and added capability, normalised (`CAP_NET_ADMIN` and `net_admin` are `NET_ADMIN`). */
function detectCapabilities(view: PodSpecView): HostAccessItem[] {
  const items: HostAccessItem[] = [];
  const hostNamespaces = ['hostNetwork', 'hostPID', 'hostIPC'].filter((ns) => view.spec[ns] === true);
  for (const c of view.containers) {
    const caps = object(c.sc.capabilities, `${containerPath(c)}.securityContext.capabilities`);
    // an empty name (`add: [null]` is stored as [""]) adds no capability: the runtime refuses it
    const added = new Set(stringItems(caps?.add, `${containerPath(c)}.securityContext.capabilities.add`).filter((cap) => cap.trim() !== '').map(capabilityDetail));
    for (const cap of added) items.push({ type: HostAccessType.CAPABILITY, detail: cap, container: c.name, hostNamespaces });
  }
  return items;
}

/** hostProcess: one item per container that is a Windows HostProcess container (its own setting, else the pod's). */
function detectHostProcess(view: PodSpecView): HostAccessItem[] {
  return view.containers.filter((c) => isHostProcess(c, view.podSecurityContext)).map((c) => dropUndefined({
    type: HostAccessType.HOST_PROCESS,
    detail: c.name,
    container: c.name,
    runAsUserName: windowsUserOf(c, view.podSecurityContext),
  }));
}

/** the risk of a HostProcess container, in words true of the user it runs as. */
function hostProcessRisk(item: HostAccessItem): HostRiskAssessment {
  const user = item.runAsUserName;
  const system = user !== undefined && user.toUpperCase() === 'NT AUTHORITY\\SYSTEM';
  const as = user === undefined ? 'as the user its image names' : `as ${user}`;
  return {
    risk: RiskLevel.CRITICAL,
    attackerGains: `runs as a process on the Windows node itself, outside any container, ${as}, with the node's network and file system` +
      (system ? ': SYSTEM is full control of the node (every file, process and credential, the kubelet\'s included)'
        : ': whatever that user may do on the node, which for SYSTEM or an administrator is everything'),
    saferAlternative: 'run the agent as a regular Windows container; where a HostProcess container is needed (installing a driver or a service), ' +
      'keep it to that step and run it as NT AUTHORITY\\LOCAL SERVICE or a dedicated local user rather than SYSTEM',
  };
}

// ---------------------------------------------------------------------------------------------- the descriptors

const DESCRIPTORS = {
  [HostAccessType.HOST_PATH]: {
    type: HostAccessType.HOST_PATH,
    scope: 'pod',
    grantedBy: 'spec.volumes[].hostPath, mounted by containers\' volumeMounts',
    detailFormat: 'the normalised host path and its mode: "/var/log (read-only)" or "/var/lib/agent (read-write)"',
    detect: detectHostPaths,
    describe: (ref) => `${ref.type} ${ref.detail}`,
    label: (ref) => `${ref.type} ${ref.detail}`,
    field: (item, podSpec) => {
      const volumes = Array.isArray(podSpec.volumes) ? podSpec.volumes : [];
      const i = volumes.findIndex((v: any) => v && v.name === item.volumes?.[0]);
      return i >= 0 ? `volumes[${i}].hostPath` : 'volumes';
    },
    riskBasis: { dependsOn: 'the path, read-only or read-write, and its mount propagation' },
    assess: (item) => {
      const { path, readOnly } = pathAndMode(item);
      const assessment = pathRisk(path, readOnly, { type: item.hostPathType, initOnly: item.onlyInitContainers === true });
      if (item.mountPropagation !== 'Bidirectional') return assessment;
      // a hostPath mounted with Bidirectional propagation is the riskier of the path and the propagation.
      const propagation = mountPropagationRisk('Bidirectional');
      return {
        ...assessment,
        risk: highestRisk([assessment.risk, propagation.risk]) ?? assessment.risk,
        attackerGains: `${assessment.attackerGains}; with Bidirectional mount propagation, ${propagation.attackerGains}`,
        saferAlternative: `${assessment.saferAlternative}; ${propagation.saferAlternative}`,
      };
    },
    // a read-only mount is a host privilege too: Pod Security baseline forbids every hostPath, and a read-only one can
    // still hold the node's secrets.
    reasonRequired: () => true,
    podSecurityCheck: () => PodSecurityCheck.HOST_PATH_VOLUMES,
  },
  [HostAccessType.HOST_NETWORK]: hostNamespace(HostAccessType.HOST_NETWORK, {
    risk: RiskLevel.HIGH,
    attackerGains: 'uses the node\'s network stack: listens on any node port, reaches services bound to the node\'s localhost, ' +
      'escapes network policies that select pods and, with NET_RAW, sniffs the node\'s traffic',
    saferAlternative: 'expose the agent\'s port through a Service, or a hostPort if a per-node address is needed; keep hostNetwork ' +
      'for agents that configure node networking (CNI, kube-proxy)',
  }),
  [HostAccessType.HOST_PID]: hostNamespace(HostAccessType.HOST_PID, {
    risk: RiskLevel.HIGH,
    attackerGains: 'sees every process on the node with its command line; signals processes running as the same user and, with ' +
      'SYS_PTRACE, traces and injects code into them, other containers included',
    saferAlternative: 'drop it unless the agent must inspect host processes (a runtime security agent); use shareProcessNamespace ' +
      'to see the pod\'s own containers',
  }),
  [HostAccessType.HOST_IPC]: hostNamespace(HostAccessType.HOST_IPC, {
    risk: RiskLevel.MEDIUM,
    attackerGains: 'reads and writes the shared memory and System V IPC objects of host processes and of pods in the host IPC namespace',
    saferAlternative: 'share memory between the pod\'s containers through an emptyDir with medium: Memory',
  }),
  [HostAccessType.HOST_PORT]: {
    type: HostAccessType.HOST_PORT,
    scope: 'container',
    grantedBy: 'ports[].hostPort of a container; with spec.hostNetwork: true, every container port',
    detailFormat: 'port and protocol: "9100/TCP"',
    detect: detectHostPorts,
    describe: (ref) => `${ref.type} ${ref.detail}${(ref as HostAccessItem).viaHostNetwork ? ' (a container port on the host network)' : ''}`,
    label: (ref) => `${ref.type} ${ref.detail}${(ref as HostAccessItem).viaHostNetwork ? ' (through hostNetwork)' : ''}`,
    field: (item, podSpec) => containerFieldOf(podSpec, item.container, 'ports'),
    riskBasis: { dependsOn: 'the port number and whether the pod is on the host network' },
    assess: (item) => hostPortRisk(item.port ?? Number(/^(\d+)/.exec(item.detail)?.[1]), item.viaHostNetwork === true),
    // a port reached through hostNetwork is explained by the hostNetwork's reason: it is the cause, and has its own item
    reasonRequired: (item) => item.viaHostNetwork !== true,
    // Pod Security judges the declared hostPort field; a port reached through hostNetwork fails hostNamespaces instead
    podSecurityCheck: (ref) => ((ref as HostAccessItem).viaHostNetwork ? undefined : PodSecurityCheck.HOST_PORTS),
  },
  [HostAccessType.PRIVILEGED]: containerFlag(
    HostAccessType.PRIVILEGED, 'securityContext.privileged: true on a container', 'privileged', 'securityContext.privileged',
    {
      risk: RiskLevel.CRITICAL,
      attackerGains: 'every capability, every host device and no seccomp or AppArmor confinement: root on the node ' +
        '(mounts the host disk, loads kernel modules)',
      saferAlternative: 'drop ALL capabilities and add only those the agent needs, each with a reason (as root: a non-root process gets ' +
        'none of them), and mount only the host paths it needs, read-only',
    },
    (c) => c.sc.privileged === true,
    PodSecurityCheck.PRIVILEGED,
  ),
  [HostAccessType.HOST_PROCESS]: {
    type: HostAccessType.HOST_PROCESS,
    scope: 'container',
    grantedBy: 'securityContext.windowsOptions.hostProcess: true on a container, or on the pod for all its containers',
    detailFormat: 'the container name',
    detect: detectHostProcess,
    describe: () => 'hostProcess (a Windows HostProcess container)',
    label: () => HostAccessType.HOST_PROCESS,
    field: (item, podSpec) => {
      const c = containersOf(podSpec).find((ref) => ref.name === item.container);
      const own = c ? object(c.sc.windowsOptions, `spec.${containerField(c)}.securityContext.windowsOptions`) : undefined;
      return c && own?.hostProcess !== undefined && own?.hostProcess !== null
        ? `${containerField(c)}.securityContext.windowsOptions.hostProcess`
        : 'securityContext.windowsOptions.hostProcess';
    },
    assess: hostProcessRisk,
    riskBasis: { fixed: RiskLevel.CRITICAL },
    reasonRequired: () => true,
    podSecurityCheck: () => PodSecurityCheck.WINDOWS_HOST_PROCESS,
  },
  [HostAccessType.CAPABILITY]: {
    type: HostAccessType.CAPABILITY,
    scope: 'container',
    grantedBy: 'securityContext.capabilities.add of a container',
    detailFormat: 'the capability name without CAP_, upper case: "NET_ADMIN"',
    detect: detectCapabilities,
    describe: (ref) => `${ref.type} ${ref.detail}`,
    label: (ref) => `${ref.type} ${ref.detail}`,
    field: (item, podSpec) => containerFieldOf(podSpec, item.container, 'securityContext.capabilities.add'),
    riskBasis: { dependsOn: 'the capability and the host namespaces the pod shares' },
    assess: (item) => capabilityRisk(capabilityDetail(String(item.detail)), item.hostNamespaces),
    reasonRequired: () => true,
    podSecurityCheck: (ref) => (BASELINE_CAPABILITIES.has(ref.detail) ? undefined : PodSecurityCheck.CAPABILITIES_BASELINE),
  },
  [HostAccessType.RUN_AS_ROOT]: {
    type: HostAccessType.RUN_AS_ROOT,
    scope: 'container',
    grantedBy: 'a Linux container whose effective runAsUser is 0, or that sets neither runAsUser nor runAsNonRoot: true (the image may run ' +
      'as root); a Windows container (not HostProcess) whose runAsUserName is ContainerAdministrator or unset, without runAsNonRoot: true',
    detailFormat: 'the container name',
    detect: (view) => view.containers.filter((c) => mayRunAsAdministrator(c, view)).map((c) => dropUndefined({
      type: HostAccessType.RUN_AS_ROOT, detail: c.name, container: c.name, windows: view.windows ? true : undefined,
    })),
    describe: () => 'runAsRoot (may run as root)',
    label: () => HostAccessType.RUN_AS_ROOT,
    field: (item, podSpec) => containerFieldOf(podSpec, item.container, item.windows ? 'securityContext.windowsOptions.runAsUserName' : 'securityContext.runAsNonRoot'),
    assess: (item) => ({ ...(item.windows ? CONTAINER_ADMINISTRATOR_RISK : ROOT_RISK) }),
    // UID 0 and ContainerAdministrator are rated alike
    riskBasis: { fixed: RiskLevel.MEDIUM },
    reasonRequired: () => true,
    podSecurityCheck: () => undefined,
  },
} satisfies { [type in HostAccessType]: HostPrivilegeDescriptor };

/** every descriptor, in `HostAccessType` order. */
export const HOST_PRIVILEGES: HostPrivilegeDescriptor[] = Object.values(HostAccessType).map((t) => DESCRIPTORS[t]);

/** the descriptor of a host access type; throws for a type the model does not know. */
export function descriptorOf(type: string): HostPrivilegeDescriptor {
  const found = Object.prototype.hasOwnProperty.call(DESCRIPTORS, type) ? (DESCRIPTORS as any)[type] as HostPrivilegeDescriptor : undefined;
  if (!found) {
    throw new Error(`host access type ${JSON.stringify(type)} is not known: use one of ${Object.values(HostAccessType).join(', ')}`);
  }
  return found;
}
