import { CAPABILITY_CATALOGUE, PATH_CATALOGUE, PathEntry, Risk, RiskText, UNKNOWN_CAPABILITY, UNKNOWN_PATH } from './_host-risk-catalogue';
import { isWithin, normalizeHostPath } from './_paths';
import { HostAccess, HostAccessItem } from './host-access';
import { HostAccessType } from './host-access-reasons';

/**
 * How much a host privilege gives an attacker who controls the container, from least to most.
 */
export enum RiskLevel {
  /** information of little value, or nuisance on the node. */
  LOW = 'low',
  /** sensitive information, or interference with other workloads on the node. */
  MEDIUM = 'medium',
  /** secrets or control of a part of the node, a step away from root on it. */
  HIGH = 'high',
  /** root on the node, or control of the cluster. */
  CRITICAL = 'critical',
}

/**
 * The risk of one host privilege, in plain English.
 */
export interface HostRiskAssessment {
  /** how much the privilege gives an attacker. */
  readonly risk: RiskLevel;

  /** what an attacker who controls the container gains through it. */
  readonly attackerGains: string;

  /** how to get what the agent needs with less. */
  readonly saferAlternative: string;

  /**
   * For a hostPath: the catalogue path that decided the risk (the longest catalogue prefix of the path, or a riskier
   * catalogue path below it).
   *
   * @default - not a hostPath, or a path the catalogue does not cover
   */
  readonly matchedPath?: string;
}

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

const FIXED: { [type: string]: { risk: RiskLevel; attackerGains: string; saferAlternative: string } } = {
  [HostAccessType.HOST_NETWORK]: {
    risk: RiskLevel.HIGH,
    attackerGains: 'uses the node\'s network stack: listens on any node port, reaches services bound to the node\'s localhost, ' +
      'escapes network policies that select pods and, with NET_RAW, sniffs the node\'s traffic',
    saferAlternative: 'expose the agent\'s port through a Service, or a hostPort if a per-node address is needed; keep hostNetwork ' +
      'for agents that configure node networking (CNI, kube-proxy)',
  },
  [HostAccessType.HOST_PID]: {
    risk: RiskLevel.HIGH,
    attackerGains: 'sees every process on the node with its command line; signals processes running as the same user and, with ' +
      'SYS_PTRACE, traces and injects code into them, other containers included',
    saferAlternative: 'drop it unless the agent must inspect host processes (a runtime security agent); use shareProcessNamespace ' +
      'to see the pod\'s own containers',
  },
  [HostAccessType.HOST_IPC]: {
    risk: RiskLevel.MEDIUM,
    attackerGains: 'reads and writes the shared memory and System V IPC objects of host processes and of pods in the host IPC namespace',
    saferAlternative: 'share memory between the pod\'s containers through an emptyDir with medium: Memory',
  },
  [HostAccessType.PRIVILEGED]: {
    risk: RiskLevel.CRITICAL,
    attackerGains: 'every capability, every host device and no seccomp or AppArmor confinement: root on the node ' +
      '(mounts the host disk, loads kernel modules)',
    saferAlternative: 'drop ALL capabilities and add only those the agent needs, each with a reason, and mount only the host paths it ' +
      'needs, read-only',
  },
  [HostAccessType.RUN_AS_ROOT]: {
    risk: RiskLevel.MEDIUM,
    attackerGains: 'root in the container: whatever else goes wrong (a writable host path, an added capability, a container escape) ' +
      'happens as root, and root-only files on host mounts are readable',
    saferAlternative: 'set runAsNonRoot: true and a non-zero runAsUser, and grant the specific capability the agent needs instead of root',
  },
};

const MOUNT_PROPAGATION: { [mode: string]: { risk: RiskLevel; attackerGains: string; saferAlternative: string } } = {
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

function toLevel(risk: Risk): RiskLevel {
  return risk as string as RiskLevel;
}

function aliasRun(path: string): string {
  // /var/run is a symlink to /run on current distributions, and the kubelet resolves it on the host.
  return isWithin(path, '/var/run') ? `/run${path.slice('/var/run'.length)}` : path;
}

function isPipe(path: string): boolean {
  return path.startsWith('\\\\.\\pipe\\') || path.startsWith('//./pipe/');
}

function pick(e: { readOnly: RiskText; readWrite: RiskText }, readOnly: boolean): RiskText {
  return readOnly ? e.readOnly : e.readWrite;
}

function modeWord(readOnly: boolean): string {
  return readOnly ? 'read-only' : 'read-write';
}

/** a hostPath item's path and mode, from its fields or, for a HostAccessReason, from its detail. */
function pathAndMode(item: HostAccessItem): { path: string; readOnly: boolean } {
  const match = /^(.*) \((read-only|read-write)\)$/.exec(item.detail);
  const path = item.path ?? (match ? match[1] : item.detail);
  const readOnly = item.readOnly ?? (match ? match[2] === 'read-only' : false);
  return { path, readOnly };
}

/**
 * The host-access risk catalogue: for each host privilege a pod can take, how much it gives an attacker who controls the
 * container, what exactly, and how to get the same job done with less.
 *
 * It rates hostPath (by path and writability), hostNetwork, hostPID, hostIPC, hostPort, privileged, each capability,
 * running as root and Bidirectional mount propagation.
 */
export class HostRisk {
  /**
   * Assesses one host privilege, as `HostAccess.of` lists it (a `HostAccessReason`, whose hostPath detail carries the mode,
   * is accepted too).
   *
   * A hostPath mounted with Bidirectional propagation is assessed as the riskier of the path and the propagation.
   *
   * @param item the privilege
   * @throws when the item's type is not a `HostAccessType`
   */
  public static assess(item: HostAccessItem): HostRiskAssessment {
    switch (item.type) {
      case HostAccessType.HOST_PATH: {
        const { path, readOnly } = pathAndMode(item);
        const assessment = HostRisk.forPath(path, readOnly);
        if (item.mountPropagation !== 'Bidirectional') return assessment;
        const propagation = HostRisk.forMountPropagation('Bidirectional');
        return {
          ...assessment,
          risk: HostRisk.highest([assessment.risk, propagation.risk]) ?? assessment.risk,
          attackerGains: `${assessment.attackerGains}; with Bidirectional mount propagation, ${propagation.attackerGains}`,
          saferAlternative: `${assessment.saferAlternative}; ${propagation.saferAlternative}`,
        };
      }
      case HostAccessType.CAPABILITY:
        return HostRisk.forCapability(item.detail);
      case HostAccessType.HOST_PORT: {
        const port = item.port ?? Number(/^(\d+)/.exec(item.detail)?.[1]);
        return HostRisk.forHostPort(port);
      }
      case HostAccessType.HOST_NETWORK:
      case HostAccessType.HOST_PID:
      case HostAccessType.HOST_IPC:
      case HostAccessType.PRIVILEGED:
      case HostAccessType.RUN_AS_ROOT:
        return { ...FIXED[item.type] };
      default:
        throw new Error(
          `host access type ${JSON.stringify(item.type)} is not known: use one of ${Object.values(HostAccessType).join(', ')}`,
        );
    }
  }

  /**
   * Assesses mounting a host path.
   *
   * The path is normalised (`HostAccess.normalizePath`; `/var/run` is read as `/run`) and matched to the catalogue entry
   * with the longest prefix, by whole path segments (the entry for `/` applies to `/` alone; a path no entry covers is
   * medium read-only and high read-write). A directory is at least as risky as anything the catalogue lists
   * below it: mounting `/run` read-only exposes the container runtime sockets under it. The socket of a container runtime
   * is critical even read-only, because a read-only mount does not stop a process from connecting to a socket.
   *
   * @param path the host path
   * @param readOnly whether every mount of it is read-only
   */
  public static forPath(path: string, readOnly: boolean): HostRiskAssessment {
    if (typeof path !== 'string' || path === '') {
      throw new Error(`host path must be a non-empty string, got ${JSON.stringify(path)}: pass the hostPath path`);
    }
    if (isPipe(path)) {
      const pipe = PATH_CATALOGUE.find((e) => isPipe(e.path) && e.path.toLowerCase() === path.replace(/\//g, '\\').toLowerCase());
      return pipe ? result(pick(pipe, readOnly), pipe.alternative, pipe.path) : result(pick(UNKNOWN_PATH, readOnly), UNKNOWN_PATH.alternative);
    }
    const normalized = aliasRun(normalizeHostPath(path));
    if (!normalized.startsWith('/')) return result(pick(UNKNOWN_PATH, readOnly), UNKNOWN_PATH.alternative);

    const posix = PATH_CATALOGUE.filter((e) => e.path.startsWith('/'));
    // the entry for / describes mounting the whole filesystem: it is no prefix of other paths.
    const own = posix
      .filter((e) => (e.path === '/' ? normalized === '/' : isWithin(normalized, e.path)))
      .sort((a, b) => b.path.length - a.path.length)[0];
    let base: { text: RiskText; alternative: string; matched?: string };
    if (!own) {
      base = { text: pick(UNKNOWN_PATH, readOnly), alternative: UNKNOWN_PATH.alternative };
    } else if (own.path !== normalized && own.below) {
      base = { text: pick(own.below, readOnly), alternative: own.below.alternative, matched: own.path };
    } else {
      base = { text: pick(own, readOnly), alternative: own.alternative, matched: own.path };
    }

    const below = posix.filter((e) => e.path !== normalized && isWithin(e.path, normalized));
    const worst = Math.max(0, ...below.map((e) => RANK[pick(e, readOnly).risk]));
    if (worst <= RANK[base.text.risk]) return result(base.text, base.alternative, base.matched);

    const riskiest: PathEntry[] = below.filter((e) => RANK[pick(e, readOnly).risk] === worst);
    const first = riskiest[0];
    const firstText = pick(first, readOnly);
    const others = riskiest.slice(1, 4).map((e) => e.path);
    const more = riskiest.length > 4 ? `, and ${riskiest.length - 4} more` : '';
    const alsoList = others.length > 0 ? ` (as do ${others.join(', ')}${more})` : '';
    return result(
      {
        risk: firstText.risk,
        gains: `${base.text.gains}; it also contains ${first.path}, mounted ${modeWord(readOnly)} with it, which ${firstText.risk === 'critical' ? 'is critical' : `is ${firstText.risk} risk`}${alsoList}: ${firstText.gains}`,
      },
      `${first.alternative}; more generally, ${base.alternative}`,
      first.path,
    );
  }

  /**
   * Assesses adding a Linux capability.
   *
   * @param capability the name as written in `capabilities.add` (`NET_ADMIN`, `CAP_NET_ADMIN` and `net_admin` are the same);
   * a capability the catalogue does not know is assessed as high
   */
  public static forCapability(capability: string): HostRiskAssessment {
    const name = HostAccess.normalizeCapability(String(capability));
    const entry = Object.prototype.hasOwnProperty.call(CAPABILITY_CATALOGUE, name) ? CAPABILITY_CATALOGUE[name] : UNKNOWN_CAPABILITY;
    return { risk: toLevel(entry.risk), attackerGains: `${name}: ${entry.gains}`, saferAlternative: entry.alternative };
  }

  /**
   * Assesses binding a port on the node (`hostPort`): low, or high for the port of a node service (SSH, etcd, the API
   * server, the kubelet, kube-proxy, the controller manager, the scheduler), whose traffic the CNI's port mapping would capture.
   *
   * @param port the host port
   * @throws when the port is not a number from 1 to 65535
   */
  public static forHostPort(port: number): HostRiskAssessment {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Error(`host port must be a number from 1 to 65535, got ${JSON.stringify(port)}: pass the container port's hostPort`);
    }
    const service = NODE_SERVICE_PORTS[port];
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

  /**
   * Assesses a volume mount's `mountPropagation`: `Bidirectional` is high (the container's mounts reach the host),
   * `HostToContainer` and `None` are low.
   *
   * @param mode the `mountPropagation` value
   * @throws when the mode is not one of Bidirectional, HostToContainer, None
   */
  public static forMountPropagation(mode: string): HostRiskAssessment {
    const entry = Object.prototype.hasOwnProperty.call(MOUNT_PROPAGATION, mode) ? MOUNT_PROPAGATION[mode] : undefined;
    if (!entry) {
      throw new Error(`mount propagation must be one of ${Object.keys(MOUNT_PROPAGATION).join(', ')}, got ${JSON.stringify(mode)}: fix the volumeMount`);
    }
    return { ...entry };
  }

  /**
   * The rank of a level, for comparisons: low 1, medium 2, high 3, critical 4.
   *
   * @param level the level
   * @throws when the level is not a `RiskLevel`
   */
  public static rank(level: RiskLevel): number {
    const r = Object.prototype.hasOwnProperty.call(RANK, level) ? RANK[level] : undefined;
    if (r === undefined) {
      throw new Error(`risk level must be one of ${Object.values(RiskLevel).join(', ')}, got ${JSON.stringify(level)}: pass a RiskLevel value`);
    }
    return r;
  }

  /**
   * The highest of some levels, or undefined when there are none.
   *
   * @param levels the levels
   */
  public static highest(levels: RiskLevel[]): RiskLevel | undefined {
    let best: RiskLevel | undefined;
    for (const level of levels) {
      if (best === undefined || HostRisk.rank(level) > HostRisk.rank(best)) best = level;
    }
    return best;
  }

  /** the host paths the catalogue knows, in catalogue order. */
  public static knownPaths(): string[] {
    return PATH_CATALOGUE.map((e) => e.path);
  }

  /** the capability names the catalogue knows, sorted. */
  public static knownCapabilities(): string[] {
    return Object.keys(CAPABILITY_CATALOGUE).sort();
  }
}

function result(text: RiskText, alternative: string, matchedPath?: string): HostRiskAssessment {
  const r: HostRiskAssessment = { risk: toLevel(text.risk), attackerGains: text.gains, saferAlternative: alternative };
  return matchedPath === undefined ? r : { ...r, matchedPath };
}
