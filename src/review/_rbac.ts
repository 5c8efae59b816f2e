// Internal: which RBAC objects among the reviewed manifests grant what to a workload's ServiceAccount, as the API
// server's RBAC authorizer would (k8s.io/kubernetes pkg/registry/rbac/validation and plugin/pkg/auth/authorizer/rbac),
// with aggregated ClusterRoles resolved as the clusterrole-aggregation controller resolves them. The manifests are
// indexed once per review (keyed by the manifest list the engine gives every workload of one review), so a review of
// thousands of workloads stays linear.
import { BUILT_IN_CLUSTER_ROLES, BUILT_IN_ROLES_VERSION } from './_builtin-roles';
import { UNKNOWN_NAMESPACE, resolverOf } from './_namespace';
import { describe, list, obj } from './_workload';
import { apiTypeErrors } from '../model/_api-type-check';
import { labelRequirementMatches } from '../model/_label-selector';

/** a policy rule, its lists read as strings. */
export interface PolicyRule {
  readonly verbs: string[];
  readonly apiGroups: string[];
  readonly resources: string[];
  readonly resourceNames: string[];
  readonly nonResourceURLs: string[];
}

/** a policy rule and the role that holds it. */
export interface SourcedRule {
  readonly rule: PolicyRule;
  /** the role that holds the rule, e.g. `ClusterRole calico-node` or `built-in ClusterRole edit`. */
  readonly role: string;
  /** the rule's index in that role's rules. */
  readonly index: number;
}

export interface BindingGrant {
  /** the binding's manifest. */
  readonly binding: any;
  /** `RoleBinding` or `ClusterRoleBinding`. */
  readonly bindingKind: string;
  readonly bindingName: string;
  /** the RoleBinding's namespace (UNKNOWN_NAMESPACE when unknown); undefined for a ClusterRoleBinding. */
  readonly bindingNamespace?: string;
  /** `Role` or `ClusterRole`. */
  readonly roleKind: string;
  readonly roleName: string;
  /** the role's manifest, among the reviewed manifests or built into Kubernetes; undefined when neither has it. */
  readonly role?: any;
  /** whether the role is Kubernetes' own (not among the manifests). */
  readonly builtIn: boolean;
  /** how the binding names the ServiceAccount: `ServiceAccount ns/name`, `Group system:serviceaccounts`... */
  readonly via: string;
  /** what the role grants: its rules or, for a ClusterRole with an aggregationRule, the rules of the ClusterRoles it selects. */
  readonly rules: SourcedRule[];
  /** for a ClusterRole with an aggregationRule: the ClusterRoles it selects (among the manifests and the built-in roles). */
  readonly aggregates?: string[];
}

interface IndexedBinding {
  readonly order: number;
  readonly manifest: any;
  readonly cluster: boolean;
  /** the RoleBinding's namespace key; undefined for a ClusterRoleBinding. */
  readonly namespace?: string;
}

interface RbacIndex {
  /** bindings by subject key: `sa:<ns>/<name>`, `group:<name>`, `user:<name>`, each with how it names the subject. */
  readonly bySubject: Map<string, Array<{ binding: IndexedBinding; via: string }>>;
  /** ServiceAccount names that ServiceAccount subjects name, whatever their namespace. */
  readonly subjectNames: Set<string>;
  /** Roles by `<namespace key>/<name>`; the first of a name wins. */
  readonly roles: Map<string, any>;
  /** ClusterRoles by name: the manifests', then the built-in ones the manifests do not redefine. */
  clusterRoles: ReadonlyMap<string, ClusterRoleEntry>;
  /** ServiceAccounts by `<namespace key>/<name>`. */
  readonly serviceAccounts: Map<string, any>;
  /** Namespaces by name. */
  readonly namespaces: Map<string, any>;
  /** bindings whose subjects cannot be read: who they bind is unknown, so every RBAC question fails. */
  readonly errors: string[];
  /** effective rules of each ClusterRole, once resolved. */
  readonly effective: Map<string, { rules: SourcedRule[]; aggregates?: string[] }>;
}

interface ClusterRoleEntry {
  readonly manifest: any;
  readonly builtIn: boolean;
}

const indexes = new WeakMap<object, RbacIndex>();

/** the built-in ClusterRoles alone: the index of manifests that define no ClusterRole (most agents' own objects) shares it. */
const BUILT_IN_ONLY: ReadonlyMap<string, ClusterRoleEntry> = new Map(
  BUILT_IN_CLUSTER_ROLES.map((r) => [r.metadata.name, { manifest: r, builtIn: true }]),
);

function isRbac(m: any, kind: string): boolean {
  return m !== null && typeof m === 'object' && m.kind === kind && typeof m.apiVersion === 'string' && m.apiVersion.startsWith('rbac.authorization.k8s.io/');
}

function nameOf(m: any): string {
  return typeof m?.metadata?.name === 'string' ? m.metadata.name : '';
}

function add<T>(map: Map<string, T[]>, key: string, value: T): void {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
}

function subjectVia(kind: string, name: string): string {
  switch (name) {
    case 'system:authenticated': return `${kind} ${name} (every authenticated user and ServiceAccount)`;
    case 'system:serviceaccounts': return `${kind} ${name} (every ServiceAccount)`;
    default: return name.startsWith('system:serviceaccounts:') ? `${kind} ${name} (every ServiceAccount of its namespace)` : `${kind} ${name}`;
  }
}

function buildIndex(all: any[], namespaceOption?: string): RbacIndex {
  const resolver = resolverOf(all, namespaceOption);
  const index: RbacIndex = {
    bySubject: new Map(),
    subjectNames: new Set(),
    roles: new Map(),
    clusterRoles: BUILT_IN_ONLY,
    serviceAccounts: new Map(),
    namespaces: new Map(),
    errors: [],
    effective: new Map(),
  };
  const ownClusterRoles = new Map<string, ClusterRoleEntry>();
  all.forEach((m, order) => {
    if (isRbac(m, 'Role')) {
      const key = `${resolver.keyOf(m)}/${nameOf(m)}`;
      if (!index.roles.has(key)) index.roles.set(key, m);
      return;
    }
    if (isRbac(m, 'ClusterRole')) {
      if (!ownClusterRoles.has(nameOf(m))) ownClusterRoles.set(nameOf(m), { manifest: m, builtIn: false });
      return;
    }
    if (m !== null && typeof m === 'object' && m.apiVersion === 'v1' && m.kind === 'ServiceAccount') {
      const key = `${resolver.keyOf(m)}/${nameOf(m)}`;
      if (!index.serviceAccounts.has(key)) index.serviceAccounts.set(key, m);
      return;
    }
    if (m !== null && typeof m === 'object' && m.apiVersion === 'v1' && m.kind === 'Namespace') {
      if (!index.namespaces.has(nameOf(m))) index.namespaces.set(nameOf(m), m);
      return;
    }
    const cluster = isRbac(m, 'ClusterRoleBinding');
    if (!cluster && !isRbac(m, 'RoleBinding')) return;
    const namespace = cluster ? undefined : resolver.keyOf(m);
    const binding: IndexedBinding = { order, manifest: m, cluster, namespace };
    // who it binds, and to what, as the API server decodes it: a field of another type is refused, not skipped
    const typeError = apiTypeErrors(m, m.kind, '', 1)[0];
    if (typeError !== undefined) {
      index.errors.push(`${m.kind} ${nameOf(m)}: ${typeError.message} (the API server rejects this binding): ${typeError.fix}`);
      return;
    }
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
        // a RoleBinding's ServiceAccount subject without a namespace means the binding's namespace (appliesToUser).
        const ns = typeof s.namespace === 'string' && s.namespace !== '' ? s.namespace : namespace;
        if (ns === undefined) continue; // a ClusterRoleBinding's subject needs a namespace: it binds nobody
        index.subjectNames.add(s.name);
        add(index.bySubject, `sa:${ns}/${s.name}`, { binding, via: `ServiceAccount ${ns === UNKNOWN_NAMESPACE ? s.name : `${ns}/${s.name}`}` });
      } else if (s.kind === 'Group') {
        add(index.bySubject, `group:${s.name}`, { binding, via: subjectVia('Group', s.name) });
      } else if (s.kind === 'User') {
        add(index.bySubject, `user:${s.name}`, { binding, via: subjectVia('User', s.name) });
      }
    }
  });
  if (ownClusterRoles.size > 0) {
    for (const [name, entry] of BUILT_IN_ONLY) if (!ownClusterRoles.has(name)) ownClusterRoles.set(name, entry);
    index.clusterRoles = ownClusterRoles;
  }
  return index;
}

function indexOf(all: any[], namespaceOption?: string): RbacIndex {
  let index = indexes.get(all);
  if (!index) {
    index = buildIndex(all, namespaceOption);
    indexes.set(all, index);
  }
  return index;
}

function strings(value: unknown, path: string): string[] {
  return list(value, path).map((v) => String(v));
}

/**
 * The rules of a role, as the API server validates them (ValidatePolicyRule, k8s.io/kubernetes v1.37): a rule it would
 * reject is an error, so that the review never judges a role the cluster would not hold.
 */
function policyRules(role: any, where: string, namespaced: boolean): PolicyRule[] {
  // the role as the API server decodes it: `verbs: [1]` is refused, never read as the verb "1"
  const typeError = apiTypeErrors(role, namespaced ? 'Role' : 'ClusterRole', '', 1)[0];
  if (typeError !== undefined) throw new Error(`${where}: ${typeError.message} (the API server rejects this role): ${typeError.fix}`);
  return list(role.rules, `${where}: rules`).map((r: any, i: number) => {
    const at = `${where}: rules[${i}]`;
    const rule = obj(r, at);
    const parsed: PolicyRule = {
      verbs: strings(rule.verbs, `${at}.verbs`),
      apiGroups: strings(rule.apiGroups, `${at}.apiGroups`),
      resources: strings(rule.resources, `${at}.resources`),
      resourceNames: strings(rule.resourceNames, `${at}.resourceNames`),
      nonResourceURLs: strings(rule.nonResourceURLs, `${at}.nonResourceURLs`),
    };
    const reject = (why: string) => new Error(`${at}: ${why} (the API server rejects this role)`);
    if (parsed.verbs.length === 0) throw reject('verbs must contain at least one value');
    if (parsed.nonResourceURLs.length > 0) {
      if (namespaced) throw reject('a Role cannot grant nonResourceURLs');
      if (parsed.apiGroups.length + parsed.resources.length + parsed.resourceNames.length > 0) throw reject('a rule cannot grant both resources and nonResourceURLs');
      return parsed;
    }
    if (parsed.apiGroups.length === 0) throw reject('resource rules must supply at least one API group ("" is the core group)');
    if (parsed.resources.length === 0) throw reject('resource rules must supply at least one resource');
    return parsed;
  });
}

const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** whether a ClusterRole's labels match a label selector (metav1.LabelSelectorAsSelector): every term must hold; `{}` matches every role. */
function selectorMatches(selector: any, labels: Map<string, string>, at: string): boolean {
  const s = obj(selector, at);
  for (const [key, value] of Object.entries(obj(s.matchLabels, `${at}.matchLabels`))) {
    if (labels.get(key) !== String(value)) return false;
  }
  return list(s.matchExpressions, `${at}.matchExpressions`).every((e: any, i: number) => {
    const expr = obj(e, `${at}.matchExpressions[${i}]`);
    const operator = String(expr.operator);
    const values = strings(expr.values, `${at}.matchExpressions[${i}].values`);
    if (!SELECTOR_OPERATORS.includes(operator)) {
      throw new Error(`${at}.matchExpressions[${i}].operator must be one of ${SELECTOR_OPERATORS.join(', ')}, got ${describe(expr.operator)} (the API server rejects this role)`);
    }
    if ((operator === 'In' || operator === 'NotIn') === (values.length === 0)) {
      throw new Error(`${at}.matchExpressions[${i}]: operator ${operator} ${values.length === 0 ? 'needs values' : 'takes no values'} (the API server rejects this role)`);
    }
    return labelRequirementMatches({ key: String(expr.key), operator, values }, labels);
  });
}

function labelsOf(m: any): Map<string, string> {
  const labels = new Map<string, string>();
  for (const [k, v] of Object.entries(obj(m?.metadata?.labels, `ClusterRole ${nameOf(m)}: metadata.labels`))) labels.set(k, String(v));
  return labels;
}

function roleLabel(name: string, builtIn: boolean): string {
  return builtIn ? `built-in ClusterRole ${name}` : `ClusterRole ${name}`;
}

/**
 * The rules a ClusterRole grants: its own, or, with an aggregationRule, the union of the rules of every other
 * ClusterRole its selectors match (the controller replaces the role's rules with those), transitively.
 */
function clusterRoleRules(index: RbacIndex, name: string, visiting: Set<string> = new Set()): { rules: SourcedRule[]; aggregates?: string[] } {
  const cached = index.effective.get(name);
  if (cached) return cached;
  const entry = index.clusterRoles.get(name);
  if (!entry) return { rules: [] };
  const where = roleLabel(name, entry.builtIn);
  const aggregation = entry.manifest.aggregationRule;
  let result: { rules: SourcedRule[]; aggregates?: string[] };
  if (aggregation === undefined || aggregation === null) {
    result = { rules: policyRules(entry.manifest, where, false).map((rule, i) => ({ rule, role: where, index: i })) };
  } else {
    const selectors = list(obj(aggregation, `${where}: aggregationRule`).clusterRoleSelectors, `${where}: aggregationRule.clusterRoleSelectors`);
    if (selectors.length === 0) throw new Error(`${where}: aggregationRule.clusterRoleSelectors needs at least one selector (the API server rejects this role)`);
    visiting.add(name);
    const rules: SourcedRule[] = [];
    const aggregates: string[] = [];
    const seen = new Set<string>();
    for (const [other, candidate] of [...index.clusterRoles.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (other === name || visiting.has(other)) continue;
      const labels = labelsOf(candidate.manifest);
      if (!selectors.some((s: any, i: number) => selectorMatches(s, labels, `${where}: aggregationRule.clusterRoleSelectors[${i}]`))) continue;
      aggregates.push(roleLabel(other, candidate.builtIn));
      for (const r of clusterRoleRules(index, other, visiting).rules) {
        const key = JSON.stringify(r.rule);
        if (!seen.has(key)) {
          seen.add(key);
          rules.push(r);
        }
      }
    }
    visiting.delete(name);
    result = { rules, aggregates };
  }
  if (visiting.size === 0) index.effective.set(name, result);
  return result;
}

function serviceAccountKeys(saName: string, saNamespace: string): string[] {
  const keys = [`sa:${saNamespace}/${saName}`, 'group:system:serviceaccounts', 'group:system:authenticated'];
  if (saNamespace !== UNKNOWN_NAMESPACE) {
    keys.push(`group:system:serviceaccounts:${saNamespace}`, `user:system:serviceaccount:${saNamespace}:${saName}`);
  }
  return keys;
}

/**
 * Every RoleBinding and ClusterRoleBinding among the manifests that names the ServiceAccount: directly, as its user
 * name, or through the groups every ServiceAccount belongs to (`system:serviceaccounts`,
 * `system:serviceaccounts:<namespace>`, `system:authenticated`), in manifest order. A RoleBinding grants in its own
 * namespace, whichever namespace the ServiceAccount is in.
 *
 * @param saNamespace the ServiceAccount's namespace, or UNKNOWN_NAMESPACE
 * @throws when a binding's subjects, a matching binding's roleRef or the rules of its role cannot be read
 */
export function grantsTo(all: any[], saName: string, saNamespace: string, namespaceOption?: string): BindingGrant[] {
  const index = indexOf(all, namespaceOption);
  if (index.errors.length > 0) throw new Error(index.errors[0]);
  const matches = new Map<IndexedBinding, string>();
  for (const key of serviceAccountKeys(saName, saNamespace)) {
    for (const { binding, via } of index.bySubject.get(key) ?? []) {
      if (!matches.has(binding)) matches.set(binding, via);
    }
  }
  return [...matches.entries()]
    .sort(([a], [b]) => a.order - b.order)
    .map(([binding, via]) => {
      const m = binding.manifest;
      const where = `${m.kind} ${nameOf(m)}`;
      const roleRef = obj(m.roleRef, `${where}: roleRef`);
      const allowed = binding.cluster ? ['ClusterRole'] : ['Role', 'ClusterRole'];
      if (typeof roleRef.name !== 'string' || roleRef.name === '' || !allowed.includes(roleRef.kind)) {
        throw new Error(`${where}: roleRef must name a ${allowed.join(' or ')}, got ${describe(m.roleRef)}`);
      }
      const base = {
        binding: m,
        bindingKind: m.kind,
        bindingName: nameOf(m),
        bindingNamespace: binding.namespace,
        roleKind: roleRef.kind,
        roleName: roleRef.name,
        via,
      };
      if (roleRef.kind === 'Role') {
        const role = index.roles.get(`${binding.namespace}/${roleRef.name}`);
        const rules = role ? policyRules(role, `Role ${roleRef.name}`, true).map((rule, i) => ({ rule, role: `Role ${roleRef.name}`, index: i })) : [];
        return { ...base, role, builtIn: false, rules };
      }
      const entry = index.clusterRoles.get(roleRef.name);
      const { rules, aggregates } = clusterRoleRules(index, roleRef.name);
      return { ...base, role: entry?.manifest, builtIn: entry?.builtIn ?? false, rules, aggregates };
    });
}

/** a Role or ClusterRole among the manifests, with what it grants. */
export interface ShippedRole {
  readonly kind: 'Role' | 'ClusterRole';
  readonly name: string;
  /** a Role's namespace key. */
  readonly namespace?: string;
  /** its rules or, with an aggregationRule, those of the ClusterRoles it selects. */
  readonly rules: SourcedRule[];
  /** the ClusterRoles (among the manifests or built in) whose aggregationRule selects it: whoever holds them holds its rules. */
  readonly aggregatedInto: string[];
}

/**
 * Every Role and ClusterRole among the manifests (the first of a name), in manifest order.
 *
 * @throws when a role's rules or an aggregationRule cannot be read
 */
export function shippedRoles(all: any[], namespaceOption?: string): ShippedRole[] {
  const index = indexOf(all, namespaceOption);
  const aggregating = [...index.clusterRoles.entries()]
    .filter(([, e]) => e.manifest.aggregationRule !== undefined && e.manifest.aggregationRule !== null);
  const out: ShippedRole[] = [];
  for (const [key, role] of index.roles) {
    const where = `Role ${nameOf(role)}`;
    const rules = policyRules(role, where, true).map((rule, i) => ({ rule, role: where, index: i }));
    out.push({ kind: 'Role', name: nameOf(role), namespace: key.slice(0, key.lastIndexOf('/')), rules, aggregatedInto: [] });
  }
  for (const [name, entry] of index.clusterRoles) {
    if (entry.builtIn) continue;
    const label = roleLabel(name, false);
    const aggregatedInto = aggregating.filter(([other]) => other !== name && (clusterRoleRules(index, other).aggregates ?? []).includes(label))
      .map(([other, e]) => roleLabel(other, e.builtIn));
    out.push({ kind: 'ClusterRole', name, rules: clusterRoleRules(index, name).rules, aggregatedInto });
  }
  return out;
}

/** the ServiceAccount object among the manifests, if any. */
export function findServiceAccount(all: any[], saName: string, saNamespace: string, namespaceOption?: string): any | undefined {
  return indexOf(all, namespaceOption).serviceAccounts.get(`${saNamespace}/${saName}`);
}

/** whether any binding among the manifests names a ServiceAccount of this name, in any namespace. */
export function anyBindingNames(all: any[], saName: string, namespaceOption?: string): boolean {
  return indexOf(all, namespaceOption).subjectNames.has(saName);
}

/** the Pod Security level a Namespace among the manifests enforces (`pod-security.kubernetes.io/enforce`), if any. */
export function enforcedLevel(all: any[], namespace: string, namespaceOption?: string): string | undefined {
  const ns = indexOf(all, namespaceOption).namespaces.get(namespace);
  const level = ns?.metadata?.labels?.['pod-security.kubernetes.io/enforce'];
  return typeof level === 'string' ? level : undefined;
}

/** the Kubernetes version whose built-in ClusterRoles the review knows. */
export const BUILT_IN_VERSION = BUILT_IN_ROLES_VERSION;

/**
 * RuleAllows (plugin/pkg/auth/authorizer/rbac) for a resource request, without the name: which of `verbs` the rule
 * allows on the resource (`pods` or `pods/exec`) of the group, and the names it is limited to (undefined: any name).
 * A rule with resourceNames never allows a request without a name: `create` of a top-level resource and
 * `deletecollection` (the name of a new object is not known when it is authorized).
 */
export function allowedVerbs(rule: PolicyRule, group: string, resource: string, verbs: string[]): { verbs: string[]; names?: string[] } | undefined {
  if (!rule.apiGroups.some((g) => g === '*' || g === group)) return undefined;
  const slash = resource.indexOf('/');
  const subresource = slash < 0 ? '' : resource.slice(slash + 1);
  const resourceMatches = rule.resources.some((r) => r === '*' || r === resource || (subresource !== '' && r === `*/${subresource}`));
  if (!resourceMatches) return undefined;
  const limited = rule.resourceNames.length > 0;
  const matched = verbs.filter((v) => {
    if (!rule.verbs.includes('*') && !rule.verbs.includes(v)) return false;
    if (limited && (v === 'deletecollection' || (v === 'create' && subresource === ''))) return false;
    return true;
  });
  if (matched.length === 0) return undefined;
  return limited ? { verbs: matched, names: [...rule.resourceNames] } : { verbs: matched };
}

/** one request to the API, as the RBAC authorizer sees it (its resource attributes). */
export interface ResourceRequest {
  readonly verb: string;
  /** the API group: "" for the core group. */
  readonly group: string;
  /** the resource, with its subresource after a slash: `services` or `services/status`. */
  readonly resource: string;
  /** the namespace; undefined for a cluster-scoped resource, or a namespaced one across all namespaces. */
  readonly namespace?: string;
  /** the object's name; undefined for a create of a top-level resource, a list or a deletecollection. */
  readonly name?: string;
}

/**
 * Whether one binding's grant allows the request (RBACAuthorizer's visitor over appliesTo and RuleAllows): a RoleBinding
 * only for requests in its own namespace, a rule only if its API group, resource, verb and resourceNames all match.
 */
export function grantAllows(grant: BindingGrant, request: ResourceRequest): boolean {
  if (grant.bindingKind === 'RoleBinding' && (request.namespace === undefined || request.namespace !== grant.bindingNamespace)) return false;
  return grant.rules.some(({ rule }) => {
    const allowed = allowedVerbs(rule, request.group, request.resource, [request.verb]);
    return allowed !== undefined && (allowed.names === undefined || (request.name !== undefined && allowed.names.includes(request.name)));
  });
}

/**
 * Whether the workload's pods hold an API token of its ServiceAccount: the kubelet mounts one unless
 * automountServiceAccountToken is false on the pod or, when the pod leaves it unset, on the ServiceAccount; a projected
 * serviceAccountToken volume mounts one whatever that setting says.
 */
export function podHoldsToken(
  ctx: { podSpec: any; allManifests: any[]; options: { namespace?: string } }, saName: string, saNamespace: string,
): boolean {
  const volumes: any[] = Array.isArray(ctx.podSpec?.volumes) ? ctx.podSpec.volumes : [];
  if (volumes.some((v) => Array.isArray(v?.projected?.sources) && v.projected.sources.some((s: any) => s?.serviceAccountToken))) return true;
  const pod = ctx.podSpec?.automountServiceAccountToken;
  if (pod === true || pod === false) return pod;
  return findServiceAccount(ctx.allManifests, saName, saNamespace, ctx.options.namespace)?.automountServiceAccountToken !== false;
}

/**
 * The namespaces the bindings among the manifests name for a ServiceAccount of this name (`subjects[].namespace`, or a
 * RoleBinding's own), sorted: where a workload that sets no namespace is expected to be applied.
 */
export function bindingNamespacesOf(all: any[], saName: string, namespaceOption?: string): string[] {
  const found = new Set<string>();
  for (const key of indexOf(all, namespaceOption).bySubject.keys()) {
    const m = /^sa:(.*)\/([^/]*)$/.exec(key);
    if (m && m[2] === saName && m[1] !== UNKNOWN_NAMESPACE) found.add(m[1]);
  }
  return [...found].sort();
}
