/**
 * Internal validation helpers shared by the agent constructs. Not exported from the package.
 *
 * Every message is written for the user: it names the field, the value received and the fix.
 */
import * as path from 'node:path';
import { SizeRoundingBehavior } from 'cdk8s';
import { Construct } from 'constructs';
import { guard, isPlainObject, received, Report, Shape, show } from '../review/_guard';

/** throws an error prefixed with the construct path, so the user knows which agent is wrong. */
export function fail(scope: Construct | undefined, message: string): never {
  const where = scope ? `[${scope.node.path}] ` : '';
  throw new Error(`${where}${message}`);
}

/** a received value as an error message quotes it (shared with the guards of the public API). */
export { show } from '../review/_guard';

/** the report of a factory's checks: its messages start with the factory's name. */
export function factoryReport(where: string): Report {
  return (message: string): never => fail(undefined, `${where}: ${message}`);
}

/**
 * A factory's options, checked against their shape: left out (or null), or an object literal without unknown
 * properties whose fields have their types. Returns them normalised (null fields dropped).
 */
export function checkOptions<T>(where: string, options: unknown, shape: Shape): T {
  if (options === undefined || options === null) return {} as T;
  const report = factoryReport(where);
  if (!isPlainObject(options)) {
    report(`options must be ${shape.expected}${shape.example !== undefined ? ` (e.g. ${shape.example})` : ''}, got ${received(options)}`);
  }
  return guard<T>(report, '', options, shape);
}

/** a string; anything else fails naming the field and what was received. */
export function checkString(scope: Construct | undefined, field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') fail(scope, `${field} must be a string, got ${show(value)}`);
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** a DNS-1123 label (names of namespaces, services, containers, ports' parents). */
export function checkDnsLabel(scope: Construct | undefined, field: string, value: string): void {
  checkString(scope, field, value);
  if (value.length > 63 || !DNS_LABEL.test(value)) {
    fail(scope, `${field} "${value}" is not a valid name: use at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit (e.g. "node-agent")`);
  }
}

/** a DNS-1123 subdomain (names of most objects, priority classes). */
export function checkDnsSubdomain(scope: Construct | undefined, field: string, value: string): void {
  checkString(scope, field, value);
  if (value.length > 253 || !DNS_SUBDOMAIN.test(value)) {
    fail(scope, `${field} "${value}" is not a valid name: use at most 253 lowercase letters, digits, '-' and '.', starting and ending with a letter or digit`);
  }
}

/** a label key: optional DNS-subdomain prefix and a name of at most 63 characters. */
export function checkLabelKey(scope: Construct | undefined, field: string, key: string): void {
  if (typeof key !== 'string') fail(scope, `${field}: the label key must be a string, got ${show(key)}`);
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const prefixOk = prefix === undefined || (prefix.length <= 253 && DNS_SUBDOMAIN.test(prefix));
  if (!prefixOk || name.length > 63 || !LABEL_NAME.test(name)) {
    fail(scope, `${field}: "${key}" is not a valid label key: use [prefix/]name where the optional prefix is a DNS subdomain and the name has at most 63 letters, digits, '-', '_' or '.' (e.g. "node-role.kubernetes.io/worker")`);
  }
}

/** a label value: empty, or at most 63 letters, digits, '-', '_' and '.'. */
export function checkLabelValue(scope: Construct | undefined, field: string, value: string): void {
  if (typeof value !== 'string') fail(scope, `${field}: the label value must be a string (use "" for none), got ${show(value)}`);
  if (value.length > 63 || !LABEL_VALUE.test(value)) {
    fail(scope, `${field}: "${value}" is not a valid label value: use at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, or ""`);
  }
}

/** a whole number within [min, max]. */
export function checkInteger(scope: Construct | undefined, field: string, value: number, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(scope, `${field} must be a whole number from ${min} to ${max}, got ${typeof value === 'number' ? value : show(value)}`);
  }
}

/** a one-line reason for a host privilege: required, non-blank, a single line. */
export function checkReason(scope: Construct | undefined, field: string, reason: string | undefined): string {
  if (reason !== undefined && typeof reason !== 'string') fail(scope, `${field}: the reason must be a string, got ${show(reason)}`);
  if (reason === undefined || reason.trim().length === 0) {
    fail(scope, `${field} needs a reason: say in one line why the agent needs it (e.g. { reason: 'reads container logs written by the kubelet' })`);
  }
  if (/[\r\n]/.test(reason)) {
    fail(scope, `${field}: the reason must be a single line, got ${JSON.stringify(reason)}`);
  }
  return reason.trim();
}

/** a cdk8s Duration that is a whole number of seconds, at least `min`; returns the seconds. */
export function checkDuration(scope: Construct | undefined, field: string, duration: any, min = 0): number {
  if (!duration || typeof duration.toSeconds !== 'function') {
    fail(scope, `${field} must be a Duration (e.g. Duration.seconds(30)), got ${received(duration)}`);
  }
  const seconds = duration.toSeconds({ integral: false });
  if (!Number.isInteger(seconds) || seconds < min || seconds > 2147483647) {
    fail(scope, `${field} must be a whole number of seconds, at least ${min}, got ${seconds}s`);
  }
  return seconds;
}

/** a cdk8s Size that is a whole, positive number of MiB; returns the MiB. */
export function checkSize(scope: Construct | undefined, field: string, size: any): number {
  if (!size || typeof size.toMebibytes !== 'function') {
    fail(scope, `${field} must be a Size (e.g. Size.mebibytes(128)), got ${received(size)}`);
  }
  const mebibytes = size.toMebibytes({ rounding: SizeRoundingBehavior.NONE });
  if (!Number.isInteger(mebibytes) || mebibytes <= 0) {
    fail(scope, `${field} must be a whole, positive number of MiB (e.g. Size.mebibytes(128)), got ${mebibytes}Mi`);
  }
  return mebibytes;
}

/** whether a plain object has its own property `key` (not one inherited from Object.prototype). */
export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/**
 * Checks an absolute path: no relative paths, no '.' or '..' segments, no empty segments.
 */
export function checkAbsolutePath(scope: Construct | undefined, field: string, p: string): void {
  if (typeof p !== 'string') fail(scope, `${field} must be an absolute path such as "/var/log", got ${received(p)}`);
  if (!p.startsWith('/')) fail(scope, `${field} "${p}" must be an absolute path, e.g. "/var/log"`);
  const segments = p.split('/').slice(1);
  if (segments.some((s) => s === '..' || s === '.')) {
    fail(scope, `${field} "${p}" must not contain "." or ".." segments: write the path it resolves to, e.g. "${path.posix.normalize(p)}"`);
  }
  if (p !== '/' && segments.some((s, i) => s === '' && i !== segments.length - 1)) {
    fail(scope, `${field} "${p}" has an empty path segment ("//"): write "${path.posix.normalize(p)}"`);
  }
}
