/**
 * Internal: the shape of every props interface of the agent (see review/_guard.ts), one table each, checked at the start
 * of each constructor and mutator, before anything reads a value. Not exported from the package.
 *
 * The tables check types and shapes only (a list is a list, a reason an object with a string, no unknown property);
 * what a valid value is (a DNS name, a port range, an absolute path) stays with the checks behind them, which know the
 * field's rules and say them in their own messages.
 */
import { CPU, DNS_POLICY, DURATION, JUSTIFICATION, PROTOCOL, SEVERITY, SIZE } from './_shapes';
import { AgentProbe } from './agent-probe';
import { AgentVolume } from './agent-volume';
import { EnvSource } from './env-source';
import { EnvValue } from './env-value';
import { HostMount } from './host-mount';
import { MetricsMonitor } from './metrics-monitor';
import { NodeRequirement } from './node-requirement';
import { Toleration } from './toleration';
import { AgentUpdateStrategy } from './update-strategy';
import { HostAccessType } from '../model/host-access-type';
import { boolean, Fields, guard, instance, list, map, number, oneOf, Report, required, Shape, string, struct } from '../review/_guard';

// the builders, for the presets' own tables (presets/ reaches review/ only through agent/)
export { boolean, instance, list, oneOf, required, string, struct } from '../review/_guard';
export type { Shape } from '../review/_guard';

const stringMap = (expected: string, example: string) => map(string(), expected, example);

// ------------------------------------------------------------------ value classes

export const TOLERATION: Shape = instance((v) => v instanceof Toleration,
  'created with Toleration.controlPlane(), exists(), equal(), allNoSchedule() or everything()');
export const HOST_MOUNT: Shape = instance((v) => v instanceof HostMount, 'created with HostMount.readOnly() or HostMount.readWrite()');
export const METRICS_MONITOR: Shape = instance((v) => v instanceof MetricsMonitor, 'created with MetricsMonitor.serviceMonitor() or podMonitor()');
export const PROBE: Shape = instance((v) => v instanceof AgentProbe, 'a probe created with AgentProbe.httpGet(), tcpSocket() or exec()');
const REQUIREMENT = instance((v) => v instanceof NodeRequirement,
  'created with NodeRequirement.isIn(), notIn(), exists(), doesNotExist(), greaterThan(), lessThan(), named() or notNamed()');
const UPDATE_STRATEGY = instance((v) => v instanceof AgentUpdateStrategy, 'created with AgentUpdateStrategy.rollingUpdate() or onDelete()');

// ------------------------------------------------------------------ containers

const HOST_PORT_GRANT = struct('HostPortGrant', {
  port: required(number('9100'), 'give the port number on the node, e.g. hostPort: { port: 9100, reason: \'...\' }'),
  reason: string(),
}, { expected: 'an object with the port and the reason', example: "{ port: 9100, reason: 'scraped on the node address' }" });

const PORT = struct('AgentPort', {
  name: required(string("'metrics'"), "name the port, e.g. { name: 'metrics', containerPort: 9100 }"),
  containerPort: required(number('9100'), "give the port number, e.g. { name: 'metrics', containerPort: 9100 }"),
  protocol: PROTOCOL,
  hostPort: HOST_PORT_GRANT,
}, { example: "{ name: 'metrics', containerPort: 9100 }" });

export const CAPABILITY_GRANT: Shape = struct('CapabilityGrant', {
  capability: required(string('Capability.NET_ADMIN'), "name it with the Capability enum, e.g. { capability: Capability.NET_ADMIN, reason: '...' }"),
  reason: string(),
  entrypointFileCapability: boolean(),
}, { expected: 'a capability with its reason', example: "{ capability: Capability.NET_ADMIN, reason: 'programs the node routes' }" });

const RESOURCES = struct('AgentResources', { cpuRequest: CPU, cpuLimit: CPU, memoryRequest: SIZE, memoryLimit: SIZE }, {
  example: '{ cpuRequest: Cpu.millis(100), memoryRequest: Size.mebibytes(128) }',
});

/** `ContainerSettings`: what every container takes, but its image. */
export const CONTAINER_SETTINGS: Fields = {
  command: strings('a list of strings', "['/bin/agent', '--config=/etc/agent.yaml']"),
  args: strings('a list of strings', "['--verbose']"),
  env: stringMap('a map of variable names to values', "{ LOG_LEVEL: 'info' }"),
  envValueFrom: map(instance((v) => v instanceof EnvValue, 'created with EnvValue.fromSecretKey(), fromConfigMapKey() or fromPodField()'),
    'a map of variable names to values from keys', "{ LOKI_PASSWORD: EnvValue.fromSecretKey('loki', 'password') }"),
  envFrom: list(instance((v) => v instanceof EnvSource, 'created with EnvSource.fromSecret() or fromConfigMap()'),
    'a list of env sources', "[EnvSource.fromSecret('datadog-secret')]"),
  volumes: list(instance((v) => v instanceof AgentVolume, 'created with AgentVolume.fromSecret(), fromConfigMap(), projected() or emptyDir()'),
    'a list of volumes', "[AgentVolume.fromSecret('agent-tls', '/etc/agent/tls')]", (v) => v?.mountPath),
  ports: list(PORT, 'a list of ports', "[{ name: 'metrics', containerPort: 9100 }]", (p) => p?.name),
  hostMounts: list(HOST_MOUNT, 'a list of host mounts', "[HostMount.readOnly('/var/log', { reason: '...' })]", (m) => m?.hostPath),
  scratchDirs: strings('a list of absolute paths', "['/tmp']"),
  capabilities: list(CAPABILITY_GRANT, 'a list of capabilities with their reasons', "[{ capability: Capability.NET_ADMIN, reason: '...' }]"),
  privileged: JUSTIFICATION,
  runAsRoot: JUSTIFICATION,
  runAsUser: number('65534'),
  runAsGroup: number('65534'),
  readOnlyRootFilesystem: boolean(),
  resources: RESOURCES,
  liveness: PROBE,
  readiness: PROBE,
  startup: PROBE,
};

const IMAGE = string("'registry.example.com/node-agent:1.2.0'");

export const AGENT_CONTAINER_PROPS: Shape = struct('AgentContainerProps', {
  name: string("'installer'"),
  image: IMAGE,
  configMountPath: string("'/etc/installer'"),
  ...CONTAINER_SETTINGS,
}, { example: "{ name: 'installer', image: 'registry.example.com/installer:1.0.0' }" });

export const CONTAINERS: Shape = list(AGENT_CONTAINER_PROPS, 'a list of containers',
  "[{ name: 'installer', image: 'registry.example.com/installer:1.0.0' }]", (c) => c?.name);

// ------------------------------------------------------------------ the pod and its identity

const TERM_REQUIREMENTS = list(REQUIREMENT, 'a list of node requirements', "[NodeRequirement.exists('gpu')]");

const TERM = struct('NodeAffinityTerm', { requirements: TERM_REQUIREMENTS }, { example: "{ requirements: [NodeRequirement.exists('gpu')] }" });

const WEIGHTED_TERM = struct('WeightedNodeAffinityTerm', {
  weight: required(number('50'), "give a weight from 1 to 100, e.g. { weight: 50, requirements: [NodeRequirement.exists('ssd')] }"),
  requirements: TERM_REQUIREMENTS,
}, { example: "{ weight: 50, requirements: [NodeRequirement.exists('ssd')] }" });

export const ACCESS_RULE: Shape = struct('AccessRule', {
  apiGroups: strings('a list of API groups', "['', 'apps']"),
  resources: strings('a list of resources', "['pods']"),
  verbs: strings('a list of verbs', "['get', 'list', 'watch']"),
  resourceNames: strings('a list of object names', "['agent-state']"),
}, { example: "{ resources: ['pods'], verbs: ['get', 'list', 'watch'] }" });

export const ACCESS_RULES: Shape = list(ACCESS_RULE, 'a list of RBAC rules', "[{ resources: ['pods'], verbs: ['get', 'list', 'watch'] }]");

export const HOST_ACCESS_REASON: Shape = struct('HostAccessReason', {
  type: oneOf(() => HostAccessType, 'HostAccessType.HOST_PATH'),
  detail: required(string("'/var/log (read-only)'"), "say which privilege, in the review's words, e.g. detail: '/var/log (read-only)'"),
  container: string("'agent'"),
  reason: string(),
}, { example: "{ type: HostAccessType.HOST_PATH, detail: '/var/log (read-only)', container: 'agent', reason: '...' }" });

const SERVICE = struct('AgentServiceOptions', {
  ports: strings('a list of port names', "['metrics']"),
  annotations: stringMap('a map of annotation names to values', "{ 'prometheus.io/scrape': 'true' }"),
  nodeLocal: boolean(),
}, { example: "{ ports: ['metrics'] }" });

export const CONFIG_FILES: Shape = stringMap('a map of file names to contents', "{ 'agent.yaml': 'log_level: info' }");

/** `NodeAgentSettings`: every prop of NodeAgent but the image, which the presets extend. */
export const NODE_AGENT_SETTINGS: Fields = {
  name: string("'node-agent'"),
  namespace: string("'observability'"),
  createNamespace: boolean(),
  podSecurityVersion: string("'1.32'"),
  labels: stringMap('a map of label names to values', "{ team: 'platform' }"),
  podAnnotations: stringMap('a map of annotation names to values', "{ 'example.com/owner': 'platform' }"),
  containerName: string("'agent'"),
  allowedRegistries: strings('a list of registry hosts', "['registry.example.com']"),
  reviewFailOn: SEVERITY,
  nodeSelector: stringMap('a map of node label names to values', "{ 'node.kubernetes.io/instance-type': 'm5.large' }"),
  linuxOnly: boolean(),
  requiredNodeAffinity: list(TERM, 'a list of node affinity terms', "[{ requirements: [NodeRequirement.exists('gpu')] }]"),
  preferredNodeAffinity: list(WEIGHTED_TERM, 'a list of weighted node affinity terms', "[{ weight: 50, requirements: [NodeRequirement.exists('ssd')] }]"),
  tolerations: list(TOLERATION, 'a list of tolerations', '[Toleration.controlPlane()]'),
  priorityClassName: string("'system-node-critical'"),
  updateStrategy: UPDATE_STRATEGY,
  minReady: DURATION,
  revisionHistoryLimit: number('10'),
  hostNetwork: JUSTIFICATION,
  hostPID: JUSTIFICATION,
  hostIPC: JUSTIFICATION,
  dnsPolicy: DNS_POLICY,
  fsGroup: number('65534'),
  clusterPermissions: ACCESS_RULES,
  namespacePermissions: ACCESS_RULES,
  imagePullSecrets: strings('a list of Secret names', "['registry-credentials']"),
  automountServiceAccountToken: boolean(),
  terminationGracePeriod: DURATION,
  configFiles: CONFIG_FILES,
  configMountPath: string("'/etc/agent'"),
  service: SERVICE,
  initContainers: CONTAINERS,
  sidecars: CONTAINERS,
  ...CONTAINER_SETTINGS,
};

const NODE_AGENT_PROPS = struct('NodeAgentProps', { ...NODE_AGENT_SETTINGS, image: IMAGE }, { example: "{ image: 'registry.example.com/node-agent:1.2.0' }" });

/** a list of strings. */
export function strings(expected: string, example: string): Shape {
  return list(string(), expected, example);
}

/** every preset's props table, by the name of its props interface, as `presetProps` made them. */
const PRESET_PROPS = new Map<string, Shape>();

/** a preset's props: every NodeAgent setting, an optional image, and the preset's own props. */
export function presetProps(name: string, own: Fields): Shape {
  const shape = struct(name, { ...NODE_AGENT_SETTINGS, image: IMAGE, ...own });
  PRESET_PROPS.set(name, shape);
  return shape;
}

/** the props tables of every preset loaded, by interface name: what a test over every preset and prop reads. */
export function presetPropsTables(): ReadonlyMap<string, Shape> {
  return PRESET_PROPS;
}

/** the names of a props table's map fields (`env`, `podAnnotations`, ...), in table order. */
export function mapProps(shape: Shape): string[] {
  return Object.entries(shape.fields ?? {}).filter(([, f]) => (typeof f === 'function' ? f() : f).entry !== undefined).map(([key]) => key);
}

/** the names of a props table's list fields (`hostMounts`, `sidecars`, ...), in table order. */
export function listProps(shape: Shape): string[] {
  return Object.entries(shape.fields ?? {}).filter(([, f]) => (typeof f === 'function' ? f() : f).item !== undefined).map(([key]) => key);
}

/** checks props against their table; returns them normalised (null fields dropped, plain structs copied). */
export function checkProps<T>(report: Report, props: unknown, shape: Shape = NODE_AGENT_PROPS): T {
  if (props === undefined || props === null) return report(`props are required: at least { image: "registry.example.com/node-agent:1.2.0" }, got ${props}`);
  return guard<T>(report, '', props, shape);
}

/** checks a preset's props, which may be left out, against its table; returns them normalised. */
export function checkPresetProps<T>(report: Report, props: unknown, shape: Shape): T {
  return (props === undefined || props === null ? {} : guard<T>(report, '', props, shape)) as T;
}

/** checks one argument of a method: set, and of its shape. */
export function checkArgument<T>(report: Report, name: string, value: unknown, shape: Shape): T {
  return guard<T>(report, name, value, required(shape, `give ${name}`));
}
