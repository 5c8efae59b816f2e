import { show } from './_validate';

/**
 * Internal: how the presets combine their defaults with the user's props. Not exported from the package.
 *
 * One rule for every preset: a property the user sets (to anything but `undefined`) replaces the
 * preset's default for that property, except in the list props where the preset declares what it
 * needs to work (`PresetEssentials`): there the preset's essential items are kept, first, and the
 * user's items are added after them; its other defaults in that list are replaced. An item of the
 * user's that is identical to an essential one is already there; one that conflicts with it (the same
 * mount path, container name, port, capability or `--flag=`) is refused, naming what the preset keeps
 * and why, since rendering both would break the pod or silently override the preset. Defaults the user
 * may set otherwise (`overridable`) stay unless one of the user's items takes their place. Map props
 * the preset needs entries in (`maps`: env, annotations, config files) work alike: the user's entries
 * are added, and another value for one of the preset's keys is refused.
 * The one coupling: `runAsRoot` and `runAsUser` exclude each other, so setting one drops the
 * preset's default for the other.
 */
export function withPresetDefaults<T extends object>(defaults: T, props: object | undefined, essentials: PresetEssentials = {}): T {
  const given: any = props ?? {};
  const merged: any = { ...defaults };
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const needed = essentials.lists?.[key];
    const neededEntries = essentials.maps?.[key];
    merged[key] = needed ? withEssentials(essentials, key, needed, value as unknown[])
      : neededEntries ? withEssentialEntries(essentials, key, neededEntries, value as { [key: string]: unknown }) : value;
  }
  // runAsRoot and runAsUser exclude each other: choosing one drops the preset's default for the other.
  if (given.runAsUser !== undefined && given.runAsRoot === undefined) delete merged.runAsRoot;
  if (given.runAsRoot !== undefined && given.runAsUser === undefined) delete merged.runAsUser;
  return merged;
}

/** what a preset needs in one of its list props: kept when the user sets the prop, the user's items added after it. */
export interface EssentialItems {
  /** the items, exactly as the preset's default renders them. */
  readonly items: readonly unknown[];
  /** why the preset needs them, in one clause: the message refusing a conflicting item says it. */
  readonly why: string;
  /**
   * Defaults kept after the essential items unless one of the user's items takes their place (the same flag, mount
   * path, name): what the preset sets for a reason but the user may set otherwise.
   */
  readonly overridable?: readonly unknown[];
}

/** a preset's essentials: its name (for messages), how it fails, and, per list prop, the items it keeps. */
export interface PresetEssentials {
  /** the preset's class, e.g. `LogCollector`. */
  readonly preset?: string;
  /** throws the message with the construct's path. */
  readonly fail?: (message: string) => never;
  /** the items kept in each list prop the preset needs something in. */
  readonly lists?: { readonly [prop: string]: EssentialItems };
  /** the entries kept in each map prop (`env`, `podAnnotations`, `configFiles`) the preset needs something in. */
  readonly maps?: { readonly [prop: string]: EssentialEntries };
}

/** what a preset needs in one of its map props: kept when the user sets the prop, the user's entries added. */
export interface EssentialEntries {
  /** the entries, exactly as the preset's default renders them. */
  readonly entries: { readonly [key: string]: unknown };
  /** why the preset needs them, in one clause: the message refusing a conflicting entry says it. */
  readonly why: string;
}

/** the preset's entries and the user's; a key of the preset's given another value is refused (the same value is there already). */
function withEssentialEntries(essentials: PresetEssentials, prop: string, needed: EssentialEntries,
  given: { [key: string]: unknown }): { [key: string]: unknown } {
  for (const [key, value] of Object.entries(given)) {
    if (!Object.prototype.hasOwnProperty.call(needed.entries, key) || JSON.stringify(needed.entries[key]) === JSON.stringify(value)) continue;
    const fail = essentials.fail ?? ((m: string) => { throw new Error(m); });
    fail(`${prop}: ${key} is one of the ${prop} ${essentials.preset ?? 'the preset'} always keeps, because ${needed.why}. The ${prop} you set are ` +
      `added to the preset's: leave ${key} out, or give yours another name`);
  }
  return { ...needed.entries, ...given };
}

/** how an item of a list prop is named, and the keys by which two items of it conflict (none: they never do). */
interface ItemIdentity {
  readonly name: (item: any) => string;
  readonly keys: (item: any) => ItemKey[];
  /** items that mean something each time they are given (`-o` of `-o key=value`): never merged with an equal one. */
  readonly repeatable?: (item: any) => boolean;
}

/** one thing two items of a list must not share: `{ kind: 'mount path', value: '/var/log' }`. */
interface ItemKey {
  readonly kind: string;
  readonly value: string;
}

const CONTAINER: ItemIdentity = { name: (c) => `container ${c.name}`, keys: (c) => [{ kind: 'name', value: c.name }] };
const RULE: ItemIdentity = { name: (r) => `rule ${JSON.stringify(r)}`, keys: () => [] };

/** the list props a preset can keep items in, and how their items are told apart. */
const IDENTITIES: { readonly [prop: string]: ItemIdentity } = {
  args: { name: (a) => `arg ${a}`, keys: (a) => flagOf(a), repeatable: (a) => flagOf(a).length === 0 },
  hostMounts: {
    name: (m) => `host mount ${m.hostPath} at ${m.mountPath} (${m.writable ? 'read-write' : 'read-only'})`,
    keys: (m) => [{ kind: 'mount path', value: m.mountPath }],
  },
  scratchDirs: { name: (p) => `scratch directory ${p}`, keys: (p) => [{ kind: 'path', value: p }] },
  capabilities: { name: (c) => `capability ${c.capability}`, keys: (c) => [{ kind: 'capability', value: c.capability }] },
  ports: { name: (p) => `port ${p.name} (${p.containerPort})`, keys: (p) => [{ kind: 'name', value: p.name }, { kind: 'port number', value: String(p.containerPort) }] },
  initContainers: CONTAINER,
  sidecars: CONTAINER,
  volumes: { name: (v) => `${v.kind} volume at ${v.mountPath}`, keys: (v) => [{ kind: 'mount path', value: v.mountPath }] },
  envFrom: { name: (e) => `env from the ${e.kind} ${e.name}`, keys: () => [] },
  clusterPermissions: RULE,
  namespacePermissions: RULE,
};

/** the flag an argument sets as `--flag=value` (`-o value` pairs and bare flags set nothing two args can disagree on). */
function flagOf(arg: string): ItemKey[] {
  const m = /^(--?[A-Za-z0-9][\w.-]*)=/.exec(arg);
  return m ? [{ kind: 'flag', value: m[1] }] : [];
}

function withEssentials(essentials: PresetEssentials, prop: string, needed: EssentialItems, given: unknown[]): unknown[] {
  const identity = IDENTITIES[prop];
  if (!identity) throw new Error(`internal: no item identity for the list prop ${prop}`);
  const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
  const keysOf = (item: unknown) => identity.keys(item).map((k) => `${k.kind} ${k.value}`);
  const userKeys = new Set(given.flatMap(keysOf));
  const stays = (d: unknown) => !given.some((g) => same(g, d)) && !keysOf(d).some((k) => userKeys.has(k));
  const out = [...needed.items, ...(needed.overridable ?? []).filter(stays)];
  for (const item of given) {
    // the preset's own item, given back: it is there once
    if (!identity.repeatable?.(item) && needed.items.some((e) => same(e, item))) continue;
    const keys = keysOf(item);
    for (const essential of needed.items) {
      const key = identity.keys(essential).find((k) => keys.includes(`${k.kind} ${k.value}`));
      if (!key) continue;
      const fail = essentials.fail ?? ((m: string) => { throw new Error(m); });
      const preset = essentials.preset ?? 'the preset';
      const added = `The ${prop} you set are added to the preset's`;
      if (identity.name(essential) === `${key.kind} ${key.value}`) {
        // an item that is nothing but its key (a capability): the preset's already is that item
        fail(`${prop}: your ${identity.name(item)} is already one of the ${prop} ${preset} always keeps, because ${needed.why}. ${added}: leave it out`);
      }
      fail(`${prop}: your ${identity.name(item)} has the ${key.kind} ${key.value} of the ${identity.name(essential)} that ` +
        `${preset} always keeps, because ${needed.why}. ${added}: leave this one out, or give yours another ${key.kind}`);
    }
    out.push(item);
  }
  return out;
}

/** `props` without the keys that only the preset reads (they are not NodeAgent props). */
export function withoutKeys<T extends object>(props: T | undefined, keys: string[]): T {
  const out: any = {};
  for (const [key, value] of Object.entries(props ?? {})) {
    if (!keys.includes(key)) out[key] = value;
  }
  return out;
}

/**
 * A security-review finding that a preset's own defaults cause, accepted with the reason the preset
 * needs them. It holds only while those defaults are in effect: when the user sets any prop listed in
 * `unless`, the finding comes from the user's choice and is left for the user to judge.
 */
export interface PresetAcknowledgement {
  /** the rule ID, e.g. `NA-RUNTIME-SOCKET`. */
  readonly rule: string;
  /** why the preset's default needs what the rule flags, in one line. */
  readonly reason: string;
  /** the props whose defaults cause the finding. */
  readonly unless: string[];
  /** the container the finding is about; `main` for the agent's main container (whatever its name). */
  readonly container?: string;
  /** a pod-level finding (Pod Security checks name no container). */
  readonly pod?: boolean;
}

/** the `container` of a `PresetAcknowledgement` that stands for the main container. */
export const MAIN_CONTAINER = 'main';

/**
 * Records the acknowledgements whose defaults are in effect: scoped to their container, so that they
 * never accept a finding about a container the user added.
 */
export function acknowledgeDefaults(
  agent: { acknowledge(rule: string, reason: string, container?: string): void },
  props: { containerName?: string } | undefined,
  acks: PresetAcknowledgement[],
): void {
  const given: any = props ?? {};
  const main = props?.containerName ?? 'agent';
  for (const a of acks) {
    // null counts as not set, as the props' guard reads it; so does an empty list, which adds nothing to the preset's
    if (!a.unless.every((key) => given[key] === undefined || given[key] === null || (Array.isArray(given[key]) && given[key].length === 0))) continue;
    if (a.pod) agent.acknowledge(a.rule, a.reason);
    else agent.acknowledge(a.rule, a.reason, a.container === undefined || a.container === MAIN_CONTAINER ? main : a.container);
  }
}

/** refuses a port that is no TCP or UDP port number, naming the factory that was given it. */
export function checkPortNumber(field: string, port: number): void {
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${field}: port must be a whole number from 1 to 65535, got ${show(port)}`);
  }
}

/**
 * The `configFiles` a user sets replace a preset's rendered configuration: refused unless they hold the file the agent
 * is started with (`runsWith` says how, `start` where to start one from).
 */
export function requireConfigFile(fail: (message: string) => never, configFiles: { [file: string]: string } | undefined,
  rendered: { file: string; runsWith: string; start: string }): void {
  if (configFiles === undefined || Object.prototype.hasOwnProperty.call(configFiles, rendered.file)) return;
  fail(`configFiles: ${rendered.runsWith}, which your configFiles do not hold ` +
    `(${Object.keys(configFiles).map((f) => JSON.stringify(f)).join(', ') || 'none'}): the files you set replace the rendered configuration, so give ` +
    `${rendered.file}, e.g. starting from ${rendered.start}`);
}

/** throws an error prefixed with the path the preset's construct will have (it does not exist yet while its props resolve). */
export function presetFail(scope: { node: { path: string } }, id: string, message: string): never {
  const parent = scope.node.path;
  throw new Error(`[${parent ? `${parent}/` : ''}${id}] ${message}`);
}
