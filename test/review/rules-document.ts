// RULES.md as the repository commits it: the rules catalogue (RulesCatalogue.markdown(), generated), then the comparison
// with other scanners (docs/rules-comparison.md, written by hand). Kept out of the library: the public markdown() is the
// catalogue alone.
import * as fs from 'fs';
import * as path from 'path';
import { RulesCatalogue } from '../../src/review';

/** the hand-maintained comparison with other scanners, appended to the catalogue in RULES.md. */
export const COMPARISON_MD = path.join(__dirname, '..', '..', 'docs', 'rules-comparison.md');

/** the text of the comparison with other scanners. */
export function rulesComparison(): string {
  return fs.readFileSync(COMPARISON_MD, 'utf-8');
}

/** the whole of RULES.md: the catalogue, a blank line, the comparison. */
export function rulesDocument(): string {
  return `${RulesCatalogue.markdown()}\n${rulesComparison()}`;
}
