// Reads Kubernetes objects from YAML streams and JSON files for the CLI, through the one reader of manifests
// (src/model/_manifest-reader.ts: the JSON kubectl would send) and the bounded file reader (src/review/_input-file.ts).
//
// Everything a file can do wrong ends here as a CliError with one line per file or per document, naming the file, the
// line, the document and the field: a file that cannot be read or is too large, binary or non-UTF-8 content, YAML that
// kubectl refuses, an alias bomb, nesting too deep to read, an empty file, and documents that are not Kubernetes
// objects (no apiVersion or kind, metadata of the wrong shape), which the API server rejects too.

import { isDeepStrictEqual } from 'util';
import { CliError } from './_command';
import { ManifestSyntaxError, ReadDocument, readManifestStream } from '../model/_manifest-reader';
import { InputFileError, readInputText } from '../review/_input-file';

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
  let text: string;
  try {
    text = readInputText(file);
  } catch (e) {
    if (!(e instanceof InputFileError)) throw e;
    throw new CliError(`${file}${e.line === undefined ? '' : `:${e.line}:${e.column}`}: ${e.message}`);
  }
  let documents: ReadDocument[];
  try {
    documents = readManifestStream(text);
  } catch (e) {
    if (!(e instanceof ManifestSyntaxError)) throw e;
    throw new CliError(`${file}:${e.message}`);
  }
  if (documents.length === 0) {
    const what = text.trim() === '' ? 'the file is empty' : 'the file has only comments and empty documents';
    throw new CliError(`${file}: no Kubernetes objects: ${what}; pass manifests (YAML or JSON), e.g. from cdk8s synth or kubectl get -o yaml`);
  }
  const objects: LoadedObject[] = [];
  for (const doc of documents) flatten(doc.value, { file, line: doc.line, document: doc.document, path: '' }, doc.itemLines, objects, problems);
  return objects;
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
  if (value.items !== undefined) {
    // kubectl (its unstructured decoder) takes any object with items as a list, and gives the items that have neither
    // apiVersion nor kind those of the list (the API server's list responses leave them out: NodeList)
    if (value.items !== null && !Array.isArray(value.items)) {
      problems.push(`${where()}: items must be a list (an object with items is a List to kubectl), got ${showValue(value.items)}`);
      return;
    }
    const kind = typeof value.kind === 'string' ? value.kind : '';
    const itemKind = kind.endsWith('List') ? kind.slice(0, -'List'.length) : kind;
    const items: unknown[] = value.items ?? [];
    items.forEach((item, i) => {
      let filled = item;
      if (isObject(item) && isEmpty(item.apiVersion) && isEmpty(item.kind)) filled = { ...item, apiVersion: value.apiVersion, kind: itemKind };
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

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * The Nodes of an inventory, each once: a Node given twice (the same nodes file passed twice, two snapshots joined) is
 * one node when both copies are the same, and an error naming the node and both places when they differ (which of
 * them is the node would be a guess).
 */
export function uniqueNodes(nodes: LoadedObject[]): { nodes: LoadedObject[]; problems: string[] } {
  const byName = new Map<string, LoadedObject>();
  const unique: LoadedObject[] = [];
  const problems: string[] = [];
  for (const node of nodes) {
    const name = String(node.object?.metadata?.name ?? '');
    const first = byName.get(name);
    if (first === undefined) {
      byName.set(name, node);
      unique.push(node);
    } else if (!isDeepStrictEqual(first.object, node.object)) {
      problems.push(`${whereIs(node)}: Node ${name} is given twice, differently (also at ${first.file}:${first.line}, document ${first.document}${first.path === '' ? '' : `, ${first.path}`}); pass one inventory of the cluster's nodes, e.g. from 'kubectl get nodes -o yaml'`);
    }
  }
  return { nodes: unique, problems };
}
