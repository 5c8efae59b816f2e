import { ApiObject, Chart, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { AgentPod } from './_agent-pod';
import { identityErrorsOf } from './_app-identity';
import { CheckedApiObject, renderUnchecked } from './_checked-api-object';
import { AgentIdentity } from './_identity';
import { addMetrics } from './_metrics';
import { AgentNamespace } from './_namespace';
import { ACCESS_RULE, AGENT_CONTAINER_PROPS, checkArgument, checkProps, HOST_ACCESS_REASON, HOST_MOUNT, METRICS_MONITOR, Shape, TOLERATION } from './_props-schema';
import { SynthGate } from './_synth-gate';
import { checkAbsolutePath, checkDnsLabel, checkDnsSubdomain, checkLabelKey, checkLabelValue, checkReason, fail, hasOwn, show } from './_validate';
import { AccessRule } from './access-rule';
import { AgentContainerProps } from './container-options';
import { HostMount } from './host-mount';
import { AgentMetricsObjects, MetricsMonitor } from './metrics-monitor';
import { NodeAgentProps } from './node-agent-props';
import { RegistryMirror } from './registry-mirror';
import { SecurityCheck } from './security-check';
import { Toleration } from './toleration';
import { AgentUpdateStrategy } from './update-strategy';
import { withReasonAnnotations } from '../model/_reason-annotations';
import { CoveragePlan, DaemonSetCoverage } from '../model/daemon-set-coverage';
import { HostAccessReason, HostAccessReasons } from '../model/host-access-reasons';
import { HostAccessType } from '../model/host-access-type';
import { PodSecurity, PodSecurityLevel } from '../model/pod-security';
import { RolloutPlan } from '../model/rollout-plan';
import { Acknowledgements } from '../review/acknowledgement';
import { ReviewOptions } from '../review/review-options';
import { ReviewPack } from '../review/review-pack';
import { ReviewReport } from '../review/review-report';
import { SecurityReview } from '../review/security-review';
import { Severity } from '../review/severity';

/** `ReviewPack.defaults()`, built on the first review. */
let defaultPacks: ReviewPack[] | undefined;
const IS_NODE_AGENT = Symbol.for('cdk8s-node-agents.NodeAgent');
const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'cdk8s-node-agents' };

/**
 * A node agent: a DaemonSet that runs one pod on every eligible node, with everything it needs and
 * nothing more.
 *
 * It renders a DaemonSet, a dedicated ServiceAccount, RBAC when permissions are declared, a ConfigMap
 * when config files are given and (unless told the namespace exists) a Namespace labelled for Pod
 * Security admission. Containers are locked down by default; each host privilege is an explicit
 * opt-in with a written reason, recorded on the DaemonSet in the `node-agents.cdk8s.io/host-access`
 * annotation. At synth the DaemonSet is rendered once (with your JSON patches) and checked: a host
 * privilege without a recorded reason, a pod spec the API server would reject, or a review finding at
 * or above `reviewFailOn` fails the synth with the construct path. What goes into the manifest is
 * exactly what was checked.
 *
 * Every prop is checked for its type and shape first, as JavaScript callers have no types to stop a mistake: a wrong
 * type or an unknown prop fails with the field, the value received and the fix (the closest prop, for a misspelling).
 * `null` counts as not set.
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
   * the API server's rules, the security review) and throws when the check fails; `review()` inspects a failing agent.
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
  private readonly pod: AgentPod;
  private readonly identity: AgentIdentity;
  private readonly extraReasons: HostAccessReason[] = [];
  /** the containers whose declared file capabilities are acknowledged already. */
  private readonly fileCapabilitiesAcknowledged = new Set<string>();
  private readonly checkedDaemonSet: CheckedApiObject;
  private readonly gate: SynthGate;
  private readonly inNamespace: (o: ApiObject) => void;
  private readonly objectLabels: { [key: string]: string };

  constructor(scope: Construct, id: string, props: NodeAgentProps) {
    super(scope, id);
    Object.defineProperty(this, IS_NODE_AGENT, { value: true });
    // every value a caller passes is checked for its type and shape first (plain JavaScript has no types to stop it), and
    // kept as checked: the code below reads the normalised copy, never the caller's object.
    props = checkProps<NodeAgentProps>((message) => fail(this, message), props);
    this.props = props;

    this.name = props.name ?? id;
    checkDnsLabel(this, 'name', this.name);
    this.namespace = props.namespace ?? Chart.of(this).namespace ?? this.name;
    checkDnsLabel(this, 'namespace', this.namespace);
    this.podSecurityVersion = this.checkPodSecurityVersion(props.podSecurityVersion ?? PodSecurity.DEFAULT_VERSION);
    this.selectorLabels = { 'app.kubernetes.io/name': this.name };
    const labels = this.checkLabels(props);
    if (props.priorityClassName !== undefined) checkDnsSubdomain(this, 'priorityClassName', props.priorityClassName);
    this.priorityClassName = props.priorityClassName;
    if (props.reviewFailOn !== undefined && !Object.values(Severity).includes(props.reviewFailOn)) {
      fail(this, `reviewFailOn ${show(props.reviewFailOn)} is not one of ${Object.values(Severity).join(', ')}`);
    }
    this.updateStrategy = props.updateStrategy ?? AgentUpdateStrategy.rollingUpdate();
    if (!(this.updateStrategy instanceof AgentUpdateStrategy)) fail(this, 'updateStrategy must be created with AgentUpdateStrategy.rollingUpdate() or onDelete()');

    const configMapName = props.configFiles !== undefined ? `${this.name}-config` : undefined;
    this.pod = new AgentPod(this, props, {
      name: this.name,
      labels,
      selectorLabels: this.selectorLabels,
      priorityClassName: this.priorityClassName,
      updateStrategy: this.updateStrategy,
      configMapName,
      mountsToken: () => this.identity.mountsToken(),
    });

    const ns = props.createNamespace ?? true
      ? AgentNamespace.join(this, this.namespace, this.podSecurityVersion, () => this.podSecurityLevel)
      : undefined;
    this.namespaceObject = ns?.apiObject;
    this.inNamespace = (o) => ns?.precede(o);
    const objectLabels = { ...labels, ...MANAGED_BY };
    this.objectLabels = objectLabels;
    this.identity = new AgentIdentity(this, {
      name: this.name,
      namespace: this.namespace,
      selectorLabels: this.selectorLabels,
      labels: objectLabels,
      automountServiceAccountToken: props.automountServiceAccountToken,
      inNamespace: this.inNamespace,
    });
    this.serviceAccount = this.identity.serviceAccount;
    if (props.configFiles !== undefined) this.configMap = this.createConfig(props.configFiles, props.configMountPath ?? `/etc/${this.name}`);
    else if (props.configMountPath !== undefined) fail(this, 'configMountPath is set but configFiles is not: give the files to mount, or remove configMountPath');
    for (const r of props.clusterPermissions ?? []) this.addClusterPermission(r);
    for (const r of props.namespacePermissions ?? []) this.addNamespacePermission(r);
    if (props.service) this.service = this.identity.createService(props.service, props.ports ?? []);

    this.checkedDaemonSet = new CheckedApiObject(this, 'Resource', {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: this.name, namespace: this.namespace, labels: objectLabels },
      spec: Lazy.any({ produce: () => this.pod.renderSpec() }),
    }, () => this.gate.renderChecked());
    this.daemonSet = this.checkedDaemonSet;
    ns?.precede(this.daemonSet);
    // the acknowledgements that apply to the agent travel with its manifest, for reviews of the YAML.
    this.daemonSet.metadata.addAnnotation(Acknowledgements.ANNOTATION, Lazy.any({ produce: () => this.acknowledgementsAnnotation() }) as any);
    // rendered at synth, so privileges added after construction are recorded too; left out when empty.
    this.daemonSet.metadata.addAnnotation(HostAccessReasons.ANNOTATION, Lazy.any({ produce: () => this.reasonsAnnotation() }) as any);
    // each reason again as one annotation per privilege, the form the admission policy's CEL reads, rendered with
    // the rest of the metadata (before any JSON patch, which sees them as it sees every other rendered field)
    const renderMetadata = this.daemonSet.metadata.toJson.bind(this.daemonSet.metadata);
    this.daemonSet.metadata.toJson = () => withReasonAnnotations(renderMetadata());

    this.gate = new SynthGate({
      scope: this,
      daemonSet: this.checkedDaemonSet,
      renderErrors: () => this.pod.renderErrors(),
      renderedObjects: (daemonSet) => this.renderedObjects(daemonSet),
      reviewOptions: () => this.reviewOptions(),
      threshold: props.reviewFailOn ?? Severity.HIGH,
    });
    this.node.addValidation({ validate: () => [...identityErrorsOf(this), ...this.gate.checkOncePerSynth()] });
    this.acknowledgeFileCapabilities();
  }

  // ---------------------------------------------------------------- mutators

  /** adds a toleration. */
  public addToleration(toleration: Toleration): void {
    this.pod.addToleration(this.argument('addToleration(toleration)', toleration, TOLERATION));
  }

  /** requires a node label with exactly this value. */
  public addNodeSelector(key: string, value: string): void {
    this.pod.addNodeSelector(key, value);
  }

  /** mounts a host path into the main container. */
  public addHostMount(mount: HostMount): void {
    this.pod.main.addHostMount(this.argument('addHostMount(mount)', mount, HOST_MOUNT));
  }

  /** adds an environment variable to the main container. */
  public addEnv(name: string, value: string): void {
    this.pod.main.addEnv(name, value);
  }

  /** adds an init container (run in order, before the agent). */
  public addInitContainer(props: AgentContainerProps): void {
    this.pod.addInitContainer(this.argument('addInitContainer(props)', props, AGENT_CONTAINER_PROPS));
    this.acknowledgeFileCapabilities();
  }

  /** adds a sidecar container. */
  public addSidecar(props: AgentContainerProps): void {
    this.pod.addSidecar(this.argument('addSidecar(props)', props, AGENT_CONTAINER_PROPS));
    this.acknowledgeFileCapabilities();
  }

  /** grants the ServiceAccount a cluster-wide RBAC rule (creates the ClusterRole and its binding). */
  public addClusterPermission(rule: AccessRule): void {
    this.identity.addClusterPermission(this.argument('addClusterPermission(rule)', rule, ACCESS_RULE));
  }

  /** grants the ServiceAccount an RBAC rule in the agent's namespace (creates the Role and its binding). */
  public addNamespacePermission(rule: AccessRule): void {
    this.identity.addNamespacePermission(this.argument('addNamespacePermission(rule)', rule, ACCESS_RULE));
  }

  /**
   * Adds a Prometheus operator ServiceMonitor or PodMonitor for the agent's metrics port (and, with `allowFrom`, a
   * NetworkPolicy admitting only the scrapers to it). The Prometheus operator's CRDs must be installed in the cluster.
   *
   * @param monitor `MetricsMonitor.serviceMonitor(...)` or `MetricsMonitor.podMonitor(...)`
   */
  public addMetricsMonitor(monitor: MetricsMonitor): AgentMetricsObjects {
    monitor = this.argument('addMetricsMonitor(monitor)', monitor, METRICS_MONITOR);
    const p = this.props;
    return addMetrics(this, {
      name: this.name,
      namespace: this.namespace,
      selectorLabels: this.selectorLabels,
      labels: this.objectLabels,
      ports: p.ports ?? [],
      servicePorts: p.service?.ports,
      hostNetwork: p.hostNetwork !== undefined,
      inNamespace: this.inNamespace,
    }, monitor);
  }

  /**
   * Records the reason for a host privilege that the props do not express, e.g. one you add with a
   * JSON patch on `daemonSet`. Without it, the synth fails on that privilege.
   */
  public addHostAccessReason(reason: HostAccessReason): void {
    reason = this.argument('addHostAccessReason(reason)', reason, HOST_ACCESS_REASON);
    checkReason(this, `host access reason for ${reason.type} ${reason.detail}`, reason.reason);
    if (!Object.values(HostAccessType).includes(reason.type)) {
      fail(this, `host access reason: type "${reason.type}" is not one of ${Object.values(HostAccessType).join(', ')}`);
    }
    this.extraReasons.push({ ...reason, reason: reason.reason.trim() });
  }

  /**
   * Acknowledges a security-review finding for this agent, with the reason it is accepted. The finding
   * stays in the review, marked acknowledged, and no longer fails the synth.
   *
   * @param rule the rule ID, e.g. `NA-PRIORITY-CLASS`: one of RULES.md (an ID that starts with `NA-` or `PSS-` and is none
   * of them fails, with the closest; `NA-API-REJECTED` and `NA-REVIEW-ERROR` cannot be acknowledged), or the ID of a
   * custom pack's rule, which `SecurityCheck.apply` checks against its packs
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
    return SecurityReview.review(this.renderedObjects(), this.reviewOptions());
  }

  /** every host privilege the agent takes, with its reason, as recorded on the DaemonSet. */
  public get hostAccessReasons(): HostAccessReason[] {
    return [...this.pod.reasons(), ...this.extraReasons];
  }

  /** the strictest Pod Security level the rendered pod spec (including JSON patches) satisfies. */
  public get podSecurityLevel(): PodSecurityLevel {
    // in a synth, after its validation: the level the review evaluated on the DaemonSet it checked (which rendered: nothing
    // changes in between)
    const checked = this.gate.checkedPodSecurityLevel();
    if (checked !== undefined) return checked;
    this.assertRenderable();
    const version = this.podSecurityVersion;
    if (this.checkedDaemonSet.hasPatches) return this.named('podSecurityLevel', () => PodSecurity.evaluateWorkload(this.checkedDaemonSet.renderUnchecked(), { version }).level);
    // every agent's level sets its namespace's enforce label: without a JSON patch the pod template is the one the agent
    // renders, so it is read without rendering the whole DaemonSet a second time (a property test holds the two equal).
    // The annotations count: an unconfined AppArmor annotation takes the pod out of baseline, at every policy version.
    return PodSecurity.evaluate(this.pod.renderPodSpec(), { version, annotations: this.pod.renderPodAnnotations() ?? {} }).level;
  }

  /**
   * Predicts on which of these nodes the agent will run, and why not on the others, with the
   * DaemonSet controller's rules.
   *
   * @param nodes `v1` Node objects, e.g. the items of `kubectl get nodes -o json`
   */
  public coverage(nodes: any[]): CoveragePlan {
    this.assertRenderable();
    const daemonSet = this.checkedDaemonSet.renderUnchecked();
    return this.named('coverage', () => DaemonSetCoverage.plan(daemonSet, nodes));
  }

  /**
   * The rollout arithmetic for a cluster of `nodeCount` eligible nodes: budgets in nodes and the number of waves.
   */
  public rolloutPlan(nodeCount: number): RolloutPlan {
    this.assertRenderable();
    const daemonSet = this.checkedDaemonSet.renderUnchecked();
    return this.named('rolloutPlan', () => RolloutPlan.of(daemonSet, nodeCount));
  }

  // ---------------------------------------------------------------- internals

  /** a method's argument, checked against its shape (set, of its type), failing with the construct path. */
  private argument<T>(name: string, value: T, shape: Shape): T {
    return checkArgument<T>((message) => fail(this, message), name, value, shape);
  }

  /** the model's checks of a method's arguments, with the construct path and the method. */
  private named<T>(method: string, f: () => T): T {
    try {
      return f();
    } catch (e) {
      return fail(this, `${method}: ${(e as Error).message}`);
    }
  }

  private checkPodSecurityVersion(version: string): string {
    try {
      // fails early on a version the model does not know; this only adds the construct path.
      PodSecurity.versionLabel(version);
    } catch (e) {
      fail(this, `podSecurityVersion: ${(e as Error).message}`);
    }
    return version;
  }

  /** the labels of every object and pod: the selector labels and the user's, which may not override them. */
  private checkLabels(props: NodeAgentProps): { [key: string]: string } {
    for (const [k, v] of Object.entries(props.labels ?? {})) {
      checkLabelKey(this, 'labels', k);
      checkLabelValue(this, `labels.${k}`, v);
      if (hasOwn(this.selectorLabels, k) || hasOwn(MANAGED_BY, k)) {
        fail(this, `labels: "${k}" is set by the agent (its selector and identity labels): remove it from labels`);
      }
    }
    for (const [k, v] of Object.entries(props.podAnnotations ?? {})) {
      checkLabelKey(this, 'podAnnotations', k);
      if (typeof v !== 'string') fail(this, `podAnnotations.${k} must be a string, got ${show(v)}`);
    }
    return { ...this.selectorLabels, ...props.labels ?? {} };
  }

  /** the ConfigMap with the config files, mounted read-only into the main container. */
  private createConfig(files: { [fileName: string]: string }, mountPath: string): ApiObject {
    if (hasOwn(this.props.podAnnotations ?? {}, 'checksum/config')) {
      fail(this, 'podAnnotations: "checksum/config" is set by the agent from the config files (it rolls the agent when they change): remove it or use another key');
    }
    checkAbsolutePath(this, 'configMountPath', mountPath);
    const configMap = this.identity.createConfigMap(files);
    this.pod.main.addVolumeMount('config', mountPath);
    return configMap;
  }

  private reasonsAnnotation(): string | undefined {
    const reasons = this.hostAccessReasons;
    return reasons.length > 0 ? HostAccessReasons.format(reasons) : undefined;
  }

  /**
   * A non-root container's capabilities take effect only through its entrypoint's file capabilities, which the review
   * cannot see (NA-CAPABILITY-INERT): where the user declared them (`entrypointFileCapability`), the declaration accepts
   * the finding for that container.
   */
  private acknowledgeFileCapabilities(): void {
    for (const c of this.pod.allContainers()) {
      const declared = c.entrypointFileCapabilities();
      if (declared.length === 0 || this.fileCapabilitiesAcknowledged.has(c.name)) continue;
      this.fileCapabilitiesAcknowledged.add(c.name);
      this.acknowledge('NA-CAPABILITY-INERT', `declared with entrypointFileCapability: the entrypoint's file carries ${declared.join(', ')} ` +
        'as file capabilities', c.name);
    }
  }

  private acknowledgementsAnnotation(): string | undefined {
    const acks = SecurityCheck.acknowledgementsOf(this);
    return acks.length > 0 ? Acknowledgements.format(acks) : undefined;
  }

  /** fails with the construct path (rather than inside cdk8s' serializer) when the pod cannot be rendered. */
  private assertRenderable(): void {
    const errors = this.pod.renderErrors();
    if (errors.length > 0) fail(this, errors.join('; '));
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

  private reviewOptions(): ReviewOptions {
    // the default packs, built once: their rules are stateless, and every agent reviews itself at every synth.
    // frozen, so that the review reads their rules once (see rulesOf)
    defaultPacks ??= Object.freeze(ReviewPack.defaults().map((p) => Object.freeze(p.rules) && p)) as ReviewPack[];
    const mirror = RegistryMirror.find(this);
    return {
      packs: defaultPacks,
      podSecurityVersion: this.podSecurityVersion,
      allowedRegistries: this.props.allowedRegistries,
      registryMirrors: mirror ? [mirror.mirror] : undefined,
    };
  }
}
