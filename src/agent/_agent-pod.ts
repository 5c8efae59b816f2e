/**
 * Internal: a NodeAgent's pod template and DaemonSet spec. Not exported.
 *
 * Holds what goes into the pod (its containers, where it runs, the host namespaces it joins), validates each addition as
 * it comes, and renders the DaemonSet spec at synth, so that what is added after construction is rendered too.
 */
import { createHash } from 'node:crypto';
import { Construct } from 'constructs';
import { AgentContainer, ContainerRole, normalisePath } from './_container';
import { kplus } from './_plus';
import { rollingUpdateBudgets } from './_rollout';
import { checkAbsolutePath, checkDnsSubdomain, checkDuration, checkInteger, checkLabelKey, checkLabelValue, checkReason, fail, show } from './_validate';
import { assignVolumeNames, VolumeRequest } from './_volumes';
import { AgentContainerProps } from './container-options';
import { NodeAgentProps } from './node-agent-props';
import { NodeAffinityTerm, NodeRequirement, WeightedNodeAffinityTerm } from './node-requirement';
import { Toleration } from './toleration';
import { AgentUpdateStrategy } from './update-strategy';
import { HostAccessReason } from '../model/host-access-reasons';
import { HostAccessType } from '../model/host-access-type';

/** what the pod needs to know about the agent it belongs to. */
export interface AgentPodIdentity {
  readonly name: string;
  /** the labels of every object of the agent, which the pods carry too. */
  readonly labels: { [key: string]: string };
  readonly selectorLabels: { [key: string]: string };
  readonly priorityClassName?: string;
  readonly updateStrategy: AgentUpdateStrategy;
  /** the ConfigMap with the config files, mounted as volume `config`, when there is one. */
  readonly configMapName?: string;
  /** whether the pods mount the ServiceAccount token: decided at synth, when every permission is known. */
  readonly mountsToken: () => boolean;
}

export class AgentPod {
  public readonly main: AgentContainer;
  private readonly initContainers: AgentContainer[] = [];
  private readonly sidecars: AgentContainer[] = [];
  private readonly tolerations: Toleration[] = [];
  private readonly nodeSelector: { [key: string]: string } = {};

  constructor(private readonly scope: Construct, private readonly props: NodeAgentProps, private readonly identity: AgentPodIdentity) {
    const p = props;
    if (p.linuxOnly ?? true) this.nodeSelector['kubernetes.io/os'] = 'linux';
    for (const [k, v] of Object.entries(p.nodeSelector ?? {})) this.addNodeSelector(k, v);
    this.checkAffinity(p.requiredNodeAffinity, p.preferredNodeAffinity);
    for (const t of p.tolerations ?? []) this.addToleration(t);
    if (p.minReady !== undefined) checkDuration(scope, 'minReady', p.minReady);
    if (p.revisionHistoryLimit !== undefined) checkInteger(scope, 'revisionHistoryLimit', p.revisionHistoryLimit, 0, 2147483647);
    if (p.hostNetwork) checkReason(scope, 'hostNetwork', p.hostNetwork.reason);
    if (p.hostPID) checkReason(scope, 'hostPID', p.hostPID.reason);
    if (p.hostIPC) checkReason(scope, 'hostIPC', p.hostIPC.reason);
    if (p.fsGroup !== undefined) checkInteger(scope, 'fsGroup', p.fsGroup, 0, 2147483647);
    if (p.dnsPolicy === kplus().DnsPolicy.NONE) {
      fail(scope, 'dnsPolicy None needs a dnsConfig, which NodeAgent does not model: use ClusterFirst, ClusterFirstWithHostNet or Default, or patch spec.template.spec.dnsConfig in with daemonSet.addJsonPatch');
    }
    if (p.terminationGracePeriod !== undefined) checkDuration(scope, 'terminationGracePeriod', p.terminationGracePeriod);
    const pullSecrets = new Set<string>();
    for (const name of p.imagePullSecrets ?? []) {
      checkDnsSubdomain(scope, 'imagePullSecrets', name);
      if (pullSecrets.has(name)) fail(scope, `imagePullSecrets: "${name}" is listed twice: list each Secret once`);
      pullSecrets.add(name);
    }

    this.main = new AgentContainer(scope, p.containerName ?? 'agent', ContainerRole.MAIN, p, p.allowedRegistries);
    for (const c of p.initContainers ?? []) this.addInitContainer(c);
    for (const c of p.sidecars ?? []) this.addSidecar(c);
  }

  // ---------------------------------------------------------------- additions

  public addToleration(toleration: Toleration): void {
    // the factories validate each toleration; the pod checks only what depends on the others.
    if (!(toleration instanceof Toleration)) fail(this.scope, 'tolerations must be created with Toleration.controlPlane(), exists(), equal(), allNoSchedule() or everything()');
    const t = toleration;
    const same = this.tolerations.find((o) => o.key === t.key && o.operator === t.operator && o.value === t.value && o.effect === t.effect);
    if (same) fail(this.scope, `tolerations: the toleration for "${t.key ?? '*'}" (${t.operator}${t.effect ? `, ${t.effect}` : ''}) is given twice`);
    this.tolerations.push(t);
  }

  public addNodeSelector(key: string, value: string): void {
    checkLabelKey(this.scope, 'nodeSelector', key);
    if (typeof value !== 'string') fail(this.scope, `nodeSelector.${key} must be a string (use "" for a label without value), got ${show(value)}`);
    checkLabelValue(this.scope, `nodeSelector.${key}`, value);
    this.nodeSelector[key] = value;
  }

  public addInitContainer(props: AgentContainerProps): void {
    this.checkContainerName(props?.name, 'initContainers');
    const container = new AgentContainer(this.scope, props.name, ContainerRole.INIT, props, this.props.allowedRegistries);
    this.mountConfigInto(container, props.configMountPath, 'initContainers');
    this.initContainers.push(container);
  }

  public addSidecar(props: AgentContainerProps): void {
    this.checkContainerName(props?.name, 'sidecars');
    const container = new AgentContainer(this.scope, props.name, ContainerRole.SIDECAR, props, this.props.allowedRegistries);
    this.mountConfigInto(container, props.configMountPath, 'sidecars');
    this.sidecars.push(container);
  }

  // ---------------------------------------------------------------- queries

  public allContainers(): AgentContainer[] {
    return [...this.initContainers, this.main, ...this.sidecars];
  }

  /** the reasons given through the props for the host privileges they grant (pod-level and per container). */
  public reasons(): HostAccessReason[] {
    const reasons: HostAccessReason[] = [];
    const p = this.props;
    if (p.hostNetwork) reasons.push({ type: HostAccessType.HOST_NETWORK, detail: '', reason: p.hostNetwork.reason.trim() });
    if (p.hostPID) reasons.push({ type: HostAccessType.HOST_PID, detail: '', reason: p.hostPID.reason.trim() });
    if (p.hostIPC) reasons.push({ type: HostAccessType.HOST_IPC, detail: '', reason: p.hostIPC.reason.trim() });
    for (const c of this.allContainers()) reasons.push(...c.reasons());
    return reasons;
  }

  /** the conflicts that stop the pod from rendering (volumes mounted two ways, names taken twice). */
  public renderErrors(): string[] {
    return this.volumeNames().errors;
  }

  // ---------------------------------------------------------------- rendering

  /** the DaemonSet's spec. */
  public renderSpec(): any {
    const p = this.props;
    const strategy = this.identity.updateStrategy;
    const updateStrategy: any = { type: strategy.type };
    if (strategy.type === 'RollingUpdate') updateStrategy.rollingUpdate = rollingUpdateBudgets(strategy.maxUnavailable, strategy.maxSurge);
    return {
      selector: { matchLabels: { ...this.identity.selectorLabels } },
      updateStrategy,
      minReadySeconds: p.minReady?.toSeconds(),
      revisionHistoryLimit: p.revisionHistoryLimit ?? 10,
      template: {
        metadata: {
          labels: { ...this.identity.labels },
          annotations: this.renderPodAnnotations(),
        },
        spec: this.renderPodSpec(),
      },
    };
  }

  /** the pod template's annotations: the user's and the config checksum; undefined when there are none. */
  public renderPodAnnotations(): { [key: string]: string } | undefined {
    const p = this.props;
    const podAnnotations: { [key: string]: string } = { ...p.podAnnotations ?? {} };
    if (p.configFiles) podAnnotations['checksum/config'] = configChecksum(p.configFiles);
    return Object.keys(podAnnotations).length > 0 ? podAnnotations : undefined;
  }

  public renderPodSpec(): any {
    const p = this.props;
    const containers = this.allContainers();
    const allRoot = containers.some((c) => c.runsAsRoot);
    const { names, errors } = this.volumeNames();
    // the checked rendering reports these first, with the construct path; this guards every other rendering.
    if (errors.length > 0) fail(this.scope, errors.join('; '));
    const nameOf = (key: string) => names.get(key)!;
    return {
      serviceAccountName: this.identity.name,
      automountServiceAccountToken: this.identity.mountsToken(),
      priorityClassName: this.identity.priorityClassName,
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
      imagePullSecrets: this.renderPullSecrets(),
      initContainers: this.initContainers.length > 0 ? this.initContainers.map((c) => c.toJson(nameOf)) : undefined,
      containers: [this.main, ...this.sidecars].map((c) => c.toJson(nameOf)),
      volumes: this.renderVolumes(names),
    };
  }

  /** the agent's pull secrets, each once (the app's registry mirror adds its own to the rendered manifest). */
  private renderPullSecrets(): { name: string }[] | undefined {
    const names = [...new Set(this.props.imagePullSecrets ?? [])];
    return names.length > 0 ? names.map((name) => ({ name })) : undefined;
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
      for (const v of c.agentVolumes()) {
        requests.push({ key: v.key, name: v.name, explicit: v.explicit, describe: `the ${v.volume.kind} volume at ${v.volume.mountPath} of container "${c.name}"` });
      }
    }
    const reserved: { [name: string]: string } = this.identity.configMapName ? { config: 'the config files' } : {};
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
      for (const v of c.agentVolumes()) {
        const name = names.get(v.key)!;
        volumes.set(name, { name, ...v.source });
      }
    }
    if (this.identity.configMapName) {
      volumes.set('config', { name: 'config', configMap: { name: this.identity.configMapName } });
    }
    const list = [...volumes.values()];
    return list.length > 0 ? list : undefined;
  }

  // ---------------------------------------------------------------- checks across values

  /** mounts the config files into an init container or sidecar that asks for them. */
  private mountConfigInto(container: AgentContainer, mountPath: string | undefined, field: string): void {
    if (mountPath === undefined) return;
    const where = `${field}[${container.name}].configMountPath`;
    if (this.props.configFiles === undefined) {
      fail(this.scope, `${where} is set but the agent has no configFiles: give configFiles, or remove configMountPath`);
    }
    checkAbsolutePath(this.scope, where, mountPath);
    container.addVolumeMount('config', mountPath);
  }

  private checkContainerName(name: string | undefined, field: string): void {
    if (typeof name !== 'string') fail(this.scope, `${field}: every container needs a name`);
    const taken = [this.main?.name, ...this.initContainers.map((c) => c.name), ...this.sidecars.map((c) => c.name)];
    if (taken.includes(name)) fail(this.scope, `${field}: container name "${name}" is already used in this pod: give each container its own name`);
  }

  private checkAffinity(required: NodeAffinityTerm[] | undefined, preferred: WeightedNodeAffinityTerm[] | undefined): void {
    if (required !== undefined && required.length === 0) {
      fail(this.scope, 'requiredNodeAffinity is empty: Kubernetes rejects a node selector without terms; leave it out or give at least one term');
    }
    (required ?? []).forEach((t, i) => this.checkTerm(`requiredNodeAffinity[${i}]`, t));
    (preferred ?? []).forEach((t, i) => {
      this.checkTerm(`preferredNodeAffinity[${i}]`, t);
      checkInteger(this.scope, `preferredNodeAffinity[${i}].weight`, t.weight, 1, 100);
    });
  }

  private checkTerm(field: string, term: NodeAffinityTerm): void {
    // the factories validate each requirement; a term must have at least one, made by them.
    if (!term || !Array.isArray(term.requirements) || term.requirements.length === 0) {
      fail(this.scope, `${field} has no requirements: an empty term matches no node; give at least one NodeRequirement`);
    }
    for (const r of term.requirements) {
      if (!(r instanceof NodeRequirement)) fail(this.scope, `${field}: requirements must be created with NodeRequirement.isIn(), notIn(), exists(), doesNotExist(), greaterThan(), lessThan(), named() or notNamed()`);
    }
  }
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

function configChecksum(files: { [fileName: string]: string }): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(files).sort()) hash.update(`${name}\u0000${files[name]}\u0000`);
  return hash.digest('hex');
}
