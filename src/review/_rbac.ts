// Internal: which RBAC objects among the reviewed manifests grant what to a workload's ServiceAccount. The manifests are
// indexed once per review (keyed by the manifest list the engine gives every workload of one review), so a review of
// thousands of workloads stays linear.
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

interface IndexedBinding {
  readonly order: number;
  readonly manifest: any;
  readonly cluster: boolean;
  /** `default` for a RoleBinding without a namespace; undefined for a ClusterRoleBinding. */
  readonly namespace?: string;
}

interface RbacIndex {
  /** bindings by subject key: `sa:<ns>/<name>`, `group:<name>`, `user:<name>`, each with how it names the subject. */
  readonly bySubject: Map<string, Array<{ binding: IndexedBinding; via: string }>>;
  /** roles by `<kind>/<namespace>/<name>` (ClusterRoles with an empty namespace); the first of a name wins. */
  readonly roles: Map<string, any>;
  /** ServiceAccounts by `<namespace>/<name>`. */
  readonly serviceAccounts: Map<string, any>;
  /** bindings whose subjects cannot be read: who they bind is unknown, so every RBAC question fails. */
  readonly errors: string[];
}

const indexes = new WeakMap<object, RbacIndex>();

function isRbac(m: any, kind: string): boolean {
  return m !== null && typeof m === 'object' && m.kind === kind && typeof m.apiVersion === 'string' && m.apiVersion.startsWith('rbac.authorization.k8s.io/');
}

function nameOf(m: any): string {
  return typeof m?.metadata?.name === 'string' ? m.metadata.name : '';
}

function namespaceOf(m: any): string | undefined {
  const ns = m?.metadata?.namespace;
  return typeof ns === 'string' && ns !== '' ? ns : undefined;
}

function add<T>(map: Map<string, T[]>, key: string, value: T): void {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
}

function buildIndex(all: any[]): RbacIndex {
  const index: RbacIndex = { bySubject: new Map(), roles: new Map(), serviceAccounts: new Map(), errors: [] };
  all.forEach((m, order) => {
    if (isRbac(m, 'Role') || isRbac(m, 'ClusterRole')) {
      const key = `${m.kind}/${m.kind === 'Role' ? (namespaceOf(m) ?? 'default') : ''}/${nameOf(m)}`;
      if (!index.roles.has(key)) index.roles.set(key, m);
      return;
    }
    if (m !== null && typeof m === 'object' && m.kind === 'ServiceAccount' && m.apiVersion === 'v1') {
      const key = `${namespaceOf(m) ?? 'default'}/${nameOf(m)}`;
      if (!index.serviceAccounts.has(key)) index.serviceAccounts.set(key, m);
      return;
    }
    const cluster = isRbac(m, 'ClusterRoleBinding');
    if (!cluster && !isRbac(m, 'RoleBinding')) return;
    const binding: IndexedBinding = { order, manifest: m, cluster, namespace: cluster ? undefined : (namespaceOf(m) ?? 'default') };
    let subjects: any[];
    try {
      subjects = list(m.subjects, `${m.kind} ${nameOf(m)}: subjects`);
    } catch (e) {
      index.errors.push((e as Error).message);
      return;
    }
    for (const s of subjects) {
      if (!s || typeof s !== 'object' || typeof s.name !== 'string') continue;
      if (s.kind === 'ServiceAccount') {
        // a RoleBinding's ServiceAccount subject without a namespace means the binding's namespace.
        const ns = typeof s.namespace === 'string' && s.namespace !== '' ? s.namespace : (namespaceOf(m) ?? 'default');
        add(index.bySubject, `sa:${ns}/${s.name}`, { binding, via: `ServiceAccount ${ns}/${s.name}` });
      } else if (s.kind === 'Group') {
        add(index.bySubject, `group:${s.name}`, { binding, via: `Group ${s.name}` });
      } else if (s.kind === 'User') {
        add(index.bySubject, `user:${s.name}`, { binding, via: `User ${s.name}` });
      }
    }
  });
  return index;
}

function indexOf(all: any[]): RbacIndex {
  let index = indexes.get(all);
  if (!index) {
    index = buildIndex(all);
    indexes.set(all, index);
  }
  return index;
}

/**
 * Every RoleBinding and ClusterRoleBinding among the manifests that names the ServiceAccount (directly, as its user
 * name, or through the `system:serviceaccounts` groups), in manifest order. A RoleBinding only counts in the
 * ServiceAccount's namespace.
 *
 * @throws when a binding's subjects or a matching binding's roleRef cannot be read
 */
export function grantsTo(all: any[], saName: string, saNamespace: string): BindingGrant[] {
  const index = indexOf(all);
  if (index.errors.length > 0) throw new Error(index.errors[0]);
  const keys = [
    `sa:${saNamespace}/${saName}`,
    'group:system:serviceaccounts',
    `group:system:serviceaccounts:${saNamespace}`,
    `user:system:serviceaccount:${saNamespace}:${saName}`,
  ];
  const matches = new Map<IndexedBinding, string>();
  for (const key of keys) {
    for (const { binding, via } of index.bySubject.get(key) ?? []) {
      if (!binding.cluster && binding.namespace !== saNamespace) continue;
      if (!matches.has(binding)) matches.set(binding, via);
    }
  }
  return [...matches.entries()]
    .sort(([a], [b]) => a.order - b.order)
    .map(([binding, via]) => {
      const m = binding.manifest;
      const where = `${m.kind} ${nameOf(m)}`;
      const roleRef = obj(m.roleRef, `${where}: roleRef`);
      if (typeof roleRef.name !== 'string' || (roleRef.kind !== 'Role' && roleRef.kind !== 'ClusterRole')) {
        throw new Error(`${where}: roleRef must name a Role or ClusterRole, got ${describe(m.roleRef)}`);
      }
      const roleKey = `${roleRef.kind}/${roleRef.kind === 'Role' ? binding.namespace : ''}/${roleRef.name}`;
      return {
        bindingKind: m.kind,
        bindingName: nameOf(m),
        bindingNamespace: binding.namespace,
        roleKind: roleRef.kind,
        roleName: roleRef.name,
        role: index.roles.get(roleKey),
        via,
      };
    });
}

/** the ServiceAccount object among the manifests, if any. */
export function findServiceAccount(all: any[], saName: string, saNamespace: string): any | undefined {
  return indexOf(all).serviceAccounts.get(`${saNamespace}/${saName}`);
}
