import { HostPathSensitiveRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, hostPathVolume } from '../util';

const rule = new HostPathSensitiveRule();

function mounting(path: string, readOnly: boolean): any {
  return agentWithContainer({ volumeMounts: [{ name: 'host', mountPath: '/host', readOnly }] }, { volumes: [hostPathVolume('host', path, 'Directory')] });
}

describe('NA-HOSTPATH-SENSITIVE: No sensitive host path is mounted writable', () => {
  test.each(['/', '/etc', '/var/lib/kubelet'])('Noncompliance 1: %s writable is critical', (path) => {
    const findings = findingsOf(rule, [mounting(path, false)]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.CRITICAL, container: 'agent', field: 'spec.template.spec.containers[0].volumeMounts[0].readOnly' });
    expect(findings[0].message).toContain(`mounts host path ${path} read-write at /host, which is critical risk: `);
  });

  test('Noncompliance 2: /var/log writable is high, with the catalogue\'s safer alternative as the fix', () => {
    const findings = findingsOf(rule, [mounting('/var/log/', false)]);
    expect(findings).toHaveLength(1);
    expect(findings[0].severity).toBe(Severity.HIGH);
    expect(findings[0].message).toContain('mounts host path /var/log read-write');
    expect(findings[0].fix).toMatch(/^mount read-only and keep the agent's own state/);
  });

  test('Noncompliance 3: a reason explains a high finding but not a critical one', () => {
    const reasons = (path: string) => ({ 'node-agents.cdk8s.io/host-access': JSON.stringify([{ type: 'hostPath', detail: `${path} (read-write)`, reason: 'tail DB' }]) });
    const high = findingsOf(rule, [agentWithContainer({ volumeMounts: [{ name: 'h', mountPath: '/var/log' }] }, { volumes: [hostPathVolume('h', '/var/log')] }, { annotations: reasons('/var/log') })]);
    expect(high.map((f) => [f.severity, f.acknowledged])).toEqual([[Severity.HIGH, true]]);
    const critical = findingsOf(rule, [agentWithContainer({ volumeMounts: [{ name: 'h', mountPath: '/etc' }] }, { volumes: [hostPathVolume('h', '/etc')] }, { annotations: reasons('/etc') })]);
    expect(critical.map((f) => [f.severity, f.acknowledged])).toEqual([[Severity.CRITICAL, false]]);
  });

  test('Compliance: sensitive paths read-only; a writable directory of the agent\'s own (medium) is not sensitive', () => {
    expect(findingsOf(rule, [mounting('/etc', true)])).toEqual([]);
    expect(findingsOf(rule, [mounting('/var/lib/fluent-bit', false)])).toEqual([]);
    expect(findingsOf(rule, [agent()])).toEqual([]);
  });
});
