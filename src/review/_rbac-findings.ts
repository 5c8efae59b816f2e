// Internal: the RBAC findings of one workload, computed once and shared by the RBAC rules (each takes its own). One
// cause, one finding: each right is reported once, at the highest severity any binding gives it, naming that binding
// and role (the others that grant it too are listed); a rule that grants everything (* on *) is one finding, not one
// per right it includes.
import { UNKNOWN_NAMESPACE, describeNamespace, resolverOf, sourceNote } from './_namespace';
import { BUILT_IN_VERSION, BindingGrant, SourcedRule, allowedVerbs, bindingNamespacesOf, enforcedLevel, grantsTo, podHoldsToken } from './_rbac';
import { RULE_CLUSTER_ADMIN, RULE_WILDCARD, RightContext, RightHit, Scope, rightsOf, wildcard } from './_rbac-rights';
import { traffic } from './_rbac-traffic';
import { namespaceKey, serviceAccountField, serviceAccountLabel, serviceAccountName } from './_workload';
import { RuleViolation, WorkloadContext } from './review-rule';
import { Severities } from './severity';

interface Attributed extends RightHit {
  readonly scope: Scope;
  /** `ClusterRoleBinding x binds it to ClusterRole y, rules[2]`. */
  readonly source: string;
  /** `ClusterRoleBinding x → ClusterRole y`, to list the other grants of a right. */
  readonly short: string;
}

interface Outcome {
  readonly value?: Map<string, RuleViolation[]>;
  readonly error?: unknown;
}

const memos = new WeakMap<object, Outcome>();

function scopeOf(grant: BindingGrant): Scope {
  return grant.bindingKind === 'ClusterRoleBinding' ? { cluster: true } : { cluster: false, namespace: grant.bindingNamespace };
}

function covers(outer: Scope, inner: Scope): boolean {
  return outer.cluster || (!inner.cluster && outer.namespace === inner.namespace);
}

function boundRole(grant: BindingGrant): string {
  return grant.builtIn ? `built-in ClusterRole ${grant.roleName} (as Kubernetes ${BUILT_IN_VERSION} defines it)` : `${grant.roleKind} ${grant.roleName}`;
}

function bindingLabel(ctx: WorkloadContext, grant: BindingGrant): string {
  if (grant.bindingKind !== 'RoleBinding') return `${grant.bindingKind} ${grant.bindingName}`;
  const resolved = resolverOf(ctx.allManifests, ctx.options.namespace).resolve(grant.binding);
  return `RoleBinding ${grant.bindingName} in ${describeNamespace(grant.bindingNamespace!)}${sourceNote(resolved.source)}`;
}

function sourceOf(ctx: WorkloadContext, grant: BindingGrant, r: SourcedRule): string {
  const via = grant.via.startsWith('ServiceAccount ') ? '' : `, as ${grant.via},`;
  const own = grant.builtIn ? `built-in ClusterRole ${grant.roleName}` : `${grant.roleKind} ${grant.roleName}`;
  const rule = r.role === own ? `, rules[${r.index}]` : `, whose aggregationRule selects ${r.role}: its rules[${r.index}]`;
  return `${bindingLabel(ctx, grant)} binds it${via} to ${boundRole(grant)}${rule}`;
}

const crdMemo = new WeakMap<object, Map<string, string[]>>();

/**
 * The CRDs among the manifests, as plural resource names by API group (for what a `*` in a group covers); computed
 * once per set of manifests, not once per workload (which made the review quadratic in the number of objects).
 */
function crdsOf(all: any[]): Map<string, string[]> {
  const memo = crdMemo.get(all);
  if (memo) return memo;
  const crds = new Map<string, string[]>();
  crdMemo.set(all, crds);
  for (const m of all) {
    if (m?.kind !== 'CustomResourceDefinition' || typeof m?.spec?.group !== 'string' || typeof m?.spec?.names?.plural !== 'string') continue;
    crds.set(m.spec.group, [...(crds.get(m.spec.group) ?? []), m.spec.names.plural]);
  }
  return crds;
}

/**
 * Whether `a` is the grant a finding names rather than `b`: the higher severity, then cluster-wide, then not limited by
 * resourceNames, then the broader, then by its binding, role and rule (`source`): never by the order of the documents,
 * so that the same manifests give the same evidence however they are ordered.
 */
function better(a: Attributed, b: Attributed): boolean {
  const bySeverity = Severities.rank(a.severity) - Severities.rank(b.severity);
  if (bySeverity !== 0) return bySeverity > 0;
  if (a.scope.cluster !== b.scope.cluster) return a.scope.cluster;
  if (a.limited !== b.limited) return !a.limited;
  if ((a.breadth ?? 0) !== (b.breadth ?? 0)) return (a.breadth ?? 0) > (b.breadth ?? 0);
  return a.source < b.source;
}

function compute(ctx: WorkloadContext): Map<string, RuleViolation[]> {
  const option = ctx.options.namespace;
  // a workload that sets no namespace, whose ServiceAccount the bindings name in one namespace: judged as applied there,
  // which each finding says (kubectl applies it to the context's namespace, which the manifests do not know)
  let namespace = namespaceKey(ctx);
  let assumed = '';
  if (namespace === UNKNOWN_NAMESPACE) {
    const expected = bindingNamespacesOf(ctx.allManifests, serviceAccountName(ctx), option);
    if (expected.length === 1) {
      namespace = expected[0];
      assumed = `if applied in namespace ${namespace}, as the bindings of its ServiceAccount expect, `;
    }
  }
  const grants = grantsTo(ctx.allManifests, serviceAccountName(ctx), namespace, option);
  const held = grants.flatMap((g) => g.rules.map((r) => ({ scope: scopeOf(g), rule: r.rule })));
  const rightContext: RightContext = {
    holds: (group, resource, verbs, scope) => held.some((h) => covers(h.scope, scope) && allowedVerbs(h.rule, group, resource, verbs) !== undefined),
    enforced: (ns) => enforcedLevel(ctx.allManifests, ns, option),
    workloadKind: ctx.kind,
    workloadName: ctx.name,
    workloadNamespace: namespace,
  };
  const crds = crdsOf(ctx.allManifests);
  const hits: Attributed[] = [];
  for (const grant of grants) {
    const scope = scopeOf(grant);
    for (const r of grant.rules) {
      let found = [...rightsOf(r.rule, scope, rightContext), ...traffic(r.rule, scope)];
      if (found.length === 0) found = wildcard(r.rule, scope, crds, `${r.role} rules[${r.index}]`);
      const source = sourceOf(ctx, grant, r);
      const short = `${bindingLabel(ctx, grant)} → ${boundRole(grant)}`;
      // a right granted through a * resource is removed by naming the resources, not by removing what is not written
      const starred = r.rule.resources.filter((x) => x === '*' || x.startsWith('*/'));
      for (const hit of found) {
        const fix = starred.length > 0 && hit.rule !== RULE_CLUSTER_ADMIN && hit.rule !== RULE_WILDCARD
          ? `replace ${starred.join(', ')} in the rule's resources with the resources the agent uses; then: ${hit.fix}` : hit.fix;
        hits.push({ ...hit, fix, scope, source, short });
      }
    }
  }
  // a grant of everything includes every other right in its scope: one finding
  const everything = hits.filter((h) => h.rule === RULE_CLUSTER_ADMIN).map((h) => h.scope);
  const kept = hits.filter((h) => h.rule === RULE_CLUSTER_ADMIN || !everything.some((s) => covers(s, h.scope)));
  // one finding per right: the highest severity, naming its binding and role
  const byRight = new Map<string, Attributed[]>();
  for (const h of kept) {
    const key = `${h.rule}\u0000${h.key}`;
    byRight.set(key, [...(byRight.get(key) ?? []), h]);
  }
  const subject = serviceAccountLabel(ctx);
  // the right is the ServiceAccount's: a pod that mounts no token of it does not hold it, whoever else runs as it does
  const noToken = podHoldsToken(ctx, serviceAccountName(ctx), namespace) ? ''
    : '; this workload\'s pods mount no token of it (automountServiceAccountToken: false, no projected token), so they do not hold the right: ' +
      'other pods and tokens of the ServiceAccount do';
  const field = serviceAccountField(ctx);
  const result = new Map<string, RuleViolation[]>();
  for (const group of byRight.values()) {
    const best = group.reduce((a, b) => (better(b, a) ? b : a));
    const others = [...new Set(group.filter((h) => h.short !== best.short).map((h) => h.short))].sort();
    const also = others.length === 0 ? '' : `; also granted by ${others.slice(0, 3).join(', ')}${others.length > 3 ? ` and ${others.length - 3} more` : ''}`;
    const message = `${assumed}${subject} ${best.what}: ${best.source}${also}${noToken}`;
    const violation: RuleViolation = { message, field, severity: best.severity, fix: best.fix };
    result.set(best.rule, [...(result.get(best.rule) ?? []), violation]);
  }
  return result;
}

/**
 * The violations of one RBAC rule for the workload's ServiceAccount.
 *
 * @throws when the RBAC among the manifests cannot be read (a binding's subjects or roleRef, a role's rules)
 */
export function rbacViolations(ctx: WorkloadContext, rule: string): RuleViolation[] {
  let outcome = memos.get(ctx);
  if (!outcome) {
    try {
      outcome = { value: compute(ctx) };
    } catch (error) {
      outcome = { error: error ?? new Error('RBAC evaluation failed') };
    }
    memos.set(ctx, outcome);
  }
  if (outcome.error !== undefined) throw outcome.error;
  return outcome.value!.get(rule) ?? [];
}
