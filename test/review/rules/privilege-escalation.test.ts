import { PrivilegeEscalationRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, goodContainer } from '../util';

const rule = new PrivilegeEscalationRule();

describe('NA-PRIVILEGE-ESCALATION: Containers set allowPrivilegeEscalation: false', () => {
  test('Noncompliance 1: not set', () => {
    const findings = findingsOf(rule, [agentWithContainer({ securityContext: {} })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.MEDIUM, container: 'agent', field: 'spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation' });
    expect(findings[0].message).toContain('does not set allowPrivilegeEscalation: false');
  });

  test('Noncompliance 2: true, on an ephemeral container', () => {
    const ds = agent({ ephemeralContainers: [{ name: 'debug', image: 'busybox:1.36', securityContext: { allowPrivilegeEscalation: true } }] });
    expect(findingsOf(rule, [ds]).map((f) => [f.container, f.field, f.message.includes('sets allowPrivilegeEscalation: true')])).toEqual([
      ['debug', 'spec.template.spec.ephemeralContainers[0].securityContext.allowPrivilegeEscalation', true],
    ]);
  });

  test('Compliance: false everywhere', () => {
    expect(findingsOf(rule, [agent({ initContainers: [goodContainer({ name: 'init' })] })])).toEqual([]);
  });
});
