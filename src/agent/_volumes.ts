/**
 * Internal: names the pod's volumes. Not exported.
 *
 * Names derived from paths (`/var/log` becomes `host-var-log`) are lossy: `/a-b` and `/a/b` give the
 * same slug, and long paths are cut at 63 characters. Rather than fail on valid input, a derived name
 * that is already taken gets a short hash of its source appended. Names the user chose are kept as
 * given and must not collide with each other or with the volumes the agent owns (`config`).
 */
import { createHash } from 'node:crypto';
import { compareText } from '../model/_text-order';

/** one volume to name. */
export interface VolumeRequest {
  /** what the volume is, e.g. `host\u0000/var/log`; requests with the same key share one volume. */
  readonly key: string;
  /** the name to use if free (explicit) or to start from (derived). */
  readonly name: string;
  /** whether the user chose the name. */
  readonly explicit: boolean;
  /** how to describe the volume in an error. */
  readonly describe: string;
}

/** assigns a unique name to every distinct key; returns the names by key, or the errors. */
export function assignVolumeNames(requests: VolumeRequest[], reserved: { [name: string]: string }): { names: Map<string, string>; errors: string[] } {
  const names = new Map<string, string>();
  const owner = new Map<string, { key: string; describe: string }>();
  const errors: string[] = [];
  for (const [name, describe] of Object.entries(reserved)) owner.set(name, { key: `reserved\u0000${name}`, describe });

  for (const r of requests.filter((q) => q.explicit)) {
    const taken = owner.get(r.name);
    if (taken && taken.key !== r.key) {
      errors.push(`volume name "${r.name}" is used for ${taken.describe} and for ${r.describe}: give one of them another volumeName`);
      continue;
    }
    owner.set(r.name, { key: r.key, describe: r.describe });
    names.set(r.key, r.name);
  }
  const derived = requests.filter((q) => !q.explicit && !names.has(q.key)).sort((a, b) => compareText(a.key, b.key));
  for (const r of derived) {
    if (names.has(r.key)) continue;
    let name = trim(r.name, 63);
    const taken = owner.get(name);
    if (taken && taken.key !== r.key) name = `${trim(r.name, 54)}-${hash(r.key)}`;
    owner.set(name, { key: r.key, describe: r.describe });
    names.set(r.key, name);
  }
  return { names, errors };
}

function trim(name: string, max: number): string {
  return name.slice(0, max).replace(/-+$/, '');
}

function hash(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}
