import { HostPathUnusedRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, hostPathVolume } from '../util';

const rule = new HostPathUnusedRule();

describe('NA-HOSTPATH-UNUSED: Only host paths a container mounts are declared', () => {
  test('Noncompliance 1: a hostPath volume no container mounts', () => {
    const findings = findingsOf(rule, [agent({ volumes: [{ name: 'tmp', emptyDir: {} }, hostPathVolume('spare', '/var/lib/spare', 'Directory')] })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.MEDIUM, field: 'spec.template.spec.volumes[1]' });
    expect(findings[0].container).toBeUndefined();
    expect(findings[0].message).toContain('declares hostPath volume "spare" (/var/lib/spare) that no container mounts');
  });

  test('Compliance: every hostPath volume is mounted (by an init container counts)', () => {
    const ds = agent({
      initContainers: [{ name: 'init', image: 'x:1', volumeMounts: [{ name: 'bin', mountPath: '/host/bin' }] }],
      volumes: [hostPathVolume('bin', '/opt/cni/bin', 'Directory')],
    });
    expect(findingsOf(rule, [ds])).toEqual([]);
    expect(findingsOf(rule, [agentWithContainer({})])).toEqual([]);
  });
});
