import { HostPathSensitiveRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, hostPathVolume } from '../util';

const rule = new HostPathSensitiveRule();
const KEY = 'node-agents.cdk8s.io/host-access';

function mounting(path: string, readOnly: boolean, type = 'Directory'): any {
  return agentWithContainer({ volumeMounts: [{ name: 'host', mountPath: '/host', readOnly }] }, { volumes: [hostPathVolume('host', path, type)] });
}

describe('NA-HOSTPATH-SENSITIVE: No sensitive host path is mounted, even read-only', () => {
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
    expect(findings[0].fix).toMatch(/^mount read-only and keep the agent's own state.*; if the agent needs it, acknowledge NA-HOSTPATH-SENSITIVE with the reason/);
  });

  // the most sensitive paths read-only, at the catalogue's read-only risk (kube-linter's sensitive-host-mounts, Trivy's KSV-0121)
  test.each([
    ['/', Severity.CRITICAL], ['/etc', Severity.CRITICAL], ['/etc/kubernetes', Severity.CRITICAL], ['/var/lib/etcd', Severity.CRITICAL],
    ['/etc/kubernetes/pki', Severity.CRITICAL], ['/var/lib', Severity.CRITICAL], ['/var/lib/kubelet', Severity.HIGH], ['/proc', Severity.HIGH],
    ['/dev', Severity.HIGH], ['/root', Severity.HIGH], ['/home', Severity.HIGH], ['/var/lib/docker', Severity.HIGH], ['/var/lib/containerd', Severity.HIGH],
    ['/var/lib/containers', Severity.HIGH], ['/var/lib/docker/containers', Severity.HIGH], ['/etc/shadow', Severity.HIGH],
  ])('Noncompliance 3: %s read-only is %s', (path, severity) => {
    const findings = findingsOf(rule, [mounting(path, true)]);
    expect(findings.map((f) => [f.severity, f.field])).toEqual([[severity, 'spec.template.spec.volumes[0].hostPath.path']]);
    expect(findings[0].message).toContain(`mounts host path ${path} read-only at /host, which is ${severity} risk: `);
  });

  test('Noncompliance 4: a recorded reason does not accept it, read-only or not, high or critical: it needs an explicit acknowledgement', () => {
    const withReason = (path: string, readOnly: boolean) => agentWithContainer(
      { volumeMounts: [{ name: 'h', mountPath: '/h', readOnly }] },
      { volumes: [hostPathVolume('h', path, 'Directory')] },
      { annotations: { [KEY]: JSON.stringify([{ type: 'hostPath', detail: `${path} (${readOnly ? 'read-only' : 'read-write'})`, reason: 'needed' }]) } },
    );
    expect(findingsOf(rule, [withReason('/var/log', false)]).map((f) => [f.severity, f.acknowledged])).toEqual([[Severity.HIGH, false]]);
    expect(findingsOf(rule, [withReason('/proc', true)]).map((f) => [f.severity, f.acknowledged])).toEqual([[Severity.HIGH, false]]);
    const acked = agentWithContainer({ volumeMounts: [{ name: 'h', mountPath: '/h', readOnly: true }] }, { volumes: [hostPathVolume('h', '/proc', 'Directory')] },
      { annotations: { 'node-agents.cdk8s.io/acknowledged': JSON.stringify([{ rule: 'NA-HOSTPATH-SENSITIVE', reason: 'reads process statistics' }]) } });
    expect(findingsOf(rule, [acked]).map((f) => [f.acknowledged, f.acknowledgedReason])).toEqual([[true, 'reads process statistics']]);
  });

  test('Compliance: medium and low paths, read-only or not: /sys and /boot read-only, an agent\'s own directory, a program\'s own /run directory', () => {
    for (const [path, readOnly] of [['/sys', true], ['/boot', true], ['/var/log', true], ['/var/lib/fluent-bit', false], ['/run/flannel', false]] as Array<[string, boolean]>) {
      expect(findingsOf(rule, [mounting(path, readOnly)])).toEqual([]);
    }
    expect(findingsOf(rule, [agent()])).toEqual([]);
  });
});
