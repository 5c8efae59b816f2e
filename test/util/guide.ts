// The source document's manifests, copied verbatim into test/examples/fixtures: the one copy every test reads.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

/** a fixture of the source document by section, e.g. `4-2-least-privilege`, parsed afresh on each call. */
export function guideFixture(section: string): any {
  return parse(fs.readFileSync(path.join(__dirname, '..', 'examples', 'fixtures', `${section}.yaml`), 'utf8'));
}
