import * as fc from 'fast-check';
import { HostAccess, HostAccessItem, HostAccessReasons, HostAccessType } from '../../src/model';
import { descriptorOf } from '../../src/model/_host-privileges';
import { guideFixture } from '../util/guide';

// ---------- builders ----------

/** a container that takes nothing from the host (runAsNonRoot, so not even runAsRoot). */
function container(name: string, extra: any = {}): any {
  return { name, image: 'registry.example.com/x:1', ...extra, securityContext: { runAsNonRoot: true, ...(extra.securityContext ?? {}) } };
}

function keys(items: HostAccessItem[]): string[] {
  return items.map((i) => `${i.type}|${i.detail}|${i.container ?? ''}`);
}

describe('HostAccess.of: nothing taken', () => {
  test('a non-root pod without host access takes nothing', () => {
    expect(HostAccess.of({ containers: [container('agent')] })).toEqual([]);
    expect(HostAccess.of({})).toEqual([]);
  });

  test('false host namespaces and privileged: false take nothing', () => {
    expect(HostAccess.of({ hostNetwork: false, hostPID: false, hostIPC: false, containers: [container('a', { securityContext: { privileged: false } })] })).toEqual([]);
  });
});

describe('host namespaces', () => {
  test('each one is an item with an empty detail and no container', () => {
    expect(HostAccess.of({ hostIPC: true, hostPID: true, hostNetwork: true, containers: [container('a')] })).toEqual([
      { type: HostAccessType.HOST_NETWORK, detail: '' },
      { type: HostAccessType.HOST_PID, detail: '' },
      { type: HostAccessType.HOST_IPC, detail: '' },
    ]);
  });
});

describe('hostPath', () => {
  test('read-only when every mount is read-only', () => {
    const s = {
      containers: [container('a', { volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }] })],
      initContainers: [container('init', { volumeMounts: [{ name: 'varlog', mountPath: '/logs', readOnly: true }] })],
      volumes: [{ name: 'varlog', hostPath: { path: '/var/log', type: 'Directory' } }],
    };
    expect(HostAccess.of(s)).toEqual([{
      type: HostAccessType.HOST_PATH, detail: '/var/log (read-only)', readOnly: true, path: '/var/log', volumes: ['varlog'], containers: ['a', 'init'], hostPathType: 'Directory',
    }]);
  });

  test('the volumes\' type when they agree on one; none when they differ or set none', () => {
    const mount = (name: string) => ({ name, mountPath: `/${name}`, readOnly: true });
    const s = {
      containers: [container('a', { volumeMounts: [mount('x'), mount('y'), mount('z')] })],
      volumes: [
        { name: 'x', hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' } },
        { name: 'y', hostPath: { path: '/var/log', type: 'Directory' } },
        { name: 'z', hostPath: { path: '/var/log' } },
      ],
    };
    expect(HostAccess.of(s).map((i) => [i.path, i.hostPathType])).toEqual([['/run/xtables.lock', 'FileOrCreate'], ['/var/log', undefined]]);
  });

  test('only init containers that run to completion: onlyInitContainers (a sidecar init container is long-running)', () => {
    const s = {
      initContainers: [
        container('install', { volumeMounts: [{ name: 'bin', mountPath: '/host/opt/cni/bin' }] }),
        container('sidecar', { restartPolicy: 'Always', volumeMounts: [{ name: 'state', mountPath: '/state' }] }),
      ],
      containers: [container('agent', { volumeMounts: [{ name: 'bin', mountPath: '/bin-ro', readOnly: true }, { name: 'conf', mountPath: '/conf' }] })],
      volumes: [{ name: 'bin', hostPath: { path: '/opt/cni/bin' } }, { name: 'state', hostPath: { path: '/var/lib/agent' } }, { name: 'conf', hostPath: { path: '/etc/cni/net.d' } }],
    };
    expect(HostAccess.of(s).map((i) => [i.path, i.onlyInitContainers])).toEqual([
      ['/etc/cni/net.d', undefined], // the agent writes it
      ['/opt/cni/bin', true], // the agent only reads it: only the installer writes it
      ['/var/lib/agent', undefined], // the sidecar runs beside the agent
    ]);
  });

  test.each(['initContainers', 'containers', 'ephemeralContainers'])('read-write when any container (here in %s) mounts it without readOnly: true', (list) => {
    const s: any = {
      containers: [container('a', { volumeMounts: [{ name: 'state', mountPath: '/state', readOnly: true }] })],
      volumes: [{ name: 'state', hostPath: { path: '/var/lib/agent' } }],
    };
    s[list] = [...(s[list] ?? []), container('writer', { volumeMounts: [{ name: 'state', mountPath: '/s', readOnly: false }] })];
    const [item] = HostAccess.of(s);
    expect(item.detail).toBe('/var/lib/agent (read-write)');
    expect(item.readOnly).toBe(false);
    expect(item.containers).toEqual(['a', 'writer']);
  });

  test('a mount with readOnly unset is read-write', () => {
    const s = { containers: [container('a', { volumeMounts: [{ name: 'v', mountPath: '/v' }] })], volumes: [{ name: 'v', hostPath: { path: '/data' } }] };
    expect(HostAccess.of(s)[0].detail).toBe('/data (read-write)');
  });

  test('an unmounted hostPath volume still counts, as read-write, with no containers', () => {
    const s = { containers: [container('a')], volumes: [{ name: 'unused', hostPath: { path: '/etc' } }] };
    expect(HostAccess.of(s)).toEqual([{
      type: HostAccessType.HOST_PATH, detail: '/etc (read-write)', readOnly: false, path: '/etc', volumes: ['unused'], containers: [],
    }]);
  });

  test('paths are normalised, and volumes pointing at the same path are one item', () => {
    const s = {
      containers: [container('a', { volumeMounts: [{ name: 'y', mountPath: '/y', readOnly: true }, { name: 'x', mountPath: '/x', readOnly: true }] })],
      volumes: [{ name: 'y', hostPath: { path: '/var//log/' } }, { name: 'x', hostPath: { path: '/var/log/pods/../.' } }],
    };
    expect(HostAccess.of(s)).toEqual([{
      type: HostAccessType.HOST_PATH, detail: '/var/log (read-only)', readOnly: true, path: '/var/log', volumes: ['x', 'y'], containers: ['a'],
    }]);
  });

  test('mountPropagation: the strongest mode among the mounts is reported; None is not', () => {
    const s = {
      containers: [
        container('a', { volumeMounts: [{ name: 'k', mountPath: '/k', mountPropagation: 'HostToContainer' }, { name: 'n', mountPath: '/n', mountPropagation: 'None' }] }),
        container('b', { volumeMounts: [{ name: 'k', mountPath: '/k', mountPropagation: 'Bidirectional' }] }),
      ],
      volumes: [{ name: 'k', hostPath: { path: '/var/lib/kubelet' } }, { name: 'n', hostPath: { path: '/opt' } }],
    };
    const items = HostAccess.of(s);
    expect(items.find((i) => i.path === '/var/lib/kubelet')?.mountPropagation).toBe('Bidirectional');
    expect(items.find((i) => i.path === '/opt')).not.toHaveProperty('mountPropagation');
  });

  test('a subPath does not narrow the reported path; Windows paths are kept as written', () => {
    const s = {
      containers: [container('a', { volumeMounts: [{ name: 'v', mountPath: '/k', subPath: 'kubelet', readOnly: true }, { name: 'w', mountPath: '/w', readOnly: true }] })],
      volumes: [{ name: 'v', hostPath: { path: '/var/lib' } }, { name: 'w', hostPath: { path: 'C:\\ProgramData\\agent' } }],
    };
    expect(HostAccess.of(s).map((i) => i.detail)).toEqual(['/var/lib (read-only)', 'C:\\ProgramData\\agent (read-only)']);
  });

  test('a hostPath without a path is rejected', () => {
    expect(() => HostAccess.of({ volumes: [{ name: 'v', hostPath: {} }] })).toThrow(
      'spec.volumes[0].hostPath.path must be a non-empty string, got undefined: set the host path to mount',
    );
  });

  test('other volume types are not host access', () => {
    const s = { containers: [container('a', { volumeMounts: [{ name: 'c', mountPath: '/c' }] })], volumes: [{ name: 'c', configMap: { name: 'c' } }, { name: 'e', emptyDir: {} }] };
    expect(HostAccess.of(s)).toEqual([]);
  });
});

describe('hostPort', () => {
  test('one item per container, port and protocol; TCP when unset; hostPort 0 ignored', () => {
    const s = {
      containers: [
        container('exporter', { ports: [{ containerPort: 9100, hostPort: 9100 }, { containerPort: 9100, hostPort: 9100, protocol: 'TCP' }, { containerPort: 53, hostPort: 53, protocol: 'UDP' }, { containerPort: 80, hostPort: 0 }, { containerPort: 81 }] }),
        container('other', { ports: [{ containerPort: 9100, hostPort: 9100 }] }),
      ],
    };
    expect(HostAccess.of(s)).toEqual([
      { type: HostAccessType.HOST_PORT, detail: '53/UDP', container: 'exporter', port: 53, protocol: 'UDP' },
      { type: HostAccessType.HOST_PORT, detail: '9100/TCP', container: 'exporter', port: 9100, protocol: 'TCP' },
      { type: HostAccessType.HOST_PORT, detail: '9100/TCP', container: 'other', port: 9100, protocol: 'TCP' },
    ]);
  });

  test('with hostNetwork every container port is a host port of its container (viaHostNetwork); a declared one stays declared', () => {
    const s = {
      hostNetwork: true,
      initContainers: [container('init', { ports: [{ containerPort: 9000 }] })],
      containers: [
        container('dns', { ports: [{ containerPort: 53, protocol: 'UDP' }, { containerPort: 53, protocol: 'TCP' }, { containerPort: 9253, hostPort: 9253 }] }),
        container('speaker', { ports: [{ name: 'memberlist', containerPort: 7946 }] }),
      ],
    };
    expect(HostAccess.of(s).filter((i) => i.type === HostAccessType.HOST_PORT)).toEqual([
      { type: HostAccessType.HOST_PORT, detail: '53/TCP', container: 'dns', port: 53, protocol: 'TCP', viaHostNetwork: true },
      { type: HostAccessType.HOST_PORT, detail: '53/UDP', container: 'dns', port: 53, protocol: 'UDP', viaHostNetwork: true },
      { type: HostAccessType.HOST_PORT, detail: '7946/TCP', container: 'speaker', port: 7946, protocol: 'TCP', viaHostNetwork: true },
      { type: HostAccessType.HOST_PORT, detail: '9000/TCP', container: 'init', port: 9000, protocol: 'TCP', viaHostNetwork: true },
      { type: HostAccessType.HOST_PORT, detail: '9253/TCP', container: 'dns', port: 9253, protocol: 'TCP' },
    ]);
    // without hostNetwork a container port stays in the pod's own network namespace
    expect(HostAccess.of({ ...s, hostNetwork: false }).filter((i) => i.type === HostAccessType.HOST_PORT).map((i) => i.detail)).toEqual(['9253/TCP']);
  });

  test('with hostNetwork a port listed both without and with its hostPort is one item, the declared one, in either order', () => {
    const reached = { containerPort: 53 };
    const declared = { containerPort: 53, hostPort: 53 };
    for (const ports of [[reached, declared], [declared, reached]]) {
      expect(HostAccess.of({ hostNetwork: true, containers: [container('dns', { ports })] })).toEqual([
        { type: HostAccessType.HOST_NETWORK, detail: '' },
        { type: HostAccessType.HOST_PORT, detail: '53/TCP', container: 'dns', port: 53, protocol: 'TCP' },
      ]);
    }
  });

  test('with hostNetwork a container port without a valid containerPort is rejected', () => {
    expect(() => HostAccess.of({ hostNetwork: true, containers: [container('a', { ports: [{ name: 'x' }] })] })).toThrow(
      'spec.containers[name=a].ports[0].containerPort must be a port number from 1 to 65535, got undefined',
    );
  });

  test.each([[70000], [-1], [1.5], ['http']])('hostPort %j is rejected', (hostPort) => {
    expect(() => HostAccess.of({ containers: [container('a', { ports: [{ containerPort: 80, hostPort }] })] })).toThrow(
      `spec.containers[name=a].ports[0].hostPort must be a port number from 1 to 65535, got ${JSON.stringify(hostPort)}`,
    );
  });
});

describe('privileged and capabilities', () => {
  test('privileged: one item per container, the detail is the container name', () => {
    const s = {
      initContainers: [container('init', { securityContext: { privileged: true } })],
      containers: [container('agent', { securityContext: { privileged: true } }), container('plain')],
      ephemeralContainers: [container('debug', { securityContext: { privileged: true } })],
    };
    expect(keys(HostAccess.of(s))).toEqual(['privileged|agent|agent', 'privileged|debug|debug', 'privileged|init|init']);
  });

  test('capabilities are normalised (upper case, no CAP_), deduplicated per container, one item per container', () => {
    const s = {
      containers: [
        container('a', { securityContext: { capabilities: { add: ['CAP_NET_ADMIN', 'net_admin', 'SYS_PTRACE'], drop: ['ALL'] } } }),
        container('b', { securityContext: { capabilities: { add: ['NET_ADMIN', 'ALL'] } } }),
      ],
    };
    expect(HostAccess.of(s)).toEqual([
      { type: HostAccessType.CAPABILITY, detail: 'ALL', container: 'b', hostNamespaces: [] },
      { type: HostAccessType.CAPABILITY, detail: 'NET_ADMIN', container: 'a', hostNamespaces: [] },
      { type: HostAccessType.CAPABILITY, detail: 'NET_ADMIN', container: 'b', hostNamespaces: [] },
      { type: HostAccessType.CAPABILITY, detail: 'SYS_PTRACE', container: 'a', hostNamespaces: [] },
    ]);
  });

  test('a capability item carries the host namespaces the pod shares, which decide what it reaches', () => {
    const s = { hostNetwork: true, hostPID: true, containers: [container('a', { securityContext: { capabilities: { add: ['NET_RAW'] } } })] };
    const item = HostAccess.of(s).find((i) => i.type === HostAccessType.CAPABILITY)!;
    expect(item.hostNamespaces).toEqual(['hostNetwork', 'hostPID']);
  });

  test('dropped capabilities are not host access', () => {
    expect(HostAccess.of({ containers: [container('a', { securityContext: { capabilities: { drop: ['ALL', 'NET_RAW'] } } })] })).toEqual([]);
  });

  test.each([['CAP_SYS_ADMIN', 'SYS_ADMIN'], [' cap_bpf ', 'BPF'], ['perfmon', 'PERFMON'], ['NET_RAW', 'NET_RAW']])('normalizeCapability(%j) is %s', (given, expected) => {
    expect(HostAccess.normalizeCapability(given)).toBe(expected);
  });
});

describe('runAsRoot', () => {
  // [pod securityContext, container securityContext (without the default runAsNonRoot), root?]
  const table: Array<[string, any, any, boolean]> = [
    ['nothing set: the image may run as root', {}, {}, true],
    ['container runAsNonRoot: true', {}, { runAsNonRoot: true }, false],
    ['pod runAsNonRoot: true', { runAsNonRoot: true }, {}, false],
    ['pod true, container runAsNonRoot: false', { runAsNonRoot: true }, { runAsNonRoot: false }, true],
    ['container runAsUser 0, even with runAsNonRoot: true', { runAsNonRoot: true }, { runAsUser: 0, runAsNonRoot: true }, true],
    ['pod runAsUser 0', { runAsUser: 0 }, {}, true],
    ['pod runAsUser 0, container runAsNonRoot: true: runAsUser 0 wins', { runAsUser: 0 }, { runAsNonRoot: true }, true],
    ['pod runAsUser 0, container runAsUser 1000', { runAsUser: 0 }, { runAsUser: 1000 }, false],
    ['pod runAsUser 1000', { runAsUser: 1000 }, {}, false],
    ['pod runAsUser 1000, runAsNonRoot: false', { runAsUser: 1000, runAsNonRoot: false }, {}, false],
    ['pod runAsUser 1000, container runAsUser 0', { runAsUser: 1000 }, { runAsUser: 0 }, true],
    ['runAsGroup 0 alone', {}, { runAsGroup: 0, runAsUser: 10 }, false],
  ];

  test.each(table)('%s', (_name, podSc, sc, root) => {
    const s = { securityContext: podSc, containers: [{ name: 'agent', image: 'x', securityContext: sc }] };
    expect(HostAccess.of(s)).toEqual(root ? [{ type: HostAccessType.RUN_AS_ROOT, detail: 'agent', container: 'agent' }] : []);
  });

  test('init and ephemeral containers are covered, each its own item', () => {
    const s = { initContainers: [{ name: 'init' }], containers: [container('a')], ephemeralContainers: [{ name: 'debug' }] };
    expect(keys(HostAccess.of(s))).toEqual(['runAsRoot|debug|debug', 'runAsRoot|init|init']);
  });

  test.each([
    ['spec.os.name: windows', { os: { name: 'windows' } }],
    ['a kubernetes.io/os: windows nodeSelector', { nodeSelector: { 'kubernetes.io/os': 'windows' } }],
  ])('a Windows pod (%s) has no UIDs: its root is ContainerAdministrator, the image\'s user when runAsUserName is unset', (_name, extra) => {
    expect(HostAccess.of({ ...extra, containers: [{ name: 'agent', image: 'x' }] })).toEqual([
      { type: HostAccessType.RUN_AS_ROOT, detail: 'agent', container: 'agent', windows: true },
    ]);
    const risk = HostAccess.of({ ...extra, containers: [{ name: 'agent', image: 'x' }] }).map((i) => descriptorOf(i.type).assess(i))[0];
    expect(risk.attackerGains).toContain('ContainerAdministrator');
    expect(risk.attackerGains).not.toContain('UID 0');
    expect(risk.saferAlternative).toContain('runAsUserName: ContainerUser');
  });

  test.each([
    ['runAsUserName ContainerUser on the container', {}, { windowsOptions: { runAsUserName: 'ContainerUser' } }, false],
    ['runAsUserName ContainerUser on the pod', { securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } }, {}, false],
    ['runAsNonRoot: true (the Windows kubelet refuses ContainerAdministrator)', { securityContext: { runAsNonRoot: true } }, {}, false],
    ['runAsUserName ContainerAdministrator, named', {}, { windowsOptions: { runAsUserName: 'containeradministrator' } }, true],
  ])('a Windows container with %s: runAsRoot %s', (_name, pod, sc, expected) => {
    const items = HostAccess.of({ os: { name: 'windows' }, ...pod, containers: [{ name: 'agent', image: 'x', securityContext: sc }] });
    expect(items.some((i) => i.type === HostAccessType.RUN_AS_ROOT)).toBe(expected);
  });
});

describe('hostProcess (Windows)', () => {
  test('one item per HostProcess container, set on the pod or the container, with the user it runs as; no runAsRoot', () => {
    const s = {
      hostNetwork: true,
      securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
      initContainers: [{ name: 'install', image: 'x' }],
      containers: [{ name: 'agent', image: 'x', securityContext: { windowsOptions: { runAsUserName: 'NT AUTHORITY\\LOCAL SERVICE' } } }],
    };
    expect(HostAccess.of(s)).toEqual([
      { type: HostAccessType.HOST_NETWORK, detail: '' },
      { type: HostAccessType.HOST_PROCESS, detail: 'agent', container: 'agent', runAsUserName: 'NT AUTHORITY\\LOCAL SERVICE' },
      { type: HostAccessType.HOST_PROCESS, detail: 'install', container: 'install', runAsUserName: 'NT AUTHORITY\\SYSTEM' },
    ]);
  });

  test('a container\'s own hostProcess: false wins over the pod\'s (the API server rejects the mix; the model reports what is written)', () => {
    const s = {
      securityContext: { windowsOptions: { hostProcess: true } },
      containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'x', securityContext: { windowsOptions: { hostProcess: false } } }],
    };
    // b is a Windows container that is not HostProcess: it may run as ContainerAdministrator
    expect(keys(HostAccess.of(s))).toEqual(['hostProcess|a|a', 'runAsRoot|b|b']);
  });

  test('windowsOptions of the wrong type is rejected', () => {
    expect(() => HostAccess.of({ securityContext: { windowsOptions: 'yes' }, containers: [{ name: 'a' }] })).toThrow(
      'spec.securityContext.windowsOptions must be an object',
    );
  });
});

describe('order and workloads', () => {
  const busy = {
    hostPID: true,
    hostNetwork: true,
    initContainers: [{ name: 'install', image: 'x', securityContext: { privileged: true }, volumeMounts: [{ name: 'cni-bin', mountPath: '/host/opt/cni/bin' }] }],
    containers: [{
      name: 'agent',
      image: 'x',
      ports: [{ containerPort: 9100, hostPort: 9100 }],
      securityContext: { runAsUser: 0, capabilities: { add: ['SYS_PTRACE', 'BPF'] } },
      volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }, { name: 'proc', mountPath: '/host/proc', readOnly: true }],
    }],
    volumes: [
      { name: 'varlog', hostPath: { path: '/var/log' } },
      { name: 'proc', hostPath: { path: '/proc' } },
      { name: 'cni-bin', hostPath: { path: '/opt/cni/bin' } },
    ],
  };

  const expected = [
    'hostPath|/opt/cni/bin (read-write)|',
    'hostPath|/proc (read-only)|',
    'hostPath|/var/log (read-only)|',
    'hostNetwork||',
    'hostPID||',
    'hostPort|9100/TCP|agent',
    'privileged|install|install',
    'capability|BPF|agent',
    'capability|SYS_PTRACE|agent',
    'runAsRoot|agent|agent',
    'runAsRoot|install|install',
  ];

  test('items are sorted by type (HostAccessType order), then detail, then container', () => {
    expect(keys(HostAccess.of(busy))).toEqual(expected);
  });

  test.each([
    ['DaemonSet', (s: any) => ({ kind: 'DaemonSet', metadata: { name: 'd' }, spec: { template: { spec: s } } })],
    ['Deployment', (s: any) => ({ kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: s } } })],
    ['StatefulSet', (s: any) => ({ kind: 'StatefulSet', metadata: { name: 'd' }, spec: { template: { spec: s } } })],
    ['ReplicaSet', (s: any) => ({ kind: 'ReplicaSet', metadata: { name: 'd' }, spec: { template: { spec: s } } })],
    ['Job', (s: any) => ({ kind: 'Job', metadata: { name: 'd' }, spec: { template: { spec: s } } })],
    ['CronJob', (s: any) => ({ kind: 'CronJob', metadata: { name: 'd' }, spec: { jobTemplate: { spec: { template: { spec: s } } } } })],
    ['Pod', (s: any) => ({ kind: 'Pod', metadata: { name: 'd' }, spec: s })],
  ])('ofWorkload finds the pod spec of a %s', (_kind, wrap) => {
    expect(keys(HostAccess.ofWorkload(wrap(busy)))).toEqual(expected);
  });

  test('ofWorkload rejects other kinds and bad input', () => {
    expect(() => HostAccess.ofWorkload({ kind: 'Service', metadata: { name: 's' } })).toThrow('kind "Service" has no pod template: pass a Pod');
    expect(() => HostAccess.ofWorkload('DaemonSet')).toThrow('manifest must be a Kubernetes object, got "DaemonSet"');
    expect(() => HostAccess.of(null)).toThrow('pod spec must be an object (a v1 PodSpec), got null');
    expect(() => HostAccess.of({ volumes: {} })).toThrow('spec.volumes must be a list, got {}');
  });

  test('the source document\'s section 4.2 manifest: two capabilities and a read-only /var/log, not root', () => {
    const guide = { kind: 'DaemonSet', metadata: { name: 'node-agent' }, ...guideFixture('4-2-least-privilege') };
    expect(keys(HostAccess.ofWorkload(guide))).toEqual([
      'hostPath|/var/log (read-only)|',
      'capability|NET_ADMIN|agent',
      'capability|SYS_PTRACE|agent',
    ]);
  });

  test('every item finds the reason recorded for it through HostAccessReasons', () => {
    const items = HostAccess.of(busy);
    const annotation = HostAccessReasons.format(items.map((i) => ({ type: i.type, detail: i.detail, container: i.container, reason: `why ${i.detail}` })));
    const recorded = HostAccessReasons.parse({ [HostAccessReasons.ANNOTATION]: annotation });
    for (const item of items) {
      expect(HostAccessReasons.find(recorded, item.type, item.detail, item.container)?.reason).toBe(`why ${item.detail}`);
    }
  });

  test('normalizePath', () => {
    expect(HostAccess.normalizePath('/var//run/./docker.sock')).toBe('/var/run/docker.sock');
    expect(HostAccess.normalizePath('/../etc/')).toBe('/etc');
    expect(HostAccess.normalizePath('/')).toBe('/');
    expect(HostAccess.normalizePath('C:\\data')).toBe('C:\\data');
  });
});

// ---------- properties ----------

const nameArb = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);
const pathArb = fc.array(fc.constantFrom('var', 'log', 'lib', 'run', 'etc', 'proc', '.', '..', ''), { minLength: 0, maxLength: 4 })
  .map((parts) => `/${parts.join('/')}`);

const specArb = fc.record({
  containers: fc.uniqueArray(fc.record({
    name: nameArb,
    list: fc.constantFrom('initContainers', 'containers', 'ephemeralContainers'),
    privileged: fc.option(fc.boolean(), { nil: undefined }),
    runAsUser: fc.option(fc.constantFrom(0, 1000), { nil: undefined }),
    runAsNonRoot: fc.option(fc.boolean(), { nil: undefined }),
    add: fc.subarray(['NET_ADMIN', 'CAP_SYS_PTRACE', 'bpf', 'CHOWN']),
    hostPorts: fc.uniqueArray(fc.integer({ min: 1, max: 65535 }), { maxLength: 2 }),
    mounts: fc.array(fc.record({ volume: fc.nat(5), readOnly: fc.option(fc.boolean(), { nil: undefined }) }), { maxLength: 3 }),
  }), { selector: (c) => c.name, minLength: 1, maxLength: 4 }),
  hostPaths: fc.array(pathArb, { maxLength: 5 }),
  hostNetwork: fc.option(fc.boolean(), { nil: undefined }),
  hostPID: fc.option(fc.boolean(), { nil: undefined }),
  hostIPC: fc.option(fc.boolean(), { nil: undefined }),
}).map((g) => {
  const s: any = JSON.parse(JSON.stringify({ hostNetwork: g.hostNetwork, hostPID: g.hostPID, hostIPC: g.hostIPC }));
  s.volumes = g.hostPaths.map((path, i) => ({ name: `v${i}`, hostPath: { path } }));
  for (const c of g.containers) {
    s[c.list] = s[c.list] ?? [];
    s[c.list].push(JSON.parse(JSON.stringify({
      name: c.name,
      image: 'x',
      ports: c.hostPorts.map((p) => ({ containerPort: p, hostPort: p })),
      securityContext: { privileged: c.privileged, runAsUser: c.runAsUser, runAsNonRoot: c.runAsNonRoot, capabilities: { add: c.add } },
      volumeMounts: c.mounts.map((m, i) => ({ name: `v${m.volume}`, mountPath: `/m${i}`, readOnly: m.readOnly })),
    })));
  }
  return s;
});

function shuffle<T>(items: T[] | undefined, seed: number): T[] | undefined {
  if (!items) return items;
  const out = [...items];
  let x = Math.abs(seed) + 1;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('properties', () => {
  test('the output does not depend on the order of volumes, containers or mounts', () => {
    fc.assert(fc.property(specArb, fc.integer(), (s, seed) => {
      const shuffled = JSON.parse(JSON.stringify(s));
      shuffled.volumes = shuffle(shuffled.volumes, seed);
      for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
        shuffled[list] = shuffle(shuffled[list], seed + 1);
        for (const c of shuffled[list] ?? []) c.volumeMounts = shuffle(c.volumeMounts, seed + 2);
      }
      expect(HostAccess.of(shuffled)).toEqual(HostAccess.of(s));
    }), { numRuns: 300 });
  });

  test('items are unique, sorted, and every hostPath volume is covered exactly once', () => {
    fc.assert(fc.property(specArb, (s) => {
      const items = HostAccess.of(s);
      const k = keys(items);
      expect(new Set(k).size).toBe(k.length);
      const paths = items.filter((i) => i.type === HostAccessType.HOST_PATH).map((i) => i.path);
      expect(paths.length).toBe(new Set(paths).size);
      for (const v of s.volumes) {
        expect(paths).toContain(HostAccess.normalizePath(v.hostPath.path));
      }
      const order = Object.values(HostAccessType);
      for (let i = 1; i < items.length; i++) {
        expect(order.indexOf(items[i - 1].type)).toBeLessThanOrEqual(order.indexOf(items[i].type));
      }
    }), { numRuns: 300 });
  });

  test('a hostPath is read-only exactly when it is mounted and every mount is read-only', () => {
    fc.assert(fc.property(specArb, (s) => {
      const containers = ['initContainers', 'containers', 'ephemeralContainers'].flatMap((l) => s[l] ?? []);
      for (const item of HostAccess.of(s).filter((i) => i.type === HostAccessType.HOST_PATH)) {
        const volumes = s.volumes.filter((v: any) => HostAccess.normalizePath(v.hostPath.path) === item.path).map((v: any) => v.name);
        const mounts = containers.flatMap((c: any) => c.volumeMounts ?? []).filter((m: any) => volumes.includes(m.name));
        expect(item.readOnly).toBe(mounts.length > 0 && mounts.every((m: any) => m.readOnly === true));
        expect(item.detail).toBe(`${item.path} (${item.readOnly ? 'read-only' : 'read-write'})`);
      }
    }), { numRuns: 300 });
  });

  test('container-level items name a container of the pod; pod-level ones do not', () => {
    fc.assert(fc.property(specArb, (s) => {
      const names = ['initContainers', 'containers', 'ephemeralContainers'].flatMap((l) => (s[l] ?? []).map((c: any) => c.name));
      for (const item of HostAccess.of(s)) {
        const podLevel = [HostAccessType.HOST_PATH, HostAccessType.HOST_NETWORK, HostAccessType.HOST_PID, HostAccessType.HOST_IPC]
          .includes(item.type);
        if (podLevel) expect(item.container).toBeUndefined();
        else expect(names).toContain(item.container);
      }
    }), { numRuns: 200 });
  });
});

describe('HostAccessReasons.parse reads each annotation text once', () => {
  test('a second parse of the same text gives the same reasons, in a list of its own', () => {
    const annotations = { [HostAccessReasons.ANNOTATION]: HostAccessReasons.format([{ type: HostAccessType.HOST_NETWORK, detail: '', reason: 'CNI' }]) };
    const first = HostAccessReasons.parse(annotations);
    first.pop();
    expect(HostAccessReasons.parse(annotations)).toEqual([{ type: HostAccessType.HOST_NETWORK, detail: '', reason: 'CNI' }]);
  });

  test('an annotation that fails fails every time', () => {
    const bad = { [HostAccessReasons.ANNOTATION]: '[{"type": "hostNetwork"}]' };
    expect(() => HostAccessReasons.parse(bad)).toThrow(/entry 0 must be/);
    expect(() => HostAccessReasons.parse(bad)).toThrow(/entry 0 must be/);
  });
});
