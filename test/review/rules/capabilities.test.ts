import { CapabilitiesRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, goodContainer } from '../util';

const rule = new CapabilitiesRule();

function adding(...caps: string[]): any {
  return agentWithContainer({ securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: caps } } });
}

describe('NA-CAPABILITIES: Added capabilities are low-risk', () => {
  test('Noncompliance 1: SYS_ADMIN is critical', () => {
    const findings = findingsOf(rule, [adding('SYS_ADMIN')]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.CRITICAL, container: 'agent', field: 'spec.template.spec.containers[0].securityContext.capabilities.add[0]' });
    expect(findings[0].message).toContain('adds capability SYS_ADMIN (risk critical): ');
  });

  test('Noncompliance 2: each capability at its own risk, names normalised and deduplicated', () => {
    const findings = findingsOf(rule, [adding('CAP_NET_ADMIN', 'net_raw', 'NET_ADMIN', 'CHOWN', 'ALL')]);
    expect(findings.map((f) => [f.severity, f.field])).toEqual([
      [Severity.CRITICAL, 'spec.template.spec.containers[0].securityContext.capabilities.add[4]'],
      [Severity.HIGH, 'spec.template.spec.containers[0].securityContext.capabilities.add[0]'],
      [Severity.MEDIUM, 'spec.template.spec.containers[0].securityContext.capabilities.add[1]'],
    ]);
    expect(findings.map((f) => /adds capability (\w+)/.exec(f.message)![1])).toEqual(['ALL', 'NET_ADMIN', 'NET_RAW']);
  });

  test('Noncompliance 3: a recorded reason explains a high capability (acknowledged with the reason)', () => {
    const reasons = JSON.stringify([{ type: 'capability', detail: 'NET_ADMIN', container: 'agent', reason: 'programs routes' }]);
    const ds = agentWithContainer({ securityContext: { capabilities: { add: ['NET_ADMIN'] } } }, {}, { annotations: { 'node-agents.cdk8s.io/host-access': reasons } });
    const findings = findingsOf(rule, [ds]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ acknowledged: true, acknowledgedReason: 'host-access reason for capability NET_ADMIN: programs routes' });
  });

  test('Noncompliance 4: what NET_RAW and SYS_PTRACE reach depends on the pod\'s host namespaces, and the message says so', () => {
    const caps = { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_RAW', 'SYS_PTRACE'] } } };
    const alone = findingsOf(rule, [agentWithContainer(caps)]);
    expect(alone.map((f) => [f.severity, /adds capability (\w+)/.exec(f.message)![1]])).toEqual([[Severity.MEDIUM, 'NET_RAW'], [Severity.MEDIUM, 'SYS_PTRACE']]);
    expect(alone[0].message).toContain('(the pod does not use hostNetwork)');
    const host = findingsOf(rule, [agentWithContainer(caps, { hostNetwork: true, hostPID: true })]);
    expect(host.map((f) => [f.severity, /adds capability (\w+)/.exec(f.message)![1]])).toEqual([[Severity.HIGH, 'NET_RAW'], [Severity.HIGH, 'SYS_PTRACE']]);
    expect(host[0].message).toContain('sniffs and spoofs the traffic of the node and of every pod on it');
  });

  test('Compliance: only low-risk capabilities, or none', () => {
    expect(findingsOf(rule, [adding('NET_BIND_SERVICE', 'CHOWN', 'SETUID')])).toEqual([]);
    expect(findingsOf(rule, [agent({ containers: [goodContainer()] })])).toEqual([]);
  });
});
