/**
 * Internal: normalisation of host paths.
 */

/**
 * Normalises a POSIX host path: collapses repeated slashes, drops `.` segments, resolves `..` (never above `/`)
 * and drops a trailing slash. A path that does not start with `/` (a Windows path or a named pipe) is returned unchanged.
 */
export function normalizeHostPath(path: string): string {
  if (!path.startsWith('/')) return path;
  const parts: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join('/')}`;
}

/** whether `path` is `ancestor` or below it (both normalised). */
export function isWithin(path: string, ancestor: string): boolean {
  if (ancestor === '/') return path.startsWith('/');
  return path === ancestor || path.startsWith(`${ancestor}/`);
}
