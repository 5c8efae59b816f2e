import { HostPathWritableRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, hostPathVolume } from '../util';

const rule = new HostPathWritableRule();

describe('NA-HOSTPATH-WRITABLE: Host paths are mounted read-only', () => {
  test('Noncompliance 1: a hostPath mounted without readOnly', () => {
    const ds = agentWithContainer({ volumeMounts: [{ name: 'varlog', mountPath: '/var/log' }] }, { volumes: [hostPathVolume('varlog', '/var/log', 'Directory')] });
    const findings = findingsOf(rule, [ds]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      rule: 'NA-HOSTPATH-WRITABLE',
      severity: Severity.HIGH,
      kind: 'DaemonSet',
      namespace: 'observability',
      name: 'node-agent',
      container: 'agent',
      field: 'spec.template.spec.containers[0].volumeMounts[0].readOnly',
      acknowledged: false,
    });
    expect(findings[0].message).toBe('DaemonSet observability/node-agent, container "agent": mounts host path /var/log (volume "varlog") read-write at /var/log ' +
      '(spec.template.spec.containers[0].volumeMounts[0].readOnly)');
  });

  test('Noncompliance 2: readOnly: false, and one finding per writable mount (init containers included)', () => {
    const ds = agent({
      initContainers: [{ name: 'init', image: 'busybox:1.36', volumeMounts: [{ name: 'state', mountPath: '/state', readOnly: false }] }],
      containers: [{ name: 'agent', image: 'x:1', volumeMounts: [{ name: 'state', mountPath: '/state' }, { name: 'varlog', mountPath: '/var/log', readOnly: true }] }],
      volumes: [hostPathVolume('state', '/var/lib/agent//', 'DirectoryOrCreate'), hostPathVolume('varlog', '/var/log')],
    });
    const findings = findingsOf(rule, [ds]);
    expect(findings.map((f) => [f.container, f.field])).toEqual([
      ['agent', 'spec.template.spec.containers[0].volumeMounts[0].readOnly'],
      ['init', 'spec.template.spec.initContainers[0].volumeMounts[0].readOnly'],
    ]);
    expect(findings[0].message).toContain('mounts host path /var/lib/agent (volume "state") read-write at /state');
  });

  test('Compliance: every hostPath mount read-only; other volume types are not host paths', () => {
    const ds = agentWithContainer(
      { volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }, { name: 'tmp', mountPath: '/tmp' }] },
      { volumes: [hostPathVolume('varlog', '/var/log'), { name: 'tmp', emptyDir: {} }] },
    );
    expect(findingsOf(rule, [ds])).toEqual([]);
  });
});
