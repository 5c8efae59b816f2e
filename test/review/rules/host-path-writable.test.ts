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
      severity: Severity.HIGH, // the catalogue's risk for writing /var/log
      kind: 'DaemonSet',
      namespace: 'observability',
      name: 'node-agent',
      container: 'agent',
      field: 'spec.template.spec.containers[0].volumeMounts[0].readOnly',
      acknowledged: false,
    });
    expect(findings[0].message).toBe('DaemonSet observability/node-agent, container "agent": mounts host path /var/log (volume "varlog") read-write at /var/log, ' +
      'which is high risk: erases or forges logs to hide an attack, and plants symlinks that the kubelet follows when it serves logs: reads any file ' +
      'on the node; fails Pod Security baseline check hostPathVolumes (spec.template.spec.containers[0].volumeMounts[0].readOnly)');
  });

  test('Noncompliance 3: each writable mount at the risk of writing its path', () => {
    const ds = agentWithContainer({ volumeMounts: ['lock', 'state', 'run', 'bin'].map((name) => ({ name, mountPath: `/${name}` })) }, {
      volumes: [
        hostPathVolume('lock', '/run/xtables.lock', 'FileOrCreate'), hostPathVolume('state', '/var/lib/agent', 'DirectoryOrCreate'),
        hostPathVolume('run', '/var/run/agent', 'DirectoryOrCreate'), hostPathVolume('bin', '/opt/cni/bin', 'Directory'),
      ],
    });
    expect(findingsOf(rule, [ds]).map((f) => [f.severity, /host path (\S+)/.exec(f.message)![1]])).toEqual([
      // /var/run/agent is a directory under /run that the catalogue does not know: rated by what such a directory can hold
      [Severity.CRITICAL, '/opt/cni/bin'], [Severity.HIGH, '/var/run/agent'], [Severity.MEDIUM, '/var/lib/agent'], [Severity.LOW, '/run/xtables.lock'],
    ]);
  });

  test('Noncompliance 4: the install init container alone writing /opt/cni/bin is described as the installer\'s, and not told to do what it does', () => {
    const ds = agent({
      initContainers: [{ name: 'install-cni', image: 'x:1', volumeMounts: [{ name: 'bin', mountPath: '/host/opt/cni/bin' }] }],
      volumes: [hostPathVolume('bin', '/opt/cni/bin', 'DirectoryOrCreate')],
    });
    const [finding] = findingsOf(rule, [ds]);
    expect(finding).toMatchObject({ severity: Severity.CRITICAL, container: 'install-cni' });
    expect(finding.message).toContain('only init containers write it here: the write access ends when they finish');
    expect(finding.fix).toContain('nothing narrower: only the install init container writes it, as it should');
    expect(finding.fix).not.toContain('mount it read-write only in the CNI plugin\'s install init container');
  });

  test('Noncompliance 5: a reason accepts a writable mount below critical', () => {
    const reasons = JSON.stringify([{ type: 'hostPath', detail: '/var/lib/agent (read-write)', reason: 'keeps read positions' }]);
    const ds = agentWithContainer({ volumeMounts: [{ name: 'state', mountPath: '/state' }] }, { volumes: [hostPathVolume('state', '/var/lib/agent', 'DirectoryOrCreate')] },
      { annotations: { 'node-agents.cdk8s.io/host-access': reasons } });
    expect(findingsOf(rule, [ds]).map((f) => [f.severity, f.acknowledged])).toEqual([[Severity.MEDIUM, true]]);
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
