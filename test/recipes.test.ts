/**
 * The places CONTRIBUTING.md's recipes name, held to the descriptors and rules they describe: a new host privilege type
 * or review rule that is not placed everywhere it must be fails here, with the place to change. (What the compiler
 * already enforces, e.g. one descriptor per type and the corpus test's key per type, is not repeated.)
 */
import * as fs from 'fs';
import * as path from 'path';
import { HostAccessType } from '../src';
import { HOST_PRIVILEGES } from '../src/model/_host-privileges';
import { HOST_ACCESS_REASON_RULE, isPodSecurityRule, SPECIFICITY } from '../src/review/_merge';
import { ReviewPack } from '../src/review/review-pack';
import { HostAccessReasonRule } from '../src/review/rules/host-access-reason';
import { PodSecurityCheckRule } from '../src/review/rules/pod-security-check';

const ROOT = path.join(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const TYPES: string[] = Object.values(HostAccessType);

describe('recipe 3: a host privilege type', () => {
  test('the README\'s privilege table has one row per type, in HostAccessType order', () => {
    const readme = read('README.md');
    const lines = readme.split('\n');
    const header = lines.indexOf('| Privilege | Prop | Without it |');
    expect(header).toBeGreaterThan(0);
    const end = lines.findIndex((l, i) => i > header && !l.startsWith('|'));
    const rows = lines.slice(header + 2, end);
    const listed = rows.flatMap((r) => [...r.split('|')[1].matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]));
    expect(listed).toEqual(TYPES);
  });

  /** the doc comment of `name` in `file` (the block right above its declaration). */
  function docOf(file: string, declaration: string): string {
    const text = read(file);
    const at = text.indexOf(declaration);
    if (at < 0) throw new Error(`${file}: no ${declaration}`);
    const start = text.lastIndexOf('/**', at);
    return text.slice(start, at);
  }

  test.each([
    ['src/model/host-access-item.ts', 'the detail format per type', '  readonly detail: string;'],
    ['src/model/host-access-reasons.ts', 'the detail format per type', 'export interface HostAccessReason {'],
    ['src/model/host-access.ts', 'how each type is detected', 'export class HostAccess {'],
  ])('%s documents every type (%s)', (file, _what, declaration) => {
    const doc = docOf(file, declaration);
    expect(TYPES.filter((t) => !new RegExp(`(\`|\\*\\*)${t}(\`|\\*\\*)`).test(doc))).toEqual([]);
  });

  test('the descriptors feed RULES.md: NA-HOST-ACCESS-REASON states the risk of every type', () => {
    const explanation = new HostAccessReasonRule().explanation;
    expect(read('RULES.md')).toContain(explanation);
    const risks = explanation.slice(explanation.indexOf('risk: '));
    expect(HOST_PRIVILEGES.map((d) => d.type).filter((t) => !new RegExp(`\\b${t}\\b`).test(risks))).toEqual([]);
  });
});

describe('recipe 1: a review rule', () => {
  test('every rule that merges by cause (RuleViolation.cause) has its place in the merge order (SPECIFICITY, src/review/_merge.ts)', () => {
    const dir = path.join(ROOT, 'src', 'review', 'rules');
    // the Pod Security checks (one rule per check, IDs built from the check) are placed by their prefix: last
    expect(PodSecurityCheckRule.allChecks().map((c) => new PodSecurityCheckRule(c).id).filter((id) => !isPodSecurityRule(id))).toEqual([]);
    const merging = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'pod-security-check.ts')
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
      .filter((text) => /\bcause:/.test(text))
      .map((text) => /public readonly id = '([A-Z0-9-]+)'/.exec(text)?.[1]);
    expect(merging.length).toBeGreaterThan(0);
    expect(merging.filter((id) => id === undefined || (id !== HOST_ACCESS_REASON_RULE && !SPECIFICITY.includes(id)))).toEqual([]);
    // and no name in the merge order that is no rule
    const ids = ReviewPack.all().flatMap((p) => p.rules.map((r) => r.id));
    expect(SPECIFICITY.filter((id) => !ids.includes(id))).toEqual([]);
  });
});
