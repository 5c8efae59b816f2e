// The library's reader against kubectl's own (test/reference/yaml2json: apimachinery's YAMLOrJSONDecoder and
// sigs.k8s.io/yaml at Kubernetes v1.37.2, run as kubectl's StreamVisitor runs them): for every corpus manifest and
// thousands of generated streams, both must give the same JSON documents, or both refuse the stream. One Go process
// reads each batch. In the corpus suite (npm run test:corpus), which needs Go too: the reference is built with it.

import * as fs from 'fs';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import * as fc from 'fast-check';
import { readManifestStream } from '../../src/model/_manifest-reader';
import { kubectlRead, ReferenceResult, yaml2jsonBinary } from '../reference/yaml2json/reference';

const CORPUS = path.join(__dirname, '..', '..', '.corpus');
/** each test reads thousands of streams twice (here and in one Go process): generous on a loaded machine */
const TIMEOUT = 120_000;

// a cold build of the reference takes seconds to minutes (the Go modules come from the module proxy once)
beforeAll(() => {
  yaml2jsonBinary();
}, 600_000);

type Ours = { docs: unknown[]; error?: undefined } | { docs?: undefined; error: string };

function ours(text: string): Ours {
  try {
    return { docs: readManifestStream(text).map((d) => d.value) };
  } catch (e: any) {
    if (e?.constructor?.name !== 'ManifestSyntaxError') throw e;
    return { error: e.message };
  }
}

/** the streams on which the two readers disagree, with both answers, for the failure message. */
type Disagreement = { stream: string; kubectl: ReferenceResult; library: Ours };

function disagreements(streams: string[], checkAccepted?: (accepted: string[]) => void): Disagreement[] {
  const reference = kubectlRead(streams);
  const out: Disagreement[] = [];
  streams.forEach((stream, i) => {
    const library = ours(stream);
    const kubectl = reference[i];
    // two keys of one field: kubectl keeps one at random, the library refuses the mapping (see _manifest-reader.ts)
    const random = library.error?.includes('kubectl keeps one of them at random') === true;
    const same = kubectl.error !== undefined
      ? library.error !== undefined
      : library.docs !== undefined && isDeepStrictEqual(library.docs, kubectl.docs);
    const agree = random || same;
    if (!agree) out.push({ stream, kubectl, library });
  });
  if (process.env.DIFF_DUMP) {
    const counts = new Map<string, number>();
    for (const r of reference) if (r.error !== undefined) counts.set(r.error.replace(/line \d+/, 'line N').slice(0, 90), (counts.get(r.error.replace(/line \d+/, 'line N').slice(0, 90)) ?? 0) + 1);
    fs.writeFileSync(`${process.env.DIFF_DUMP}.errors`, JSON.stringify([...counts].sort((a, b) => b[1] - a[1]), null, 1));
  }
  checkAccepted?.(streams.filter((_, i) => reference[i].error === undefined));
  return out;
}

test('every corpus manifest reads as kubectl reads it', () => {
  const files = fs.readdirSync(CORPUS).filter((f) => f.endsWith('.yaml')).map((f) => path.join(CORPUS, f));
  files.push(...fs.readdirSync(path.join(CORPUS, 'fixtures')).map((f) => path.join(CORPUS, 'fixtures', f)));
  expect(files.length).toBeGreaterThan(15);
  const streams = files.map((f) => fs.readFileSync(f, 'utf8'));
  expect(disagreements(streams)).toEqual([]);
  // and every one of them is read at all
  for (const s of streams) expect(ours(s).docs?.length).toBeGreaterThan(0);
}, TIMEOUT);

/** scalar spellings whose type YAML 1.1 and 1.2 readers disagree on, and their neighbours. */
const SPELLINGS = [
  'y', 'Y', 'yes', 'Yes', 'YES', 'yEs', 'n', 'N', 'no', 'No', 'NO', 'nO', 'true', 'True', 'TRUE', 'tRUE', 'false', 'False',
  'FALSE', 'on', 'On', 'ON', 'oN', 'off', 'Off', 'OFF', '~', 'null', 'Null', 'NULL', 'nULL', '', '0', '-0', '+0', '+1',
  '-1', '0640', '0o17', '0O17', '0x1F', '0X1f', '0x_1F', '0b101', '-0b11', '+0b11', '0b', '0x', '1_000', '1__0', '_1',
  '089', '0.0', '-0.0', '1.5', '.5', '-.5', '+.5', '1.', '1e3', '1E+3', '1e-3', '6.02e23', '1e400', '-1e400', '1e-400',
  '0.1', '1_0.5', '.inf', '-.Inf', '+.INF', '.nan', '.NaN', 'inf', 'nan', '0x1p-2', '9223372036854775807',
  '9223372036854775808', '-9223372036854775808', '-9223372036854775809', '18446744073709551615', '18446744073709551616',
  '0xFFFFFFFFFFFFFFFF', '0x1FFFFFFFFFFFFFFFF', '1:30', '190:20:30', '2001-12-14', '2001-12-14t21:59:43.10-05:00',
  '2001-12-14 21:59:43.10', '12:30:45', '<<', '=', 'hello', 'a b', 'privileged', 'yes please', '0640 rw', '.', '..', '-',
  '+', '0.', '00', '08', '0o8', '1e', 'e3', '1_', '0b2',
];
const TAGS = [...Array(24).fill(''), '!!str ', '!!int ', '!!bool ', '!!float ', '!!null ', '!!binary ', '!!timestamp ', '!custom ', '! '];
const NAMES = ['a', 'b', 'c'];

type Tree =
  | { t: 'scalar'; text: string; style: 'plain' | 'single' | 'double' | 'literal' | 'folded' | 'wrapped'; tag: string; anchor?: string }
  | { t: 'alias'; name: string }
  | { t: 'map'; pairs: Array<[Tree, Tree]>; flow: boolean; anchor?: string }
  | { t: 'seq'; items: Tree[]; flow: boolean; anchor?: string };

const anchorArb = fc.option(fc.constantFrom(...NAMES), { freq: 2, nil: undefined });
// random text in plain style is plain: on one line, starting with no space or indicator (a quote, `#`, `&`, ...) that
// would make it something else
const scalarArb: fc.Arbitrary<Tree> = fc.record({
  t: fc.constant('scalar' as const),
  text: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...SPELLINGS) }, { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('a', ' ', '1', "'", '"', '\\', ':', '#', '-', '\n'), maxLength: 8 }) }),
  style: fc.constantFrom('plain', 'plain', 'plain', 'single', 'double', 'literal', 'folded', 'wrapped'),
  tag: fc.constantFrom(...TAGS),
  anchor: anchorArb,
}).filter((n) => (n.style !== 'plain' || SPELLINGS.includes(n.text) || /^[^\s'"#!&*|>%@`[\]{},?:-][^\n]*$/.test(n.text)) &&
  // a block scalar whose first line holds only spaces: the readers differ (see _manifest-reader.ts)
  !((n.style === 'literal' || n.style === 'folded') && /^ +(\n|$)/.test(n.text))) as fc.Arbitrary<Tree>;
// an empty plain key is `:` alone; after a scalar document go-yaml stops reading (see the divergences in _manifest-reader.ts)
const keyArb: fc.Arbitrary<Tree> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('scalar' as const), text: fc.constantFrom('name', 'image', 'privileged', 'readOnly', 'key', 'x'), style: fc.constant('plain' as const), tag: fc.constant('') }) as fc.Arbitrary<Tree> },
  // keys on one line, as a key must be (the readers' words differ on multi-line keys, which no manifest has)
  { weight: 2, arbitrary: scalarArb.filter((k) => k.t === 'scalar' && !k.text.includes('\n') && ['plain', 'single', 'double'].includes(k.style) && !(k.text === '' && k.style === 'plain') && !k.anchor) },
);
const MERGE_KEY: Tree = { t: 'scalar', text: '<<', style: 'plain', tag: '' };
const aliasArb = fc.record({ t: fc.constant('alias' as const), name: fc.constantFrom(...NAMES) }) as fc.Arbitrary<Tree>;
// documents are mappings or lists without an anchor of their own, as manifests are (after a scalar document go-yaml
// stops reading, see _manifest-reader.ts)
const { map: mapArb, seq: seqArb } = fc.letrec<{ tree: Tree; map: Tree; seq: Tree }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: scalarArb },
    { weight: 1, arbitrary: aliasArb },
    { weight: 2, arbitrary: tie('map') },
    { weight: 1, arbitrary: tie('seq') }),
  map: fc.record({
    t: fc.constant('map' as const),
    pairs: fc.array(fc.oneof(
      { weight: 4, arbitrary: fc.tuple(keyArb, tie('tree')) },
      // merge keys: an alias, a list of aliases or a mapping written in place, before or after the keys they meet
      { weight: 1, arbitrary: fc.tuple(fc.constant(MERGE_KEY), fc.oneof(aliasArb, tie('map'), fc.record({ t: fc.constant('seq' as const), items: fc.array(aliasArb, { maxLength: 3 }), flow: fc.boolean() }) as fc.Arbitrary<Tree>)) },
    ), { maxLength: 4 }),
    flow: fc.boolean(),
    anchor: anchorArb,
  }) as fc.Arbitrary<Tree>,
  seq: fc.record({ t: fc.constant('seq' as const), items: fc.array(tie('tree'), { maxLength: 3 }), flow: fc.boolean(), anchor: anchorArb }) as fc.Arbitrary<Tree>,
}));

function quoted(text: string, style: string, indent: string): string {
  if (style === 'double') return JSON.stringify(text);
  if (style === 'wrapped') {
    // as go-yaml writes a long single-quoted string: continued on the next line at the key's indentation
    const words = text.replace(/'/g, "''").split(' ');
    return `'${words[0]}\n${indent}${words.slice(1).join(' ')}x'`;
  }
  return `'${text.replace(/'/g, "''")}'`;
}

/** the node on the rest of the line it starts on (flow) or as lines below it (block), at `indent` spaces. */
function render(node: Tree, indent: number, inFlow: boolean): { inline: string } | { block: string; prefix: string } {
  const ind = ' '.repeat(indent);
  const anchor = node.t !== 'alias' && node.anchor ? `&${node.anchor} ` : '';
  switch (node.t) {
    case 'alias': return { inline: `*${node.name}` };
    case 'scalar': {
      const style = inFlow && (node.style === 'literal' || node.style === 'folded' || node.style === 'wrapped') ? 'double' : node.style;
      if (style === 'literal' || style === 'folded') {
        const body = node.text.split('\n').map((l) => (l === '' ? '' : `${ind}  ${l}`)).join('\n');
        return { block: `${body}\n`, prefix: `${anchor}${node.tag}${style === 'literal' ? '|' : '>'}` };
      }
      // a plain scalar starting with '-' or holding a ':' in a flow collection: go-yaml reads it differently from
      // eemeli/yaml (YAML 1.2), listed among the divergences in _manifest-reader.ts
      const text = style === 'plain' && !(inFlow && (node.text.startsWith('-') || node.text.includes(':'))) ? node.text : quoted(node.text, style === 'plain' ? 'double' : style, ind);
      return { inline: `${anchor}${node.tag}${text}` };
    }
    case 'map':
      if (node.flow || inFlow || node.pairs.length === 0) {
        return { inline: `${anchor}{${node.pairs.map(([k, v]) => `${inlineOf(k, indent)}: ${inlineOf(v, indent)}`).join(', ')}}` };
      }
      return {
        prefix: anchor.trim(),
        block: node.pairs.map(([k, v]) => `${ind}${inlineOf(k, indent)}:${after(v, indent)}`).join(''),
      };
    case 'seq':
      if (node.flow || inFlow || node.items.length === 0) return { inline: `${anchor}[${node.items.map((i) => inlineOf(i, indent)).join(', ')}]` };
      return { prefix: anchor.trim(), block: node.items.map((i) => `${ind}-${after(i, indent)}`).join('') };
  }
}

function inlineOf(node: Tree, indent: number): string {
  const r = render(node, indent, true);
  return 'inline' in r ? r.inline : '""';
}

/** what follows `key:` or `-`: the value on the same line, or its block on the next lines. */
function after(node: Tree, indent: number): string {
  const r = render(node, indent + 2, false);
  if ('inline' in r) return r.inline === '' ? '\n' : ` ${r.inline}\n`;
  if (node.t === 'scalar') return ` ${r.prefix}\n${r.block}`;
  return `${r.prefix === '' ? '' : ` ${r.prefix}`}\n${r.block}`;
}

function documentText(node: Tree): string {
  const r = render(node, 0, false);
  if ('inline' in r) return `${r.inline}\n`;
  return node.t === 'scalar' ? `${r.prefix}\n${r.block}` : `${r.prefix === '' ? '' : `${r.prefix}\n`}${r.block}`;
}

/** mappings anchored before a block document, for its aliases and merge keys to refer to. */
const preludeArb = fc.array(fc.tuple(fc.constantFrom(...NAMES), fc.array(fc.tuple(keyArb, scalarArb), { minLength: 1, maxLength: 3 })),
  { maxLength: 2 })
  .map((maps) => maps.map(([name, pairs], i) => `defaults${i}: &${name} {${pairs.map(([k, v]) => `${inlineOf(k, 0)}: ${inlineOf(v, 0)}`).join(', ')}}\n`).join(''));

const SEPARATORS = ['---\n', '--- # next\n', '---\n---\n', '\n---   \n'];
const rootArb = fc.oneof({ weight: 5, arbitrary: mapArb }, { weight: 1, arbitrary: seqArb }).map((d) => ({ ...d, anchor: undefined }));
const streamArb = fc.tuple(fc.boolean(), fc.array(fc.tuple(rootArb, fc.constantFrom(...SEPARATORS), preludeArb), { minLength: 1, maxLength: 3 }))
  .map(([leading, docs]) => (leading ? '---\n' : '') + docs.map(([d, sep, prelude], i) => {
    const text = documentText(d);
    return (i === 0 ? '' : sep) + (d.t === 'map' && !text.startsWith('{') && !text.startsWith('&') ? prelude : '') + text;
  }).join(''));

test('generated YAML streams (scalar spellings, tags, merge keys, anchors, styles, documents) read as kubectl reads them', () => {
  const streams = fc.sample(streamArb, { numRuns: Number(process.env.DIFF_RUNS ?? 3000), seed: Number(process.env.DIFF_SEED ?? 20) });
  const found = disagreements(streams, (accepted) => {
    // a good part of the streams are read (not refused by both), with merge keys among them
    expect(accepted.length).toBeGreaterThan(streams.length / 5);
    expect(accepted.filter((s) => s.includes('<<:')).length).toBeGreaterThan(40);
  });
  if (process.env.DIFF_DUMP) fs.writeFileSync(process.env.DIFF_DUMP, JSON.stringify(found, null, 1));
  expect(found.slice(0, 5)).toEqual([]);
}, TIMEOUT);

test('generated JSON streams read as kubectl reads them, also when YAML follows', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  const streams = fc.sample(fc.tuple(fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 4 }), fc.array(json, { maxLength: 2 }), fc.constantFrom('', '\na: yes\n', '\n---\nb: 0640\n'))
    .map(([first, rest, tail]) => [first, ...rest].map((v) => JSON.stringify(v)).join('\n') + tail), { numRuns: 500, seed: 20 });
  expect(disagreements(streams, (accepted) => expect(accepted.length).toBeGreaterThan(250)).slice(0, 5)).toEqual([]);
}, TIMEOUT);

test('generated merge keys (before and after the keys they meet, lists of mappings, nested) read as kubectl reads them', () => {
  const pairs = fc.array(fc.tuple(keyArb, scalarArb), { maxLength: 3 });
  const flowMap = pairs.map((ps) => `{${ps.map(([k, v]) => `${inlineOf(k, 0)}: ${inlineOf(v, 0)}`).join(', ')}}`);
  const merge = fc.oneof(fc.constant('*a'), fc.constant('*b'), fc.constant('[*a, *b]'), fc.constant('[*b, *a]'), flowMap, flowMap.map((m) => `[${m}, *a]`));
  const streams = fc.sample(fc.tuple(flowMap, flowMap, pairs, merge, pairs).map(([a, b, before, m, rest]) =>
    `a: &a ${a}\nb: &b ${b}\nsecurityContext:\n${before.map(([k, v]) => `  ${inlineOf(k, 2)}: ${inlineOf(v, 2)}\n`).join('')}` +
    `  <<: ${m}\n${rest.map(([k, v]) => `  ${inlineOf(k, 2)}: ${inlineOf(v, 2)}\n`).join('')}`), { numRuns: 1000, seed: 20 });
  expect(disagreements(streams, (accepted) => expect(accepted.length).toBeGreaterThan(100)).slice(0, 5)).toEqual([]);
}, TIMEOUT);

test('hand-written cases: what the CLI tests rely on, and what kubectl refuses', () => {
  const ds = (container: string, top = '') =>
    `apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: a\n${top}spec:\n  template:\n    spec:\n      containers:\n      - name: c\n${container}`;
  const read = [
    ds('        securityContext: {privileged: on}\n'),
    ds('        securityContext:\n          privileged: yes\n        volumeMounts:\n        - {name: v, mountPath: /v, readOnly: yes}\n'),
    ds('        securityContext: &host {privileged: y}\n      - name: d\n        securityContext:\n          <<: [*host, {readOnlyRootFilesystem: true}]\n'),
    ds('', "  annotations:\n    description: 'a long single-quoted string that go-yaml wraps\n    at the key''s indentation'\n"),
    'apiVersion: v1\nkind: List\nitems:\n- spec:\n    taints:\n    - &cp {key: a, effect: NoSchedule}\n- spec:\n    taints:\n    - <<: *cp\n',
  ];
  const refused = [
    ds('        resources: {limits: {cpu: .inf}}\n'),
    `${ds('')}--- !!map\n`,
    ds('        securityContext: *defaults\n'),
  ];
  expect(disagreements([...read, ...refused])).toEqual([]);
  const reference = kubectlRead([...read, ...refused]);
  expect(reference.map((r) => r.error === undefined)).toEqual([...read.map(() => true), ...refused.map(() => false)]);
}, TIMEOUT);
