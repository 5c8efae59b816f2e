// The Filebeat and Auditbeat presets on the real API server and the real node of cluster:up. Their objects, with their
// defaults and with an authenticated Elasticsearch output, are accepted (server-side apply, fieldValidation=Strict),
// with no warning but the Pod Security warn level's. On the node, Filebeat runs as built by cluster/images.js from
// Elastic's Beats Go module at the version the preset pins (named as the preset's image, so the preset runs unchanged,
// with the console output): Ready on its probes, as root with no capability, harvesting the line a busybox pod logs
// from the root-owned, not world-readable log file, keeping its registry in the host's data directory, and never
// harvesting its own log. Auditbeat runs on the node with its preset's host namespaces, capabilities and mounts, and
// its file_integrity module only: it hashes a directory of the test's and reports a file created there. Its auditd
// module is left out on this shared machine, where the kernel does answer audit requests from the initial PID
// namespace: it would delete the node's audit rules, load its own, enable auditing and become the audit daemon, and
// Auditbeat restores none of that when it stops.
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { parse, stringify } from 'yaml';
import { applyAll, resetCluster } from './cluster';
import { Kube, ROOT, eventually } from './kube';
import { capabilityNames, cleanUp, containerLog, hostProcesses, onRealNode, podOnRealNode, requireRealNode, tolerateRealNode } from './real-node';
import { Auditbeat, ElasticOutput, EnvValue, Filebeat, HostMount, NodeAgent, PodSecurity, PodSecurityLevel } from '../../src';
import { synthValid } from '../util/k8s-schema';

const kube = Kube.fromKubeconfig();
const node = requireRealNode();

function synth(build: (chart: Chart) => void): any[] {
  const chart = new Chart(Testing.app(), 'beats');
  build(chart);
  return synthValid(chart);
}

const elasticsearch = () => ElasticOutput.elasticsearch(['https://elasticsearch.elastic.svc:9200'], {
  username: EnvValue.fromSecretKey('elasticsearch-credentials', 'username'),
  password: EnvValue.fromSecretKey('elasticsearch-credentials', 'password'),
});

describe('the API server accepts the Beats presets', () => {
  beforeAll(() => resetCluster(kube), 120_000);
  afterAll(() => resetCluster(kube), 120_000);

  test.each([
    ['Filebeat, defaults', (c: Chart) => new Filebeat(c, 'filebeat', { namespace: 'beats-filebeat' })],
    ['Filebeat, Elasticsearch with credentials from a Secret', (c: Chart) => new Filebeat(c, 'filebeat', { namespace: 'beats-filebeat-es', output: elasticsearch() })],
    ['Auditbeat, defaults', (c: Chart) => new Auditbeat(c, 'auditbeat', { namespace: 'beats-auditbeat' })],
    ['Auditbeat, Elasticsearch with an API key from a Secret', (c: Chart) => new Auditbeat(c, 'auditbeat', {
      namespace: 'beats-auditbeat-es',
      output: ElasticOutput.elasticsearch(['https://elasticsearch.elastic.svc:9200'], { apiKey: EnvValue.fromSecretKey('elasticsearch-api-key', 'api-key') }),
    })],
  ])('%s: every object accepted, with no warning but the Pod Security warn level\'s', async (_name, build) => {
    const objects = synth(build);
    const responses = await applyAll(kube, objects, true);
    const ns = objects.find((o) => o.kind === 'Namespace');
    for (const { obj, status, warnings } of responses) {
      expect({ object: `${obj.kind} ${obj.metadata.name}`, status: status === 200 ? 201 : status }).toEqual({ object: `${obj.kind} ${obj.metadata.name}`, status: 201 });
      const expected: string[] = [];
      if (obj.kind === 'DaemonSet') {
        const level = ns.metadata.labels['pod-security.kubernetes.io/warn'] as PodSecurityLevel;
        const version = ns.metadata.labels['pod-security.kubernetes.io/warn-version'];
        const violations = PodSecurity.violationsAt(obj.spec.template.spec, level, { version });
        expect(violations.length).toBeGreaterThan(0); // hostPath and root: restricted warns, as the library's Namespace asks
        expected.push(`would violate PodSecurity "${level}:${version}": ${violations.map((v) => v.message).join(', ')}`);
      }
      expect({ object: `${obj.kind} ${obj.metadata.name}`, warnings }).toEqual({ object: `${obj.kind} ${obj.metadata.name}`, warnings: expected });
    }
  });
});

/** the kubelet's pod log directory (its podLogsDir), where the links in /var/log/containers point. */
const POD_LOGS = path.join(ROOT, '.cluster', 'node', 'pod-logs');
const DATA_DIR = '/var/lib/filebeat-data';

describe('Filebeat on the real node, with the console output', () => {
  const dataDirExisted = fs.existsSync(DATA_DIR);
  beforeAll(() => cleanUp(kube));
  afterAll(async () => {
    await cleanUp(kube);
    // the kubelet created the data directory (DirectoryOrCreate) for this test: remove exactly that
    if (!dataDirExisted) fs.rmSync(DATA_DIR, { recursive: true, force: true });
  });

  test('Ready, root without capabilities, harvesting a busybox pod\'s line from its root-only log file, its registry on the host, never its own log', async () => {
    const marker = `filebeat-real-node-${Date.now()}`;
    const objects = synth((chart) => {
      const filebeat = new Filebeat(chart, 'filebeat', {
        namespace: 'real-node-filebeat',
        // the real node's kubelet keeps pod logs in its own podLogsDir, not /var/log/pods: mounted read-only at the same
        // path, so that the links in /var/log/containers resolve in the container as on the host
        hostMounts: [HostMount.readOnly(POD_LOGS, { reason: 'the real node\'s kubelet writes the pod logs /var/log/containers links to there' })],
      });
      tolerateRealNode(filebeat);
      const logger = new NodeAgent(chart, 'logger', {
        namespace: 'real-node-filebeat', image: node.images.agent, runAsUser: 65534, args: [`echo ${marker}; exec sleep 3600`],
      });
      tolerateRealNode(logger);
    });
    const daemonSets = objects.filter((o) => o.kind === 'DaemonSet');
    const ds = daemonSets.find((d) => d.metadata.name === 'filebeat');
    const container = ds.spec.template.spec.containers[0];
    // the image the preset pins is the one cluster/images.js built from the Beats module at that version
    expect(container.image).toBe(Filebeat.DEFAULT_IMAGE);
    expect(node.images.filebeat).toBe(Filebeat.DEFAULT_IMAGE);
    await applyAll(kube, onRealNode(objects));

    // Ready: the readiness probe (GET / on the Beats HTTP endpoint, 5066) passes on the real kubelet
    const pod = await podOnRealNode(kube, ds, undefined, 120_000);
    expect(pod.status.containerStatuses[0]).toMatchObject({ ready: true, restartCount: 0 });
    const loggerPod = await podOnRealNode(kube, daemonSets.find((d) => d.metadata.name === 'logger'));

    // the process on the host: root, no capability at all, no_new_privs, seccomp
    const [beat] = hostProcesses('/usr/share/filebeat/filebeat');
    expect(beat).toBeDefined();
    expect(beat.status.Uid).toEqual(['0', '0', '0', '0']);
    expect(capabilityNames(beat.status.CapEff[0])).toEqual([]);
    expect(capabilityNames(beat.status.CapBnd[0])).toEqual([]);
    expect([beat.status.NoNewPrivs, beat.status.Seccomp]).toEqual([['1'], ['2']]);

    // the busybox pod's log file: root-owned and not world-readable, which is why the preset runs as root
    const loggerLog = path.join(POD_LOGS, `${loggerPod.metadata.namespace}_${loggerPod.metadata.name}_${loggerPod.metadata.uid}`, 'agent', '0.log');
    const stat = fs.statSync(loggerLog);
    // the others' permission bits are the last octal digit; read is its 4
    expect({ uid: stat.uid, worldReadable: stat.mode % 8 >= 4 }).toEqual({ uid: 0, worldReadable: false });

    // the event, on Filebeat's standard output (output.console, one JSON document a line)
    const events = () => containerLog(pod, container.name).split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const event = await eventually(`Filebeat to print the event "${marker}"`, async () => events().find((e) => e.message === marker), { timeoutMs: 90_000, intervalMs: 500 });
    expect(event.input).toEqual({ type: 'container' });
    expect(event.stream).toBe('stdout');
    expect(event.log.file.path).toMatch(new RegExp(`^/var/log/containers/${loggerPod.metadata.name}_real-node-filebeat_agent-[0-9a-f]{64}\\.log$`));
    // its own pods' log files are excluded (with the console output, harvesting them would loop)
    expect(events().filter((e) => String(e.log?.file?.path).includes(`/${pod.metadata.name}_`))).toEqual([]);

    // the registry of read offsets, on the host's data directory (the one read-write mount)
    const registry = path.join(DATA_DIR, 'registry', 'filebeat', 'log.json');
    const entries = await eventually('Filebeat\'s registry to name the harvested file', async () => {
      const text = fs.existsSync(registry) ? fs.readFileSync(registry, 'utf8') : '';
      return text.includes(loggerPod.metadata.name) ? text : undefined;
    }, { timeoutMs: 30_000, intervalMs: 500 });
    expect(entries).toContain(event.log.file.path);
  }, 240_000);
});

const AUDITBEAT_DATA = '/var/lib/auditbeat-data';

describe('Auditbeat on the real node, with the file_integrity module', () => {
  const dataDirExisted = fs.existsSync(AUDITBEAT_DATA);
  const watched = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-auditbeat-'));
  beforeAll(() => cleanUp(kube));
  afterAll(async () => {
    await cleanUp(kube);
    fs.rmSync(watched, { recursive: true, force: true });
    if (!dataDirExisted) fs.rmSync(AUDITBEAT_DATA, { recursive: true, force: true });
  });

  test('Ready with AUDIT_CONTROL and AUDIT_READ only, in the host PID namespace; reports a file created in a watched host directory, with its hash', async () => {
    // the preset's configuration without its auditd module (see the top of this file)
    const config = parse(Auditbeat.renderConfig(ElasticOutput.console(), [watched]));
    config['auditbeat.modules'] = config['auditbeat.modules'].filter((m: any) => m.module === 'file_integrity');
    expect(config['auditbeat.modules']).toHaveLength(1);
    const objects = synth((chart) => {
      const auditbeat = new Auditbeat(chart, 'auditbeat', {
        namespace: 'real-node-auditbeat', fileIntegrityPaths: [watched], configFiles: { 'auditbeat.yml': stringify(config) },
      });
      tolerateRealNode(auditbeat);
    });
    const ds = objects.find((o) => o.kind === 'DaemonSet');
    const container = ds.spec.template.spec.containers[0];
    expect(container.image).toBe(Auditbeat.DEFAULT_IMAGE);
    expect(node.images.auditbeat).toBe(Auditbeat.DEFAULT_IMAGE);
    expect(ds.spec.template.spec).toMatchObject({ hostPID: true, hostNetwork: true });
    await applyAll(kube, onRealNode(objects));

    const pod = await podOnRealNode(kube, ds, undefined, 120_000);
    expect(pod.status.containerStatuses[0]).toMatchObject({ ready: true, restartCount: 0 });
    // the process on the host: root with exactly the two audit capabilities, in the host's PID namespace
    const [beat] = hostProcesses('/usr/share/auditbeat/auditbeat');
    expect(beat).toBeDefined();
    expect(beat.status.Uid).toEqual(['0', '0', '0', '0']);
    expect(capabilityNames(beat.status.CapEff[0])).toEqual(['AUDIT_CONTROL', 'AUDIT_READ']);
    expect(capabilityNames(beat.status.CapBnd[0])).toEqual(['AUDIT_CONTROL', 'AUDIT_READ']);
    expect(beat.status.NSpid).toEqual([String(beat.pid)]);

    const content = `written by the real-node test at ${Date.now()}\n`;
    const file = path.join(watched, 'created.txt');
    const events = () => containerLog(pod, container.name).split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    // the file is created after the module's scan at start, so that it is reported as created, not as found
    await eventually('Auditbeat\'s initial scan of the watched directory', async () =>
      containerLog(pod, container.name).includes('File system scan completed') ? true : undefined, { timeoutMs: 60_000, intervalMs: 500 });
    fs.writeFileSync(file, content);
    const event = await eventually(`a file_integrity event for ${file}`, async () =>
      events().find((e) => e.event?.module === 'file_integrity' && e.file?.path === `/hostfs${file}` && e.event?.action?.includes('created')),
    { timeoutMs: 60_000, intervalMs: 500 });
    expect(event.hash.sha1).toBe(crypto.createHash('sha1').update(content).digest('hex'));
    expect(fs.existsSync(path.join(AUDITBEAT_DATA, 'beat.db'))).toBe(true);
  }, 240_000);
});
