import { IConstruct } from 'constructs';
import { parseImage } from './_image';
import { REGISTRY_MIRROR_OPTIONS } from './_shapes';
import { checkDnsSubdomain, checkOptions, fail, show } from './_validate';

/**
 * Options for a registry mirror.
 */
export interface RegistryMirrorOptions {
  /**
   * Secrets (of type `kubernetes.io/dockerconfigjson`, in each agent's namespace) with the mirror's
   * credentials: added to every agent's `imagePullSecrets`.
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
 * A registry mirror for a whole app: every image a NodeAgent renders (presets, init containers and
 * sidecars included) is pulled through it, as `<mirror>/<registry>/<path>`, with the tag and the
 * digest exactly as written: `quay.io/prometheus/node-exporter:v1.12.1` becomes
 * `mirror.example.com/quay.io/prometheus/node-exporter:v1.12.1`, and Docker Hub's `falcosecurity/falco:0.44.1`
 * becomes `mirror.example.com/docker.io/falcosecurity/falco:0.44.1`. An image already from the mirror
 * is left as it is.
 *
 * The rewrite is visible in the output: each DaemonSet carries the annotation
 * `node-agents.cdk8s.io/registry-mirror` with every original image and what it became. The agents'
 * security review knows the mirror: `NA-IMAGE-REGISTRY` judges a mirrored image by the registry it
 * mirrors, so `allowedRegistries` keeps naming the upstream registries. Objects other than NodeAgents
 * (a cdk8s-plus Deployment, a raw ApiObject) are not rewritten.
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
    const ref = typeof image === 'string' ? parseImage(image) : undefined;
    if (ref === undefined) fail(undefined, `RegistryMirror.rewrite: ${show(image)} is not a valid image reference`);
    if (ref.registry === this.mirror.split('/')[0] && `${ref.registry}/${ref.repository}`.startsWith(`${this.mirror}/`)) return image;
    if (ref.registry.includes(':')) {
      fail(undefined, `RegistryMirror: ${image} is from ${ref.registry}, whose port cannot be a path component of the mirror's image name: ` +
        'pull it from the mirror yourself (give the agent the mirror\'s image) or mirror that registry without a port');
    }
    // Docker Hub goes by several names, and its official images live under library/, which a short name leaves out
    const registry = DOCKER_HUB_ALIASES.includes(ref.registry) ? 'docker.io' : ref.registry;
    const repository = registry === 'docker.io' && !ref.repository.includes('/') ? `library/${ref.repository}` : ref.repository;
    return `${this.mirror}/${registry}/${repository}${ref.tag !== undefined ? `:${ref.tag}` : ''}${ref.digest !== undefined ? `@${ref.digest}` : ''}`;
  }
}
