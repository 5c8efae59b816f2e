import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { parseImage } from './_image';
import { REGISTRY_MIRROR_OPTIONS } from './_shapes';
import { checkDnsSubdomain, checkOptions, fail, show } from './_validate';
import { podSpecPathOf } from '../model/_pod-spec';
import { MIRROR_ANNOTATION } from '../review/_image';

/**
 * Options for a registry mirror.
 */
export interface RegistryMirrorOptions {
  /**
   * Secrets (of type `kubernetes.io/dockerconfigjson`) with the mirror's credentials: added to the
   * `imagePullSecrets` of every pod spec whose images the mirror rewrote, agents' and others' alike. A pod
   * can only use a pull secret of its own namespace, so each Secret must exist in the namespace of every
   * such object (an object without a namespace goes to the one it is applied to, usually `default`).
   *
   * @default - none: the mirror is pulled from anonymously or with the node's credentials
   */
  readonly pullSecrets?: string[];
}

/** a mirror: a registry host (with a port, or `localhost`), optionally a path under it. */
const MIRROR = /^(localhost|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+|[a-z0-9]([-a-z0-9]*[a-z0-9])?:[0-9]+)(:[0-9]+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)*$/;

/** the names Docker Hub goes by, as container runtimes read them. */
const DOCKER_HUB_ALIASES = ['docker.io', 'index.docker.io', 'registry-1.docker.io', 'registry.hub.docker.com'];

/** the mirror of each app, by its root construct. */
const MIRRORS = new WeakMap<IConstruct, RegistryMirror>();

/**
 * A registry mirror for a whole app: every image the app renders is pulled through it, as
 * `<mirror>/<registry>/<path>`, with the tag and the digest exactly as written:
 * `quay.io/prometheus/node-exporter:v1.12.1` becomes `mirror.example.com/quay.io/prometheus/node-exporter:v1.12.1`,
 * and Docker Hub's `falcosecurity/falco:0.44.1` becomes `mirror.example.com/docker.io/falcosecurity/falco:0.44.1`.
 * An image already from the mirror is left as it is.
 *
 * "Every image" is every container, init container and ephemeral container of every object of the app
 * that holds a pod spec: a Pod, a PodTemplate, the pod template of a DaemonSet, Deployment, StatefulSet,
 * ReplicaSet, ReplicationController or Job, a CronJob's job template; NodeAgents and presets, cdk8s-plus
 * constructs, raw `ApiObject`s and `Include`d YAML alike. The mirror does not know where a custom
 * resource keeps its images (an Argo Rollout, an operator's CRD): those are left as written.
 *
 * The rewrite happens as each object renders, after the JSON patches the user added to it (an image a
 * patch sets is mirrored too), and before the security review of `SecurityCheck` and of each NodeAgent:
 * the review judges the manifest as written. It is visible in the output: each object whose images were
 * rewritten carries, in its own `metadata.annotations`, the annotation
 * `node-agents.cdk8s.io/registry-mirror` with every image of its pod and what it became, and
 * the mirror's pull secrets are added to its pod spec. An object the mirror left unchanged is written
 * as it was. An image the mirror cannot rewrite (not a valid reference, an unresolved token, from a
 * registry with a port) fails the synth with the construct path, the field and the value.
 *
 * The security review knows the mirror: `NA-IMAGE-REGISTRY` judges a mirrored image of any object by
 * the registry it mirrors, so `allowedRegistries` keeps naming the upstream registries.
 *
 * @example
 * RegistryMirror.of(app, 'mirror.example.com', { pullSecrets: ['mirror-credentials'] });
 */
export class RegistryMirror {
  /**
   * Declares the mirror of the app that `scope` belongs to, for every agent in it, whenever it was
   * created (the rewrite happens at synth). An app has one mirror: declaring another fails.
   *
   * @param scope any construct of the app, e.g. the App itself
   * @param mirror the mirror's host, optionally with a port and a path, e.g. `mirror.example.com` or `registry.example.com:5000/proxy`
   */
  public static of(scope: IConstruct, mirror: string, options: RegistryMirrorOptions = {}): RegistryMirror {
    const where = `RegistryMirror.of(${show(mirror)})`;
    if (typeof mirror !== 'string' || !MIRROR.test(mirror)) {
      fail(undefined, `${where}: the mirror must be a registry host, optionally with a port and a path, e.g. "mirror.example.com" or ` +
        '"registry.example.com:5000/proxy" (a first component without a \'.\' or \':\' would be read as a Docker Hub repository)');
    }
    const o = checkOptions<RegistryMirrorOptions>(where, options, REGISTRY_MIRROR_OPTIONS);
    for (const secret of o.pullSecrets ?? []) checkDnsSubdomain(undefined, `${where} pullSecrets`, secret);
    const root = scope.node.root;
    const existing = MIRRORS.get(root);
    if (existing !== undefined) {
      fail(undefined, `${where}: the app already pulls through the mirror ${existing.mirror}: an app has one mirror`);
    }
    const declared = new RegistryMirror(mirror, o.pullSecrets ?? []);
    MIRRORS.set(root, declared);
    installMirrorPass();
    return declared;
  }

  /**
   * The mirror declared for the app that `scope` belongs to, if any.
   */
  public static find(scope: IConstruct): RegistryMirror | undefined {
    return MIRRORS.get(scope.node.root);
  }

  /** the mirror, e.g. `mirror.example.com`. */
  public readonly mirror: string;
  /** the Secrets added to every agent's `imagePullSecrets`. */
  public readonly pullSecrets: string[];

  private constructor(mirror: string, pullSecrets: string[]) {
    this.mirror = mirror;
    this.pullSecrets = pullSecrets;
  }

  /**
   * The image as pulled through the mirror: `<mirror>/<registry>/<path>`, tag and digest kept as written.
   *
   * @param image a valid image reference, e.g. `quay.io/prometheus/node-exporter:v1.12.1`
   */
  public rewrite(image: string): string {
    const mirrored = this.mirrored(image);
    if (typeof mirrored !== 'string') fail(undefined, `RegistryMirror${mirrored.problem}`);
    return mirrored;
  }

  /**
   * The object as rendered, its pod spec's images pulled through the mirror (see the class's doc): `json` itself when
   * nothing changes, otherwise a copy.
   *
   * @internal
   */
  public _mirrorManifest(path: string, json: any): any {
    const specPath = podSpecPathOf(json?.kind);
    if (specPath === undefined || !WORKLOAD_GROUPS[json.kind].includes(apiGroupOf(json.apiVersion) ?? '/')) return json;
    let spec = json;
    for (const key of specPath) spec = isPlainObject(spec) ? spec[key] : undefined;
    // a pod spec of the wrong shape holds no image to mirror: the review and the API server report the shape
    if (!isPlainObject(spec)) return json;
    const at = (field: string) => `[${path}] RegistryMirror ${this.mirror}: ${specPath.join('.')}.${field}`;
    const rewrites = new Map<string, string>();
    const images = new Set<string>();
    const mirroredSpec = { ...spec };
    for (const list of CONTAINER_LISTS) {
      if (!Array.isArray(spec[list])) continue;
      mirroredSpec[list] = spec[list].map((container: any, i: number) => {
        const image = isPlainObject(container) ? container.image : undefined;
        // a pod template may leave the image to whoever fills it in (the API server requires it of a Pod)
        if (image === undefined || image === null) return container;
        const field = `${list}[${i}].image`;
        if (typeof image !== 'string') throw new Error(`${at(field)} is ${show(image)}: an image is a string such as "quay.io/prometheus/node-exporter:v1.12.1"`);
        if (UNRESOLVED_TOKEN.test(image)) {
          throw new Error(`${at(field)} is ${show(image)}, a token that did not resolve to a string: give the image as a string, or a Lazy that produces one`);
        }
        const mirrored = this.mirrored(image);
        if (typeof mirrored !== 'string') throw new Error(`${at(field)}${mirrored.problem}`);
        images.add(mirrored);
        if (mirrored === image) return container;
        rewrites.set(image, mirrored);
        return { ...container, image: mirrored };
      });
    }
    if (rewrites.size === 0) return json;
    const metadata = isPlainObject(json.metadata) ? json.metadata : {};
    const annotations = isPlainObject(metadata.annotations) ? metadata.annotations : {};
    const annotation = { mirror: this.mirror, images: this.recordedImages(path, annotations[MIRROR_ANNOTATION], images, rewrites) };
    if (this.pullSecrets.length > 0) {
      const own = spec.imagePullSecrets ?? [];
      if (!Array.isArray(own)) throw new Error(`${at('imagePullSecrets')} is ${show(own)}: it must be a list of { name } to add the mirror's pull secrets to`);
      const named = new Set(own.map((s: any) => s?.name));
      mirroredSpec.imagePullSecrets = [...own, ...this.pullSecrets.filter((s) => !named.has(s)).map((name) => ({ name }))];
    }
    const annotated = { ...json, metadata: { ...metadata, annotations: { ...annotations, [MIRROR_ANNOTATION]: JSON.stringify(annotation) } } };
    return withPodSpec(annotated, specPath, mirroredSpec);
  }

  /**
   * what the annotation records: every image of the pod, by the image as written, and what it became (an image already
   * from the mirror, itself). An annotation of that key already on the object is the user's: never overwritten.
   */
  private recordedImages(path: string, existing: unknown, images: Set<string>, rewrites: Map<string, string>): { [image: string]: string } {
    if (existing !== undefined) {
      throw new Error(`[${path}] RegistryMirror ${this.mirror}: metadata.annotations["${MIRROR_ANNOTATION}"] is ${show(existing)}, which the mirror writes: ` +
        'remove it (the mirror records what it rewrote there)');
    }
    const recorded = new Map(rewrites);
    const covered = new Set(recorded.values());
    for (const image of images) if (!covered.has(image)) recorded.set(image, image);
    return Object.fromEntries([...recorded].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  }

  /** the image through the mirror, or why it cannot be (a phrase after the field). */
  private mirrored(image: string): string | { problem: string } {
    const ref = typeof image === 'string' ? parseImage(image) : undefined;
    if (ref === undefined) {
      return { problem: ` ${show(image)} is not a valid image reference: expected [registry/]repository[:tag][@sha256:digest], e.g. "quay.io/prometheus/node-exporter:v1.12.1"` };
    }
    if (ref.registry === this.mirror.split('/')[0] && `${ref.registry}/${ref.repository}`.startsWith(`${this.mirror}/`)) return image;
    if (ref.registry.includes(':')) {
      return {
        problem: `: ${image} is from ${ref.registry}, whose port cannot be a path component of the mirror's image name: ` +
          'pull it from the mirror yourself (give the mirror\'s image) or mirror that registry without a port',
      };
    }
    // Docker Hub goes by several names, and its official images live under library/, which a short name leaves out
    const registry = DOCKER_HUB_ALIASES.includes(ref.registry) ? 'docker.io' : ref.registry;
    const repository = registry === 'docker.io' && !ref.repository.includes('/') ? `library/${ref.repository}` : ref.repository;
    return `${this.mirror}/${registry}/${repository}${ref.tag !== undefined ? `:${ref.tag}` : ''}${ref.digest !== undefined ? `@${ref.digest}` : ''}`;
  }
}

/** a token of the AWS CDK family (cdktf, cdk), encoded in a string that cdk8s' resolve leaves as it is. */
const UNRESOLVED_TOKEN = /\$\{Token\[[^\]]*\]\}/;

/** the lists of a pod spec that hold containers, each with an image. */
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'];

/** the API groups of the kinds whose pod spec the mirror rewrites ('' is the core group): a CRD of the same kind is not one. */
const WORKLOAD_GROUPS: { [kind: string]: string[] } = {
  Pod: [''],
  PodTemplate: [''],
  ReplicationController: [''],
  DaemonSet: ['apps', 'extensions'],
  Deployment: ['apps', 'extensions'],
  StatefulSet: ['apps'],
  ReplicaSet: ['apps', 'extensions'],
  Job: ['batch'],
  CronJob: ['batch'],
};

function apiGroupOf(apiVersion: unknown): string | undefined {
  if (typeof apiVersion !== 'string') return undefined;
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function isPlainObject(value: unknown): value is any {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** a copy of `json` with `spec` at `path` (each object on the way copied, the rest shared). */
function withPodSpec(json: any, path: readonly string[], spec: any): any {
  if (path.length === 0) return spec;
  const [key, ...rest] = path;
  return { ...json, [key]: withPodSpec(json[key], rest, spec) };
}

/** whether any app of the process declared a mirror. */
let mirrorPassInstalled = false;

/** objects that apply the mirror themselves, after their own JSON patches (see `mirrorRendered`). */
export const MIRRORS_ITSELF = Symbol.for('cdk8s-node-agents.RegistryMirror.mirrorsItself');

/**
 * The object's rendering through its app's mirror, if the app declares one.
 */
export function mirrorRendered(object: IConstruct, json: any): any {
  // a process that declared no mirror renders exactly as before, without looking up the app
  if (!mirrorPassInstalled) return json;
  const mirror = MIRRORS.get(object.node.root);
  return mirror === undefined ? json : mirror._mirrorManifest(object.node.path, json);
}

/**
 * Every ApiObject renders through `ApiObject.prototype.toJson` (cdk8s-plus and imported L1 classes call it as
 * `super.toJson()`, `Include` creates plain ApiObjects), after its JSON patches: the one place where every object of
 * every app is seen, in every way of rendering it (`App.synth`, `synthYaml`, `Chart.toJson`, `Testing.synth`, a
 * review). Wrapped when the first mirror is declared, never at require time: a process without a mirror renders
 * exactly as cdk8s does, at its speed.
 */
function installMirrorPass(): void {
  if (mirrorPassInstalled) return;
  mirrorPassInstalled = true;
  const render = ApiObject.prototype.toJson;
  ApiObject.prototype.toJson = function toJson(this: ApiObject): any {
    const json = render.call(this);
    return MIRRORS_ITSELF in this ? json : mirrorRendered(this, json);
  };
}
