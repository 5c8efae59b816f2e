// Internal: container image references, parsed the way container runtimes read them (docker/distribution reference).

export interface ImageRef {
  /** the registry host, `docker.io` when the reference names none. */
  readonly registry: string;
  /** the repository path without the registry, `library/nginx` for `nginx`. */
  readonly repository: string;
  /** `registry/repository`, e.g. `docker.io/library/nginx`. */
  readonly fullName: string;
  readonly tag?: string;
  readonly digest?: string;
}

const DOCKER_HUB = 'docker.io';
const DOCKER_HUB_ALIASES = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io', 'registry.hub.docker.com']);

/**
 * The grammar of an image reference (github.com/distribution/reference, reference.go): a digest, a tag, and the
 * repository path's components (lowercase alphanumerics joined by `.`, `_`, `__` or dashes), after an optional registry
 * host (a name or an IP, with an optional port).
 */
export const IMAGE_GRAMMAR = {
  digest: /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[0-9a-fA-F]{32,}$/,
  tag: /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/,
  repository: /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/,
  registry: /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[0-9a-fA-F:]+\])(?::[0-9]+)?$/,
};

/**
 * Whether an image is a valid reference, as the kubelet requires before it pulls (an invalid one leaves the container
 * waiting with InvalidImageName): a placeholder such as `<IMAGE>` or `FILLED BY THE OPERATOR` is not.
 */
export function isValidImageReference(image: string): boolean {
  // every agent's review checks its images at every synth, and most apps run a few images many times: each checked once
  let valid = VALID_IMAGES.get(image);
  if (valid === undefined) {
    if (VALID_IMAGES.size >= VALID_IMAGES_MAX) VALID_IMAGES.clear();
    VALID_IMAGES.set(image, valid = checkImageReference(image));
  }
  return valid;
}

const VALID_IMAGES = new Map<string, boolean>();
const VALID_IMAGES_MAX = 1024;

function checkImageReference(image: string): boolean {
  let rest = image;
  const at = rest.indexOf('@');
  if (at >= 0) {
    if (!IMAGE_GRAMMAR.digest.test(rest.slice(at + 1))) return false;
    rest = rest.slice(0, at);
  }
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    if (!IMAGE_GRAMMAR.tag.test(rest.slice(colon + 1))) return false;
    rest = rest.slice(0, colon);
  }
  const parts = rest.split('/');
  if (parts.length > 1 && (parts[0].includes('.') || parts[0].includes(':') || parts[0] === 'localhost')) {
    if (!IMAGE_GRAMMAR.registry.test(parts.shift()!)) return false;
  }
  const repository = parts.join('/');
  return repository.length <= 255 && IMAGE_GRAMMAR.repository.test(repository);
}

/** parses an image reference: `[registry/]path[:tag][@digest]`. */
export function parseImage(image: string): ImageRef {
  let rest = image.trim();
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const slash = rest.indexOf('/');
  const first = slash >= 0 ? rest.slice(0, slash) : '';
  const hasRegistry = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  let registry = hasRegistry ? first.toLowerCase() : DOCKER_HUB;
  let repository = hasRegistry ? rest.slice(slash + 1) : rest;
  if (DOCKER_HUB_ALIASES.has(registry)) {
    registry = DOCKER_HUB;
    if (!repository.includes('/')) repository = `library/${repository}`;
  }
  return { registry, repository, fullName: `${registry}/${repository}`, tag, digest };
}

/** normalises an allowed-registry entry: `index.docker.io` is `docker.io`, no trailing slash, lower-case host. */
export function normalizeRegistry(entry: string): string {
  const trimmed = entry.trim().replace(/\/+$/, '');
  const slash = trimmed.indexOf('/');
  const host = (slash >= 0 ? trimmed.slice(0, slash) : trimmed).toLowerCase();
  const path = slash >= 0 ? trimmed.slice(slash) : '';
  return `${DOCKER_HUB_ALIASES.has(host) ? DOCKER_HUB : host}${path}`;
}

/** whether an image comes from an allowed entry: a registry host (`registry.example.com`) or a host and path prefix (`docker.io/falcosecurity`). */
export function isFrom(ref: ImageRef, entry: string): boolean {
  const allowed = normalizeRegistry(entry);
  return ref.fullName === allowed || ref.fullName.startsWith(`${allowed}/`);
}

/**
 * What an image from a registry mirror mirrors, for mirrors that keep the upstream registry as the first path
 * component (`mirror.example.com/quay.io/x:1` mirrors `quay.io/x:1`): the image as named upstream; undefined when the
 * image is from none of the mirrors, or its path under the mirror names no registry.
 */
export function mirroredImage(ref: ImageRef, mirrors: readonly string[]): ImageRef | undefined {
  for (const mirror of mirrors) {
    if (!isFrom(ref, mirror)) continue;
    const path = ref.fullName.slice(normalizeRegistry(mirror).length + 1);
    const first = path.split('/')[0];
    if (!(first.includes('.') || first.includes(':') || first === 'localhost') || !path.includes('/')) return undefined;
    return parseImage(path);
  }
  return undefined;
}

/** the annotation on a NodeAgent's DaemonSet with the app's registry mirror and what it made of each image (JSON). */
export const MIRROR_ANNOTATION = 'node-agents.cdk8s.io/registry-mirror';
