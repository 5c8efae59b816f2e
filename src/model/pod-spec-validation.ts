import { ContainerRef, containerField, containersOf, describe, list, object, podSecurityContext, requirePodSpec, volumesOf } from './_pod-spec';
import { podSpecApiViolations } from './_pod-spec-api-rules';
import { decimalInteger } from './_tolerations';

/**
 * A rule of the Kubernetes API server that a pod spec breaks: the server rejects the object that carries it.
 */
export interface PodSpecViolation {
  /** the JSON path of the offending field, relative to the pod spec: `containers[1].ports[0].hostPort`. */
  readonly field: string;

  /**
   * The container concerned.
   *
   * @default - a pod-level violation
   */
  readonly container?: string;

  /** what is wrong, naming the values involved, without the container's name (see `container`) or a trailing period. */
  readonly message: string;

  /** how to make the API server accept it. */
  readonly fix: string;
}

/**
 * The API server's validation rules about host access that a pod spec can break although every field has the right
 * type: the rules a schema cannot express, and that the library therefore checks itself, for constructs at synth and
 * for any YAML in the review. They are transcribed from Kubernetes' own validation (`pkg/apis/core/validation`,
 * v1.37), and checked against a real API server by the integration tests:
 *
 * - **host port conflicts** (`checkHostPortConflicts`): two ports with the same protocol, `hostIP` and `hostPort` among
 *   the regular containers, or twice within one init container. Init containers run one by one, so an init container
 *   may bind a host port that a regular container binds too.
 * - **host network** (`validatePodHostNetworkDeps`): with `hostNetwork: true`, a regular container's `hostPort` must be
 *   0 or equal to its `containerPort` (the port is the node's either way).
 * - **Bidirectional mount propagation** (`validateMountPropagation`) is allowed only in privileged containers.
 * - **privileged with `allowPrivilegeEscalation: false`** (`ValidateSecurityContext`) is contradictory and rejected.
 * - **`CAP_SYS_ADMIN` with `allowPrivilegeEscalation: false`** (`ValidateSecurityContext`): rejected when the capability is
 *   written exactly `CAP_SYS_ADMIN`, as the server compares it (`SYS_ADMIN` passes), on create.
 * - **Windows HostProcess pods** (`validateWindowsHostProcessPod`): a container's `windowsOptions.hostProcess` must equal
 *   the pod's when both are set; if any container is a HostProcess container (its own setting, else the pod's), all
 *   must be, and the pod must set `hostNetwork: true`.
 * - **the pod's OS** (`validateWindows`, `validateLinux`): with `spec.os.name: windows` the Linux settings are
 *   forbidden (runAsUser, runAsGroup, seccomp, SELinux, AppArmor, capabilities, privileged, allowPrivilegeEscalation,
 *   readOnlyRootFilesystem, procMount; on the pod also fsGroup, sysctls, supplementalGroups, hostPID, hostIPC,
 *   hostUsers, shareProcessNamespace); with `spec.os.name: linux`, `windowsOptions`.
 * - **toleration values for `Lt` and `Gt`** (`ValidateTolerations`): a decimal integer (an optional `-`, no `+`, no
 *   leading zero) within int64. (The operators themselves need the alpha TaintTolerationComparisonOperators gate, off by
 *   default: a cluster without it rejects them whatever the value.)
 *
 * - **required fields** (`validateContainers`, `validateInitContainers`): at least one container, and each container
 *   and init container with a `name` and an `image` (a pod template too: an image is not left to the controller).
 * - **names, ports, volumes, host paths, tolerations, restartPolicy**: container names (an RFC 1123 label, unique
 *   across init, regular and ephemeral containers), ports (1 to 65535; protocol TCP, UDP or SCTP exactly), volume
 *   names (an RFC 1123 label, once per pod) and mounts of volumes the pod has, hostPath paths without `..` and with a
 *   known type, toleration keys, operators, values and effects (`ValidateTolerations`), a known restartPolicy.
 *
 * It is not a full validation: the fields a workload's host access does not depend on are the server's business.
 */
export class PodSpecValidation {
  /**
   * Checks a pod spec against the API server's host-access rules.
   *
   * @param podSpec a `v1` PodSpec as plain JSON
   * @returns one violation per rule broken, in spec order; empty when the server accepts the spec on these rules
   * @throws when the spec is not a JSON object or a list or object field has the wrong JSON type
   */
  public static check(podSpec: any): PodSpecViolation[] {
    const spec = requirePodSpec(podSpec);
    const containers = containersOf(spec);
    return [
      ...requiredFields(spec, containers),
      ...hostPortConflicts(containers),
      ...hostNetworkPorts(spec, containers),
      ...bidirectionalPropagation(spec, containers),
      ...privilegeEscalation(containers),
      ...hostProcessPod(spec, containers),
      ...podOs(spec, containers),
      ...comparisonTolerations(spec),
      ...podSpecApiViolations(spec, containers),
    ];
  }
}

function requiredFields(spec: any, containers: ContainerRef[]): PodSpecViolation[] {
  const violations: PodSpecViolation[] = [];
  if (list(spec.containers, 'spec.containers').length === 0) {
    violations.push({ field: 'containers', message: 'has no containers, and a pod needs at least one', fix: 'add a container with a name and an image to spec.containers' });
  }
  const missing = (value: unknown) => value === undefined || value === null || value === '';
  for (const c of containers.filter((r) => r.list !== 'ephemeralContainers')) {
    for (const key of ['name', 'image']) {
      if (!missing(c.container[key])) continue;
      violations.push({
        field: `${containerField(c)}.${key}`,
        container: c.name === '' ? undefined : c.name,
        message: `${c.name === '' ? `spec.${containerField(c)} ` : ''}has no ${key}, which the API server requires`,
        fix: `set spec.${containerField(c)}.${key}`,
      });
    }
  }
  return violations;
}

function ports(c: ContainerRef): any[] {
  return list(c.container.ports, `spec.${containerField(c)}.ports`);
}

function hostPortConflicts(containers: ContainerRef[]): PodSpecViolation[] {
  const violations: PodSpecViolation[] = [];
  const check = (group: ContainerRef[]) => {
    const seen = new Map<string, string>();
    for (const c of group) {
      ports(c).forEach((p, i) => {
        const hostPort = Number(p?.hostPort ?? 0);
        if (!hostPort) return;
        const protocol = p.protocol ?? 'TCP';
        const hostIP = p.hostIP ?? '';
        const key = `${protocol}/${hostIP}/${hostPort}`;
        const first = seen.get(key);
        if (first === undefined) {
          seen.set(key, c.name);
          return;
        }
        const where = hostIP ? ` on ${hostIP}` : '';
        violations.push({
          field: `${containerField(c)}.ports[${i}].hostPort`,
          container: c.name,
          message: `host port ${hostPort}/${protocol}${where} is also bound by container ${JSON.stringify(first)}: a node has each port once`,
          fix: 'use another hostPort, or bind each to its own hostIP',
        });
      });
    }
  };
  // regular containers run side by side; init containers one by one, so each is checked alone.
  check(containers.filter((c) => c.list === 'containers'));
  for (const c of containers.filter((r) => r.list === 'initContainers')) check([c]);
  return violations;
}

function hostNetworkPorts(spec: any, containers: ContainerRef[]): PodSpecViolation[] {
  if (spec.hostNetwork !== true) return [];
  const violations: PodSpecViolation[] = [];
  for (const c of containers.filter((r) => r.list === 'containers')) {
    ports(c).forEach((p, i) => {
      const hostPort = Number(p?.hostPort ?? 0);
      if (!hostPort || hostPort === Number(p.containerPort)) return;
      violations.push({
        field: `${containerField(c)}.ports[${i}].hostPort`,
        container: c.name,
        message: `port ${p.name ?? p.containerPort}: on the host network hostPort (${describe(p.hostPort)}) must equal containerPort (${describe(p.containerPort)})`,
        fix: 'set hostPort to the containerPort, or leave hostPort out (on the host network every container port is a node port)',
      });
    });
  }
  return violations;
}

function bidirectionalPropagation(spec: any, containers: ContainerRef[]): PodSpecViolation[] {
  const hostPaths = new Map<string, string>();
  for (const v of volumesOf(spec)) {
    const hostPath = object(v.hostPath, 'spec.volumes[].hostPath');
    if (hostPath && typeof hostPath.path === 'string') hostPaths.set(String(v.name), hostPath.path);
  }
  const violations: PodSpecViolation[] = [];
  for (const c of containers) {
    if (c.sc.privileged === true) continue;
    list(c.container.volumeMounts, `spec.${containerField(c)}.volumeMounts`).forEach((m, i) => {
      if (m?.mountPropagation !== 'Bidirectional') return;
      const what = hostPaths.get(String(m.name)) ?? `volume ${JSON.stringify(m.name)}`;
      violations.push({
        field: `${containerField(c)}.volumeMounts[${i}].mountPropagation`,
        container: c.name,
        message: `mounts ${what} with Bidirectional propagation, which Kubernetes allows only in privileged containers`,
        fix: 'make the container privileged (with a reason), or use HostToContainer propagation',
      });
    });
  }
  return violations;
}

function privilegeEscalation(containers: ContainerRef[]): PodSpecViolation[] {
  const violations: PodSpecViolation[] = [];
  for (const c of containers) {
    if (c.sc.allowPrivilegeEscalation !== false) continue;
    if (c.sc.privileged === true) {
      violations.push({
        field: `${containerField(c)}.securityContext`,
        container: c.name,
        message: 'sets privileged: true beside allowPrivilegeEscalation: false, a contradiction (a privileged container can always escalate)',
        fix: 'remove allowPrivilegeEscalation: false from the privileged container, or drop privileged',
      });
    }
    const caps = object(c.sc.capabilities, `spec.${containerField(c)}.securityContext.capabilities`);
    if (list(caps?.add, `spec.${containerField(c)}.securityContext.capabilities.add`).some((cap) => cap === 'CAP_SYS_ADMIN')) {
      violations.push({
        field: `${containerField(c)}.securityContext`,
        container: c.name,
        message: 'adds CAP_SYS_ADMIN beside allowPrivilegeEscalation: false',
        fix: 'remove allowPrivilegeEscalation: false, or drop CAP_SYS_ADMIN',
      });
    }
  }
  return violations;
}

function windowsOptionsOf(sc: any, path: string): any {
  return object(sc.windowsOptions, path) ?? {};
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function hostProcessPod(spec: any, containers: ContainerRef[]): PodSpecViolation[] {
  const violations: PodSpecViolation[] = [];
  const podValue = windowsOptionsOf(podSecurityContext(spec), 'spec.securityContext.windowsOptions').hostProcess;
  let hostProcess = 0;
  for (const c of containers) {
    const own = windowsOptionsOf(c.sc, `spec.${containerField(c)}.securityContext.windowsOptions`).hostProcess;
    if (isSet(podValue) && isSet(own) && podValue !== own) {
      violations.push({
        field: `${containerField(c)}.securityContext.windowsOptions.hostProcess`,
        container: c.name,
        message: `sets hostProcess: ${describe(own)} while the pod sets hostProcess: ${describe(podValue)}: the two must be identical when both are set`,
        fix: 'remove the container\'s hostProcess, or make it the pod\'s',
      });
    }
    if (own === true || (!isSet(own) && podValue === true)) hostProcess++;
  }
  if (hostProcess === 0) return violations;
  if (hostProcess !== containers.length) {
    violations.push({
      field: 'securityContext.windowsOptions.hostProcess',
      message: `has ${hostProcess} HostProcess ${hostProcess === 1 ? 'container' : 'containers'} beside ${containers.length - hostProcess} that ` +
        `${containers.length - hostProcess === 1 ? 'is' : 'are'} not: a pod's containers are all HostProcess containers or none is`,
      fix: 'make every container a HostProcess container (set hostProcess: true on the pod), or none',
    });
  }
  if (spec.hostNetwork !== true) {
    violations.push({
      field: 'hostNetwork',
      message: 'has HostProcess containers without hostNetwork: true, which they require',
      fix: 'set hostNetwork: true (a HostProcess container uses the node\'s network anyway)',
    });
  }
  return violations;
}

/** the Linux settings a Windows pod may not set, on the pod's security context and on each container's. */
const LINUX_ONLY_POD = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'fsGroup', 'fsGroupChangePolicy', 'runAsUser', 'runAsGroup',
  'supplementalGroups', 'supplementalGroupsPolicy', 'seLinuxChangePolicy'];
const LINUX_ONLY_CONTAINER = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged',
  'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'];

function podOs(spec: any, containers: ContainerRef[]): PodSpecViolation[] {
  const os = object(spec.os, 'spec.os');
  const name = os?.name;
  const violations: PodSpecViolation[] = [];
  const podSc = podSecurityContext(spec);
  if (name === 'linux') {
    if (isSet(podSc.windowsOptions)) {
      violations.push({ field: 'securityContext.windowsOptions', message: 'sets windowsOptions, which cannot be set for a linux pod (spec.os.name: linux)', fix: 'remove windowsOptions' });
    }
    for (const c of containers.filter((ref) => isSet(ref.sc.windowsOptions))) {
      violations.push({
        field: `${containerField(c)}.securityContext.windowsOptions`,
        container: c.name,
        message: 'sets windowsOptions, which cannot be set for a linux pod (spec.os.name: linux)',
        fix: 'remove windowsOptions',
      });
    }
    return violations;
  }
  if (name !== 'windows') return violations;
  const forbidden = (field: string, container?: string): PodSpecViolation => ({
    field,
    ...(container === undefined ? {} : { container }),
    message: `sets ${field.replace(/^.*?(securityContext\.)/, '$1')}, which cannot be set for a windows pod (spec.os.name: windows): Windows has no such setting`,
    fix: 'remove it',
  });
  for (const key of LINUX_ONLY_POD.filter((k) => isSet(podSc[k]))) violations.push(forbidden(`securityContext.${key}`));
  if (list(podSc.sysctls, 'spec.securityContext.sysctls').length > 0) violations.push(forbidden('securityContext.sysctls'));
  if (isSet(spec.hostUsers)) violations.push(forbidden('hostUsers'));
  if (spec.hostPID === true) violations.push(forbidden('hostPID'));
  if (spec.hostIPC === true) violations.push(forbidden('hostIPC'));
  if (isSet(spec.shareProcessNamespace)) violations.push(forbidden('shareProcessNamespace'));
  for (const c of containers) {
    for (const key of LINUX_ONLY_CONTAINER.filter((k) => isSet(c.sc[k]))) violations.push(forbidden(`${containerField(c)}.securityContext.${key}`, c.name));
  }
  return violations;
}

function comparisonTolerations(spec: any): PodSpecViolation[] {
  const violations: PodSpecViolation[] = [];
  list(spec.tolerations, 'spec.tolerations').forEach((t, i) => {
    if (t?.operator !== 'Lt' && t?.operator !== 'Gt') return;
    const value = t.value === undefined || t.value === null ? '' : String(t.value);
    if (decimalInteger(value) !== undefined) return;
    violations.push({
      field: `tolerations[${i}].value`,
      message: `toleration ${t.key ?? ''} ${t.operator} ${JSON.stringify(value)}: ${t.operator} compares decimal integers, and ${JSON.stringify(value)} is not ` +
        'one (an optional "-", no "+", no leading zero, within int64)',
      fix: `write the value as a plain decimal integer, e.g. "${String(decimalInteger(value.replace(/^\+/, '').replace(/^(-?)0+(?=\d)/, '$1')) ?? 100)}"`,
    });
  });
  return violations;
}
