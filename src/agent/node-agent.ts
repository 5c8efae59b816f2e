import { createHash } from 'node:crypto';
import { ApiObject, Chart, Duration, JsonPatch, Lazy } from 'cdk8s';
import type { DnsPolicy } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CheckedApiObject, renderUnchecked } from './_checked-api-object';
import { AgentContainer, ContainerRole, checkAbsolutePath, normalisePath } from './_container';
import { AgentNamespace } from './_namespace';
import { kplus } from './_plus';
import { currentSynth, SynthCounter, synthCounterOf } from './_synth-counter';
import { checkDnsLabel, checkDnsSubdomain, checkDuration, checkInteger, checkLabelKey, checkLabelValue, checkReason, fail, hasOwn } from './_validate';
import { assignVolumeNames, VolumeRequest } from './_volumes';
import { AccessRule } from './access-rule';
import { AgentContainerProps, ContainerSettings, Justification } from './container-options';
import { HostMount } from './host-mount';
import { NodeAffinityTerm, NodeRequirement, WeightedNodeAffinityTerm } from './node-requirement';
import { SecurityCheck } from './security-check';
import { Toleration } from './toleration';
import { AgentUpdateStrategy } from './update-strategy';
import { CoveragePlan, DaemonSetCoverage } from '../model/daemon-set-coverage';
import { HostAccess } from '../model/host-access';
import { HostAccessReason, HostAccessReasons, HostAccessType } from '../model/host-access-reasons';
import { PodSecurity, PodSecurityLevel } from '../model/pod-security';
import { RolloutPlan } from '../model/rollout-plan';
import { Acknowledgements } from '../review/acknowledgement';
import { ReviewPack } from '../review/review-pack';
import { ReviewOptions, ReviewReport, SecurityReview } from '../review/security-review';
import { Severity } from '../review/severity';

/** `ReviewPack.defaults()`, built on the first review. */
let defaultPacks: ReviewPack[] | undefined;
const IS_NODE_AGENT = Symbol.for('cdk8s-node-agents.NodeAgent');

/**
 * A Service in front of the agent's pods.
 */
export interface AgentServiceOptions {
  /** names of the main container's ports to expose, e.g. `['metrics']`. */
  readonly ports: string[];

  /**
   * Annotations on the Service, e.g. `prometheus.io/scrape: 'true'`.
   *
   * @default - none
   */
  readonly annotations?: { [key: string]: string };

  /**
   * Route traffic from a node only to the agent on that same node (`internalTrafficPolicy: Local`), so
   * node-local clients talk to their own node's agent.
   *
   * @default false
   */
  readonly nodeLocal?: boolean;
}

/**
 * Every property of `NodeAgent` except the image (`NodeAgentProps` adds it). Presets extend this
 * interface, so that each NodeAgent property can be passed to them while the image keeps a pinned
 * default.
 */
export interface NodeAgentSettings extends ContainerSettings {
  /**
   * The agent's name: the name of the DaemonSet, its ServiceAccount and RBAC objects, and the value of
   * the `app.kubernetes.io/name` selector label. The selector is immutable on a live DaemonSet and is
   * derived from this name only, never from the construct path, so refactoring the app keeps it.
   *
   * @default - the construct id
   */
  readonly name?: string;

  /**
   * The namespace the agent runs in.
   *
   * @default - the chart's namespace if it has one, otherwise a dedicated namespace named after the agent
   */
  readonly namespace?: string;

  /**
   * Whether to create the Namespace object, labelled for Pod Security admission: `enforce` at the level
   * the agent needs (so nothing more privileged can start beside it) and `warn`/`audit` at `restricted`.
   * Agents of one chart in the same namespace share one Namespace object.
   *
   * @default true
   */
  readonly createNamespace?: boolean;

  /**
   * The Pod Security Standards version to evaluate against and to pin in the namespace labels, e.g.
   * `'1.28'`, `'1.32'` or `'latest'`.
   *
   * @default '1.28'
   */
  readonly podSecurityVersion?: string;

  /**
   * Extra labels on every object of the agent and on its pods. They never enter the selector.
   *
   * @default - only the `app.kubernetes.io/*` labels
   */
  readonly labels?: { [key: string]: string };

  /**
   * Extra annotations on the agent's pods.
   *
   * @default - none (besides the config checksum when config files are set)
   */
  readonly podAnnotations?: { [key: string]: string };

  /**
   * The name of the main container.
   *
   * @default 'agent'
   */
  readonly containerName?: string;

  /**
   * Registries images may come from (e.g. `['registry.example.com', 'quay.io']`); checked for every
   * container. Docker Hub images count as registry `docker.io`.
   *
   * @default - any registry
   */
  readonly allowedRegistries?: string[];

  /**
   * The synth fails when the security review of the agent (its rendered objects, with the default rule
   * packs) has an unacknowledged finding at or above this severity. Acknowledge accepted findings with
   * `agent.acknowledge(rule, reason)` or `SecurityCheck.acknowledge(scope, rule, reason)`.
   *
   * @default Severity.HIGH
   */
  readonly reviewFailOn?: Severity;

  // ---------------------------------------------------------------- placement

  /**
   * Node labels a node must carry, with exactly these values, for the agent to run there (ANDed with
   * the required node affinity).
   *
   * @default - no selector besides `kubernetes.io/os: linux` (see `linuxOnly`)
   */
  readonly nodeSelector?: { [key: string]: string };

  /**
   * Whether to run only on Linux nodes (`kubernetes.io/os: linux` in the node selector). Agents built
   * for Linux crash-loop on Windows nodes.
   *
   * @default true
   */
  readonly linuxOnly?: boolean;

  /**
   * Node affinity that must hold for the agent to run on a node: the node must match at least one
   * term, and every requirement within it.
   *
   * @default - none
   */
  readonly requiredNodeAffinity?: NodeAffinityTerm[];

  /**
   * Preferred node affinity terms with their weights. Kept for completeness: the DaemonSet controller
   * pins each pod to its node, so preferences do not change where the agent runs.
   *
   * @default - none
   */
  readonly preferredNodeAffinity?: WeightedNodeAffinityTerm[];

  /**
   * Taints the agent tolerates.
   *
   * @default - none beyond those the DaemonSet controller adds (node conditions, cordoned nodes)
   */
  readonly tolerations?: Toleration[];

  /**
   * The PriorityClass of the agent's pods, e.g. `system-node-critical` for agents without which the
   * node is broken (CNI, CSI). Without one, agent pods can stay Pending on full nodes.
   *
   * @default - no priority class (priority 0)
   */
  readonly priorityClassName?: string;

  // ---------------------------------------------------------------- rollout

  /**
   * How pods are replaced when the agent changes.
   *
   * @default AgentUpdateStrategy.rollingUpdate() - one node at a time
   */
  readonly updateStrategy?: AgentUpdateStrategy;

  /**
   * How long a new pod must be ready before it counts as available and the rollout moves on.
   *
   * @default - available as soon as ready
   */
  readonly minReady?: Duration;

  /**
   * How many old revisions to keep for rollbacks.
   *
   * @default 10
   */
  readonly revisionHistoryLimit?: number;

  // ---------------------------------------------------------------- host namespaces

  /**
   * Use the node's network namespace: the agent sees and can bind every interface and port of the
   * node. DNS policy then becomes `ClusterFirstWithHostNet` so cluster DNS still works.
   *
   * @default - the pod network
   */
  readonly hostNetwork?: Justification;

  /**
   * Use the node's PID namespace: the agent sees (and, with capabilities, can signal or trace) every
   * process on the node.
   *
   * @default - its own PID namespace
   */
  readonly hostPID?: Justification;

  /**
   * Use the node's IPC namespace: the agent can reach shared memory and message queues of other pods.
   *
   * @default - its own IPC namespace
   */
  readonly hostIPC?: Justification;

  /**
   * DNS policy of the pods.
   *
   * @default - `ClusterFirstWithHostNet` on the host network, Kubernetes' `ClusterFirst` otherwise
   */
  readonly dnsPolicy?: DnsPolicy;

  /**
   * Group that owns mounted volumes (pod `fsGroup`).
   *
   * @default - not set
   */
  readonly fsGroup?: number;

  // ---------------------------------------------------------------- identity

  /**
   * Cluster-wide RBAC rules for the agent's ServiceAccount (a ClusterRole and ClusterRoleBinding).
   *
   * @default - none
   */
  readonly clusterPermissions?: AccessRule[];

  /**
   * RBAC rules within the agent's namespace (a Role and RoleBinding).
   *
   * @default - none
   */
  readonly namespacePermissions?: AccessRule[];

  /**
   * Whether to mount the ServiceAccount token into the pods.
   *
   * @default - true when the agent has any permissions, false otherwise
   */
  readonly automountServiceAccountToken?: boolean;

  // ---------------------------------------------------------------- runtime

  /**
   * How long the agent gets to shut down (flush buffers) before it is killed.
   *
   * @default Duration.seconds(30)
   */
  readonly terminationGracePeriod?: Duration;

  /**
   * Configuration files, by file name, written to a ConfigMap and mounted read-only into the main
   * container at `configMountPath`. A checksum of their content is put on the pod template, so
   * changing a file rolls the agent.
   *
   * @default - no configuration files
   */
  readonly configFiles?: { [fileName: string]: string };

  /**
   * Where the configuration files are mounted in the main container.
   *
   * @default - `/etc/<name>`
   */
  readonly configMountPath?: string;

  /**
   * A ClusterIP Service in front of the agents' pods, for metrics scraping or a node-local API.
   *
   * @default - no Service
   */
  readonly service?: AgentServiceOptions;

  /**
   * Init containers, run in order before the agent starts (e.g. an installer that writes to the host
   * while the long-running container keeps read-only mounts).
   *
   * @default - none
   */
  readonly initContainers?: AgentContainerProps[];

  /**
   * Extra long-running containers next to the agent.
   *
   * @default - none
   */
  readonly sidecars?: AgentContainerProps[];
}

/**
 * Properties for `NodeAgent`.
 */
export interface NodeAgentProps extends NodeAgentSettings {
  /** the main container's image, pinned to a version tag or a digest (`latest` and untagged images are rejected). */
  readonly image: string;
}

/**
 * A node agent: a DaemonSet that runs one pod on every eligible node, with everything it needs and
 * nothing more.
 *
 * It renders a DaemonSet, a dedicated ServiceAccount, RBAC when permissions are declared, a ConfigMap
 * when config files are given and (unless told the namespace exists) a Namespace labelled for Pod
 * Security admission. Containers are locked down by default; each host privilege is an explicit
 * opt-in with a written reason, recorded on the DaemonSet in the `node-agents.cdk8s.io/host-access`
 * annotation. At synth the DaemonSet is rendered once (with your JSON patches) and checked: a host
 * privilege without a recorded reason, or a review finding at or above `reviewFailOn`, fails the synth
 * with the construct path. What goes into the manifest is exactly what was checked.
 *
 * Objects are rendered as plain `ApiObject`s, so `agent.daemonSet.addJsonPatch(...)` keeps every value
 * you patch in.
 */
export class NodeAgent extends Construct {
  /**
   * Whether `x` is a NodeAgent (works across copies of this library).
   */
  public static isNodeAgent(x: any): x is NodeAgent {
    return x !== null && typeof x === 'object' && IS_NODE_AGENT in x;
  }

  /** the agent's name. */
  public readonly name: string;
  /** the agent's namespace. */
  public readonly namespace: string;
  /** the labels that select the agent's pods (immutable once deployed). */
  public readonly selectorLabels: { [key: string]: string };
  /** the Pod Security version the agent is evaluated against and its namespace pins. */
  public readonly podSecurityVersion: string;
  /**
   * The DaemonSet, patchable with `addJsonPatch`. Its `toJson()` checks what it renders (host-access reasons,
   * host ports, the security review) and throws when the check fails; `review()` inspects a failing agent.
   */
  public readonly daemonSet: ApiObject;
  /** the ServiceAccount. */
  public readonly serviceAccount: ApiObject;
  /** the Namespace object, when this library creates it (shared by the chart's agents in that namespace). */
  public readonly namespaceObject?: ApiObject;
  /** the ConfigMap holding the config files, when any are given. */
  public readonly configMap?: ApiObject;
  /** the Service, when `service` is set. */
  public readonly service?: ApiObject;
  /** the update strategy in force. */
  public readonly updateStrategy: AgentUpdateStrategy;
  /** the priority class, when set. */
  public readonly priorityClassName?: string;

  private readonly props: NodeAgentProps;
  private readonly main: AgentContainer;
  private readonly initContainers: AgentContainer[] = [];
  private readonly sidecars: AgentContainer[] = [];
  private readonly tolerations: Toleration[] = [];
  private readonly nodeSelector: { [key: string]: string } = {};
  private readonly clusterRules: AccessRule[] = [];
  private readonly namespaceRules: AccessRule[] = [];
  private readonly extraReasons: HostAccessReason[] = [];
  private readonly labels: { [key: string]: string };
  private clusterRbac?: { role: ApiObject; binding: ApiObject };
  private namespaceRbac?: { role: ApiObject; binding: ApiObject };
  private readonly checkedDaemonSet: CheckedApiObject;
  private readonly synths: SynthCounter;
  /** the DaemonSet as rendered and checked in the current synth's validation. */
  private checkedInSynth?: { synth: number; manifest?: any; errors: string[] };

  constructor(scope: Construct, id: string, props: NodeAgentProps) {
    super(scope, id);
    Object.defineProperty(this, IS_NODE_AGENT, { value: true });
    if (!props || typeof props !== 'object') fail(this, 'props are required: at least { image: "registry.example.com/node-agent:1.2.0" }');
    this.props = props;

    this.name = props.name ?? id;
    checkDnsLabel(this, 'name', this.name);
    this.namespace = props.namespace ?? Chart.of(this).namespace ?? this.name;
    checkDnsLabel(this, 'namespace', this.namespace);
    this.podSecurityVersion = props.podSecurityVersion ?? PodSecurity.DEFAULT_VERSION;
    try {
      // fails early on a version the model does not know; this only adds the construct path.
      PodSecurity.versionLabel(this.podSecurityVersion);
    } catch (e) {
      fail(this, `podSecurityVersion: ${(e as Error).message}`);
    }

    this.selectorLabels = { 'app.kubernetes.io/name': this.name };
    for (const [k, v] of Object.entries(props.labels ?? {})) {
      checkLabelKey(this, 'labels', k);
      checkLabelValue(this, `labels.${k}`, v);
      if (hasOwn(this.selectorLabels, k) || k === 'app.kubernetes.io/managed-by') {
        fail(this, `labels: "${k}" is set by the agent (its selector and identity labels): remove it from labels`);
      }
    }
    this.labels = { ...this.selectorLabels, ...props.labels ?? {} };
    for (const [k, v] of Object.entries(props.podAnnotations ?? {})) {
      checkLabelKey(this, 'podAnnotations', k);
      if (typeof v !== 'string') fail(this, `podAnnotations.${k} must be a string, got ${JSON.stringify(v)}`);
    }

    // placement
    if (props.linuxOnly ?? true) this.nodeSelector['kubernetes.io/os'] = 'linux';
    for (const [k, v] of Object.entries(props.nodeSelector ?? {})) this.addNodeSelector(k, v);
    this.checkAffinity(props.requiredNodeAffinity, props.preferredNodeAffinity);
    for (const t of props.tolerations ?? []) this.addToleration(t);
    if (props.priorityClassName !== undefined) checkDnsSubdomain(this, 'priorityClassName', props.priorityClassName);
    this.priorityClassName = props.priorityClassName;

    if (props.reviewFailOn !== undefined && !Object.values(Severity).includes(props.reviewFailOn)) {
      fail(this, `reviewFailOn "${props.reviewFailOn}" is not one of ${Object.values(Severity).join(', ')}`);
    }

    // rollout
    this.updateStrategy = props.updateStrategy ?? AgentUpdateStrategy.rollingUpdate();
    this.checkUpdateStrategy(this.updateStrategy);
    if (props.minReady !== undefined) checkDuration(this, 'minReady', props.minReady);
    if (props.revisionHistoryLimit !== undefined) checkInteger(this, 'revisionHistoryLimit', props.revisionHistoryLimit, 0, 2147483647);

    // host namespaces
    if (props.hostNetwork) checkReason(this, 'hostNetwork', props.hostNetwork.reason);
    if (props.hostPID) checkReason(this, 'hostPID', props.hostPID.reason);
    if (props.hostIPC) checkReason(this, 'hostIPC', props.hostIPC.reason);
    if (props.fsGroup !== undefined) checkInteger(this, 'fsGroup', props.fsGroup, 0, 2147483647);
    if (props.dnsPolicy === kplus().DnsPolicy.NONE) {
      fail(this, 'dnsPolicy None needs a dnsConfig, which NodeAgent does not model: use ClusterFirst, ClusterFirstWithHostNet or Default, or patch spec.template.spec.dnsConfig in with daemonSet.addJsonPatch');
    }
    if (props.terminationGracePeriod !== undefined) checkDuration(this, 'terminationGracePeriod', props.terminationGracePeriod);

    // containers
    this.main = new AgentContainer(this, props.containerName ?? 'agent', ContainerRole.MAIN, props, props.allowedRegistries);
    for (const c of props.initContainers ?? []) this.addInitContainer(c);
    for (const c of props.sidecars ?? []) this.addSidecar(c);

    const commonLabels = () => ({ ...this.labels, 'app.kubernetes.io/managed-by': 'cdk8s-node-agents' });

    if (props.createNamespace ?? true) {
      const ns = AgentNamespace.of(this, this.namespace, this.podSecurityVersion);
      ns.addMember(() => this.podSecurityLevel);
      this.namespaceObject = ns.apiObject;
    }

    this.serviceAccount = new ApiObject(this, 'ServiceAccount', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: this.name, namespace: this.namespace, labels: commonLabels() },
      automountServiceAccountToken: Lazy.any({ produce: () => this.mountsToken() }),
    });

    if (props.configFiles !== undefined) {
      const files = props.configFiles;
      const names = Object.keys(files);
      if (names.length === 0) fail(this, 'configFiles is empty: give at least one file, or leave configFiles out');
      for (const f of names) {
        if (!/^[-._a-zA-Z0-9]+$/.test(f) || f === '.' || f === '..' || f.length > 253) {
          fail(this, `configFiles: "${f}" is not a valid file name: use at most 253 letters, digits, '-', '_' and '.'`);
        }
        if (typeof files[f] !== 'string') fail(this, `configFiles.${f} must be a string, got ${typeof files[f]}`);
      }
      if (hasOwn(props.podAnnotations ?? {}, 'checksum/config')) {
        fail(this, 'podAnnotations: "checksum/config" is set by the agent from the config files (it rolls the agent when they change): remove it or use another key');
      }
      const mountPath = props.configMountPath ?? `/etc/${this.name}`;
      checkAbsolutePath(this, 'configMountPath', mountPath);
      this.configMap = new ApiObject(this, 'Config', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `${this.name}-config`, namespace: this.namespace, labels: commonLabels() },
        data: { ...files },
      });
      this.main.addVolumeMount('config', mountPath);
    } else if (props.configMountPath !== undefined) {
      fail(this, 'configMountPath is set but configFiles is not: give the files to mount, or remove configMountPath');
    }

    for (const r of props.clusterPermissions ?? []) this.addClusterPermission(r);
    for (const r of props.namespacePermissions ?? []) this.addNamespacePermission(r);

    if (props.service) this.service = this.createService(props.service, commonLabels());

    // checked before it is written (see renderChecked): what goes into the manifest is exactly what was reviewed.
    this.checkedDaemonSet = new CheckedApiObject(this, 'Resource', {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        name: this.name,
        namespace: this.namespace,
        labels: commonLabels(),
      },
      spec: Lazy.any({ produce: () => this.renderSpec() }),
    }, () => this.renderChecked());
    this.daemonSet = this.checkedDaemonSet;
    // the acknowledgements that apply to the agent travel with its manifest, for reviews of the YAML.
    this.daemonSet.metadata.addAnnotation(Acknowledgements.ANNOTATION, Lazy.any({ produce: () => this.acknowledgementsAnnotation() }) as any);
    // rendered at synth, so privileges added after construction are recorded too; left out when empty.
    this.daemonSet.metadata.addAnnotation(HostAccessReasons.ANNOTATION, Lazy.any({ produce: () => this.reasonsAnnotation() }) as any);

    // in App.synth()/synthYaml() the check runs in validation, before anything is written, so that every failing agent
    // is reported at once; the DaemonSet then writes the manifest it checked. Elsewhere it checks itself as it renders.
    this.synths = synthCounterOf(this.node.root);
    this.node.addValidation({ validate: () => this.checkOncePerSynth() });
  }

  // ---------------------------------------------------------------- mutators

  /** adds a toleration. */
  public addToleration(toleration: Toleration): void {
    if (!(toleration instanceof Toleration)) fail(this, 'tolerations must be created with Toleration.controlPlane(), exists(), equal(), allNoSchedule() or everything()');
    const t = toleration;
    if (t.key !== undefined) checkLabelKey(this, 'tolerations', t.key);
    if (t.key === undefined && t.operator !== 'Exists') fail(this, 'tolerations: a toleration without a key must use operator Exists');
    if (t.value !== undefined) checkLabelValue(this, `tolerations[${t.key}] value`, t.value);
    if (t.effect !== undefined && !Object.values(kplus().TaintEffect).includes(t.effect)) {
      fail(this, `tolerations[${t.key ?? '*'}]: effect "${t.effect}" is not one of ${Object.values(kplus().TaintEffect).join(', ')}`);
    }
    if (t.evictAfter !== undefined) {
      if (t.effect !== kplus().TaintEffect.NO_EXECUTE) {
        fail(this, `tolerations[${t.key ?? '*'}]: evictAfter applies only to NoExecute taints: set effect: TaintEffect.NO_EXECUTE or remove evictAfter`);
      }
      checkDuration(this, `tolerations[${t.key ?? '*'}] evictAfter`, t.evictAfter);
    }
    const same = this.tolerations.find((o) => o.key === t.key && o.operator === t.operator && o.value === t.value && o.effect === t.effect);
    if (same) fail(this, `tolerations: the toleration for "${t.key ?? '*'}" (${t.operator}${t.effect ? `, ${t.effect}` : ''}) is given twice`);
    this.tolerations.push(t);
  }

  /** requires a node label with exactly this value. */
  public addNodeSelector(key: string, value: string): void {
    checkLabelKey(this, 'nodeSelector', key);
    if (typeof value !== 'string') fail(this, `nodeSelector.${key} must be a string (use "" for a label without value), got ${JSON.stringify(value)}`);
    checkLabelValue(this, `nodeSelector.${key}`, value);
    this.nodeSelector[key] = value;
  }

  /** mounts a host path into the main container. */
  public addHostMount(mount: HostMount): void {
    this.main.addHostMount(mount);
  }

  /** adds an environment variable to the main container. */
  public addEnv(name: string, value: string): void {
    this.main.addEnv(name, value);
  }

  /** adds an init container (run in order, before the agent). */
  public addInitContainer(props: AgentContainerProps): void {
    this.checkContainerName(props?.name, 'initContainers');
    const container = new AgentContainer(this, props.name, ContainerRole.INIT, props, this.props.allowedRegistries);
    this.mountConfigInto(container, props.configMountPath, 'initContainers');
    this.initContainers.push(container);
  }

  /** adds a sidecar container. */
  public addSidecar(props: AgentContainerProps): void {
    this.checkContainerName(props?.name, 'sidecars');
    const container = new AgentContainer(this, props.name, ContainerRole.SIDECAR, props, this.props.allowedRegistries);
    this.mountConfigInto(container, props.configMountPath, 'sidecars');
    this.sidecars.push(container);
  }

  /** grants the ServiceAccount a cluster-wide RBAC rule (creates the ClusterRole and its binding). */
  public addClusterPermission(rule: AccessRule): void {
    this.checkRule('clusterPermissions', rule);
    this.clusterRules.push(rule);
    if (!this.clusterRbac) this.clusterRbac = this.createRbac(true);
  }

  /** grants the ServiceAccount an RBAC rule in the agent's namespace (creates the Role and its binding). */
  public addNamespacePermission(rule: AccessRule): void {
    this.checkRule('namespacePermissions', rule);
    this.namespaceRules.push(rule);
    if (!this.namespaceRbac) this.namespaceRbac = this.createRbac(false);
  }

  /**
   * Records the reason for a host privilege that the props do not express, e.g. one you add with a
   * JSON patch on `daemonSet`. Without it, the synth fails on that privilege.
   */
  public addHostAccessReason(reason: HostAccessReason): void {
    checkReason(this, `host access reason for ${reason?.type} ${reason?.detail}`, reason?.reason);
    if (!Object.values(HostAccessType).includes(reason.type)) {
      fail(this, `host access reason: type "${reason.type}" is not one of ${Object.values(HostAccessType).join(', ')}`);
    }
    this.extraReasons.push({ ...reason, reason: reason.reason.trim() });
  }

  /**
   * Acknowledges a security-review finding for this agent, with the reason it is accepted. The finding
   * stays in the review, marked acknowledged, and no longer fails the synth.
   *
   * @param rule the rule ID, e.g. `NA-PRIORITY-CLASS`
   * @param reason one line saying why the finding is accepted
   * @param container accept only the findings about this container (e.g. an installer init container)
   * instead of every finding of the rule
   */
  public acknowledge(rule: string, reason: string, container?: string): void {
    SecurityCheck.acknowledge(this, rule, reason, container);
  }

  // ---------------------------------------------------------------- queries

  /**
   * The security review of the agent's rendered objects (JSON patches included), with the default
   * rule packs and the acknowledgements that apply to it.
   */
  public review(): ReviewReport {
    this.assertRenderable();
    return this.reviewOf(this.renderedObjects());
  }

  /** every host privilege the agent takes, with its reason, as recorded on the DaemonSet. */
  public get hostAccessReasons(): HostAccessReason[] {
    const reasons: HostAccessReason[] = [];
    const p = this.props;
    if (p.hostNetwork) reasons.push({ type: HostAccessType.HOST_NETWORK, detail: '', reason: p.hostNetwork.reason.trim() });
    if (p.hostPID) reasons.push({ type: HostAccessType.HOST_PID, detail: '', reason: p.hostPID.reason.trim() });
    if (p.hostIPC) reasons.push({ type: HostAccessType.HOST_IPC, detail: '', reason: p.hostIPC.reason.trim() });
    for (const c of this.allContainers()) reasons.push(...c.reasons());
    reasons.push(...this.extraReasons);
    return reasons;
  }

  /** the strictest Pod Security level the rendered pod spec (including JSON patches) satisfies. */
  public get podSecurityLevel(): PodSecurityLevel {
    this.assertRenderable();
    const version = this.podSecurityVersion;
    if (this.checkedDaemonSet.hasPatches) return PodSecurity.evaluateWorkload(this.checkedDaemonSet.renderUnchecked(), { version }).level;
    // every agent's level sets its namespace's enforce label: without a JSON patch the pod template is the one the agent
    // renders, so it is read without rendering the whole DaemonSet a second time (a property test holds the two equal).
    // The annotations count: an unconfined AppArmor annotation takes the pod out of baseline, at every policy version.
    return PodSecurity.evaluate(this.renderPodSpec(), { version, annotations: this.renderPodAnnotations() ?? {} }).level;
  }

  /**
   * Predicts on which of these nodes the agent will run, and why not on the others, with the
   * DaemonSet controller's rules.
   *
   * @param nodes `v1` Node objects, e.g. the items of `kubectl get nodes -o json`
   */
  public coverage(nodes: any[]): CoveragePlan {
    this.assertRenderable();
    return DaemonSetCoverage.plan(this.checkedDaemonSet.renderUnchecked(), nodes);
  }

  /**
   * The rollout arithmetic for a cluster of `nodeCount` eligible nodes: budgets in nodes and the number of waves.
   */
  public rolloutPlan(nodeCount: number): RolloutPlan {
    this.assertRenderable();
    return RolloutPlan.of(this.checkedDaemonSet.renderUnchecked(), nodeCount);
  }

  // ---------------------------------------------------------------- rendering

  private allContainers(): AgentContainer[] {
    return [...this.initContainers, this.main, ...this.sidecars];
  }

  private mountsToken(): boolean {
    return this.props.automountServiceAccountToken ?? (this.clusterRules.length > 0 || this.namespaceRules.length > 0);
  }

  private reasonsAnnotation(): string | undefined {
    const reasons = this.hostAccessReasons;
    return reasons.length > 0 ? HostAccessReasons.format(reasons) : undefined;
  }

  /** fails with the construct path (rather than inside cdk8s' serializer) when the pod cannot be rendered. */
  private assertRenderable(): void {
    const errors = this.volumeNames().errors;
    if (errors.length > 0) fail(this, errors.join('; '));
  }

  private acknowledgementsAnnotation(): string | undefined {
    const acks = SecurityCheck.acknowledgementsOf(this);
    return acks.length > 0 ? Acknowledgements.format(acks) : undefined;
  }

  /**
   * The agent's own objects as rendered, for the review: its workload (`daemonSet`, when already rendered) and the
   * context the rules read (ServiceAccount, RBAC). The shared Namespace is left out: no rule reads it, and rendering it
   * would evaluate every agent of the namespace, once per agent.
   */
  private renderedObjects(daemonSet?: any): any[] {
    return this.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c))
      .map((o) => (o === this.daemonSet && daemonSet !== undefined ? daemonSet : renderUnchecked(o)));
  }

  private reviewOf(objects: any[]): ReviewReport {
    return SecurityReview.review(objects, this.reviewOptions());
  }

  private reviewOptions(): ReviewOptions {
    // the default packs, built once: their rules are stateless, and every agent reviews itself at every synth.
    defaultPacks ??= ReviewPack.defaults();
    return { packs: defaultPacks, podSecurityVersion: this.podSecurityVersion, allowedRegistries: this.props.allowedRegistries };
  }

  private renderSpec(): any {
    const p = this.props;
    const updateStrategy: any = { type: this.updateStrategy.type };
    if (this.updateStrategy.type === 'RollingUpdate') updateStrategy.rollingUpdate = renderRollingUpdate(this.updateStrategy);

    return {
      selector: { matchLabels: { ...this.selectorLabels } },
      updateStrategy,
      minReadySeconds: p.minReady?.toSeconds(),
      revisionHistoryLimit: p.revisionHistoryLimit ?? 10,
      template: {
        metadata: {
          labels: { ...this.labels },
          annotations: this.renderPodAnnotations(),
        },
        spec: this.renderPodSpec(),
      },
    };
  }

  /** the pod template's annotations: the user's and the config checksum; undefined when there are none. */
  private renderPodAnnotations(): { [key: string]: string } | undefined {
    const p = this.props;
    const podAnnotations: { [key: string]: string } = { ...p.podAnnotations ?? {} };
    if (p.configFiles) podAnnotations['checksum/config'] = configChecksum(p.configFiles);
    return Object.keys(podAnnotations).length > 0 ? podAnnotations : undefined;
  }

  private renderPodSpec(): any {
    const p = this.props;
    const containers = this.allContainers();
    const allRoot = containers.some((c) => c.runsAsRoot);
    const { names, errors } = this.volumeNames();
    // the checked rendering reports these first, with the construct path; this guards every other rendering.
    if (errors.length > 0) fail(this, errors.join('; '));
    const nameOf = (key: string) => names.get(key)!;
    return {
      serviceAccountName: this.name,
      automountServiceAccountToken: this.mountsToken(),
      priorityClassName: this.priorityClassName,
      hostNetwork: p.hostNetwork ? true : undefined,
      hostPID: p.hostPID ? true : undefined,
      hostIPC: p.hostIPC ? true : undefined,
      dnsPolicy: p.dnsPolicy ?? (p.hostNetwork ? kplus().DnsPolicy.CLUSTER_FIRST_WITH_HOST_NET : undefined),
      terminationGracePeriodSeconds: p.terminationGracePeriod?.toSeconds(),
      securityContext: {
        runAsNonRoot: allRoot ? undefined : true,
        fsGroup: p.fsGroup,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      nodeSelector: Object.keys(this.nodeSelector).length > 0 ? { ...this.nodeSelector } : undefined,
      affinity: this.renderAffinity(),
      tolerations: this.tolerations.length > 0 ? this.tolerations.map(renderToleration) : undefined,
      initContainers: this.initContainers.length > 0 ? this.initContainers.map((c) => c.toJson(nameOf)) : undefined,
      containers: [this.main, ...this.sidecars].map((c) => c.toJson(nameOf)),
      volumes: this.renderVolumes(names),
    };
  }

  private renderAffinity(): any {
    const required = this.props.requiredNodeAffinity ?? [];
    const preferred = this.props.preferredNodeAffinity ?? [];
    if (required.length === 0 && preferred.length === 0) return undefined;
    return {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: required.length > 0
          ? { nodeSelectorTerms: required.map((t) => renderTerm(t.requirements)) }
          : undefined,
        preferredDuringSchedulingIgnoredDuringExecution: preferred.length > 0
          ? preferred.map((t) => ({ weight: t.weight, preference: renderTerm(t.requirements) }))
          : undefined,
      },
    };
  }

  /**
   * The pod's volume names: host paths, scratch directories and the config volume, unique even where
   * derived names would collide; plus errors for conflicting host mounts and chosen names.
   */
  private volumeNames(): { names: Map<string, string>; errors: string[] } {
    const requests: VolumeRequest[] = [];
    const sources = new Map<string, { hostPath: string; type: string; container: string }>();
    const errors: string[] = [];
    for (const c of this.allContainers()) {
      for (const { volume } of c.hostVolumes()) {
        const seen = sources.get(volume.key);
        if (seen && (normalisePath(seen.hostPath) !== normalisePath(volume.hostPath) || seen.type !== volume.type)) {
          errors.push(`host mounts: ${volume.explicit ? `volume "${volume.name}"` : `host path ${volume.hostPath}`} is mounted as ${seen.hostPath} (${seen.type || 'untyped'}) in container "${seen.container}" and as ${volume.hostPath} (${volume.type || 'untyped'}) in container "${c.name}": mount the same path with the same type, or give one of them another volumeName`);
          continue;
        }
        sources.set(volume.key, { hostPath: volume.hostPath, type: volume.type, container: c.name });
        requests.push({ key: volume.key, name: volume.name, explicit: volume.explicit, describe: `host path ${volume.hostPath}` });
      }
      for (const scratch of c.scratchVolumes()) {
        requests.push({ key: scratch.key, name: scratch.name, explicit: false, describe: `scratch directory ${scratch.dir} of container "${c.name}"` });
      }
    }
    const reserved: { [name: string]: string } = this.configMap ? { config: 'the config files' } : {};
    const assigned = assignVolumeNames(requests, reserved);
    return { names: assigned.names, errors: [...errors, ...assigned.errors] };
  }

  private renderVolumes(names: Map<string, string>): any[] | undefined {
    const volumes = new Map<string, any>();
    for (const c of this.allContainers()) {
      for (const { volume } of c.hostVolumes()) {
        const name = names.get(volume.key)!;
        volumes.set(name, { name, hostPath: { path: volume.hostPath, type: volume.type || undefined } });
      }
      for (const s of c.scratchVolumes()) {
        const name = names.get(s.key)!;
        volumes.set(name, { name, emptyDir: {} });
      }
    }
    if (this.configMap) {
      volumes.set('config', { name: 'config', configMap: { name: `${this.name}-config` } });
    }
    const list = [...volumes.values()];
    return list.length > 0 ? list : undefined;
  }

  private createService(options: AgentServiceOptions, labels: { [key: string]: string }): ApiObject {
    if (!Array.isArray(options.ports) || options.ports.length === 0) {
      fail(this, 'service.ports is empty: name at least one port of the main container, e.g. ports: [\'metrics\']');
    }
    const declared = this.props.ports ?? [];
    const ports = options.ports.map((name) => {
      const port = declared.find((p) => p.name === name);
      if (!port) {
        fail(this, `service.ports: "${name}" is not a port of the main container (ports: [${declared.map((p) => p.name).join(', ')}]): declare it in ports first`);
      }
      return { name, port: port.containerPort, targetPort: name, protocol: port.protocol ?? 'TCP' };
    });
    for (const k of Object.keys(options.annotations ?? {})) checkLabelKey(this, 'service.annotations', k);
    return new ApiObject(this, 'Service', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: this.name, namespace: this.namespace, labels, annotations: options.annotations ? { ...options.annotations } : undefined },
      spec: {
        type: 'ClusterIP',
        selector: { ...this.selectorLabels },
        ports,
        internalTrafficPolicy: options.nodeLocal ? 'Local' : undefined,
      },
    });
  }

  private createRbac(cluster: boolean): { role: ApiObject; binding: ApiObject } {
    const rules = cluster ? this.clusterRules : this.namespaceRules;
    const roleKind = cluster ? 'ClusterRole' : 'Role';
    // namespace and name cannot contain ':', so the cluster-wide name is unique per agent.
    const roleName = cluster ? `${this.namespace}:${this.name}` : this.name;
    const labels = { ...this.labels, 'app.kubernetes.io/managed-by': 'cdk8s-node-agents' };
    const role = new ApiObject(this, roleKind, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: roleKind,
      metadata: { name: roleName, namespace: cluster ? undefined : this.namespace, labels },
      rules: Lazy.any({ produce: () => rules.map(renderRule) }),
    });
    const binding = new ApiObject(this, `${roleKind}Binding`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: `${roleKind}Binding`,
      metadata: { name: roleName, namespace: cluster ? undefined : this.namespace, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName },
      subjects: [{ kind: 'ServiceAccount', name: this.name, namespace: this.namespace }],
    });
    if (cluster && Chart.of(this).namespace !== undefined) {
      // cluster-scoped objects carry no namespace, whatever the chart's default.
      role.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
      binding.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    }
    return { role, binding };
  }

  // ---------------------------------------------------------------- validation

  /** mounts the config files into an init container or sidecar that asks for them. */
  private mountConfigInto(container: AgentContainer, mountPath: string | undefined, field: string): void {
    if (mountPath === undefined) return;
    const where = `${field}[${container.name}].configMountPath`;
    if (this.props.configFiles === undefined) {
      fail(this, `${where} is set but the agent has no configFiles: give configFiles, or remove configMountPath`);
    }
    checkAbsolutePath(this, where, mountPath);
    container.addVolumeMount('config', mountPath);
  }

  private checkContainerName(name: string | undefined, field: string): void {
    if (typeof name !== 'string') fail(this, `${field}: every container needs a name`);
    const taken = [this.main?.name, ...this.initContainers.map((c) => c.name), ...this.sidecars.map((c) => c.name)];
    if (taken.includes(name)) fail(this, `${field}: container name "${name}" is already used in this pod: give each container its own name`);
  }

  private checkRule(field: string, rule: AccessRule): void {
    if (!rule || !Array.isArray(rule.verbs) || rule.verbs.length === 0) fail(this, `${field}: each rule needs at least one verb, e.g. { resources: ['pods'], verbs: ['get', 'list', 'watch'] }`);
    if (!Array.isArray(rule.resources) || rule.resources.length === 0) fail(this, `${field}: each rule needs at least one resource, e.g. { resources: ['pods'], verbs: ['get'] }`);
    if (rule.resourceNames !== undefined && rule.resourceNames.length === 0) fail(this, `${field}: resourceNames is empty, which Kubernetes reads as "every object": leave it out or list the names`);
  }

  private checkAffinity(required: NodeAffinityTerm[] | undefined, preferred: WeightedNodeAffinityTerm[] | undefined): void {
    if (required !== undefined && required.length === 0) {
      fail(this, 'requiredNodeAffinity is empty: Kubernetes rejects a node selector without terms; leave it out or give at least one term');
    }
    (required ?? []).forEach((t, i) => this.checkTerm(`requiredNodeAffinity[${i}]`, t));
    (preferred ?? []).forEach((t, i) => {
      this.checkTerm(`preferredNodeAffinity[${i}]`, t);
      checkInteger(this, `preferredNodeAffinity[${i}].weight`, t.weight, 1, 100);
    });
  }

  private checkTerm(field: string, term: NodeAffinityTerm): void {
    if (!term || !Array.isArray(term.requirements) || term.requirements.length === 0) {
      fail(this, `${field} has no requirements: an empty term matches no node; give at least one NodeRequirement`);
    }
    for (const r of term.requirements) {
      if (!(r instanceof NodeRequirement)) fail(this, `${field}: requirements must be created with NodeRequirement.in(), notIn(), exists(), doesNotExist(), greaterThan(), lessThan(), named() or notNamed()`);
      if (r.target === 'label') checkLabelKey(this, field, r.key);
      if (r.operator === 'In' || r.operator === 'NotIn') {
        if (!r.values || r.values.length === 0) fail(this, `${field}: ${r.operator} on "${r.key}" needs at least one value`);
        for (const v of r.values) {
          if (r.target === 'label') checkLabelValue(this, `${field} ${r.key}`, v);
          else checkDnsSubdomain(this, `${field} node name`, v);
        }
      }
      if (r.operator === 'Gt' || r.operator === 'Lt') {
        const n = Number(r.values?.[0]);
        if (!Number.isSafeInteger(n)) fail(this, `${field}: ${r.operator} on "${r.key}" needs a whole number, got ${r.values?.[0]}`);
      }
    }
  }

  private checkUpdateStrategy(s: AgentUpdateStrategy): void {
    if (!(s instanceof AgentUpdateStrategy)) fail(this, 'updateStrategy must be created with AgentUpdateStrategy.rollingUpdate() or onDelete()');
    if (s.type !== 'RollingUpdate') return;
    const { maxUnavailable, maxSurge } = renderRollingUpdate(s);
    try {
      // the model holds the API server's rules; this only adds the construct path to its message.
      RolloutPlan.validate(maxUnavailable, maxSurge);
    } catch (e) {
      fail(this, `updateStrategy: ${(e as Error).message}`);
    }
  }

  /** the validation: renders and checks the DaemonSet once per App.synth()/synthYaml(); elsewhere, nothing. */
  private checkOncePerSynth(): string[] {
    const synth = currentSynth(this.synths);
    if (synth === undefined) return [];
    if (this.checkedInSynth?.synth !== synth) this.checkedInSynth = { synth, ...this.renderAndCheck() };
    return this.checkedInSynth.errors;
  }

  /**
   * The DaemonSet's `toJson()`: in a synth whose validation checked it, the manifest it checked (nothing can change in
   * between); otherwise rendered and checked now. Throws every error at once, each with the construct path, in the
   * form cdk8s reports validation errors.
   */
  private renderChecked(): any {
    const checked = this.checkedInSynth;
    if (checked?.manifest !== undefined && checked.synth === currentSynth(this.synths) && checked.errors.length === 0) {
      // handed over once: the synth writes it, the agent does not keep it
      this.checkedInSynth = { synth: checked.synth, errors: checked.errors };
      return checked.manifest;
    }
    const { manifest, errors } = this.renderAndCheck();
    if (errors.length > 0) {
      throw new Error(`Validation failed with the following errors:\n  ${errors.map((e) => `[${this.node.path}] ${e}`).join('\n  ')}`);
    }
    return manifest;
  }

  /**
   * Renders the DaemonSet and checks the result (props, later calls and JSON patches alike): every host privilege must
   * carry a reason, host ports must not clash, Bidirectional propagation needs a privileged container, and the security
   * review must find nothing open at or above `reviewFailOn`.
   */
  private renderAndCheck(): { manifest?: any; errors: string[] } {
    // volume conflicts first: rendering depends on them.
    const volumeErrors = this.volumeNames().errors;
    if (volumeErrors.length > 0) return { errors: volumeErrors };
    const manifest = this.checkedDaemonSet.renderUnchecked();
    return { manifest, errors: this.checkRendered(manifest) };
  }

  private checkRendered(manifest: any): string[] {
    const errors: string[] = [];
    const podSpec = manifest.spec?.template?.spec ?? {};
    let recorded: HostAccessReason[];
    try {
      recorded = HostAccessReasons.parse(manifest.metadata?.annotations);
    } catch (e) {
      return [(e as Error).message];
    }
    for (const item of HostAccess.of(podSpec)) {
      if (item.type === HostAccessType.HOST_PATH && item.readOnly) continue;
      if (!HostAccessReasons.find(recorded, item.type, item.detail, item.container)) {
        const where = item.container ? ` in container "${item.container}"` : '';
        errors.push(`${item.type}${item.detail ? ` ${item.detail}` : ''}${where} has no recorded reason: set it through the props (which take a reason) or call addHostAccessReason({ type: '${item.type}', detail: '${item.detail}', reason: '...' })`);
      }
    }
    // host ports, as the API server validates them (checkHostPortConflicts, validateHostNetwork): the pod's containers
    // run together and must not share a port; init containers run one at a time, so each is checked on its own; on
    // the host network a container's hostPort must equal its containerPort (init containers are not checked).
    const containers: any[] = podSpec.containers ?? [];
    const initContainers: any[] = podSpec.initContainers ?? [];
    for (const group of [containers, ...initContainers.map((c) => [c])]) {
      const hostPorts = new Map<string, string>();
      for (const container of group) {
        for (const port of container.ports ?? []) {
          if (!port.hostPort) continue;
          const key = `${port.hostPort}/${port.protocol ?? 'TCP'}${port.hostIP ? ` on ${port.hostIP}` : ''}`;
          if (hostPorts.has(key)) errors.push(`host port ${key} is bound by containers "${hostPorts.get(key)}" and "${container.name}": a node has each port once; use another hostPort`);
          hostPorts.set(key, container.name);
        }
      }
    }
    if (podSpec.hostNetwork) {
      for (const container of containers) {
        for (const port of container.ports ?? []) {
          if (port.hostPort && port.hostPort !== port.containerPort) {
            errors.push(`container "${container.name}" port ${port.name ?? port.containerPort}: on the host network hostPort (${port.hostPort}) must equal containerPort (${port.containerPort}), as the API server requires`);
          }
        }
      }
    }
    // the API server refuses a container that is privileged and also sets allowPrivilegeEscalation: false
    // (the library leaves the field out for privileged containers; a JSON patch can still add it).
    for (const container of [...initContainers, ...containers]) {
      const sc = container.securityContext ?? {};
      if (sc.privileged === true && sc.allowPrivilegeEscalation === false) {
        errors.push(`container "${container.name}" sets privileged: true and allowPrivilegeEscalation: false, which the API server rejects (a privileged container can always escalate): remove allowPrivilegeEscalation, or privileged`);
      }
    }
    for (const c of this.allContainers()) {
      if (c.bidirectionalMounts().length > 0 && !c.privileged) {
        errors.push(`container "${c.name}" mounts ${c.bidirectionalMounts().join(', ')} with Bidirectional propagation, which Kubernetes allows only in privileged containers: set privileged: { reason } on it, or use MountPropagation.HOST_TO_CONTAINER`);
      }
    }
    if (errors.length > 0) return errors;

    const threshold = this.props.reviewFailOn ?? Severity.HIGH;
    // without a JSON patch, every field was rendered from typed props: no rule can crash on it (a property test holds this).
    const open = SecurityReview._openFindings(this.renderedObjects(manifest), this.reviewOptions(), threshold, !this.checkedDaemonSet.hasPatches);
    for (const f of open) {
      errors.push(`security review: [${f.severity}] ${f.rule}: ${f.message}. Fix: ${f.fix}; or, if it is accepted, agent.acknowledge('${f.rule}', 'reason') (findings at or above ${threshold} fail the synth: reviewFailOn)`);
    }
    return errors;
  }
}

function renderRollingUpdate(s: AgentUpdateStrategy): { maxUnavailable: any; maxSurge?: any } {
  const surging = s.maxSurge !== undefined && !s.maxSurge.isZero();
  return {
    // the API defaults maxUnavailable to 1, which it then rejects beside a non-zero surge: say 0.
    maxUnavailable: s.maxUnavailable?.value ?? (surging ? 0 : 1),
    maxSurge: s.maxSurge?.value,
  };
}

function renderToleration(t: Toleration): any {
  return {
    key: t.key,
    operator: t.operator,
    value: t.value,
    effect: t.effect,
    tolerationSeconds: t.evictAfter?.toSeconds(),
  };
}

function renderTerm(requirements: NodeRequirement[]): any {
  const expressions = requirements.filter((r) => r.target === 'label');
  const fields = requirements.filter((r) => r.target === 'field');
  const render = (r: NodeRequirement) => ({ key: r.key, operator: r.operator, values: r.values });
  return {
    matchExpressions: expressions.length > 0 ? expressions.map(render) : undefined,
    matchFields: fields.length > 0 ? fields.map(render) : undefined,
  };
}

function renderRule(r: AccessRule): any {
  return {
    apiGroups: r.apiGroups ?? [''],
    resources: [...r.resources],
    verbs: [...r.verbs],
    resourceNames: r.resourceNames ? [...r.resourceNames] : undefined,
  };
}

function configChecksum(files: { [fileName: string]: string }): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(files).sort()) hash.update(`${name}\u0000${files[name]}\u0000`);
  return hash.digest('hex');
}
