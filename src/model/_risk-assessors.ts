/**
 * Internal: how the risk of a host path, a capability, a host port and a mount propagation is computed from the
 * catalogue. `HostRisk` exposes these; the host privilege descriptors (`_host-privileges.ts`) use them to rate items.
 */
import { CAPABILITY_CATALOGUE, HostNamespace, UNKNOWN_CAPABILITY } from './_capability-catalogue';
import { Advice, byName, PATH_CATALOGUE, PathEntry, PathJudgement, PathUse, pipeJudgement, RiskText, UNKNOWN_PATH } from './_host-risk-catalogue';
import { isWithin, kubeletPath, normalizeHostPath, throughProcRoot } from './_paths';
import { HostRiskAssessment, RiskLevel } from './risk-level';

const RANK: { [level: string]: number } = { low: 1, medium: 2, high: 3, critical: 4 };

/** ports of node services: a hostPort on one of them captures traffic meant for the service. */
const NODE_SERVICE_PORTS: { [port: number]: string } = {
  22: 'SSH',
  2379: 'etcd (clients)',
  2380: 'etcd (peers)',
  6443: 'the Kubernetes API server',
  10249: 'kube-proxy metrics',
  10250: 'the kubelet API',
  10255: 'the kubelet read-only API',
  10256: 'kube-proxy health checks',
  10257: 'kube-controller-manager',
  10259: 'kube-scheduler',
};

const MOUNT_PROPAGATION: { [mode: string]: HostRiskAssessment } = {
  Bidirectional: {
    risk: RiskLevel.HIGH,
    attackerGains: 'mounts made in the container propagate to the host: mounts over host paths, shadowing what host services and other pods see',
    saferAlternative: 'use HostToContainer (or no propagation) unless the agent mounts volumes for other pods (a CSI node plugin)',
  },
  HostToContainer: {
    risk: RiskLevel.LOW,
    attackerGains: 'sees mounts the host makes later below the mounted path',
    saferAlternative: 'drop the propagation unless the agent must see mounts made after it started',
  },
  None: {
    risk: RiskLevel.LOW,
    attackerGains: 'nothing beyond the mount itself',
    saferAlternative: 'nothing to change',
  },
};

function toLevel(risk: RiskText['risk']): RiskLevel {
  return risk as string as RiskLevel;
}

function isPipe(path: string): boolean {
  return path.startsWith('\\\\.\\pipe\\') || path.startsWith('//./pipe/');
}

/**
 * The Linux path of a Windows kubelet directory: `C:\var\lib\kubelet\pods` (or `\var\lib\kubelet\pods`, on the system
 * drive; either slash) is `/var/lib/kubelet/pods`. The kubelet's default root directory is filepath.Clean("/var/lib/kubelet")
 * (k8s.io/kubernetes cmd/kubelet/app/options/options.go), `\var\lib\kubelet` on Windows, with the Linux layout below it.
 */
function windowsKubeletPath(path: string): string | undefined {
  const m = /^(?:[a-z]:)?[\\/]var[\\/]lib[\\/]kubelet((?:[\\/][^\\/]*)*)$/i.exec(path);
  if (!m || path.startsWith('/')) return undefined;
  const rest = m[1].split(/[\\/]/).filter((x) => x !== '');
  return ['/var/lib/kubelet', ...rest].join('/');
}

function pipeKey(path: string): string {
  return path.replace(/\//g, '\\').toLowerCase();
}

function modeWord(readOnly: boolean): string {
  return readOnly ? 'read-only' : 'read-write';
}

/** the text of a judgement for a use: its risk, its gains and its advice, functions applied. */
function textOf(j: PathJudgement, use: PathUse): { risk: RiskText['risk']; gains: string; alternative: string } {
  const t = use.readOnly ? j.readOnly : j.readWrite;
  return { risk: t.risk, gains: typeof t.gains === 'function' ? t.gains(use) : t.gains, alternative: adviceOf(j.alternative, use) };
}

function adviceOf(a: Advice, use: PathUse): string {
  if (typeof a === 'string') return a;
  if (typeof a === 'function') return a(use);
  return use.readOnly ? a.readOnly : a.readWrite;
}

/** the rank of a level: low 1, medium 2, high 3, critical 4. */
export function riskRank(level: RiskLevel): number {
  const r = Object.prototype.hasOwnProperty.call(RANK, level) ? RANK[level] : undefined;
  if (r === undefined) {
    throw new Error(`risk level must be one of ${Object.values(RiskLevel).join(', ')}, got ${JSON.stringify(level)}: pass a RiskLevel value`);
  }
  return r;
}

/** the highest of some levels, or undefined when there are none. */
export function highestRisk(levels: RiskLevel[]): RiskLevel | undefined {
  let best: RiskLevel | undefined;
  for (const level of levels) {
    if (best === undefined || riskRank(level) > riskRank(best)) best = level;
  }
  return best;
}

/** how a host path is mounted, beyond its mode: `HostRisk.forPath` takes it to avoid advice that is already applied. */
export interface PathMount {
  /** `hostPath.type`. */
  readonly type?: string;
  /** whether only init containers that run to completion write it (read it, for a read-only path). */
  readonly initOnly?: boolean;
}

/**
 * Assessments by path and mount: the catalogue is constant, so an assessment depends on these four values only. Agents
 * mount the same few paths (/var/log, /proc, the runtime sockets...), and every agent is reviewed at every synth.
 * Bounded: a review of arbitrary manifests cannot grow it without limit.
 */
const PATH_RISKS = new Map<string, HostRiskAssessment>();
const PATH_RISKS_MAX = 2048;

/** see `HostRisk.forPath`. */
export function pathRisk(path: string, readOnly: boolean, mount: PathMount = {}): HostRiskAssessment {
  if (typeof path !== 'string' || path === '') {
    throw new Error(`host path must be a non-empty string, got ${JSON.stringify(path)}: pass the hostPath path`);
  }
  const key = JSON.stringify([path, readOnly, mount.type, mount.initOnly]);
  let assessment = PATH_RISKS.get(key);
  if (assessment === undefined) {
    assessment = computePathRisk(path, readOnly, mount);
    if (PATH_RISKS.size >= PATH_RISKS_MAX) PATH_RISKS.clear();
    PATH_RISKS.set(key, assessment);
  }
  // a copy: the caller owns what it is given
  return { ...assessment };
}

function computePathRisk(path: string, readOnly: boolean, mount: PathMount): HostRiskAssessment {
  const assessment = assessResolved(path, readOnly, mount);
  const display = isPipe(path) ? path : normalizeHostPath(path);
  const reached = isPipe(path) ? path : throughProcRoot(display);
  if (reached === display) return assessment;
  // judged as the path it reaches, and said so: the text names that path
  return {
    ...assessment,
    attackerGains: `${display} is the node's ${reached}, as the kubelet resolves it on the host (a process's /proc root link is the host's root ` +
      `there): ${assessment.attackerGains}`,
  };
}

function assessResolved(path: string, readOnly: boolean, mount: PathMount): HostRiskAssessment {
  const display = isPipe(path) ? path : throughProcRoot(normalizeHostPath(path));
  const use: PathUse = { path: display, readOnly, type: mount.type, initOnly: mount.initOnly };
  if (isPipe(path)) {
    const pipe = PATH_CATALOGUE.find((e) => isPipe(e.path) && pipeKey(e.path) === pipeKey(path));
    return result(textOf(pipe ?? pipeJudgement(path), use), pipe?.path);
  }
  const kubelet = windowsKubeletPath(display);
  if (kubelet !== undefined) {
    // the Windows kubelet keeps what the Linux one does, in the same layout under C:\var\lib\kubelet
    const linux = computePathRisk(kubelet, readOnly, mount);
    return { ...linux, attackerGains: `on the Windows node, as ${kubelet} on Linux: ${linux.attackerGains}` };
  }
  const normalized = kubeletPath(display);
  if (!normalized.startsWith('/')) return result(textOf(UNKNOWN_PATH, use));

  const posix = PATH_CATALOGUE.filter((e) => e.path.startsWith('/'));
  // the entry for / describes mounting the whole filesystem: it is no prefix of other paths.
  const own = posix
    .filter((e) => (e.path === '/' ? normalized === '/' : isWithin(normalized, e.path)))
    .sort((a, b) => b.path.length - a.path.length)[0];
  let base: { text: ReturnType<typeof textOf>; matched?: string };
  const named = own?.path === normalized ? undefined : byName(use);
  if (named) {
    base = { text: textOf(named, use) };
  } else if (!own) {
    base = { text: textOf(UNKNOWN_PATH, use) };
  } else if (own.path !== normalized && own.below) {
    // a path below an entry, without an entry of its own: the entry's rule for what is below it
    const viaVarRun = own.path.startsWith('/run') && display !== normalized;
    const parent = viaVarRun ? `/var${own.path}` : own.path;
    const rest = normalized.slice(own.path === '/' ? 1 : own.path.length + 1).split('/');
    base = { text: textOf(own.below({ ...use, parent, rest }), use), matched: own.path };
  } else {
    base = { text: textOf(own, use), matched: own.path };
  }
  if (mount.initOnly && !readOnly) {
    base = {
      ...base,
      text: {
        ...base.text,
        gains: `${base.text.gains} (only init containers write it here: the write access ends when they finish, before the pod's other containers ` +
          'start, but what they wrote stays)',
      },
    };
  }

  const below = posix.filter((e) => e.path !== normalized && isWithin(e.path, normalized));
  const worst = Math.max(0, ...below.map((e) => RANK[(readOnly ? e.readOnly : e.readWrite).risk]));
  if (worst <= RANK[base.text.risk]) return result(base.text, base.matched);

  const riskiest: PathEntry[] = below.filter((e) => RANK[(readOnly ? e.readOnly : e.readWrite).risk] === worst);
  const first = riskiest[0];
  // the descendant's own text and advice, as if it were mounted the same way (no type: the type is the directory's)
  const firstText = textOf(first, { ...use, path: first.path, type: undefined });
  const others = riskiest.slice(1, 4).map((e) => e.path);
  const more = riskiest.length > 4 ? `, and ${riskiest.length - 4} more` : '';
  const alsoList = others.length > 0 ? ` (as do ${others.join(', ')}${more})` : '';
  return result(
    {
      risk: firstText.risk,
      gains: `${base.text.gains}; it also contains ${first.path}, mounted ${modeWord(readOnly)} with it, which ${firstText.risk === 'critical' ? 'is critical' : `is ${firstText.risk} risk`}${alsoList}: ${firstText.gains}`,
      alternative: escalatedAdvice(first.path, firstText.alternative, base.text.alternative),
    },
    first.path,
  );
}

/**
 * The advice for a directory that contains something riskier than itself: the descendant's advice, then the
 * directory's. A descendant's "nothing narrower" is not true of the directory that contains it (mounting the
 * descendant alone is narrower), and one advice that repeats the other is given once.
 */
function escalatedAdvice(path: string, descendant: string, directory: string): string {
  if (descendant.startsWith('nothing') || directory.includes(descendant)) return directory;
  if (descendant.includes(directory)) return `for ${path}: ${descendant}`;
  return `for ${path}: ${descendant}; more generally, ${directory}`;
}

function result(text: { risk: string; gains: string; alternative: string }, matchedPath?: string): HostRiskAssessment {
  const r: HostRiskAssessment = { risk: toLevel(text.risk as RiskText['risk']), attackerGains: text.gains, saferAlternative: text.alternative };
  return matchedPath === undefined ? r : { ...r, matchedPath };
}

/**
 * The container runtime sockets a host path reaches: the socket itself (by the catalogue's paths, or by its name:
 * `containerd.sock`, `docker.sock`...) or the catalogue's sockets in a directory it contains. `/var/run` is read as `/run`.
 */
export function runtimeSocketsReached(path: string): string[] {
  let reached = SOCKETS_REACHED.get(path);
  if (reached === undefined) {
    reached = computeSocketsReached(path);
    if (SOCKETS_REACHED.size >= PATH_RISKS_MAX) SOCKETS_REACHED.clear();
    SOCKETS_REACHED.set(path, reached);
  }
  return [...reached];
}

/** the sockets each path reaches, as PATH_RISKS keeps assessments. */
const SOCKETS_REACHED = new Map<string, string[]>();

function computeSocketsReached(path: string): string[] {
  if (isPipe(path)) {
    return PATH_CATALOGUE.filter((e) => e.runtime !== undefined && isPipe(e.path) && pipeKey(e.path) === pipeKey(path)).map((e) => e.path);
  }
  const display = throughProcRoot(normalizeHostPath(path));
  const normalized = kubeletPath(display);
  if (!normalized.startsWith('/')) return [];
  const known = PATH_CATALOGUE.filter((e) => e.runtime !== undefined && e.path.startsWith('/') && isWithin(e.path, normalized)).map((e) => e.path);
  if (known.length > 0) return known;
  const named = byName({ path: display, readOnly: true });
  return named !== undefined && named.readOnly.risk === 'critical' ? [normalized] : [];
}

/** the host namespaces the descriptors and `HostRisk` accept, in the order they take precedence for a capability. */
const NAMESPACES: HostNamespace[] = ['hostNetwork', 'hostPID', 'hostIPC'];

/**
 * See `HostRisk.forCapability`; `name` is normalised (upper case, no `CAP_`). Without `hostNamespaces` the text holds
 * whatever the pod shares; with them (an empty list: none), it says what the capability reaches in this pod.
 */
export function capabilityRisk(name: string, hostNamespaces?: string[]): HostRiskAssessment {
  const entry = Object.prototype.hasOwnProperty.call(CAPABILITY_CATALOGUE, name) ? CAPABILITY_CATALOGUE[name] : UNKNOWN_CAPABILITY;
  let text: { risk: RiskText['risk']; gains: string } = entry;
  if (hostNamespaces !== undefined) {
    for (const ns of hostNamespaces) {
      if (!NAMESPACES.includes(ns as HostNamespace)) {
        throw new Error(`host namespace must be one of ${NAMESPACES.join(', ')}, got ${JSON.stringify(ns)}`);
      }
    }
    const shared = NAMESPACES.find((ns) => hostNamespaces.includes(ns) && entry.with?.[ns] !== undefined);
    text = shared !== undefined ? entry.with![shared]! : entry.alone ?? entry;
  }
  return { risk: toLevel(text.risk), attackerGains: `${name}: ${text.gains}`, saferAlternative: entry.alternative };
}

/**
 * See `HostRisk.forHostPort`. `viaHostNetwork`: the port is a container port of a hostNetwork pod, on the node without a
 * hostPort.
 */
export function hostPortRisk(port: number, viaHostNetwork = false): HostRiskAssessment {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`host port must be a number from 1 to 65535, got ${JSON.stringify(port)}: pass the container port's hostPort`);
  }
  const service = NODE_SERVICE_PORTS[port];
  if (viaHostNetwork) {
    const alternative = 'bind the listener only to the address its clients use (e.g. 127.0.0.1 for clients on the node): on the host network every ' +
      'port the agent opens is a port of the node';
    if (service) {
      return {
        risk: RiskLevel.HIGH,
        attackerGains: `listens on port ${port} of the node (a container port of a hostNetwork pod), the port of ${service}: on a node where ` +
          `${service} is not listening, the container receives the traffic meant for it`,
        saferAlternative: `choose another port; ${alternative}`,
      };
    }
    return {
      risk: RiskLevel.LOW,
      attackerGains: `listens on port ${port} of the node's addresses (a container port of a hostNetwork pod, no hostPort needed): reachable from ` +
        'outside the cluster unless a firewall blocks it',
      saferAlternative: alternative,
    };
  }
  if (service) {
    return {
      risk: RiskLevel.HIGH,
      attackerGains: `binds port ${port} on the node, the port of ${service}: the CNI's port mapping sends traffic meant for ${service} to the container`,
      saferAlternative: 'choose another port, or expose the agent through a Service',
    };
  }
  return {
    risk: RiskLevel.LOW,
    attackerGains: `binds port ${port} on the node's addresses: the container is reachable from outside the cluster unless a firewall blocks it, ` +
      'and only one such pod fits on a node',
    saferAlternative: 'expose the port through a Service, or set hostIP to bind one address; keep hostPort only where a per-node endpoint is needed',
  };
}

/** see `HostRisk.forMountPropagation`. */
export function mountPropagationRisk(mode: string): HostRiskAssessment {
  const entry = Object.prototype.hasOwnProperty.call(MOUNT_PROPAGATION, mode) ? MOUNT_PROPAGATION[mode] : undefined;
  if (!entry) {
    throw new Error(`mount propagation must be one of ${Object.keys(MOUNT_PROPAGATION).join(', ')}, got ${JSON.stringify(mode)}: fix the volumeMount`);
  }
  return { ...entry };
}

/** the container runtime sockets (and named pipes) the catalogue knows, in catalogue order. */
export function runtimeSockets(): string[] {
  return PATH_CATALOGUE.filter((e) => e.runtime !== undefined).map((e) => e.path);
}

/** the host paths the catalogue knows, in catalogue order. */
export function knownPaths(): string[] {
  return PATH_CATALOGUE.map((e) => e.path);
}

/** the capability names the catalogue knows, sorted. */
export function knownCapabilities(): string[] {
  return Object.keys(CAPABILITY_CATALOGUE).sort();
}
