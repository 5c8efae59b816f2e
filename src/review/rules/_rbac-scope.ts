// Internal: the paragraph every RBAC rule's explanation ends with: what the RBAC rules read and how they count.

/** how the RBAC rules find what a ServiceAccount holds, for their explanations (and so RULES.md). */
export const RBAC_SCOPE = ' The RBAC rules read the RoleBindings and ClusterRoleBindings among the reviewed manifests that name the ' +
  'workload\'s ServiceAccount (as a ServiceAccount, as its user name, or through the groups system:serviceaccounts, ' +
  'system:serviceaccounts:<namespace> and system:authenticated), in any namespace; the Roles and ClusterRoles they bind, ' +
  'an aggregated ClusterRole as the union of the ClusterRoles its label selectors match (matchLabels and matchExpressions), ' +
  'and Kubernetes\' built-in ClusterRoles (cluster-admin, admin, edit, view, system:*) as version 1.37 defines them. ' +
  'Each right is one finding, at the highest severity any binding gives it, naming that binding and role and listing ' +
  'the others; a role the manifests do not define and Kubernetes does not build in is not judged.';
