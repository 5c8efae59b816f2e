// Determinism on real manifests: the review of a corpus manifest does not depend on the order of its documents nor
// on how they are split into files. Every workload gets the same review (findings, their evidence, their order,
// host access, Pod Security level) whatever the permutation; the report lists the workloads in the order the input
// gives them, so the comparison is by workload.
import * as fs from 'fs';
import * as path from 'path';
import * as fc from 'fast-check';
import { loadObjects } from '../../src/cli/_manifests';
import { ReviewPack, SecurityReview } from '../../src/review';

const DIR = __dirname;
const CORPUS = path.join(DIR, '..', '..', '.corpus');
const NAMES: string[] = JSON.parse(fs.readFileSync(path.join(DIR, 'sources.json'), 'utf8')).sources.map((s: { name: string }) => s.name).sort();

function objectsOf(name: string): any[] {
  const file = path.join(CORPUS, `${name}.yaml`);
  if (!fs.existsSync(file)) {
    throw new Error(`corpus manifest .corpus/${name}.yaml is missing: run \`node test/corpus/fetch.js\` (the projen test task runs it before jest)`);
  }
  return loadObjects([file]).map((o) => o.object);
}

/** each workload's review as JSON, by workload, in one order (kind, namespace, name; then the review itself). */
function reviewsByWorkload(objects: any[], files?: string[]): string[] {
  const report = SecurityReview._reviewFiles(objects, { packs: ReviewPack.all() }, files);
  return report.workloads.map((w) => JSON.stringify(w)).sort();
}

/** an order of the documents, and whether they are split into two files. */
const permutation = (n: number) => fc.tuple(
  fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
  fc.boolean(),
);

describe.each(NAMES)('%s', (name) => {
  const objects = objectsOf(name);
  const expected = reviewsByWorkload(objects);

  test('has workloads to compare', () => {
    expect(expected.length).toBeGreaterThan(0);
  });

  test('reversed, its workloads are reviewed alike', () => {
    expect(reviewsByWorkload([...objects].reverse())).toEqual(expected);
  });

  test('in any order of its documents, in one file or in two, its workloads are reviewed alike', () => {
    // two files: the first half of the documents in one, the rest in the other, each document staying in its file
    const fileOf = (i: number) => (i < objects.length / 2 ? 'a.yaml' : 'b.yaml');
    const expectedSplit = reviewsByWorkload(objects, objects.map((_o, i) => fileOf(i)));
    fc.assert(fc.property(permutation(objects.length), ([order, split]) => {
      const permuted = order.map((i) => objects[i]);
      if (split) expect(reviewsByWorkload(permuted, order.map(fileOf))).toEqual(expectedSplit);
      else expect(reviewsByWorkload(permuted)).toEqual(expected);
    }), { numRuns: 8 });
  });
});
