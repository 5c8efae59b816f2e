import { agent, binding, rbac, rbacFindings, rulesAndSeverities, saSubject } from './util';
import { Severity } from '../../src/review';

// ClusterRoles with an aggregationRule hold the rules of every other ClusterRole their label selectors match, as the
// clusterrole-aggregation controller (pkg/controller/clusterroleaggregation) sets them: the selectors are
// metav1.LabelSelectors (matchLabels and matchExpressions), `{}` matches every ClusterRole, and the role's own rules are
// replaced.

const READ_SECRETS = { apiGroups: [''], resources: ['secrets'], verbs: ['get'] };

function labelled(name: string, labels: { [k: string]: string }, rules: any[]): any {
  const role = rbac('ClusterRole', name, rules);
  role.metadata.labels = labels;
  return role;
}

function aggregated(selectors: any[], ownRules: any[] = []): any {
  return { ...rbac('ClusterRole', 'agent-aggregate', ownRules), aggregationRule: { clusterRoleSelectors: selectors } };
}

function bound(...roles: any[]): any[] {
  return [agent(), ...roles, binding('ClusterRoleBinding', 'agent', { kind: 'ClusterRole', name: 'agent-aggregate' }, [saSubject()])];
}

describe('aggregated ClusterRoles', () => {
  test('matchLabels: the selected role\'s rules are judged, named through the aggregating role', () => {
    const findings = rbacFindings(bound(aggregated([{ matchLabels: { 'example.com/aggregate-to-agent': 'true' } }]),
      labelled('secrets-part', { 'example.com/aggregate-to-agent': 'true' }, [READ_SECRETS])));
    expect(rulesAndSeverities(findings)).toEqual(['NA-RBAC-SECRETS:critical']);
    expect(findings[0].message).toContain('ClusterRoleBinding agent binds it to ClusterRole agent-aggregate, whose aggregationRule selects ' +
      'ClusterRole secrets-part: its rules[0]');
  });

  test('matchExpressions In, NotIn, Exists, DoesNotExist, every term of a selector holding; the role\'s own rules are replaced', () => {
    const parts = [
      labelled('a', { tier: 'agent', team: 'net' }, [READ_SECRETS]),
      labelled('b', { tier: 'agent', team: 'storage' }, [{ apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] }]),
      labelled('c', { tier: 'agent', legacy: 'yes' }, [{ apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] }]),
    ];
    const findingsFor = (expressions: any[]) => rbacFindings(bound(aggregated([{ matchExpressions: expressions }],
      [{ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }]), ...parts));
    const rulesFor = (expressions: any[]) => findingsFor(expressions).map((f) => f.rule).filter((r) => r !== 'NA-RBAC-SHIPPED-ROLE').sort();
    // the parts the selector leaves out are roles the manifests ship that the workload does not hold
    const leftOut = (expressions: any[]) => findingsFor(expressions).filter((f) => f.rule === 'NA-RBAC-SHIPPED-ROLE')
      .map((f) => /ship ClusterRole (\S+),/.exec(f.message)?.[1]).sort();
    expect(rulesFor([{ key: 'team', operator: 'In', values: ['net'] }])).toEqual(['NA-RBAC-SECRETS']);
    expect(leftOut([{ key: 'team', operator: 'In', values: ['net'] }])).toEqual(['b', 'c']);
    expect(rulesFor([{ key: 'tier', operator: 'Exists' }, { key: 'team', operator: 'NotIn', values: ['net'] }])).toEqual(['NA-RBAC-EXEC', 'NA-RBAC-TOKENS']);
    expect(leftOut([{ key: 'tier', operator: 'Exists' }, { key: 'team', operator: 'NotIn', values: ['net'] }])).toEqual(['a']);
    expect(rulesFor([{ key: 'tier', operator: 'In', values: ['agent'] }, { key: 'legacy', operator: 'DoesNotExist' }])).toEqual(['NA-RBAC-EXEC', 'NA-RBAC-SECRETS']);
    expect(rulesFor([{ key: 'tier', operator: 'In', values: ['other'] }])).toEqual([]);
    expect(leftOut([{ key: 'tier', operator: 'In', values: ['other'] }])).toEqual(['a', 'b', 'c']);
  });

  test('an empty selector matches every ClusterRole, the built-in cluster-admin included', () => {
    const findings = rbacFindings(bound(aggregated([{}])));
    expect(rulesAndSeverities(findings)).toEqual(['NA-RBAC-CLUSTER-ADMIN:critical']);
    expect(findings[0].message).toContain('whose aggregationRule selects built-in ClusterRole cluster-admin: its rules[0]');
  });

  test('aggregation is transitive, and built-in roles aggregate as in a cluster: edit holds system:aggregate-to-edit\'s rights, one finding each', () => {
    const findings = rbacFindings([agent(), binding('RoleBinding', 'edit', { kind: 'ClusterRole', name: 'edit' }, [saSubject()], 'observability')]);
    expect(rulesAndSeverities(findings)).toEqual([
      'NA-RBAC-EXEC:critical', 'NA-RBAC-WORKLOADS:critical', 'NA-RBAC-ESCALATION:high', 'NA-RBAC-SECRETS:high', 'NA-RBAC-TOKENS:high',
      'NA-RBAC-TRAFFIC:high', // edit writes services (externalIPs: CVE-2020-8554); Endpoints writes left it in 1.22
    ]);
    expect(findings.find((f) => f.rule === 'NA-RBAC-SECRETS')!.message).toContain('RoleBinding edit in namespace observability binds it to ' +
      'built-in ClusterRole edit (as Kubernetes 1.37 defines it), whose aggregationRule selects built-in ClusterRole system:aggregate-to-edit: its rules[0]');
    // admin aggregates edit, which aggregates view: the RBAC writes of system:aggregate-to-admin come with it, and escalate/bind need none
    const admin = rbacFindings([agent(), binding('RoleBinding', 'admin', { kind: 'ClusterRole', name: 'admin' }, [saSubject()], 'observability')]);
    expect(admin.map((f) => f.rule)).toEqual(findings.map((f) => f.rule));
    expect(rbacFindings([agent(), binding('ClusterRoleBinding', 'view', { kind: 'ClusterRole', name: 'view' }, [saSubject()])])).toEqual([]);
  });

  test('an invalid selector is one error finding for all the RBAC rules, not one per rule', () => {
    const findings = rbacFindings(bound(aggregated([{ matchExpressions: [{ key: 'tier', operator: 'Equals', values: ['x'] }] }]),
      labelled('x', { tier: 'x' }, [READ_SECRETS])));
    expect(findings).toHaveLength(1);
    expect(findings[0].severity).toBe(Severity.CRITICAL);
    expect(findings[0].message).toMatch(/^DaemonSet observability\/node-agent: rules NA-RBAC-CLUSTER-ADMIN, NA-RBAC-SECRETS, .*, NA-RBAC-BROAD, NA-RBAC-SHIPPED-ROLE could not evaluate it: /);
    expect(findings[0].message).toContain('ClusterRole agent-aggregate: aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator must be one of ' +
      'In, NotIn, Exists, DoesNotExist, got "Equals" (the API server rejects this role)');
  });

  test('a rule the API server rejects is an error, not a silent pass', () => {
    const findings = rbacFindings([agent(), rbac('ClusterRole', 'bad', [{ resources: ['secrets'], verbs: ['get'] }]),
      binding('ClusterRoleBinding', 'bad', { kind: 'ClusterRole', name: 'bad' }, [saSubject()])]);
    expect(findings.map((f) => f.message)).toEqual([expect.stringContaining('ClusterRole bad: rules[0]: resource rules must supply at least one API group ' +
      '("" is the core group) (the API server rejects this role)')]);
  });
});
