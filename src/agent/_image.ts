/**
 * Internal: parsing and checking container image references. Not exported from the package.
 */
import { Construct } from 'constructs';
import { fail, show } from './_validate';
import { IMAGE_GRAMMAR } from '../review/_image';

/** the parts of an image reference that the agent checks. */
export interface ImageReference {
  readonly registry: string;
  readonly repository: string;
  readonly tag?: string;
  readonly digest?: string;
}

const { digest: DIGEST, tag: TAG, repository: REPOSITORY } = IMAGE_GRAMMAR;

/**
 * Parses an image reference the way container runtimes do: the first path component is a registry
 * when it contains '.' or ':' or is 'localhost'; otherwise the image comes from Docker Hub.
 */
export function parseImage(image: string): ImageReference | undefined {
  let rest = image;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return undefined;
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return undefined;
  }
  const parts = rest.split('/');
  let registry = 'docker.io';
  if (parts.length > 1 && (parts[0].includes('.') || parts[0].includes(':') || parts[0] === 'localhost')) {
    registry = parts.shift()!;
  }
  const repository = parts.join('/');
  if (!REPOSITORY.test(repository)) return undefined;
  return { registry, repository, tag, digest };
}

/**
 * Checks that an image is pinned (a tag other than `latest`, or a digest) and, when a list of
 * allowed registries is given, that it comes from one of them.
 */
export function checkImage(scope: Construct | undefined, field: string, image: string, allowedRegistries?: string[]): ImageReference {
  if (image !== undefined && image !== null && typeof image !== 'string') {
    fail(scope, `${field} must be a string such as "registry.example.com/node-agent:1.2.0", got ${show(image)}`);
  }
  if (image === undefined || image === null || image.trim() === '') {
    fail(scope, `${field} is empty: give a pinned image such as "registry.example.com/node-agent:1.2.0"`);
  }
  if (image.trim() !== image) {
    // the API server rejects an image with leading or trailing whitespace; its pods would never be created.
    fail(scope, `${field} ${JSON.stringify(image)} has leading or trailing whitespace: write ${JSON.stringify(image.trim())}`);
  }
  const ref = parseImage(image);
  if (!ref) {
    fail(scope, `${field} "${image}" is not a valid image reference: expected [registry/]repository[:tag][@sha256:digest], e.g. "registry.example.com/node-agent:1.2.0"`);
  }
  if (!ref.tag && !ref.digest) {
    fail(scope, `${field} "${image}" is not pinned: add a version tag or a digest (e.g. "${image}:1.2.0"); an untagged image means "latest" and changes under you`);
  }
  if (ref.tag === 'latest' && !ref.digest) {
    fail(scope, `${field} "${image}" uses the "latest" tag: pin a version tag or a digest so every node runs the same build`);
  }
  if (allowedRegistries && allowedRegistries.length > 0 && !allowedRegistries.includes(ref.registry)) {
    fail(scope, `${field} "${image}" comes from registry "${ref.registry}", which is not in allowedRegistries [${allowedRegistries.join(', ')}]: use an image from an allowed registry or add "${ref.registry}" to allowedRegistries`);
  }
  return ref;
}
