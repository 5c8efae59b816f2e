/**
 * Internal: the host-access reasons in a form CEL can check exactly, one annotation per privilege.
 *
 * The reasons annotation (`node-agents.cdk8s.io/host-access`) is a JSON list, and CEL in the API server has no JSON
 * decoding: an admission policy cannot read it exactly. Beside it, NodeAgent writes one annotation per reason:
 *
 *     host-access.node-agents.cdk8s.io/<name>: "<identity> | <reason>"
 *
 * `<name>` is free (any valid annotation name: the policy reads every key with the prefix); `<identity>` is the privilege
 * as `type`, then `[container]` for a container's privilege, then a space and the detail (when it has one), with `%` and
 * `|` in the detail written `%25` and `%7C`. The identity holds no `|`, so the first ` | ` ends it: one value names
 * exactly one privilege, whatever its reason says. Examples: `hostNetwork | serves node metrics`,
 * `hostPath /var/log (read-only) | tails the node's logs`, `capability[agent] NET_ADMIN | programs routes`.
 *
 * `reasonAnnotations` writes, from the JSON list, exactly the entries `HostAccessReasons.find` can return, so that a privilege is explained in one form exactly when it is in the other (a property test holds
 * this); `explainedIn` is that check in TypeScript, written as the policy's CEL writes it.
 */
import { descriptorOf } from './_host-privileges';
import { HostAccessItem } from './host-access-item';
import { HostAccessReason, HostAccessReasons } from './host-access-reasons';
import { HostAccessType } from './host-access-type';

/** the prefix (a DNS subdomain) of every per-privilege reason annotation. */
export const REASON_ANNOTATION_PREFIX = 'host-access.node-agents.cdk8s.io/';

/** what separates a privilege's identity from its reason. */
export const REASON_SEPARATOR = ' | ';

/**
 * the characters JavaScript's `String.prototype.trim` removes (and the synth gate therefore reads as blank), as an RE2
 * character class: the policy's CEL uses it to ask for a non-blank reason exactly as the gate does.
 */
export const BLANK_CHARACTERS = '\\t\\n\\x{0b}\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
const BLANK = /^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$/;

/** a detail as an identity writes it: `%` and `|` escaped, so that no identity holds a `|`. */
export function escapeDetail(detail: string): string {
  return detail.replace(/%/g, '%25').replace(/\|/g, '%7C');
}

/** the identity of a privilege in a per-privilege annotation: `capability[agent] NET_ADMIN`, `hostNetwork`. */
export function privilegeIdentity(type: HostAccessType, detail: string, container?: string): string {
  return `${type}${container === undefined ? '' : `[${escapeDetail(container).replace(/]/g, '%5D')}]`}${detail === '' ? '' : ` ${escapeDetail(detail)}`}`;
}

/** whether a reason is blank as the synth gate reads it (`reason.trim() === ''`). */
export function isBlankReason(reason: string): boolean {
  return BLANK.test(reason);
}

/**
 * The per-privilege annotations for a list of reasons (in the order `HostAccessReasons.parse` returns them): every entry
 * `HostAccessReasons.find` can return, blank or not, and none it never returns (a later duplicate, or an entry for one
 * container after an entry without a container). A reason with a container
 * for a pod's privilege (a hostPath) is written without it: `find` ignores the container of a pod's privilege.
 */
export function reasonAnnotations(reasons: HostAccessReason[]): { [key: string]: string } {
  const picked: HostAccessReason[] = [];
  const seen = new Set<string>();
  // find() takes the first entry of the type and detail whose container is unset or the one asked for: an entry without
  // a container answers for every container, so it shadows every later entry of the same type and detail.
  const unscoped = new Set<string>();
  for (const r of reasons) {
    const pod = descriptorOf(r.type).scope === 'pod';
    const container = pod ? undefined : r.container;
    const privilege = JSON.stringify([r.type, r.detail]);
    if (unscoped.has(privilege)) continue;
    const key = JSON.stringify([r.type, r.detail, container ?? null]);
    if (container === undefined) unscoped.add(privilege);
    if (seen.has(key)) continue;
    seen.add(key);
    picked.push({ ...r, container });
  }
  const annotations: { [key: string]: string } = {};
  const names = new Set<string>();
  for (const r of picked) {
    // a blank reason is written too: an entry for one container, even blank, is what find() returns for that container
    // before any entry without a container that comes after it
    const identity = privilegeIdentity(r.type, r.detail, r.container);
    annotations[`${REASON_ANNOTATION_PREFIX}${uniqueName(identity, names)}`] = `${identity}${REASON_SEPARATOR}${r.reason}`;
  }
  return annotations;
}

/**
 * Whether the per-privilege annotations explain a privilege, read as the policy's CEL reads them: an entry for the
 * privilege in its container decides when there is one, else an entry without a container; either needs a non-blank
 * reason.
 */
export function explainedIn(annotations: { [key: string]: string } | undefined, type: HostAccessType, detail: string, container?: string): boolean {
  const entries = new Map<string, boolean>();
  for (const [key, value] of Object.entries(annotations ?? {})) {
    if (!key.startsWith(REASON_ANNOTATION_PREFIX) || typeof value !== 'string') continue;
    const at = value.indexOf(REASON_SEPARATOR);
    if (at < 0) continue;
    const identity = value.slice(0, at);
    entries.set(identity, entries.get(identity) === true || !isBlankReason(value.slice(at + REASON_SEPARATOR.length)));
  }
  const own = container === undefined ? undefined : privilegeIdentity(type, detail, container);
  return own !== undefined && entries.has(own) ? entries.get(own)! : entries.get(privilegeIdentity(type, detail)) === true;
}

/** an annotation name (at most 63 characters of [a-z0-9._-], alphanumeric at both ends) from an identity, unique in `names`. */
function uniqueName(identity: string, names: Set<string>): string {
  const base = identity.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '').slice(0, 56)
    .replace(/[^a-z0-9]+$/, '') || 'privilege';
  let name = base;
  for (let n = 2; names.has(name); n++) name = `${base}-${n}`;
  names.add(name);
  return name;
}

/**
 * Rendered metadata (a workload's `metadata` as JSON) with the per-privilege annotations of its reasons annotation
 * added. Unchanged when the reasons annotation is absent or cannot be read (the synth gate reports that).
 */
export function withReasonAnnotations(metadata: any): any {
  const added = expectedAnnotations(metadata?.annotations);
  if (added === undefined) return metadata;
  return Object.keys(added).length === 0 ? metadata : { ...metadata, annotations: { ...metadata.annotations, ...added } };
}

/**
 * `reasonAnnotations` of the reasons annotation among `annotations`, or undefined when it cannot be read. A NodeAgent's
 * synth computes them twice from the same text (rendering its metadata, then checking them in the gate), so they are
 * computed once per text (frozen, as the parsed reasons are).
 */
function expectedAnnotations(annotations: { [key: string]: string } | undefined): Readonly<{ [key: string]: string }> | undefined {
  const raw = annotations?.[HostAccessReasons.ANNOTATION];
  const cached = typeof raw === 'string' ? EXPECTED.get(raw) : undefined;
  if (cached !== undefined) return cached;
  let reasons: HostAccessReason[];
  try {
    reasons = HostAccessReasons.parse(annotations);
  } catch {
    return undefined;
  }
  const expected = Object.freeze(reasonAnnotations(reasons));
  if (typeof raw === 'string') {
    if (EXPECTED.size >= EXPECTED_MAX) EXPECTED.clear();
    EXPECTED.set(raw, expected);
  }
  return expected;
}

const EXPECTED = new Map<string, Readonly<{ [key: string]: string }>>();
const EXPECTED_MAX = 1024;

/**
 * Why the per-privilege annotations of a manifest are not exactly those of its reasons annotation (one set by hand, or
 * a JSON patch that changed one form and not the other), or an empty list when both forms agree.
 */
export function reasonAnnotationErrors(manifest: any): string[] {
  const annotations: { [key: string]: string } = manifest?.metadata?.annotations ?? {};
  const expected = expectedAnnotations(annotations);
  if (expected === undefined) return []; // the gate reports the reasons annotation itself
  // the common case, without building the lists below: the same names, each with its expected value
  let count = 0;
  let same = true;
  for (const key of Object.keys(annotations)) {
    if (!key.startsWith(REASON_ANNOTATION_PREFIX)) continue;
    count++;
    if (!Object.prototype.hasOwnProperty.call(expected, key) || expected[key] !== annotations[key]) same = false;
  }
  if (same && count === Object.keys(expected).length) return [];
  const actual = Object.fromEntries(Object.entries(annotations).filter(([k]) => k.startsWith(REASON_ANNOTATION_PREFIX)));
  const differ = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort().filter((k) => expected[k] !== actual[k]);
  if (differ.length === 0) return [];
  return [`metadata.annotations ${differ.join(', ')}: annotations under ${REASON_ANNOTATION_PREFIX} are written from the host-access ` +
    `reasons (${HostAccessReasons.ANNOTATION}) and must match them; remove them, and give each privilege its reason through the props or ` +
    'addHostAccessReason (not a JSON patch of the annotations)'];
}

/**
 * The privileges of `items` (a workload's, from `HostAccess.of`) that need a reason and have none in `reasons`: the
 * synth gate's check (`HostAccessReasons.find` with a non-blank reason), which the admission policy makes too.
 */
export function unexplainedPrivileges(items: HostAccessItem[], reasons: HostAccessReason[]): HostAccessItem[] {
  return items.filter((item) => descriptorOf(item.type).reasonRequired(item)
    && !HostAccessReasons.find(reasons, item.type, item.detail, item.container)?.reason.trim());
}

/** both forms of a list of reasons, as NodeAgent writes them: the JSON list and one annotation per privilege. */
export function reasonsInBothForms(reasons: HostAccessReason[]): { [key: string]: string } {
  const json = HostAccessReasons.format(reasons);
  return { [HostAccessReasons.ANNOTATION]: json, ...reasonAnnotations(HostAccessReasons.parse({ [HostAccessReasons.ANNOTATION]: json })) };
}
