import * as fs from 'fs';
import * as path from 'path';
import { rulesComparison, rulesDocument } from './rules-document';
import { ReviewPack, RulesCatalogue } from '../../src/review';

const RULES_MD = path.join(__dirname, '..', '..', 'RULES.md');

describe('RulesCatalogue', () => {
  test('RULES.md at the repository root is RulesCatalogue.markdown(), then docs/rules-comparison.md', () => {
    const committed = fs.readFileSync(RULES_MD, 'utf-8');
    const expected = rulesDocument();
    expect(expected.startsWith(RulesCatalogue.markdown())).toBe(true);
    expect(expected.endsWith(rulesComparison())).toBe(true);
    if (committed !== expected) {
      throw new Error(`RULES.md is stale: regenerate it from the repository root with\n  ${RulesCatalogue.REGENERATE}\nand commit the result`);
    }
  });

  test('markdown() is the catalogue alone: the comparison with other scanners is not part of the library\'s output', () => {
    const heading = rulesComparison().split('\n')[0];
    expect(heading).toBe('## How the review compares with other scanners');
    expect(RulesCatalogue.markdown()).not.toContain(heading);
    expect(RulesCatalogue.markdown()).not.toContain('kube-linter');
  });

  test('lists every pack with its rules, and every rule once with its severity, title, explanation and fix', () => {
    const md = RulesCatalogue.markdown();
    for (const pack of ReviewPack.all()) {
      expect(md).toContain(`## Pack \`${pack.id}\``);
      for (const rule of pack.rules) expect(md).toContain(`| [${rule.id}](#${rule.id.toLowerCase()}) |`);
    }
    const rules = [...new Map(ReviewPack.all().flatMap((p) => p.rules).map((r) => [r.id, r])).values()];
    expect(rules).toHaveLength(38 + 19 - 1);
    for (const rule of rules) {
      expect(md.split(`\n### ${rule.id}\n`)).toHaveLength(2);
      expect(md).toContain(rule.explanation);
      expect(md).toContain(`Fix: ${rule.fix}.`);
    }
    expect(md).toContain('**Host paths are mounted read-only.** Severity: by risk, up to critical. Packs: `node-agent-baseline`.');
    expect(md).toContain('**RBAC bound to the workload\'s ServiceAccount names its verbs and resources.** Severity: medium. Packs: `node-agent-baseline`, `node-agent-practices`.');
    expect(md).toContain('| [NA-RBAC-SECRETS](#na-rbac-secrets) | by risk, up to critical | The workload\'s ServiceAccount reads no Secrets through the API |');
    // the RBAC split is documented where the former ID's users look for it
    expect(md).toContain('Earlier releases reported under NA-RBAC-BROAD, at high, Secrets access, escalate, bind and impersonate, nodes/proxy');
    expect(md).toContain('| [NA-CAPABILITIES](#na-capabilities) | by risk, up to critical | Added capabilities are low-risk |');
    expect(md).toContain('Packs: `pss-baseline`, `pss-restricted`.');
  });

  test('is deterministic and can list chosen packs', () => {
    expect(RulesCatalogue.markdown()).toBe(RulesCatalogue.markdown());
    const one = RulesCatalogue.markdown([ReviewPack.podSecurityBaseline()]);
    expect(one).toContain('## Pack `pss-baseline`');
    // only the rules every review runs, whatever its packs, besides the chosen pack's
    expect(one.match(/^### NA-.*$/gm)).toEqual(['### NA-API-REJECTED']);
  });
});
