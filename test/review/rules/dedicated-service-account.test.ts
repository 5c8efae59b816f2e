import { DedicatedServiceAccountRule, Severity } from '../../../src/review';
import { agent, findingsOf } from '../util';

const rule = new DedicatedServiceAccountRule();

describe('NA-SERVICE-ACCOUNT: The pod runs as a dedicated ServiceAccount', () => {
  test('Noncompliance 1: no serviceAccountName', () => {
    const findings = findingsOf(rule, [agent({ serviceAccountName: undefined })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.MEDIUM, field: 'spec.template.spec.serviceAccountName' });
    expect(findings[0].message).toContain('runs as the namespace\'s default ServiceAccount');
  });

  test('Noncompliance 2: serviceAccountName default, or the deprecated serviceAccount default', () => {
    expect(findingsOf(rule, [agent({ serviceAccountName: 'default' })])).toHaveLength(1);
    const deprecated = findingsOf(rule, [agent({ serviceAccountName: undefined, serviceAccount: 'default' })]);
    expect(deprecated.map((f) => f.field)).toEqual(['spec.template.spec.serviceAccount']);
  });

  test('Noncompliance 3: default without its token (automountServiceAccountToken: false) holds none of default\'s RBAC, and says so', () => {
    const [finding] = findingsOf(rule, [agent({ serviceAccountName: undefined, automountServiceAccountToken: false })]);
    expect(finding.message).toContain('it mounts no token of it: automountServiceAccountToken is false, so it holds none of the RBAC granted to default');
    const projected = { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } };
    const [withProjected] = findingsOf(rule, [agent({ serviceAccountName: undefined, automountServiceAccountToken: false, volumes: [projected] })]);
    expect(withProjected.message).not.toContain('mounts no token');
  });

  test('Compliance: a ServiceAccount of its own (the deprecated field counts too)', () => {
    expect(findingsOf(rule, [agent({ serviceAccountName: 'node-agent' })])).toEqual([]);
    expect(findingsOf(rule, [agent({ serviceAccountName: undefined, serviceAccount: 'node-agent' })])).toEqual([]);
  });
});
