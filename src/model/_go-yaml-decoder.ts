// go-yaml v2's decoder (go.yaml.in/yaml/v2 v2.4.4 decode.go) over a document eemeli/yaml has parsed, and
// sigs.k8s.io/yaml's conversion of its result to JSON: for the one reader of manifests (_manifest-reader.ts).

import { Alias, Document, isAlias, isMap, isPair, isScalar, isSeq, Node, Pair, Scalar, visit, YAMLMap, YAMLSeq } from 'yaml';
import { BINARY_TAG, fieldNameOf, GoScalar, jsonOf, MERGE_TAG, resolveScalar, ScalarTagError } from './_go-yaml-scalars';

/** a mapping being decoded: Go's map[interface{}]interface{}, keyed by the key's Go value. */
class GoMap extends Map<string, { key: GoScalar; value: unknown; offset: number }> {}

/** decodes one document as go-yaml v2 decodes it into an interface{}, then converts it as sigs.k8s.io/yaml does. */
export class GoYamlDecoder {
  private decodeCount = 0;
  private aliasCount = 0;
  private aliasDepth = 0;
  private readonly expanding = new Set<Alias>();
  private readonly targets = new Map<Alias, Node>();
  private nanKeys = 0;

  /** @param aliases whether the document may have anchors or aliases (when not, they are not looked for) */
  constructor(doc: Document.Parsed, private readonly fail: (offset: number, reason: string) => never, aliases = true) {
    // go-yaml's parser: an alias refers to the last node with that anchor before it (a node's anchor is set before
    // its children are read, so an alias inside its own anchored node refers to it)
    const anchors = new Map<string, Node>();
    if (aliases) {
      visit(doc, {
        Node: (_key, node) => {
          if (isAlias(node)) {
            const target = anchors.get(node.source);
            if (!target) this.fail(node.range?.[0] ?? 0, `unknown anchor '${node.source}' referenced; define it (&${node.source}) before the alias`);
            this.targets.set(node, target!);
          } else if (node.anchor) {
            anchors.set(node.anchor, node);
          }
        },
      });
    }
  }

  public decode(node: Node): unknown {
    this.decodeCount++; // the document node
    return this.toJson(this.unmarshal(node));
  }

  /** sigs.k8s.io/yaml's conversion of the decoded document to JSON: mapping keys become field names. */
  private toJson(value: unknown): unknown {
    if (value instanceof GoMap) return this.toObject(value);
    if (Array.isArray(value)) return value.map((v) => this.toJson(v));
    return value;
  }

  private count(): void {
    this.decodeCount++;
    if (this.aliasDepth > 0) this.aliasCount++;
    if (this.aliasCount > 100 && this.decodeCount > 1000 && this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)) {
      this.fail(0, 'document contains excessive aliasing (as in a "billion laughs" alias bomb; kubectl refuses it too); write the repeated parts out');
    }
  }

  private unmarshal(node: Node | null): unknown {
    this.count();
    if (node === null || isScalar(node)) return this.scalarValue(node);
    if (isAlias(node)) return this.alias(node, () => this.unmarshal(this.targets.get(node)!));
    if (isMap(node)) {
      const out = new GoMap();
      this.mapping(node, out);
      return out; // its keys become field names once the whole document is read, as sigs.k8s.io/yaml converts it
    }
    if (isSeq(node)) return (node as YAMLSeq<unknown>).items.map((item) => this.unmarshal(this.itemNode(item)));
    return this.fail(0, 'unexpected YAML node');
  }

  /** a flow sequence's `[a: 1]` item: a mapping of one pair. */
  private itemNode(item: unknown): Node | null {
    if (!isPair(item)) return item as Node | null;
    const map = new YAMLMap();
    map.items.push(item);
    return map;
  }

  private alias<T>(node: Alias, expand: () => T): T {
    if (this.expanding.has(node)) this.fail(node.range?.[0] ?? 0, `anchor '${node.source}' value contains itself, a cycle JSON (and so Kubernetes) cannot represent`);
    this.expanding.add(node);
    this.aliasDepth++;
    try {
      return expand();
    } finally {
      this.aliasDepth--;
      this.expanding.delete(node);
    }
  }

  private scalar(node: Scalar | null): GoScalar {
    // the scalar's text after YAML's folding and escapes (its `value` may already be typed, as !!binary is)
    const text = node === null ? '' : typeof node.source === 'string' ? node.source : node.value === null || node.value === undefined ? '' : String(node.value);
    const tag = node?.tag ?? '';
    const offset = node?.range?.[0] ?? 0;
    if (tag === BINARY_TAG) {
      const b64 = text.replace(/[\r\n]/g, '');
      if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) this.fail(offset, '!!binary value contains invalid base64 data');
      return { kind: 'string', value: goString(Buffer.from(b64, 'base64')) };
    }
    // go-yaml's "implicit": a plain scalar without a tag, or any with the non-specific tag `!`
    const implicit = node === null || (node.type === 'PLAIN' && tag === '') || tag === '!';
    try {
      return resolveScalar(text, tag, implicit);
    } catch (e) {
      if (e instanceof ScalarTagError) return this.fail(offset, e.message);
      throw e;
    }
  }

  private scalarValue(node: Scalar | null): unknown {
    return jsonOf(this.scalar(node)); // .inf and .nan stay, to be refused where they remain (jsProblem): a later key may replace them
  }

  private isMergeKey(key: unknown): boolean {
    return isScalar(key) && key.value === '<<' && ((key.type === 'PLAIN' && (key.tag === undefined || key.tag === '!')) || key.tag === MERGE_TAG);
  }

  private mapping(node: YAMLMap<unknown, unknown>, out: GoMap): void {
    for (const pair of node.items as Array<Pair<unknown, unknown>>) {
      if (this.isMergeKey(pair.key)) {
        this.merge(pair.value as Node | null, out, (pair.key as Scalar).range?.[0] ?? 0);
        continue;
      }
      const key = this.key(pair.key as Node | null);
      const value = this.unmarshal(pair.value as Node | null);
      out.set(this.identity(key), { key, value, offset: (pair.key as any)?.range?.[0] ?? 0 });
    }
  }

  /** a key's Go value: a scalar, directly or through an alias; a list or mapping is refused, as go-yaml refuses it. */
  private key(node: Node | null): GoScalar {
    this.count();
    let target: Node | null = node;
    if (isAlias(node)) {
      return this.alias(node, () => {
        this.count();
        target = this.targets.get(node)!;
        if (!isScalar(target)) this.fail(node.range?.[0] ?? 0, 'a mapping key is a list or mapping (through an alias); Kubernetes field names, label and annotation keys are strings');
        return this.scalar(target as Scalar);
      });
    }
    if (target !== null && !isScalar(target)) this.fail(target.range?.[0] ?? 0, 'a mapping key is a list or mapping; Kubernetes field names, label and annotation keys are strings');
    return this.scalar(target as Scalar | null);
  }

  private identity(key: GoScalar): string {
    if (key.kind === 'float' && Number.isNaN(key.value)) return `nan:${this.nanKeys++}`; // NaN is no Go map key twice
    if (key.kind === 'float') return `float:${Object.is(key.value, -0) ? '0' : key.value}`;
    return `${key.kind === 'uint64' ? 'int' : key.kind}:${'value' in key ? String(key.value) : ''}`;
  }

  /** go-yaml v2's merge: the merged mappings assign into this one now, a list's earlier mappings winning over later. */
  private merge(value: Node | null, out: GoMap, offset: number): void {
    const wantMap = (): never => this.fail(offset, 'map merge requires map or sequence of maps as the value (kubectl refuses it too)');
    const mergeOne = (node: Node): void => {
      this.count();
      if (isAlias(node)) {
        const target = this.targets.get(node)!;
        if (!isMap(target)) wantMap();
        this.alias(node, () => {
          this.count();
          this.mapping(target as YAMLMap<unknown, unknown>, out);
        });
      } else {
        this.mapping(node as YAMLMap<unknown, unknown>, out);
      }
    };
    if (isMap(value) || isAlias(value)) {
      mergeOne(value);
    } else if (isSeq(value)) {
      const items = (value as YAMLSeq<unknown>).items.map((item) => this.itemNode(item));
      for (const item of items) if (!(isMap(item) || (isAlias(item) && isMap(this.targets.get(item))))) wantMap();
      for (let i = items.length - 1; i >= 0; i--) mergeOne(items[i]!);
    } else {
      wantMap();
    }
  }

  /** sigs.k8s.io/yaml's conversion to a JSON object: keys become field names. */
  private toObject(map: GoMap): { [field: string]: unknown } {
    const o: { [field: string]: unknown } = {};
    const from = new Map<string, GoScalar>();
    for (const entry of map.values()) {
      const { key, offset } = entry;
      let value = entry.value;
      const field = fieldNameOf(key);
      if (field === undefined) {
        this.fail(offset, key.kind === 'null' ? 'a mapping key is null (or empty), which JSON (and so kubectl) cannot send; quote it if it is text ("~", "null")'
          : `the mapping key ${String((key as { value: bigint }).value)} is an integer beyond int64, which kubectl cannot send as a field name; quote it`);
      }
      if (from.has(field!)) {
        this.fail(offset, `two keys of this mapping are the field ${JSON.stringify(field)} in JSON (e.g. 1 and "1"), and kubectl keeps one of them at random; keep one`);
      }
      from.set(field!, key);
      value = this.toJson(value);
      if (field === '__proto__') Object.defineProperty(o, field, { value, enumerable: true, writable: true, configurable: true });
      else o[field!] = value;
    }
    return o;
  }
}

/** bytes as Go's encoding/json writes a string of them: each byte of an invalid UTF-8 sequence becomes U+FFFD. */
function goString(bytes: Buffer): string {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    const seq = n === 0 ? undefined : bytes.subarray(i, i + n);
    let text: string | undefined;
    if (seq && seq.length === n) {
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(seq);
      } catch {
        text = undefined;
      }
    }
    if (text === undefined) {
      out += '\ufffd';
      i++;
    } else {
      out += text;
      i += n;
    }
  }
  return out;
}

/** go-yaml v2's allowedAliasRatio (decode.go): how much of a document's decoding may come from aliases. */
function allowedAliasRatio(decodeCount: number): number {
  const low = 400_000;
  const high = 4_000_000;
  if (decodeCount <= low) return 0.99;
  if (decodeCount >= high) return 0.10;
  return 0.99 - 0.89 * ((decodeCount - low) / (high - low));
}
