// Internal: reading a workload's pod spec for the rules, with JSON paths for findings. A field of the wrong JSON type
// throws an error naming it: the engine turns that into a finding, never a silent pass.
import { HostAccess } from '../model';
import { UNKNOWN_NAMESPACE, qualified, sourceNote } from './_namespace';
import { WorkloadContext } from './review-rule';
import { kubeletPath } from '../model/_paths';
import { isWindowsPod } from '../model/_pod-spec';

/** where each workload kind keeps its pod spec. */
export const POD_SPEC_PATHS: { readonly [kind: string]: string[] } = {
  DaemonSet: ['spec', 'template', 'spec'],
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
  Pod: ['spec'],
};

/** which list of a pod spec a container comes from. */
export type ContainerList = 'initContainers' | 'containers' | 'ephemeralContainers';

export const ALL_LISTS: ContainerList[] = ['initContainers', 'containers', 'ephemeralContainers'];
/** containers that run with resources (ephemeral containers cannot have any). */
export const RUNNING_LISTS: ContainerList[] = ['initContainers', 'containers'];

export interface ContainerInfo {
  readonly list: ContainerList;
  readonly index: number;
  readonly name: string;
  readonly container: any;
  /** the container's securityContext, or an empty object. */
  readonly sc: any;
  /** JSON path of the container in the manifest, e.g. `spec.template.spec.containers[0]`. */
  readonly path: string;
}

export interface MountInfo {
  readonly container: ContainerInfo;
  readonly index: number;
  readonly readOnly: boolean;
  readonly mountPath: string;
  /** `mountPropagation`, when set. */
  readonly propagation?: string;
  /** JSON path of the volumeMount. */
  readonly path: string;
}

export interface HostPathVolume {
  readonly index: number;
  readonly name: string;
  /** the path as written. */
  readonly rawPath: string;
  /** normalised as HostAccess reports it. */
  readonly path: string;
  readonly type?: string;
  /** JSON path of the volume. */
  readonly field: string;
  readonly mounts: MountInfo[];
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describe(value: unknown): string {
  const s = value === undefined ? 'undefined' : JSON.stringify(value) ?? String(value);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** a list field: undefined/null are empty; anything else but an array throws naming the field. */
export function list(value: unknown, path: string): any[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error(`${path} must be a list, got ${describe(value)}`);
  return value;
}

/** an object field: undefined/null give an empty object; anything else but an object throws naming the field. */
export function obj(value: unknown, path: string): any {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new Error(`${path} must be an object, got ${describe(value)}`);
  return value;
}

/** the JSON path of a field of the pod spec. */
export function podField(ctx: WorkloadContext, relative: string): string {
  return `${ctx.podSpecPath}.${relative}`;
}

export function podSecurityContext(ctx: WorkloadContext): any {
  return obj(ctx.podSpec.securityContext, podField(ctx, 'securityContext'));
}

/** the containers of the given lists, in list order then spec order. */
export function containersOf(ctx: WorkloadContext, lists: ContainerList[] = ALL_LISTS): ContainerInfo[] {
  const result: ContainerInfo[] = [];
  for (const l of lists) {
    list(ctx.podSpec[l], podField(ctx, l)).forEach((c, index) => {
      const path = podField(ctx, `${l}[${index}]`);
      if (!isObject(c)) throw new Error(`${path} must be an object (a container), got ${describe(c)}`);
      const name = c.name === undefined || c.name === null ? '' : String(c.name);
      result.push({ list: l, index, name, container: c, sc: obj(c.securityContext, `${path}.securityContext`), path });
    });
  }
  return result;
}

/** the hostPath volumes of the pod, with every container mount of each. */
export function hostPathVolumes(ctx: WorkloadContext): HostPathVolume[] {
  const volumes: HostPathVolume[] = [];
  list(ctx.podSpec.volumes, podField(ctx, 'volumes')).forEach((v, index) => {
    const field = podField(ctx, `volumes[${index}]`);
    const volume = obj(v, field);
    if (volume.hostPath === undefined || volume.hostPath === null) return;
    const hostPath = obj(volume.hostPath, `${field}.hostPath`);
    if (typeof hostPath.path !== 'string' || hostPath.path === '') {
      throw new Error(`${field}.hostPath.path must be a non-empty string, got ${describe(hostPath.path)}`);
    }
    const type = hostPath.type === undefined || hostPath.type === null ? undefined : String(hostPath.type);
    volumes.push({
      index,
      name: volume.name === undefined || volume.name === null ? '' : String(volume.name),
      rawPath: hostPath.path,
      path: HostAccess.normalizePath(hostPath.path),
      type,
      field,
      mounts: [],
    });
  });
  if (volumes.length === 0) return volumes;
  for (const c of containersOf(ctx)) {
    list(c.container.volumeMounts, `${c.path}.volumeMounts`).forEach((m, index) => {
      const path = `${c.path}.volumeMounts[${index}]`;
      const mount = obj(m, path);
      for (const v of volumes) {
        if (v.name !== String(mount.name)) continue;
        const propagation = mount.mountPropagation === undefined || mount.mountPropagation === null ? undefined : String(mount.mountPropagation);
        v.mounts.push({ container: c, index, readOnly: mount.readOnly === true, mountPath: String(mount.mountPath ?? ''), propagation, path });
      }
    });
  }
  return volumes;
}

/** the ServiceAccount the pod runs as: serviceAccountName, the deprecated serviceAccount, or `default`. */
export function serviceAccountName(ctx: WorkloadContext): string {
  const name = ctx.podSpec.serviceAccountName ?? ctx.podSpec.serviceAccount;
  return typeof name === 'string' && name !== '' ? name : 'default';
}

/** the field that names the ServiceAccount (serviceAccountName unless only the deprecated serviceAccount is set). */
export function serviceAccountField(ctx: WorkloadContext): string {
  const useDeprecated = (ctx.podSpec.serviceAccountName === undefined || ctx.podSpec.serviceAccountName === '') &&
    typeof ctx.podSpec.serviceAccount === 'string' && ctx.podSpec.serviceAccount !== '';
  return podField(ctx, useDeprecated ? 'serviceAccount' : 'serviceAccountName');
}

/**
 * The namespace the workload lands in, as the review resolved it (its own, --namespace, or the one the other objects of
 * its file use), or UNKNOWN_NAMESPACE: never `default` by assumption.
 */
export function namespaceKey(ctx: WorkloadContext): string {
  return ctx.namespace === undefined || ctx.namespace === '' ? UNKNOWN_NAMESPACE : ctx.namespace;
}

/** `ServiceAccount observability/agent`, with how the namespace was determined when the manifest does not set it. */
export function serviceAccountLabel(ctx: WorkloadContext): string {
  return `ServiceAccount ${qualified(namespaceKey(ctx), serviceAccountName(ctx))}${sourceNote(ctx.namespaceSource)}`;
}

/** what a normalised host path is on the node, as the kubelet resolves it (`/proc/<pid>/root` as `/`, `/var/run` as `/run`). */
export function aliasRun(path: string): string {
  return kubeletPath(path);
}

export function quote(name: string): string {
  return JSON.stringify(name);
}

/** the annotations of a workload's own metadata, as strings. */
export function workloadAnnotations(workload: WorkloadContext): { [key: string]: string } {
  const metadata = obj(workload.manifest.metadata, 'metadata');
  const raw = obj(metadata.annotations, 'metadata.annotations');
  const result: { [key: string]: string } = {};
  for (const [k, v] of Object.entries(raw)) result[k] = String(v);
  return result;
}

/** whether an init container runs to completion before the others start (not a restartable sidecar). */
export function runsToCompletion(c: ContainerInfo): boolean {
  return c.list === 'initContainers' && c.container.restartPolicy !== 'Always';
}

/**
 * Whether the pod runs on Windows (`spec.os.name: windows`, a HostProcess container, or a `kubernetes.io/os: windows`
 * nodeSelector): the Linux security settings do not exist there, and with `spec.os.name: windows` the API server rejects them.
 */
export function isWindows(ctx: WorkloadContext): boolean {
  return isWindowsPod(ctx.podSpec);
}

/** the host namespaces the pod shares, in the order `HostRisk.forCapability` takes them. */
export function hostNamespacesOf(ctx: WorkloadContext): string[] {
  return ['hostNetwork', 'hostPID', 'hostIPC'].filter((ns) => ctx.podSpec[ns] === true);
}
