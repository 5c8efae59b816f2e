import * as fc from 'fast-check';
import { HostRisk, RiskLevel } from '../../src/model';
import { PATH_CATALOGUE } from '../../src/model/_host-risk-catalogue';
import { kubeletPath, normalizeHostPath, throughProcRoot } from '../../src/model/_paths';

const RANK: { [level: string]: number } = { [RiskLevel.LOW]: 1, [RiskLevel.MEDIUM]: 2, [RiskLevel.HIGH]: 3, [RiskLevel.CRITICAL]: 4 };

describe('host paths as the kubelet resolves them', () => {
  test('/proc/<pid>/root, /proc/self/root and /proc/thread-self/root are the host\'s root; links are followed', () => {
    expect(throughProcRoot('/proc/1/root')).toBe('/');
    expect(throughProcRoot('/proc/1/root/etc')).toBe('/etc');
    expect(throughProcRoot('/proc/self/root/var/lib/kubelet')).toBe('/var/lib/kubelet');
    expect(throughProcRoot('/proc/thread-self/root/run')).toBe('/run');
    expect(throughProcRoot('/proc/4242/root/proc/self/root/etc')).toBe('/etc');
    // not a root link: a process's other entries, /proc itself, a name that only starts like one
    for (const p of ['/proc', '/proc/1', '/proc/self/cwd', '/proc/1/rootfs', '/proc/sys/root', '/proc/abc/root']) expect(throughProcRoot(p)).toBe(p);
  });

  test('then /var/run is /run; "//", "." and a trailing "/" are gone with normalisation', () => {
    expect(kubeletPath(normalizeHostPath('/proc/1/root//var/run/./containerd/'))).toBe('/run/containerd');
    expect(kubeletPath('/var/run')).toBe('/run');
    expect(kubeletPath('/var/running')).toBe('/var/running');
  });

  test('the risk of /proc/1/root/etc is the risk of /etc, and the text says which path it is', () => {
    for (const readOnly of [true, false]) {
      const alias = HostRisk.forPath('/proc/1/root/etc', readOnly);
      const etc = HostRisk.forPath('/etc', readOnly);
      expect(alias.risk).toBe(etc.risk);
      expect(alias.attackerGains).toBe('/proc/1/root/etc is the node\'s /etc, as the kubelet resolves it on the host (a process\'s /proc root link is the ' +
        `host's root there): ${etc.attackerGains}`);
    }
    expect(HostRisk.forPath('/proc/self/root', true).risk).toBe(RiskLevel.CRITICAL);
  });

  test('/proc/self is the kubelet\'s own process: rated as a process\'s /proc entry, not as node-wide kernel information', () => {
    expect(HostRisk.forPath('/proc/self/environ', true).risk).toBe(HostRisk.forPath('/proc/1/environ', true).risk);
    expect(HostRisk.forPath('/proc/self/cwd', true).attackerGains).toContain('the kubelet\'s own process');
  });

  // the paths the catalogue knows, and paths below them, each with the aliases a manifest can write for it
  const catalogued = PATH_CATALOGUE.map((e) => e.path).filter((p) => p.startsWith('/'));
  const segment = fc.constantFrom('data', 'containerd.sock', 'pods', 'x', 'kubernetes', 'log');
  const pathArb = fc.tuple(fc.constantFrom(...catalogued), fc.array(segment, { maxLength: 2 }))
    .map(([base, rest]) => normalizeHostPath([base, ...rest].join('/')));
  const aliasArb = fc.tuple(
    fc.constantFrom('/proc/1/root', '/proc/self/root', '/proc/thread-self/root', '/proc/4242/root', '/proc/self/root/proc/1/root', ''),
    fc.constantFrom('', '/', '/.'),
    fc.boolean(),
  );
  const aliasOf = (path: string, [root, trailing, doubled]: [string, string, boolean]): string => {
    const viaVarRun = path === '/run' || path.startsWith('/run/') ? `/var${path}` : path;
    const written = doubled ? viaVarRun.replace(/\//g, '//') : viaVarRun;
    return `${root}${written === '/' ? '' : written}${trailing}` || '/';
  };

  test('property: a path and each of its aliases get the same risk, or the alias a higher one', () => {
    fc.assert(fc.property(pathArb, aliasArb, fc.boolean(), (path, alias, readOnly) => {
      const written = aliasOf(path, alias);
      expect(kubeletPath(throughProcRoot(normalizeHostPath(written)))).toBe(kubeletPath(path));
      expect(RANK[HostRisk.forPath(written, readOnly).risk]).toBeGreaterThanOrEqual(RANK[HostRisk.forPath(path, readOnly).risk]);
    }), { numRuns: 500 });
  });
});
