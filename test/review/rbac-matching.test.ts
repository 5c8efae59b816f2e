import { agent, binding, rbac, rbacFindings, saSubject } from './util';
import { PolicyRule, allowedVerbs } from '../../src/review/_rbac';

// How a policy rule matches a request, as Kubernetes' RBAC authorizer decides it (RuleAllows,
// plugin/pkg/auth/authorizer/rbac/rbac.go, and the helpers of pkg/apis/rbac/v1/evaluation_helpers.go). The first cases
// are transcribed from TestRuleMatches in plugin/pkg/auth/authorizer/rbac/rbac_test.go (k8s.io/kubernetes v1.37.2).

function rule(verbs: string[], apiGroups: string[], resources: string[], resourceNames: string[] = []): PolicyRule {
  return { verbs, apiGroups, resources, resourceNames, nonResourceURLs: [] };
}

/** whether the rule allows the request verb/group/resource, for some name (allowedVerbs leaves names to the caller). */
function allows(r: PolicyRule, verb: string, group: string, resource: string): boolean {
  return allowedVerbs(r, group, resource, [verb]) !== undefined;
}

describe('RBAC rule matching (TestRuleMatches, k8s.io/kubernetes v1.37.2)', () => {
  const cases: Array<{ name: string; rule: PolicyRule; requests: Array<[string, string, string, boolean]> }> = [
    {
      name: 'star verb, exact match other',
      rule: rule(['*'], ['group1'], ['resource1']),
      requests: [
        ['verb1', 'group1', 'resource1', true], ['verb1', 'group2', 'resource1', false], ['verb1', 'group1', 'resource2', false],
        ['verb1', 'group2', 'resource2', false], ['verb2', 'group1', 'resource1', true], ['verb2', 'group2', 'resource1', false],
        ['verb2', 'group1', 'resource2', false], ['verb2', 'group2', 'resource2', false],
      ],
    },
    {
      name: 'star group, exact match other',
      rule: rule(['verb1'], ['*'], ['resource1']),
      requests: [
        ['verb1', 'group1', 'resource1', true], ['verb1', 'group2', 'resource1', true], ['verb1', 'group1', 'resource2', false],
        ['verb1', 'group2', 'resource2', false], ['verb2', 'group1', 'resource1', false], ['verb2', 'group2', 'resource1', false],
        ['verb2', 'group1', 'resource2', false], ['verb2', 'group2', 'resource2', false],
      ],
    },
    {
      name: 'star resource, exact match other',
      rule: rule(['verb1'], ['group1'], ['*']),
      requests: [
        ['verb1', 'group1', 'resource1', true], ['verb1', 'group2', 'resource1', false], ['verb1', 'group1', 'resource2', true],
        ['verb1', 'group2', 'resource2', false], ['verb2', 'group1', 'resource1', false], ['verb2', 'group2', 'resource1', false],
        ['verb2', 'group1', 'resource2', false], ['verb2', 'group2', 'resource2', false],
      ],
    },
    {
      name: 'tuple expansion',
      rule: rule(['verb1', 'verb2'], ['group1', 'group2'], ['resource1', 'resource2']),
      requests: [
        ['verb1', 'group1', 'resource1', true], ['verb1', 'group2', 'resource1', true], ['verb1', 'group1', 'resource2', true],
        ['verb1', 'group2', 'resource2', true], ['verb2', 'group1', 'resource1', true], ['verb2', 'group2', 'resource1', true],
        ['verb2', 'group1', 'resource2', true], ['verb2', 'group2', 'resource2', true],
      ],
    },
    {
      name: 'subresource expansion',
      rule: rule(['*'], ['*'], ['resource1/subresource1']),
      requests: [
        ['verb1', 'group1', 'resource1/subresource1', true], ['verb1', 'group2', 'resource1/subresource2', false],
        ['verb1', 'group1', 'resource2/subresource1', false], ['verb1', 'group2', 'resource2/subresource1', false],
        ['verb2', 'group1', 'resource1/subresource1', true], ['verb2', 'group2', 'resource1/subresource2', false],
        ['verb2', 'group1', 'resource2/subresource1', false], ['verb2', 'group2', 'resource2/subresource1', false],
      ],
    },
  ];
  test.each(cases)('$name', ({ rule: r, requests }) => {
    for (const [verb, group, resource, expected] of requests) {
      expect([verb, group, resource, allows(r, verb, group, resource)]).toEqual([verb, group, resource, expected]);
    }
  });
});

describe('RBAC rule matching: what a scanner must not assume', () => {
  test('a * resource in a named group matches only that group: never the core group\'s secrets', () => {
    const multus = rule(['*'], ['k8s.cni.cncf.io'], ['*']);
    expect(allows(multus, 'get', '', 'secrets')).toBe(false);
    expect(allows(multus, 'get', 'k8s.cni.cncf.io', 'network-attachment-definitions')).toBe(true);
    expect(allows(rule(['get'], ['*'], ['*']), 'get', '', 'secrets')).toBe(true);
  });

  test('* matches subresources; */sub matches that subresource of every resource; pods/* is no wildcard', () => {
    expect(allows(rule(['get'], [''], ['*']), 'get', '', 'pods/exec')).toBe(true);
    expect(allows(rule(['get'], [''], ['*/proxy']), 'get', '', 'nodes/proxy')).toBe(true);
    expect(allows(rule(['get'], [''], ['*/proxy']), 'get', '', 'nodes')).toBe(false);
    expect(allows(rule(['get'], [''], ['nodes/*']), 'get', '', 'nodes/proxy')).toBe(false);
    expect(allows(rule(['get'], [''], ['pods']), 'get', '', 'pods/exec')).toBe(false);
  });

  test('resourceNames limit a rule to named objects, and a request without a name (create, deletecollection) never matches them', () => {
    const named = rule(['create', 'update', 'deletecollection', 'get'], ['apps'], ['daemonsets'], ['kured']);
    expect(allowedVerbs(named, 'apps', 'daemonsets', ['create', 'update', 'deletecollection', 'get'])).toEqual({ verbs: ['update', 'get'], names: ['kured'] });
    // a subresource request carries its parent's name: create on serviceaccounts/token can be limited by name
    expect(allowedVerbs(rule(['create'], [''], ['serviceaccounts/token'], ['calico-cni-plugin']), '', 'serviceaccounts/token', ['create']))
      .toEqual({ verbs: ['create'], names: ['calico-cni-plugin'] });
    expect(allowedVerbs(rule(['create'], [''], ['secrets'], ['x']), '', 'secrets', ['create'])).toBeUndefined();
  });
});

describe('RBAC objects as the API server decodes them', () => {
  const bind = (b: any = binding('ClusterRoleBinding', 'b', { kind: 'ClusterRole', name: 'r' }, [saSubject()])) => b;

  test('a verb that is a number is refused, naming the field, never read as the verb "1"', () => {
    const findings = rbacFindings([agent(), rbac('ClusterRole', 'r', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 1] }]), bind()]);
    expect(findings.map((f) => f.message)).toEqual([expect.stringContaining(
      'could not evaluate it: ClusterRole r: rules[0].verbs[1] must be a string, got 1 (the API server rejects this role): quote it ("1")')]);
  });

  test('a subject whose name is a number is refused, not skipped', () => {
    const b = binding('ClusterRoleBinding', 'b', { kind: 'ClusterRole', name: 'r' }, [{ kind: 'ServiceAccount', name: 7, namespace: 'observability' }]);
    const findings = rbacFindings([agent(), rbac('ClusterRole', 'r', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), bind(b)]);
    expect(findings.map((f) => f.message)).toEqual([expect.stringContaining(
      'could not evaluate it: ClusterRoleBinding b: subjects[0].name must be a string, got 7 (the API server rejects this binding)')]);
  });
});
