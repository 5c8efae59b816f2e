/**
 * Internal: the checks of the files a Secret, ConfigMap, projected or downward API volume writes. Not exported.
 *
 * Kubernetes' own rules (validation of KeyToPath and of volume file modes): a key is at most 253 letters, digits, '-',
 * '_' and '.'; a file path is relative, without a '..' segment; a mode is from 0 to 0777.
 */
import { fail, show } from './_validate';

/** a key of a Secret or ConfigMap, as the API server accepts one. */
const OBJECT_KEY = /^[-._a-zA-Z0-9]+$/;

/** the highest file mode Kubernetes accepts: 0777. */
const MAX_MODE = 0o777;

/** a file's path within a volume: relative, at most 4096 characters, no `..` segment, not `..` at the start. */
export function checkRelativeFilePath(field: string, p: string): void {
  if (typeof p !== 'string' || p === '') fail(undefined, `${field} must be a relative file path such as "password", got ${show(p)}`);
  if (p.startsWith('/')) fail(undefined, `${field} "${p}" must be relative to the mount path, e.g. "${p.replace(/^\/+/, '')}"`);
  if (p.length > 4096) fail(undefined, `${field} is longer than 4096 characters`);
  if (p.split('/').some((s) => s === '..')) fail(undefined, `${field} "${p}" must not contain a ".." segment: the file stays inside the volume`);
}

/** a file mode, 0 to 0777. */
export function checkFileMode(field: string, mode: number): void {
  if (typeof mode !== 'number' || !Number.isInteger(mode) || mode < 0 || mode > MAX_MODE) {
    const got = typeof mode === 'number' && Number.isInteger(mode) ? `${mode} (0${mode.toString(8)})` : show(mode);
    fail(undefined, `${field} must be a file mode from 0 to 0777 (write it in octal, e.g. 0o440), got ${got}`);
  }
}

/** a key of a Secret or ConfigMap. */
export function checkObjectKey(field: string, key: string): void {
  if (typeof key !== 'string' || key.length > 253 || !OBJECT_KEY.test(key) || key === '.' || key === '..') {
    fail(undefined, `${field} ${show(key)} is not a Secret or ConfigMap key: use at most 253 letters, digits, '-', '_' and '.', e.g. "password"`);
  }
}

/** the items of a Secret or ConfigMap volume: each key and path valid, each path once; returns them as rendered. */
export function checkKeyToPaths(where: string, items: { key: string; path: string; mode?: number }[] | undefined):
{ key: string; path: string; mode?: number }[] | undefined {
  if (items === undefined) return undefined;
  if (items.length === 0) fail(undefined, `${where}: items is empty, which would project no key: leave it out to project every key`);
  const paths = new Set<string>();
  for (const item of items) {
    checkObjectKey(`${where}: items key`, item.key);
    checkRelativeFilePath(`${where}: items[${item.key}].path`, item.path);
    if (item.mode !== undefined) checkFileMode(`${where}: items[${item.key}].mode`, item.mode);
    if (paths.has(item.path)) fail(undefined, `${where}: two items write the file "${item.path}": give each its own path`);
    paths.add(item.path);
  }
  return items.map((i) => ({ key: i.key, path: i.path, mode: i.mode }));
}
