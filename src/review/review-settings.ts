/**
 * The settings of a review that rules read: the part of `ReviewOptions` a rule sees in `WorkloadContext.options`.
 *
 * Kept apart from `ReviewOptions` (which names the packs, and so the rules) so that a rule depends on its settings
 * only, not on the packs that contain it.
 */
export interface ReviewSettings {
  /**
   * The Pod Security Standards policy version to evaluate, as a namespace pins it: `'1.28'`, `'v1.34'` or `'latest'`.
   *
   * @default '1.28' (PodSecurity.DEFAULT_VERSION)
   */
  readonly podSecurityVersion?: string;

  /**
   * The registries images may come from: registry hosts (`registry.example.com`) or host and path prefixes
   * (`docker.io/falcosecurity`). Read by the `NA-IMAGE-REGISTRY` rule.
   *
   * @default - any registry
   */
  readonly allowedRegistries?: string[];

  /**
   * Registry mirrors the images were rewritten to, each naming an upstream image as `<mirror>/<registry>/<path>`
   * (as `RegistryMirror` does): `NA-IMAGE-REGISTRY` judges an image from one by the registry it mirrors, so
   * `allowedRegistries` keeps naming the upstream registries.
   *
   * @default - none
   */
  readonly registryMirrors?: string[];

  /**
   * The namespace the manifests are applied to (`kubectl apply --namespace`): the namespace of every namespaced object
   * that sets none. An object that sets another namespace is an error, as kubectl rejects it.
   *
   * @default - an object without a namespace is in the one namespace every other object of its file sets (all the
   * manifests are one file for `SecurityReview.review()`), and its namespace is unknown when they set none or several;
   * never assumed to be `default`
   */
  readonly namespace?: string;
}
