/**
 * Internal: runtime guards for the values that cross the public API. Not exported from the package.
 *
 * A jsii library is called from plain JavaScript too, where no type stops an object in place of a list, a string in
 * place of a boolean or a misspelled property. Each value that crosses the API has a `Shape` (a small table per props
 * interface, see agent/_props-schema.ts), checked before anything reads the value: a wrong type or an unknown
 * property fails with the field, the value received and the fix, never a TypeError or a silent change.
 *
 * `null` counts as "not set" for an optional field (as jsii sends an unset value); the checks return a normalised copy
 * of plain structs without those fields, so the code behind a guard only ever sees `undefined` for them. Class
 * instances pass through unchanged.
 *
 * Free of construct libraries: review/, agent/ and plugin/ use it alike.
 */

/** throws the message, with whatever prefix the caller adds (a construct path, a factory's name). */
export type Report = (message: string) => never;

/** what a value must be, and how to check it. */
export interface Shape {
  /** what a valid value is, for messages: `a list of strings`. */
  readonly expected: string;
  /** a valid value as code, for the fix: `['--verbose']`. */
  readonly example?: string;
  /** when set, a missing value is an error with this fix. */
  readonly required?: string;
  /**
   * Checks a value that is set (neither undefined nor null) and returns it as the library keeps it.
   */
  readonly check: (value: unknown, path: string, report: Report) => unknown;
  /** for a list: the shape of its items (what tells a list prop from the others, e.g. for the presets' list rules). */
  readonly item?: Shape;
  /** for a map: the shape of its values (what tells a map prop from the others). */
  readonly entry?: Shape;
  /** for a struct: its fields. */
  readonly fields?: Fields;
}

/** a received value as an error message quotes it: JSON, shortened to 80 characters. */
export function show(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  let s: string | undefined;
  try {
    s = value === undefined ? 'undefined' : JSON.stringify(value);
  } catch {
    s = undefined;
  }
  if (s === undefined) s = typeof value === 'function' ? 'a function' : String(value);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** a received value, with its class when it is an instance of one: `Toleration {"key":"a"}`, `a Map`. */
export function received(value: unknown): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !isPlainObject(value)) {
    const name = (value as any).constructor?.name;
    const json = show(value);
    if (typeof name === 'string' && name !== '') return json === '{}' ? `a ${name}` : `${name} ${json}`;
  }
  return show(value);
}

/** an object literal (or a struct from another jsii language): not an array, not a class instance. */
export function isPlainObject(value: unknown): value is { [key: string]: unknown } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  // the last case: an object literal of another realm (vm context), whose Object.prototype is another object
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

/** the edit distance between two strings: insertions, deletions, substitutions and swaps of neighbours. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array.from({ length: b.length }, (__, j) => (i === 0 ? j + 1 : 0))]);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The candidate `name` is most likely a misspelling of, ignoring case, '-' and '_': undefined when none is close (at
 * most a third of the name's characters differ, and at least one may).
 */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');
  const n = norm(name);
  let best: { candidate: string; d: number } | undefined;
  for (const candidate of candidates) {
    const d = distance(n, norm(candidate));
    if (best === undefined || d < best.d) best = { candidate, d };
  }
  return best !== undefined && n !== '' && best.d <= Math.max(1, Math.floor(n.length / 3)) ? best.candidate : undefined;
}

/** `: did you mean "x"?` when a candidate is close, otherwise the fallback. */
export function didYouMean(name: string, candidates: readonly string[], fallback: string): string {
  const suggestion = closest(name, candidates);
  return suggestion !== undefined ? `: did you mean ${JSON.stringify(suggestion)}?` : fallback;
}

// ------------------------------------------------------------------ checking

/** checks `value` against `shape` at `path`: a missing required value or a wrong one fails; returns the normalised value. */
export function guard<T>(report: Report, path: string, value: unknown, shape: Shape): T {
  if (value === undefined || value === null) {
    if (shape.required !== undefined) report(`${path} is required${value === null ? ', got null' : ''}: ${shape.required}`);
    return undefined as any;
  }
  return shape.check(value, path, report) as T;
}

/** the message for a value that is not what the shape expects, with the fix. */
function wrong(shape: { expected: string; example?: string }, path: string, value: unknown, hint?: string): string {
  const example = shape.example !== undefined ? ` (e.g. ${shape.example})` : '';
  return `${path} must be ${shape.expected}${example}, got ${received(value)}${hint ?? ''}`;
}

/** a hint for a value given as text that should have been a number or a boolean. */
function unquote(value: unknown, kind: 'number' | 'boolean'): string {
  if (typeof value !== 'string') return '';
  const t = value.trim();
  if (kind === 'boolean' && (t === 'true' || t === 'false')) return `: write ${t} without quotes`;
  if (kind === 'number' && t !== '' && Number.isFinite(Number(t))) return `: write ${Number(t)} without quotes`;
  return '';
}

/** a mark for a field that must be set; `fix` says how. */
export function required(shape: Shape, fix: string): Shape {
  return { ...shape, required: fix };
}

/** a string. */
export function string(example?: string): Shape {
  const shape: Shape = {
    expected: 'a string',
    example,
    check: (value, path, report) => (typeof value === 'string' ? value : report(wrong(shape, path, value))),
  };
  return shape;
}

/** a boolean. */
export function boolean(): Shape {
  const shape: Shape = {
    expected: 'true or false',
    check: (value, path, report) => (typeof value === 'boolean' ? value : report(wrong(shape, path, value, unquote(value, 'boolean')))),
  };
  return shape;
}

/** a number (whole numbers and ranges are the checks' behind the guard: they know the field's limits). */
export function number(example?: string): Shape {
  const shape: Shape = {
    expected: 'a number',
    example,
    check: (value, path, report) => (typeof value === 'number' ? value : report(wrong(shape, path, value, unquote(value, 'number')))),
  };
  return shape;
}

/**
 * One of an enum's values (read when first checked, so a lazily loaded module stays unloaded). `example` names a member
 * in code, `Enum.MEMBER`: a near miss is answered with the member to write (`did you mean HostAccessType.HOST_PID?`),
 * which compiles in TypeScript and reads the same in the other jsii languages, where the string value does not.
 */
export function oneOf(members: () => object, example: string): Shape {
  const enumName = example.split('.')[0];
  return {
    expected: 'one of',
    example,
    check: (value, path, report) => {
      const entries = Object.entries(members()) as [string, string][];
      const allowed = entries.map(([, v]) => v);
      if (typeof value === 'string' && allowed.includes(value)) return value;
      const suggestion = typeof value === 'string' ? closest(value, allowed) : undefined;
      const hint = suggestion !== undefined ? `: did you mean ${enumName}.${entries.find(([, v]) => v === suggestion)![0]}?` : '';
      return report(`${path} ${received(value)} is not one of ${allowed.join(', ')} (e.g. ${example})${hint}`);
    },
  };
}

/** an object made by the library's factories (or a type it duck-types): `is` tells. */
export function instance(is: (value: any) => boolean, expected: string, example?: string): Shape {
  const shape: Shape = {
    expected,
    example,
    check: (value, path, report) => (is(value) ? value : report(wrong(shape, path, value))),
  };
  return shape;
}

/**
 * The fix for a single value where a list belongs: a list of its words, or of the value, when those are items the list
 * takes (otherwise the list's example is the fix: a suggestion must be one the check accepts).
 */
function listHint(value: unknown, item: Shape): string {
  const accepts = (v: unknown) => {
    try {
      item.check(v, '', (message) => { throw new Error(message); });
      return true;
    } catch {
      return false;
    }
  };
  if (typeof value === 'string') {
    const words = value.trim().split(/\s+/).filter((w) => w !== '');
    if (words.length > 1) return words.every(accepts) ? `: write one item per word, e.g. ${show(words)}` : '';
    return accepts(value) ? `: write a list, e.g. ${show([value])}` : '';
  }
  return value !== null && typeof value === 'object' && accepts(value) ? ': put it in a list (of one item)' : '';
}

/** a list; each item is checked at `path[label]`, the label naming the item (its name) or its index. */
export function list(item: Shape, expected: string, example: string, label?: (item: any) => unknown): Shape {
  const shape: Shape = {
    expected,
    example,
    item,
    check: (value, path, report) => {
      if (!Array.isArray(value)) return report(wrong(shape, path, value, listHint(value, item)));
      return value.map((v, i) => {
        let name: unknown;
        try {
          name = label?.(v);
        } catch {
          name = undefined;
        }
        const at = `${path}[${typeof name === 'string' && name !== '' ? name : i}]`;
        if (v === undefined || v === null) return report(wrong(item, at, v));
        return item.check(v, at, report);
      });
    },
  };
  return shape;
}

/** a map from names to values of one shape (labels, env, files); each value is checked at `path.name`. */
export function map(value: Shape, expected: string, example: string): Shape {
  const shape: Shape = {
    expected,
    example,
    entry: value,
    check: (v, path, report) => {
      if (!isPlainObject(v)) return report(wrong(shape, path, v));
      // Object.fromEntries defines keys such as __proto__ as the map's own entries, as they were given
      return Object.fromEntries(Object.entries(v).map(([k, item]) => {
        if (item === undefined || item === null) return report(wrong(value, `${path}.${k}`, item));
        return [k, value.check(item, `${path}.${k}`, report)];
      }));
    },
  };
  return shape;
}

/** the fields of a struct, each with its shape. */
export interface Fields {
  readonly [field: string]: Shape | (() => Shape);
}

/** how a struct is named in messages. */
export interface StructText {
  /** what a valid value is: `an object with the reason`. */
  readonly expected?: string;
  /** a valid value as code: `{ reason: '...' }`. */
  readonly example?: string;
}

/**
 * A struct (a jsii interface given as an object literal): an unknown property fails with the closest known one; each
 * field is checked at `path.field`; null and undefined fields are dropped from the copy returned.
 */
export function struct(name: string, fields: Fields, text: StructText = {}): Shape {
  const shape: Shape = {
    expected: text.expected ?? `a ${name} object`,
    example: text.example,
    fields,
    check: (value, path, report) => {
      if (!isPlainObject(value)) return report(wrong(shape, path === '' ? 'props' : path, value));
      const known = Object.keys(fields);
      for (const key of Object.keys(value)) {
        if (!Object.prototype.hasOwnProperty.call(fields, key)) {
          const where = path === '' ? '' : `${path}: `;
          report(`${where}${name} has no property ${JSON.stringify(key)}${didYouMean(key, known, `: remove it (the properties of ${name} are listed in API.md)`)}`);
        }
      }
      const out: { [key: string]: unknown } = {};
      for (const key of known) {
        const f = fields[key];
        const checked = guard(report, path === '' ? key : `${path}.${key}`, value[key], typeof f === 'function' ? f() : f);
        if (checked !== undefined) out[key] = checked;
      }
      return out;
    },
  };
  return shape;
}
