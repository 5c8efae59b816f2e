// Internal: which RBAC objects among the reviewed manifests grant what to a workload's ServiceAccount.
import { describe, list, obj } from './_workload';

export interface BindingGrant {
  /** `RoleBinding` or `ClusterRoleBinding`. */
  readonly bindingKind: string;
  readonly bindingName: string;
  readonly bindingNamespace?: string;
  /** `Role` or `ClusterRole`. */
  readonly roleKind: string;
  readonly roleName: string;
  /** the role's manifest when it is among the reviewed manifests. */
  readonly role?: any;
  /** how the binding names the ServiceAccount: `ServiceAccount ns/name` or `Group system:serviceaccounts:ns`. */
  readonly via: string;
}

function isKind(m: any, kind: string): boolean {
  return m !== null && typeof m === 'object' && m.kind === kind && typeof m.apiVersion === 'string' && m.apiVersion.startsWith('rbac.authorization.k8s.io/');
}

function nameOf(m: any): string {
  return typeof m?.metadata?.name === 'string' ? m.metadata.name : '';
}

function namespaceOf(m: any): string | undefined {
  const ns = m?.metadata?.namespace;
  return typeof ns === 'string' && ns !== '' ? ns : undefined;
}

/** how a binding subject matches the ServiceAccount, or undefined when it does not. */
function matchSubject(subject: any, binding: any, saName: string, saNamespace: string): string | undefined {
  if (!subject || typeof subject !== 'object') return undefined;
  if (subject.kind === 'ServiceAccount') {
    // a RoleBinding's ServiceAccount subject without a namespace means the binding's namespace.
    const ns = typeof subject.namespace === 'string' && subject.namespace !== '' ? subject.namespace : (namespaceOf(binding) ?? 'default');
    return subject.name === saName && ns === saNamespace ? `ServiceAccount ${ns}/${saName}` : undefined;
  }
  if (subject.kind === 'Group' && (subject.name === 'system:serviceaccounts' || subject.name === `system:serviceaccounts:${saNamespace}`)) {
    return `Group ${subject.name}`;
  }
  if (subject.kind === 'User' && subject.name === `system:serviceaccount:${saNamespace}:${saName}`) return `User ${subject.name}`;
  return undefined;
}

/**
 * Every RoleBinding and ClusterRoleBinding among the manifests that names the ServiceAccount (directly, as its user
 * name, or through the `system:serviceaccounts` groups). A RoleBinding only counts in the ServiceAccount's namespace.
 */
export function grantsTo(all: any[], saName: string, saNamespace: string): BindingGrant[] {
  const grants: BindingGrant[] = [];
  for (const binding of all) {
    const cluster = isKind(binding, 'ClusterRoleBinding');
    if (!cluster && !isKind(binding, 'RoleBinding')) continue;
    const bindingNamespace = cluster ? undefined : (namespaceOf(binding) ?? 'default');
    if (!cluster && bindingNamespace !== saNamespace) continue;
    const where = `${binding.kind} ${nameOf(binding)}`;
    const subjects = list(binding.subjects, `${where}: subjects`);
    const via = subjects.map((s) => matchSubject(s, binding, saName, saNamespace)).find((v) => v !== undefined);
    if (via === undefined) continue;
    const roleRef = obj(binding.roleRef, `${where}: roleRef`);
    if (typeof roleRef.name !== 'string' || (roleRef.kind !== 'Role' && roleRef.kind !== 'ClusterRole')) {
      throw new Error(`${where}: roleRef must name a Role or ClusterRole, got ${describe(binding.roleRef)}`);
    }
    const role = all.find((m) => isKind(m, roleRef.kind) && nameOf(m) === roleRef.name &&
      (roleRef.kind === 'ClusterRole' || (namespaceOf(m) ?? 'default') === bindingNamespace));
    grants.push({
      bindingKind: binding.kind,
      bindingName: nameOf(binding),
      bindingNamespace,
      roleKind: roleRef.kind,
      roleName: roleRef.name,
      role,
      via,
    });
  }
  return grants;
}

/** the ServiceAccount object among the manifests, if any. */
export function findServiceAccount(all: any[], saName: string, saNamespace: string): any | undefined {
  return all.find((m) => m !== null && typeof m === 'object' && m.kind === 'ServiceAccount' && m.apiVersion === 'v1' &&
    nameOf(m) === saName && (namespaceOf(m) ?? 'default') === saNamespace);
}
