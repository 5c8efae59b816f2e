import * as fc from 'fast-check';
import { HostAccess, HostAccessType, HostRisk, RiskLevel } from '../../src/model';

const { LOW, MEDIUM, HIGH, CRITICAL } = RiskLevel;

describe('HostRisk.forPath', () => {
  // [path, risk read-only, risk read-write]
  const table: Array<[string, RiskLevel, RiskLevel]> = [
    ['/', CRITICAL, CRITICAL],
    ['/etc', CRITICAL, CRITICAL], // contains /etc/kubernetes
    ['/etc/kubernetes', CRITICAL, CRITICAL],
    ['/etc/kubernetes/manifests', CRITICAL, CRITICAL],
    ['/var/lib/etcd', CRITICAL, CRITICAL],
    ['/var/lib/kubelet', HIGH, CRITICAL],
    ['/var/lib/kubelet/pods', HIGH, CRITICAL],
    ['/var/lib/kubelet/plugins_registry', MEDIUM, HIGH],
    ['/var/run/docker.sock', CRITICAL, CRITICAL],
    ['/run/docker.sock', CRITICAL, CRITICAL],
    ['/run/containerd/containerd.sock', CRITICAL, CRITICAL],
    ['/var/run/crio/crio.sock', CRITICAL, CRITICAL],
    ['/run/containerd', CRITICAL, CRITICAL], // contains the socket
    ['/run', CRITICAL, CRITICAL],
    ['/var/run', CRITICAL, CRITICAL],
    ['/run/xtables.lock', LOW, LOW],
    ['/var/run/xtables.lock', LOW, LOW],
    ['/proc', HIGH, CRITICAL],
    ['/proc/sys/kernel', HIGH, CRITICAL],
    ['/sys', MEDIUM, CRITICAL],
    ['/sys/fs/cgroup', LOW, CRITICAL],
    ['/sys/fs/bpf', MEDIUM, HIGH],
    ['/dev', HIGH, CRITICAL],
    ['/dev/kmsg', MEDIUM, MEDIUM],
    ['/var/log', MEDIUM, HIGH],
    ['/var/log/pods', MEDIUM, HIGH],
    ['/var/log/containers', MEDIUM, HIGH],
    ['/boot', MEDIUM, CRITICAL],
    ['/lib/modules', LOW, CRITICAL],
    ['/usr/lib/modules', LOW, CRITICAL],
    ['/usr/src', LOW, MEDIUM],
    ['/usr', LOW, CRITICAL],
    ['/root', HIGH, CRITICAL],
    ['/home', HIGH, CRITICAL],
    ['/home/alice/.ssh', HIGH, CRITICAL],
    ['/opt/cni/bin', LOW, CRITICAL],
    ['/opt/cni', LOW, CRITICAL],
    ['/etc/cni/net.d', MEDIUM, HIGH],
    ['/var/lib/docker', HIGH, CRITICAL],
    ['/var/lib/docker/containers', HIGH, CRITICAL],
    ['/var/lib/containerd', HIGH, CRITICAL],
    ['/var/lib/fluent-bit', LOW, MEDIUM], // an agent's own state directory under /var/lib
    ['/var/lib', CRITICAL, CRITICAL], // contains /var/lib/etcd
    ['/etc/machine-id', LOW, MEDIUM],
    ['/etc/os-release', LOW, MEDIUM],
    ['/etc/shadow', HIGH, CRITICAL],
    ['/etc/passwd', LOW, CRITICAL],
    ['/etc/resolv.conf', LOW, HIGH],
    ['/etc/ssl/certs', LOW, HIGH],
    ['/tmp', LOW, MEDIUM],
    ['/srv/data', MEDIUM, HIGH],
    ['/etcd', MEDIUM, HIGH], // not under /etc: matched by whole segments, so unknown
    ['/var/lib/kubeletx', LOW, MEDIUM], // not under /var/lib/kubelet
    ['C:\\var\\log', MEDIUM, HIGH],
    ['\\\\.\\pipe\\docker_engine', CRITICAL, CRITICAL],
    ['\\\\.\\pipe\\containerd-containerd', CRITICAL, CRITICAL],
    ['//./pipe/containerd-containerd', CRITICAL, CRITICAL],
  ];

  test.each(table)('%s: read-only %s, read-write %s', (path, ro, rw) => {
    expect(HostRisk.forPath(path, true).risk).toBe(ro);
    expect(HostRisk.forPath(path, false).risk).toBe(rw);
  });

  test.each([
    '/run/containerd/containerd.sock', '/var/run/docker.sock', '/var/run/crio/crio.sock', '/run/cri-dockerd.sock', '/run/podman/podman.sock',
    '/run/k3s/containerd/containerd.sock', '/var/snap/microk8s/common/run/containerd.sock',
  ])('the runtime socket %s is critical read-only, and says why', (path) => {
    const a = HostRisk.forPath(path, true);
    expect(a.risk).toBe(CRITICAL);
    expect(a.attackerGains).toContain('a read-only mount does not stop a process from connecting to a socket');
    expect(a.attackerGains).toContain('root on the node');
    expect(a.saferAlternative).toContain('do not mount a container runtime socket');
  });

  test('paths are normalised and /var/run is read as /run', () => {
    expect(HostRisk.forPath('/var/log/../lib/etcd/', true).matchedPath).toBe('/var/lib/etcd');
    expect(HostRisk.forPath('/var//run/docker.sock', true).matchedPath).toBe('/run/docker.sock');
    expect(HostRisk.forPath('/var/log/pods', true).matchedPath).toBe('/var/log');
    expect(HostRisk.forPath('/etcd', true)).not.toHaveProperty('matchedPath');
  });

  test('a directory names the riskier path it contains, and the generic advice', () => {
    const a = HostRisk.forPath('/run', true);
    expect(a.matchedPath).toBe('/run/containerd/containerd.sock');
    expect(a.attackerGains).toBe(
      'reads the runtime state of host services; it also contains /run/containerd/containerd.sock, mounted read-only with it, which is critical ' +
      '(as do /run/docker.sock, /run/crio/crio.sock, /run/cri-dockerd.sock, and 5 more): talks to the containerd API through its socket ' +
      '(a read-only mount does not stop a process from connecting to a socket): starts a privileged container with the node\'s root filesystem ' +
      'mounted, which is root on the node, and reads, stops or execs into every container on it',
    );
    expect(a.saferAlternative).toContain('; more generally, mount only the file needed, e.g. /run/xtables.lock');
  });

  test('a path without riskier content keeps its own text', () => {
    expect(HostRisk.forPath('/var/log', true)).toEqual({
      risk: MEDIUM,
      attackerGains: 'reads the logs of every pod and host service on the node, where tokens and personal data often leak',
      saferAlternative: 'mount read-only and keep the agent\'s own state (read positions) in a directory of its own, e.g. /var/lib/<agent>',
      matchedPath: '/var/log',
    });
  });

  test('an empty path is rejected', () => {
    expect(() => HostRisk.forPath('', true)).toThrow('host path must be a non-empty string, got "": pass the hostPath path');
  });

  test('every known path has a risk for both modes, read-write never below read-only, and plain-English text', () => {
    for (const path of HostRisk.knownPaths()) {
      const ro = HostRisk.forPath(path, true);
      const rw = HostRisk.forPath(path, false);
      expect(HostRisk.rank(rw.risk)).toBeGreaterThanOrEqual(HostRisk.rank(ro.risk));
      for (const a of [ro, rw]) {
        expect(a.attackerGains.length).toBeGreaterThan(20);
        expect(a.saferAlternative.length).toBeGreaterThan(5);
      }
    }
  });

  test('the catalogue covers every path the brief names', () => {
    const known = HostRisk.knownPaths();
    for (const p of ['/', '/etc', '/var/lib/kubelet', '/run/docker.sock', '/run/containerd/containerd.sock', '/run/crio/crio.sock', '/proc', '/sys',
      '/dev', '/var/log', '/boot', '/lib/modules', '/root', '/home', '/etc/kubernetes', '/var/lib/etcd', '/opt/cni/bin', '/etc/cni/net.d']) {
      expect(known).toContain(p);
    }
  });
});

describe('HostRisk.forCapability', () => {
  test.each([
    ['SYS_ADMIN', CRITICAL], ['SYS_MODULE', CRITICAL], ['SYS_RAWIO', CRITICAL], ['ALL', CRITICAL], ['SYS_BOOT', CRITICAL],
    ['NET_ADMIN', HIGH], ['SYS_PTRACE', HIGH], ['BPF', HIGH], ['DAC_READ_SEARCH', HIGH], ['SYS_TIME', HIGH], ['MAC_ADMIN', HIGH],
    ['PERFMON', MEDIUM], ['NET_RAW', MEDIUM], ['SYSLOG', MEDIUM], ['AUDIT_READ', MEDIUM],
    ['CHOWN', LOW], ['NET_BIND_SERVICE', LOW], ['KILL', LOW], ['AUDIT_WRITE', LOW],
    ['CAP_SYS_ADMIN', CRITICAL], ['net_admin', HIGH], ['cap_perfmon', MEDIUM],
    ['FOO_BAR', HIGH], ['SYS_ADMINISTRATOR', HIGH],
  ])('%s is %s', (cap, risk) => {
    expect(HostRisk.forCapability(cap).risk).toBe(risk);
  });

  test('the text names the capability; unknown ones say so', () => {
    expect(HostRisk.forCapability('cap_sys_module').attackerGains).toBe('SYS_MODULE: loads kernel modules: arbitrary code in the kernel');
    expect(HostRisk.forCapability('FOO').attackerGains).toBe('FOO: a capability this catalogue does not know: review it as if it were powerful');
    expect(HostRisk.forCapability('FOO').saferAlternative).toContain('check the spelling');
  });

  test('every baseline-allowed capability is known and low; every known one has text', () => {
    for (const c of ['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']) {
      expect(HostRisk.knownCapabilities()).toContain(c);
      expect(HostRisk.forCapability(c).risk).toBe(LOW);
    }
    for (const c of HostRisk.knownCapabilities()) {
      const a = HostRisk.forCapability(c);
      expect(a.attackerGains.startsWith(`${c}: `)).toBe(true);
      expect(a.saferAlternative.length).toBeGreaterThan(5);
    }
  });
});

describe('HostRisk.assess', () => {
  test('the source document\'s table 4.1: privileged is the most dangerous, host namespaces high, a writable hostPath of / critical', () => {
    expect(HostRisk.assess({ type: HostAccessType.PRIVILEGED, detail: 'agent', container: 'agent' }).risk).toBe(CRITICAL);
    expect(HostRisk.assess({ type: HostAccessType.HOST_NETWORK, detail: '' }).risk).toBe(HIGH);
    expect(HostRisk.assess({ type: HostAccessType.HOST_PID, detail: '' }).risk).toBe(HIGH);
    expect(HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/ (read-write)', path: '/', readOnly: false }).risk).toBe(CRITICAL);
  });

  test.each([
    [HostAccessType.HOST_IPC, '', MEDIUM],
    [HostAccessType.RUN_AS_ROOT, 'agent', MEDIUM],
    [HostAccessType.CAPABILITY, 'SYS_ADMIN', CRITICAL],
    [HostAccessType.CAPABILITY, 'PERFMON', MEDIUM],
    [HostAccessType.HOST_PORT, '9100/TCP', LOW],
    [HostAccessType.HOST_PORT, '10250/TCP', HIGH],
    [HostAccessType.HOST_PORT, '22/TCP', HIGH],
  ])('%s %s is %s', (type, detail, risk) => {
    const a = HostRisk.assess({ type, detail });
    expect(a.risk).toBe(risk);
    expect(a.attackerGains.length).toBeGreaterThan(10);
    expect(a.saferAlternative.length).toBeGreaterThan(10);
  });

  test('a HostAccessReason (mode in the detail, no readOnly field) is assessed like the item', () => {
    const reason = { type: HostAccessType.HOST_PATH, detail: '/var/log (read-only)', reason: 'collects logs' };
    expect(HostRisk.assess(reason)).toEqual(HostRisk.forPath('/var/log', true));
    expect(HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/var/log (read-write)' }).risk).toBe(HIGH);
    expect(HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/var/log' }).risk).toBe(HIGH); // no mode: read-write assumed
  });

  test('Bidirectional mount propagation raises a hostPath to at least high and says why', () => {
    const a = HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/var/log (read-only)', path: '/var/log', readOnly: true, mountPropagation: 'Bidirectional' });
    expect(a.risk).toBe(HIGH);
    expect(a.attackerGains).toContain('with Bidirectional mount propagation, mounts made in the container propagate to the host');
    const kubelet = HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/var/lib/kubelet (read-write)', mountPropagation: 'Bidirectional' });
    expect(kubelet.risk).toBe(CRITICAL);
    const h2c = HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/var/log (read-only)', mountPropagation: 'HostToContainer' });
    expect(h2c.risk).toBe(MEDIUM);
  });

  test('an unknown type is rejected', () => {
    expect(() => HostRisk.assess({ type: 'hostUsers' as HostAccessType, detail: '' })).toThrow(
      'host access type "hostUsers" is not known: use one of hostPath, hostNetwork, hostPID, hostIPC, hostPort, privileged, capability, runAsRoot',
    );
  });

  test('every item HostAccess lists for the source document\'s agent gets an assessment', () => {
    const items = HostAccess.of({
      containers: [{
        name: 'agent',
        image: 'registry.example.com/node-agent:1.2.0',
        securityContext: { capabilities: { add: ['NET_ADMIN', 'SYS_PTRACE'] }, readOnlyRootFilesystem: true, runAsNonRoot: true },
        volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }],
      }],
      volumes: [{ name: 'varlog', hostPath: { path: '/var/log', type: 'Directory' } }],
    });
    expect(items.map((i) => [i.detail, HostRisk.assess(i).risk])).toEqual([
      ['/var/log (read-only)', MEDIUM],
      ['NET_ADMIN', HIGH],
      ['SYS_PTRACE', HIGH],
    ]);
  });
});

describe('host ports, propagation and levels', () => {
  test.each([[0], [65536], [1.5], [NaN]])('forHostPort(%p) is rejected', (port) => {
    expect(() => HostRisk.forHostPort(port)).toThrow('host port must be a number from 1 to 65535');
  });

  test('forHostPort names the node service it would capture', () => {
    expect(HostRisk.forHostPort(6443).attackerGains).toContain('the Kubernetes API server');
  });

  test.each([['Bidirectional', HIGH], ['HostToContainer', LOW], ['None', LOW]])('mount propagation %s is %s', (mode, risk) => {
    expect(HostRisk.forMountPropagation(mode).risk).toBe(risk);
  });

  test('an unknown mount propagation is rejected', () => {
    expect(() => HostRisk.forMountPropagation('bidirectional')).toThrow(
      'mount propagation must be one of Bidirectional, HostToContainer, None, got "bidirectional": fix the volumeMount',
    );
  });

  test('rank and highest', () => {
    expect([LOW, MEDIUM, HIGH, CRITICAL].map((l) => HostRisk.rank(l))).toEqual([1, 2, 3, 4]);
    expect(HostRisk.highest([MEDIUM, CRITICAL, LOW])).toBe(CRITICAL);
    expect(HostRisk.highest([LOW])).toBe(LOW);
    expect(HostRisk.highest([])).toBeUndefined();
    expect(() => HostRisk.rank('severe' as RiskLevel)).toThrow('risk level must be one of low, medium, high, critical, got "severe"');
  });
});

// ---------- properties ----------

const segmentArb = fc.constantFrom('var', 'lib', 'log', 'run', 'etc', 'kubernetes', 'kubelet', 'pods', 'containerd', 'docker.sock', 'proc', 'sys', 'fs',
  'cgroup', 'dev', 'opt', 'cni', 'bin', 'usr', 'home', 'x', 'agent', 'etcd', 'modules', 'net.d', 'crio', 'crio.sock', 'containerd.sock');
const posixPathArb = fc.array(segmentArb, { maxLength: 5 }).map((parts) => `/${parts.join('/')}`);

describe('properties', () => {
  test('read-write is never less risky than read-only', () => {
    fc.assert(fc.property(posixPathArb, (path) => {
      expect(HostRisk.rank(HostRisk.forPath(path, false).risk)).toBeGreaterThanOrEqual(HostRisk.rank(HostRisk.forPath(path, true).risk));
    }), { numRuns: 500 });
  });

  test('mounting a directory is never less risky than mounting something inside it', () => {
    fc.assert(fc.property(posixPathArb, fc.array(segmentArb, { minLength: 1, maxLength: 3 }), fc.boolean(), (dir, rest, readOnly) => {
      const inside = `${dir === '/' ? '' : dir}/${rest.join('/')}`;
      expect(HostRisk.rank(HostRisk.forPath(dir, readOnly).risk)).toBeGreaterThanOrEqual(HostRisk.rank(HostRisk.forPath(inside, readOnly).risk));
    }), { numRuns: 500 });
  });

  test('the assessment does not depend on how the path is spelled', () => {
    fc.assert(fc.property(posixPathArb, fc.boolean(), (path, readOnly) => {
      const expected = HostRisk.forPath(path, readOnly);
      expect(HostRisk.forPath(`${path}/`, readOnly)).toEqual(expected);
      expect(HostRisk.forPath(path.replace(/\//g, '//'), readOnly)).toEqual(expected);
      expect(HostRisk.forPath(`${path}/x/..`, readOnly)).toEqual(expected);
    }), { numRuns: 300 });
  });

  test('a capability is assessed the same however it is spelled', () => {
    fc.assert(fc.property(fc.constantFrom(...HostRisk.knownCapabilities()), fc.boolean(), fc.boolean(), (cap, prefix, lower) => {
      let spelled = prefix ? `CAP_${cap}` : cap;
      if (lower) spelled = spelled.toLowerCase();
      expect(HostRisk.forCapability(spelled)).toEqual(HostRisk.forCapability(cap));
    }));
  });
});
