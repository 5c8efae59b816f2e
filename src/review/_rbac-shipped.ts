// Internal: the dangerous Roles and ClusterRoles the manifests ship that none of their workloads holds (bound to other
// subjects, or bound by nothing among them). The workloads' own rights are their RBAC findings; these are rights the
// manifests install for someone else: what each grants, that whoever it is bound to gets it, and whom the manifests bind
// it to. Computed once per set of manifests. Each is reported on the workloads of the namespaces it is bound into (its
// bindings' ServiceAccounts' and RoleBindings' namespaces, a Role's own), or on every workload when no workload is there
// or it names none (an unbound ClusterRole, Group and User subjects): N copies of a chart, each bound in its own
// namespace, give N findings, not N squared.
import { UNKNOWN_NAMESPACE, describeNamespace, resolverOf } from './_namespace';
import { ShippedRole, allowedVerbs, bindingNamespacesOf, enforcedLevel, grantsTo, shippedRoles } from './_rbac';
import { RightContext, RightHit, Scope, rightsOf } from './_rbac-rights';
import { traffic } from './_rbac-traffic';
import { POD_SPEC_PATHS, list, namespaceKey } from './_workload';
import { RuleViolation, WorkloadContext } from './review-rule';
import { Severities, Severity } from './severity';

export const RULE_SHIPPED_ROLE = 'NA-RBAC-SHIPPED-ROLE';

/** a shipped role's finding, and the namespaces whose workloads carry it (undefined: every workload). */
interface Shipped {
  readonly violation: RuleViolation;
  readonly namespaces?: Set<string>;
}

interface Outcome {
  readonly value?: Shipped[];
  readonly error?: unknown;
}

const memos = new WeakMap<object, Outcome>();

/**
 * The ServiceAccounts the workloads among the manifests run as, with their namespace keys; a workload that sets no
 * namespace as each namespace its ServiceAccount's bindings name (applied there, it holds what they bind).
 */
function workloadAccounts(all: any[], option?: string): Array<{ name: string; namespace: string }> {
  const resolver = resolverOf(all, option);
  return all.filter((m) => typeof m?.kind === 'string' && Object.prototype.hasOwnProperty.call(POD_SPEC_PATHS, m.kind)).flatMap((m) => {
    let spec: any = m;
    for (const step of POD_SPEC_PATHS[m.kind]) spec = spec?.[step];
    const raw = spec?.serviceAccountName ?? spec?.serviceAccount;
    const name = typeof raw === 'string' && raw !== '' ? raw : 'default';
    const namespace = resolver.keyOf(m);
    if (namespace !== UNKNOWN_NAMESPACE) return [{ name, namespace }];
    return [namespace, ...bindingNamespacesOf(all, name, option)].map((ns) => ({ name, namespace: ns }));
  });
}

function roleKey(kind: string, name: string, namespace?: string): string {
  return kind === 'Role' ? `Role ${namespace}/${name}` : `ClusterRole ${name}`;
}

/** the roles some workload among the manifests holds: bound to its ServiceAccount, or aggregated into a ClusterRole it holds. */
function heldRoles(all: any[], option?: string): Set<string> {
  const held = new Set<string>();
  for (const sa of workloadAccounts(all, option)) {
    for (const g of grantsTo(all, sa.name, sa.namespace, option)) {
      held.add(roleKey(g.roleKind, g.roleName, g.bindingNamespace));
      for (const a of g.aggregates ?? []) if (!a.startsWith('built-in ')) held.add(a);
    }
  }
  return held;
}

interface Binding {
  readonly label: string;
  readonly scope: Scope;
  readonly subjects: string;
  /** the namespaces of its ServiceAccount subjects and, for a RoleBinding, its own; empty when it names only users and groups. */
  readonly namespaces: string[];
}

/** the bindings among the manifests by the role their roleRef names (roleKey), in manifest order: one pass over them. */
function bindingsByRole(all: any[], option?: string): Map<string, Binding[]> {
  const resolver = resolverOf(all, option);
  const out = new Map<string, Binding[]>();
  for (const m of all) {
    const cluster = m?.kind === 'ClusterRoleBinding';
    if ((!cluster && m?.kind !== 'RoleBinding') || typeof m?.apiVersion !== 'string' || !m.apiVersion.startsWith('rbac.authorization.k8s.io/')) continue;
    const namespace = cluster ? undefined : resolver.keyOf(m);
    const namespaces = namespace === undefined || namespace === UNKNOWN_NAMESPACE ? [] : [namespace];
    const subjects = list(m.subjects, `${m.kind} ${m.metadata?.name}: subjects`).map((s: any) => {
      if (s?.kind !== 'ServiceAccount') return `${s?.kind} ${s?.name}`;
      const ns = typeof s.namespace === 'string' && s.namespace !== '' ? s.namespace : namespace;
      if (ns !== undefined && ns !== UNKNOWN_NAMESPACE) namespaces.push(ns);
      return `ServiceAccount ${ns === undefined || ns === UNKNOWN_NAMESPACE ? s.name : `${ns}/${s.name}`}`;
    });
    const label = cluster ? `ClusterRoleBinding ${m.metadata?.name}` : `RoleBinding ${m.metadata?.name} in ${describeNamespace(namespace!)}`;
    const key = roleKey(String(m.roleRef?.kind), String(m.roleRef?.name), namespace);
    const binding: Binding = {
      label, scope: cluster ? { cluster: true } : { cluster: false, namespace }, subjects: subjects.length > 0 ? subjects.join(', ') : 'no subject', namespaces,
    };
    const known = out.get(key);
    if (known) known.push(binding);
    else out.set(key, [binding]);
  }
  return out;
}

/** one step lower: a right nothing holds until someone binds the role. */
function lower(s: Severity): Severity {
  return s === Severity.CRITICAL ? Severity.HIGH : s === Severity.HIGH ? Severity.MEDIUM : Severity.LOW;
}

function judge(all: any[], role: ShippedRole, bindings: Binding[], option?: string): RuleViolation | undefined {
  // unbound: judged where a binding of it would grant it (a ClusterRole cluster-wide, a Role in its namespace)
  const scopes: Scope[] = bindings.length > 0 ? bindings.map((b) => b.scope) : [role.kind === 'ClusterRole' ? { cluster: true } : { cluster: false, namespace: role.namespace }];
  const best = new Map<string, RightHit>();
  for (const scope of scopes) {
    const ctx: RightContext = {
      holds: (group, resource, verbs) => role.rules.some((r) => allowedVerbs(r.rule, group, resource, verbs) !== undefined),
      enforced: (ns) => enforcedLevel(all, ns, option),
      workloadKind: '',
      workloadName: '',
      workloadNamespace: '',
    };
    for (const r of role.rules) {
      for (const hit of [...rightsOf(r.rule, scope, ctx), ...traffic(r.rule, scope)]) {
        const key = `${hit.rule}\u0000${hit.key}`;
        const prior = best.get(key);
        if (!prior || Severities.rank(hit.severity) > Severities.rank(prior.severity)) best.set(key, hit);
      }
    }
  }
  if (best.size === 0) return undefined;
  const hits = [...best.values()].sort((a, b) => Severities.rank(b.severity) - Severities.rank(a.severity));
  const top = hits[0].severity;
  const label = role.kind === 'Role' ? `Role ${role.name} in ${describeNamespace(role.namespace ?? UNKNOWN_NAMESPACE)}` : `ClusterRole ${role.name}`;
  const rights = hits.map((h) => `${h.what} [${h.rule}]`).join('; ');
  const bound = bindings.length > 0
    ? `these manifests bind it with ${bindings.map((b) => `${b.label} to ${b.subjects}`).join('; ')}, none of them a ServiceAccount a workload here runs as`
    : `no binding among these manifests binds it: it grants this to whatever binding the cluster has or gets${role.kind === 'ClusterRole' ? ' (as a ClusterRoleBinding would, judged cluster-wide)' : ''}`;
  const aggregated = role.aggregatedInto.length > 0 ? `; ${role.aggregatedInto.join(', ')} aggregate${role.aggregatedInto.length === 1 ? 's' : ''} it: whoever holds ${role.aggregatedInto.length === 1 ? 'that role' : 'those roles'} gets it too` : '';
  return {
    message: `these manifests ship ${label}, which gives whoever it is bound to these rights: ${rights}; ${bound}${aggregated}. ` +
      'It is not this workload\'s right: its own are its other RBAC findings',
    severity: bindings.length > 0 || role.aggregatedInto.length > 0 ? top : lower(top),
    fix: bindings.length > 0
      ? 'check that the subjects named are the ones meant to hold these rights (a ServiceAccount no workload here runs as is often a misspelt binding), ' +
        'and acknowledge the finding with that reason; otherwise remove the role or its rules'
      : 'remove the role if nothing is meant to hold it; otherwise ship the binding that grants it, to the subject that needs it',
  };
}

/** the namespaces whose workloads carry a role's finding; undefined when every workload does. */
function homeOf(role: ShippedRole, bindings: Binding[], workloadNamespaces: Set<string>): Set<string> | undefined {
  const named = new Set(role.kind === 'Role' && role.namespace !== undefined ? [role.namespace] : bindings.flatMap((b) => b.namespaces));
  return [...named].some((ns) => workloadNamespaces.has(ns)) ? named : undefined;
}

/**
 * The violations of NA-RBAC-SHIPPED-ROLE for one workload: one per dangerous role among the manifests that no workload
 * among them holds, reported where it is bound (see above).
 *
 * @throws when the RBAC among the manifests cannot be read
 */
export function shippedRoleViolations(ctx: WorkloadContext): RuleViolation[] {
  const all = ctx.allManifests;
  let outcome = memos.get(all);
  if (!outcome) {
    try {
      const option = ctx.options.namespace;
      const held = heldRoles(all, option);
      const bindings = bindingsByRole(all, option);
      const workloadNamespaces = new Set(workloadAccounts(all, option).map((a) => a.namespace));
      const value: Shipped[] = [];
      for (const role of shippedRoles(all, option)) {
        const key = roleKey(role.kind, role.name, role.namespace);
        if (held.has(key)) continue;
        const violation = judge(all, role, bindings.get(key) ?? [], option);
        if (violation) value.push({ violation, namespaces: homeOf(role, bindings.get(key) ?? [], workloadNamespaces) });
      }
      outcome = { value };
    } catch (error) {
      outcome = { error: error ?? new Error('RBAC evaluation failed') };
    }
    memos.set(all, outcome);
  }
  if (outcome.error !== undefined) throw outcome.error;
  const namespace = namespaceKey(ctx);
  const carries = (x: Shipped) => x.namespaces === undefined || namespace === UNKNOWN_NAMESPACE || x.namespaces.has(namespace);
  return outcome.value!.filter(carries).map((x) => x.violation);
}
