import { dropUndefined } from './_pod-spec';
import { compareText } from './_text-order';
import { HostAccessType } from './host-access-type';

/**
 * One host privilege together with the reason it was granted.
 *
 * The `detail` identifies the privilege within its type, in the same words the review uses:
 * - `hostPath`: the host path and its mode, e.g. `/var/log (read-only)` or `/var/lib/fluent-bit (read-write)`
 * - `hostPort`: the port and protocol, e.g. `9100/TCP`
 * - `capability`: the capability name, e.g. `NET_ADMIN`
 * - `privileged`, `hostProcess`, `runAsRoot`: the container name
 * - `hostNetwork`, `hostPID`, `hostIPC`: an empty string
 */
export interface HostAccessReason {
  /** the kind of host access. */
  readonly type: HostAccessType;

  /** which privilege of that kind (see the interface documentation for the format per type). */
  readonly detail: string;

  /**
   * The container that holds the privilege, for container-level privileges.
   *
   * @default - a pod-level privilege (host namespaces), or one that applies to every container that holds it
   */
  readonly container?: string;

  /** why the agent needs it, in one line. */
  readonly reason: string;
}

/**
 * Reads and writes the annotation in which a workload records why it takes each host privilege.
 *
 * NodeAgent writes it on the DaemonSet's metadata (not on the pod template, so that rewording a
 * reason never restarts the agent on every node); the review and the CLI read it from any manifest.
 * Beside it, NodeAgent writes each reason again as one `host-access.node-agents.cdk8s.io/<name>`
 * annotation (`"<privilege> | <reason>"`), the form the admission policy of `HostAccessPolicy` reads
 * (CEL cannot decode this JSON list exactly).
 */
export class HostAccessReasons {
  /** the annotation key on the workload's metadata. */
  public static readonly ANNOTATION = 'node-agents.cdk8s.io/host-access';

  /**
   * Serializes reasons into the annotation value: a JSON array, sorted so that output is deterministic.
   */
  public static format(reasons: HostAccessReason[]): string {
    const sorted = [...reasons].sort((a, b) => compareText(sortKey(a), sortKey(b)));
    return JSON.stringify(sorted.map((r) => dropUndefined({ type: r.type, detail: r.detail, container: r.container, reason: r.reason })));
  }

  /**
   * Reads the reasons recorded in a workload's annotations.
   *
   * @param annotations the `metadata.annotations` of a workload (may be undefined)
   * @returns the recorded reasons; an empty list when the annotation is absent
   * @throws when the annotation is present but not a JSON array of reasons
   */
  public static parse(annotations?: { [key: string]: string }): HostAccessReason[] {
    const raw = annotations?.[HostAccessReasons.ANNOTATION];
    if (raw === undefined) return [];
    // the same annotation is read by the synth gate and by the review of every synth: parsed once (entries frozen)
    const cached = typeof raw === 'string' ? PARSED.get(raw) : undefined;
    if (cached !== undefined) return [...cached];
    const reasons = parseReasons(raw);
    if (typeof raw === 'string') {
      if (PARSED.size >= PARSED_MAX) PARSED.clear();
      PARSED.set(raw, reasons);
    }
    return [...reasons];
  }

  /**
   * Finds the reason recorded for one privilege, or undefined when none was given.
   *
   * A reason recorded without a container applies to every container.
   */
  public static find(reasons: HostAccessReason[], type: HostAccessType, detail: string, container?: string): HostAccessReason | undefined {
    return reasons.find((r) => r.type === type && r.detail === detail
      && (r.container === undefined || container === undefined || r.container === container));
  }
}

function sortKey(r: HostAccessReason): string {
  return `${r.type}\u0000${r.detail}\u0000${r.container ?? ''}`;
}

const KNOWN_TYPES = new Set<string>(Object.values(HostAccessType));
const PARSED = new Map<string, HostAccessReason[]>();
const PARSED_MAX = 1024;

function parseReasons(raw: string): HostAccessReason[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw new Error(`annotation ${HostAccessReasons.ANNOTATION} is not valid JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(parsed)) {
    throw new Error(`annotation ${HostAccessReasons.ANNOTATION} must be a JSON array of {type, detail, reason}, got ${raw}`);
  }
  return parsed.map((item: any, i: number) => {
    if (!item || typeof item !== 'object' || !KNOWN_TYPES.has(item.type) || typeof item.detail !== 'string' || typeof item.reason !== 'string') {
      throw new Error(`annotation ${HostAccessReasons.ANNOTATION}: entry ${i} must be {type, detail, reason} with type one of ${[...KNOWN_TYPES].join(', ')}, got ${JSON.stringify(item)}`);
    }
    return Object.freeze(dropUndefined({
      type: item.type as HostAccessType, detail: item.detail, container: item.container, reason: item.reason,
    })) as HostAccessReason;
  });
}
