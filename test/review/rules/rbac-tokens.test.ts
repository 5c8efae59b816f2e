import { RbacTokensRule, Severity } from '../../../src/review';
import { boundCluster, boundInNamespace, findingsOf } from '../util';

const rule = new RbacTokensRule();
const TOKEN = { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] };

describe('NA-RBAC-TOKENS: the ServiceAccount cannot mint tokens for other ServiceAccounts', () => {
  test('Noncompliance 1: cluster-wide or in kube-system critical, in another namespace high', () => {
    const cluster = findingsOf(rule, boundCluster([TOKEN]));
    expect(cluster.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(cluster[0].message).toContain('can mint API tokens for every ServiceAccount cluster-wide (create on serviceaccounts/token): it holds the ' +
      'rights of each, the most privileged included');
    expect(findingsOf(rule, boundInNamespace('kube-system', [TOKEN])).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findingsOf(rule, boundInNamespace('observability', [TOKEN])).map((f) => f.severity)).toEqual([Severity.HIGH]);
  });

  test('Noncompliance 2: limited by resourceNames (calico-node minting its CNI plugin\'s token) it is medium, and names the accounts', () => {
    const findings = findingsOf(rule, boundCluster([{ ...TOKEN, resourceNames: ['calico-cni-plugin'] }]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.MEDIUM]);
    expect(findings[0].message).toContain('can mint API tokens for the ServiceAccounts named "calico-cni-plugin" cluster-wide (create on ' +
      'serviceaccounts/token, limited by resourceNames): it holds their rights');
    expect(findings[0].fix).toBe('keep the RBAC of the named ServiceAccounts minimal and acknowledge the finding with that reason');
  });

  test('Compliance: reading ServiceAccounts', () => {
    expect(findingsOf(rule, boundCluster([{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['get', 'list'] }]))).toEqual([]);
  });
});
