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

/** `/proc/self/root`, `/proc/thread-self/root`, `/proc/<pid>/root` at the start of a normalised path. */
const PROC_ROOT = /^\/proc\/(self|thread-self|[0-9]+)\/root(?=\/|$)/;

/**
 * The host path a normalised path reaches through `/proc/<pid>/root` (and `/proc/self/root`, `/proc/thread-self/root`):
 * the kubelet resolves a hostPath on the host, where `/proc/self` is the kubelet's own process and `/proc/1` the host's
 * init, so each is the host's root as the kubelet sees it (`/proc/1/root/etc` is `/etc`). Repeated links are followed
 * (`/proc/self/root/proc/1/root` is `/`); any other path is returned unchanged.
 */
export function throughProcRoot(path: string): string {
  let resolved = path;
  for (let m = PROC_ROOT.exec(resolved); m !== null; m = PROC_ROOT.exec(resolved)) {
    resolved = resolved.slice(m[0].length) || '/';
  }
  return resolved;
}

/** `/var/run` read as `/run`: it is a symlink to `/run` on current distributions, and the kubelet resolves it on the host. */
export function aliasVarRun(path: string): string {
  return isWithin(path, '/var/run') ? `/run${path.slice('/var/run'.length)}` : path;
}

/**
 * What a normalised host path is on the node once the kubelet resolves it: through `/proc/<pid>/root`, then `/var/run` as
 * `/run`. Its risk is never lower than that of the path it reaches.
 */
export function kubeletPath(path: string): string {
  return aliasVarRun(throughProcRoot(path));
}
