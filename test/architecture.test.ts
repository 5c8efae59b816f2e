// The shape of src/, as DESIGN.md draws it: no import cycles, each layer importing only the layers below it, files of
// one concept each (size limits), index.ts re-exports only, and no product wording users never saw.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  LayerRules, SourceFile, bannedWording, importCycles, indexFilesWithCode, layerViolations, oversizedFiles, readSources,
} from './util/architecture';

const ROOT = path.join(__dirname, '..');
const SRC = path.join(ROOT, 'src');

/** DESIGN.md's layers: model → review → agent → presets; cli and plugin beside. */
const LAYERS: LayerRules = {
  mayImport: {
    model: ['model'],
    review: ['review', 'model'],
    agent: ['agent', 'model', 'review'],
    presets: ['presets', 'agent'],
    cli: ['cli', 'model', 'review'],
    plugin: ['plugin', 'review'],
  },
  // model/ and review/ are plain Kubernetes semantics over JSON: they serve the CLI and any YAML, without a construct tree.
  bannedPackages: {
    model: ['constructs', 'cdk8s', 'cdk8s-plus-28'],
    review: ['constructs', 'cdk8s', 'cdk8s-plus-28'],
  },
  // each preset stands alone; the CNI preset's files (cni-plugin, cni-flavor, cni-flavor-options, _cni-*) are one group.
  isolatedGroups: { presets: ['cni-'] },
};

/** the default line limit of a src file. */
const MAX_LINES = 500;

/**
 * Files with their own limit: NodeAgent's construct file, which keeps only the construct (props, rendering, identity
 * and the gate live in their own files); and pure data tables, which may be long because each entry is one row.
 */
const LINE_LIMITS: { [file: string]: number } = {
  'agent/node-agent.ts': 450,
  // data: the host-access risk catalogue, one entry per path, capability and privilege
  'model/_host-risk-catalogue.ts': 1000,
};

/** words the library's API and docs must not use: users never saw the document the library started from. */
const BANNED_WORDING = [/\bseed/i, /source document/i, /\bthe guide\b/i, /\bDaemonSet guide\b/i];

/** the deprecated aliases of the renamed pack keep their old names for one release. */
const ALLOWED_WORDING: { [file: string]: string[] } = {
  'review/review-pack.ts': ['SEED_BASELINE', 'seedBaseline', 'seed-baseline'],
};

describe('src/ architecture', () => {
  const sources = readSources(SRC);

  test('src/ is read: every layer has files', () => {
    for (const folder of Object.keys(LAYERS.mayImport)) {
      expect(sources.filter((s) => s.file.startsWith(`${folder}/`)).length).toBeGreaterThan(0);
    }
  });

  test('no import cycles, type-only imports included', () => {
    expect(importCycles(sources)).toEqual([]);
  });

  test('each layer imports only what it may; presets never import each other; model/ and review/ import no construct library', () => {
    expect(layerViolations(sources, LAYERS)).toEqual([]);
  });

  test(`no file over ${MAX_LINES} lines except the data tables; agent/node-agent.ts at most 450`, () => {
    expect(oversizedFiles(sources, MAX_LINES, LINE_LIMITS)).toEqual([]);
  });

  test('the listed data tables exist', () => {
    for (const file of Object.keys(LINE_LIMITS)) expect(fs.existsSync(path.join(SRC, file))).toBe(true);
  });

  test('no "seed", "source document" or "the guide" wording (the deprecated pack aliases aside)', () => {
    expect(bannedWording(sources, BANNED_WORDING, ALLOWED_WORDING)).toEqual([]);
  });

  test('the docs and the examples use none of that wording either (the deprecated pack aliases aside)', () => {
    const docs = execFileSync('git', ['ls-files', 'README.md', 'CONTRIBUTING.md', 'RULES.md', 'docs', 'examples'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n').filter((f) => /\.(md|ts|py|java|go)$/.test(f) && !f.includes('/dist/'));
    expect(docs.length).toBeGreaterThan(10);
    const texts = docs.map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8'), internal: [], external: [] }));
    const aliases = Object.fromEntries(docs.map((f) => [f, ['SEED_BASELINE', 'seedBaseline', 'seed-baseline']]));
    expect(bannedWording(texts, BANNED_WORDING, aliases)).toEqual([]);
  });

  test('index.ts files only re-export', () => {
    expect(indexFilesWithCode(sources)).toEqual([]);
  });
});

// The checks must be able to fail: each one on a small tree that breaks its rule.
describe('the architecture checks catch what they should', () => {
  function tree(files: { [file: string]: string }): SourceFile[] {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'architecture-'));
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    try {
      return readSources(root);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }

  test('a cycle through a type-only import, through an index.ts, and a file importing itself', () => {
    const sources = tree({
      'review/a.ts': "import type { B } from './b';\nexport interface A { b?: B }\n",
      'review/b.ts': "import { A } from '.';\nexport interface B { a?: A }\n",
      'review/index.ts': "export * from './a';\n",
      'review/c.ts': "export type { C } from './c';\n",
      'review/d.ts': "import { A } from './a';\nexport const d: A = {};\n",
    });
    expect(importCycles(sources)).toEqual([['review/a.ts', 'review/b.ts', 'review/index.ts'], ['review/c.ts']]);
  });

  test('a layer importing upwards, a preset importing another, a construct library in model/', () => {
    const sources = tree({
      'model/m.ts': "import { Construct } from 'constructs';\nimport { x } from '../agent/x';\n",
      'agent/x.ts': "import { m } from '../model/m';\nexport const x = 1;\n",
      'presets/log-collector.ts': "import { y } from './node-monitor';\nimport { z } from './_cni-common';\n",
      'presets/node-monitor.ts': 'export const y = 1;\n',
      'presets/cni-plugin.ts': "import { z } from './_cni-common';\nimport { f } from './cni-flavor';\n",
      'presets/cni-flavor.ts': 'export const f = 1;\n',
      'presets/_cni-common.ts': 'export const z = 1;\n',
      'presets/index.ts': "export * from './log-collector';\nexport * from './node-monitor';\n",
      'extra/e.ts': 'export const e = 1;\n',
    });
    expect(layerViolations(sources, LAYERS)).toEqual([
      'extra/e.ts: folder extra/ has no layering rule: add it to the architecture test',
      'model/m.ts -> agent/x.ts: model/ may import only model/',
      'model/m.ts -> constructs: model/ must not import constructs',
      "presets/log-collector.ts -> presets/node-monitor.ts: the files of presets/ never import another preset's files",
      "presets/log-collector.ts -> presets/_cni-common.ts: the files of presets/ never import another preset's files",
    ]);
  });

  test('an oversized file, a banned word, an index.ts with code, an import of nothing', () => {
    const sources = tree({
      'agent/node-agent.ts': 'const a = 1;\n'.repeat(451),
      'agent/small.ts': 'const a = 1;\n'.repeat(450),
      'model/big.ts': 'const a = 1;\n'.repeat(501),
      'review/review-pack.ts': "const SEED_BASELINE = 'seed-baseline';\n// the seed's wording\n",
      'review/rule.ts': '// as the source document says\n',
      'review/index.ts': "// re-exports only\nexport * from './rule';\nexport const x = 1;\n",
    });
    expect(oversizedFiles(sources, MAX_LINES, LINE_LIMITS)).toEqual(['agent/node-agent.ts: 451 lines (limit 450)', 'model/big.ts: 501 lines (limit 500)']);
    expect(bannedWording(sources, BANNED_WORDING, ALLOWED_WORDING)).toEqual([
      "review/review-pack.ts:2: // the seed's wording",
      'review/rule.ts:1: // as the source document says',
    ]);
    expect(indexFilesWithCode(sources)).toEqual(['review/index.ts']);
    expect(() => tree({ 'review/a.ts': "import { b } from './missing';\n" })).toThrow("review/a.ts: import './missing' resolves to no .ts file");
  });
});
