import { PrivilegedContainerRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, goodContainer } from '../util';

const rule = new PrivilegedContainerRule();

describe('NA-PRIVILEGED: Containers are not privileged; capabilities are added instead', () => {
  test('Noncompliance 1: a privileged container', () => {
    const findings = findingsOf(rule, [agentWithContainer({ securityContext: { privileged: true } })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.CRITICAL, container: 'agent', field: 'spec.template.spec.containers[0].securityContext.privileged' });
    expect(findings[0].message).toContain('is privileged');
  });

  test('Noncompliance 2: a privileged init container, and a reason does not accept a critical finding', () => {
    const reasons = JSON.stringify([{ type: 'privileged', detail: 'loader', container: 'loader', reason: 'loads the kernel module' }]);
    const ds = agent({ initContainers: [{ name: 'loader', image: 'x:1', securityContext: { privileged: true } }] }, { annotations: { 'node-agents.cdk8s.io/host-access': reasons } });
    const findings = findingsOf(rule, [ds]);
    expect(findings.map((f) => [f.container, f.field, f.acknowledged])).toEqual([
      ['loader', 'spec.template.spec.initContainers[0].securityContext.privileged', false],
    ]);
  });

  test('a capabilities.drop next to privileged is said to have no effect; none is said when the container drops nothing', () => {
    const dropping = findingsOf(rule, [agentWithContainer({ securityContext: { privileged: true, capabilities: { drop: ['ALL'] } } })]);
    expect(dropping[0].message).toContain('its capabilities.drop (ALL) has no effect: the runtime ignores it for a privileged container');
    const plain = findingsOf(rule, [agentWithContainer({ securityContext: { privileged: true, capabilities: { add: ['NET_ADMIN'] } } })]);
    expect(plain[0].message).not.toContain('capabilities.drop');
  });

  test('Compliance: privileged false or unset', () => {
    expect(findingsOf(rule, [agent({ containers: [goodContainer(), goodContainer({ name: 'b', securityContext: { privileged: false } })] })])).toEqual([]);
  });
});
