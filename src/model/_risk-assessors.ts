/**
 * Internal: how the risk of a host path, a capability, a host port and a mount propagation is computed from the
 * catalogue. `HostRisk` exposes these; the host privilege descriptors (`_host-privileges.ts`) use them to rate items.
 */
import { CAPABILITY_CATALOGUE, PATH_CATALOGUE, PathEntry, Risk, RiskText, UNKNOWN_CAPABILITY, UNKNOWN_PATH } from './_host-risk-catalogue';
import { isWithin, normalizeHostPath } from './_paths';
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

function result(text: RiskText, alternative: string, matchedPath?: string): HostRiskAssessment {
  const r: HostRiskAssessment = { risk: toLevel(text.risk), attackerGains: text.gains, saferAlternative: alternative };
  return matchedPath === undefined ? r : { ...r, matchedPath };
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

/** see `HostRisk.forPath`. */
export function pathRisk(path: string, readOnly: boolean): HostRiskAssessment {
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

/** see `HostRisk.forCapability`; `name` is normalised (upper case, no `CAP_`). */
export function capabilityRisk(name: string): HostRiskAssessment {
  const entry = Object.prototype.hasOwnProperty.call(CAPABILITY_CATALOGUE, name) ? CAPABILITY_CATALOGUE[name] : UNKNOWN_CAPABILITY;
  return { risk: toLevel(entry.risk), attackerGains: `${name}: ${entry.gains}`, saferAlternative: entry.alternative };
}

/** see `HostRisk.forHostPort`. */
export function hostPortRisk(port: number): HostRiskAssessment {
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

/** see `HostRisk.forMountPropagation`. */
export function mountPropagationRisk(mode: string): HostRiskAssessment {
  const entry = Object.prototype.hasOwnProperty.call(MOUNT_PROPAGATION, mode) ? MOUNT_PROPAGATION[mode] : undefined;
  if (!entry) {
    throw new Error(`mount propagation must be one of ${Object.keys(MOUNT_PROPAGATION).join(', ')}, got ${JSON.stringify(mode)}: fix the volumeMount`);
  }
  return { ...entry };
}

/** the host paths the catalogue knows, in catalogue order. */
export function knownPaths(): string[] {
  return PATH_CATALOGUE.map((e) => e.path);
}

/** the capability names the catalogue knows, sorted. */
export function knownCapabilities(): string[] {
  return Object.keys(CAPABILITY_CATALOGUE).sort();
}
