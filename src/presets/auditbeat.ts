import { Construct } from 'constructs';
import { CapabilityGrant, HostMount, NodeAgent, NodeAgentProps, NodeAgentSettings } from '../agent';
import {
  beatEssentials, beatProps, checkConfigFiles, checkOutput, dataMount, kubernetesMetadata, monitoringPort, renderBeatConfig,
} from './_beats';
import { ElasticOutput } from './elastic-output';
import { kplus } from '../agent/_plus';
import { PresetAcknowledgement, acknowledgeDefaults, presetFail } from '../agent/_preset';
import { checkPresetProps, instance, presetProps, string, strings } from '../agent/_props-schema';
import { show } from '../agent/_validate';

const WHO = { beat: 'auditbeat', preset: 'Auditbeat' };

/** where the file_integrity module finds the host's directories: `/hostfs<path>`, as Elastic's manifest mounts them. */
const HOSTFS = '/hostfs';

/** the directories Elastic's manifest watches. */
const DEFAULT_PATHS = ['/bin', '/usr/bin', '/sbin', '/usr/sbin', '/etc'];

/** Elastic's manifest's audit rules: executions, and file accesses refused for permissions. */
const DEFAULT_AUDIT_RULES = [
  '# Executions',
  '-a always,exit -F arch=b64 -S execve,execveat -k exec',
  '',
  '# Unauthorized access attempts',
  '-a always,exit -F arch=b64 -S open,creat,truncate,ftruncate,openat,open_by_handle_at -F exit=-EACCES -k access',
  '-a always,exit -F arch=b64 -S open,creat,truncate,ftruncate,openat,open_by_handle_at -F exit=-EPERM -k access',
  '',
].join('\n');

/**
 * Properties for `Auditbeat`.
 *
 * Every `NodeAgent` property can be set. A list prop keeps what Auditbeat needs and adds your items after it; an
 * item of yours that conflicts with one of those is refused, naming it:
 * - `hostMounts`: the `fileIntegrityPaths` (read-only, at `/hostfs<path>`) and `/var/lib/auditbeat-data`
 *   (read-write, at `/usr/share/auditbeat/data`) are kept;
 * - `capabilities`: `AUDIT_CONTROL` and `AUDIT_READ` (the auditd module) are kept;
 * - `args`: `-c <configMountPath>/auditbeat.yml -e` is kept, yours after it;
 * - `ports`: `monitoring` 5066 (the probes; a hostPort, on the host network) is kept;
 * - `clusterPermissions`: get/list/watch on namespaces, pods, nodes and replicasets (add_kubernetes_metadata) are kept;
 * - `tolerations` and `command` replace the preset's (where it runs and which program starts are yours);
 * - the other lists have no default: yours are used.
 * The map `envValueFrom` keeps the output's credentials; yours are added. `configFiles` replaces the rendered
 * configuration and must hold `auditbeat.yml` (start from `Auditbeat.renderConfig(output)`), or it is refused.
 * Every other prop you set replaces the preset's default.
 */
export interface AuditbeatProps extends NodeAgentSettings {
  /**
   * The Auditbeat image.
   *
   * @default Auditbeat.DEFAULT_IMAGE
   */
  readonly image?: string;

  /**
   * Where the events go. Ignored when you set `configFiles` yourself.
   *
   * @default ElasticOutput.console()
   */
  readonly output?: ElasticOutput;

  /**
   * The host directories the file_integrity module hashes and watches, each mounted read-only at `/hostfs<path>`.
   * The list you set replaces the default one; `hostMounts` you set are added to these.
   *
   * @default ['/bin', '/usr/bin', '/sbin', '/usr/sbin', '/etc'] - Elastic's manifest's
   */
  readonly fileIntegrityPaths?: string[];

  /**
   * The auditd module's rules, in `auditctl` syntax, one per line.
   *
   * @default - Elastic's manifest's: executions (execve, execveat) and opens refused with EACCES or EPERM
   */
  readonly auditRules?: string;
}

/**
 * A security auditor: Elastic Auditbeat on every node, receiving the kernel's audit events (auditd module) and
 * hashing and watching the node's binaries and configuration (file_integrity module), enriched with process and
 * Kubernetes metadata, configured as Elastic's Kubernetes manifest (`auditbeat-kubernetes.yaml`) configures it.
 *
 * Defaults (each set through the matching `NodeAgent` property; the list props keep what the preset needs, see its props):
 * - image `docker.elastic.co/beats/auditbeat`, pinned (`Auditbeat.DEFAULT_IMAGE`, the version of Elastic's manifest),
 *   run as `/usr/share/auditbeat/auditbeat -c <configMountPath>/auditbeat.yml -e`;
 * - configuration `auditbeat.yml` in a ConfigMap mounted at `/etc/auditbeat`: the file_integrity module on
 *   `/hostfs/bin`, `/hostfs/usr/bin`, `/hostfs/sbin`, `/hostfs/usr/sbin`, `/hostfs/etc` (SHA-1, recursive, scanned
 *   at start) and the auditd module with Elastic's rules, `add_cloud_metadata`, `add_process_metadata` (the
 *   container of a process) and `add_kubernetes_metadata` by container ID, the HTTP endpoint on 5066, and `output`;
 * - the host PID namespace (the kernel answers audit control requests only from the initial PID namespace) and the
 *   host network (the kernel sends audit events to multicast listeners only in the initial network namespace), each
 *   with its reason; the monitoring port is therefore bound on the node, declared as a `hostPort` with its reason;
 * - capabilities `AUDIT_CONTROL` (becomes the kernel's audit daemon and loads the rules) and `AUDIT_READ` (the
 *   multicast subscription, used when the node's audit configuration is locked), each with its reason, every other
 *   capability dropped (Elastic's manifest also adds `AUDIT_WRITE`, which Auditbeat does not use), and root with the
 *   reason (added capabilities are effective only for UID 0); read-only root filesystem, no privilege escalation;
 * - host mounts, all **read-only** but one: the `fileIntegrityPaths` at `/hostfs<path>`, and `/var/lib/auditbeat-data`
 *   read-write at `/usr/share/auditbeat/data`, created if missing (the file hashes, so a restart reports only what
 *   changed). `/run/containerd` is not mounted (only the commented-out autodiscover example of Elastic's manifest reads it);
 * - RBAC: get/list/watch on namespaces, pods, nodes and replicasets (add_kubernetes_metadata), nothing else;
 * - port `monitoring` 5066 (the Beats HTTP endpoint, JSON, not the Prometheus format): liveness and readiness `GET /`;
 * - requests 100m CPU and 100Mi memory, memory limit 200Mi (Elastic's);
 * - tolerates the control-plane taint, so control-plane nodes are audited too;
 * - priority class `system-cluster-critical`: on the host network with its port bound on the node it cannot run
 *   anywhere else, so it must not stay Pending on a full node (an unaudited node), yet it ranks below the CNI and CSI agents;
 * - security review: the findings its defaults cause (the host's /etc mounted, the audit capabilities) are
 *   acknowledged with their reasons while the props that cause them keep their defaults.
 *
 * @see https://www.elastic.co/guide/en/beats/auditbeat/7.17/running-on-kubernetes.html
 */
export class Auditbeat extends NodeAgent {
  /** the Auditbeat image used unless `image` is set: the version Elastic's Kubernetes manifest for 7.17 pins. */
  public static readonly DEFAULT_IMAGE = 'docker.elastic.co/beats/auditbeat:7.17.27';

  /** Elastic's manifest's audit rules, the default of `auditRules`. */
  public static readonly DEFAULT_AUDIT_RULES = DEFAULT_AUDIT_RULES;

  /**
   * Renders the default `auditbeat.yml` for an output, e.g. to start a custom `configFiles` from it.
   *
   * @param output where the events go
   * @param fileIntegrityPaths the host directories watched (read at `/hostfs<path>`)
   * @param auditRules the auditd module's rules
   */
  public static renderConfig(output: ElasticOutput, fileIntegrityPaths?: string[], auditRules?: string): string {
    checkOutput('Auditbeat.renderConfig', output);
    const paths = fileIntegrityPaths ?? DEFAULT_PATHS;
    if (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string' || !p.startsWith('/'))) {
      throw new Error(`Auditbeat.renderConfig: fileIntegrityPaths must be a list of absolute host paths such as ['/etc'], got ${show(fileIntegrityPaths)}`);
    }
    const rules = auditRules ?? DEFAULT_AUDIT_RULES;
    if (typeof rules !== 'string') throw new Error(`Auditbeat.renderConfig: auditRules must be auditctl rules, one per line, got ${show(auditRules)}`);
    const modules = [
      {
        module: 'file_integrity',
        paths: paths.map((p) => `${HOSTFS}${p}`),
        exclude_files: ['(?i)\\.sw[nop]$', '~$', '/\\.git($|/)'],
        scan_at_start: true,
        scan_rate_per_sec: '50 MiB',
        max_file_size: '100 MiB',
        hash_types: ['sha1'],
        recursive: true,
      },
      { module: 'auditd', audit_rules: rules },
    ];
    const processors = [
      { add_cloud_metadata: {} },
      { add_process_metadata: { match_pids: ['process.pid'], include_fields: ['container.id'] } },
      kubernetesMetadata({
        'default_indexers.enabled': false,
        'default_matchers.enabled': false,
        'indexers': [{ container: {} }],
        'matchers': [{ 'fields.lookup_fields': ['container.id'] }],
      }),
    ];
    return renderBeatConfig({ 'auditbeat.modules': modules }, processors, output, '0.0.0.0');
  }

  private static resolve(scope: Construct, id: string, props: AuditbeatProps): NodeAgentProps {
    props = checkPresetProps<AuditbeatProps>((m) => presetFail(scope, id, m), props, AUDITBEAT_PROPS);
    const output = props.output ?? ElasticOutput.console();
    const paths = props.fileIntegrityPaths ?? DEFAULT_PATHS;
    for (const p of paths) {
      if (!p.startsWith('/')) presetFail(scope, id, `fileIntegrityPaths: "${p}" must be an absolute host path, e.g. "/etc"`);
    }
    const configMountPath = props.configMountPath ?? '/etc/auditbeat';
    const configPath = `${configMountPath}/auditbeat.yml`;
    checkConfigFiles(scope, id, WHO, props.configFiles, configPath);
    const capabilities: CapabilityGrant[] = [
      { capability: kplus().Capability.AUDIT_CONTROL, reason: 'the auditd module becomes the kernel\'s audit daemon (unicast) and loads its audit rules' },
      { capability: kplus().Capability.AUDIT_READ, reason: 'the auditd module subscribes to the kernel\'s audit multicast group instead when the node\'s audit configuration is locked' },
    ];
    const essentials = {
      ...beatEssentials(WHO, configPath),
      hostMounts: {
        items: [
          ...paths.map((p) => HostMount.readOnly(p, { mountPath: `${HOSTFS}${p}`, reason: 'the file_integrity module hashes and watches the host\'s files there' })),
          dataMount('auditbeat', 'keeps the file_integrity module\'s hashes, so a restart reports only the files that changed'),
        ],
        why: 'the file_integrity module reads the host\'s directories under /hostfs and keeps its hashes in /usr/share/auditbeat/data',
      },
      capabilities: { items: capabilities, why: 'the auditd module needs them to receive the kernel\'s audit events' },
      ports: {
        items: [monitoringPort('on the host network the monitoring port is the node\'s port; the kubelet probes it there')],
        why: 'its probes use the Beats HTTP endpoint on 5066',
      },
    };
    return beatProps(scope, id, WHO, props, {
      image: Auditbeat.DEFAULT_IMAGE,
      output,
      ownProps: ['fileIntegrityPaths', 'auditRules'],
      essentials,
      defaults: {
        configFiles: { 'auditbeat.yml': Auditbeat.renderConfig(output, paths, props.auditRules) },
        configMountPath,
        hostPID: { reason: 'the kernel answers audit control requests (becoming the audit daemon, loading rules) only from the initial PID namespace' },
        hostNetwork: { reason: 'the kernel sends audit events to multicast subscribers only in the initial network namespace' },
        runAsRoot: {
          reason: 'the added audit capabilities are effective only for UID 0 (Kubernetes grants no ambient capabilities); the file_integrity module ' +
            'reads root-only files such as /etc/shadow; every other capability is dropped',
        },
        priorityClassName: 'system-cluster-critical',
      },
    });
  }

  /** where the events go (meaningful unless `configFiles` was set). */
  public readonly output: ElasticOutput;

  constructor(scope: Construct, id: string, props: AuditbeatProps = {}) {
    super(scope, id, Auditbeat.resolve(scope, id, props));
    this.output = props?.output ?? ElasticOutput.console();
    const acks: PresetAcknowledgement[] = [{
      rule: 'NA-HOSTPATH-SENSITIVE',
      reason: 'the file_integrity module hashes the host\'s /etc (password hashes and Kubernetes credentials included) and binaries to report ' +
        'their tampering: watching them is its purpose; mounted read-only, and Auditbeat holds no capability but the audit ones',
      unless: ['hostMounts', 'fileIntegrityPaths'],
    }];
    acknowledgeDefaults(this, props, acks);
  }
}

const AUDITBEAT_PROPS = presetProps('AuditbeatProps', {
  output: instance((v) => v instanceof ElasticOutput, 'created with ElasticOutput.elasticsearch(), logstash() or console()'),
  fileIntegrityPaths: strings('a list of host paths', "['/etc', '/usr/bin']"),
  auditRules: string("'-a always,exit -F arch=b64 -S execve -k exec'"),
});
