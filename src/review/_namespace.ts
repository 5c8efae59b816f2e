// Internal: the namespace each namespaced object of a review lands in, when its manifest sets none.
//
// The rule, as kubectl applies manifests: an object's own metadata.namespace; else the namespace the review was given
// (--namespace, ReviewOptions.namespace), which `kubectl apply --namespace` gives every object without one; else the
// one namespace that all the other objects of its file set, the namespace the file evidently targets; else unknown.
// Never `default`: kubectl uses the namespace of whatever context it runs in, which a review cannot know.

/** how a workload's namespace was determined. */
export type NamespaceSource = 'manifest' | 'option' | 'file';

export interface ResolvedNamespace {
  /** the namespace; undefined when unknown. */
  readonly namespace?: string;
  /** undefined when unknown. */
  readonly source?: NamespaceSource;
}

/**
 * The key under which the review groups objects whose namespace is unknown: every object kubectl applies in one go
 * without a namespace lands in the same one, whichever it is. Not a valid namespace name, so it never equals one.
 */
export const UNKNOWN_NAMESPACE = '<unset>';

/**
 * Kinds the API serves cluster-scoped: a `metadata.namespace` on them is dropped by the API server (and by kubectl), so
 * it says nothing about where the file's objects go.
 */
const CLUSTER_SCOPED_KINDS = new Set([
  'APIService', 'CertificateSigningRequest', 'ClusterRole', 'ClusterRoleBinding', 'ClusterTrustBundle', 'ComponentStatus',
  'CSIDriver', 'CSINode', 'CustomResourceDefinition', 'DeviceClass', 'FlowSchema', 'IngressClass', 'IPAddress',
  'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding', 'MutatingWebhookConfiguration', 'Namespace', 'Node',
  'PersistentVolume', 'PodSecurityPolicy', 'PriorityClass', 'PriorityLevelConfiguration', 'ResourceSlice', 'RuntimeClass',
  'SelfSubjectAccessReview', 'SelfSubjectReview', 'SelfSubjectRulesReview', 'ServiceCIDR', 'StorageClass', 'StorageVersion',
  'StorageVersionMigration', 'SubjectAccessReview', 'TokenReview', 'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding', 'ValidatingWebhookConfiguration', 'VolumeAttachment', 'VolumeAttributesClass',
]);

/** whether objects of this kind are namespaced (unknown kinds, custom resources among them, are taken as namespaced). */
export function isNamespacedKind(kind: unknown): boolean {
  return typeof kind === 'string' && !CLUSTER_SCOPED_KINDS.has(kind);
}

/** the namespace a manifest sets itself, or undefined. */
export function ownNamespace(m: any): string | undefined {
  const ns = m?.metadata?.namespace;
  return typeof ns === 'string' && ns !== '' ? ns : undefined;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** why `ns` cannot be a namespace name (an RFC 1123 DNS label), or undefined when it can. */
export function namespaceNameError(ns: unknown): string | undefined {
  if (typeof ns !== 'string' || ns === '') return 'must be a non-empty namespace name, e.g. observability';
  if (ns.length > 63) return `must be a namespace name of at most 63 characters, got ${ns.length}`;
  if (!DNS_LABEL.test(ns)) return `must be a namespace name (lowercase letters, digits and "-", starting and ending with a letter or digit), got ${JSON.stringify(ns)}`;
  return undefined;
}

/** resolves the namespace of the objects of one review. */
export class NamespaceResolver {
  /** per file: the namespace every object of the file that sets one sets, when there is exactly one. */
  private readonly fileNamespace = new Map<string, string | undefined>();
  /** the file of each manifest; undefined when all the manifests are one file. */
  private readonly fileOf?: Map<object, string>;

  /**
   * @param manifests every object under review
   * @param option the namespace the review was given, if any
   * @param files the file each manifest comes from (same index); all manifests are one file when omitted
   */
  constructor(manifests: any[], private readonly option?: string, files?: Array<string | undefined>) {
    if (files !== undefined) this.fileOf = new Map();
    // the one namespace the file's objects set, or null when they set several (built for every review: kept lean)
    const single = new Map<string, string | null>();
    manifests.forEach((m, i) => {
      const file = files?.[i] ?? '';
      if (this.fileOf !== undefined && m !== null && typeof m === 'object') this.fileOf.set(m, file);
      const ns = ownNamespace(m);
      if (ns === undefined || !isNamespacedKind(m?.kind)) return;
      const seen = single.get(file);
      if (seen === undefined) single.set(file, ns);
      else if (seen !== ns) single.set(file, null);
    });
    for (const [file, ns] of single) this.fileNamespace.set(file, ns ?? undefined);
  }

  /** the namespace `m` lands in, and how the review knows it. */
  public resolve(m: any): ResolvedNamespace {
    const own = ownNamespace(m);
    if (own !== undefined) return { namespace: own, source: 'manifest' };
    if (this.option !== undefined) return { namespace: this.option, source: 'option' };
    const fromFile = this.fileNamespace.get(this.fileOf?.get(m) ?? '');
    return fromFile === undefined ? {} : { namespace: fromFile, source: 'file' };
  }

  /** the namespace key of `m`: its resolved namespace, or UNKNOWN_NAMESPACE. */
  public keyOf(m: any): string {
    return this.resolve(m).namespace ?? UNKNOWN_NAMESPACE;
  }
}

const resolvers = new WeakMap<object, NamespaceResolver>();

/** records the resolver of a review, keyed by the manifest list the engine gives every workload of that review. */
export function registerResolver(allManifests: any[], resolver: NamespaceResolver): void {
  resolvers.set(allManifests, resolver);
}

/** the resolver of the review that `allManifests` belongs to (one is built, without file information, if none was recorded). */
export function resolverOf(allManifests: any[], option?: string): NamespaceResolver {
  let resolver = resolvers.get(allManifests);
  if (!resolver) {
    resolver = new NamespaceResolver(allManifests, option);
    resolvers.set(allManifests, resolver);
  }
  return resolver;
}

/** how a message states where a namespace comes from: nothing for the manifest's own. */
export function sourceNote(source: NamespaceSource | string | undefined): string {
  switch (source) {
    case 'option': return ' (namespace from --namespace)';
    case 'file': return ' (namespace used by the other objects of its file)';
    default: return '';
  }
}

/** `namespace/name`, or `name (namespace not set)` for an unknown namespace. */
export function qualified(namespaceKey: string, name: string): string {
  return namespaceKey === UNKNOWN_NAMESPACE ? `${name} (namespace not set)` : `${namespaceKey}/${name}`;
}

/** `namespace observability`, or `the namespace it is applied to` for an unknown namespace. */
export function describeNamespace(namespaceKey: string): string {
  return namespaceKey === UNKNOWN_NAMESPACE ? 'the namespace it is applied to' : `namespace ${namespaceKey}`;
}
