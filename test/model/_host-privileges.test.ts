import { HostAccess, HostAccessType, HostRisk, PodSecurity, PodSecurityLevel } from '../../src';
import { descriptorOf, HOST_PRIVILEGES } from '../../src/model/_host-privileges';

const safe = { runAsNonRoot: true };

/** a pod spec that takes exactly one host privilege (every container is non-root unless the privilege is root). */
const SINGLE: { [type: string]: any } = {
  [HostAccessType.HOST_PATH]: {
    volumes: [{ name: 'logs', hostPath: { path: '/var/log', type: 'Directory' } }],
    containers: [{ name: 'a', image: 'a:1', securityContext: safe, volumeMounts: [{ name: 'logs', mountPath: '/var/log', readOnly: true }] }],
  },
  [HostAccessType.HOST_NETWORK]: { hostNetwork: true, containers: [{ name: 'a', image: 'a:1', securityContext: safe }] },
  [HostAccessType.HOST_PID]: { hostPID: true, containers: [{ name: 'a', image: 'a:1', securityContext: safe }] },
  [HostAccessType.HOST_IPC]: { hostIPC: true, containers: [{ name: 'a', image: 'a:1', securityContext: safe }] },
  [HostAccessType.HOST_PORT]: { containers: [{ name: 'a', image: 'a:1', securityContext: safe, ports: [{ containerPort: 9100, hostPort: 9100 }] }] },
  [HostAccessType.PRIVILEGED]: { containers: [{ name: 'a', image: 'a:1', securityContext: { ...safe, privileged: true } }] },
  // a Windows pod: the API server also requires hostNetwork, left out here so that the pod takes only this privilege
  [HostAccessType.HOST_PROCESS]: {
    os: { name: 'windows' },
    containers: [{ name: 'a', image: 'a:1', securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } } }],
  },
  [HostAccessType.CAPABILITY]: { containers: [{ name: 'a', image: 'a:1', securityContext: { ...safe, capabilities: { add: ['NET_ADMIN'] } } }] },
  [HostAccessType.RUN_AS_ROOT]: { containers: [{ name: 'a', image: 'a:1', securityContext: { runAsUser: 0 } }] },
};

function dig(root: any, path: string): any {
  return path.split('.').reduce((cur, step) => {
    const m = /^([^[]+)\[(\d+)\]$/.exec(step);
    return m ? cur?.[m[1]]?.[Number(m[2])] : cur?.[step];
  }, root);
}

describe('one descriptor per host privilege type', () => {
  test('every HostAccessType has exactly one descriptor, in the enum\'s order', () => {
    expect(HOST_PRIVILEGES.map((d) => d.type)).toEqual(Object.values(HostAccessType));
    for (const type of Object.values(HostAccessType)) expect(descriptorOf(type).type).toBe(type);
  });

  test('an unknown type is an error, never a default', () => {
    expect(() => descriptorOf('hostTime')).toThrow('host access type "hostTime" is not known: use one of hostPath, hostNetwork, hostPID, hostIPC, hostPort, privileged, hostProcess, capability, runAsRoot');
    expect(() => descriptorOf('toString')).toThrow(/is not known/);
    expect(() => HostRisk.assess({ type: 'hostTime' as HostAccessType, detail: '' })).toThrow(/is not known/);
  });

  test.each(Object.values(HostAccessType))('%s: detected alone in a pod spec that takes only it', (type) => {
    expect(HostAccess.of(SINGLE[type]).map((i) => i.type)).toEqual([type]);
  });

  test.each(Object.values(HostAccessType))('%s: its field points at what grants it (or, for root, where to forbid it)', (type) => {
    const spec = SINGLE[type];
    const [item] = HostAccess.of(spec);
    const field = descriptorOf(type).field(item, spec);
    expect(field).toBe({
      hostPath: 'volumes[0].hostPath',
      hostNetwork: 'hostNetwork',
      hostPID: 'hostPID',
      hostIPC: 'hostIPC',
      hostPort: 'containers[0].ports',
      privileged: 'containers[0].securityContext.privileged',
      hostProcess: 'containers[0].securityContext.windowsOptions.hostProcess',
      capability: 'containers[0].securityContext.capabilities.add',
      runAsRoot: 'containers[0].securityContext.runAsNonRoot',
    }[type]);
    if (type !== HostAccessType.RUN_AS_ROOT) expect(dig(spec, field)).toBeDefined();
  });

  test.each(Object.values(HostAccessType))('%s: a fixed risk basis is the risk it assesses (RULES.md states it)', (type) => {
    const d = descriptorOf(type);
    const [item] = HostAccess.of(SINGLE[type]);
    if ('fixed' in d.riskBasis) expect(d.assess(item).risk).toBe(d.riskBasis.fixed);
    else expect(d.riskBasis.dependsOn).toMatch(/^the [a-z]/);
  });

  test.each(Object.values(HostAccessType))('%s: the Pod Security baseline check it names is the one Pod Security fails on it alone', (type) => {
    const spec = SINGLE[type];
    const [item] = HostAccess.of(spec);
    const baseline = PodSecurity.evaluate(spec, { version: 'latest' }).violations.filter((v) => v.level === PodSecurityLevel.BASELINE).map((v) => v.check);
    const named = descriptorOf(type).podSecurityCheck(item);
    expect(baseline).toEqual(named === undefined ? [] : [named]);
  });

  test('a capability the baseline allows fails no check', () => {
    const spec = { containers: [{ name: 'a', image: 'a:1', securityContext: { ...safe, capabilities: { add: ['CHOWN'] } } }] };
    const [item] = HostAccess.of(spec);
    expect(descriptorOf(item.type).podSecurityCheck(item)).toBeUndefined();
    expect(PodSecurity.evaluate(spec).violations.filter((v) => v.level === PodSecurityLevel.BASELINE)).toEqual([]);
  });

  test('descriptions and labels, as findings and the report print them', () => {
    const words = (type: HostAccessType, detail: string) => {
      const d = descriptorOf(type);
      return [d.describe({ type, detail }), d.label({ type, detail })];
    };
    expect(words(HostAccessType.HOST_PATH, '/var/log (read-only)')).toEqual(['hostPath /var/log (read-only)', 'hostPath /var/log (read-only)']);
    expect(words(HostAccessType.HOST_NETWORK, '')).toEqual(['hostNetwork', 'hostNetwork']);
    expect(words(HostAccessType.PRIVILEGED, 'a')).toEqual(['privileged', 'privileged']);
    expect(words(HostAccessType.RUN_AS_ROOT, 'a')).toEqual(['runAsRoot (may run as root)', 'runAsRoot']);
    expect(words(HostAccessType.CAPABILITY, 'NET_ADMIN')).toEqual(['capability NET_ADMIN', 'capability NET_ADMIN']);
  });

  test('a container port that is a node port only through hostNetwork needs no reason of its own, and fails no check of its own', () => {
    const spec = { hostNetwork: true, containers: [{ name: 'a', image: 'a:1', securityContext: safe, ports: [{ containerPort: 8081 }] }] };
    const port = HostAccess.of(spec).find((i) => i.type === HostAccessType.HOST_PORT)!;
    expect(port).toMatchObject({ detail: '8081/TCP', container: 'a', viaHostNetwork: true });
    expect(descriptorOf(HostAccessType.HOST_PORT).reasonRequired(port)).toBe(false);
    expect(descriptorOf(HostAccessType.HOST_PORT).podSecurityCheck(port)).toBeUndefined();
    const baseline = PodSecurity.evaluate(spec, { version: 'latest' }).violations.filter((v) => v.level === PodSecurityLevel.BASELINE).map((v) => v.check);
    expect(baseline).toEqual(['hostNamespaces']);
    expect(descriptorOf(HostAccessType.HOST_PORT).label(port)).toBe('hostPort 8081/TCP (through hostNetwork)');
  });

  test('hostProcess: critical, SYSTEM named as the node', () => {
    const [item] = HostAccess.of(SINGLE[HostAccessType.HOST_PROCESS]);
    const a = HostRisk.assess(item);
    expect(a.risk).toBe('critical');
    expect(a.attackerGains).toContain('as NT AUTHORITY\\SYSTEM, with the node\'s network and file system: SYSTEM is full control of the node');
    expect(a.attackerGains).not.toContain('root');
  });

  test('NodeAgent requires a reason for every privilege, read-only host paths included', () => {
    for (const type of Object.values(HostAccessType)) {
      const [item] = HostAccess.of(SINGLE[type]);
      expect(descriptorOf(type).reasonRequired(item)).toBe(true);
    }
    const rw = { ...SINGLE.hostPath, containers: [{ name: 'a', image: 'a:1', securityContext: safe, volumeMounts: [{ name: 'logs', mountPath: '/l' }] }] };
    const writable = HostAccess.of(rw)[0];
    expect(descriptorOf(HostAccessType.HOST_PATH).reasonRequired(writable)).toBe(true);
  });
});
