/**
 * Internal: the admission policy's registry check, in the API server's CEL, with the allowed registries in a
 * parameter ConfigMap (`data.allowedRegistries`, one entry per line): each container's image comes from an allowed
 * entry, as the review's `NA-IMAGE-REGISTRY` reads it (`parseImage` and `isFrom` in `review/_image.ts`: a registry host,
 * or a host and path prefix; an image without a registry is from docker.io, `nginx` is `docker.io/library/nginx`;
 * entries trimmed, without trailing `/`, host lower-cased, Docker Hub's aliases as docker.io). An image or an entry
 * with a character outside ASCII is left to the review (CEL's `lowerAscii` does not lower-case it as the review does).
 * The cluster suite checks it against the review on the real API server.
 */

/** the key of the parameter ConfigMap's data that lists the allowed registries, one per line. */
export const REGISTRIES_KEY = 'allowedRegistries';

const DOCKER_HUB_ALIASES = "['docker.io', 'index.docker.io', 'registry-1.docker.io', 'registry.hub.docker.com']";
const ASCII = "r'^[\\x00-\\x7f]*$'";

/** the policy's variables for the check: each container's image as `[container, image, registry/repository]`. */
export const REGISTRY_VARIABLES = [
  {
    // [container, image as written, image trimmed without its digest], for every container with an ASCII image
    name: 'images',
    expression: `variables.containers.filter(c, c.?image.orValue('').trim() != '' && c.image.matches(${ASCII}))` +
      ".map(c, [string(c.name), string(c.image), c.image.trim().indexOf('@') >= 0 ? c.image.trim().substring(0, c.image.trim().indexOf('@')) : c.image.trim()])",
  },
  {
    // ... and without its tag (a ':' after the last '/')
    name: 'imageNames',
    expression: "variables.images.map(i, [i[0], i[1], i[2].lastIndexOf(':') > i[2].lastIndexOf('/') ? i[2].substring(0, i[2].lastIndexOf(':')) : i[2]])",
  },
  {
    // [container, image, registry, repository]: the first segment is a registry when it has a '.' or ':' or is localhost
    name: 'imageParts',
    expression: "variables.imageNames.map(i, i[2].indexOf('/') >= 0 && (i[2].split('/')[0].contains('.') || i[2].split('/')[0].contains(':') || " +
      "i[2].split('/')[0] == 'localhost') ? [i[0], i[1], i[2].split('/')[0].lowerAscii(), i[2].substring(i[2].indexOf('/') + 1)] : [i[0], i[1], 'docker.io', i[2]])",
  },
  {
    // [container, image, registry/repository], Docker Hub's aliases as docker.io and its official images under library/
    name: 'imageFullNames',
    expression: `variables.imageParts.map(i, i[2] in ${DOCKER_HUB_ALIASES} ? [i[0], i[1], 'docker.io/' + (i[3].contains('/') ? i[3] : 'library/' + i[3])] ` +
      ': [i[0], i[1], i[2] + \'/\' + i[3]])',
  },
  {
    // the allowed entries, normalised as the review normalises them; an entry outside ASCII allows everything (review)
    name: 'allowedRegistries',
    expression: `params.?data[?'${REGISTRIES_KEY}'].orValue('').split('\\n').map(e, e.trim()).filter(e, e != '')` +
      ".map(e, e.substring(0, size(e) - size(e.find('/+$'))))" +
      ".map(e, [e.split('/')[0].lowerAscii(), e.substring(size(e.split('/')[0]))])" +
      `.map(e, (e[0] in ${DOCKER_HUB_ALIASES} ? 'docker.io' : e[0]) + e[1])`,
  },
];

/** CEL: whether image `i` (an `imageFullNames` entry) comes from an allowed entry. */
const ALLOWED = `(variables.allowedRegistries.exists(e, !e.matches(${ASCII})) || variables.allowedRegistries.exists(e, i[2] == e || i[2].startsWith(e + '/')))`;

/** the validation. */
export const REGISTRY_VALIDATION = {
  expression: `variables.imageFullNames.all(i, ${ALLOWED})`,
  messageExpression: "object.kind + ' ' + object.metadata.?name.orValue(object.metadata.?generateName.orValue('')) + ' uses ' + " +
    `variables.imageFullNames.filter(i, !${ALLOWED}).map(i, 'image ' + i[1] + ' (container ' + i[0] + ')').join(', ') + ` +
    "', which is not from an allowed registry (' + variables.allowedRegistries.join(', ') + '): pull it from an allowed registry (mirror it " +
    `there), or add its registry to data.${REGISTRIES_KEY} of the ConfigMap that is the policy parameter'`,
  reason: 'Forbidden',
};
