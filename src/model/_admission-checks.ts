/**
 * Internal: each host privilege type's detection, written in the API server's CEL, for the admission policy.
 *
 * One entry per `HostAccessType` (the `satisfies` clause fails to compile until a new type has one), next to its
 * descriptor's `detect` in `_host-privileges.ts`: `requirements` is a CEL expression over the policy's variables
 * (`variables.podSpec`, `variables.containers`, `variables.hostPathVolumes`, `variables.mountedHostPaths`,
 * `variables.writableHostPaths`) giving, for every
 * privilege of the type that the descriptor requires a reason for, the pair `[identity with its container, identity
 * without one]` of `_reason-annotations.ts` (the same identity twice for a pod's privilege). `leftToReview` says what
 * of the descriptor's detection CEL cannot reproduce exactly: the policy then admits, and the review decides. The
 * cluster suite checks every entry against `HostAccess.of` on the real API server.
 */
import { capabilityDetail } from './_host-privileges';
import { HostAccessItem } from './host-access-item';
import { HostAccessType } from './host-access-type';

export interface AdmissionCheck {
  /** CEL: a list of `[identity with container, identity without container]` pairs, one per privilege needing a reason. */
  readonly requirements: string;
  /** what the policy leaves to the review for this type, and why; empty when the check is exact. */
  readonly leftToReview: string[];
}

/** CEL: a detail as `escapeDetail` writes it in an identity. */
function escaped(cel: string): string {
  return `${cel}.replace('%', '%25').replace('|', '%7C')`;
}

/** CEL: the pair for a container's privilege whose detail is `detail` (CEL). */
function containerPair(type: HostAccessType, detail: string): string {
  return `[string('${type}[' + c.name + '] ' + ${escaped(detail)}), string('${type} ' + ${escaped(detail)})]`;
}

/** a pod-level host namespace. */
function hostNamespace(type: HostAccessType): AdmissionCheck {
  return { requirements: `variables.podSpec.?${type}.orValue(false) == true ? [['${type}', '${type}']] : []`, leftToReview: [] };
}

/** a container flag whose detail is the container's name, held when `condition` (CEL over `c`) is true. */
function containerFlag(type: HostAccessType, condition: string, leftToReview: string[] = []): AdmissionCheck {
  return { requirements: `variables.containers.filter(c, ${condition}).map(c, ${containerPair(type, 'c.name')})`, leftToReview };
}

/** CEL: a container's Windows option, its own else the pod's (`windowsOption` in `_pod-spec.ts`). */
function windowsOption(key: string, fallback: string): string {
  return `c.?securityContext.?windowsOptions.?${key}.orValue(variables.podSpec.?securityContext.?windowsOptions.?${key}.orValue(${fallback}))`;
}

/** CEL: the container runs as a HostProcess container. */
const HOST_PROCESS = `${windowsOption('hostProcess', 'false')} == true`;

/** CEL: a security context setting of the container, else the pod's, as an optional. */
function effective(key: string): string {
  return `c.?securityContext.?${key}.or(variables.podSpec.?securityContext.?${key})`;
}

/** CEL: the pod runs on Windows (`isWindowsPod`). */
const WINDOWS_POD = `(variables.podSpec.?os.?name.orValue('') == 'windows' || variables.podSpec.?nodeSelector[?'kubernetes.io/os'].orValue('') == 'windows' || variables.containers.exists(c, ${HOST_PROCESS}))`;

/** CEL: a capability as `capabilityDetail` writes it (trimmed, upper case, without CAP_), for ASCII names. */
const CAPABILITY = '(x.trim().upperAscii().startsWith(\'CAP_\') ? x.trim().upperAscii().substring(4) : x.trim().upperAscii())';

/** CEL: whether any container mounts the host path `h[0]` (through any of its volumes), and all of them read-only. */
const READ_ONLY = '(h[0] in variables.mountedHostPaths && !(h[0] in variables.writableHostPaths))';

export const ADMISSION_CHECKS = {
  [HostAccessType.HOST_PATH]: {
    requirements: `variables.hostPathVolumes.map(h, 'hostPath ' + ${escaped(`(h[0] + (${READ_ONLY} ? ' (read-only)' : ' (read-write)'))`)}).map(i, [string(i), string(i)])`,
    leftToReview: [
      'a host path with a `..` segment (the API server refuses one in a hostPath volume; CEL cannot resolve it)',
    ],
  },
  [HostAccessType.HOST_NETWORK]: hostNamespace(HostAccessType.HOST_NETWORK),
  [HostAccessType.HOST_PID]: hostNamespace(HostAccessType.HOST_PID),
  [HostAccessType.HOST_IPC]: hostNamespace(HostAccessType.HOST_IPC),
  [HostAccessType.HOST_PORT]: {
    // on the host network the API server defaults every Pod's hostPort to its containerPort (not a template's), so an
    // admitted Pod cannot tell a declared hostPort (which needs a reason) from a container port (which the hostNetwork's
    // reason explains)
    requirements: `object.kind == 'Pod' && variables.podSpec.?hostNetwork.orValue(false) == true ? [] : variables.containers.map(c, c.?ports.orValue([])
      .filter(p, p.?hostPort.orValue(0) != 0).map(p, ${containerPair(HostAccessType.HOST_PORT, '(string(p.hostPort) + \'/\' + p.?protocol.orValue(\'TCP\'))')})).flatten()`,
    leftToReview: [
      'a hostPort declared in a bare Pod on the host network (`hostNetwork: true`): the API server gives every container port of ' +
        'such a Pod a hostPort equal to it (not those of a workload\'s template), so admission cannot tell a declared one from a ' +
        'default; the hostNetwork needs its reason either way',
    ],
  },
  [HostAccessType.PRIVILEGED]: containerFlag(HostAccessType.PRIVILEGED, 'c.?securityContext.?privileged.orValue(false) == true'),
  [HostAccessType.HOST_PROCESS]: containerFlag(HostAccessType.HOST_PROCESS, HOST_PROCESS),
  [HostAccessType.CAPABILITY]: {
    requirements: `variables.containers.map(c, c.?securityContext.?capabilities.?add.orValue([])
      .filter(x, x.matches(r'^[\\x00-\\x7f]*$') && x.trim() != '').map(x, ${containerPair(HostAccessType.CAPABILITY, CAPABILITY)})).flatten()`,
    leftToReview: [
      'a capability name with a character outside ASCII (CEL\'s upperAscii does not upper-case it as the review does)',
    ],
  },
  // Linux: UID 0, or no runAsUser and no runAsNonRoot: true; Windows (not HostProcess): ContainerAdministrator or no
  // runAsUserName, without runAsNonRoot: true (`mayRunAsAdministrator`)
  [HostAccessType.RUN_AS_ROOT]: containerFlag(HostAccessType.RUN_AS_ROOT,
    `${WINDOWS_POD} ? (!(${HOST_PROCESS}) && ${effective('runAsNonRoot')}.orValue(false) != true && ` +
    `${windowsOption('runAsUserName', "''")}.lowerAscii() in ['', 'containeradministrator']) : ` +
    `(${effective('runAsUser')}.hasValue() ? ${effective('runAsUser')}.value() == 0 : ${effective('runAsNonRoot')}.orValue(false) != true)`),
} satisfies { [type in HostAccessType]: AdmissionCheck };

/**
 * Whether the admission policy checks this privilege's reason exactly (the others, listed in `leftToReview`, it admits):
 * not a hostPort of a bare Pod on the host network, a capability name outside ASCII or a host path with a `..` segment.
 *
 * @param kind the kind of the workload whose pod spec it is
 */
export function checkedAtAdmission(item: HostAccessItem, podSpec: any, kind: string): boolean {
  switch (item.type) {
    case HostAccessType.HOST_PORT: return kind !== 'Pod' || podSpec?.hostNetwork !== true;
    // the item's detail is normalised: the pod's own capability strings decide
    case HostAccessType.CAPABILITY: return capabilitiesOf(podSpec, item.container).every((c) => capabilityDetail(c) !== item.detail || /^[\x00-\x7f]*$/.test(c));
    case HostAccessType.HOST_PATH: return !(item.volumes ?? []).some((name) => volumePath(podSpec, name).split('/').includes('..'));
    default: return true;
  }
}

function capabilitiesOf(podSpec: any, container: string | undefined): string[] {
  const containers = [...podSpec?.initContainers ?? [], ...podSpec?.containers ?? []].filter((c: any) => c?.name === container);
  return containers.flatMap((c: any) => (c?.securityContext?.capabilities?.add ?? []).map(String));
}

function volumePath(podSpec: any, name: string): string {
  return String((podSpec?.volumes ?? []).find((v: any) => v?.name === name)?.hostPath?.path ?? '');
}
