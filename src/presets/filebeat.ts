import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { HostMount, NodeAgent, NodeAgentProps, NodeAgentSettings } from '../agent';
import {
  beatEssentials, beatProps, checkConfigFiles, checkOutput, dataMount, kubernetesMetadata, monitoringPort, renderBeatConfig,
} from './_beats';
import { ElasticOutput } from './elastic-output';
import { presetFail } from '../agent/_preset';
import { checkPresetProps, instance, presetProps } from '../agent/_props-schema';
import { show } from '../agent/_validate';

const WHO = { beat: 'filebeat', preset: 'Filebeat' };

/**
 * Properties for `Filebeat`.
 *
 * Every `NodeAgent` property can be set. A list prop keeps what Filebeat needs and adds your items after it; an
 * item of yours that conflicts with one of those is refused, naming it:
 * - `hostMounts`: `/var/log` (read-only) and `/var/lib/filebeat-data` (read-write, at `/usr/share/filebeat/data`)
 *   are kept;
 * - `args`: `-c <configMountPath>/filebeat.yml -e` is kept, yours after it;
 * - `ports`: `monitoring` 5066 (the probes) is kept;
 * - `clusterPermissions`: get/list/watch on namespaces, pods, nodes and replicasets (add_kubernetes_metadata) are kept;
 * - `tolerations` and `command` replace the preset's (where it runs and which program starts are yours);
 * - the other lists have no default: yours are used.
 * The map `envValueFrom` keeps the output's credentials (`ELASTICSEARCH_USERNAME`, `ELASTICSEARCH_PASSWORD`,
 * `ELASTICSEARCH_API_KEY`); yours are added. `configFiles` replaces the rendered configuration and must hold
 * `filebeat.yml` (start from `Filebeat.renderConfig(output)`), or it is refused. Every other prop you set replaces
 * the preset's default.
 */
export interface FilebeatProps extends NodeAgentSettings {
  /**
   * The Filebeat image.
   *
   * @default Filebeat.DEFAULT_IMAGE
   */
  readonly image?: string;

  /**
   * Where the events go. Ignored when you set `configFiles` yourself.
   *
   * @default ElasticOutput.console()
   */
  readonly output?: ElasticOutput;
}

/**
 * A log shipper: Elastic Filebeat on every node, harvesting container logs with the `container` input, enriching
 * them with Kubernetes metadata and sending them to Elasticsearch, Logstash or the console, configured as Elastic's
 * Kubernetes manifest (`filebeat-kubernetes.yaml`) configures it, with less host access.
 *
 * Defaults (each set through the matching `NodeAgent` property; the list props keep what the preset needs, see its props):
 * - image `docker.elastic.co/beats/filebeat`, pinned (`Filebeat.DEFAULT_IMAGE`, the version of Elastic's manifest),
 *   run as `/usr/share/filebeat/filebeat -c <configMountPath>/filebeat.yml -e` (logs on stderr);
 * - configuration `filebeat.yml` in a ConfigMap mounted at `/etc/filebeat`: the `container` input on
 *   `/var/log/containers/*.log` (its own pods' logs excluded), `add_kubernetes_metadata` for this node's pods
 *   matched by log path, `add_cloud_metadata` and `add_host_metadata`, the HTTP endpoint on 5066, and `output`;
 * - host mounts: `/var/log` **read-only** (as Elastic's manifest) and `/var/lib/filebeat-data` read-write at
 *   `/usr/share/filebeat/data`, created if missing: the registry of read offsets, so a restart does not send
 *   everything again. `/var/lib/docker/containers` is not mounted (only Docker-written logs live there);
 * - runs as **root with every capability dropped**, a read-only root filesystem and no privilege escalation:
 *   container log files are root-owned and not world-readable, and a non-root process gets no capability that
 *   would let it read them; root without capabilities reads them as their owner;
 * - not on the host network (Elastic's manifest is; log harvesting does not need it);
 * - RBAC: get/list/watch on namespaces, pods, nodes and replicasets (add_kubernetes_metadata), nothing else;
 * - port `monitoring` 5066 (the Beats HTTP endpoint): liveness and readiness `GET /`. It serves JSON, not the
 *   Prometheus format, so there is no metrics endpoint for `addMetricsMonitor`;
 * - requests 100m CPU and 100Mi memory, memory limit 200Mi (Elastic's);
 * - tolerates the control-plane taint, so control-plane nodes' logs are collected too.
 *
 * @see https://www.elastic.co/guide/en/beats/filebeat/7.17/running-on-kubernetes.html
 */
export class Filebeat extends NodeAgent {
  /** the Filebeat image used unless `image` is set: the version Elastic's Kubernetes manifest for 7.17 pins. */
  public static readonly DEFAULT_IMAGE = 'docker.elastic.co/beats/filebeat:7.17.27';

  /**
   * Renders the default `filebeat.yml` for an output, e.g. to start a custom `configFiles` from it.
   *
   * @param output where the events go
   * @param excludeFiles regular expressions of log paths not to harvest, typically Filebeat's own
   */
  public static renderConfig(output: ElasticOutput, excludeFiles?: string[]): string {
    checkOutput('Filebeat.renderConfig', output);
    if (excludeFiles !== undefined && excludeFiles !== null && (!Array.isArray(excludeFiles) || excludeFiles.some((e) => typeof e !== 'string'))) {
      throw new Error(`Filebeat.renderConfig: excludeFiles must be a list of regular expressions such as ["^/var/log/containers/filebeat-"], got ${show(excludeFiles)}`);
    }
    const input: { [key: string]: unknown } = { type: 'container', paths: ['/var/log/containers/*.log'] };
    if (excludeFiles && excludeFiles.length > 0) input.exclude_files = [...excludeFiles];
    input.processors = [kubernetesMetadata({ matchers: [{ logs_path: { logs_path: '/var/log/containers/' } }] })];
    return renderBeatConfig({ 'filebeat.inputs': [input] }, [{ add_cloud_metadata: {} }, { add_host_metadata: {} }], output, '0.0.0.0');
  }

  private static resolve(scope: Construct, id: string, props: FilebeatProps): NodeAgentProps {
    props = checkPresetProps<FilebeatProps>((m) => presetFail(scope, id, m), props, FILEBEAT_PROPS);
    const output = props.output ?? ElasticOutput.console();
    const name = props.name ?? id;
    const namespace = props.namespace ?? Chart.of(scope).namespace ?? name;
    const containerName = props.containerName ?? 'agent';
    const configMountPath = props.configMountPath ?? '/etc/filebeat';
    const configPath = `${configMountPath}/filebeat.yml`;
    checkConfigFiles(scope, id, WHO, props.configFiles, configPath);
    // its own pods' log files (<pod>_<namespace>_<container>-<id>.log): with the console output, harvesting them would loop.
    // The three names are DNS labels (NodeAgent checks them), so they hold no character a regular expression reads otherwise.
    const ownLogs = `^/var/log/containers/${name}-[a-z0-9]+_${namespace}_${containerName}-`;
    const essentials = {
      ...beatEssentials(WHO, configPath),
      hostMounts: {
        items: [
          HostMount.readOnly('/var/log', { reason: 'harvests container logs (/var/log/containers links to /var/log/pods)' }),
          dataMount('filebeat', 'keeps the registry of read offsets, so a restart neither sends every log again nor skips any'),
        ],
        why: 'its configuration harvests /var/log/containers and keeps its registry in /usr/share/filebeat/data',
      },
      ports: { items: [monitoringPort()], why: 'its probes use the Beats HTTP endpoint on 5066' },
    };
    return beatProps(scope, id, WHO, props, {
      image: Filebeat.DEFAULT_IMAGE,
      output,
      ownProps: [],
      essentials,
      defaults: {
        configFiles: { 'filebeat.yml': Filebeat.renderConfig(output, [ownLogs]) },
        configMountPath,
        runAsRoot: { reason: 'reads container logs under /var/log/pods, which are root-owned and not world-readable; every capability is dropped' },
      },
    });
  }

  /** where the events go (meaningful unless `configFiles` was set). */
  public readonly output: ElasticOutput;

  constructor(scope: Construct, id: string, props: FilebeatProps = {}) {
    super(scope, id, Filebeat.resolve(scope, id, props));
    this.output = props?.output ?? ElasticOutput.console();
  }
}

const FILEBEAT_PROPS = presetProps('FilebeatProps', {
  output: instance((v) => v instanceof ElasticOutput, 'created with ElasticOutput.elasticsearch(), logstash() or console()'),
});
