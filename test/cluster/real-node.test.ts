// What the library renders is what the process gets, on the real node of cluster:up (kubelet v1.37.2, containerd,
// runc): NodeAgent's security context read back from /proc/1/status inside the container (uid, gid, capabilities,
// no_new_privs, seccomp), its read-only root and read-only host mounts refusing writes; and the NodeMonitor preset,
// with its defaults, running the real node-exporter (built from its Go module at the version the preset pins) Ready,
// serving node_* series read from the host. The images are cluster/images.js's (imported, never pulled).
import * as fs from 'fs';
import * as http from 'http';
import { Chart, Testing } from 'cdk8s';
import { Capability } from 'cdk8s-plus-28';
import { applyAll, resetCluster } from './cluster';
import { Kube, eventually } from './kube';
import { capabilityNames, cleanUp, containerLog, hostProcesses, onRealNode, podOnRealNode, procStatus, requireRealNode, tolerateRealNode, waitForLog } from './real-node';
import { HostMount, NodeAgent, NodeMonitor } from '../../src';
import { synthValid } from '../util/k8s-schema';

const kube = Kube.fromKubeconfig();
const node = requireRealNode();
const AGENT_IMAGE = node.images.agent;

/** what the agent's shell prints: its own /proc/1/status, then the outcome of writing to / and to the host mount. */
const PROBE = [
  'cat /proc/1/status',
  'echo "== root"; touch /probe-root 2>&1; echo "exit=$?"',
  'echo "== host"; touch /var/log/probe-host 2>&1; echo "exit=$?"',
  'echo "== done"',
  'exec sleep 3600',
].join('; ');

function synth(build: (chart: Chart) => void): any[] {
  const chart = new Chart(Testing.app(), 'real-node');
  build(chart);
  return synthValid(chart);
}

/** the lines between `== section` and the next `== ` line. */
function section(log: string, name: string): string[] {
  const lines = log.split('\n');
  const start = lines.indexOf(`== ${name}`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith('== '));
  return start < 0 ? [] : lines.slice(start + 1, end);
}

beforeAll(() => cleanUp(kube));
afterAll(() => cleanUp(kube));

describe('NodeAgent on the real node', () => {
  afterEach(() => cleanUp(kube));

  test('non-root (runAsUser 1000): the uid, no_new_privs and seccomp it renders; no capability; the read-only root and host mount refuse writes', async () => {
    const objects = synth((chart) => {
      const agent = new NodeAgent(chart, 'agent', {
        namespace: 'real-node-nonroot',
        image: AGENT_IMAGE,
        args: [PROBE],
        runAsUser: 1000,
        hostMounts: [HostMount.readOnly('/var/log', { reason: 'reads the node\'s logs' })],
      });
      tolerateRealNode(agent);
    });
    const ds = objects.find((o) => o.kind === 'DaemonSet');
    const rendered = ds.spec.template.spec.containers[0].securityContext;
    expect(rendered).toMatchObject({ runAsUser: 1000, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    await applyAll(kube, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'real-node-nonroot' } }, ...onRealNode(objects)]);

    const pod = await podOnRealNode(kube, ds);
    const log = await waitForLog(pod, 'agent', /== done/);
    const status = procStatus(log);
    expect(status.Uid).toEqual(['1000', '1000', '1000', '1000']);
    // no runAsGroup rendered: the runtime keeps the image's group, root (0)
    expect(status.Gid).toEqual(['0', '0', '0', '0']);
    expect(status.NoNewPrivs).toEqual(['1']);
    expect(status.Seccomp).toEqual(['2']); // SECCOMP_MODE_FILTER: RuntimeDefault
    expect(capabilityNames(status.CapBnd[0])).toEqual([]);
    expect(capabilityNames(status.CapEff[0])).toEqual([]);
    expect(section(log, 'root')).toEqual(['touch: /probe-root: Read-only file system', 'exit=1']);
    expect(section(log, 'host')).toEqual(['touch: /var/log/probe-host: Read-only file system', 'exit=1']);
    expect(fs.existsSync('/var/log/probe-host')).toBe(false);
  });

  test('root with NET_ADMIN and SYS_PTRACE (runAsRoot with a reason): both capabilities are effective, and nothing else', async () => {
    const objects = synth((chart) => {
      const agent = new NodeAgent(chart, 'agent', {
        namespace: 'real-node-root',
        image: AGENT_IMAGE,
        args: [PROBE],
        runAsRoot: { reason: 'a capability is effective only for root without ambient capabilities' },
        capabilities: [
          { capability: Capability.NET_ADMIN, reason: 'programs the node\'s routes' },
          { capability: Capability.SYS_PTRACE, reason: 'reads other processes\' memory maps' },
        ],
        hostMounts: [HostMount.readOnly('/var/log', { reason: 'reads the node\'s logs' })],
      });
      tolerateRealNode(agent);
    });
    const ds = objects.find((o) => o.kind === 'DaemonSet');
    const granted: string[] = ds.spec.template.spec.containers[0].securityContext.capabilities.add;
    expect([...granted].sort()).toEqual(['NET_ADMIN', 'SYS_PTRACE']);
    await applyAll(kube, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'real-node-root' } }, ...onRealNode(objects)]);

    const pod = await podOnRealNode(kube, ds);
    const log = await waitForLog(pod, 'agent', /== done/);
    const status = procStatus(log);
    expect(status.Uid).toEqual(['0', '0', '0', '0']);
    expect(status.NoNewPrivs).toEqual(['1']);
    expect(status.Seccomp).toEqual(['2']);
    // every capability the library grants is in CapEff, and the bounding set holds nothing more
    expect(capabilityNames(status.CapEff[0])).toEqual([...granted].sort());
    expect(capabilityNames(status.CapBnd[0])).toEqual([...granted].sort());
    // root, but the root filesystem and the host mount are still read-only
    expect(section(log, 'root')).toEqual(['touch: /probe-root: Read-only file system', 'exit=1']);
    expect(section(log, 'host')).toEqual(['touch: /var/log/probe-host: Read-only file system', 'exit=1']);
  });

  test('a capability added to a non-root container without privilege escalation is in the bounding set only: CapEff is empty', async () => {
    // the YAML a user could write (and the least-privilege pattern the issue reports): non-root, drop ALL,
    // add NET_ADMIN, allowPrivilegeEscalation false. Built from NodeAgent's output with the capability added by hand,
    // as any manifest the review reads may have it.
    const objects = synth((chart) => {
      const agent = new NodeAgent(chart, 'agent', { namespace: 'real-node-inert', image: AGENT_IMAGE, args: [PROBE], runAsUser: 1000 });
      tolerateRealNode(agent);
    });
    const ds = objects.find((o) => o.kind === 'DaemonSet');
    ds.spec.template.spec.containers[0].securityContext.capabilities = { add: ['NET_ADMIN', 'SYS_PTRACE'], drop: ['ALL'] };
    // the library's Namespace enforces restricted for its own output; this hand-edited pod needs privileged
    // (NET_ADMIN is beyond baseline): a Namespace without Pod Security labels
    const edited = onRealNode(objects).filter((o) => o.kind !== 'Namespace');
    await applyAll(kube, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'real-node-inert' } }, ...edited]);

    const pod = await podOnRealNode(kube, ds);
    const status = procStatus(await waitForLog(pod, 'agent', /== done/));
    expect(status.Uid).toEqual(['1000', '1000', '1000', '1000']);
    expect(status.NoNewPrivs).toEqual(['1']);
    expect(capabilityNames(status.CapBnd[0])).toEqual(['NET_ADMIN', 'SYS_PTRACE']);
    expect(capabilityNames(status.CapPrm[0])).toEqual([]);
    expect(capabilityNames(status.CapEff[0])).toEqual([]);
    expect(capabilityNames(status.CapAmb[0])).toEqual([]);
  });
});

/** GET over plain HTTP; resolves status and body. */
function httpGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, { timeout: 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

/** the value of a metric series without labels, e.g. `node_memory_MemTotal_bytes 2.5e+10`. */
function sample(metrics: string, name: string): number | undefined {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics);
  return m ? Number(m[1]) : undefined;
}

describe('NodeMonitor on the real node, with its defaults', () => {
  afterAll(() => resetCluster(kube));

  test('the real node-exporter is Ready under the preset\'s security context and serves node_* series read from the host', async () => {
    const objects = synth((chart) => {
      const monitor = new NodeMonitor(chart, 'node-monitor', { namespace: 'real-node-monitor' });
      tolerateRealNode(monitor);
    });
    const ds = objects.find((o) => o.kind === 'DaemonSet');
    const container = ds.spec.template.spec.containers[0];
    // the image the preset pins is the one cluster/images.js built from node_exporter's Go module at that version
    expect(container.image).toBe(NodeMonitor.DEFAULT_IMAGE);
    expect(node.images['node-exporter']).toBe(NodeMonitor.DEFAULT_IMAGE);
    expect(ds.spec.template.spec).toMatchObject({ hostNetwork: true, hostPID: true });
    const port = container.ports.find((p: any) => p.name === 'metrics').hostPort;
    expect((await httpGet(`http://127.0.0.1:${port}/metrics`).catch((e) => ({ status: 0, body: String(e) }))).status).toBe(0); // nothing holds the port before
    await applyAll(kube, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'real-node-monitor' } }, ...onRealNode(objects)]);

    // Ready: the preset's readiness probe (GET / on 9100) passes on the real kubelet
    const pod = await podOnRealNode(kube, ds, undefined, 90_000);
    expect(pod.status.containerStatuses[0]).toMatchObject({ ready: true, restartCount: 0, image: NodeMonitor.DEFAULT_IMAGE });

    // the process on the host: the preset's security context in effect
    const [exporter] = hostProcesses('/bin/node_exporter');
    expect(exporter).toBeDefined();
    expect(exporter.status.Uid).toEqual(['65534', '65534', '65534', '65534']);
    expect(exporter.status.Gid).toEqual(['65534', '65534', '65534', '65534']);
    expect(exporter.status.NoNewPrivs).toEqual(['1']);
    expect(exporter.status.Seccomp).toEqual(['2']);
    expect(capabilityNames(exporter.status.CapEff[0])).toEqual([]);
    expect(capabilityNames(exporter.status.CapBnd[0])).toEqual([]);

    // node_* series, read from the host's /proc (mounted read-only at /host/proc)
    const metrics = await eventually('node-exporter metrics', async () => {
      const r = await httpGet(`http://127.0.0.1:${port}/metrics`);
      return r.status === 200 ? r.body : undefined;
    });
    const memTotalKiB = Number(/^MemTotal:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/meminfo', 'utf8'))![1]);
    expect(sample(metrics, 'node_memory_MemTotal_bytes')).toBe(memTotalKiB * 1024);
    const bootTime = Number(/^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'))![1]);
    expect(sample(metrics, 'node_boot_time_seconds')).toBe(bootTime);
    expect(metrics).toMatch(/^node_cpu_seconds_total\{cpu="0",mode="idle"\} /m);
    expect(metrics).toMatch(/^node_filesystem_size_bytes\{/m);
    expect(containerLog(pod, container.name)).toMatch(/Listening on.*:9100/);
  });
});
