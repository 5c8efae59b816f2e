/**
 * Internal: what Filebeat and Auditbeat share, as Elastic's Kubernetes manifests configure both (the data directory,
 * the Kubernetes metadata, the output, the RBAC). Not exported from the package.
 */
import { Size, Yaml } from 'cdk8s';
import { Construct } from 'constructs';
import { AccessRule, AgentPort, AgentProbe, HostMount, NodeAgentProps, Toleration } from '../agent';
import { ElasticOutput } from './elastic-output';
import { kplus } from '../agent/_plus';
import { EssentialItems, presetFail, withPresetDefaults, withoutKeys } from '../agent/_preset';
import { show } from '../agent/_validate';

/** the port of the Beats HTTP endpoint (`http.port`): `GET /` answers with the beat's info, `/stats` with its counters. */
export const MONITORING_PORT = 5066;

/** how the preset that uses these helpers is named in messages. */
export interface BeatIdentity {
  /** the product, lower case: `filebeat`, `auditbeat` (its binary, its home and data directories). */
  readonly beat: string;
  /** the preset class, e.g. `Filebeat`. */
  readonly preset: string;
}

/** the beat's home in Elastic's images, `/usr/share/<beat>`: its binary and, below it, its data directory. */
export function beatHome(beat: string): string {
  return `/usr/share/${beat}`;
}

/**
 * The configuration file rendered for a beat: its own sections, the processors Elastic's manifest adds to every event,
 * the HTTP endpoint the probes use, and the output.
 */
export function renderBeatConfig(own: { [key: string]: unknown }, processors: unknown[], output: ElasticOutput, httpHost: string): string {
  const config = {
    ...own,
    'processors': processors,
    'http.enabled': true,
    'http.host': httpHost,
    'http.port': MONITORING_PORT,
    ...output._config(),
  };
  // cdk8s' own YAML writer: the library then loads no YAML package of its own at require time.
  return Yaml.stringify(config);
}

/** the `add_kubernetes_metadata` processor scoped to this node's pods (NODE_NAME comes from the downward API). */
export function kubernetesMetadata(options: { [key: string]: unknown }): { [key: string]: unknown } {
  return { add_kubernetes_metadata: { host: '${NODE_NAME}', ...options } };
}

/**
 * What every beat keeps in its args and cluster permissions: the configuration file it is started with, and the
 * read-only rules of Elastic's ClusterRole (the objects add_kubernetes_metadata enriches events with).
 */
export function beatEssentials(who: BeatIdentity, configPath: string): {
  args: EssentialItems & { items: string[] };
  clusterPermissions: EssentialItems & { items: AccessRule[] };
} {
  const rules: AccessRule[] = [
    { resources: ['namespaces', 'pods', 'nodes'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['get', 'list', 'watch'] },
  ];
  return {
    args: { items: ['-c', configPath, '-e'], why: `they point ${who.preset} at its configuration file (set configFiles to give your own ${who.beat}.yml)` },
    clusterPermissions: { items: rules, why: 'add_kubernetes_metadata reads the pods, namespaces, nodes and replicasets it enriches events with' },
  };
}

/** the host directory where the beat keeps its state, mounted read-write at its data path, as Elastic's manifest does. */
export function dataMount(beat: string, why: string): HostMount {
  return HostMount.readWrite(`/var/lib/${beat}-data`, why, {
    mountPath: `${beatHome(beat)}/data`,
    type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
  });
}

/** the monitoring port, on the node too when the beat runs on the host network. */
export function monitoringPort(hostPortReason?: string): AgentPort {
  return {
    name: 'monitoring',
    containerPort: MONITORING_PORT,
    ...hostPortReason !== undefined ? { hostPort: { port: MONITORING_PORT, reason: hostPortReason } } : {},
  };
}

/** what a beat preset sets beyond the defaults both share (`beatProps`), and the list items it keeps. */
export interface BeatDefaults {
  readonly image: string;
  readonly output: ElasticOutput;
  /** the props only the preset reads (not NodeAgent props), besides `output`. */
  readonly ownProps: string[];
  readonly essentials: ReturnType<typeof beatEssentials> & { [prop: string]: EssentialItems };
  readonly defaults: Partial<NodeAgentProps>;
}

/**
 * A beat's NodeAgent props: the defaults both share (the binary started with the configuration, the output's
 * credentials from their keys, probes on the HTTP endpoint, Elastic's resources, the control-plane toleration, the
 * essential list items), the preset's own, then the user's, merged as every preset merges them.
 */
export function beatProps(scope: Construct, id: string, who: BeatIdentity, props: object, beat: BeatDefaults): NodeAgentProps {
  const envValueFrom = beat.output._env();
  const lists: { [prop: string]: EssentialItems } = beat.essentials;
  const essentialItems = Object.fromEntries(Object.entries(lists).map(([prop, e]) => [prop, e.items]));
  const defaults: NodeAgentProps = {
    image: beat.image,
    command: [`${beatHome(who.beat)}/${who.beat}`],
    envValueFrom: Object.keys(envValueFrom).length > 0 ? envValueFrom : undefined,
    liveness: AgentProbe.httpGet('/', { port: MONITORING_PORT }),
    readiness: AgentProbe.httpGet('/', { port: MONITORING_PORT }),
    resources: { cpuRequest: kplus().Cpu.millis(100), memoryRequest: Size.mebibytes(100), memoryLimit: Size.mebibytes(200) },
    tolerations: [Toleration.controlPlane()],
    ...essentialItems,
    ...beat.defaults,
  };
  return withPresetDefaults(defaults, withoutKeys(props, ['output', ...beat.ownProps]), {
    preset: who.preset,
    fail: (m) => presetFail(scope, id, m),
    lists,
    maps: { envValueFrom: { entries: envValueFrom, why: `the ${beat.output.kind} output reads its credentials from them` } },
  });
}


/** refuses `configFiles` without the file the beat is started with (they replace the rendered configuration). */
export function checkConfigFiles(scope: Construct, id: string, who: BeatIdentity, configFiles: { [file: string]: string } | undefined,
  configPath: string): void {
  const file = `${who.beat}.yml`;
  if (configFiles === undefined || Object.prototype.hasOwnProperty.call(configFiles, file)) return;
  presetFail(scope, id, `configFiles: ${who.beat} runs with -c ${configPath}, which your configFiles do not hold ` +
    `(${Object.keys(configFiles).map((f) => JSON.stringify(f)).join(', ') || 'none'}): the files you set replace the rendered configuration, so give ` +
    `${file}, e.g. starting from ${who.preset}.renderConfig(output)`);
}

/** checks the output argument of a `renderConfig`. */
export function checkOutput(where: string, output: unknown): asserts output is ElasticOutput {
  if (!(output instanceof ElasticOutput)) {
    throw new Error(`${where}: output must be created with ElasticOutput.elasticsearch(), logstash() or console(), got ${show(output)}`);
  }
}
