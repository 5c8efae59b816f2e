/**
 * Internal: the one order of text the library sorts its output by.
 *
 * `localeCompare` without a locale follows the process's locale (LANG, LC_ALL): under da_DK "aa" sorts after "z" and
 * capitals before small letters, under sv_SE "å" sorts last, so one app synthesized different YAML on different
 * machines. A fixed collator keeps the order every en-US machine, CI included, has always written.
 */
const COLLATOR = new Intl.Collator('en-US');

/** compares two strings in the library's fixed order (en-US collation, whatever the process's locale). */
export function compareText(a: string, b: string): number {
  return COLLATOR.compare(a, b);
}
