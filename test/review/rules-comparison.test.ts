// docs/rules-comparison.md, which RULES.md ends with: it names only rules that exist, and every rule has its place in it,
// so that it cannot drift from the catalogue as rules are added, split or removed.
import { rulesComparison } from './rules-document';
import { ReviewPack, SecurityReview } from '../../src/review';

const RULE_ID = /\b(?:NA|PSS)-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*/g;
const NO_COUNTERPART = '### Our rules without a counterpart';
const NO_TOOL = '—';

interface Table {
  readonly header: string[];
  readonly rows: string[][];
}

function builtInRuleIds(): string[] {
  const ids = ReviewPack.all().flatMap((p) => p.rules.map((r) => r.id));
  return [...new Set([...ids, SecurityReview.API_REJECTED_RULE])].sort();
}

function ruleIds(text: string): Set<string> {
  return new Set(text.match(RULE_ID) ?? []);
}

function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

/** the Markdown tables of `md`: a header line, a `|---|` line, then rows. */
function tables(md: string): Table[] {
  const lines = md.split('\n');
  const found: Table[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].startsWith('|') || !/^\|(\s*-+\s*\|)+$/.test(lines[i + 1].trim())) continue;
    const rows: string[][] = [];
    let j = i + 2;
    for (; j < lines.length && lines[j].startsWith('|'); j++) rows.push(cells(lines[j]));
    found.push({ header: cells(lines[i]), rows });
    i = j - 1;
  }
  return found;
}

/** the text under `heading`, up to the next heading of level 2 or 3. */
function section(md: string, heading: string): string {
  const start = md.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section ${heading}`);
  const rest = md.slice(start + heading.length + 2);
  const end = rest.search(/^#{2,3} /m);
  return end < 0 ? rest : rest.slice(0, end);
}

describe('the comparison with other scanners (docs/rules-comparison.md)', () => {
  const md = rulesComparison();

  test('names only rules of the catalogue', () => {
    const known = new Set(builtInRuleIds());
    const named = [...ruleIds(md)];
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((id) => !known.has(id))).toEqual([]);
  });

  test('gives every check of another tool a cell for our rule, and proposes nothing', () => {
    const compared = tables(md).filter((t) => t.header[0] === 'Tool · check');
    expect(compared.length).toBeGreaterThanOrEqual(10);
    for (const table of compared) {
      expect(table.header.slice(2, 4)).toEqual(['Theirs', 'Our rule']);
      for (const row of table.rows) {
        expect(row).toHaveLength(table.header.length);
        // our rule with its severity, the row above's ("same"), or none and why; "—" where the tool has no such check
        expect(`${row[0]}: ${row[3]}`).toMatch(/: (same\b|none\b|—$|.*\b(critical|high|medium|low)\b)/);
      }
    }
    expect(md).not.toMatch(/propos/i);
  });

  test('has every built-in rule as the counterpart of another tool\'s check, or lists it as having none', () => {
    // a row that compares no tool's check ("— (no tool)") does not make a counterpart
    const counterparts = new Set<string>();
    for (const table of tables(md)) {
      ruleIds(table.header.join(' ')).forEach((id) => counterparts.add(id));
      for (const row of table.rows.filter((r) => !r[0].startsWith(NO_TOOL))) ruleIds(row.join(' ')).forEach((id) => counterparts.add(id));
    }
    const listed = section(md, NO_COUNTERPART).split('\n')
      .map((line) => /^- ((?:NA|PSS)-[A-Za-z0-9-]+):/.exec(line)?.[1])
      .filter((id): id is string => id !== undefined);
    expect(listed.length).toBeGreaterThan(0);
    const ids = builtInRuleIds();
    expect(ids.filter((id) => !counterparts.has(id) && !listed.includes(id))).toEqual([]);
    // listed as without a counterpart, yet compared with a tool's check: one of the two is wrong
    expect(listed.filter((id) => counterparts.has(id))).toEqual([]);
    expect(listed.filter((id) => !ids.includes(id))).toEqual([]);
  });

  test('cites the commit of each tool\'s source', () => {
    const sources = tables(md).find((t) => t.header[0] === 'Tool');
    expect(sources?.rows.map((r) => r[0])).toEqual(['kube-linter', 'kubesec', 'Polaris', 'Trivy', 'Checkov']);
    for (const row of sources!.rows) expect(row[2]).toMatch(/^`[0-9a-f]{40}` \(\d{4}-\d{2}-\d{2}\)$/);
  });
});
