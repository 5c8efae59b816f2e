/**
 * One RBAC rule the agent's ServiceAccount is granted.
 *
 * @see https://kubernetes.io/docs/reference/access-authn-authz/rbac/
 */
export interface AccessRule {
  /**
   * API groups of the resources; `''` is the core group.
   *
   * @default [''] (the core group)
   */
  readonly apiGroups?: string[];

  /** resources, e.g. `['pods', 'namespaces']`. */
  readonly resources: string[];

  /** verbs, e.g. `['get', 'list', 'watch']`. */
  readonly verbs: string[];

  /**
   * Limit the rule to these object names.
   *
   * @default - every object of the resources
   */
  readonly resourceNames?: string[];
}
