// The library's output order must not follow the process's locale: the same app synthesizes the same YAML on a
// machine set to da_DK (where "aa" sorts after "z" and capitals first) as on CI.
import { execFileSync } from 'child_process';
import * as path from 'path';
import { HostAccessReasons, HostAccessType } from '../../src/model';
import { compareText } from '../../src/model/_text-order';

const REASONS = [
  { type: HostAccessType.HOST_PATH, detail: '/var/lib/zz', reason: 'z' },
  { type: HostAccessType.HOST_PATH, detail: '/var/lib/aa', reason: 'a' },
  { type: HostAccessType.HOST_PATH, detail: '/var/lib/Ab', reason: 'b' },
  { type: HostAccessType.HOST_PATH, detail: '/var/lib/ab', reason: 'c' },
];

/** what a process started under `locale` reports: its default collation locale, a raw localeCompare, and the annotation. */
function under(locale: string): { locale: string; raw: number; formatted: string } {
  const script = `
    const { HostAccessReasons } = require(${JSON.stringify(path.resolve(__dirname, '../../src/model'))});
    console.log(JSON.stringify({
      locale: new Intl.Collator().resolvedOptions().locale,
      raw: 'aa'.localeCompare('zz'),
      formatted: HostAccessReasons.format(${JSON.stringify(REASONS)}),
    }));`;
  const out = execFileSync(process.execPath, ['-r', 'ts-node/register', '-e', script], {
    env: { ...process.env, LANG: locale, LC_ALL: locale, TS_NODE_TRANSPILE_ONLY: 'true', TS_NODE_PROJECT: path.resolve(__dirname, '../tsconfig.json') },
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

test('the host-access annotation is the same under da_DK as under en_US, where a locale-following sort differs', () => {
  const danish = under('da_DK.UTF-8');
  const us = under('en_US.UTF-8');
  // the locale took effect in the child, and would have changed a locale-following sort
  expect(danish.locale).toBe('da-DK');
  expect(danish.raw).toBe(1);
  expect(us.raw).toBe(-1);
  expect(danish.formatted).toBe(us.formatted);
  expect(JSON.parse(us.formatted).map((r: any) => r.detail)).toEqual(['/var/lib/aa', '/var/lib/ab', '/var/lib/Ab', '/var/lib/zz']);
  expect(HostAccessReasons.format(REASONS)).toBe(us.formatted);
});

test('compareText is en-US collation: small before capital letters, "aa" before "z"', () => {
  expect(['z', 'Ab', 'aa', 'ab'].sort(compareText)).toEqual(['aa', 'ab', 'Ab', 'z']);
});
