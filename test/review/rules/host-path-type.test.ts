import { HostPathTypeRule, Severity } from '../../../src/review';
import { agent, findingsOf, hostPathVolume } from '../util';

const rule = new HostPathTypeRule();

describe('NA-HOSTPATH-TYPE: Host paths declare a type', () => {
  test('Noncompliance 1: no type', () => {
    const findings = findingsOf(rule, [agent({ volumes: [hostPathVolume('varlog', '/var/log')] })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.LOW, field: 'spec.template.spec.volumes[0].hostPath.type' });
    expect(findings[0].message).toContain('hostPath volume "varlog" (/var/log) sets no type');
  });

  test('Noncompliance 2: an empty type', () => {
    expect(findingsOf(rule, [agent({ volumes: [hostPathVolume('x', '/x', '')] })])).toHaveLength(1);
  });

  test('Compliance: every hostPath typed', () => {
    expect(findingsOf(rule, [agent({ volumes: [hostPathVolume('id', '/etc/machine-id', 'File'), { name: 'e', emptyDir: {} }] })])).toEqual([]);
  });
});
