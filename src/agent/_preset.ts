/**
 * Internal: how the presets combine their defaults with the user's props. Not exported from the package.
 *
 * One rule for every preset: a property the user sets (to anything but `undefined`) replaces the
 * preset's default for that property entirely. Lists and maps are replaced, never merged, so that
 * what the user wrote is exactly what is rendered; to add to a preset's lists, call the agent's
 * `add*` methods after construction (`addHostMount`, `addToleration`, `addClusterPermission`, ...).
 * The one coupling: `runAsRoot` and `runAsUser` exclude each other, so setting one drops the
 * preset's default for the other.
 */
export function withPresetDefaults<T extends object>(defaults: T, props: object | undefined): T {
  const given: any = props ?? {};
  const merged: any = { ...defaults };
  for (const [key, value] of Object.entries(given)) {
    if (value !== undefined) merged[key] = value;
  }
  // runAsRoot and runAsUser exclude each other: choosing one drops the preset's default for the other.
  if (given.runAsUser !== undefined && given.runAsRoot === undefined) delete merged.runAsRoot;
  if (given.runAsRoot !== undefined && given.runAsUser === undefined) delete merged.runAsUser;
  return merged;
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
    // null counts as not set, as the props' guard reads it
    if (!a.unless.every((key) => given[key] === undefined || given[key] === null)) continue;
    if (a.pod) agent.acknowledge(a.rule, a.reason);
    else agent.acknowledge(a.rule, a.reason, a.container === undefined || a.container === MAIN_CONTAINER ? main : a.container);
  }
}

/** throws an error prefixed with the path the preset's construct will have (it does not exist yet while its props resolve). */
export function presetFail(scope: { node: { path: string } }, id: string, message: string): never {
  const parent = scope.node.path;
  throw new Error(`[${parent ? `${parent}/` : ''}${id}] ${message}`);
}
