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

  test('Noncompliance 2b: through /proc/<pid>/root, which the kubelet resolves to the host\'s root (the socket, a directory, the root itself)', () => {
    expect(findingsOf(rule, [mounting('/proc/1/root/run/containerd/containerd.sock')]).map((f) => [f.severity, f.message])).toEqual([
      [Severity.CRITICAL, expect.stringContaining('mounts the container runtime socket /proc/1/root/run/containerd/containerd.sock (volume "sock"')],
    ]);
    expect(findingsOf(rule, [mounting('/proc/self/root/var/run')]).map((f) => f.message)).toEqual([
      expect.stringContaining('mounts /proc/self/root/var/run, which contains the container runtime sockets /run/containerd/containerd.sock, /run/docker.sock'),
    ]);
    expect(findingsOf(rule, [mounting('/proc/thread-self/root/')]).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
  });

  // where the big runtimes put their sockets: recognised by the host path, whatever the mount path in the container
  test.each([
    ['/run/containerd/containerd.sock', 'containerd'], ['/run/k3s/containerd/containerd.sock', 'k3s (and RKE2) containerd'],
    ['/run/host-containerd/containerd.sock', 'Bottlerocket host containerd'], ['/run/k0s/containerd.sock', 'k0s containerd'],
    ['/run/crio/crio.sock', 'CRI-O'], ['/var/run/crio/crio.sock', 'CRI-O'], ['/run/docker.sock', 'Docker Engine'], ['/var/run/docker.sock', 'Docker Engine'],
    ['/run/cri-dockerd.sock', 'cri-dockerd'], ['/var/run/cri-dockerd.sock', 'cri-dockerd'], ['/run/dockershim.sock', 'dockershim'],
  ])('Noncompliance 3: %s (%s)', (path, runtime) => {
    const findings = findingsOf(rule, [mounting(path)]);
    expect(findings).toHaveLength(1);
    expect(findings[0].message).toContain(`mounts the container runtime socket ${path} (volume "sock", read-only, which does not stop a connection): ` +
      `talks to the ${runtime} API through its socket`);
  });

  test.each([
    ['/run/k3s', '/run/k3s/containerd/containerd.sock'], ['/run/host-containerd', '/run/host-containerd/containerd.sock'], ['/run/k0s', '/run/k0s/containerd.sock'],
    ['/run/crio', '/run/crio/crio.sock'], ['/var/run/docker', '/run/docker/containerd/containerd.sock'],
  ])('Noncompliance 4: the runtime\'s directory %s, which contains %s', (dir, socket) => {
    expect(findingsOf(rule, [mounting(dir)]).map((f) => f.message)).toEqual([expect.stringContaining(`mounts ${dir}, which contains the container runtime socket ${socket}`)]);
  });

  test('Noncompliance 5: a socket named like a runtime\'s, wherever it is', () => {
    expect(findingsOf(rule, [mounting('/opt/runtime/containerd.sock')]).map((f) => f.message)).toEqual([
      expect.stringContaining('mounts the container runtime socket /opt/runtime/containerd.sock (volume "sock", read-only, which does not stop a connection): ' +
        'talks to the containerd API through its socket (recognised by its name, containerd.sock;'),
    ]);
  });

  test('Noncompliance 6: the Windows named pipe', () => {
    expect(findingsOf(rule, [mounting('\\\\.\\pipe\\containerd-containerd')])).toHaveLength(1);
  });

  test('Compliance: other host paths; the socket list comes from the risk catalogue', () => {
    expect(findingsOf(rule, [mounting('/var/log')])).toEqual([]);
    expect(findingsOf(rule, [mounting('/run/xtables.lock')])).toEqual([]);
    expect(findingsOf(rule, [mounting('/run/flannel')])).toEqual([]);
    expect(findingsOf(rule, [mounting('/run/containerd.sock.d')])).toEqual([]);
    expect(findingsOf(rule, [agent()])).toEqual([]);
    expect(RuntimeSocketRule.sockets()).toEqual(expect.arrayContaining(['/run/containerd/containerd.sock', '/run/crio/crio.sock', '/run/docker.sock',
      '/run/host-containerd/containerd.sock', '/run/k0s/containerd.sock', '/run/k3s/containerd/containerd.sock', '/run/cri-dockerd.sock']));
  });
});
