// The checks behind test/architecture.test.ts, over a directory of TypeScript sources: the import graph (every import,
// export-from, require and import() in a file, type-only ones included), its cycles, the layering rules, file sizes
// and banned wording. Kept apart from the test so that the test can also run them on small fixtures and show that
// each one catches what it should.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/** one source file: its path relative to the root (with `/`), its text and what it imports. */
export interface SourceFile {
  readonly file: string;
  readonly text: string;
  /** relative imports, resolved to files under the root (relative paths). */
  readonly internal: string[];
  /** package imports, as written (`cdk8s`, `cdk8s-plus-28`, `node:fs`). */
  readonly external: string[];
}

/** every `.ts` file under `root` with its imports; a relative import that resolves to no file is an error. */
export function readSources(root: string): SourceFile[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) files.push(full);
    }
  };
  walk(root);
  return files.sort().map((full) => {
    const text = fs.readFileSync(full, 'utf8');
    const internal: string[] = [];
    const external: string[] = [];
    for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!spec.startsWith('.')) {
        external.push(spec);
        continue;
      }
      const target = path.resolve(path.dirname(full), spec);
      const resolved = [`${target}.ts`, path.join(target, 'index.ts')].find((f) => fs.existsSync(f));
      if (!resolved) throw new Error(`${rel(root, full)}: import '${spec}' resolves to no .ts file`);
      internal.push(rel(root, resolved));
    }
    return { file: rel(root, full), text, internal, external };
  });
}

function rel(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/** the import cycles: strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function importCycles(sources: SourceFile[]): string[][] {
  const graph = new Map(sources.map((s) => [s.file, s.internal]));
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const s of sources) if (!index.has(s.file)) visit(s.file);
  return cycles;
}

/** the layering: which top-level folders of src/ a folder may import (itself included), and which packages it may not. */
export interface LayerRules {
  /** folder → the folders it may import. A file at the root (index.ts) may import anything. */
  readonly mayImport: { [folder: string]: string[] };
  /** folder → package names it must not import (a name also bans its subpaths). */
  readonly bannedPackages: { [folder: string]: string[] };
  /**
   * Folders whose files form independent groups that never import each other (presets): a file's group is the first
   * entry of `groups[folder]` whose prefix (or one of whose prefixes) its name (without a leading `_`) starts with, else
   * its own name. `index.ts` re-exports them all and is exempt.
   */
  readonly isolatedGroups: { [folder: string]: (string | string[])[] };
}

function folderOf(file: string): string | undefined {
  const slash = file.indexOf('/');
  return slash < 0 ? undefined : file.slice(0, slash);
}

function groupOf(file: string, groups: (string | string[])[]): string {
  const name = path.posix.basename(file, '.ts').replace(/^_/, '');
  const group = groups.find((g) => (typeof g === 'string' ? [g] : g).some((p) => name.startsWith(p)));
  return group === undefined ? name : typeof group === 'string' ? group : group.join('|');
}

/** every import that breaks the layering, as `from -> to: why`. */
export function layerViolations(sources: SourceFile[], rules: LayerRules): string[] {
  const out: string[] = [];
  for (const s of sources) {
    const folder = folderOf(s.file);
    if (folder === undefined) continue;
    const allowed = rules.mayImport[folder];
    if (allowed === undefined) {
      out.push(`${s.file}: folder ${folder}/ has no layering rule: add it to the architecture test`);
      continue;
    }
    for (const target of s.internal) {
      const targetFolder = folderOf(target);
      if (targetFolder === undefined || !allowed.includes(targetFolder)) {
        out.push(`${s.file} -> ${target}: ${folder}/ may import only ${allowed.map((f) => `${f}/`).join(', ')}`);
        continue;
      }
      const groups = rules.isolatedGroups[folder];
      if (groups !== undefined && targetFolder === folder && path.posix.basename(s.file) !== 'index.ts'
        && groupOf(s.file, groups) !== groupOf(target, groups)) {
        out.push(`${s.file} -> ${target}: the files of ${folder}/ never import another ${folder.replace(/s$/, '')}'s files`);
      }
    }
    for (const pkg of s.external) {
      const banned = (rules.bannedPackages[folder] ?? []).find((b) => pkg === b || pkg.startsWith(`${b}/`));
      if (banned !== undefined) out.push(`${s.file} -> ${pkg}: ${folder}/ must not import ${banned}`);
    }
  }
  return out;
}

/** the files over their line limit, as `file: N lines (limit L)`. */
export function oversizedFiles(sources: SourceFile[], defaultLimit: number, limits: { [file: string]: number }): string[] {
  return sources
    .map((s) => ({ file: s.file, lines: s.text.split('\n').length - (s.text.endsWith('\n') ? 1 : 0), limit: limits[s.file] ?? defaultLimit }))
    .filter((f) => f.lines > f.limit)
    .map((f) => `${f.file}: ${f.lines} lines (limit ${f.limit})`);
}

/**
 * Every line that contains a banned word, as `file:line: text`, after removing the `allowed` strings of that file
 * (e.g. a deprecated alias that must keep its old name).
 */
export function bannedWording(sources: SourceFile[], banned: RegExp[], allowed: { [file: string]: string[] }): string[] {
  const out: string[] = [];
  for (const s of sources) {
    s.text.split('\n').forEach((line, i) => {
      let checked = line;
      for (const a of allowed[s.file] ?? []) checked = checked.split(a).join('');
      if (banned.some((b) => b.test(checked))) out.push(`${s.file}:${i + 1}: ${line.trim()}`);
    });
  }
  return out;
}

/** `index.ts` files whose code is anything but `export * from '...'` lines (comments aside). */
export function indexFilesWithCode(sources: SourceFile[]): string[] {
  return sources
    .filter((s) => path.posix.basename(s.file) === 'index.ts')
    .filter((s) => s.text
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .split('\n')
      .map((l) => l.replace(/\/\/.*$/, '').trim())
      .some((l) => l !== '' && !/^export \* from '\.[^']*';$/.test(l) && l !== 'export {};'))
    .map((s) => s.file);
}
