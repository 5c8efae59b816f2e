/**
 * Internal: safe access to plain Kubernetes JSON (pod specs and the workloads that carry them).
 *
 * Missing fields read as empty; a field of the wrong JSON type (a list that is not a list, an object that
 * is not an object) fails with an error naming the field, because silently ignoring it could hide a privilege.
 */

/** which list of a pod spec a container comes from. */
export type ContainerList = 'initContainers' | 'containers' | 'ephemeralContainers';

/** one container of a pod, with its list and security context resolved. */
export interface ContainerRef {
  readonly list: ContainerList;
  /** the container's index in its list. */
  readonly index: number;
  readonly name: string;
  readonly container: any;
  /** the container's securityContext, or an empty object when unset. */
  readonly sc: any;
}

/** the pod template found in a workload manifest. */
export interface PodTemplate {
  readonly kind: string;
  readonly name: string;
  readonly spec: any;
  readonly annotations: { [key: string]: string };
}

/** where each workload kind keeps its pod spec and pod metadata. */
const TEMPLATE_PATHS: { [kind: string]: { spec: string[]; metadata: string[] } } = {
  Pod: { spec: ['spec'], metadata: ['metadata'] },
  PodTemplate: { spec: ['template', 'spec'], metadata: ['template', 'metadata'] },
  DaemonSet: { spec: ['spec', 'template', 'spec'], metadata: ['spec', 'template', 'metadata'] },
  Deployment: { spec: ['spec', 'template', 'spec'], metadata: ['spec', 'template', 'metadata'] },
  StatefulSet: { spec: ['spec', 'template', 'spec'], metadata: ['spec', 'template', 'metadata'] },
  ReplicaSet: { spec: ['spec', 'template', 'spec'], metadata: ['spec', 'template', 'metadata'] },
  ReplicationController: { spec: ['spec', 'template', 'spec'], metadata: ['spec', 'template', 'metadata'] },
  Job: { spec: ['spec', 'template', 'spec'], metadata: ['spec', 'template', 'metadata'] },
  CronJob: {
    spec: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
    metadata: ['spec', 'jobTemplate', 'spec', 'template', 'metadata'],
  },
};

/** the workload kinds that carry a pod spec, in the order error messages list them. */
export const WORKLOAD_KINDS = Object.keys(TEMPLATE_PATHS);

/** where a workload kind keeps its pod spec (`['spec', 'template', 'spec']`), or undefined for a kind without one. */
export function podSpecPathOf(kind: string): readonly string[] | undefined {
  return Object.prototype.hasOwnProperty.call(TEMPLATE_PATHS, kind) ? TEMPLATE_PATHS[kind].spec : undefined;
}

/** a short JSON rendering of a received value, for error messages. */
export function describe(value: unknown): string {
  let s: string;
  try {
    s = value === undefined ? 'undefined' : JSON.stringify(value);
  } catch {
    s = String(value);
  }
  if (s === undefined) s = String(value);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

/** a copy of `o` without its undefined fields, keys in order (as JSON would write it). */
export function dropUndefined<T extends object>(o: T): T {
  const out: any = {};
  for (const key of Object.keys(o)) {
    const value = (o as any)[key];
    if (value === undefined) continue;
    // a plain assignment to "__proto__" would set the prototype instead of a field
    if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}

/** whether a value is a plain mapping (not null, not a list). */
export function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** reads a list field: undefined/null are empty; anything else but an array fails. */
export function list(value: unknown, path: string): any[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    throw new Error(`${path} must be a list, got ${describe(value)}: write it as a YAML/JSON list`);
  }
  return value;
}

/**
 * A list of strings as the API server decodes it: a `null` item is the empty string (the JSON decoder leaves the zero
 * value), never the word "null". (Items of another type are refused before, by the API type check.)
 */
export function stringItems(value: unknown, path: string): string[] {
  return list(value, path).map((x) => (x === null || x === undefined ? '' : String(x)));
}

/** reads an object field: undefined/null give undefined; anything else but an object fails. */
export function object(value: unknown, path: string): any | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) {
    throw new Error(`${path} must be an object, got ${describe(value)}: write it as a YAML/JSON mapping`);
  }
  return value;
}

/** checks that a pod spec is a JSON object. */
export function requirePodSpec(podSpec: unknown): any {
  if (!isObject(podSpec)) {
    throw new Error(
      `pod spec must be an object (a v1 PodSpec), got ${describe(podSpec)}: pass the pod's spec, e.g. daemonSet.spec.template.spec, ` +
      'or use the workload variant for a whole manifest',
    );
  }
  return podSpec;
}

/** the pod-level securityContext, or an empty object. */
export function podSecurityContext(spec: any): any {
  return object(spec.securityContext, 'spec.securityContext') ?? {};
}

/** every container of the pod: initContainers, containers, then ephemeralContainers, each in spec order. */
export function containersOf(spec: any): ContainerRef[] {
  const result: ContainerRef[] = [];
  for (const l of ['initContainers', 'containers', 'ephemeralContainers'] as ContainerList[]) {
    list(spec[l], `spec.${l}`).forEach((c, i) => {
      const path = `spec.${l}[${i}]`;
      if (!isObject(c)) {
        throw new Error(`${path} must be an object (a container), got ${describe(c)}: write each container as a mapping with a name`);
      }
      const sc = object(c.securityContext, `${path}.securityContext`) ?? {};
      result.push({ list: l, index: i, name: c.name === undefined || c.name === null ? '' : String(c.name), container: c, sc });
    });
  }
  return result;
}

/** the JSON path of a container relative to the pod spec, e.g. `containers[0]`. */
export function containerField(c: ContainerRef): string {
  return `${c.list}[${c.index}]`;
}

/** the pod's volumes, each checked to be an object. */
export function volumesOf(spec: any): any[] {
  return list(spec.volumes, 'spec.volumes').map((v, i) => {
    if (!isObject(v)) {
      throw new Error(`spec.volumes[${i}] must be an object (a volume), got ${describe(v)}: write each volume as a mapping with a name`);
    }
    return v;
  });
}

/** the value at `path` below `root`, or undefined when a step is not a mapping. */
export function dig(root: any, path: string[]): any {
  let cur = root;
  for (const key of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** finds the pod spec and pod annotations of a workload manifest. */
export function podTemplateOf(manifest: unknown): PodTemplate {
  if (!isObject(manifest)) {
    throw new Error(`manifest must be a Kubernetes object, got ${describe(manifest)}: pass one parsed YAML document with a kind`);
  }
  const m = manifest as any;
  const kind = m.kind;
  const name = isObject(m.metadata) && typeof m.metadata.name === 'string' ? m.metadata.name : '';
  const paths = typeof kind === 'string' && Object.prototype.hasOwnProperty.call(TEMPLATE_PATHS, kind) ? TEMPLATE_PATHS[kind] : undefined;
  if (!paths) {
    throw new Error(`kind ${describe(kind)} has no pod template: pass a ${WORKLOAD_KINDS.join(', ')} manifest`);
  }
  const spec = dig(m, paths.spec);
  if (!isObject(spec)) {
    throw new Error(`${kind} "${name}": ${paths.spec.join('.')} must be an object (a v1 PodSpec), got ${describe(spec)}: set the pod template`);
  }
  const metadata = object(dig(m, paths.metadata), paths.metadata.join('.')) ?? {};
  const rawAnnotations = object(metadata.annotations, `${paths.metadata.join('.')}.annotations`) ?? {};
  const annotations: { [key: string]: string } = {};
  for (const [k, v] of Object.entries(rawAnnotations)) annotations[k] = String(v);
  return { kind, name, spec, annotations };
}

/** the container's `securityContext.windowsOptions`, else the pod's, field by field. */
function windowsOption(c: ContainerRef, podSc: any, key: string): unknown {
  const own = object(c.sc.windowsOptions, `spec.${containerField(c)}.securityContext.windowsOptions`);
  const pod = object(podSc.windowsOptions, 'spec.securityContext.windowsOptions');
  const value = own?.[key];
  return value !== undefined && value !== null ? value : pod?.[key];
}

/** whether a container is a Windows HostProcess container: its own `windowsOptions.hostProcess`, else the pod's. */
export function isHostProcess(c: ContainerRef, podSc: any): boolean {
  return windowsOption(c, podSc, 'hostProcess') === true;
}

/** the Windows user a container runs as (`windowsOptions.runAsUserName`, its own else the pod's), if set. */
export function windowsUserOf(c: ContainerRef, podSc: any): string | undefined {
  const user = windowsOption(c, podSc, 'runAsUserName');
  return typeof user === 'string' && user !== '' ? user : undefined;
}

/**
 * Whether the pod runs on Windows: `spec.os.name: windows`, a HostProcess container, or a `kubernetes.io/os: windows`
 * nodeSelector. On Windows the Linux security settings (runAsUser, allowPrivilegeEscalation, readOnlyRootFilesystem,
 * seccomp, capabilities, privileged) do not exist: with `spec.os.name: windows` the API server rejects them.
 */
export function isWindowsPod(spec: any): boolean {
  const os = object(spec.os, 'spec.os');
  if (os?.name === 'windows') return true;
  const nodeSelector = object(spec.nodeSelector, 'spec.nodeSelector');
  if (nodeSelector?.['kubernetes.io/os'] === 'windows') return true;
  const podSc = podSecurityContext(spec);
  return containersOf(spec).some((c) => isHostProcess(c, podSc));
}

/** whether a container is an init container that runs to completion before the others start (not a restartable sidecar). */
export function runsToCompletion(c: ContainerRef): boolean {
  return c.list === 'initContainers' && c.container.restartPolicy !== 'Always';
}
