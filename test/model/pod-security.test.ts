import * as fc from 'fast-check';
import { PodSecurity, PodSecurityCheck, PodSecurityLevel, PodSecurityOptions, PodSecurityResult } from '../../src/model';
import { guideFixture } from '../util/guide';

// ---------- builders (plain Kubernetes JSON) ----------

/** a pod spec that passes every restricted check at every version. */
function restricted(): any {
  return {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [{
      name: 'agent',
      image: 'registry.example.com/node-agent:1.2.0',
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    }],
  };
}

/** restricted() with changes applied to the pod spec and/or to the agent container's securityContext. */
function spec(change: (s: any, sc: any) => void): any {
  const s = restricted();
  change(s, s.containers[0].securityContext);
  return s;
}

function checksOf(violations: { check: string }[]): string[] {
  return violations.map((v) => v.check);
}

function evaluate(s: any, options?: PodSecurityOptions): PodSecurityResult {
  return PodSecurity.evaluate(s, options);
}

function failedChecks(s: any, options?: PodSecurityOptions): string[] {
  return checksOf(evaluate(s, options).violations);
}

function messageOf(s: any, check: string, options?: PodSecurityOptions): string | undefined {
  return evaluate(s, options).violations.find((v) => v.check === check)?.message;
}

const ALL_VERSIONS = ['1.25', '1.26', '1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33', '1.34', '1.35', '1.36', '1.37', 'latest'];
const minorOf = (v: string): number => (v === 'latest' ? 36 : Number(v.split('.')[1]));
const RANK = { [PodSecurityLevel.PRIVILEGED]: 0, [PodSecurityLevel.BASELINE]: 1, [PodSecurityLevel.RESTRICTED]: 2 };

// ---------- B1: how a pod's level is decided ----------

describe('PodSecurity.evaluate: levels (B1)', () => {
  test.each(ALL_VERSIONS)('the restricted fixture is restricted with no violations at %s', (version) => {
    const r = evaluate(restricted(), { version });
    expect(r.level).toBe(PodSecurityLevel.RESTRICTED);
    expect(r.violations).toEqual([]);
    expect(r.nextLevelViolations).toEqual([]);
  });

  test('a bare container is baseline; PSA lists the four failed restricted checks, sorted', () => {
    const r = evaluate({ containers: [{ name: 'agent', image: 'x' }] });
    expect(r.level).toBe(PodSecurityLevel.BASELINE);
    expect(checksOf(r.nextLevelViolations)).toEqual(['allowPrivilegeEscalation', 'capabilities_restricted', 'runAsNonRoot', 'seccompProfile_restricted']);
    expect(r.nextLevelViolations.every((v) => v.level === PodSecurityLevel.RESTRICTED)).toBe(true);
  });

  test('a privileged pod: nextLevelViolations are its failed baseline checks; violations add the restricted ones after them', () => {
    const s = { hostNetwork: true, containers: [{ name: 'agent', image: 'x', securityContext: { privileged: true } }] };
    const r = evaluate(s);
    expect(r.level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(checksOf(r.nextLevelViolations)).toEqual(['hostNamespaces', 'privileged']);
    expect(checksOf(r.violations)).toEqual([
      'hostNamespaces', 'privileged',
      'allowPrivilegeEscalation', 'capabilities_restricted', 'runAsNonRoot', 'seccompProfile_restricted',
    ]);
    expect(r.violations.map((v) => v.level)).toEqual([
      PodSecurityLevel.BASELINE, PodSecurityLevel.BASELINE,
      PodSecurityLevel.RESTRICTED, PodSecurityLevel.RESTRICTED, PodSecurityLevel.RESTRICTED, PodSecurityLevel.RESTRICTED,
    ]);
  });

  test.each(['initContainers', 'containers', 'ephemeralContainers'])('a privileged container in %s fails the whole pod', (list) => {
    const s = restricted();
    const bad = { name: 'bad', image: 'x', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, privileged: true } };
    s[list] = [...(s[list] ?? []), bad];
    const r = evaluate(s);
    expect(r.level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(r.violations).toEqual([{ level: PodSecurityLevel.BASELINE, check: 'privileged', message: 'privileged (container "bad" must not set securityContext.privileged=true)' }]);
  });

  test.each(['initContainers', 'ephemeralContainers'])('restricted checks run on %s too', (list) => {
    const s = restricted();
    s[list] = [{ name: 'side', image: 'x' }];
    const r = evaluate(s);
    expect(r.level).toBe(PodSecurityLevel.BASELINE);
    expect(checksOf(r.violations)).toEqual(['allowPrivilegeEscalation', 'capabilities_restricted']);
    expect(r.violations[0].message).toBe('allowPrivilegeEscalation != false (container "side" must set securityContext.allowPrivilegeEscalation=false)');
  });

  test('a restricted check replaces the baseline one it overrides at restricted level, but both show in violations', () => {
    const s = spec((p) => { p.volumes = [{ name: 'varlog', hostPath: { path: '/var/log', type: 'Directory' } }]; });
    const r = evaluate(s);
    expect(r.level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(checksOf(r.nextLevelViolations)).toEqual(['hostPathVolumes']);
    expect(checksOf(r.violations)).toEqual(['hostPathVolumes', 'restrictedVolumes']);
    expect(checksOf(PodSecurity.violationsAt(s, PodSecurityLevel.RESTRICTED))).toEqual(['restrictedVolumes']);
    expect(checksOf(PodSecurity.violationsAt(s, PodSecurityLevel.BASELINE))).toEqual(['hostPathVolumes']);
  });

  test.each([
    ['capabilities', (_p: any, sc: any) => { sc.capabilities.add = ['NET_ADMIN']; }, 'capabilities_restricted', 'capabilities_baseline'],
    ['seccomp', (_p: any, sc: any) => { sc.seccompProfile = { type: 'Unconfined' }; }, 'seccompProfile_restricted', 'seccompProfile_baseline'],
  ])('override for %s: the restricted profile reports %s, not %s', (_name, change, restrictedCheck, baselineCheck) => {
    const s = spec(change);
    const atRestricted = checksOf(PodSecurity.violationsAt(s, PodSecurityLevel.RESTRICTED));
    expect(atRestricted).toContain(restrictedCheck);
    expect(atRestricted).not.toContain(baselineCheck);
    expect(checksOf(PodSecurity.violationsAt(s, PodSecurityLevel.BASELINE))).toEqual([baselineCheck]);
  });

  test('procMount_restricted replaces procMount at restricted level from 1.35 only', () => {
    const s = spec((_p, sc) => { sc.procMount = 'Unmasked'; });
    expect(checksOf(PodSecurity.violationsAt(s, PodSecurityLevel.RESTRICTED, { version: '1.34' }))).toEqual(['procMount']);
    expect(checksOf(PodSecurity.violationsAt(s, PodSecurityLevel.RESTRICTED, { version: '1.35' }))).toEqual(['procMount_restricted']);
    expect(failedChecks(s, { version: '1.34' })).toEqual(['procMount']);
    expect(failedChecks(s, { version: '1.35' })).toEqual(['procMount', 'procMount_restricted']);
  });

  test('violationsAt privileged is always empty; satisfies agrees with the level', () => {
    const s = { hostPID: true, containers: [{ name: 'a', image: 'x' }] };
    expect(PodSecurity.violationsAt(s, PodSecurityLevel.PRIVILEGED)).toEqual([]);
    expect(PodSecurity.satisfies(s, PodSecurityLevel.PRIVILEGED)).toBe(true);
    expect(PodSecurity.satisfies(s, PodSecurityLevel.BASELINE)).toBe(false);
    expect(PodSecurity.satisfies(restricted(), PodSecurityLevel.RESTRICTED)).toBe(true);
    expect(PodSecurity.satisfies({ containers: [{ name: 'a' }] }, PodSecurityLevel.BASELINE)).toBe(true);
    expect(PodSecurity.satisfies({ containers: [{ name: 'a' }] }, PodSecurityLevel.RESTRICTED)).toBe(false);
  });

  test('violationsAt rejects a level that is not a PodSecurityLevel', () => {
    expect(() => PodSecurity.violationsAt(restricted(), 'strict' as PodSecurityLevel)).toThrow(
      'pod security level must be one of privileged, baseline, restricted, got "strict": pass a PodSecurityLevel value',
    );
  });

  test('a pod with no containers at all is restricted', () => {
    expect(evaluate({}).level).toBe(PodSecurityLevel.RESTRICTED);
  });
});

// ---------- B2: baseline checks ----------

describe('windowsHostProcess', () => {
  test.each([
    ['pod', (p: any) => { p.securityContext.windowsOptions = { hostProcess: true }; }, 'hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)'],
    ['container', (_p: any, sc: any) => { sc.windowsOptions = { hostProcess: true }; }, 'hostProcess (container "agent" must not set securityContext.windowsOptions.hostProcess=true)'],
    ['both', (p: any, sc: any) => { p.securityContext.windowsOptions = { hostProcess: true }; sc.windowsOptions = { hostProcess: true }; },
      'hostProcess (pod and container "agent" must not set securityContext.windowsOptions.hostProcess=true)'],
  ])('hostProcess: true on the %s fails baseline', (_w, change, message) => {
    const s = spec(change);
    expect(evaluate(s).level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(messageOf(s, 'windowsHostProcess')).toBe(message);
  });

  test('hostProcess: false passes', () => {
    const s = spec((p, sc) => { p.securityContext.windowsOptions = { hostProcess: false }; sc.windowsOptions = { hostProcess: false, runAsUserName: 'x' }; });
    expect(evaluate(s).level).toBe(PodSecurityLevel.RESTRICTED);
  });
});

describe('hostNamespaces', () => {
  test.each(['hostNetwork', 'hostPID', 'hostIPC'])('%s: true fails baseline with PSA\'s message', (field) => {
    const s = spec((p) => { p[field] = true; });
    const r = evaluate(s);
    expect(r.level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(r.violations).toEqual([{ level: PodSecurityLevel.BASELINE, check: 'hostNamespaces', message: `host namespaces (${field}=true)` }]);
  });

  test('all three are named in one message, in PSA order', () => {
    const s = spec((p) => { p.hostIPC = true; p.hostPID = true; p.hostNetwork = true; });
    expect(messageOf(s, 'hostNamespaces')).toBe('host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)');
  });

  test.each(['hostNetwork', 'hostPID', 'hostIPC'])('%s: false passes', (field) => {
    expect(evaluate(spec((p) => { p[field] = false; })).level).toBe(PodSecurityLevel.RESTRICTED);
  });
});

describe('privileged', () => {
  test('privileged: true fails only the privileged check (B4)', () => {
    const s = spec((_p, sc) => { sc.privileged = true; });
    const r = evaluate(s);
    expect(r.level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(checksOf(r.violations)).toEqual(['privileged']);
  });

  test('several containers are named together', () => {
    const s = spec((_p, sc) => { sc.privileged = true; });
    s.initContainers = [{ name: 'init', image: 'x', securityContext: { ...s.containers[0].securityContext } }];
    expect(messageOf(s, 'privileged')).toBe('privileged (containers "init", "agent" must not set securityContext.privileged=true)');
  });

  test('privileged: false passes', () => {
    expect(evaluate(spec((_p, sc) => { sc.privileged = false; })).level).toBe(PodSecurityLevel.RESTRICTED);
  });
});

describe('capabilities_baseline', () => {
  const ALLOWED = ['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT'];

  test.each(ALLOWED)('adding %s passes baseline', (cap) => {
    const s = { containers: [{ name: 'agent', image: 'x', securityContext: { capabilities: { add: [cap] } } }] };
    expect(failedChecks(s)).not.toContain('capabilities_baseline');
    expect(evaluate(s).level).toBe(PodSecurityLevel.BASELINE);
  });

  test.each(['CAP_CHOWN', 'chown', 'Chown', 'NET_RAW', 'NET_ADMIN', 'SYS_PTRACE', 'SYS_ADMIN', 'BPF', 'PERFMON', 'SYS_MODULE', 'ALL', 'all'])(
    'adding %s fails baseline (exact, case-sensitive compare)', (cap) => {
      const s = spec((_p, sc) => { sc.capabilities.add = [cap]; });
      expect(evaluate(s).level).toBe(PodSecurityLevel.PRIVILEGED);
      expect(messageOf(s, 'capabilities_baseline')).toBe(`non-default capabilities (container "agent" must not include "${cap}" in securityContext.capabilities.add)`);
    });

  test('the forbidden names are listed once, sorted', () => {
    const s = spec((_p, sc) => { sc.capabilities.add = ['SYS_PTRACE', 'NET_ADMIN', 'CHOWN', 'NET_ADMIN']; });
    expect(messageOf(s, 'capabilities_baseline')).toBe('non-default capabilities (container "agent" must not include "NET_ADMIN", "SYS_PTRACE" in securityContext.capabilities.add)');
  });

  test('drop is not checked at baseline', () => {
    const s = { containers: [{ name: 'agent', image: 'x', securityContext: { capabilities: { drop: ['NET_RAW'] } } }] };
    expect(evaluate(s).level).toBe(PodSecurityLevel.BASELINE);
    expect(failedChecks(s)).not.toContain('capabilities_baseline');
  });
});

describe('hostPathVolumes', () => {
  test.each([
    [{ path: '/var/log' }, true],
    [{ path: '/var/log', type: 'Directory' }, true],
    [{ path: '/var/run/docker.sock', type: 'Socket' }, false],
    [{ path: '/', type: '' }, false],
  ])('hostPath %j fails baseline whatever its type or the mount\'s readOnly (%s)', (hostPath, readOnly) => {
    const s = spec((p) => {
      p.volumes = [{ name: 'host', hostPath }];
      p.containers[0].volumeMounts = [{ name: 'host', mountPath: '/host', readOnly }];
    });
    const r = evaluate(s);
    expect(r.level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(r.nextLevelViolations).toEqual([{ level: PodSecurityLevel.BASELINE, check: 'hostPathVolumes', message: 'hostPath volumes (volume "host")' }]);
  });

  test('an unmounted hostPath volume fails too, and several are named in spec order', () => {
    const s = spec((p) => { p.volumes = [{ name: 'b', hostPath: { path: '/b' } }, { name: 'cfg', configMap: { name: 'c' } }, { name: 'a', hostPath: { path: '/a' } }]; });
    expect(messageOf(s, 'hostPathVolumes')).toBe('hostPath volumes (volumes "b", "a")');
  });
});

describe('hostPorts', () => {
  test('a non-zero hostPort fails baseline', () => {
    const s = spec((p) => { p.containers[0].ports = [{ containerPort: 9100, hostPort: 9100 }]; });
    expect(evaluate(s).level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(messageOf(s, 'hostPorts')).toBe('hostPort (container "agent" uses hostPort 9100)');
  });

  test('hostPort 0 or unset passes', () => {
    const s = spec((p) => { p.containers[0].ports = [{ containerPort: 9100, hostPort: 0 }, { containerPort: 8080 }]; });
    expect(evaluate(s).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('several containers and ports: plural message, ports in numeric order', () => {
    const s = spec((p) => {
      p.containers[0].ports = [{ containerPort: 9100, hostPort: 9100 }];
      p.initContainers = [{ name: 'init', image: 'x', ports: [{ containerPort: 80, hostPort: 80 }], securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }];
    });
    expect(messageOf(s, 'hostPorts')).toBe('hostPort (containers "init", "agent" use hostPorts 80, 9100)');
  });
});

describe('appArmorProfile', () => {
  test.each(ALL_VERSIONS)('an Unconfined profile type fails baseline at %s (checked at every version)', (version) => {
    const s = spec((_p, sc) => { sc.appArmorProfile = { type: 'Unconfined' }; });
    expect(evaluate(s, { version }).level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(messageOf(s, 'appArmorProfile', { version })).toBe(
      'forbidden AppArmor profile (container "agent" must not set AppArmor profile type to "Unconfined")',
    );
  });

  test('a pod-level Unconfined profile fails', () => {
    const s = spec((p) => { p.securityContext.appArmorProfile = { type: 'Unconfined' }; });
    expect(messageOf(s, 'appArmorProfile')).toBe('forbidden AppArmor profile (pod must not set AppArmor profile type to "Unconfined")');
  });

  test.each(['RuntimeDefault', 'Localhost'])('%s passes at pod and container level', (type) => {
    const s = spec((p, sc) => {
      p.securityContext.appArmorProfile = { type, localhostProfile: type === 'Localhost' ? 'agent' : undefined };
      sc.appArmorProfile = { type };
    });
    expect(evaluate(JSON.parse(JSON.stringify(s))).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test.each([
    ['unconfined', false],
    ['runtime/default', true],
    ['localhost/agent-profile', true],
    ['', true],
    ['docker-default', false],
  ])('annotation value %j: allowed %s', (value, allowed) => {
    const annotations = { 'container.apparmor.security.beta.kubernetes.io/agent': value };
    const r = evaluate(restricted(), { annotations });
    expect(r.level).toBe(allowed ? PodSecurityLevel.RESTRICTED : PodSecurityLevel.PRIVILEGED);
    if (!allowed) {
      expect(r.violations[0].message).toBe(
        `forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/agent=${JSON.stringify(value)}")`,
      );
    }
  });

  test('other annotations are ignored', () => {
    expect(evaluate(restricted(), { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined', 'x': 'unconfined' } }).level)
      .toBe(PodSecurityLevel.RESTRICTED);
  });

  test('field and annotation failures are reported together', () => {
    const s = spec((_p, sc) => { sc.appArmorProfile = { type: 'Unconfined' }; });
    const annotations = { 'container.apparmor.security.beta.kubernetes.io/agent': 'unconfined' };
    expect(messageOf(s, 'appArmorProfile', { annotations })).toBe(
      'forbidden AppArmor profiles (container "agent" and annotation must not set AppArmor profile type to ' +
      '"Unconfined", "container.apparmor.security.beta.kubernetes.io/agent="unconfined"")',
    );
  });

  test('pod, container and annotation together, a type named once: kube-apiserver v1.37.2\'s own refusal', () => {
    // from `kubectl create --dry-run=server` of this pod in a namespace enforcing baseline:v1.28 (test/cluster)
    const s = spec((p, sc) => {
      p.securityContext.appArmorProfile = { type: 'Unconfined' };
      sc.appArmorProfile = { type: 'Unconfined' };
    });
    const annotations = { 'container.apparmor.security.beta.kubernetes.io/side': 'unconfined' };
    expect(messageOf(s, 'appArmorProfile', { annotations, version: '1.28' })).toBe(
      'forbidden AppArmor profiles (pod and container "agent" and annotation must not set AppArmor profile type to ' +
      '"Unconfined", "container.apparmor.security.beta.kubernetes.io/side="unconfined"")',
    );
  });
});

describe('seLinuxOptions', () => {
  test.each(['', 'container_t', 'container_init_t', 'container_kvm_t'])('type %j passes at every version', (type) => {
    for (const version of ALL_VERSIONS) {
      expect(evaluate(spec((p, sc) => { sc.seLinuxOptions = { type }; p.securityContext.seLinuxOptions = { type }; }), { version }).level)
        .toBe(PodSecurityLevel.RESTRICTED);
    }
  });

  test.each([
    ['1.30', PodSecurityLevel.PRIVILEGED],
    ['1.31', PodSecurityLevel.RESTRICTED],
    ['latest', PodSecurityLevel.RESTRICTED],
  ])('container_engine_t at %s: %s', (version, level) => {
    expect(evaluate(spec((_p, sc) => { sc.seLinuxOptions = { type: 'container_engine_t' }; }), { version }).level).toBe(level);
  });

  test('a forbidden type fails with PSA\'s message', () => {
    const s = spec((_p, sc) => { sc.seLinuxOptions = { type: 'spc_t' }; });
    expect(messageOf(s, 'seLinuxOptions')).toBe('seLinuxOptions (container "agent" set forbidden securityContext.seLinuxOptions: type "spc_t")');
  });

  test.each(['user', 'role'])('a non-empty %s fails; an empty one passes', (field) => {
    const bad = spec((p) => { p.securityContext.seLinuxOptions = { [field]: 'system_r' }; });
    expect(messageOf(bad, 'seLinuxOptions')).toBe(`seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: ${field} may not be set)`);
    expect(evaluate(spec((p) => { p.securityContext.seLinuxOptions = { [field]: '' }; })).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('level is not restricted', () => {
    expect(evaluate(spec((_p, sc) => { sc.seLinuxOptions = { level: 's0:c123,c456' }; })).level).toBe(PodSecurityLevel.RESTRICTED);
  });
});

describe('procMount', () => {
  test('Unmasked fails baseline; Default passes', () => {
    const bad = spec((_p, sc) => { sc.procMount = 'Unmasked'; });
    expect(evaluate(bad).level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(messageOf(bad, 'procMount')).toBe('procMount (container "agent" must not set securityContext.procMount to "Unmasked")');
    expect(evaluate(spec((_p, sc) => { sc.procMount = 'Default'; })).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test.each([
    ['1.34', PodSecurityLevel.PRIVILEGED, ['procMount']],
    ['1.35', PodSecurityLevel.BASELINE, ['procMount_restricted']],
    ['latest', PodSecurityLevel.BASELINE, ['procMount_restricted']],
  ])('hostUsers: false with Unmasked at %s: %s', (version, level, checks) => {
    const s = spec((p, sc) => { p.hostUsers = false; sc.procMount = 'Unmasked'; });
    const r = evaluate(s, { version });
    expect(r.level).toBe(level);
    expect(checksOf(r.violations)).toEqual(checks);
  });
});

describe('seccompProfile_baseline', () => {
  test('a pod-level Unconfined fails even if every container overrides it', () => {
    const s = spec((p, sc) => { p.securityContext.seccompProfile = { type: 'Unconfined' }; sc.seccompProfile = { type: 'RuntimeDefault' }; });
    const r = evaluate(s);
    expect(r.level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(checksOf(r.violations)).toEqual(['seccompProfile_baseline', 'seccompProfile_restricted']);
    expect(r.violations[0].message).toBe('seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")');
  });

  test('a container-level Unconfined fails', () => {
    const s = spec((_p, sc) => { sc.seccompProfile = { type: 'Unconfined' }; });
    expect(messageOf(s, 'seccompProfile_baseline')).toBe('seccompProfile (container "agent" must not set securityContext.seccompProfile.type to "Unconfined")');
  });

  test.each(['RuntimeDefault', 'Localhost'])('%s passes; unset passes at baseline', (type) => {
    expect(failedChecks(spec((_p, sc) => { sc.seccompProfile = { type }; }))).toEqual([]);
    expect(failedChecks({ containers: [{ name: 'a' }] })).not.toContain('seccompProfile_baseline');
  });
});

describe('sysctls', () => {
  const GROUPS: Array<[string, string[]]> = [
    ['1.25', ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start']],
    ['1.27', ['net.ipv4.ip_local_reserved_ports']],
    ['1.29', ['net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']],
    ['1.32', ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']],
    ['1.37', ['net.ipv4.tcp_slow_start_after_idle', 'net.ipv4.tcp_notsent_lowat']],
  ];
  const cases = GROUPS.flatMap(([since, names]) => names.flatMap(
    (name) => ALL_VERSIONS.map((version) => [name, version, minorOf(version) >= minorOf(since)] as const),
  ));

  test.each(cases)('%s at %s allowed: %s', (name, version, allowed) => {
    const s = spec((p) => { p.securityContext.sysctls = [{ name, value: '1' }]; });
    const r = evaluate(s, { version });
    if (allowed) {
      expect(r.level).toBe(PodSecurityLevel.RESTRICTED);
    } else {
      expect(r.level).toBe(PodSecurityLevel.PRIVILEGED);
      expect(r.violations).toEqual([{ level: PodSecurityLevel.BASELINE, check: 'sysctls', message: `forbidden sysctls (${name})` }]);
    }
  });

  test.each(['net.core.somaxconn', 'net/ipv4/ip_unprivileged_port_start', 'kernel.SHM_RMID_FORCED', 'vm.overcommit_memory'])('%s fails at every version', (name) => {
    for (const version of ALL_VERSIONS) {
      expect(messageOf(spec((p) => { p.securityContext.sysctls = [{ name, value: '1' }]; }), 'sysctls', { version })).toBe(`forbidden sysctls (${name})`);
    }
  });

  test('several forbidden sysctls are listed in spec order; allowed ones are left out', () => {
    const s = spec((p) => { p.securityContext.sysctls = [{ name: 'net.core.somaxconn' }, { name: 'kernel.shm_rmid_forced' }, { name: 'kernel.msgmax' }]; });
    expect(messageOf(s, 'sysctls')).toBe('forbidden sysctls (net.core.somaxconn, kernel.msgmax)');
  });
});

describe('hostProbesAndHostLifecycle', () => {
  const handlers: Array<[string, (c: any) => void]> = [
    ['livenessProbe.httpGet', (c) => { c.livenessProbe = { httpGet: { host: '10.0.0.1', port: 80 } }; }],
    ['readinessProbe.httpGet', (c) => { c.readinessProbe = { httpGet: { host: '10.0.0.1', port: 80 } }; }],
    ['startupProbe.httpGet', (c) => { c.startupProbe = { httpGet: { host: '10.0.0.1', port: 80 } }; }],
    ['livenessProbe.tcpSocket', (c) => { c.livenessProbe = { tcpSocket: { host: '10.0.0.1', port: 80 } }; }],
    ['readinessProbe.tcpSocket', (c) => { c.readinessProbe = { tcpSocket: { host: '10.0.0.1', port: 80 } }; }],
    ['startupProbe.tcpSocket', (c) => { c.startupProbe = { tcpSocket: { host: '10.0.0.1', port: 80 } }; }],
    ['lifecycle.postStart.httpGet', (c) => { c.lifecycle = { postStart: { httpGet: { host: '10.0.0.1', port: 80 } } }; }],
    ['lifecycle.preStop.httpGet', (c) => { c.lifecycle = { preStop: { httpGet: { host: '10.0.0.1', port: 80 } } }; }],
    ['lifecycle.preStop.tcpSocket', (c) => { c.lifecycle = { preStop: { tcpSocket: { host: '10.0.0.1', port: 80 } } }; }],
  ];

  test.each(handlers)('%s.host fails baseline from 1.34, not before', (_name, change) => {
    const s = restricted();
    change(s.containers[0]);
    expect(evaluate(s, { version: '1.33' }).level).toBe(PodSecurityLevel.RESTRICTED);
    for (const version of ['1.34', '1.35', '1.37', 'latest']) {
      const r = evaluate(s, { version });
      expect(r.level).toBe(PodSecurityLevel.PRIVILEGED);
      expect(r.violations).toEqual([{
        level: PodSecurityLevel.BASELINE,
        check: 'hostProbesAndHostLifecycle',
        message: 'probe or lifecycle host (container "agent" uses probe or lifecycle host "10.0.0.1")',
      }]);
    }
  });

  test('an empty host passes', () => {
    const s = restricted();
    s.containers[0].livenessProbe = { httpGet: { host: '', port: 80 } };
    s.containers[0].lifecycle = { preStop: { tcpSocket: { host: '', port: 80 } } };
    expect(evaluate(s, { version: 'latest' }).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('the default version (1.28) does not run the check', () => {
    const s = restricted();
    s.containers[0].readinessProbe = { httpGet: { host: 'example.com', port: 80 } };
    expect(evaluate(s).level).toBe(PodSecurityLevel.RESTRICTED);
  });
});

// ---------- B3: restricted checks ----------

describe('restrictedVolumes', () => {
  const ALLOWED: Array<[string, any]> = [
    ['configMap', { name: 'c' }], ['csi', { driver: 'x' }], ['downwardAPI', { items: [] }], ['emptyDir', {}],
    ['ephemeral', { volumeClaimTemplate: { spec: {} } }], ['persistentVolumeClaim', { claimName: 'c' }],
    ['projected', { sources: [] }], ['secret', { secretName: 's' }],
  ];

  test.each(ALLOWED)('%s volumes are allowed', (type, source) => {
    expect(evaluate(spec((p) => { p.volumes = [{ name: 'v', [type]: source }]; })).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test.each(['nfs', 'gitRepo', 'iscsi', 'cephfs', 'rbd', 'awsElasticBlockStore', 'flexVolume', 'azureFile'])('%s volumes fail restricted only', (type) => {
    const s = spec((p) => { p.volumes = [{ name: 'v', [type]: { server: 'x' } }]; });
    const r = evaluate(s);
    expect(r.level).toBe(PodSecurityLevel.BASELINE);
    expect(r.violations).toEqual([{ level: PodSecurityLevel.RESTRICTED, check: 'restrictedVolumes', message: `restricted volume types (volume "v" uses restricted volume type "${type}")` }]);
  });

  test('hostPath is reported by restrictedVolumes as a hostPath type', () => {
    const s = spec((p) => { p.volumes = [{ name: 'a', hostPath: { path: '/a' } }, { name: 'b', nfs: { server: 'x', path: '/' } }]; });
    expect(messageOf(s, 'restrictedVolumes')).toBe('restricted volume types (volumes "a", "b" use restricted volume types "hostPath", "nfs")');
  });

  test.each([
    [undefined, PodSecurityLevel.RESTRICTED],
    ['1.33', PodSecurityLevel.RESTRICTED],
    ['1.32', PodSecurityLevel.BASELINE],
  ])('image volumes on a cluster at %s: %s, whatever the policy version', (clusterVersion, level) => {
    const s = spec((p) => { p.volumes = [{ name: 'tools', image: { reference: 'registry.example.com/tools:1' } }]; });
    for (const version of ['1.25', '1.28', 'latest']) {
      expect(evaluate(s, { version, clusterVersion }).level).toBe(level);
    }
  });

  test('a volume with no source is defaulted to emptyDir and passes', () => {
    expect(evaluate(spec((p) => { p.volumes = [{ name: 'scratch' }]; })).level).toBe(PodSecurityLevel.RESTRICTED);
  });
});

describe('allowPrivilegeEscalation', () => {
  test.each([[undefined], [true]])('allowPrivilegeEscalation %s fails', (value) => {
    const s = spec((_p, sc) => { if (value === undefined) delete sc.allowPrivilegeEscalation; else sc.allowPrivilegeEscalation = value; });
    const r = evaluate(s);
    expect(r.level).toBe(PodSecurityLevel.BASELINE);
    expect(r.violations).toEqual([{
      level: PodSecurityLevel.RESTRICTED,
      check: 'allowPrivilegeEscalation',
      message: 'allowPrivilegeEscalation != false (container "agent" must set securityContext.allowPrivilegeEscalation=false)',
    }]);
  });

  test('Windows pods are exempt', () => {
    const s = spec((p, sc) => { p.os = { name: 'windows' }; delete sc.allowPrivilegeEscalation; });
    expect(evaluate(s).level).toBe(PodSecurityLevel.RESTRICTED);
  });
});

describe('runAsNonRoot', () => {
  const table: Array<[string, boolean | undefined, Array<boolean | undefined>, string | undefined]> = [
    ['pod true, containers unset', true, [undefined, undefined], undefined],
    ['pod unset, every container true', undefined, [true, true], undefined],
    ['pod false, containers true', false, [true, true], 'runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false)'],
    ['pod true, one container false', true, [false, undefined], 'runAsNonRoot != true (container "c0" must not set securityContext.runAsNonRoot=false)'],
    ['pod unset, one container unset', undefined, [true, undefined], 'runAsNonRoot != true (pod or container "c1" must set securityContext.runAsNonRoot=true)'],
    ['pod unset, containers unset', undefined, [undefined, undefined], 'runAsNonRoot != true (pod or containers "c0", "c1" must set securityContext.runAsNonRoot=true)'],
    ['pod false, container false', false, [false, true], 'runAsNonRoot != true (pod and container "c0" must not set securityContext.runAsNonRoot=false)'],
  ];

  test.each(table)('%s', (_name, pod, containers, message) => {
    const s: any = {
      securityContext: { seccompProfile: { type: 'RuntimeDefault' }, ...(pod === undefined ? {} : { runAsNonRoot: pod }) },
      containers: containers.map((v, i) => ({
        name: `c${i}`,
        image: 'x',
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, ...(v === undefined ? {} : { runAsNonRoot: v }) },
      })),
    };
    const r = evaluate(s);
    if (message === undefined) {
      expect(r.level).toBe(PodSecurityLevel.RESTRICTED);
    } else {
      expect(r.level).toBe(PodSecurityLevel.BASELINE);
      expect(r.violations).toEqual([{ level: PodSecurityLevel.RESTRICTED, check: 'runAsNonRoot', message }]);
    }
  });

  test('Windows pods are not exempt', () => {
    const s = spec((p) => { p.os = { name: 'windows' }; delete p.securityContext.runAsNonRoot; });
    expect(failedChecks(s)).toEqual(['runAsNonRoot']);
  });

  test.each([['1.34', ['runAsNonRoot']], ['1.35', []], ['latest', []]])('hostUsers: false at %s skips it', (version, checks) => {
    const s = spec((p) => { p.hostUsers = false; p.securityContext.runAsNonRoot = false; });
    expect(failedChecks(s, { version })).toEqual(checks);
  });
});

describe('runAsUser', () => {
  test.each([
    ['pod', (p: any) => { p.securityContext.runAsUser = 0; }, 'runAsUser=0 (pod must not set runAsUser=0)'],
    ['container', (_p: any, sc: any) => { sc.runAsUser = 0; }, 'runAsUser=0 (container "agent" must not set runAsUser=0)'],
    ['both', (p: any, sc: any) => { p.securityContext.runAsUser = 0; sc.runAsUser = 0; }, 'runAsUser=0 (pod and container "agent" must not set runAsUser=0)'],
  ])('runAsUser 0 on the %s fails restricted', (_w, change, message) => {
    const r = evaluate(spec(change));
    expect(r.level).toBe(PodSecurityLevel.BASELINE);
    expect(r.violations).toEqual([{ level: PodSecurityLevel.RESTRICTED, check: 'runAsUser', message }]);
  });

  test('a non-zero or unset runAsUser passes', () => {
    expect(evaluate(spec((p, sc) => { p.securityContext.runAsUser = 1000; sc.runAsUser = 65534; })).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test.each([['1.34', ['runAsUser']], ['1.35', []]])('hostUsers: false at %s', (version, checks) => {
    expect(failedChecks(spec((p, sc) => { p.hostUsers = false; sc.runAsUser = 0; }), { version })).toEqual(checks);
  });

  test('hostUsers: true relaxes nothing', () => {
    expect(failedChecks(spec((p, sc) => { p.hostUsers = true; sc.runAsUser = 0; }), { version: 'latest' })).toEqual(['runAsUser']);
  });
});

describe('seccompProfile_restricted', () => {
  test.each(['RuntimeDefault', 'Localhost'])('a valid pod-level %s is inherited by containers', (type) => {
    expect(evaluate(spec((p) => { p.securityContext.seccompProfile = { type, localhostProfile: 'p.json' }; })).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('every container setting a valid type passes without a pod-level one', () => {
    const s = spec((p, sc) => { delete p.securityContext.seccompProfile; sc.seccompProfile = { type: 'Localhost', localhostProfile: 'p.json' }; });
    expect(evaluate(s).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('unset everywhere fails', () => {
    const s = spec((p) => { delete p.securityContext.seccompProfile; });
    expect(evaluate(s).violations).toEqual([{
      level: PodSecurityLevel.RESTRICTED,
      check: 'seccompProfile_restricted',
      message: 'seccompProfile (pod or container "agent" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    }]);
  });

  test('a container that does not override an invalid pod-level value fails with it', () => {
    const s = spec((p) => { p.securityContext.seccompProfile = { type: 'Unconfined' }; });
    s.containers.push({ name: 'ok', image: 'x', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } } });
    expect(messageOf(s, 'seccompProfile_restricted')).toBe('seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")');
  });

  test('Windows pods are exempt from the restricted check, not from the baseline one', () => {
    const exempt = spec((p) => { p.os = { name: 'windows' }; delete p.securityContext.seccompProfile; });
    expect(evaluate(exempt).level).toBe(PodSecurityLevel.RESTRICTED);
    const unconfined = spec((p) => { p.os = { name: 'windows' }; p.securityContext.seccompProfile = { type: 'Unconfined' }; });
    expect(failedChecks(unconfined)).toEqual(['seccompProfile_baseline']);
  });
});

describe('capabilities_restricted', () => {
  test.each([
    ['no securityContext', (c: any) => { delete c.securityContext; }],
    ['no capabilities', (c: any) => { delete c.securityContext.capabilities; }],
    ['drop ["all"]', (c: any) => { c.securityContext.capabilities.drop = ['all']; }],
    ['drop ["CAP_ALL"]', (c: any) => { c.securityContext.capabilities.drop = ['CAP_ALL']; }],
    ['drop []', (c: any) => { c.securityContext.capabilities.drop = []; }],
  ])('%s fails: drop must contain exactly "ALL"', (_n, change) => {
    const s = restricted();
    change(s.containers[0]);
    expect(checksOf(PodSecurity.violationsAt(s, PodSecurityLevel.RESTRICTED))).toContain('capabilities_restricted');
    expect(messageOf(s, 'capabilities_restricted')).toContain('container "agent" must set securityContext.capabilities.drop=["ALL"]');
  });

  test('drop containing ALL among others passes; add NET_BIND_SERVICE passes', () => {
    const s = spec((_p, sc) => { sc.capabilities = { drop: ['NET_RAW', 'ALL'], add: ['NET_BIND_SERVICE'] }; });
    expect(evaluate(s).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test.each(['CHOWN', 'SETUID', 'KILL'])('adding the baseline-allowed %s fails restricted', (cap) => {
    const r = evaluate(spec((_p, sc) => { sc.capabilities.add = [cap]; }));
    expect(r.level).toBe(PodSecurityLevel.BASELINE);
    expect(r.violations).toEqual([{
      level: PodSecurityLevel.RESTRICTED,
      check: 'capabilities_restricted',
      message: `unrestricted capabilities (container "agent" must not include "${cap}" in securityContext.capabilities.add)`,
    }]);
  });

  test('both problems are reported in one message', () => {
    const s = spec((_p, sc) => { sc.capabilities = { add: ['CHOWN'] }; });
    expect(messageOf(s, 'capabilities_restricted')).toBe(
      'unrestricted capabilities (container "agent" must set securityContext.capabilities.drop=["ALL"]; ' +
      'container "agent" must not include "CHOWN" in securityContext.capabilities.add)',
    );
  });

  test('Windows pods are exempt', () => {
    expect(evaluate(spec((p, sc) => { p.os = { name: 'windows' }; delete sc.capabilities; })).level).toBe(PodSecurityLevel.RESTRICTED);
  });
});

describe('procMount_restricted', () => {
  test.each(['1.35', '1.36', '1.37', 'latest'])('fails Unmasked even with hostUsers: false at %s', (version) => {
    const s = spec((p, sc) => { p.hostUsers = false; sc.procMount = 'Unmasked'; });
    const r = evaluate(s, { version });
    expect(r.violations).toEqual([{
      level: PodSecurityLevel.RESTRICTED,
      check: 'procMount_restricted',
      message: 'procMount (container "agent" must not set securityContext.procMount to "Unmasked")',
    }]);
  });

  test('does not exist before 1.35', () => {
    expect(failedChecks(spec((_p, sc) => { sc.procMount = 'Unmasked'; }), { version: '1.34' })).not.toContain('procMount_restricted');
  });
});

// ---------- B4: things PSA does not check ----------

describe('fields the standards do not act on (B4)', () => {
  test.each([
    ['readOnlyRootFilesystem: false', (_p: any, sc: any) => { sc.readOnlyRootFilesystem = false; }],
    ['runAsGroup: 0', (p: any, sc: any) => { sc.runAsGroup = 0; p.securityContext.runAsGroup = 0; }],
    ['fsGroup: 0', (p: any) => { p.securityContext.fsGroup = 0; }],
    ['supplementalGroups: [0]', (p: any) => { p.securityContext.supplementalGroups = [0]; }],
    ['mountPropagation', (p: any) => { p.volumes = [{ name: 'e', emptyDir: {} }]; p.containers[0].volumeMounts = [{ name: 'e', mountPath: '/e', mountPropagation: 'HostToContainer' }]; }],
    ['tolerations', (p: any) => { p.tolerations = [{ operator: 'Exists' }]; }],
    ['resources', (p: any) => { p.containers[0].resources = {}; }],
    ['automountServiceAccountToken', (p: any) => { p.automountServiceAccountToken = true; }],
  ])('%s leaves the pod restricted', (_n, change) => {
    expect(evaluate(spec(change)).level).toBe(PodSecurityLevel.RESTRICTED);
  });
});

// ---------- versions ----------

describe('versions', () => {
  test('the default is 1.28, and "latest" is the newest released version known', () => {
    expect(PodSecurity.DEFAULT_VERSION).toBe('1.28');
    expect(PodSecurity.LATEST_VERSION).toBe('1.36');
    expect(PodSecurity.OLDEST_VERSION).toBe('1.25');
    expect(evaluate(restricted()).version).toBe('1.28');
    expect(evaluate(restricted(), { version: 'latest' }).version).toBe('latest');
  });

  test.each([['1.28', '1.28'], ['v1.30', '1.30'], ['1.31.4', '1.31'], ['v1.40', '1.40']])('%s is read as %s', (given, normalized) => {
    expect(evaluate(restricted(), { version: given }).version).toBe(normalized);
  });

  test('a version newer than the known rules uses the newest rules (1.37 sysctls allowed)', () => {
    const s = spec((p) => { p.securityContext.sysctls = [{ name: 'net.ipv4.tcp_notsent_lowat' }]; });
    expect(evaluate(s, { version: '1.40' }).level).toBe(PodSecurityLevel.RESTRICTED);
    expect(evaluate(s, { version: 'latest' }).level).toBe(PodSecurityLevel.PRIVILEGED);
  });

  test.each(['', 'foo', '1', '2.0', 'v2.30', '1.x', ' 1.28', '1.28 ', 'Latest', '1.028', 'v'])('%j is rejected with a clear error', (version) => {
    expect(() => evaluate(restricted(), { version })).toThrow(
      `pod security version must be "latest" or a Kubernetes minor version such as "1.28" or "v1.28", got ${JSON.stringify(version)}: use "latest" or "1.25" or later`,
    );
  });

  test.each(['1.24', 'v1.0'])('%s is older than the oldest supported version', (version) => {
    expect(() => evaluate(restricted(), { version })).toThrow(
      `pod security version ${JSON.stringify(version)} is older than the oldest supported policy version 1.25: use "1.25" or later (the default is "1.28")`,
    );
  });

  test('a bad cluster version is rejected too', () => {
    expect(() => evaluate(restricted(), { clusterVersion: 'one' })).toThrow('cluster version must be "latest" or a Kubernetes minor version');
  });

  test.each([[undefined, 'v1.28'], ['1.34', 'v1.34'], ['v1.30', 'v1.30'], ['latest', 'latest']])('versionLabel(%s) is %s', (version, label) => {
    expect(PodSecurity.versionLabel(version)).toBe(label);
  });

  test('versionLabel rejects a bad version', () => {
    expect(() => PodSecurity.versionLabel('next')).toThrow('got "next"');
  });
});

// ---------- checks and input handling ----------

describe('check IDs', () => {
  const BASELINE = ['hostNamespaces', 'privileged', 'capabilities_baseline', 'hostPathVolumes', 'hostPorts', 'appArmorProfile', 'seLinuxOptions',
    'procMount', 'seccompProfile_baseline', 'sysctls', 'windowsHostProcess', 'hostProbesAndHostLifecycle'];
  const RESTRICTED = ['restrictedVolumes', 'allowPrivilegeEscalation', 'runAsNonRoot', 'runAsUser', 'seccompProfile_restricted', 'capabilities_restricted',
    'procMount_restricted'];

  test('the enum lists exactly the PSA check IDs', () => {
    expect(Object.values(PodSecurityCheck).sort()).toEqual([...BASELINE, ...RESTRICTED].sort());
  });

  const LEVELS: Array<[string, PodSecurityLevel]> = [
    ...BASELINE.map((c): [string, PodSecurityLevel] => [c, PodSecurityLevel.BASELINE]),
    ...RESTRICTED.map((c): [string, PodSecurityLevel] => [c, PodSecurityLevel.RESTRICTED]),
  ];
  test.each(LEVELS)(
    '%s belongs to %s', (check, level) => {
      expect(PodSecurity.levelOfCheck(check)).toBe(level);
    });

  test('an unknown check ID is rejected', () => {
    expect(() => PodSecurity.levelOfCheck('hostPath')).toThrow('unknown pod security check "hostPath": use one of');
  });
});

describe('input handling', () => {
  test.each([[undefined], [null], ['spec'], [[]], [42]])('a pod spec of %j is rejected', (value) => {
    expect(() => PodSecurity.evaluate(value)).toThrow('pod spec must be an object (a v1 PodSpec), got');
  });

  test('a containers field that is not a list is rejected with its path', () => {
    expect(() => PodSecurity.evaluate({ containers: { name: 'a' } })).toThrow('spec.containers must be a list, got {"name":"a"}: write it as a YAML/JSON list');
  });

  test('capabilities.add that is not a list is rejected rather than ignored', () => {
    const s = spec((_p, sc) => { sc.capabilities.add = 'SYS_ADMIN'; });
    expect(() => PodSecurity.evaluate(s)).toThrow('spec.containers[name=agent].securityContext.capabilities.add must be a list, got "SYS_ADMIN"');
  });

  test('the input is not modified', () => {
    const s = spec((p) => { p.volumes = [{ name: 'h', hostPath: { path: '/' } }]; });
    const before = JSON.stringify(s);
    PodSecurity.evaluate(s, { version: 'latest' });
    expect(JSON.stringify(s)).toBe(before);
  });
});

describe('PodSecurity.evaluateWorkload', () => {
  function daemonSet(podSpec: any, annotations?: any): any {
    return {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'node-agent' },
      spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' }, annotations }, spec: podSpec } },
    };
  }

  test('reads the pod template and its AppArmor annotations', () => {
    const ds = daemonSet(restricted(), { 'container.apparmor.security.beta.kubernetes.io/agent': 'unconfined' });
    expect(PodSecurity.evaluateWorkload(ds).level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(PodSecurity.evaluateWorkload(daemonSet(restricted())).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('explicit annotations replace the template\'s', () => {
    const ds = daemonSet(restricted(), { 'container.apparmor.security.beta.kubernetes.io/agent': 'unconfined' });
    expect(PodSecurity.evaluateWorkload(ds, { annotations: {} }).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('finds the pod of a CronJob and of a Pod', () => {
    const cronJob = { kind: 'CronJob', metadata: { name: 'c' }, spec: { jobTemplate: { spec: { template: { spec: { hostPID: true, containers: [] } } } } } };
    expect(PodSecurity.evaluateWorkload(cronJob).level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(PodSecurity.evaluateWorkload({ kind: 'Pod', metadata: { name: 'p' }, spec: restricted() }).level).toBe(PodSecurityLevel.RESTRICTED);
  });

  test('the source document\'s section 4.2 agent is privileged: its two capabilities and its hostPath fail baseline', () => {
    // verbatim from the guide: drop sits beside capabilities, not under it, and NET_ADMIN/SYS_PTRACE are added.
    const guide = guideFixture('4-2-least-privilege').spec.template.spec;
    const r = PodSecurity.evaluate(guide);
    expect(r.level).toBe(PodSecurityLevel.PRIVILEGED);
    expect(checksOf(r.nextLevelViolations)).toEqual(['capabilities_baseline', 'hostPathVolumes']);
    expect(checksOf(r.violations)).toEqual([
      'capabilities_baseline', 'hostPathVolumes',
      'allowPrivilegeEscalation', 'capabilities_restricted', 'restrictedVolumes', 'seccompProfile_restricted',
    ]);
  });

  test('rejects a kind without a pod template and a workload without a pod spec', () => {
    expect(() => PodSecurity.evaluateWorkload({ kind: 'ConfigMap', metadata: { name: 'c' } })).toThrow(
      'kind "ConfigMap" has no pod template: pass a Pod, PodTemplate, DaemonSet, Deployment, StatefulSet, ReplicaSet, ReplicationController, Job, CronJob manifest',
    );
    expect(() => PodSecurity.evaluateWorkload({ kind: 'DaemonSet', metadata: { name: 'd' }, spec: {} })).toThrow(
      'DaemonSet "d": spec.template.spec must be an object (a v1 PodSpec), got undefined: set the pod template',
    );
  });
});

// ---------- properties ----------

const nameArb = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const versionArb = fc.constantFrom(...ALL_VERSIONS);
const SAFE_SYSCTLS = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];

function clean<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

const probeArb = fc.option(fc.oneof(
  fc.record({ httpGet: fc.record({ port: fc.integer({ min: 1, max: 65535 }), path: fc.constant('/healthz'), host: fc.option(fc.constant(''), { nil: undefined }) }) }),
  fc.record({ tcpSocket: fc.record({ port: fc.integer({ min: 1, max: 65535 }) }) }),
  fc.record({ exec: fc.record({ command: fc.constant(['true']) }) }),
), { nil: undefined });

/** a restricted-compliant container (given whether the pod sets runAsNonRoot and seccomp for it) with random allowed fields. */
function containerArb(podRunAsNonRoot: boolean, podSeccomp: boolean) {
  return fc.record({
    allowPrivilegeEscalation: fc.constant(false),
    privileged: fc.option(fc.constant(false), { nil: undefined }),
    capabilities: fc.record({
      drop: fc.shuffledSubarray(['NET_RAW', 'SYS_ADMIN', 'CHOWN', 'KILL']).map((d) => [...d, 'ALL']),
      add: fc.option(fc.constant(['NET_BIND_SERVICE']), { nil: undefined }),
    }),
    runAsNonRoot: podRunAsNonRoot ? fc.option(fc.constant(true), { nil: undefined }) : fc.constant(true),
    runAsUser: fc.option(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { nil: undefined }),
    runAsGroup: fc.option(fc.nat(), { nil: undefined }),
    readOnlyRootFilesystem: fc.option(fc.boolean(), { nil: undefined }),
    procMount: fc.option(fc.constant('Default'), { nil: undefined }),
    seccompProfile: podSeccomp
      ? fc.option(fc.constantFrom({ type: 'RuntimeDefault' }, { type: 'Localhost', localhostProfile: 'p.json' }), { nil: undefined })
      : fc.constantFrom({ type: 'RuntimeDefault' }, { type: 'Localhost', localhostProfile: 'p.json' }),
    seLinuxOptions: fc.option(fc.record({ type: fc.constantFrom('', 'container_t', 'container_init_t', 'container_kvm_t'), level: fc.constantFrom('', 's0:c1,c2') }), { nil: undefined }),
    appArmorProfile: fc.option(fc.constantFrom({ type: 'RuntimeDefault' }, { type: 'Localhost', localhostProfile: 'agent' }), { nil: undefined }),
    windowsOptions: fc.option(fc.record({ hostProcess: fc.constant(false) }), { nil: undefined }),
  });
}

const volumeSourceArb = fc.constantFrom(
  { configMap: { name: 'c' } }, { secret: { secretName: 's' } }, { emptyDir: {} }, { emptyDir: { medium: 'Memory' } }, { projected: { sources: [] } },
  { downwardAPI: { items: [] } }, { persistentVolumeClaim: { claimName: 'data' } }, { csi: { driver: 'x.csi.k8s.io' } },
  { ephemeral: { volumeClaimTemplate: { spec: {} } } },
);

const restrictedSpecArb = fc.record({
  names: fc.uniqueArray(nameArb, { minLength: 1, maxLength: 6 }),
  split: fc.tuple(fc.nat(), fc.nat()),
  podRunAsNonRoot: fc.boolean(),
  podSeccomp: fc.boolean(),
  volumes: fc.array(volumeSourceArb, { maxLength: 4 }),
  sysctls: fc.shuffledSubarray(SAFE_SYSCTLS),
  podRunAsUser: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
  fsGroup: fc.option(fc.nat(), { nil: undefined }),
  hostNetwork: fc.option(fc.constant(false), { nil: undefined }),
  seed: fc.integer(),
}).chain((p) => fc.tuple(
  fc.constant(p),
  fc.array(containerArb(p.podRunAsNonRoot, p.podSeccomp), { minLength: p.names.length, maxLength: p.names.length }),
  fc.array(probeArb, { minLength: p.names.length, maxLength: p.names.length }),
  fc.array(fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), { minLength: p.names.length, maxLength: p.names.length }),
)).map(([p, scs, probes, ports]) => {
  const containers = p.names.map((name, i) => clean({
    name,
    image: 'registry.example.com/x:1',
    securityContext: scs[i],
    livenessProbe: probes[i],
    ports: ports[i] === undefined ? undefined : [{ containerPort: ports[i], hostPort: 0 }],
    volumeMounts: p.volumes.length > 0 ? [{ name: 'v0', mountPath: '/v0', readOnly: false }] : undefined,
  }));
  const nInit = p.split[0] % containers.length;
  const nEphemeral = p.split[1] % (containers.length - nInit);
  const s: any = clean({
    hostNetwork: p.hostNetwork,
    securityContext: {
      runAsNonRoot: p.podRunAsNonRoot ? true : undefined,
      seccompProfile: p.podSeccomp ? { type: 'RuntimeDefault' } : undefined,
      runAsUser: p.podRunAsUser,
      fsGroup: p.fsGroup,
      sysctls: p.sysctls.map((name) => ({ name, value: '1' })),
    },
    initContainers: containers.slice(0, nInit),
    ephemeralContainers: containers.slice(nInit, nInit + nEphemeral),
    containers: containers.slice(nInit + nEphemeral),
    volumes: p.volumes.map((source, i) => ({ name: `v${i}`, ...source })),
  });
  return s;
});

/** changes that each add exactly one kind of violation, with the check they trip at every version. */
const MUTATIONS: Array<[string, (s: any) => void]> = [
  ['hostNamespaces', (s) => { s.hostNetwork = true; }],
  ['hostNamespaces', (s) => { s.hostPID = true; }],
  ['hostNamespaces', (s) => { s.hostIPC = true; }],
  ['privileged', (s) => { firstContainer(s).securityContext.privileged = true; }],
  ['capabilities_baseline', (s) => { addCapability(firstContainer(s), 'NET_ADMIN'); }],
  ['hostPathVolumes', (s) => { s.volumes = [...(s.volumes ?? []), { name: 'zz-host', hostPath: { path: '/var/log' } }]; }],
  ['hostPorts', (s) => { firstContainer(s).ports = [{ containerPort: 8080, hostPort: 8080 }]; }],
  ['appArmorProfile', (s) => { firstContainer(s).securityContext.appArmorProfile = { type: 'Unconfined' }; }],
  ['seLinuxOptions', (s) => { s.securityContext.seLinuxOptions = { user: 'system_u' }; }],
  ['procMount', (s) => { firstContainer(s).securityContext.procMount = 'Unmasked'; }],
  ['seccompProfile_baseline', (s) => { firstContainer(s).securityContext.seccompProfile = { type: 'Unconfined' }; }],
  ['sysctls', (s) => { s.securityContext.sysctls = [...(s.securityContext.sysctls ?? []), { name: 'net.core.somaxconn', value: '1024' }]; }],
  ['windowsHostProcess', (s) => { firstContainer(s).securityContext.windowsOptions = { hostProcess: true }; }],
  ['restrictedVolumes', (s) => { s.volumes = [...(s.volumes ?? []), { name: 'zz-nfs', nfs: { server: 'nfs', path: '/' } }]; }],
  ['allowPrivilegeEscalation', (s) => { firstContainer(s).securityContext.allowPrivilegeEscalation = true; }],
  ['runAsNonRoot', (s) => { firstContainer(s).securityContext.runAsNonRoot = false; }],
  ['runAsUser', (s) => { firstContainer(s).securityContext.runAsUser = 0; }],
  ['capabilities_restricted', (s) => { firstContainer(s).securityContext.capabilities.drop = ['NET_RAW']; }],
  ['capabilities_restricted', (s) => { addCapability(firstContainer(s), 'CHOWN'); }],
  ['seccompProfile_restricted', (s) => {
    // removes compliant profiles only: deleting an Unconfined one (seccompProfile_baseline) would undo a violation,
    // which the monotonicity property below rightly counts as raising the level
    if (s.securityContext.seccompProfile?.type !== 'Unconfined') delete s.securityContext.seccompProfile;
    if (firstContainer(s).securityContext.seccompProfile?.type !== 'Unconfined') delete firstContainer(s).securityContext.seccompProfile;
  }],
];

function firstContainer(s: any): any {
  const c = s.containers[0] ?? s.initContainers?.[0] ?? s.ephemeralContainers?.[0];
  c.securityContext = c.securityContext ?? {};
  c.securityContext.capabilities = c.securityContext.capabilities ?? {};
  return c;
}

function addCapability(c: any, cap: string): void {
  c.securityContext.capabilities.add = [...(c.securityContext.capabilities.add ?? []), cap];
}

describe('properties', () => {
  test('a random restricted-compliant spec with random allowed fields is restricted at every version', () => {
    fc.assert(fc.property(restrictedSpecArb, versionArb, (s, version) => {
      const r = PodSecurity.evaluate(s, { version });
      expect(r.violations).toEqual([]);
      expect(r.level).toBe(PodSecurityLevel.RESTRICTED);
    }), { numRuns: 300 });
  });

  test.each(MUTATIONS.map(([check, m], i) => [i, check, m] as const))('mutation %i trips exactly %s on a compliant spec', (_i, check, mutate) => {
    fc.assert(fc.property(restrictedSpecArb, versionArb, (s, version) => {
      const m = clean(s);
      mutate(m);
      const r = PodSecurity.evaluate(m, { version });
      // the baseline checks that a restricted check overrides fail together with it
      const companion: { [c: string]: string | undefined } = {
        hostPathVolumes: 'restrictedVolumes',
        capabilities_baseline: 'capabilities_restricted',
        seccompProfile_baseline: 'seccompProfile_restricted',
        procMount: minorOf(version) >= 35 ? 'procMount_restricted' : undefined,
      };
      expect(checksOf(r.violations)).toEqual(companion[check] ? [check, companion[check]] : [check]);
    }), { numRuns: 30 });
  });

  test('adding a hostPath volume never yields restricted or baseline', () => {
    const specArb = fc.tuple(restrictedSpecArb, fc.subarray(MUTATIONS.map((m) => m[1])))
      .map(([s, mutations]) => { const m = clean(s); mutations.forEach((f) => f(m)); return m; });
    fc.assert(fc.property(specArb, fc.constantFrom('/', '/var/log', '/proc', '/tmp/x'), fc.boolean(), versionArb, (s, path, readOnly, version) => {
      s.volumes = [...(s.volumes ?? []), { name: 'hp', hostPath: { path } }];
      firstContainer(s).volumeMounts = [{ name: 'hp', mountPath: '/host', readOnly }];
      const r = PodSecurity.evaluate(s, { version });
      expect(r.level).toBe(PodSecurityLevel.PRIVILEGED);
      expect(checksOf(r.violations)).toContain('hostPathVolumes');
      expect(checksOf(r.violations)).toContain('restrictedVolumes');
    }), { numRuns: 200 });
  });

  test('the level is monotone: adding any single violation never raises it', () => {
    const arb = fc.tuple(restrictedSpecArb, fc.subarray(MUTATIONS.map((m) => m[1])), fc.constantFrom(...MUTATIONS.map((m) => m[1])), versionArb);
    fc.assert(fc.property(arb, ([s, before, extra, version]) => {
      const base = clean(s);
      before.forEach((f) => f(base));
      const more = clean(base);
      extra(more);
      const l0 = PodSecurity.evaluate(base, { version }).level;
      const l1 = PodSecurity.evaluate(more, { version }).level;
      expect(RANK[l1]).toBeLessThanOrEqual(RANK[l0]);
    }), { numRuns: 300 });
  });

  test('nextLevelViolations are the violations of the next level, and the level follows from them', () => {
    const arb = fc.tuple(restrictedSpecArb, fc.subarray(MUTATIONS.map((m) => m[1])), versionArb);
    fc.assert(fc.property(arb, ([s, mutations, version]) => {
      const m = clean(s);
      mutations.forEach((f) => f(m));
      const r = PodSecurity.evaluate(m, { version });
      const baseline = PodSecurity.violationsAt(m, PodSecurityLevel.BASELINE, { version });
      const restrictedV = PodSecurity.violationsAt(m, PodSecurityLevel.RESTRICTED, { version });
      if (r.level === PodSecurityLevel.PRIVILEGED) expect(r.nextLevelViolations).toEqual(baseline);
      else if (r.level === PodSecurityLevel.BASELINE) expect(r.nextLevelViolations).toEqual(restrictedV);
      else expect(r.nextLevelViolations).toEqual([]);
      expect(baseline.length === 0).toBe(r.level !== PodSecurityLevel.PRIVILEGED);
      expect(restrictedV.length === 0).toBe(r.level === PodSecurityLevel.RESTRICTED);
      for (const v of r.nextLevelViolations) expect(r.violations).toContainEqual(v);
      expect(r.violations.length === 0).toBe(r.level === PodSecurityLevel.RESTRICTED);
    }), { numRuns: 300 });
  });

  test('the order of containers does not change the level or the failed checks', () => {
    const arb = fc.tuple(restrictedSpecArb, fc.subarray(MUTATIONS.map((m) => m[1])), versionArb, fc.integer());
    fc.assert(fc.property(arb, ([s, mutations, version, seed]) => {
      const m = clean(s);
      mutations.forEach((f) => f(m));
      const shuffled = clean(m);
      for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
        if (shuffled[list]) shuffled[list] = rotate(shuffled[list], seed);
      }
      const a = PodSecurity.evaluate(m, { version });
      const b = PodSecurity.evaluate(shuffled, { version });
      expect(b.level).toBe(a.level);
      expect(checksOf(b.violations)).toEqual(checksOf(a.violations));
    }), { numRuns: 200 });
  });
});

function rotate<T>(items: T[], seed: number): T[] {
  if (items.length === 0) return items;
  const k = Math.abs(seed) % items.length;
  return [...items.slice(k), ...items.slice(0, k)].reverse();
}
