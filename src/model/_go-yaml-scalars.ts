// How kubectl's YAML reader gives a scalar its type: go-yaml v2's `resolve` (go.yaml.in/yaml/v2 v2.4.4, resolve.go, the
// version sigs.k8s.io/yaml v1.6.0 uses at Kubernetes v1.37), ported rule for rule, and how sigs.k8s.io/yaml turns a
// mapping key into a JSON field name. YAML 1.1 scalars: y/yes/on/true (any of their three casings) are true, n/no/off/
// false false, `~`/null/'' null, 0640 octal, 0x1F hex, 0b101 binary, 1_000 a thousand; .inf and .nan are floats (which
// JSON, and so kubectl, cannot send). Base-60 numbers (1:30) stay strings, as go-yaml keeps them.
// Tested against the real reader: test/corpus/manifest-reader.differential.test.ts.

/** a scalar's value once resolved: what go-yaml gives Go code, told apart where kubectl's JSON depends on it. */
export type GoScalar =
  | { readonly kind: 'null' }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'int'; readonly value: bigint } // int, int64 or uint64 in Go
  | { readonly kind: 'uint64'; readonly value: bigint } // only beyond int64: a map key of this type is refused
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'merge' };

export const TAG_PREFIX = 'tag:yaml.org,2002:';
const STR = `${TAG_PREFIX}str`;
const BOOL = `${TAG_PREFIX}bool`;
const INT = `${TAG_PREFIX}int`;
const FLOAT = `${TAG_PREFIX}float`;
const NULL = `${TAG_PREFIX}null`;
const TIMESTAMP = `${TAG_PREFIX}timestamp`;
export const BINARY_TAG = `${TAG_PREFIX}binary`;
export const MERGE_TAG = `${TAG_PREFIX}merge`;

const WORDS = new Map<string, GoScalar>();
function words(value: GoScalar, list: string[]): void {
  for (const w of list) WORDS.set(w, value);
}
words({ kind: 'bool', value: true }, ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
words({ kind: 'bool', value: false }, ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
words({ kind: 'null' }, ['', '~', 'null', 'Null', 'NULL']);
words({ kind: 'float', value: NaN }, ['.nan', '.NaN', '.NAN']);
words({ kind: 'float', value: Infinity }, ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']);
words({ kind: 'float', value: -Infinity }, ['-.inf', '-.Inf', '-.INF']);
words({ kind: 'merge' }, ['<<']);

/** the first characters go-yaml looks further at; a scalar starting with any other is a string. */
function hintOf(first: string | undefined): string {
  if (first === undefined) return 'N';
  if (first === '+' || first === '-') return 'S';
  if (first >= '0' && first <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(first)) return 'M';
  if (first === '.') return '.';
  return '';
}

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** thrown for a scalar whose tag asks for a type its text is not, with go-yaml's words. */
export class ScalarTagError extends Error {}

/**
 * The value go-yaml gives a scalar: `tag` is its explicit tag in long form ('' for none); `plain` whether it is a plain
 * scalar without a tag (or with the non-specific `!`), the only kind whose type is guessed from its text.
 */
export function resolveScalar(text: string, tag: string, plain: boolean): GoScalar {
  if (tag === '' && !plain) return { kind: 'string', value: text };
  if (tag === '!' || (tag !== '' && ![STR, BOOL, INT, FLOAT, NULL, TIMESTAMP].includes(tag))) {
    return { kind: 'string', value: text }; // an unknown tag: its text as a string (!!binary is decoded by the caller)
  }
  const [resolvedTag, value] = guess(text, tag);
  if (tag === '' || tag === resolvedTag || tag === STR) return value;
  if (tag === FLOAT && value.kind === 'int') return { kind: 'float', value: Number(value.value) };
  throw new ScalarTagError(`cannot decode ${shortTag(resolvedTag)} \`${text}\` as a ${shortTag(tag)}`);
}

function shortTag(tag: string): string {
  return tag.startsWith(TAG_PREFIX) ? `!!${tag.slice(TAG_PREFIX.length)}` : tag;
}

function guess(text: string, tag: string): [string, GoScalar] {
  const hint = hintOf(text[0]);
  if (hint !== '' && tag !== STR) {
    const word = WORDS.get(text);
    if (word) return [word.kind === 'bool' ? BOOL : word.kind === 'null' ? NULL : word.kind === 'merge' ? MERGE_TAG : FLOAT, word];
    if (hint === '.') {
      const f = parseGoFloat(text, false);
      if (f !== undefined) return [FLOAT, { kind: 'float', value: f }];
    } else if (hint === 'D' || hint === 'S') {
      if ((tag === '' || tag === TIMESTAMP) && looksLikeTimestamp(text)) return [TIMESTAMP, { kind: 'string', value: text }];
      const digits = text.replace(/_/g, '');
      const int = parseGoInt(digits);
      if (int !== undefined) return [INT, int];
      if (YAML_STYLE_FLOAT.test(digits)) {
        const f = parseGoFloat(digits, true);
        if (f !== undefined) return [FLOAT, { kind: 'float', value: f }];
      }
      const binary = digits.startsWith('0b') ? digits.slice(2) : digits.startsWith('-0b') ? `-${digits.slice(3)}` : undefined;
      if (binary !== undefined && /^-?[01]+$/.test(binary)) {
        const v = BigInt(binary.startsWith('-') ? `-0b${binary.slice(1)}` : `0b${binary}`);
        if (v >= INT64_MIN && v <= INT64_MAX) return [INT, { kind: 'int', value: v }];
        // go-yaml's ParseUint for 0b (its -0b branch keeps only what fits in int64)
        if (!binary.startsWith('-') && v <= UINT64_MAX) return [INT, { kind: 'uint64', value: v }];
      }
    }
  }
  return [STR, { kind: 'string', value: text }];
}

/** Go's strconv.ParseInt(s, 0, 64), then ParseUint(s, 0, 64): a sign, then 0x/0o/0b/0 (octal) or decimal digits. */
function parseGoInt(s: string): GoScalar | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const [, sign, body] = m;
  const magnitude = /^0[0-7]+$/.test(body) ? BigInt(`0o${body.slice(1)}`) : BigInt(body.replace(/^0([XOB])/, (_, c: string) => `0${c.toLowerCase()}`));
  const value = sign === '-' ? -magnitude : magnitude;
  if (value >= INT64_MIN && value <= INT64_MAX) return { kind: 'int', value };
  if (sign === '' && value <= UINT64_MAX) return { kind: 'uint64', value };
  return undefined;
}

/** Go's strconv.ParseFloat(s, 64) for decimal text: out of range (±Inf) is an error, so the text stays a string. */
function parseGoFloat(s: string, checked: boolean): number | undefined {
  if (!checked && !/^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s)) return undefined;
  const f = Number(s);
  return Number.isFinite(f) ? f : undefined;
}

/**
 * go-yaml's parseTimestamp: YYYY-M-D, optionally with a time (T, t or a space) and a zone. Only whether it matches
 * matters: a timestamp is kept as its text, as go-yaml keeps it for untyped Go values.
 */
function looksLikeTimestamp(s: string): boolean {
  return /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}$/.test(s) ||
    /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}[Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$/.test(s) ||
    /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\.[0-9]+)?$/.test(s);
}

/** the JSON value of a resolved scalar (numbers beyond 2^53 as the nearest double, as JSON.parse reads them). */
export function jsonOf(s: GoScalar): unknown {
  switch (s.kind) {
    case 'null': return null;
    case 'bool': return s.value;
    case 'int': return Number(s.value) === 0 ? 0 : Number(s.value);
    case 'uint64': return Number(s.value);
    case 'float': return s.value;
    case 'string': return s.value;
    case 'merge': return '<<';
  }
}

/**
 * sigs.k8s.io/yaml's field name for a mapping key: strings as they are, integers in decimal, floats as Go's
 * FormatFloat(k, 'g', -1, 32), booleans as true/false; a null key or one beyond int64 is refused, as there.
 */
export function fieldNameOf(key: GoScalar): string | undefined {
  switch (key.kind) {
    case 'string': return key.value;
    case 'int': return key.value.toString();
    case 'bool': return key.value ? 'true' : 'false';
    case 'float': return formatFloat32(key.value);
    case 'merge': return '<<';
    default: return undefined;
  }
}

/** Go's strconv.FormatFloat(f, 'g', -1, 32): the shortest digits that read back as the same float32. */
export function formatFloat32(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  const single = Math.fround(f);
  if (single === Infinity) return '.inf';
  if (single === -Infinity) return '-.inf';
  if (single === 0) return Object.is(single, -0) ? '-0' : '0';
  let digits = '';
  let exponent = 0;
  for (let precision = 1; precision <= 9; precision++) {
    const text = Math.abs(single).toExponential(precision - 1);
    if (Math.fround(Number(text)) === Math.abs(single)) {
      const [mantissa, exp] = text.split('e');
      digits = mantissa.replace('.', '').replace(/0+$/, '') || '0';
      exponent = Number(exp);
      break;
    }
  }
  const sign = single < 0 ? '-' : '';
  if (exponent < -4 || exponent >= 6) {
    const e = Math.abs(exponent) < 10 ? `0${Math.abs(exponent)}` : `${Math.abs(exponent)}`;
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exponent < 0 ? '-' : '+'}${e}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.length <= exponent + 1 ? digits + '0'.repeat(exponent + 1 - digits.length) : digits.slice(0, exponent + 1);
  const fraction = digits.length > exponent + 1 ? `.${digits.slice(exponent + 1)}` : '';
  return `${sign}${whole}${fraction}`;
}
