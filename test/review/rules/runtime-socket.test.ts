import { RuntimeSocketRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, hostPathVolume } from '../util';

const rule = new RuntimeSocketRule();

function mounting(path: string, readOnly = true): any {
  return agentWithContainer({ volumeMounts: [{ name: 'sock', mountPath: '/host/sock', readOnly }] }, { volumes: [hostPathVolume('sock', path)] });
}

describe('NA-RUNTIME-SOCKET: No container runtime socket is mounted', () => {
  test('Noncompliance 1: the containerd socket, read-only', () => {
    const findings = findingsOf(rule, [mounting('/run/containerd/containerd.sock')]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.CRITICAL, container: 'agent', field: 'spec.template.spec.volumes[0].hostPath.path' });
    expect(findings[0].message).toContain('mounts the container runtime socket /run/containerd/containerd.sock (volume "sock", read-only, which does not stop a connection)');
  });

  test('Noncompliance 2: /var/run/docker.sock (an alias of /run), and a directory that contains sockets', () => {
    expect(findingsOf(rule, [mounting('/var/run/docker.sock', false)]).map((f) => f.message)).toEqual([
      expect.stringContaining('mounts the container runtime socket /var/run/docker.sock (volume "sock")'),
    ]);
    expect(findingsOf(rule, [mounting('/run/containerd')]).map((f) => f.message)).toEqual([
      expect.stringContaining('mounts /run/containerd, which contains the container runtime socket /run/containerd/containerd.sock'),
    ]);
    expect(findingsOf(rule, [mounting('/var/run')]).map((f) => f.message)).toEqual([
      expect.stringContaining('mounts /var/run, which contains the container runtime sockets /run/containerd/containerd.sock, /run/docker.sock'),
    ]);
  });

  test('Noncompliance 3: the Windows named pipe', () => {
    expect(findingsOf(rule, [mounting('\\\\.\\pipe\\containerd-containerd')])).toHaveLength(1);
  });

  test('Compliance: other host paths; the socket list comes from the risk catalogue', () => {
    expect(findingsOf(rule, [mounting('/var/log')])).toEqual([]);
    expect(findingsOf(rule, [mounting('/run/xtables.lock')])).toEqual([]);
    expect(findingsOf(rule, [agent()])).toEqual([]);
    expect(RuntimeSocketRule.sockets()).toEqual(expect.arrayContaining(['/run/containerd/containerd.sock', '/run/crio/crio.sock', '/run/docker.sock']));
  });
});
