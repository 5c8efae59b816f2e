import { grantsTo } from '../_rbac';
import { effectiveNamespace, list, serviceAccountField, serviceAccountName } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/** built-in ClusterRoles that are broad by design, for bindings whose role is not among the manifests. */
const BUILT_IN: { [name: string]: string } = {
  'cluster-admin': 'every verb on every resource',
  'admin': 'read and write access to Secrets and to most namespaced resources, RoleBindings included',
  'edit': 'read and write access to Secrets and to most namespaced resources',
};

const ESCALATING_VERBS = ['escalate', 'bind', 'impersonate'];

function grantsCoreGroup(apiGroups: string[]): boolean {
  return apiGroups.length === 0 || apiGroups.includes('') || apiGroups.includes('*');
}

/**
 * `NA-RBAC-BROAD`: the Roles and ClusterRoles bound to the workload's ServiceAccount (among the reviewed manifests) grant
 * no wildcard verbs or resources, no access to Secrets, no `escalate`/`bind`/`impersonate` and no `nodes/proxy`.
 *
 * Part of the node-agent baseline, minimal RBAC: node agents read pods and namespaces and, at most, patch their node.
 */
export class RbacBroadRule implements IReviewRule {
  public readonly id = 'NA-RBAC-BROAD';
  public readonly severity = Severity.HIGH;
  public readonly title = 'RBAC bound to the workload\'s ServiceAccount is minimal';
  public readonly explanation = 'A node agent runs on every node, so its token is on every node: whoever escapes any one of its pods holds ' +
    'its RBAC. Wildcards grant whatever the API adds later; Secrets access reads every credential in scope; escalate, bind and ' +
    'impersonate let the holder grant itself more; nodes/proxy reaches the kubelet API, which runs commands in any pod on the node. ' +
    'The rule checks the RoleBindings and ClusterRoleBindings among the reviewed manifests that name the ServiceAccount (or the ' +
    'system:serviceaccounts groups), and the built-in cluster-admin, admin and edit roles.';
  public readonly fix = 'list the exact verbs and resources the agent uses (node agents usually need get, list, watch on pods, namespaces ' +
    'or nodes); read secrets through a mounted volume instead of the API; never grant escalate, bind, impersonate or nodes/proxy to an agent';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const sa = serviceAccountName(workload);
    const ns = effectiveNamespace(workload);
    const field = serviceAccountField(workload);
    const violations: RuleViolation[] = [];
    for (const grant of grantsTo(workload.allManifests, sa, ns)) {
      const prefix = `ServiceAccount ${ns}/${sa} is bound (as ${grant.via}) by ${grant.bindingKind} ${grant.bindingName} to ${grant.roleKind} ${grant.roleName}`;
      if (!grant.role) {
        if (grant.roleKind === 'ClusterRole' && Object.prototype.hasOwnProperty.call(BUILT_IN, grant.roleName)) {
          violations.push({ message: `${prefix}, the built-in role that grants ${BUILT_IN[grant.roleName]}`, field });
        }
        continue;
      }
      const where = `${grant.roleKind} ${grant.roleName}`;
      list(grant.role.rules, `${where}: rules`).forEach((rule: any, i: number) => {
        const verbs = list(rule?.verbs, `${where}: rules[${i}].verbs`).map(String);
        const resources = list(rule?.resources, `${where}: rules[${i}].resources`).map(String);
        const apiGroups = list(rule?.apiGroups, `${where}: rules[${i}].apiGroups`).map(String);
        const problems: string[] = [];
        if (verbs.includes('*')) problems.push('every verb ("*")');
        if (resources.includes('*')) {
          problems.push('every resource ("*"), Secrets included');
        } else if (grantsCoreGroup(apiGroups) && resources.some((r) => r === 'secrets' || r.startsWith('secrets/'))) {
          problems.push(`access to secrets (${verbs.join(', ')})`);
        }
        const escalating = verbs.filter((v) => ESCALATING_VERBS.includes(v));
        if (escalating.length > 0) problems.push(`the ${escalating.join(', ')} ${escalating.length === 1 ? 'verb' : 'verbs'}`);
        if (resources.some((r) => r === 'nodes/proxy' || r === 'nodes/*')) problems.push('nodes/proxy (the kubelet API: commands in any pod on the node)');
        if (problems.length === 0) return;
        violations.push({
          message: `${prefix}, whose rules[${i}] (verbs ${verbs.join(', ') || '-'} on ${resources.join(', ') || '-'}) grants ${problems.join('; ')}`,
          field,
        });
      });
    }
    return violations;
  }
}
