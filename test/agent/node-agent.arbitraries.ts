/**
 * fast-check arbitraries for NodeAgent props, shared by the property tests.
 *
 * Every arbitrary here produces VALID input, as the props' documentation describes it. Where the library
 * has a known bug on some valid input, the generators stay clear of it and say so in a comment (the bug
 * has its own property in node-agent.property.test.ts).
 */
import { Duration, Size } from 'cdk8s';
import { Capability, Cpu, DnsPolicy, HostPathVolumeType, MountPropagation, PercentOrAbsolute, Protocol, TaintEffect } from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import {
  AccessRule, AgentContainerProps, AgentPort, AgentProbe, AgentResources, AgentUpdateStrategy, CapabilityGrant, ContainerOptions,
  HostMount, Justification, NodeAffinityTerm, NodeAgentProps, NodeRequirement, Toleration, WeightedNodeAffinityTerm,
} from '../../src';
import { parseImage } from '../../src/agent/_image';

// ------------------------------------------------------------------ characters and names

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM_LOWER = LOWER + DIGITS;
const ALNUM = LOWER + LOWER.toUpperCase() + DIGITS;

function charFrom(set: string): fc.Arbitrary<string> {
  return fc.constantFrom(...set.split(''));
}

/**
 * A string that starts and ends with a character of `edge` and has characters of `inner` between, of at
 * most `maxLength` characters. Mostly short, sometimes exactly `maxLength` long (the edge the API checks).
 */
export function shaped(edge: string, inner: string, maxLength: number, minLength = 1): fc.Arbitrary<string> {
  const framed = (min: number, max: number) => fc
    .tuple(charFrom(edge), fc.string({ unit: charFrom(inner), minLength: min, maxLength: max }), charFrom(edge))
    .map(([a, m, b]) => a + m + b);
  const parts: fc.WeightedArbitrary<string>[] = [
    { arbitrary: framed(Math.max(0, minLength - 2), Math.max(0, Math.min(10, maxLength - 2))), weight: 8 },
    { arbitrary: framed(maxLength - 2, maxLength - 2), weight: 1 },
  ];
  if (minLength <= 1) parts.push({ arbitrary: charFrom(edge), weight: 1 });
  return fc.oneof(...parts);
}

/** names of Object.prototype members: plain-object lookups with `in` trip over them (see the bug properties). */
export const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__proto__'];
const notPrototypeName = (k: string) => !PROTOTYPE_NAMES.includes(k);

/** a DNS-1123 label, up to 63 characters. */
export const dnsLabel = (maxLength = 63): fc.Arbitrary<string> => shaped(ALNUM_LOWER, `${ALNUM_LOWER}-`, maxLength);

/** a DNS-1123 subdomain: dot-separated labels, sometimes exactly 253 characters. */
export const dnsSubdomain: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.array(dnsLabel(12), { minLength: 1, maxLength: 3 }).map((ls) => ls.join('.')), weight: 8 },
  { arbitrary: fc.tuple(dnsLabel(63).filter((s) => s.length === 63), dnsLabel(63).filter((s) => s.length === 63), dnsLabel(63).filter((s) => s.length === 63), shaped(ALNUM_LOWER, `${ALNUM_LOWER}-`, 61).filter((s) => s.length === 61)).map((ls) => ls.join('.')), weight: 1 },
);

/** the name part of a label key, or a label value without the empty case: up to 63 characters. */
export const labelName: fc.Arbitrary<string> = shaped(ALNUM, `${ALNUM}-_.`, 63).filter(notPrototypeName);

/** a label value: empty or a label name. */
export const labelValue: fc.Arbitrary<string> = fc.oneof({ arbitrary: fc.constant(''), weight: 1 }, { arbitrary: labelName, weight: 6 });

/** a label key: an optional DNS-subdomain prefix and a name. */
export const labelKey: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: labelName, weight: 3 },
  { arbitrary: fc.tuple(dnsSubdomain, labelName).map(([p, n]) => `${p}/${n}`), weight: 2 },
);

/** a one-line reason with something in it besides blanks; may carry leading or trailing blanks, and any script. */
export const reason: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom('reads container logs written by the kubelet', 'scraped on the node address', 'loads eBPF programs', ' padded reason  '), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }), weight: 3 },
).filter((s) => s.trim().length > 0 && !/[\r\n]/.test(s));

export const justification: fc.Arbitrary<Justification> = reason.map((r) => ({ reason: r }));

// ------------------------------------------------------------------ images

const REGISTRIES = ['registry.example.com', 'quay.io', 'ghcr.io', 'localhost', 'localhost:5000', '10.0.0.1:5000', 'registry.example.com:443', 'docker.io', 'Registry.Example.COM'];
// a repository component: [a-z0-9]+ separated by '.', '_', '__' or dashes
const repoComponent = fc.tuple(
  shaped(ALNUM_LOWER, ALNUM_LOWER, 8),
  fc.array(fc.tuple(fc.constantFrom('.', '_', '__', '-', '--'), shaped(ALNUM_LOWER, ALNUM_LOWER, 6)), { maxLength: 2 }),
).map(([head, rest]) => head + rest.map(([sep, w]) => sep + w).join(''));
const tag = fc.tuple(charFrom(`${ALNUM}_`), fc.string({ unit: charFrom(`${ALNUM}_.-`), maxLength: 20 }))
  .map(([a, b]) => a + b)
  .filter((t) => t !== 'latest');
const digest = fc.tuple(fc.constantFrom('sha256', 'sha512'), fc.string({ unit: charFrom('0123456789abcdef'), minLength: 64, maxLength: 64 }))
  .map(([alg, hex]) => `${alg}:${hex}`);

/** a pinned image: a version tag, a digest, both, or `latest` pinned by a digest. */
export const image: fc.Arbitrary<string> = fc.tuple(
  fc.option(fc.constantFrom(...REGISTRIES), { nil: undefined }),
  fc.array(repoComponent, { minLength: 1, maxLength: 3 }),
  fc.oneof(
    tag.map((t) => `:${t}`),
    digest.map((d) => `@${d}`),
    fc.tuple(tag, digest).map(([t, d]) => `:${t}@${d}`),
    digest.map((d) => `:latest@${d}`),
  ),
).map(([registry, repo, pin]) => `${registry ? `${registry}/` : ''}${repo.join('/')}${pin}`);

// ------------------------------------------------------------------ paths

const segment = shaped(ALNUM_LOWER, `${ALNUM_LOWER}._-`, 12);

/** an absolute path of one to three segments, never `.` or `..`, without a trailing slash (see the trailing-slash bug property). */
export const absolutePath: fc.Arbitrary<string> = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`);

/** the slug a derived volume name is built from: two paths with the same slug get the same volume name (see the collision bug property). */
export function slug(p: string): string {
  return p.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

// ------------------------------------------------------------------ placement

const effect = fc.option(fc.constantFrom(TaintEffect.NO_SCHEDULE, TaintEffect.PREFER_NO_SCHEDULE, TaintEffect.NO_EXECUTE), { nil: undefined });
const evictAfter = fc.oneof(
  fc.nat(86400).map((s) => Duration.seconds(s)),
  fc.nat(60).map((m) => Duration.minutes(m)),
  fc.nat(24).map((h) => Duration.hours(h)),
);
const tolerationOptions = fc.tuple(effect, fc.option(evictAfter, { nil: undefined }))
  // evictAfter only with NoExecute
  .map(([e, after]) => ({ effect: e, evictAfter: e === TaintEffect.NO_EXECUTE ? after : undefined }));

/** a toleration from any of the factories. */
export const toleration: fc.Arbitrary<Toleration> = fc.oneof(
  fc.constant(Toleration.controlPlane()),
  fc.constant(Toleration.allNoSchedule()),
  fc.constant(Toleration.everything()),
  fc.tuple(labelKey, tolerationOptions).map(([k, o]) => Toleration.exists(k, o)),
  fc.tuple(labelKey, labelValue, tolerationOptions).map(([k, v, o]) => Toleration.equal(k, v, o)),
);

export const tolerations = fc.uniqueArray(toleration, { maxLength: 5, selector: (t) => `${t.key}\u0000${t.operator}\u0000${t.value}\u0000${t.effect}` });

/** a node requirement from any of the factories (every operator, labels and fields). */
export const requirement: fc.Arbitrary<NodeRequirement> = fc.oneof(
  fc.tuple(labelKey, fc.array(labelValue, { minLength: 1, maxLength: 3 })).map(([k, v]) => NodeRequirement.isIn(k, v)),
  fc.tuple(labelKey, fc.array(labelValue, { minLength: 1, maxLength: 3 })).map(([k, v]) => NodeRequirement.notIn(k, v)),
  labelKey.map((k) => NodeRequirement.exists(k)),
  labelKey.map((k) => NodeRequirement.doesNotExist(k)),
  fc.tuple(labelKey, fc.maxSafeInteger()).map(([k, n]) => NodeRequirement.greaterThan(k, n)),
  fc.tuple(labelKey, fc.maxSafeInteger()).map(([k, n]) => NodeRequirement.lessThan(k, n)),
  dnsSubdomain.map((n) => NodeRequirement.named(n)),
  dnsSubdomain.map((n) => NodeRequirement.notNamed(n)),
);

const term: fc.Arbitrary<NodeAffinityTerm> = fc.array(requirement, { minLength: 1, maxLength: 4 }).map((requirements) => ({ requirements }));
export const requiredAffinity = fc.array(term, { minLength: 1, maxLength: 3 });
export const preferredAffinity = fc.array(
  fc.tuple(fc.integer({ min: 1, max: 100 }), term).map(([weight, t]): WeightedNodeAffinityTerm => ({ weight, requirements: t.requirements })),
  { maxLength: 3 },
);

// ------------------------------------------------------------------ rollout

const budget = (min: number) => fc.oneof(
  fc.integer({ min, max: 1000 }).map((n) => PercentOrAbsolute.absolute(n)),
  fc.integer({ min, max: 100 }).map((n) => PercentOrAbsolute.percent(n)),
);
const zero = fc.constantFrom(PercentOrAbsolute.absolute(0), PercentOrAbsolute.percent(0));

/** a valid update strategy: exactly one of the two budgets non-zero. */
export const updateStrategy: fc.Arbitrary<AgentUpdateStrategy> = fc.oneof(
  fc.constant(AgentUpdateStrategy.onDelete()),
  fc.constant(AgentUpdateStrategy.rollingUpdate()),
  budget(1).map((u) => AgentUpdateStrategy.rollingUpdate({ maxUnavailable: u })),
  fc.tuple(budget(1), zero).map(([u, s]) => AgentUpdateStrategy.rollingUpdate({ maxUnavailable: u, maxSurge: s })),
  budget(1).map((s) => AgentUpdateStrategy.rollingUpdate({ maxSurge: s })),
  fc.tuple(zero, budget(1)).map(([u, s]) => AgentUpdateStrategy.rollingUpdate({ maxUnavailable: u, maxSurge: s })),
);

// ------------------------------------------------------------------ containers

const CAPABILITIES = Object.values(Capability).filter((c) => c !== Capability.ALL);
export const capabilities: fc.Arbitrary<CapabilityGrant[]> = fc.uniqueArray(
  fc.record({ capability: fc.constantFrom(...CAPABILITIES), reason }),
  { minLength: 1, maxLength: 4, selector: (g) => g.capability },
);

/** an environment variable name, not one the agent sets from the downward API, not an Object.prototype member. */
export const envName = fc.tuple(charFrom(`${LOWER}${LOWER.toUpperCase()}_.-`), fc.string({ unit: charFrom(`${ALNUM}_.-`), maxLength: 15 }))
  .map(([a, b]) => a + b)
  .filter((n) => !['NODE_NAME', 'POD_NAME', 'POD_NAMESPACE'].includes(n) && notPrototypeName(n));
/** any text, including newlines, quotes, YAML keywords and non-ASCII. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', 'yes', 'no', 'on', 'off', 'true', 'null', '~', '0x1F', '1e3', '010', '- item', 'a: b', '#', '"quoted"', "'single'", 'multi\nline\n', '  padded  '),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);
export const env = fc.dictionary(envName, anyText, { minKeys: 1, maxKeys: 4 });

const port = fc.integer({ min: 1, max: 65535 });
const protocol = fc.option(fc.constantFrom(Protocol.TCP, Protocol.UDP, Protocol.SCTP), { nil: undefined });
const portName = fc.tuple(charFrom(LOWER), fc.string({ unit: charFrom(`${ALNUM_LOWER}-`), maxLength: 8 }), charFrom(ALNUM_LOWER))
  .map(([a, b, c]) => a + b + c);

/** ports with unique names and unique number/protocol; host ports only where `hostPorts` is true. */
export const ports = (hostPorts: boolean): fc.Arbitrary<AgentPort[]> => fc.uniqueArray(
  fc.record({
    name: portName,
    containerPort: port,
    protocol,
    hostPort: hostPorts ? fc.option(fc.record({ port, reason }), { nil: undefined }) : fc.constant(undefined),
  }),
  { minLength: 1, maxLength: 3, selector: (p) => `${p.containerPort}/${p.protocol ?? Protocol.TCP}` },
).filter((ps) => new Set(ps.map((p) => p.name)).size === ps.length);

const probeOptions = fc.record({
  initialDelay: fc.nat(300).map((s) => Duration.seconds(s)),
  period: fc.oneof(fc.integer({ min: 1, max: 300 }).map((s) => Duration.seconds(s)), fc.integer({ min: 1, max: 5 }).map((m) => Duration.minutes(m))),
  timeout: fc.integer({ min: 1, max: 60 }).map((s) => Duration.seconds(s)),
  failureThreshold: fc.integer({ min: 1, max: 100 }),
}, { requiredKeys: [] });

/** a probe of any kind with valid timing. */
export const probe: fc.Arbitrary<AgentProbe> = fc.oneof(
  fc.tuple(absolutePath, port, fc.option(fc.constantFrom('HTTP', 'HTTPS'), { nil: undefined }), probeOptions)
    .map(([p, n, scheme, o]) => AgentProbe.httpGet(p, { ...o, port: n, scheme })),
  fc.tuple(port, probeOptions).map(([n, o]) => AgentProbe.tcpSocket(n, o)),
  fc.tuple(fc.array(anyText, { minLength: 1, maxLength: 3 }), probeOptions).map(([cmd, o]) => AgentProbe.exec(cmd, o)),
);

/** requests and limits with limit >= request. */
export const resources: fc.Arbitrary<AgentResources> = fc.record({
  cpu: fc.option(fc.tuple(fc.integer({ min: 1, max: 4000 }), fc.option(fc.nat(4000), { nil: undefined }), fc.boolean()), { nil: undefined }),
  memory: fc.option(fc.tuple(fc.integer({ min: 1, max: 8192 }), fc.option(fc.nat(8192), { nil: undefined })), { nil: undefined }),
}).map(({ cpu, memory }) => {
  const r: { -readonly [K in keyof AgentResources]: AgentResources[K] } = {};
  if (cpu) {
    const [req, extra, units] = cpu;
    // whole cores as units, otherwise millicores
    r.cpuRequest = units && req % 1000 === 0 ? Cpu.units(req / 1000) : Cpu.millis(req);
    if (extra !== undefined) r.cpuLimit = Cpu.millis(req + extra);
  }
  if (memory) {
    const [req, extra] = memory;
    r.memoryRequest = req % 1024 === 0 ? Size.gibibytes(req / 1024) : Size.mebibytes(req);
    if (extra !== undefined) r.memoryLimit = Size.mebibytes(req + extra);
  }
  return r;
});

const HOST_PATH_TYPES = Object.values(HostPathVolumeType);

/** what to mount from the host, before it is turned into a HostMount (which depends on the container's privileges). */
export interface MountSpec {
  readonly hostPath: string;
  readonly readWrite: boolean;
  readonly reason?: string;
  readonly type?: HostPathVolumeType;
  readonly ownMountPath: boolean;
  readonly propagation?: MountPropagation;
  readonly namedVolume: boolean;
}

export const mountSpec: fc.Arbitrary<MountSpec> = fc.record({
  hostPath: absolutePath,
  readWrite: fc.boolean(),
  reason: fc.option(reason, { nil: undefined }),
  type: fc.option(fc.constantFrom(...HOST_PATH_TYPES), { nil: undefined }),
  ownMountPath: fc.boolean(),
  propagation: fc.option(fc.constantFrom(...Object.values(MountPropagation)), { nil: undefined }),
  namedVolume: fc.boolean(),
});

/** turns a MountSpec into a HostMount: Bidirectional only in a privileged container. */
export function hostMount(m: MountSpec, privileged: boolean): HostMount {
  const propagation = m.propagation === MountPropagation.BIDIRECTIONAL && !privileged ? MountPropagation.HOST_TO_CONTAINER : m.propagation;
  const options = {
    type: m.type,
    propagation,
    mountPath: m.ownMountPath ? `/host${m.hostPath}` : undefined,
    // explicit volume names live apart from the derived ones (host-*, <container>-scratch-*, config)
    volumeName: m.namedVolume ? `vol-${slug(m.hostPath)}`.slice(0, 63).replace(/-+$/, '') : undefined,
  };
  return m.readWrite
    ? HostMount.readWrite(m.hostPath, m.reason ?? 'writes its state on the node', options)
    : HostMount.readOnly(m.hostPath, { ...options, reason: m.reason ?? 'reads what it needs on the node' });
}

interface ContainerSpec {
  readonly image: string;
  readonly command?: string[];
  readonly args?: string[];
  readonly env?: { [name: string]: string };
  readonly mounts?: MountSpec[];
  readonly scratchDirs?: string[];
  readonly capabilities?: CapabilityGrant[];
  readonly privileged?: Justification;
  readonly runAs: { runAsUser?: number; runAsRoot?: Justification };
  readonly runAsGroup?: number;
  readonly readOnlyRootFilesystem?: boolean;
  readonly resources?: AgentResources;
  readonly ports?: AgentPort[];
  readonly liveness?: AgentProbe;
  readonly readiness?: AgentProbe;
  readonly startup?: AgentProbe;
}

const int32 = fc.integer({ min: 1, max: 2147483647 });

function containerSpec(role: 'main' | 'init' | 'sidecar'): fc.Arbitrary<ContainerSpec> {
  const probes = role === 'init' ? fc.constant(undefined) : probe;
  return fc.record({
    image,
    command: fc.array(anyText, { minLength: 1, maxLength: 3 }),
    args: fc.array(anyText, { maxLength: 3 }),
    env,
    mounts: fc.array(mountSpec, { minLength: 1, maxLength: 3 }),
    scratchDirs: fc.array(absolutePath, { minLength: 1, maxLength: 2 }),
    capabilities,
    privileged: justification,
    runAs: fc.oneof(fc.constant({}), int32.map((u) => ({ runAsUser: u })), justification.map((j) => ({ runAsRoot: j }))),
    runAsGroup: fc.oneof(fc.constant(0), int32),
    readOnlyRootFilesystem: fc.boolean(),
    resources,
    ports: ports(role !== 'init'),
    liveness: probes,
    readiness: probes,
    startup: probes,
  }, { requiredKeys: ['image', 'runAs'] })
    // added capabilities take effect only for root, and NodeAgent refuses them on a non-root container
    .map((c) => (c.capabilities && !('runAsRoot' in c.runAs) ? { ...c, runAs: { runAsRoot: { reason: 'the added capabilities take effect only for root' } } } : c));
}

function containerOptions(c: ContainerSpec): ContainerOptions {
  return {
    image: c.image,
    command: c.command,
    args: c.args,
    env: c.env,
    hostMounts: c.mounts?.map((m) => hostMount(m, c.privileged !== undefined)),
    scratchDirs: c.scratchDirs,
    capabilities: c.capabilities,
    privileged: c.privileged,
    ...c.runAs,
    runAsGroup: c.runAsGroup,
    readOnlyRootFilesystem: c.readOnlyRootFilesystem,
    resources: c.resources,
    ports: c.ports,
    liveness: c.liveness,
    readiness: c.readiness,
    startup: c.startup,
  };
}

// ------------------------------------------------------------------ identity

const verbs = fc.uniqueArray(fc.constantFrom('get', 'list', 'watch', 'create', 'update', 'patch', 'delete'), { minLength: 1, maxLength: 4 });
const resourcesNames = fc.uniqueArray(fc.constantFrom('pods', 'nodes', 'namespaces', 'configmaps', 'events', 'nodes/metrics', 'nodes/proxy', 'endpointslices'), { minLength: 1, maxLength: 3 });
export const accessRule: fc.Arbitrary<AccessRule> = fc.record({
  apiGroups: fc.uniqueArray(fc.constantFrom('', 'apps', 'discovery.k8s.io', 'metrics.k8s.io'), { minLength: 1, maxLength: 2 }),
  resources: resourcesNames,
  verbs,
  resourceNames: fc.array(dnsSubdomain, { minLength: 1, maxLength: 2 }),
}, { requiredKeys: ['resources', 'verbs'] });

const fileName = fc.string({ unit: charFrom(`${ALNUM}-._`), minLength: 1, maxLength: 20 })
  .filter((f) => f !== '.' && f !== '..' && notPrototypeName(f));

// the Pod Security versions a namespace can pin, in both spellings
export const PSA_VERSIONS = ['1.25', '1.26', '1.27', '1.28', '1.29', '1.30', '1.31', '1.32', 'v1.28', 'v1.32', 'latest'];

// ------------------------------------------------------------------ the whole agent

/** one generated agent: where it lives and its props. */
export interface AgentCase {
  /** the construct id of the agent. */
  readonly id: string;
  /** the chart's namespace, when it has one. */
  readonly chartNamespace?: string;
  readonly props: NodeAgentProps;
}

/** the mount paths a container uses, normalised, with the config mount for the main container. */
function mountPathsOf(c: ContainerOptions, configMountPath?: string): string[] {
  return [
    ...(c.hostMounts ?? []).map((m) => m.mountPath),
    ...(c.scratchDirs ?? []),
    ...(configMountPath ? [configMountPath] : []),
  ];
}

/**
 * The generated props avoid collisions that are invalid input (one mount path twice in a container, one host
 * path with two volume types) and collisions of derived volume names (a known bug, see the property file).
 */
function consistent(c: AgentCase): boolean {
  const p = c.props;
  const name = p.name ?? c.id;
  const containers: ContainerOptions[] = [p, ...p.initContainers ?? [], ...p.sidecars ?? []];
  const configMountPath = p.configFiles ? p.configMountPath ?? `/etc/${name}` : undefined;
  const hostPaths = new Map<string, string>();
  for (const [i, container] of containers.entries()) {
    const paths = mountPathsOf(container, i === 0 ? configMountPath : undefined);
    if (new Set(paths).size !== paths.length) return false;
    const scratchSlugs = (container.scratchDirs ?? []).map(slug);
    if (new Set(scratchSlugs).size !== scratchSlugs.length) return false;
    for (const m of container.hostMounts ?? []) {
      const key = `${m.hostPath}\u0000${m.type}`;
      const seen = hostPaths.get(slug(m.hostPath));
      if (seen !== undefined && seen !== key) return false;
      hostPaths.set(slug(m.hostPath), key);
    }
  }
  const hostPorts = containers.flatMap((co) => (co.ports ?? []).filter((pt) => pt.hostPort).map((pt) => `${pt.hostPort!.port}/${pt.protocol ?? 'TCP'}`));
  return new Set(hostPorts).size === hostPorts.length;
}

const containerName = dnsLabel(20).filter((n) => n !== 'host');

/** valid props for a NodeAgent, covering every prop. */
export const agentCase: fc.Arbitrary<AgentCase> = fc.record({
  id: fc.oneof(dnsLabel(63), fc.constantFrom('NodeAgent', 'agent_1', 'Log Collector')),
  name: dnsLabel(63),
  namespace: dnsLabel(63),
  chartNamespace: dnsLabel(63),
  createNamespace: fc.boolean(),
  podSecurityVersion: fc.constantFrom(...PSA_VERSIONS),
  labels: fc.dictionary(labelKey.filter((k) => k !== 'app.kubernetes.io/name' && k !== 'app.kubernetes.io/managed-by'), labelValue, { minKeys: 1, maxKeys: 3 }),
  // 'checksum/config' is the agent's own key (see the bug property)
  podAnnotations: fc.dictionary(labelKey.filter((k) => k !== 'checksum/config'), anyText, { minKeys: 1, maxKeys: 3 }),
  // the AppArmor annotation of the main container, which Pod Security reads at every policy version
  appArmor: fc.constantFrom('unconfined', 'runtime/default', 'localhost/agent-profile'),
  containerName,
  restrictRegistries: fc.boolean(),
  nodeSelector: fc.dictionary(labelKey, labelValue, { minKeys: 1, maxKeys: 4 }),
  linuxOnly: fc.boolean(),
  requiredNodeAffinity: requiredAffinity,
  preferredNodeAffinity: preferredAffinity,
  tolerations,
  priorityClassName: fc.oneof(fc.constantFrom('system-node-critical', 'system-cluster-critical'), dnsSubdomain),
  updateStrategy,
  minReady: fc.nat(600).map((s) => Duration.seconds(s)),
  revisionHistoryLimit: fc.nat(100),
  hostNetwork: justification,
  hostPID: justification,
  hostIPC: justification,
  dnsPolicy: fc.constantFrom(DnsPolicy.CLUSTER_FIRST, DnsPolicy.CLUSTER_FIRST_WITH_HOST_NET, DnsPolicy.DEFAULT),
  fsGroup: fc.nat(2147483647),
  clusterPermissions: fc.array(accessRule, { minLength: 1, maxLength: 2 }),
  namespacePermissions: fc.array(accessRule, { minLength: 1, maxLength: 2 }),
  automountServiceAccountToken: fc.boolean(),
  terminationGracePeriod: fc.oneof(fc.nat(3600).map((s) => Duration.seconds(s)), fc.nat(10).map((m) => Duration.minutes(m))),
  configFiles: fc.dictionary(fileName, anyText, { minKeys: 1, maxKeys: 3 }),
  configMountPath: absolutePath,
  service: fc.record({
    pick: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    annotations: fc.dictionary(labelKey, anyText, { maxKeys: 2 }),
    nodeLocal: fc.boolean(),
  }, { requiredKeys: ['pick'] }),
  main: containerSpec('main'),
  initContainers: fc.array(fc.tuple(containerName, containerSpec('init')), { minLength: 1, maxLength: 2 }),
  sidecars: fc.array(fc.tuple(containerName, containerSpec('sidecar')), { minLength: 1, maxLength: 2 }),
}, { requiredKeys: ['id', 'main'] }).map((g): AgentCase => {
  const main = containerOptions(g.main);
  const initContainers: AgentContainerProps[] | undefined = g.initContainers?.map(([name, c]) => ({ name, ...containerOptions(c) }));
  const sidecars: AgentContainerProps[] | undefined = g.sidecars?.map(([name, c]) => ({ name, ...containerOptions(c) }));
  const mainPorts = main.ports ?? [];
  const servicePorts = g.service ? mainPorts.filter((_, i) => g.service!.pick[i]).map((p) => p.name) : [];
  const images = [main.image, ...(initContainers ?? []).map((c) => c.image), ...(sidecars ?? []).map((c) => c.image)];
  const props: NodeAgentProps = {
    ...main,
    // without a name the construct id is the name, so an id that is no DNS label needs one
    name: g.name ?? (/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(g.id) ? undefined : 'node-agent'),
    namespace: g.namespace,
    createNamespace: g.createNamespace,
    podSecurityVersion: g.podSecurityVersion,
    labels: g.labels,
    podAnnotations: g.appArmor === undefined ? g.podAnnotations
      : { ...g.podAnnotations, [`container.apparmor.security.beta.kubernetes.io/${g.containerName ?? 'agent'}`]: g.appArmor },
    containerName: g.containerName,
    allowedRegistries: g.restrictRegistries ? [...new Set(images.map((i) => parseImage(i)!.registry))].sort() : undefined,
    nodeSelector: g.nodeSelector,
    linuxOnly: g.linuxOnly,
    requiredNodeAffinity: g.requiredNodeAffinity,
    preferredNodeAffinity: g.preferredNodeAffinity,
    tolerations: g.tolerations,
    priorityClassName: g.priorityClassName,
    updateStrategy: g.updateStrategy,
    minReady: g.minReady,
    revisionHistoryLimit: g.revisionHistoryLimit,
    hostNetwork: g.hostNetwork,
    hostPID: g.hostPID,
    hostIPC: g.hostIPC,
    dnsPolicy: g.dnsPolicy,
    fsGroup: g.fsGroup,
    clusterPermissions: g.clusterPermissions,
    namespacePermissions: g.namespacePermissions,
    automountServiceAccountToken: g.automountServiceAccountToken,
    terminationGracePeriod: g.terminationGracePeriod,
    configFiles: g.configFiles,
    configMountPath: g.configFiles ? g.configMountPath : undefined,
    service: servicePorts.length > 0 ? { ports: servicePorts, annotations: g.service!.annotations, nodeLocal: g.service!.nodeLocal } : undefined,
    initContainers,
    sidecars,
  };
  return { id: g.id, chartNamespace: g.chartNamespace, props };
}).filter((c) => {
  const names = [c.props.containerName ?? 'agent', ...(c.props.initContainers ?? []).map((x) => x.name), ...(c.props.sidecars ?? []).map((x) => x.name)];
  // on the host network the API server requires hostPort == containerPort.
  const onHostNetworkPortsMatch = !c.props.hostNetwork || [c.props, ...(c.props.initContainers ?? []), ...(c.props.sidecars ?? [])]
    .every((co) => (co.ports ?? []).every((pt) => pt.hostPort === undefined || pt.hostPort.port === pt.containerPort));
  return new Set(names).size === names.length && consistent(c) && onHostNetworkPortsMatch;
});
