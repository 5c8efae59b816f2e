// Reads Kubernetes objects from YAML streams and JSON files. Internal to the CLI.

import * as fs from 'fs';
import { isMap, isSeq, LineCounter, parseAllDocuments } from 'yaml';
import { CliError, lowerFirst } from './_command';

/** one Kubernetes object read from a file, with where it came from. */
export interface LoadedObject {
  /** the file, as given on the command line. */
  readonly file: string;
  /** the 1-based line the object starts on. */
  readonly line: number;
  /** the object as plain JSON. */
  readonly object: any;
}

/**
 * Reads every Kubernetes object in a file: a YAML stream of any number of documents (as `cdk8s synth` and
 * `kubectl get -o yaml` write) or JSON. `List` kinds (`List`, `NodeList`, ...) are flattened into their items.
 *
 * @throws CliError naming the file (and the line, for YAML errors) when it cannot be read or parsed
 */
export function loadObjects(file: string): LoadedObject[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf-8');
  } catch (e: any) {
    throw new CliError(`${file}: cannot read file: ${describeIoError(e)}`);
  }
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter });
  const result: LoadedObject[] = [];
  for (const doc of Array.isArray(docs) ? docs : []) {
    const error = doc.errors[0];
    if (error) {
      const pos = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
      const message = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      throw new CliError(`${file}:${pos.line}:${pos.col}: invalid YAML: ${lowerFirst(message)}`);
    }
    const contents: any = doc.contents;
    if (contents === null || contents === undefined) continue; // an empty document
    const line = lineCounter.linePos(contents.range?.[0] ?? 0).line;
    const value = doc.toJS({ maxAliasCount: 1000 });
    if (value === null || value === undefined) continue;
    // item lines, for messages about objects inside a List or a top-level array
    const itemsNode = isMap(contents) ? contents.get('items', true) : isSeq(contents) ? contents : undefined;
    const itemLines = isSeq(itemsNode) ? itemsNode.items.map((item: any) => lineCounter.linePos(item?.range?.[0] ?? 0).line) : [];
    flatten(value, line, itemLines, file, result);
  }
  return result;
}

function flatten(value: any, line: number, itemLines: number[], file: string, out: LoadedObject[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => flatten(item, itemLines[i] ?? line, [], file, out));
    return;
  }
  if (typeof value !== 'object' || value === null) {
    throw new CliError(`${file}:${line}: expected a Kubernetes object (a mapping with apiVersion and kind), got ${JSON.stringify(value)}`);
  }
  if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) {
    value.items.forEach((item: any, i: number) => flatten(item, itemLines[i] ?? line, [], file, out));
    return;
  }
  out.push({ file, line, object: value });
}

function describeIoError(e: any): string {
  switch (e?.code) {
    case 'ENOENT': return 'no such file';
    case 'EISDIR': return 'is a directory, not a file';
    case 'EACCES': return 'permission denied';
    default: return lowerFirst(String(e?.message ?? e));
  }
}

