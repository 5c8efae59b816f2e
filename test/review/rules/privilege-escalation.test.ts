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

  test('Noncompliance 3: a privileged container gets no fix the API server rejects: it says why there is none', () => {
    const [finding] = findingsOf(rule, [agentWithContainer({ securityContext: { privileged: true } })]);
    expect(finding.message).toContain('no setting can stop a privileged container from escalating: it has every privilege already, and the API server ' +
      'rejects allowPrivilegeEscalation: false beside privileged: true');
    expect(finding.fix).toBe('no fix on this container while it is privileged: drop privileged: true and add only the capabilities the agent needs, then ' +
      'set allowPrivilegeEscalation: false');
  });

  test.each(['CAP_SYS_ADMIN', 'SYS_ADMIN', 'sys_admin'])('Noncompliance 4: a container adding %s is not told to set allowPrivilegeEscalation: false', (cap) => {
    const [finding] = findingsOf(rule, [agentWithContainer({ securityContext: { capabilities: { add: [cap] } } })]);
    expect(finding.message).toContain('beside SYS_ADMIN the setting changes little');
    expect(finding.fix).toMatch(/^drop SYS_ADMIN for the narrower capability/);
  });

  test.each([
    ['spec.os.name: windows', { os: { name: 'windows' } }],
    ['a HostProcess pod', { hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true } } }],
    ['a kubernetes.io/os: windows nodeSelector', { nodeSelector: { 'kubernetes.io/os': 'windows' } }],
  ])('Compliance: a Windows pod (%s) has no such setting', (_name, spec) => {
    expect(findingsOf(rule, [agent({ ...spec, securityContext: (spec as any).securityContext ?? {}, containers: [{ name: 'agent', image: 'x:1' }] })])).toEqual([]);
  });

  test('Compliance: false everywhere', () => {
    expect(findingsOf(rule, [agent({ initContainers: [goodContainer({ name: 'init' })] })])).toEqual([]);
  });
});
