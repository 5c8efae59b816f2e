// Prints the rules catalogue. From the repository root:
//   npx ts-node test/review/write-rules-catalogue.ts > RULES.md
import { RulesCatalogue } from '../../src/review';

process.stdout.write(RulesCatalogue.markdown());
