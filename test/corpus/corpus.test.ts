// The real-manifest corpus (test/corpus/README.md): upstream DaemonSet manifests as their projects publish them, each
// with expectations written by reading it. These tests hold the review to those expectations.
//
// The manifests are not in the repository: `node test/corpus/fetch.js` (run by the projen test task before jest)
// brings each one from the package registry that serves it into .corpus/, checking the sha256 that sources.json
// records. A missing manifest fails these tests with that instruction; it is never skipped.
//
// The expectations' Pod Security levels and failing check IDs were also checked against Kubernetes' own
// pod-security-admission code (v0.34.1) for every workload, at policy 1.28 and 1.34 (see README.md).
//
// The 'gaps the corpus showed' below were each an `it.failing` test while the review got them wrong; each fix turned
// its test into a plain one. A new gap found on the corpus goes in as `it.failing` until it is fixed.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { HostAccessType } from '../../src';
import { runCli } from '../cli/run-cli';

const DIR = __dirname;
/** where fetch.js writes the manifests (gitignored). */
const CORPUS = path.join(DIR, '..', '..', '.corpus');

interface Mount { container: string; init: boolean; mountPath: string; readOnly: boolean }
interface HostAccess {
  type: string;
  path?: string;
  hostPathType?: string;
  mounts?: Mount[];
  container?: string;
  capability?: string;
  asNonRoot?: 'entrypointOnly' | 'fileCapabilities';
  port?: number;
  protocol?: string;
  via?: string;
  level?: string;
  containers?: string[];
}
interface ExpectedContainer {
  name: string; init: boolean; image: string; floating: boolean; validReference?: boolean; literalSecretsInEnv?: unknown[];
}
interface ExpectedWorkload {
  kind: string;
  namespace: string | null;
  name: string;
  podSecurity: { level: string; violations: Record<'v1.28' | 'v1.34', string[]> };
  hostAccess: HostAccess[];
  containers: ExpectedContainer[];
  rbac: {
    appliesIf?: string;
    rights?: { right: string; grantsSecrets?: boolean; rule?: { apiGroups: string[]; resources: string[]; verbs: string[] } }[];
  }[];
  automountServiceAccountToken?: boolean;
}
interface ShippedRole {
  role: string;
  boundBy?: { binding: string; subjects: string[] }[];
  rights: { right: string }[];
}
interface Expected { manifest: string; workloads: ExpectedWorkload[]; shippedRoles?: ShippedRole[] }

interface Source { name: string; module: string; version: string }
const SOURCES: Source[] = JSON.parse(fs.readFileSync(path.join(DIR, 'sources.json'), 'utf8')).sources;
const NAMES = SOURCES.map((s) => s.name).sort();

/** the manifest as fetch.js wrote it; a missing one is an error with the command that brings it. */
function manifestPath(name: string): string {
  const file = path.join(CORPUS, `${name}.yaml`);
  if (!fs.existsSync(file)) {
    throw new Error(`corpus manifest .corpus/${name}.yaml is missing: run \`node test/corpus/fetch.js\` (the projen test task runs it before jest)`);
  }
  return file;
}

function expected(name: string): Expected {
  return parseAllDocuments(fs.readFileSync(path.join(DIR, `${name}.expected.yaml`), 'utf8'))[0].toJS() as Expected;
}

/** the workloads of a manifest, read independently of the tool (v1 List items flattened). */
function manifestWorkloads(name: string): { kind: string; name: string }[] {
  const out: { kind: string; name: string }[] = [];
  for (const doc of parseAllDocuments(fs.readFileSync(manifestPath(name), 'utf8'))) {
    const o = doc.toJS();
    if (!o || typeof o !== 'object') continue;
    for (const item of o.kind === 'List' ? o.items : [o]) {
      if (['DaemonSet', 'Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'CronJob', 'Pod'].includes(item.kind)) {
        out.push({ kind: item.kind, name: item.metadata.name });
      }
    }
  }
  return out;
}

const reviews = new Map<string, any>();
async function review(name: string, version: '1.28' | 'latest'): Promise<any> {
  const key = `${name}@${version}`;
  if (!reviews.has(key)) {
    const result = await runCli('review', '--json', '--pod-security-version', version, manifestPath(name));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    reviews.set(key, JSON.parse(result.stdout));
  }
  return reviews.get(key);
}

function workload(report: any, w: ExpectedWorkload): any {
  const found = report.workloads.filter((x: any) => x.kind === w.kind && x.name === w.name);
  expect(found).toHaveLength(1);
  return found[0];
}

/** PSA check ID -> the review's rule ID. */
function ruleOf(check: string): string {
  return `PSS-BASELINE-${check.replace(/_baseline$/, '')}`;
}

const hostProcessPod = (w: ExpectedWorkload) => w.hostAccess.some((h) => h.type === 'hostProcess');

/**
 * How the review's item of each host privilege type and the expectation's entry (written by hand from the manifest, in
 * its own words: see README.md) name the same privilege. `satisfies` makes a new HostAccessType fail to compile here
 * until the corpus test knows how to check it.
 */
interface PrivilegeKey {
  readonly got: (item: any) => string;
  readonly expected: (entry: HostAccess) => string[];
  /** workloads where the type is not compared. */
  readonly skip?: (w: ExpectedWorkload) => boolean;
}

const PRIVILEGE_KEYS: Record<HostAccessType, PrivilegeKey> = {
  // a hostPath volume no container mounts is listed by the expectation, without mounts; the review lists it too, as
  // read-write (the kubelet still sets it up, DirectoryOrCreate creates it, and any container added later may mount it)
  [HostAccessType.HOST_PATH]: {
    got: (h: any) => h.detail,
    expected: (h: HostAccess) => [`${stripSlash(h.path!)} (${h.mounts!.length > 0 && h.mounts!.every((m) => m.readOnly) ? 'read-only' : 'read-write'})`],
  },
  [HostAccessType.HOST_NETWORK]: { got: () => 'pod', expected: () => ['pod'] },
  [HostAccessType.HOST_PID]: { got: () => 'pod', expected: () => ['pod'] },
  [HostAccessType.HOST_IPC]: { got: () => 'pod', expected: () => ['pod'] },
  // declared and through hostNetwork
  [HostAccessType.HOST_PORT]: { got: (h: any) => `${h.container} ${h.detail}`, expected: (h: HostAccess) => [`${h.container} ${h.port}/${h.protocol}`] },
  [HostAccessType.PRIVILEGED]: { got: (h: any) => h.container, expected: (h: HostAccess) => [h.container!] },
  [HostAccessType.HOST_PROCESS]: { got: (h: any) => h.container, expected: (h: HostAccess) => [h.container!] },
  [HostAccessType.CAPABILITY]: { got: (h: any) => `${h.container} ${h.detail}`, expected: (h: HostAccess) => [`${h.container} ${h.capability}`] },
  // Windows has no UIDs: a HostProcess pod has no runAsRoot item
  [HostAccessType.RUN_AS_ROOT]: { got: (h: any) => h.container, expected: (h: HostAccess) => [h.container!], skip: hostProcessPod },
};
const stripSlash = (p: string) => (p === '/' ? p : p.replace(/\/+$/, ''));

test('every source has its manifest in .corpus/, an expectation and a SOURCES.md entry, and nothing else has one', () => {
  const sources = fs.readFileSync(path.join(DIR, 'SOURCES.md'), 'utf8');
  expect(NAMES.length).toBeGreaterThanOrEqual(37);
  const expectations = fs.readdirSync(DIR).filter((f) => f.endsWith('.expected.yaml')).map((f) => f.replace(/\.expected\.yaml$/, '')).sort();
  expect(expectations).toEqual(NAMES);
  for (const name of NAMES) {
    const src = SOURCES.find((s) => s.name === name)!;
    expect(sources).toContain(`| \`${name}\` | `);
    expect(sources).toContain(`${src.module}@${src.version}`);
    const e = expected(name);
    expect(e.manifest).toBe(`${name}.yaml`);
    // every workload of the manifest has an expectation, and no other
    const inFile = manifestWorkloads(name).map((w) => `${w.kind}/${w.name}`).sort();
    expect(e.workloads.map((w) => `${w.kind}/${w.name}`).sort()).toEqual(inFile);
  }
});

describe.each(NAMES)('%s', (name) => {
  const e = expected(name);

  test.each(['1.28', 'latest'] as const)('Pod Security level and failing checks at policy %s', async (version) => {
    const report = await review(name, version);
    for (const w of e.workloads) {
      const got = workload(report, w);
      expect(got.podSecurityLevel).toBe(w.podSecurity.level);
      if (w.podSecurity.level === 'privileged') {
        const checks = w.podSecurity.violations[version === '1.28' ? 'v1.28' : 'v1.34'];
        const rules = [...new Set<string>(got.findings.flatMap((f: any) => f.rules).filter((r: string) => r.startsWith('PSS-BASELINE-')))];
        expect(rules.sort()).toEqual(checks.map(ruleOf).sort());
      }
    }
  });

  test('every host privilege type: the review lists what the expectation lists (host paths with their mode, host namespaces, ' +
    'privileged and HostProcess containers, capabilities, host ports, root)', async () => {
    const report = await review(name, '1.28');
    for (const w of e.workloads) {
      const got = workload(report, w);
      for (const type of Object.values(HostAccessType)) {
        const key = PRIVILEGE_KEYS[type];
        if (key.skip?.(w)) continue;
        const of = got.hostAccess.filter((h: any) => h.type === type).map(key.got).sort();
        const exp = w.hostAccess.filter((h) => h.type === type).flatMap((h) => key.expected(h)).sort();
        expect({ type, list: of }).toEqual({ type, list: exp });
      }
    }
  });
});

// ---------- the gaps the corpus showed, each fixed: what the review once got wrong on these manifests ----------

describe('known gaps', () => {
  // Each test below needs a case in the corpus, or it would pass for want of evidence rather than because the review
  // is right. (The Windows HostProcess gap has none here: no registry serves a HostProcess manifest
  // of the corpus's agents, see SOURCES.md; it is tested on minimal manifests.)
  test('every known gap has evidence in the corpus', () => {
    const ws = NAMES.flatMap((n) => expected(n).workloads);
    const count = (f: (w: ExpectedWorkload) => number) => ws.reduce((a, w) => a + f(w), 0);
    expect(count((w) => w.hostAccess.filter((h) => h.type === 'hostPath' && h.mounts!.length > 0).length)).toBeGreaterThan(0);
    expect(count((w) => w.hostAccess.filter((h) => h.type === 'hostPort' && h.via === 'hostNetwork').length)).toBeGreaterThan(0);
    // today's review flags `latest` and untagged images; the gap is the other floating tags
    expect(count((w) => w.containers.filter((c) => c.floating && !/:latest$/.test(c.image) && /:[^/]+$/.test(c.image)).length)).toBeGreaterThan(0);
    expect(count((w) => w.rbac.flatMap((b) => b.rights ?? []).filter((r) => r.right === 'wildcard' && !r.grantsSecrets).length)).toBeGreaterThan(0);
    expect(count((w) => w.hostAccess.filter((h) => h.type === 'privileged').length)).toBeGreaterThan(0);
    expect(count((w) => w.containers.filter((c) => c.literalSecretsInEnv).length)).toBeGreaterThan(0);
    expect(count((w) => w.rbac.flatMap((b) => b.rights ?? []).filter((r) => r.right === 'nodes-write').length)).toBeGreaterThan(0);
    expect(count((w) => w.hostAccess.filter((h) => h.type === 'capability' && h.asNonRoot).length)).toBeGreaterThan(0);
  });

  async function all(): Promise<{ name: string; w: ExpectedWorkload; got: any }[]> {
    const out = [];
    for (const name of NAMES) {
      const report = await review(name, '1.28');
      for (const w of expected(name).workloads) out.push({ name, w, got: workload(report, w) });
    }
    return out;
  }

  test('every host path entry names the container(s) that mount it', async () => {
    for (const { w, got } of await all()) {
      for (const h of w.hostAccess.filter((x) => x.type === 'hostPath' && x.mounts!.length > 0)) {
        const entry = got.hostAccess.find((x: any) => x.type === 'hostPath' && x.detail.startsWith(`${stripSlash(h.path!)} (`));
        expect(entry.container ?? entry.containers).toBeTruthy();
      }
    }
  });

  test('with hostNetwork, every container port is listed as a host port', async () => {
    for (const { w, got } of await all()) {
      for (const h of w.hostAccess.filter((x) => x.type === 'hostPort' && x.via === 'hostNetwork')) {
        expect(got.hostAccess.map((x: any) => `${x.type} ${x.container} ${x.detail}`)).toContain(`hostPort ${h.container} ${h.port}/${h.protocol}`);
      }
    }
  });

  test('every floating image tag (latest, main, master, canary, snapshot, master-head, ...) is reported', async () => {
    for (const { w, got } of await all()) {
      const flagged = new Set(got.findings.filter((f: any) => f.rule === 'NA-IMAGE-PINNED').map((f: any) => f.container));
      for (const c of w.containers.filter((x) => x.floating)) expect(flagged.has(c.name)).toBe(true);
    }
  });

  test('a wildcard inside a non-core API group is not reported as granting Secrets', async () => {
    for (const { w, got } of await all()) {
      const wildcards = w.rbac.flatMap((b) => b.rights ?? []).filter((r) => r.right === 'wildcard');
      if (wildcards.length === 0 || wildcards.some((r) => r.grantsSecrets)) continue;
      for (const f of got.findings.filter((x: any) => x.rule === 'NA-RBAC-BROAD')) expect(f.message).not.toMatch(/Secrets included/);
    }
  });

  test('allowPrivilegeEscalation: false is never asked of a privileged container (the API server rejects it)', async () => {
    for (const { w, got } of await all()) {
      const privileged = new Set(w.hostAccess.filter((h) => h.type === 'privileged').map((h) => h.container));
      const asked = got.findings.filter((f: any) => f.rule === 'NA-PRIVILEGE-ESCALATION' && privileged.has(f.container));
      expect(asked).toEqual([]);
    }
  });

  test('writes to Node objects (nodes-write in the expectations) are reported by NA-RBAC-NODES, and only those', async () => {
    for (const { name, w, got } of await all()) {
      const expectedWrites = w.rbac.flatMap((b) => b.rights ?? []).some((r) => r.right === 'nodes-write');
      const reported = got.findings.some((f: any) => f.rule === 'NA-RBAC-NODES');
      expect(`${name} ${w.kind}/${w.name}: ${reported}`).toBe(`${name} ${w.kind}/${w.name}: ${expectedWrites}`);
    }
  });

  test('one privilege, one finding: at most one finding per host privilege of a container, Pod Security\'s host checks merged into them', async () => {
    // the privilege checks fail on host privileges alone: never a finding of their own for the whole pod
    const privilegeChecks = ['hostNamespaces', 'privileged', 'capabilities', 'hostPathVolumes', 'hostPorts', 'windowsHostProcess'].map((c) => `PSS-BASELINE-${c}`);
    for (const { name, w, got } of await all()) {
      const about = got.findings.filter((f: any) => f.privilege !== undefined);
      const keys = about.map((f: any) => JSON.stringify([f.privilege.type, f.privilege.detail.replace(/ \((read-only|read-write)\)$/, ''), f.container ?? null]));
      expect(`${name} ${w.name}: ${keys.filter((k: string, i: number) => keys.indexOf(k) !== i)}`).toBe(`${name} ${w.name}: `);
      expect(got.findings.filter((f: any) => f.privilege === undefined && privilegeChecks.includes(f.rule))).toEqual([]);
      // no more findings about privileges than the expectation, read from the manifest, has privileges of containers: a host
      // path counts once per container that mounts it (once if none does), a host namespace once
      const bound = w.hostAccess.reduce((n, h) => n + (h.type === 'hostPath' ? Math.max(1, new Set(h.mounts!.map((m) => m.container)).size) : 1), 0);
      expect(about.length).toBeLessThanOrEqual(bound);
    }
  });

  test('the CSI node plugins: one finding per mount of a container, naming the rules and the Pod Security check it merges', async () => {
    for (const [name, workloadName] of [['gce-pd-csi-node-linux', 'csi-gce-pd-node'], ['secrets-store-csi-driver', 'csi-secrets-store'], ['calico-csi-driver', 'csi-node-driver']]) {
      const e = expected(name).workloads.find((x) => x.name === workloadName)!;
      const got = (await review(name, '1.28')).workloads.find((x: any) => x.name === workloadName);
      for (const h of e.hostAccess.filter((x) => x.type === 'hostPath' && x.mounts!.length > 0)) {
        for (const container of new Set(h.mounts!.map((m) => m.container))) {
          const hostPath = stripSlash(h.path!);
          const of = got.findings.filter((f: any) => f.privilege?.type === 'hostPath' && f.privilege.detail.startsWith(`${hostPath} (`) &&
            (f.container === container || f.container === undefined));
          expect(`${name} ${hostPath} ${container}: ${of.length}`).toBe(`${name} ${hostPath} ${container}: 1`);
          // the manifest sets no reason: every mount fails Pod Security baseline and lacks its reason, said in one finding
          expect(of[0].rules).toEqual(expect.arrayContaining(['NA-HOST-ACCESS-REASON', 'PSS-BASELINE-hostPathVolumes']));
          expect(of[0].podSecurity).toEqual(['hostPathVolumes']);
          // a hostPath without a type: said in the same finding
          if (h.hostPathType === '') expect(of[0].rules).toContain('NA-HOSTPATH-TYPE');
        }
      }
    }
  });

  // ---------- issue 21: manifests of kinds the corpus lacked (Windows, GPU, device plugins, storage, mesh CNI, NRI)

  const rank = (r: string) => ['low', 'medium', 'high', 'critical'].indexOf(r);
  async function entryOf(name: string, workloadName: string, hostPath: string): Promise<any> {
    const got = (await review(name, '1.28')).workloads.find((w: any) => w.name === workloadName);
    const entry = got.hostAccess.find((h: any) => h.type === 'hostPath' && h.detail.startsWith(`${hostPath} (`));
    expect(entry).toBeDefined();
    return entry;
  }

  test('a host path gets a specific statement only from what the catalogue knows of it, never a pattern\'s story', async () => {
    for (const { got } of await all()) {
      for (const h of got.hostAccess.filter((x: any) => x.type === 'hostPath')) {
        expect(`${h.detail}: ${h.attackerGains}`).not.toMatch(/one program's own runtime directory \(|the runtime directory of one program/);
      }
    }
    // [manifest, workload, path, risk read from the manifest and the project's docs, what it holds, what it is not]
    const rows: [string, string, string, string, string, RegExp][] = [
      ['nri-device-injector', 'nri-plugin-device-injector', '/var/run/nri/nri.sock', 'critical', 'containerd\'s NRI socket', /one program/],
      ['gpu-operator-driver', 'nvidia-gpu-driver-ubuntu22.04-7c6d7bd86b', '/run/nvidia', 'critical', 'NVIDIA driver root', /one program/],
      ['gpu-operator-driver', 'nvidia-gpu-driver-ubuntu22.04-7c6d7bd86b', '/dev/log', 'medium', 'syslog socket', /device node/],
      ['gpu-operator-driver', 'nvidia-gpu-driver-ubuntu22.04-7c6d7bd86b', '/sys/module/firmware_class/parameters/path', 'critical', 'firmware search path', /run-time parameters/],
      ['gpu-operator-container-toolkit', 'nvidia-container-toolkit-daemonset', '/run/nvidia/driver', 'critical', 'every GPU container', /one program/],
      ['gpu-operator-container-toolkit', 'nvidia-container-toolkit-daemonset', '/run/nvidia/toolkit', 'critical', 'NVIDIA container runtime', /one program/],
      ['gpu-operator-container-toolkit', 'nvidia-container-toolkit-daemonset', '/var/run/cdi', 'critical', 'Container Device Interface', /one program/],
      ['gpu-operator-container-toolkit', 'nvidia-container-toolkit-daemonset', '/run/containers/oci/hooks.d', 'critical', 'OCI hook', /bundles of running containers/],
      ['sample-device-plugin', 'sample-device-plugin-beta', '/var/run/cdi', 'critical', 'Container Device Interface', /one program/],
      ['gce-pd-csi-node-linux', 'csi-gce-pd-node', '/run/udev', 'critical', '/run/udev/rules.d', /misleads/],
      ['gce-pd-csi-node-linux', 'csi-gce-pd-node', '/etc/udev', 'critical', 'udev rules', /configuration that host software reads/],
      ['nvidia-driver-installer-gce', 'nvidia-driver-installer', '/home/kubernetes/bin/nvidia', 'critical', 'NVIDIA driver', /SSH key/],
      ['ztunnel', 'ztunnel', '/var/run/ztunnel', 'high', 'ztunnel\'s socket', /does not know/],
    ];
    for (const [name, workloadName, hostPath, risk, says, never] of rows) {
      const entry = await entryOf(name, workloadName, hostPath);
      expect(`${name} ${hostPath}: ${entry.risk}`).toBe(`${name} ${hostPath}: ${risk}`);
      expect(entry.attackerGains).toContain(says);
      expect(entry.attackerGains).not.toMatch(never);
    }
    // udev's runtime rules run as root like its distribution rules: /run/udev is not rated below /lib/udev
    const [run, lib] = [await entryOf('gce-pd-csi-node-linux', 'csi-gce-pd-node', '/run/udev'), await entryOf('gce-pd-csi-node-linux', 'csi-gce-pd-node', '/lib/udev')];
    expect(rank(run.risk)).toBeGreaterThanOrEqual(rank(lib.risk));
  });

  test('Windows as Windows: named pipes are host services\' endpoints, the kubelet\'s directories are the Linux ones, ContainerAdministrator is root', async () => {
    const windows = (await all()).filter(({ w }) => w.hostAccess.some((h) => h.type === 'hostPath' && /^(\\\\\.\\pipe\\|C:\\var|\\var)/.test(h.path!)));
    expect(windows.map(({ name }) => name).sort()).toEqual(['gce-pd-csi-node-windows', 'secrets-store-csi-driver-windows']);
    for (const { name, w, got } of windows) {
      for (const h of w.hostAccess.filter((x) => x.type === 'hostPath')) {
        const entry = got.hostAccess.find((x: any) => x.type === 'hostPath' && x.detail.startsWith(`${stripSlash(h.path!).replace(/\\$/, '')}`));
        expect(entry).toBeDefined();
        if (h.path!.startsWith('\\\\.\\pipe\\csi-proxy-')) {
          expect(`${name} ${h.path}: ${entry.risk}`).toBe(`${name} ${h.path}: critical`);
          expect(entry.attackerGains).toContain('served as SYSTEM by csi-proxy');
          expect(`${entry.attackerGains} ${entry.saferAlternative}`).not.toMatch(/directory|read-only with a type/);
        } else if (/\\var\\lib\\kubelet/i.test(h.path!)) {
          expect(entry.attackerGains).toMatch(/^on the Windows node, as \/var\/lib\/kubelet/);
        }
      }
      // a named pipe is not asked for a hostPath type (the rule's part joins the finding of the path it is about)
      const typed = got.findings.filter((f: any) => f.rules.includes('NA-HOSTPATH-TYPE'));
      expect(typed.map((f: any) => f.privilege.detail).join('\n')).not.toContain('pipe');
      for (const h of w.hostAccess.filter((x) => x.type === 'hostPath' && x.hostPathType === '' && !x.path!.startsWith('\\\\.\\pipe\\'))) {
        expect(typed.some((f: any) => f.privilege.detail.startsWith(`${stripSlash(h.path!)} (`))).toBe(true);
      }
      // every container runs as ContainerAdministrator unless it names another user: none of these does
      const root = got.findings.filter((f: any) => f.rule === 'NA-RUN-AS-NON-ROOT');
      expect(root.map((f: any) => f.container).sort()).toEqual(w.containers.map((c) => c.name).sort());
      for (const f of root) expect(f.message).toContain('ContainerAdministrator');
    }
  });

  test('an image that is no valid reference is a placeholder, not an image that "pulls latest"', async () => {
    let placeholders = 0;
    for (const { w, got } of await all()) {
      for (const c of w.containers.filter((x) => x.validReference === false)) {
        placeholders++;
        const [f] = got.findings.filter((x: any) => x.rule === 'NA-IMAGE-PINNED' && x.container === c.name);
        expect(f.message).toContain('is not a valid image reference');
        expect(f.message).not.toContain('latest');
      }
    }
    expect(placeholders).toBe(2); // gpu-operator-container-toolkit: 'FILLED BY THE OPERATOR'
  });

  test('rights to redirect Service traffic (traffic-redirect in the expectations) are reported by NA-RBAC-TRAFFIC, and only those', async () => {
    let holders = 0;
    for (const { name, w, got } of await all()) {
      const expectedRights = w.rbac.flatMap((b) => b.rights ?? []).some((r) => r.right === 'traffic-redirect');
      if (expectedRights) holders++;
      const reported = got.findings.some((f: any) => f.rule === 'NA-RBAC-TRAFFIC');
      expect(`${name} ${w.kind}/${w.name}: ${reported}`).toBe(`${name} ${w.kind}/${w.name}: ${expectedRights}`);
    }
    expect(holders).toBe(5); // kube-router, MetalLB's controller, calico-kube-controllers (calico, canal-etcd), cilium-operator
  });

  test('roles the file ships that grant a right that matters and that no workload of the file holds (shippedRoles) are reported on every workload by NA-RBAC-SHIPPED-ROLE, and only those', async () => {
    // the rule that reports each right of the expectations' vocabulary (README.md)
    const RULE_OF: { [right: string]: string } = { 'serviceaccount-token': 'NA-RBAC-TOKENS', 'nodes-proxy': 'NA-RBAC-NODE-PROXY', 'secrets-read': 'NA-RBAC-SECRETS', 'traffic-redirect': 'NA-RBAC-TRAFFIC' };
    let shipped = 0;
    for (const { name, w, got } of await all()) {
      const roles = expected(name).shippedRoles ?? [];
      const findings = got.findings.filter((f: any) => f.rule === 'NA-RBAC-SHIPPED-ROLE');
      const named = findings.map((f: any) => /these manifests ship (Role \S+ in namespace \S+|ClusterRole \S+),/.exec(f.message)?.[1]?.replace(/ in namespace \S+$/, '')).sort();
      expect(`${name} ${w.kind}/${w.name}: ${named.join(', ')}`).toBe(`${name} ${w.kind}/${w.name}: ${roles.map((r) => r.role).sort().join(', ')}`);
      for (const r of roles) {
        shipped++;
        const f = findings.find((x: any) => x.message.includes(`ship ${r.role}`));
        for (const right of r.rights) expect(f.message).toContain(`[${RULE_OF[right.right]}]`);
        for (const b of r.boundBy ?? []) expect(f.message).toContain(`${b.binding} to ${b.subjects.join(', ')}`);
        // what the file binds to another subject is not the workload's: its own RBAC findings do not report it
        for (const right of r.rights) {
          const own = w.rbac.flatMap((x) => x.rights ?? []).some((x) => x.right === right.right);
          expect(got.findings.some((x: any) => x.rule === RULE_OF[right.right])).toBe(own);
        }
      }
    }
    expect(shipped).toBe(3); // canal-etcd: ClusterRole calico-node, bound to ServiceAccount kube-system/canal, on its three workloads
  });

  test('a pod that sets automountServiceAccountToken: false is never said to hold an API token or its ServiceAccount\'s rights', async () => {
    let pods = 0;
    for (const { name, w, got } of await all()) {
      if (w.automountServiceAccountToken !== false) continue;
      pods++;
      expect(`${name} ${w.name}: ${got.findings.filter((f: any) => f.rule === 'NA-AUTOMOUNT-TOKEN').length}`).toBe(`${name} ${w.name}: 0`);
      for (const f of got.findings.filter((x: any) => x.rule.startsWith('NA-RBAC-') && x.rule !== 'NA-RBAC-SHIPPED-ROLE')) {
        expect(f.message).toContain('this workload\'s pods mount no token of it');
      }
    }
    expect(pods).toBe(1); // grafana-kube-prometheus
  });

  test('a privileged container is never asked for a seccomp profile: it runs Unconfined whatever it sets (NA-PRIVILEGED says so)', async () => {
    let allPrivileged = 0;
    for (const { name, w, got } of await all()) {
      const privileged = new Set(w.hostAccess.filter((h) => h.type === 'privileged').map((h) => h.container));
      const seccomp = got.findings.filter((f: any) => f.rules.includes('NA-SECCOMP'));
      for (const f of seccomp) expect(`${name} ${w.name}: ${f.container ?? 'pod'}`).not.toMatch(new RegExp(`: (${[...privileged].join('|')})$`));
      if (w.containers.every((c) => privileged.has(c.name))) {
        allPrivileged++;
        expect(`${name} ${w.name}: ${seccomp.length}`).toBe(`${name} ${w.name}: 0`);
      }
    }
    // 18, kubeadm-kube-proxy among them; before the fix, 16 of them had a pod-level NA-SECCOMP (the other two, calico
    // and canal-etcd, set a profile)
    expect(allPrivileged).toBe(18);
  });

  test('kube-proxy keeps its token: nothing said of kubeadm\'s kube-proxy offers automountServiceAccountToken: false, with the RBAC kubeadm applies beside it or without', async () => {
    const offersNoToken = (f: any) => /automountServiceAccountToken: false/.test(f.fix ?? '');
    const { got } = (await all()).find((x) => x.name === 'kubeadm-kube-proxy')!;
    // with its ClusterRoleBinding to system:node-proxier in the file: the ServiceAccount is bound, nothing to say
    expect(got.findings.filter((f: any) => f.rules.includes('NA-AUTOMOUNT-TOKEN') || offersNoToken(f))).toEqual([]);
    // the DaemonSet document alone, as a reviewer of the DaemonSet sees it: the token is said to be needed
    const daemonSet = parseAllDocuments(fs.readFileSync(manifestPath('kubeadm-kube-proxy'), 'utf8')).find((d) => d.toJS()?.kind === 'DaemonSet')!;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-kube-proxy-')), 'kube-proxy-daemonset.yaml');
    fs.writeFileSync(file, daemonSet.toString());
    const r = await runCli('review', '--json', file);
    expect(r.code).toBe(0);
    const findings = JSON.parse(r.stdout).workloads[0].findings;
    expect(findings.filter(offersNoToken)).toEqual([]);
    const token = findings.filter((f: any) => f.rules.includes('NA-AUTOMOUNT-TOKEN'));
    expect(token.map((f: any) => f.message)).toEqual([expect.stringContaining('container "kube-proxy" runs kube-proxy, which calls the API with that token')]);
    expect(token[0].fix).toMatch(/^keep the token: kube-proxy watches the API with it; its RBAC is bound outside these manifests \(kube-proxy's by kubeadm to system:node-proxier\)/);
  });

  test('the rights of a workload without a namespace, bound where its bindings expect it (appliesIf), are reported conditionally at their severity', async () => {
    let conditional = 0;
    for (const { name, w, got } of await all()) {
      const bindings = w.rbac.filter((b) => b.appliesIf !== undefined);
      if (bindings.length === 0) continue;
      conditional++;
      const ns = bindings[0].appliesIf!.replace(/^namespace /, '');
      const rbac = got.findings.filter((f: any) => f.rule.startsWith('NA-RBAC-') && f.rule !== 'NA-RBAC-SHIPPED-ROLE');
      expect(rbac.length).toBeGreaterThan(0);
      for (const f of rbac) expect(f.message).toContain(`if applied in namespace ${ns}, as the bindings of its ServiceAccount expect,`);
      const everything = bindings.flatMap((b) => b.rights ?? []).some((r) => r.rule?.verbs.includes('*') && r.rule.resources.includes('*') && r.rule.apiGroups.includes('*'));
      if (everything) expect(rbac.map((f: any) => `${f.rule} ${f.severity}`)).toContain('NA-RBAC-CLUSTER-ADMIN critical');
      expect(`${name} ${w.name}: ${got.findings.some((f: any) => f.rule === 'NA-NAMESPACE' && f.message.includes('could not be matched'))}`).toBe(`${name} ${w.name}: false`);
    }
    expect(conditional).toBe(1); // metricbeat-kubernetes-module-fixture: kube-state-metrics, * on * if applied in default
  });

  test('coverage warns when a DaemonSet that declares no OS lands on a Windows node, and only then', async () => {
    const node = (name: string, nodeOs: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/os': nodeOs } } });
    const nodes = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-nodes-')), 'nodes.json');
    fs.writeFileSync(nodes, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [node('linux-1', 'linux'), node('win-1', 'windows')] }));
    const coverage = async (name: string) => {
      const r = await runCli('coverage', '--json', '--nodes', nodes, manifestPath(name));
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout).daemonSets[0].nodes as { name: string; shouldRun: boolean; warnings?: string[] }[];
    };
    // the e2e sample device plugin names no OS: placed on the Windows node, where its Linux image cannot run
    const sample = await coverage('sample-device-plugin');
    expect(sample.map((n) => [n.name, n.shouldRun, (n.warnings ?? []).length])).toEqual([['linux-1', true, 0], ['win-1', true, 1]]);
    expect(sample[1].warnings![0]).toContain('the node runs Windows (kubernetes.io/os=windows) and the pod template declares no OS');
    expect(sample[1].warnings![0]).toContain('add nodeSelector kubernetes.io/os: linux');
    // the GCE PD driver's Linux and Windows node plugins select their OS: no warning
    for (const name of ['gce-pd-csi-node-linux', 'gce-pd-csi-node-windows']) {
      expect((await coverage(name)).flatMap((n) => n.warnings ?? [])).toEqual([]);
    }
  });

  test('a capability added to a container that runs as non-root (asNonRoot) is reported by NA-CAPABILITY-INERT, and only those', async () => {
    for (const { name, w, got } of await all()) {
      const caps = w.hostAccess.filter((h) => h.type === 'capability' && h.asNonRoot);
      const expectedFindings = [...new Set(caps.map((h) => `${h.container} ${h.asNonRoot === 'entrypointOnly' ? 'medium' : 'low'}`))].sort();
      const reported = got.findings.filter((f: any) => f.rule === 'NA-CAPABILITY-INERT');
      expect(`${name} ${w.name}: ${reported.map((f: any) => `${f.container} ${f.severity}`).sort().join(', ')}`)
        .toBe(`${name} ${w.name}: ${expectedFindings.join(', ')}`);
      for (const h of caps) expect(reported.find((f: any) => f.container === h.container).message).toMatch(new RegExp(`adds (\\w+, )*${h.capability}\\b`));
    }
  });

  test('a literal secret in an env value is reported', async () => {
    for (const { w, got } of await all()) {
      if (!w.containers.some((c) => c.literalSecretsInEnv)) continue;
      expect(got.findings.map((f: any) => f.message).join('\n')).toMatch(/ELASTICSEARCH_PASSWORD/);
    }
  });
});
