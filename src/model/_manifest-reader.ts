// The one reader of manifests: text → the JSON documents kubectl would send, for the CLI, the validation plugin and
// everything else that reads YAML or JSON. It reads as kubectl does (k8s.io/cli-runtime's StreamVisitor over
// apimachinery's YAMLOrJSONDecoder and sigs.k8s.io/yaml, i.e. go-yaml v2):
//
// - a stream that starts with `{` is a stream of JSON values, until a value after the first two does not parse (the
//   decoder then reads the rest as YAML, as kubectl's does);
// - otherwise documents end at every line that starts with `---` (and a line starting with `---` followed by anything
//   but spaces or a comment is refused, as kubectl refuses it); each document is read by itself, the first YAML
//   document of it only;
// - scalars resolve as go-yaml v2 resolves them (YAML 1.1: `yes`/`on` true, `0640` octal, see _go-yaml-scalars.ts);
//   merge keys (`<<: *defaults`, `<<: [*a, *b]`) assign in document order as go-yaml v2 does, so a key before `<<` is
//   overridden by the merge and one after it overrides the merge; duplicate keys: the last wins, as in kubectl;
//   anchors and aliases expand, with go-yaml's own bound on aliasing;
// - a document that is empty or null is skipped.
//
// What kubectl cannot send is refused with the line and column: .inf/.nan values (JSON has no such numbers), a key
// that is null, a list, a mapping or an integer beyond int64, and two keys that are different YAML values but the same
// JSON field name (`1` and `"1"`: kubectl keeps one of them at random). Where the YAML parser used here (eemeli/yaml)
// is stricter than go-yaml, the text is first brought to the form both read alike: a quoted scalar continued on lines
// indented no deeper than its key (as go-yaml writes long single-quoted strings) is re-indented, which changes
// nothing of its value (a quoted scalar's line breaks fold and drop the next line's leading spaces).
// The differential test against kubectl's own reader: test/corpus/manifest-reader.differential.test.ts.
//
// Where the two still differ, this reader refuses what kubectl reads (none gives another value): nesting deeper than
// MAX_DEPTH; the two keys of one field above; stray text after a document's root node, which go-yaml leaves unread
// (after a block mapping indented past the line that follows it, or a multi-line root scalar); in a flow collection,
// a plain scalar that starts with `:` or `-` or holds `?` or `:`+`}` (YAML 1.1 and 1.2 tell their indicators apart
// differently) or continues on a line starting with `:`; a comment right after a closing quote (`"a"#c`); a key whose
// anchor or tag stands on the line before it; a block scalar whose first line holds only spaces, more than its
// content. A `!!timestamp` tag is checked against go-yaml's formats by pattern, not by Go's time.Parse.

import { Composer, CST, Document, isAlias, isMap, isScalar, isSeq, LineCounter, Node, Parser } from 'yaml';
import { GoYamlDecoder } from './_go-yaml-decoder';

/** one document of a stream, as the JSON kubectl would send. */
export interface ReadDocument {
  /** the 1-based index of the document in the stream. */
  readonly document: number;
  /** the 1-based line its content starts on. */
  readonly line: number;
  /** the lines of the items of its `items` list, or of its own items when it is a list, for messages. */
  readonly itemLines: number[];
  /** the document as JSON. */
  readonly value: unknown;
}

/** input that kubectl's reader refuses too (or that cannot be represented as JSON), with where. */
export class ManifestSyntaxError extends Error {
  constructor(
    /** the 1-based line. */
    public readonly line: number,
    /** the 1-based column, when known. */
    public readonly column: number | undefined,
    /** the 1-based document, when the problem is inside one. */
    public readonly document: number | undefined,
    /** what is wrong and how to fix it, in lower case. */
    public readonly reason: string,
  ) {
    super(`${line}${column === undefined ? '' : `:${column}`}: ${document === undefined ? '' : `document ${document}: `}${reason}`);
  }
}

/**
 * The deepest nesting of lists and mappings read. No Kubernetes object comes near it (CRD schemas, the deepest, nest a
 * few dozen levels); beyond a few hundred levels the YAML parser runs out of stack, so the limit is checked before
 * reading. (kubectl's go-yaml reads up to 10,000: a document between the two is refused here and read there.)
 */
export const MAX_DEPTH = 200;

/** every document of a YAML or JSON stream, as kubectl reads it. @throws ManifestSyntaxError */
export function readManifestStream(text: string): ReadDocument[] {
  const docs: ReadDocument[] = [];
  let yamlFrom = 0;
  if (/^\s*\{/.test(text.slice(0, 4096))) {
    const json = readJsonStream(text);
    docs.push(...json.docs);
    if (json.yamlFrom === undefined) return docs;
    yamlFrom = json.yamlFrom;
  }
  const firstLine = lineAt(text, yamlFrom);
  let document = docs.length;
  for (const chunk of splitDocuments(text.slice(yamlFrom).replace(/\r\n/g, '\n'), firstLine)) {
    document++;
    const read = readYamlDocument(chunk.text, chunk.line, document);
    if (read !== undefined) docs.push(read);
  }
  return docs;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

// ---- JSON streams (Go's json.Decoder over concatenated values) ----

function readJsonStream(text: string): { docs: ReadDocument[]; yamlFrom?: number } {
  const docs: ReadDocument[] = [];
  let at = 0;
  let previousEnd = 0;
  let count = 0;
  for (;;) {
    while (at < text.length && /\s/.test(text[at])) at++;
    if (at >= text.length) return { docs };
    const end = jsonValueEnd(text, at);
    let value: unknown;
    let ok = end !== undefined;
    if (ok) {
      try {
        value = JSON.parse(text.slice(at, end));
      } catch {
        ok = false;
      }
    }
    if (!ok) {
      if (count > 1) {
        throw new ManifestSyntaxError(lineAt(text, at), undefined, count + 1, 'invalid JSON: the stream starts with JSON values, so this one must be JSON too');
      }
      // as kubectl's decoder: the rest is read as YAML, from after the spaces up to the first line break that follow
      // the last value read
      return { docs, yamlFrom: previousEnd + /^[^\S\n]*\n?/.exec(text.slice(previousEnd))![0].length };
    }
    count++;
    const problem = jsProblem(value);
    if (problem) throw new ManifestSyntaxError(lineAt(text, at), at - text.lastIndexOf('\n', at - 1), count, problem);
    if (value !== null) docs.push({ document: count, line: lineAt(text, at), itemLines: [], value });
    at = end!;
    previousEnd = end!;
  }
}

/** the end of the JSON value starting at `from` (its closing bracket or the end of its literal), or undefined. */
function jsonValueEnd(text: string, from: number): number | undefined {
  let depth = 0;
  let i = from;
  const first = text[i];
  if (first !== '{' && first !== '[') {
    if (first === '"') return stringEnd(text, i);
    const m = /^[-+0-9.eEa-zA-Z]+/.exec(text.slice(i, i + 400));
    return m ? i + m[0].length : undefined;
  }
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const e = stringEnd(text, i);
      if (e === undefined) return undefined;
      i = e - 1;
    } else if (c === '{' || c === '[') {
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

function stringEnd(text: string, from: number): number | undefined {
  for (let i = from + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return undefined;
}

// ---- YAML streams ----

interface Chunk {
  readonly text: string;
  readonly line: number;
}

/** apimachinery's YAMLReader: a document ends at each line beginning with `---`; nothing but a comment may follow it. */
function splitDocuments(text: string, firstLine: number): Chunk[] {
  const chunks: Chunk[] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let buffer: string[] = [];
  let start = firstLine;
  lines.forEach((line, i) => {
    if (line.startsWith('---')) {
      const rest = line.slice(3).trim();
      if (rest !== '' && !rest.startsWith('#')) {
        throw new ManifestSyntaxError(firstLine + i, 1, chunks.length + (buffer.length > 0 ? 2 : 1),
          `invalid YAML document separator: ${JSON.stringify(rest.slice(0, 60))} follows "---" (kubectl refuses it too); put the document's content on the next line`);
      }
      if (buffer.length > 0) chunks.push({ text: buffer.join('\n') + '\n', line: start });
      buffer = [];
      start = firstLine + i + 1;
      return;
    }
    if (buffer.length === 0) start = firstLine + i;
    buffer.push(line);
  });
  if (buffer.length > 0) chunks.push({ text: buffer.join('\n') + '\n', line: start });
  return chunks;
}

/** the most re-indentations of quoted scalars tried in one document (one per scalar). */
const MAX_REINDENTS = 10_000;

function readYamlDocument(original: string, firstLine: number, document: number): ReadDocument | undefined {
  let text = original;
  const pads = new Map<number, number>(); // 0-based line in the document → spaces added at its start
  for (let attempt = 0; ; attempt++) {
    const lineCounter = new LineCounter();
    const tokens = Array.from(new Parser(lineCounter.addNewLine).parse(text));
    const place = (offset: number): [number, number] => {
      const pos = lineCounter.linePos(offset);
      const pad = pads.get(pos.line - 1) ?? 0;
      return [firstLine + pos.line - 1, Math.max(1, pos.col - pad)];
    };
    const fail = (offset: number, reason: string): never => {
      const [line, col] = place(offset);
      throw new ManifestSyntaxError(line, col, document, reason);
    };
    const docToken = tokens.find((t): t is CST.Document => t.type === 'document');
    if (docToken) {
      const problem = cstProblem(docToken);
      if (problem) fail(problem.offset, problem.message);
    }
    // logLevel error: the parser's warnings would go to process.emitWarning; failsafe: every scalar stays text, typed below
    const composer = new Composer({ schema: 'failsafe', logLevel: 'error', uniqueKeys: false });
    const docs: Document.Parsed[] = Array.from(composer.compose(tokens));
    const doc = docs[0];
    if (!doc) return undefined;
    const error = doc.errors[0];
    if (error) {
      // a quoted scalar or flow collection cut short (and so an error) where its lines are not indented enough
      const unclosed = attempt < MAX_REINDENTS ? findUnclosed(tokens) : undefined;
      if (unclosed !== undefined) {
        const quoted = unclosed.type !== 'flow-collection';
        const close = quoted ? quotedEnd(text, unclosed.offset) : flowEnd(text, unclosed.offset);
        const reindented = close < 0 ? undefined : reindent(text, unclosed.offset, close, pads);
        if (reindented !== undefined) {
          text = reindented;
          continue;
        }
        if (quoted) fail(unclosed.offset, `invalid YAML: a ${unclosed.type === 'single-quoted-scalar' ? 'single' : 'double'}-quoted scalar has no closing quote`);
      }
      if (!endsBefore(doc.contents, error.pos[0], text)) {
        const message = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
        fail(error.pos[0], `invalid YAML: ${lowerFirst(message.length > 160 ? `${message.slice(0, 157)}...` : message)}`);
      }
    }
    const contents = doc.contents;
    if (contents === null || contents === undefined) return undefined;
    const value = new GoYamlDecoder(doc, fail, /[&*]/.test(text)).decode(contents);
    if (value === null) return undefined;
    const depthProblem = jsProblem(value);
    if (depthProblem) fail(contents.range?.[0] ?? 0, depthProblem);
    const itemsNode = isMap(contents) ? contents.get('items', true) : isSeq(contents) ? contents : undefined;
    const itemLines = isSeq(itemsNode) ? itemsNode.items.map((item: any) => place(item?.range?.[0] ?? 0)[0]) : [];
    return { document, line: place(contents.range?.[0] ?? 0)[0], itemLines, value };
  }
}

function lowerFirst(s: string): string {
  return s.length > 0 ? s[0].toLowerCase() + s.slice(1) : s;
}

/**
 * The text with the continuation lines of the quoted scalar or flow collection from `start` to `close` indented past
 * its opening character, or undefined when there is nothing to indent or a line of it starts a document (`...`),
 * which go-yaml refuses too. Indentation inside a quoted scalar or a flow collection means nothing to go-yaml, and
 * eemeli/yaml requires it: this changes no value.
 */
function reindent(text: string, start: number, close: number, pads: Map<number, number>): string | undefined {
  const lineStart = text.lastIndexOf('\n', start) + 1;
  const need = start - lineStart + 1;
  let out = text.slice(0, start);
  let changed = false;
  let lineIndex = text.slice(0, start).split('\n').length - 1;
  let i = start;
  while (i <= close) {
    const nl = text.indexOf('\n', i);
    if (nl < 0 || nl >= close) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, nl + 1);
    lineIndex++;
    i = nl + 1;
    if (text.startsWith('...', i) || text.startsWith('---', i)) return undefined;
    const spaces = /^ */.exec(text.slice(i, i + need))![0].length;
    const rest = text.slice(i, text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i));
    if (spaces < need && rest.trim() !== '') {
      out += ' '.repeat(need - spaces);
      pads.set(lineIndex, (pads.get(lineIndex) ?? 0) + need - spaces);
      changed = true;
    }
  }
  return changed ? out : undefined;
}

/** the first quoted scalar or flow collection that the parser ended before its closing quote or bracket. */
function findUnclosed(tokens: readonly unknown[]): CST.FlowScalar | CST.FlowCollection | undefined {
  // walked with an explicit stack, in document order: the tree may be 100,000 levels deep
  const stack: unknown[] = [...tokens].reverse();
  while (stack.length > 0) {
    const t: any = stack.pop();
    if (t === null || typeof t !== 'object') continue;
    if ((t.type === 'single-quoted-scalar' || t.type === 'double-quoted-scalar') && typeof t.source === 'string') {
      if (quotedEnd(t.source, 0) !== t.source.length - 1) return t;
      continue;
    }
    if (t.type === 'flow-collection' && t.end?.[0]?.source !== (t.start?.source === '{' ? '}' : ']')) return t;
    const children: unknown[] = [];
    for (const v of Object.values(t)) {
      if (Array.isArray(v)) children.push(...v);
      else if (v && typeof v === 'object') children.push(v);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return undefined;
}

/** the offset of the bracket closing the flow collection that opens at `from`, or -1 (quotes and comments skipped). */
function flowEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      i = quotedEnd(text, i);
      if (i < 0) return -1;
    } else if (c === '#' && /\s/.test(text[i - 1] ?? ' ')) {
      const nl = text.indexOf('\n', i);
      if (nl < 0) return -1;
      i = nl;
    } else if (c === '{' || c === '[') {
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** the offset of the quote closing the quoted scalar that opens at `from`, or -1. */
function quotedEnd(text: string, from: number): number {
  const quote = text[from];
  for (let i = from + 1; i < text.length; i++) {
    const c = text[i];
    if (quote === "'" && c === "'") {
      if (text[i + 1] !== "'") return i;
      i++;
    } else if (quote === '"' && c === '\\') {
      i++;
    } else if (quote === '"' && c === '"') {
      return i;
    }
  }
  return -1;
}

/**
 * Whether the document's root is a scalar or an alias that ends before `offset`: go-yaml reads one document and stops
 * at its root node's end, so what follows it on the same or the next lines is not read there either, unless it cannot
 * even be scanned as a token.
 */
function endsBefore(contents: unknown, offset: number, text: string): boolean {
  if (!(isScalar(contents) || isAlias(contents))) return false;
  const end = (contents as Node).range?.[1];
  if (end === undefined || offset < end) return false;
  const next = /\S/.exec(text.slice(end));
  if (!next) return true;
  const c = next[0];
  if (c === '@' || c === '`') return false;
  // a block entry or complex key on the root's own line: go-yaml's scanner refuses the token itself
  const sameLine = !text.slice(end, end + next.index).includes('\n');
  if (sameLine && (c === '-' || c === '?') && /^[-?](\s|$)/.test(text.slice(end + next.index, end + next.index + 2))) return false;
  if (c === "'" || c === '"') return quotedEnd(text, end + next.index) >= 0;
  return true;
}

interface Problem {
  readonly offset: number;
  readonly message: string;
}

/**
 * The first problem of a document's syntax tree the parser would not survive: nesting deeper than MAX_DEPTH. Walked
 * with an explicit stack: the tree may be 100,000 levels deep.
 */
function cstProblem(document: CST.Document): Problem | undefined {
  const stack: Array<[CST.Token, number, boolean]> = document.value ? [[document.value, 0, false]] : [];
  while (stack.length > 0) {
    const [token, depth, inFlow] = stack.pop()!;
    if (inFlow && token.type === 'scalar' && (token.source.startsWith(':') || token.source.includes('?'))) {
      // go-yaml v2 reads a ':' that starts a token, and any '?', in a flow collection as an indicator
      return { offset: token.offset, message: `the plain scalar ${JSON.stringify(token.source.slice(0, 40))} in a flow collection has a ':' at its start or a '?', which kubectl's YAML reader reads as an indicator; quote it` };
    }
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    const flow = inFlow || token.type === 'flow-collection';
    if (depth + 1 > MAX_DEPTH) {
      return { offset: token.offset, message: `nested deeper than ${MAX_DEPTH} levels of lists and mappings, the most this reader reads (no Kubernetes object nests that deep)` };
    }
    for (const item of token.items as CST.CollectionItem[]) {
      if (item.key) stack.push([item.key, depth + 1, flow]);
      if (item.value) stack.push([item.value, depth + 1, flow]);
    }
  }
  return undefined;
}

/**
 * What JSON, and so kubectl, cannot send of a document's value: .inf and .nan (json.Marshal refuses them), and a value
 * nested deeper than MAX_DEPTH through aliases, deeper than its text shows.
 */
function jsProblem(value: unknown): string | undefined {
  const stack: Array<[unknown, number, string]> = [[value, 1, '']];
  while (stack.length > 0) {
    const [v, depth, at] = stack.pop()!;
    if (typeof v === 'number' && !Number.isFinite(v)) {
      return `${at === '' ? 'the document' : at} is ${Number.isNaN(v) ? '.nan (not a number)' : `${v > 0 ? '' : '-'}.inf (infinite)`}, which JSON cannot hold (kubectl refuses it too); quote it if it is text`;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH} levels of lists and mappings once its aliases are expanded, the most this reader reads`;
    for (const [k, child] of Object.entries(v)) stack.push([child, depth + 1, Array.isArray(v) ? `${at}[${k}]` : at === '' ? k : `${at}.${k}`]);
  }
  return undefined;
}
