/**
 * Internal: the API server's validation of the parts of a pod spec that a workload's host access depends on (which
 * container is which, which port, which volume, which toleration), transcribed from Kubernetes' own validation
 * (`pkg/apis/core/validation`, v1.37.2) and checked against a real API server by the integration suite
 * (`test/cluster/api-rules.test.ts`):
 *
 * - **container names** (`validateContainerCommon`, `validateContainers`, `validateInitContainers`,
 *   `validateEphemeralContainers`): required, an RFC 1123 label, unique across init, regular and ephemeral containers.
 * - **ports** (`validateContainerPorts`): `containerPort` required and within 1..65535, a `hostPort` other than 0
 *   within 1..65535, `protocol` exactly TCP, UDP or SCTP (case-sensitive; unset is TCP by defaulting).
 * - **volumes** (`ValidateVolumes`, `ValidateVolumeMounts`): a volume name is required, an RFC 1123 label, once per
 *   pod; every volumeMount names a volume of the pod.
 * - **host paths** (`validateHostPathVolumeSource`): no `..` segment, a `type` the server knows. (The server does not
 *   require an absolute path.)
 * - **tolerations** (`ValidateTolerations`): a key is a label key; an empty key needs operator Exists; operator
 *   Equal (or unset) takes a label value, Exists no value; tolerationSeconds only with effect NoExecute; operators
 *   Equal, Exists (Lt and Gt are checked apart) and effects NoSchedule, PreferNoSchedule, NoExecute.
 * - **the pod's restartPolicy** (`validateRestartPolicy`): Always, OnFailure or Never (what each workload kind allows
 *   is `_workload-api-rules.ts`).
 */
import { labelKeyError, labelValueError } from './_label-selector';
import { ContainerRef, containerField, describe, list, object, volumesOf } from './_pod-spec';

/** a rule broken, as `PodSpecViolation`: a field relative to the pod spec, the container concerned if any. */
export interface ApiViolation {
  readonly field: string;
  readonly container?: string;
  readonly message: string;
  readonly fix: string;
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** why `name` is not an RFC 1123 label (`IsDNS1123Label`), or undefined when it is one. */
export function dnsLabelError(name: string): string | undefined {
  if (name.length > 63) return 'is longer than 63 characters';
  if (DNS1123_LABEL.test(name)) return undefined;
  return DNS1123_SUBDOMAIN.test(name) ? 'must not contain dots' : 'is not a lowercase RFC 1123 label (lowercase letters, digits and "-", starting and ending with a letter or digit)';
}

/** why `name` is not an RFC 1123 subdomain (`IsDNS1123Subdomain`), or undefined when it is one. */
export function dnsSubdomainError(name: string): string | undefined {
  if (name.length > 253) return 'is longer than 253 characters';
  if (DNS1123_SUBDOMAIN.test(name)) return undefined;
  return 'is not a lowercase RFC 1123 subdomain (lowercase letters, digits, "-" and ".", starting and ending with a letter or digit)';
}

/** a string field as the server reads it: unset (absent or null) is "". */
function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/** `name` made into an RFC 1123 label, for fixes: lowercase, other characters as "-", at most 63. */
function asLabel(name: string): string {
  const label = name.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63).replace(/-+$/, '');
  return label === '' ? 'agent' : label;
}

/** the API rules of this file a pod spec breaks, in spec order of each rule. */
export function podSpecApiViolations(spec: any, containers: ContainerRef[]): ApiViolation[] {
  return [
    ...containerNames(containers),
    ...containerPorts(containers),
    ...volumeNames(spec),
    ...volumeMounts(spec, containers),
    ...hostPaths(spec),
    ...tolerations(spec),
    ...restartPolicy(spec),
  ];
}

function containerNames(containers: ContainerRef[]): ApiViolation[] {
  const violations: ApiViolation[] = [];
  const seen = new Map<string, ContainerRef>();
  // regular containers first, as the server does: an init or ephemeral container is the duplicate of a regular one
  const order = [...containers.filter((c) => c.list === 'containers'), ...containers.filter((c) => c.list === 'initContainers'),
    ...containers.filter((c) => c.list === 'ephemeralContainers')];
  for (const c of order) {
    const field = `${containerField(c)}.name`;
    if (c.name === '') {
      // a missing name of a container or init container is a required field (pod-spec-validation.ts): one finding
      if (c.list === 'ephemeralContainers') {
        violations.push({ field, message: `${containerField(c)} has no name, which every container requires`, fix: 'name the container (an RFC 1123 label, e.g. "agent")' });
      }
      continue;
    }
    const error = dnsLabelError(c.name);
    if (error !== undefined) {
      violations.push({ field, container: c.name, message: `its name ${JSON.stringify(c.name)} ${error}`, fix: `rename it, e.g. to ${JSON.stringify(asLabel(c.name))}` });
    }
    const first = seen.get(c.name);
    if (first !== undefined) {
      violations.push({
        field,
        container: c.name,
        message: `its name is also the name of ${containerField(first)}: container names are unique across initContainers, containers and ephemeralContainers`,
        fix: 'give each container its own name',
      });
    } else {
      seen.set(c.name, c);
    }
  }
  return violations;
}

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];

function isPortNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
}

function containerPorts(containers: ContainerRef[]): ApiViolation[] {
  const violations: ApiViolation[] = [];
  for (const c of containers) {
    list(c.container.ports, `spec.${containerField(c)}.ports`).forEach((p, i) => {
      const port = object(p, `spec.${containerField(c)}.ports[${i}]`) ?? {};
      const field = `${containerField(c)}.ports[${i}]`;
      const at = (name: string, message: string, fix: string) => violations.push({ field: `${field}.${name}`, container: c.name, message, fix });
      if (port.containerPort === undefined || port.containerPort === null || port.containerPort === 0) {
        at('containerPort', `port ${i} has no containerPort, which every port requires`, 'set containerPort to the port the container listens on (1 to 65535)');
      } else if (!isPortNumber(port.containerPort)) {
        at('containerPort', `containerPort ${describe(port.containerPort)} is not a port number (1 to 65535)`, 'set containerPort to the port the container listens on (1 to 65535)');
      }
      const hostPort = port.hostPort;
      if (hostPort !== undefined && hostPort !== null && hostPort !== 0 && !isPortNumber(hostPort)) {
        at('hostPort', `hostPort ${describe(hostPort)} is not a port number (1 to 65535)`, 'set hostPort to a port of the node (1 to 65535), or remove it');
      }
      const protocol = text(port.protocol);
      if (protocol !== '' && !PROTOCOLS.includes(protocol)) {
        const upper = protocol.toUpperCase();
        at('protocol', `protocol ${JSON.stringify(protocol)} is none of TCP, UDP, SCTP (the server compares them exactly, in capitals)`,
          PROTOCOLS.includes(upper) ? `write protocol: ${upper}` : 'set protocol to TCP, UDP or SCTP, or remove it (TCP)');
      }
    });
  }
  return violations;
}

function volumeNames(spec: any): ApiViolation[] {
  const violations: ApiViolation[] = [];
  const seen = new Set<string>();
  volumesOf(spec).forEach((v, i) => {
    const name = text(v.name);
    const field = `volumes[${i}].name`;
    if (name === '') {
      violations.push({ field, message: `volume ${i} has no name, which every volume requires`, fix: 'name the volume (an RFC 1123 label) and mount it by that name' });
      return;
    }
    const error = dnsLabelError(name);
    if (error !== undefined) {
      violations.push({ field, message: `volume name ${JSON.stringify(name)} ${error}`, fix: `rename the volume and its mounts, e.g. to ${JSON.stringify(asLabel(name))}` });
    } else if (seen.has(name)) {
      violations.push({ field, message: `volume name ${JSON.stringify(name)} is used twice: each volume of a pod has its own name`, fix: 'rename one of the two volumes and its mounts' });
    }
    seen.add(name);
  });
  return violations;
}

function volumeMounts(spec: any, containers: ContainerRef[]): ApiViolation[] {
  const names = new Set(volumesOf(spec).map((v) => text(v.name)));
  const violations: ApiViolation[] = [];
  for (const c of containers) {
    list(c.container.volumeMounts, `spec.${containerField(c)}.volumeMounts`).forEach((m, i) => {
      const mount = object(m, `spec.${containerField(c)}.volumeMounts[${i}]`) ?? {};
      const name = text(mount.name);
      if (name !== '' && names.has(name)) return;
      violations.push({
        field: `${containerField(c)}.volumeMounts[${i}].name`,
        container: c.name,
        message: name === '' ? `volumeMount ${i} names no volume` : `mounts volume ${JSON.stringify(name)}, which the pod does not have`,
        fix: names.size === 0 ? 'add the volume to spec.volumes, or remove the mount' : `add the volume to spec.volumes, or mount one the pod has (${[...names].filter((n) => n !== '').map((n) => JSON.stringify(n)).join(', ')})`,
      });
    });
  }
  return violations;
}

const HOST_PATH_TYPES = ['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'];

function hostPaths(spec: any): ApiViolation[] {
  const violations: ApiViolation[] = [];
  volumesOf(spec).forEach((v, i) => {
    const hostPath = object(v.hostPath, `spec.volumes[${i}].hostPath`);
    if (hostPath === undefined) return;
    const path = text(hostPath.path);
    if (path.split('/').includes('..')) {
      violations.push({
        field: `volumes[${i}].hostPath.path`,
        message: `host path ${JSON.stringify(path)} contains "..", which the API server refuses in a hostPath`,
        fix: 'write the path without ".." segments (the directory it means, spelled from /)',
      });
    }
    const type = text(hostPath.type);
    if (!HOST_PATH_TYPES.includes(type)) {
      const known = HOST_PATH_TYPES.filter((t) => t !== '');
      const exact = known.find((t) => t.toLowerCase() === type.toLowerCase());
      violations.push({
        field: `volumes[${i}].hostPath.type`,
        message: `hostPath type ${JSON.stringify(type)} is none of ${known.join(', ')} (compared exactly)`,
        fix: exact !== undefined ? `write type: ${exact}` : 'set type to Directory, File, Socket (or another of the types listed), or remove it',
      });
    }
  });
  return violations;
}

const TOLERATION_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function tolerations(spec: any): ApiViolation[] {
  const violations: ApiViolation[] = [];
  list(spec.tolerations, 'spec.tolerations').forEach((t, i) => {
    const toleration = object(t, `spec.tolerations[${i}]`) ?? {};
    const at = (name: string, message: string, fix: string) => violations.push({ field: `tolerations[${i}].${name}`, message, fix });
    const key = text(toleration.key);
    const operator = text(toleration.operator);
    const value = text(toleration.value);
    const effect = text(toleration.effect);
    if (key !== '') {
      const error = labelKeyError(key);
      if (error !== undefined) at('key', `toleration ${i}: ${error}`, 'write the key of the taint as the node carries it (a label key such as example.com/dedicated)');
    } else if (operator !== 'Exists') {
      at('operator', `toleration ${i} has no key with operator ${JSON.stringify(operator || 'Equal')}: an empty key matches every taint, and only with operator Exists`,
        'set the key of the taint to tolerate, or operator: Exists to tolerate every taint');
    }
    if (toleration.tolerationSeconds !== undefined && toleration.tolerationSeconds !== null && effect !== 'NoExecute') {
      at('effect', `toleration ${i} sets tolerationSeconds with effect ${JSON.stringify(effect)}: tolerationSeconds is for NoExecute taints only`,
        'set effect: NoExecute, or remove tolerationSeconds');
    }
    if (operator === 'Equal' || operator === '') {
      const error = labelValueError(value);
      if (error !== undefined) at('value', `toleration ${i}: ${error}`, 'write the value of the taint as the node carries it (a label value)');
    } else if (operator === 'Exists') {
      if (value !== '') {
        at('value', `toleration ${i} has operator Exists with value ${JSON.stringify(value)}: Exists matches any value and takes none`,
          `remove the value, or use operator: Equal to match ${JSON.stringify(value)} only`);
      }
    } else if (operator !== 'Lt' && operator !== 'Gt') {
      const exact = ['Equal', 'Exists'].find((o) => o.toLowerCase() === operator.toLowerCase());
      at('operator', `toleration ${i}: operator ${JSON.stringify(operator)} is neither Equal nor Exists (compared exactly)`,
        exact !== undefined ? `write operator: ${exact}` : 'set operator to Equal (with a value) or Exists (without)');
    }
    if (effect !== '' && !TOLERATION_EFFECTS.includes(effect)) {
      const exact = TOLERATION_EFFECTS.find((e) => e.toLowerCase() === effect.toLowerCase());
      at('effect', `toleration ${i}: effect ${JSON.stringify(effect)} is none of ${TOLERATION_EFFECTS.join(', ')} (compared exactly)`,
        exact !== undefined ? `write effect: ${exact}` : 'set effect to the taint\'s (NoSchedule, PreferNoSchedule or NoExecute), or remove it to match every effect');
    }
  });
  return violations;
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];

function restartPolicy(spec: any): ApiViolation[] {
  const policy = text(spec.restartPolicy);
  if (policy === '' || RESTART_POLICIES.includes(policy)) return [];
  return [{
    field: 'restartPolicy',
    message: `restartPolicy ${JSON.stringify(policy)} is none of ${RESTART_POLICIES.join(', ')} (compared exactly)`,
    fix: 'set restartPolicy to Always, OnFailure or Never as the workload\'s kind requires, or remove it (Always)',
  }];
}
