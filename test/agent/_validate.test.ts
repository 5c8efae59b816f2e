import { Chart, Testing } from 'cdk8s';
import { checkDnsLabel, checkDnsSubdomain, checkInteger, checkLabelKey, checkLabelValue, checkReason, fail } from '../../src/agent/_validate';
import { errorOf } from '../util/errors';

const label63 = `a${'b'.repeat(61)}c`;
const label64 = `a${'b'.repeat(62)}c`;
// four labels joined by dots: 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 characters
const subdomain253 = [label63, label63, label63, `a${'b'.repeat(59)}c`].join('.');
const subdomain254 = [label63, label63, label63, `a${'b'.repeat(60)}c`].join('.');


test('edge values have the lengths they claim', () => {
  expect([label63.length, label64.length, subdomain253.length, subdomain254.length]).toEqual([63, 64, 253, 254]);
});

describe('fail', () => {
  test('prefixes the message with the construct path', () => {
    const scope = new Chart(Testing.app(), 'observability');
    expect(errorOf(() => fail(scope, 'image is empty'))).toBe('[observability] image is empty');
  });

  test('without a scope, the message alone', () => {
    expect(errorOf(() => fail(undefined, 'image is empty'))).toBe('image is empty');
  });
});

describe('checkDnsLabel', () => {
  test.each(['a', '0', 'node-agent', '0abc', 'a-b-c', 'a--b', label63])('accepts %j', (v) => {
    expect(() => checkDnsLabel(undefined, 'name', v)).not.toThrow();
  });

  test.each(['', 'A', 'Node', 'node_agent', '-a', 'a-', 'a.b', 'a b', 'ü', label64])('rejects %j', (v) => {
    expect(errorOf(() => checkDnsLabel(undefined, 'name', v))).toBe(
      `name "${v}" is not a valid name: use at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit (e.g. "node-agent")`,
    );
  });
});

describe('checkDnsSubdomain', () => {
  test.each(['a', 'a.b', 'system-node-critical', 'a-1.b-2.c', label63, `${label63}.${label63}`, subdomain253])('accepts %j', (v) => {
    expect(() => checkDnsSubdomain(undefined, 'priorityClassName', v)).not.toThrow();
  });

  test.each(['', 'A', 'a..b', '.a', 'a.', '-a', 'a-.b', 'a.-b', 'a_b', 'a b', subdomain254])('rejects %j', (v) => {
    expect(errorOf(() => checkDnsSubdomain(undefined, 'priorityClassName', v))).toMatch(/^priorityClassName ".*" is not a valid name: use at most 253 lowercase letters/s);
  });
});

describe('checkLabelKey', () => {
  test.each([
    'app', 'A', '0', 'Node_Role.x-y', 'node-role.kubernetes.io/worker', 'kubernetes.io/os', 'example.com/A_b.c-d',
    label63, `example.com/${label63}`, `${subdomain253}/name`, `a/${'B'.repeat(63)}`,
  ])('accepts %j', (k) => {
    expect(() => checkLabelKey(undefined, 'nodeSelector', k)).not.toThrow();
  });

  test.each([
    '', '/', '/name', 'prefix/', 'a/b/c', 'Example.com/x', 'exa_mple.com/x', '-a', 'a-', '_a', 'a.', 'a b', 'ü', 'a\nb',
    label64, `example.com/${label64}`, `${subdomain254}/name`,
  ])('rejects %j', (k) => {
    expect(errorOf(() => checkLabelKey(undefined, 'nodeSelector', k))).toBe(
      `nodeSelector: "${k}" is not a valid label key: use [prefix/]name where the optional prefix is a DNS subdomain and the name has at most 63 letters, digits, '-', '_' or '.' (e.g. "node-role.kubernetes.io/worker")`,
    );
  });
});

describe('checkLabelValue', () => {
  test.each(['', 'a', 'A', '0', 'linux', 'A_b.c-D', 'a--b', label63])('accepts %j', (v) => {
    expect(() => checkLabelValue(undefined, 'nodeSelector.zone', v)).not.toThrow();
  });

  test.each(['-a', 'a-', '.a', 'a.', '_a', 'a_', 'a b', 'a/b', 'ü', ' ', label64])('rejects %j', (v) => {
    expect(errorOf(() => checkLabelValue(undefined, 'nodeSelector.zone', v))).toBe(
      `nodeSelector.zone: "${v}" is not a valid label value: use at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, or ""`,
    );
  });
});

describe('checkInteger', () => {
  test.each([1, 50, 100])('accepts %p within [1, 100]', (n) => {
    expect(() => checkInteger(undefined, 'weight', n, 1, 100)).not.toThrow();
  });

  test.each([0, 101, -1, 1.5, NaN, Infinity, -Infinity])('rejects %p outside [1, 100] or not whole', (n) => {
    expect(errorOf(() => checkInteger(undefined, 'weight', n, 1, 100))).toBe(`weight must be a whole number from 1 to 100, got ${n}`);
  });

  test('bounds up to int32', () => {
    expect(() => checkInteger(undefined, 'runAsUser', 2147483647, 1, 2147483647)).not.toThrow();
    expect(() => checkInteger(undefined, 'runAsUser', 2147483648, 1, 2147483647)).toThrow('runAsUser must be a whole number from 1 to 2147483647, got 2147483648');
  });
});

describe('checkReason', () => {
  test('returns the reason trimmed', () => {
    expect(checkReason(undefined, 'hostPID', '  sees node processes\t')).toBe('sees node processes');
    expect(checkReason(undefined, 'hostPID', 'lit les journaux — 日志')).toBe('lit les journaux — 日志');
  });

  test.each([[undefined], [''], [' '], ['\t  ']])('rejects a missing or blank reason %j', (r) => {
    expect(errorOf(() => checkReason(undefined, 'hostPID', r))).toBe(
      "hostPID needs a reason: say in one line why the agent needs it (e.g. { reason: 'reads container logs written by the kubelet' })",
    );
  });

  test.each([['first\nsecond'], ['a\r\nb'], ['carriage\rreturn'], ['\nleading']])('rejects a reason on several lines %j', (r) => {
    expect(errorOf(() => checkReason(undefined, 'capabilities NET_ADMIN', r))).toBe(`capabilities NET_ADMIN: the reason must be a single line, got ${JSON.stringify(r)}`);
  });

  test('prefixes the construct path', () => {
    expect(errorOf(() => checkReason(new Chart(Testing.app(), 'c'), 'hostIPC', ''))).toMatch(/^\[c\] hostIPC needs a reason/);
  });
});
