/**
 * Internal: validates one container's options and renders it as Kubernetes JSON. Not exported.
 */
import { Size } from 'cdk8s';
import type { Cpu } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { checkImage } from './_image';
import { kplus } from './_plus';
import { checkAbsolutePath, checkDnsLabel, checkDuration, checkInteger, checkReason, checkSize, fail, hasOwn, show } from './_validate';
import { AgentProbe } from './agent-probe';
import { AgentVolume } from './agent-volume';
import { ContainerOptions } from './container-options';
import { EnvSource } from './env-source';
import { EnvValue } from './env-value';
import { HostMount } from './host-mount';
import { hostPathDetail, hostPortDetail } from '../model/_host-privileges';
import { HostAccessReason } from '../model/host-access-reasons';
import { HostAccessType } from '../model/host-access-type';
import { closest } from '../review/_guard';

/** environment variables every agent container gets from the downward API. */
export const DOWNWARD_ENV: { [name: string]: string } = {
  NODE_NAME: 'spec.nodeName',
  POD_NAME: 'metadata.name',
  POD_NAMESPACE: 'metadata.namespace',
};

/** the role of a container in the pod. */
export enum ContainerRole {
  MAIN = 'main',
  INIT = 'init',
  SIDECAR = 'sidecar',
}

/** a hostPath volume needed by a container. */
export interface HostVolume {
  /** identifies the volume: mounts with the same key share it. */
  readonly key: string;
  /** the chosen or derived name (see `_volumes.ts` for the final one). */
  readonly name: string;
  /** whether the user chose the name. */
  readonly explicit: boolean;
  readonly hostPath: string;
  readonly type: string;
}

/** normalised form used to compare paths: no trailing slash. */
export function normalisePath(p: string): string {
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/** a volume name derived from a host path: `/var/log` becomes `host-var-log`, `/` becomes `host-root`. */
export function volumeNameFor(hostPath: string): string {
  const slug = normalisePath(hostPath).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return `host-${slug || 'root'}`.slice(0, 63).replace(/-+$/, '');
}

/**
 * One agent container, validated on the way in and rendered lazily.
 */
export class AgentContainer {
  public readonly name: string;
  public readonly role: ContainerRole;
  private readonly field: string;
  private readonly hostMounts: HostMount[] = [];
  // a Map, not an object: names such as __proto__ or constructor are valid environment variables.
  private readonly env = new Map<string, string>();
  private readonly envValueFrom = new Map<string, EnvValue>();
  private readonly volumes: AgentVolume[] = [];
  private readonly scratchDirs: string[] = [];
  /** mounts of pod volumes the agent owns (the config files). */
  private readonly extraMounts: { mountPath: string; volumeName: string }[] = [];

  constructor(
    private readonly scope: Construct,
    name: string,
    role: ContainerRole,
    private readonly options: ContainerOptions,
    allowedRegistries?: string[],
  ) {
    this.role = role;
    this.field = role === ContainerRole.MAIN ? 'props' : `${role === ContainerRole.INIT ? 'initContainers' : 'sidecars'}[${name}]`;
    checkDnsLabel(scope, role === ContainerRole.MAIN ? 'containerName' : this.fieldName('name'), name);
    this.name = name;
    checkImage(scope, this.fieldName('image'), options.image, allowedRegistries);

    if (options.runAsUser !== undefined) {
      if (options.runAsUser === 0) {
        fail(scope, `${this.fieldName('runAsUser')} is 0 (root): to run as root, set runAsRoot: { reason: '...' } instead, so the reason is recorded`);
      }
      checkInteger(scope, this.fieldName('runAsUser'), options.runAsUser, 1, 2147483647);
      if (options.runAsRoot) {
        fail(scope, `${this.fieldName('runAsUser')} (${options.runAsUser}) and runAsRoot are both set: keep one of them`);
      }
    }
    if (options.runAsGroup !== undefined) checkInteger(scope, this.fieldName('runAsGroup'), options.runAsGroup, 0, 2147483647);
    if (options.runAsRoot) checkReason(scope, this.fieldName('runAsRoot'), options.runAsRoot.reason);
    if (options.privileged) checkReason(scope, this.fieldName('privileged'), options.privileged.reason);

    const capabilities = new Set<string>();
    for (const grant of options.capabilities ?? []) {
      if (grant.capability === 'ALL') {
        fail(scope, `${this.fieldName('capabilities')}: adding ALL capabilities is root on the node: list the capabilities the agent needs, or set privileged with a reason`);
      }
      const known: string[] = Object.values(kplus().Capability);
      if (!known.includes(grant.capability)) {
        // a misspelled capability would render, and the container runtime would refuse to start the container.
        const suggestion = closest(grant.capability.replace(/^CAP_/i, ''), known);
        fail(scope, `${this.fieldName('capabilities')}: "${grant.capability}" is not a capability name: ${suggestion !== undefined ? `did you mean Capability.${suggestion}? ` : ''}use the Capability enum, e.g. Capability.NET_ADMIN`);
      }
      if (capabilities.has(grant.capability)) {
        fail(scope, `${this.fieldName('capabilities')}: ${grant.capability} is listed twice: keep one grant`);
      }
      capabilities.add(grant.capability);
      checkReason(scope, `${this.fieldName('capabilities')} ${grant.capability}`, grant.reason);
    }
    const inert = (options.capabilities ?? []).filter((g) => !g.entrypointFileCapability).map((g) => g.capability);
    if (inert.length > 0 && !options.runAsRoot) this.refuseInertCapabilities(inert);

    const portNames = new Set<string>();
    const portNumbers = new Set<string>();
    for (const port of options.ports ?? []) {
      if (!port.name || port.name.length > 15 || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(port.name) || !/[a-z]/.test(port.name)) {
        fail(scope, `${this.fieldName('ports')}: port name "${port.name}" is invalid: use at most 15 lowercase letters, digits and '-', with at least one letter (e.g. "metrics")`);
      }
      if (portNames.has(port.name)) fail(scope, `${this.fieldName('ports')}: port name "${port.name}" is used twice: give each port its own name`);
      portNames.add(port.name);
      checkInteger(scope, `${this.fieldName('ports')}[${port.name}].containerPort`, port.containerPort, 1, 65535);
      const key = `${port.containerPort}/${port.protocol ?? kplus().Protocol.TCP}`;
      if (portNumbers.has(key)) fail(scope, `${this.fieldName('ports')}: ${key} is declared twice`);
      portNumbers.add(key);
      if (port.hostPort) {
        checkInteger(scope, `${this.fieldName('ports')}[${port.name}].hostPort.port`, port.hostPort.port, 1, 65535);
        checkReason(scope, `${this.fieldName('ports')}[${port.name}].hostPort`, port.hostPort.reason);
      }
    }

    if (role === ContainerRole.INIT && (options.liveness || options.readiness || options.startup)) {
      fail(scope, `${this.fieldName('probes')}: init containers run to completion and cannot have liveness, readiness or startup probes: remove them`);
    }
    for (const probe of [options.liveness, options.readiness, options.startup]) {
      if (probe) this.checkProbe(probe);
    }
    this.checkResources();

    for (const [k, v] of Object.entries(options.envValueFrom ?? {})) this.addEnvValueFrom(k, v);
    for (const [k, v] of Object.entries(options.env ?? {})) this.addEnv(k, v);
    for (const source of options.envFrom ?? []) {
      if (!(source instanceof EnvSource)) fail(scope, `${this.fieldName('envFrom')} must be created with EnvSource.fromSecret() or fromConfigMap(), got ${show(source)}`);
    }
    for (const volume of options.volumes ?? []) this.addVolume(volume);
    for (const dir of options.scratchDirs ?? []) this.addScratchDir(dir);
    for (const mount of options.hostMounts ?? []) this.addHostMount(mount);
  }

  /** adds a host mount; `HostMount`'s factories validated it, the container checks its mount path is free. */
  public addHostMount(mount: HostMount): void {
    if (!(mount instanceof HostMount)) {
      fail(this.scope, `${this.fieldName(`hostMounts[${(mount as any)?.hostPath}]`)} must be created with HostMount.readOnly() or HostMount.readWrite()`);
    }
    this.checkMountPathFree(normalisePath(mount.mountPath), this.fieldName(`hostMounts[${mount.hostPath}]`));
    this.hostMounts.push(mount);
  }

  /** adds an environment variable. */
  public addEnv(name: string, value: string): void {
    const field = this.checkEnvName('env', name);
    if (typeof value !== 'string') fail(this.scope, `${field} must be a string, got ${show(value)}`);
    this.env.set(name, value);
  }

  /** adds an environment variable read from a Secret or ConfigMap key. */
  public addEnvValueFrom(name: string, value: EnvValue): void {
    const field = this.checkEnvName('envValueFrom', name);
    if (!(value instanceof EnvValue)) fail(this.scope, `${field} must be created with EnvValue.fromSecretKey(), fromConfigMapKey() or fromPodField(), got ${show(value)}`);
    this.envValueFrom.set(name, value);
  }

  /** adds a pod volume mount; the factories validated it, the container checks its mount path is free. */
  public addVolume(volume: AgentVolume): void {
    const field = this.fieldName(`volumes[${(volume as any)?.mountPath}]`);
    if (!(volume instanceof AgentVolume)) fail(this.scope, `${field} must be created with AgentVolume.fromSecret(), fromConfigMap(), projected() or emptyDir()`);
    this.checkMountPathFree(normalisePath(volume.mountPath), field);
    this.volumes.push(volume);
  }

  /** the pod volumes this container mounts: identical ones share a volume, an unnamed emptyDir is its own. */
  public agentVolumes(): { key: string; name: string; explicit: boolean; source: { [key: string]: unknown }; volume: AgentVolume }[] {
    return this.volumes.map((volume) => {
      const source = volume._source();
      const own = volume.kind === 'emptyDir' && !volume.namedExplicitly ? `\u0000${this.name}\u0000${normalisePath(volume.mountPath)}` : '';
      return {
        key: `volume\u0000${volume.namedExplicitly ? volume.volumeName : ''}\u0000${JSON.stringify(source)}${own}`,
        name: volume.kind === 'emptyDir' && !volume.namedExplicitly ? `${this.name}-${volume.volumeName}` : volume.volumeName,
        explicit: volume.namedExplicitly,
        source,
        volume,
      };
    });
  }

  /** adds a writable emptyDir at a path. */
  public addScratchDir(dir: string): void {
    const field = this.fieldName(`scratchDirs[${dir}]`);
    checkAbsolutePath(this.scope, field, dir);
    this.checkMountPathFree(normalisePath(dir), field);
    this.scratchDirs.push(dir);
  }

  /** adds a read-only mount of a pod volume the agent owns (the config files). */
  public addVolumeMount(volumeName: string, mountPath: string): void {
    this.checkMountPathFree(normalisePath(mountPath), this.fieldName(`mount ${mountPath}`));
    this.extraMounts.push({ mountPath, volumeName });
  }

  /** the hostPath volumes this container needs; mounts of one path without a chosen name share a volume. */
  public hostVolumes(): { volume: HostVolume; mount: HostMount }[] {
    return this.hostMounts.map((m) => {
      const hostPath = normalisePath(m.hostPath);
      const explicit = m.volumeName !== undefined;
      return {
        volume: {
          key: explicit ? `named\u0000${m.volumeName}` : `host\u0000${hostPath}`,
          name: m.volumeName ?? volumeNameFor(hostPath),
          explicit,
          hostPath: m.hostPath,
          type: m.type,
        },
        mount: m,
      };
    });
  }

  /** this container's scratch volumes, one per directory. */
  public scratchVolumes(): { key: string; name: string; dir: string }[] {
    return this.scratchDirs.map((dir) => ({
      key: `scratch\u0000${this.name}\u0000${normalisePath(dir)}`,
      name: `${this.name}-scratch-${volumeNameFor(dir).slice('host-'.length)}`,
      dir,
    }));
  }

  /** the image as given (the app's registry mirror rewrites the rendered manifest, see `RegistryMirror`). */
  public get image(): string {
    return this.options.image;
  }

  /** whether the container is privileged. */
  public get privileged(): boolean {
    return this.options.privileged !== undefined;
  }

  /** whether the container runs as root. */
  public get runsAsRoot(): boolean {
    return this.options.runAsRoot !== undefined;
  }

  /** the capabilities a non-root container gets from its entrypoint's file capabilities, as the user declared. */
  public entrypointFileCapabilities(): string[] {
    if (this.options.runAsRoot) return [];
    return (this.options.capabilities ?? []).filter((g) => g.entrypointFileCapability).map((g) => g.capability);
  }

  /** the reasons this container records for its host privileges. */
  public reasons(): HostAccessReason[] {
    const out: HostAccessReason[] = [];
    const o = this.options;
    if (o.privileged) out.push({ type: HostAccessType.PRIVILEGED, detail: this.name, container: this.name, reason: o.privileged.reason.trim() });
    if (o.runAsRoot) out.push({ type: HostAccessType.RUN_AS_ROOT, detail: this.name, container: this.name, reason: o.runAsRoot.reason.trim() });
    for (const grant of o.capabilities ?? []) {
      out.push({ type: HostAccessType.CAPABILITY, detail: grant.capability, container: this.name, reason: grant.reason.trim() });
    }
    for (const port of o.ports ?? []) {
      if (port.hostPort) {
        const detail = hostPortDetail(port.hostPort.port, port.protocol ?? kplus().Protocol.TCP);
        out.push({ type: HostAccessType.HOST_PORT, detail, container: this.name, reason: port.hostPort.reason.trim() });
      }
    }
    for (const m of this.hostMounts) {
      out.push({ type: HostAccessType.HOST_PATH, detail: hostPathDetail(m.hostPath, !m.writable), container: this.name, reason: m.reason });
    }
    return out;
  }

  /** renders the container as Kubernetes JSON; `volumeName` gives the final name of a volume by key. */
  public toJson(volumeName: (key: string) => string): any {
    const o = this.options;
    const privileged = o.privileged !== undefined;
    const securityContext: any = {
      // privileged containers may escalate by definition; the API server rejects the pair
      // privileged=true with allowPrivilegeEscalation=false, so the field is left out then.
      allowPrivilegeEscalation: privileged ? undefined : false,
      privileged: privileged ? true : undefined,
      readOnlyRootFilesystem: o.readOnlyRootFilesystem ?? true,
      runAsNonRoot: o.runAsRoot ? false : true,
      runAsUser: o.runAsRoot ? 0 : o.runAsUser,
      runAsGroup: o.runAsGroup,
      capabilities: {
        add: o.capabilities && o.capabilities.length > 0 ? o.capabilities.map((c) => c.capability) : undefined,
        drop: ['ALL'],
      },
    };
    // the kubelet expands $(VAR) only from variables defined earlier: the references come before the literal values.
    const env = [
      ...Object.entries(DOWNWARD_ENV).map(([name, fieldPath]) => ({ name, valueFrom: { fieldRef: { fieldPath } } })),
      ...[...this.envValueFrom].map(([name, value]) => ({ name, valueFrom: value._toJson() })),
      ...[...this.env].map(([name, value]) => ({ name, value })),
    ];
    const envFrom = (o.envFrom ?? []).map((source) => source._toJson());
    const volumeMounts = [
      ...this.hostVolumes().map(({ volume, mount }) => ({
        name: volumeName(volume.key),
        mountPath: mount.mountPath,
        readOnly: mount.writable ? undefined : true,
        mountPropagation: mount.propagation,
      })),
      ...this.scratchVolumes().map((s) => ({ name: volumeName(s.key), mountPath: s.dir })),
      ...this.agentVolumes().map((v) => ({ name: volumeName(v.key), mountPath: v.volume.mountPath, readOnly: v.volume.writable ? undefined : true })),
      ...this.extraMounts.map((m) => ({ name: m.volumeName, mountPath: m.mountPath, readOnly: true })),
    ];
    return {
      name: this.name,
      image: o.image,
      imagePullPolicy: 'IfNotPresent',
      command: o.command,
      args: o.args,
      env,
      envFrom: envFrom.length > 0 ? envFrom : undefined,
      ports: o.ports && o.ports.length > 0 ? o.ports.map((p) => ({
        name: p.name,
        containerPort: p.containerPort,
        protocol: p.protocol ?? kplus().Protocol.TCP,
        hostPort: p.hostPort?.port,
      })) : undefined,
      resources: this.renderResources(),
      livenessProbe: renderProbe(o.liveness),
      readinessProbe: renderProbe(o.readiness),
      startupProbe: renderProbe(o.startup),
      securityContext,
      volumeMounts: volumeMounts.length > 0 ? volumeMounts : undefined,
    };
  }

  /** mount propagation Bidirectional needs a privileged container. */
  public bidirectionalMounts(): string[] {
    return this.hostMounts.filter((m) => m.propagation === kplus().MountPropagation.BIDIRECTIONAL).map((m) => m.hostPath);
  }

  /**
   * Added capabilities take effect only for root: Linux gives a non-root process a capability only through ambient
   * capabilities (Kubernetes sets none) or the file capabilities of the program it executes, and the library cannot see
   * the image's. So a non-root container with capabilities is refused, never rendered with capabilities that do nothing.
   */
  private refuseInertCapabilities(names: string[]): never {
    const o = this.options;
    const user = o.runAsUser !== undefined ? `runAsUser: ${o.runAsUser}` : 'runAsNonRoot: true: the image\'s user, which must not be root';
    const how = o.privileged
      ? 'a privileged container\'s non-root process gets a capability only by executing a setuid-root program or one whose file carries it'
      : 'with allowPrivilegeEscalation: false (no_new_privs) a non-root process has a capability only if the file of its entrypoint carries it (setcap)';
    fail(this.scope, `${this.fieldName('capabilities')}: ${names.join(', ')} would take no effect: the container runs as non-root (${user}), ` +
      `Kubernetes sets no ambient capabilities, and ${how}, which the library cannot see in the image. To grant them, write ` +
      `${this.fieldName('runAsRoot')}: { reason: '...' } (root with every other capability dropped gets exactly the added ones); if the ` +
      'image\'s entrypoint carries a capability as a file capability, declare it with entrypointFileCapability: true; or remove them');
  }

  private fieldName(sub: string): string {
    return this.role === ContainerRole.MAIN ? sub : `${this.field}.${sub}`;
  }

  private checkMountPathFree(mountPath: string, field: string): void {
    const taken = [
      ...this.hostMounts.map((m) => normalisePath(m.mountPath)),
      ...this.scratchDirs.map(normalisePath),
      ...this.extraMounts.map((m) => normalisePath(m.mountPath)),
      ...this.volumes.map((v) => normalisePath(v.mountPath)),
    ];
    if (taken.includes(mountPath)) {
      fail(this.scope, `${field}: mount path "${mountPath}" is already used by another mount of container "${this.name}": mount it once, or give one of them another mountPath`);
    }
  }

  /** an env name that is valid and not yet taken (by the downward API, `env` or `envValueFrom`); returns its field. */
  private checkEnvName(prop: string, name: string): string {
    if (typeof name !== 'string') fail(this.scope, `${this.fieldName(prop)}: a variable name must be a string, got ${show(name)}`);
    const field = this.fieldName(`${prop}.${name}`);
    if (!/^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(name)) {
      fail(this.scope, `${field}: "${name}" is not a valid environment variable name: use letters, digits, '_', '-' or '.', not starting with a digit`);
    }
    if (hasOwn(DOWNWARD_ENV, name)) {
      fail(this.scope, `${field}: ${name} is set by the agent from the downward API (${DOWNWARD_ENV[name]}): remove it or use another name`);
    }
    if (this.env.has(name)) fail(this.scope, `${field} is set twice${prop === 'env' ? '' : ' (also in env)'}`);
    if (this.envValueFrom.has(name)) fail(this.scope, `${field} is set twice${prop === 'envValueFrom' ? '' : ' (also in envValueFrom)'}`);
    return field;
  }

  private checkProbe(probe: AgentProbe): void {
    const field = this.fieldName('probe');
    if (!(probe instanceof AgentProbe)) fail(this.scope, `${field} must be created with AgentProbe.httpGet(), tcpSocket() or exec()`);
    const port = probe.handler.httpGet?.port ?? probe.handler.tcpSocket?.port;
    if (port !== undefined) checkInteger(this.scope, `${field} port`, port, 1, 65535);
    if (probe.handler.httpGet && !String(probe.handler.httpGet.path).startsWith('/')) {
      fail(this.scope, `${field} path "${probe.handler.httpGet.path}" must start with "/"`);
    }
    if (probe.handler.httpGet?.scheme !== undefined && !['HTTP', 'HTTPS'].includes(probe.handler.httpGet.scheme)) {
      fail(this.scope, `${field} scheme "${probe.handler.httpGet.scheme}" must be HTTP or HTTPS`);
    }
    if (probe.handler.exec && (!Array.isArray(probe.handler.exec.command) || probe.handler.exec.command.length === 0)) {
      fail(this.scope, `${field}: an exec probe needs a command, e.g. ['cat', '/tmp/healthy']`);
    }
    if (probe.options.failureThreshold !== undefined) checkInteger(this.scope, `${field} failureThreshold`, probe.options.failureThreshold, 1, 1000000);
    if (probe.options.timeout !== undefined) checkDuration(this.scope, `${field} timeout`, probe.options.timeout, 1);
    if (probe.options.period !== undefined) checkDuration(this.scope, `${field} period`, probe.options.period, 1);
    if (probe.options.initialDelay !== undefined) checkDuration(this.scope, `${field} initialDelay`, probe.options.initialDelay, 0);
  }

  private checkResources(): void {
    const r = this.options.resources ?? {};
    const field = this.fieldName('resources');
    const request = r.memoryRequest !== undefined ? checkSize(this.scope, `${field}.memoryRequest`, r.memoryRequest) : 128;
    const limit = r.memoryLimit !== undefined ? checkSize(this.scope, `${field}.memoryLimit`, r.memoryLimit) : request * 2;
    if (limit < request) {
      fail(this.scope, `${field}: memoryLimit (${limit}Mi) is below memoryRequest (${request}Mi): raise the limit or lower the request`);
    }
    for (const [name, cpu] of [['cpuRequest', r.cpuRequest], ['cpuLimit', r.cpuLimit]] as const) {
      if (cpu !== undefined && (typeof cpu?.amount !== 'string' || !Number.isFinite(cpuMillis(cpu)) || cpuMillis(cpu) <= 0)) {
        fail(this.scope, `${field}.${name} must be a positive Cpu (e.g. Cpu.millis(100)), got ${JSON.stringify(cpu)}`);
      }
    }
    if (r.cpuLimit && r.cpuRequest && cpuMillis(r.cpuLimit) < cpuMillis(r.cpuRequest)) {
      fail(this.scope, `${this.fieldName('resources')}: cpuLimit (${r.cpuLimit.amount}) is below cpuRequest (${r.cpuRequest.amount})`);
    }
  }

  private renderResources(): any {
    const r = this.options.resources ?? {};
    const memoryRequest = r.memoryRequest ?? Size.mebibytes(128);
    const memoryLimit = r.memoryLimit ?? Size.mebibytes(memoryRequest.toMebibytes() * 2);
    return {
      requests: { cpu: (r.cpuRequest ?? kplus().Cpu.millis(100)).amount, memory: `${memoryRequest.toMebibytes()}Mi` },
      limits: { cpu: r.cpuLimit?.amount, memory: `${memoryLimit.toMebibytes()}Mi` },
    };
  }
}

function cpuMillis(cpu: Cpu): number {
  return cpu.amount.endsWith('m') ? Number(cpu.amount.slice(0, -1)) : Number(cpu.amount) * 1000;
}

function renderProbe(probe: AgentProbe | undefined): any {
  if (!probe) return undefined;
  const o = probe.options;
  return {
    ...probe.handler,
    initialDelaySeconds: o.initialDelay?.toSeconds(),
    periodSeconds: o.period?.toSeconds(),
    timeoutSeconds: o.timeout?.toSeconds(),
    failureThreshold: o.failureThreshold,
  };
}
