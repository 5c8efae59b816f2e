// Prints RULES.md: the rules catalogue (RulesCatalogue.markdown()), then the comparison with other scanners
// (docs/rules-comparison.md). From the repository root:
//   npx ts-node test/review/write-rules-catalogue.ts > RULES.md
import { rulesDocument } from './rules-document';

process.stdout.write(rulesDocument());
