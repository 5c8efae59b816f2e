// Reads Kubernetes objects from YAML streams and JSON files. Internal to the CLI.
//
// Everything a file can do wrong ends here as a CliError with one line per file or per document, naming the file, the
// line, the document and the field: a file that cannot be read, binary or non-UTF-8 content, invalid YAML, an alias
// bomb, nesting too deep to read, an empty file, and documents that are not Kubernetes objects (no apiVersion or kind,
// metadata of the wrong shape), which the API server rejects too.

import { constants as bufferConstants } from 'buffer';
import * as fs from 'fs';
import { Composer, CST, Document, isMap, isSeq, LineCounter, Parser } from 'yaml';
import { CliError, lowerFirst } from './_command';

/** one Kubernetes object read from a file, with where it came from. */
export interface LoadedObject {
  /** the file, as given on the command line. */
  readonly file: string;
  /** the 1-based line the object starts on. */
  readonly line: number;
  /** the 1-based index of its YAML document in the file (JSON is one document). */
  readonly document: number;
  /** where it is inside its document when the document is a List or a YAML list, e.g. `items[3]`; '' for the whole document. */
  readonly path: string;
  /** the object as plain JSON. */
  readonly object: any;
}

/**
 * The deepest nesting of lists and mappings read. No Kubernetes object comes near it (CRD schemas, the deepest, nest a
 * few dozen levels); beyond a few hundred levels the YAML reader runs out of stack, so the limit is checked before
 * reading. (The API server's own limit, Go's JSON decoder's, is 10,000.)
 */
export const MAX_DEPTH = 200;

/** the most alias expansions a document may need: a guard against "billion laughs" alias bombs. */
export const MAX_ALIAS_COUNT = 1000;

/** the input problems of one run, one line each, gathered so that one run reports all of them. */
export class InputProblems {
  public readonly lines: string[] = [];
  /** the files with a problem: not readable as Kubernetes objects at all, or with a document that is not one. */
  public readonly filesWithProblems = new Set<string>();

  /** throws the problems gathered as one CliError (one `error:` line each), if there are any. */
  public throwIfAny(): void {
    if (this.lines.length > 0) throw new CliError(this.lines);
  }
}

/**
 * Reads every Kubernetes object of every file, in order: YAML streams of any number of documents (as `cdk8s synth` and
 * `kubectl get -o yaml` write) or JSON. `List` kinds (`List`, `NodeList`, ...) are flattened into their items; the
 * items of a typed list without apiVersion and kind (as the API server's list responses write them) take them from it.
 *
 * @param problems where to add one line per file or document that cannot be read as Kubernetes objects; without
 * it, they are thrown
 * @throws CliError with those lines, when `problems` is not given
 */
export function loadObjects(files: string[], problems?: InputProblems): LoadedObject[] {
  const gathered = problems ?? new InputProblems();
  const objects: LoadedObject[] = [];
  for (const file of files) {
    const before = gathered.lines.length;
    try {
      objects.push(...loadFile(file, gathered.lines));
    } catch (e) {
      if (!(e instanceof CliError)) throw e;
      gathered.lines.push(...e.lines);
    }
    if (gathered.lines.length > before) gathered.filesWithProblems.add(file);
  }
  if (!problems) gathered.throwIfAny();
  return objects;
}

/**
 * Where an object is, for messages: `app.yaml:12: document 2 (DaemonSet observability/agent)`, with the item of a
 * List (`document 1, items[3] (Node worker-1)`).
 */
export function whereIs(o: LoadedObject): string {
  const what = describeObject(o.object);
  return `${o.file}:${o.line}: document ${o.document}${o.path === '' ? '' : `, ${o.path}`}${what === '' ? '' : ` (${what})`}`;
}

/** `DaemonSet observability/agent`, `Node worker-1`, `name agent` without a kind, '' without either; shortened. */
export function describeObject(object: any): string {
  const kind = typeof object?.kind === 'string' && object.kind !== '' ? shorten(object.kind, 60) : '';
  const metadata = isObject(object?.metadata) ? object.metadata : {};
  const name = typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : undefined;
  const namespace = typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : undefined;
  const ref = name === undefined ? '' : shorten(`${namespace === undefined ? '' : `${namespace}/`}${name}`, 120);
  if (kind === '') return ref === '' ? '' : `name ${ref}`;
  return [kind, ref].filter((s) => s !== '').join(' ');
}

/** a value as it appears in a message: JSON, shortened; strings quoted. */
export function showValue(value: unknown, max: number = 80): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  return shorten(text ?? String(value), max);
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

function isObject(value: unknown): value is { [key: string]: any } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function loadFile(file: string, problems: string[]): LoadedObject[] {
  const text = readText(file);
  const lineCounter = new LineCounter();
  const tokens = Array.from(new Parser(lineCounter.addNewLine).parse(text));
  const position = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return `${pos.line}:${pos.col}`;
  };

  // before composing: the YAML reader recurses once per level of nesting
  let index = 0;
  for (const token of tokens) {
    if (token.type !== 'document') continue;
    index++;
    const problem = cstProblem(token);
    if (problem) throw new CliError(`${file}:${position(problem.offset)}: document ${index}: ${problem.message}`);
  }

  // logLevel error: the reader's warnings would be written to stderr by process.emitWarning
  const composer = new Composer({ logLevel: 'error', uniqueKeys: true });
  const documents: Document.Parsed[] = Array.from(composer.compose(tokens));
  const objects: LoadedObject[] = [];
  let content = 0;
  documents.forEach((doc, i) => {
    const document = i + 1;
    const error = doc.errors[0];
    if (error) {
      const message = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      throw new CliError(`${file}:${position(error.pos[0])}: document ${document}: invalid YAML: ${lowerFirst(shorten(message, 160))}`);
    }
    const contents: any = doc.contents;
    if (contents === null || contents === undefined) return; // an empty document, as between two `---`
    const line = lineCounter.linePos(contents.range?.[0] ?? 0).line;
    const where = `${file}:${line}: document ${document}`;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (e: any) {
      if (/alias count/i.test(String(e?.message))) {
        throw new CliError(`${where}: its aliases expand to too much (more than ${MAX_ALIAS_COUNT} alias nodes, as in a "billion laughs" alias bomb); write the repeated parts out`);
      }
      throw new CliError(`${where}: cannot be read: ${lowerFirst(shorten(String(e?.message ?? e), 160))}`);
    }
    if (value === null || value === undefined) return; // `--- null`, `--- ~`: nothing, as kubectl skips it
    content++;
    const valueProblem = jsProblem(value);
    if (valueProblem) throw new CliError(`${where}: ${valueProblem}`);
    // item lines, for messages about objects inside a List or a top-level YAML list
    const itemsNode = isMap(contents) ? contents.get('items', true) : isSeq(contents) ? contents : undefined;
    const itemLines = isSeq(itemsNode) ? itemsNode.items.map((item: any) => lineCounter.linePos(item?.range?.[0] ?? 0).line) : [];
    flatten(value, { file, line, document, path: '' }, itemLines, objects, problems);
  });
  if (content === 0) {
    const what = text.trim() === '' ? 'the file is empty' : 'the file has only comments and empty documents';
    throw new CliError(`${file}: no Kubernetes objects: ${what}; pass manifests (YAML or JSON), e.g. from cdk8s synth or kubectl get -o yaml`);
  }
  return objects;
}

/** the file as text: UTF-8 (a BOM is dropped) or UTF-16 with its BOM, as Windows PowerShell's `>` writes. */
function readText(file: string): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e: any) {
    throw new CliError(`${file}: cannot read file: ${describeIoError(e)}`);
  }
  if (bytes.length > bufferConstants.MAX_STRING_LENGTH) {
    throw new CliError(`${file}: cannot read file: ${bytes.length} bytes is more than the ${bufferConstants.MAX_STRING_LENGTH} characters a string holds; split it`);
  }
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    const at = encoding === 'utf-8' ? firstInvalidUtf8(bytes) : undefined;
    const where = at === undefined ? '' : ` (the byte at offset ${at} of ${bytes.length} is 0x${bytes[at].toString(16).padStart(2, '0')})`;
    throw new CliError(`${file}: not a YAML or JSON text file: it is not ${encoding === 'utf-8' ? 'UTF-8' : encoding.toUpperCase()} text${where}; ` +
      'pass manifests (YAML or JSON)');
  }
  // YAML and JSON allow tab, line feed and carriage return, no other C0 control character
  const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.exec(text);
  if (control) {
    const before = text.slice(0, control.index);
    const line = before.split('\n').length;
    const col = control.index - before.lastIndexOf('\n');
    const code = `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw new CliError(`${file}:${line}:${col}: not a YAML or JSON text file: control character ${code} (YAML and JSON allow only tab, line feed and carriage return); pass manifests (YAML or JSON)`);
  }
  return text;
}

/** the offset of the first byte that is not valid UTF-8, for the message. */
function firstInvalidUtf8(bytes: Buffer): number | undefined {
  // decode growing prefixes cheaply: the valid prefix ends where the replacement character first appears
  const lenient = new TextDecoder('utf-8').decode(bytes);
  const at = lenient.indexOf('\ufffd');
  if (at < 0) return undefined;
  return Buffer.byteLength(lenient.slice(0, at), 'utf-8');
}

interface Problem {
  readonly offset: number;
  readonly message: string;
}

/**
 * The first problem of a document's syntax tree that the YAML reader would not survive or Kubernetes cannot
 * represent: nesting deeper than MAX_DEPTH, a mapping key that is itself a list or mapping. Walked with an explicit
 * stack: the tree may be 100,000 levels deep.
 */
function cstProblem(document: CST.Document): Problem | undefined {
  const stack: Array<[CST.Token, number]> = document.value ? [[document.value, 0]] : [];
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth + 1 > MAX_DEPTH) {
      return { offset: token.offset, message: `nested deeper than ${MAX_DEPTH} levels of lists and mappings, the most this reader reads (no Kubernetes object nests that deep)` };
    }
    for (const item of token.items as CST.CollectionItem[]) {
      if (item.key) {
        if (item.key.type === 'block-map' || item.key.type === 'block-seq' || item.key.type === 'flow-collection') {
          return { offset: item.key.offset, message: 'a mapping key is a list or mapping; Kubernetes field names, label and annotation keys are strings' };
        }
        stack.push([item.key, depth + 1]);
      }
      if (item.value) stack.push([item.value, depth + 1]);
    }
  }
  return undefined;
}

/**
 * The problem of a document's value that its text did not show: aliases can nest a value deeper than its text, or
 * make it contain itself (`&a {b: *a}`), which JSON, and so Kubernetes, cannot represent.
 */
function jsProblem(value: unknown): string | undefined {
  const stack: Array<{ value: object; depth: number; leaving: boolean }> = [];
  if (typeof value === 'object' && value !== null) stack.push({ value, depth: 1, leaving: false });
  const open = new Set<object>();
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.leaving) {
      open.delete(frame.value);
      continue;
    }
    if (open.has(frame.value)) return 'an alias refers to a list or mapping that contains it, a cycle that JSON (and so Kubernetes) cannot represent';
    if (frame.depth > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH} levels of lists and mappings once its aliases are expanded, the most this reader reads`;
    open.add(frame.value);
    stack.push({ value: frame.value, depth: frame.depth, leaving: true });
    for (const child of Object.values(frame.value)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: frame.depth + 1, leaving: false });
    }
  }
  return undefined;
}

interface Place {
  readonly file: string;
  readonly line: number;
  readonly document: number;
  readonly path: string;
}

function flatten(value: unknown, place: Place, itemLines: number[], out: LoadedObject[], problems: string[]): void {
  const where = () => `${place.file}:${place.line}: document ${place.document}${place.path === '' ? '' : `, ${place.path}`}`;
  if (Array.isArray(value)) {
    value.forEach((item, i) => flatten(item, { ...place, line: itemLines[i] ?? place.line, path: `${place.path}[${i}]` }, [], out, problems));
    return;
  }
  if (!isObject(value)) {
    problems.push(`${where()}: expected a Kubernetes object (a mapping with apiVersion and kind), got ${showValue(value)}`);
    return;
  }
  const kind = value.kind;
  if (typeof kind === 'string' && kind.endsWith('List') && (Array.isArray(value.items) || (kind === 'List' && value.items == null))) {
    // the API server's list responses leave apiVersion and kind out of the items of a typed list (NodeList)
    const itemKind = kind === 'List' ? undefined : kind.slice(0, -'List'.length);
    const items: unknown[] = value.items ?? [];
    items.forEach((item, i) => {
      let filled = item;
      if (itemKind !== undefined && isObject(item) && (item.apiVersion === undefined || item.kind === undefined)) {
        filled = { apiVersion: value.apiVersion, kind: itemKind, ...item }; // the item's own fields win
      }
      flatten(filled, { ...place, line: itemLines[i] ?? place.line, path: `${place.path === '' ? '' : `${place.path}.`}items[${i}]` }, [], out, problems);
    });
    return;
  }
  const loaded: LoadedObject = { ...place, object: value };
  const problem = identityProblem(value);
  if (problem) {
    const what = describeObject(value);
    problems.push(`${where()}${what === '' ? '' : ` (${what})`}: ${problem}`);
    return;
  }
  out.push(loaded);
}

/**
 * Why the API server would not take this as an object at all: apiVersion and kind, then metadata (a mapping with a
 * name, labels and annotations that map strings to strings). A document without kind is an error, not skipped: it is
 * usually a typo (`Kind:`) or a fragment, and skipping it would leave a DaemonSet out of the review or the coverage
 * without a word.
 */
function identityProblem(o: { [key: string]: any }): string | undefined {
  const example = 'e.g. apiVersion: apps/v1 and kind: DaemonSet';
  for (const field of ['apiVersion', 'kind']) {
    const value = o[field];
    if (value === undefined || value === null || value === '') {
      const near = Object.keys(o).find((k) => k !== field && k.toLowerCase() === field.toLowerCase());
      return `${field} is missing${near === undefined ? '' : ` (found ${showValue(near)}: field names are case-sensitive)`}: every Kubernetes object needs apiVersion and kind, ${example}`;
    }
    if (typeof value !== 'string') return `${field} must be a string, got ${showValue(value)}: ${example}`;
  }
  const metadata = o.metadata;
  if (metadata === undefined || metadata === null) return 'metadata is missing: every Kubernetes object needs metadata.name';
  if (!isObject(metadata)) return `metadata must be a mapping, got ${showValue(metadata)}: write it as a mapping with a name`;
  const name = metadata.name ?? metadata.generateName;
  if (name === undefined || name === null || name === '') return 'metadata.name is missing: every Kubernetes object needs a name';
  for (const field of ['name', 'generateName', 'namespace']) {
    const value = metadata[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return `metadata.${field} must be a string, got ${showValue(value)}${typeof value === 'number' || typeof value === 'boolean' ? `: quote it ("${value}")` : ''}`;
    }
  }
  for (const field of ['labels', 'annotations']) {
    const map = metadata[field];
    if (map === undefined || map === null) continue;
    if (!isObject(map)) return `metadata.${field} must be a mapping of strings, got ${showValue(map)}`;
    for (const [key, value] of Object.entries(map)) {
      if (value === null || typeof value === 'string') continue;
      const fix = typeof value === 'number' || typeof value === 'boolean' ? `: quote it ("${value}"); YAML reads an unquoted ${value} as a ${typeof value}` : '';
      return `metadata.${field}.${shorten(key, 80)} must be a string, got ${showValue(value)}${fix}`;
    }
  }
  return undefined;
}

function describeIoError(e: any): string {
  switch (e?.code) {
    case 'ENOENT': return 'no such file';
    case 'EISDIR': return 'is a directory, not a file';
    case 'EACCES': return 'permission denied';
    case 'ENOTDIR': return 'a part of the path is not a directory';
    default: return lowerFirst(shorten(String(e?.message ?? e), 160));
  }
}
