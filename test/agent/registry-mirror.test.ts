import { App, Chart, Testing } from 'cdk8s';
import { CniFlavor, CniPlugin, CsiNodePlugin, FalcoDriver, LogCollector, NodeAgent, NodeMonitor, RegistryMirror, SecurityAgent, SecurityCheck } from '../../src';
import { MIRROR_ANNOTATION } from '../../src/review/_image';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';

function containersOf(manifests: any[]): any[] {
  return manifests.filter((m) => m.kind === 'DaemonSet').flatMap((ds) => [...ds.spec.template.spec.initContainers ?? [], ...ds.spec.template.spec.containers]);
}

describe('RegistryMirror.rewrite', () => {
  const mirror = RegistryMirror.of(Testing.app(), 'mirror.example.com');

  test.each([
    ['quay.io/prometheus/node-exporter:v1.12.1', 'mirror.example.com/quay.io/prometheus/node-exporter:v1.12.1'],
    ['falcosecurity/falco:0.44.1', 'mirror.example.com/docker.io/falcosecurity/falco:0.44.1'],
    ['nginx:1.27', 'mirror.example.com/docker.io/library/nginx:1.27'],
    ['index.docker.io/library/nginx:1.27', 'mirror.example.com/docker.io/library/nginx:1.27'],
    ['quay.io/cilium/cilium:v1.18.3@sha256:5649db451c88d928ea585514746d50d91e6210801b300c897283ea319d68de15',
      'mirror.example.com/quay.io/cilium/cilium:v1.18.3@sha256:5649db451c88d928ea585514746d50d91e6210801b300c897283ea319d68de15'],
    ['ghcr.io/acme/agent@sha256:' + 'b'.repeat(64), 'mirror.example.com/ghcr.io/acme/agent@sha256:' + 'b'.repeat(64)],
    ['mirror.example.com/quay.io/x/y:1.0', 'mirror.example.com/quay.io/x/y:1.0'],
  ])('%s becomes %s, tag and digest exactly as written', (from, to) => {
    expect(mirror.rewrite(from)).toBe(to);
  });

  test('a mirror with a port and a path', () => {
    expect(RegistryMirror.of(Testing.app(), 'registry.example.com:5000/proxy').rewrite('quay.io/a/b:1.0')).toBe('registry.example.com:5000/proxy/quay.io/a/b:1.0');
  });

  test.each([
    ['a bare name, which would be read as a Docker Hub repository', 'mirror', /the mirror must be a registry host/],
    ['a URL', 'https://mirror.example.com', /the mirror must be a registry host/],
    ['a trailing slash', 'mirror.example.com/', /the mirror must be a registry host/],
  ])('refuses %s', (_name, value, message) => {
    expect(() => RegistryMirror.of(Testing.app(), value)).toThrow(message);
  });

  test('an upstream registry with a port cannot be mirrored as a path; a second mirror for one app is refused', () => {
    expect(() => mirror.rewrite('localhost:5000/agent:1.0')).toThrow(/is from localhost:5000, whose port cannot be a path component/);
    const app = Testing.app();
    RegistryMirror.of(app, 'mirror.example.com');
    expect(() => RegistryMirror.of(new Chart(app, 'c'), 'other.example.com')).toThrow(/the app already pulls through the mirror mirror\.example\.com/);
    expect(() => RegistryMirror.of(app, 'mirror.example.com', { pullSecrets: ['Bad'] })).toThrow(/pullSecrets "Bad" is not a valid name/);
  });
});

describe('an app pulling every image through a mirror', () => {
  function app(): { app: App; chart: Chart } {
    const a = Testing.app();
    return { app: a, chart: new Chart(a, 'agents') };
  }

  test('every preset, init container and sidecar, declared before or after the mirror; pull secrets added; the rewrite in an annotation', () => {
    const { app: a, chart } = app();
    new LogCollector(chart, 'fluent-bit');
    new CsiNodePlugin(chart, 'csi-node');
    RegistryMirror.of(a, 'mirror.example.com', { pullSecrets: ['mirror-credentials'] });
    new NodeMonitor(chart, 'node-exporter', { imagePullSecrets: ['mirror-credentials', 'own'] });
    new CniPlugin(chart, 'cilium', { flavor: CniFlavor.cilium() });
    new SecurityAgent(chart, 'falco', { driver: FalcoDriver.kernelModule('kernel 4.14 without BTF') });
    const manifests = synthValid(chart);
    const images = containersOf(manifests).map((c) => c.image);
    // fluent-bit 1; csi-node 3; node-exporter 1; cilium 1 and 2 installers; falco 1 and its driver loader
    expect(images.length).toBe(10);
    expect(images.filter((i) => !i.startsWith('mirror.example.com/'))).toEqual([]);
    expect(images).toContain(`mirror.example.com/${CniFlavor.CILIUM_IMAGE}`);
    expect(images).toContain('mirror.example.com/docker.io/falcosecurity/falco-driver-loader:0.44.1');
    const daemonSets = manifests.filter((m) => m.kind === 'DaemonSet');
    expect(daemonSets.map((ds) => ds.spec.template.spec.imagePullSecrets)).toEqual([
      [{ name: 'mirror-credentials' }], [{ name: 'mirror-credentials' }], [{ name: 'mirror-credentials' }, { name: 'own' }],
      [{ name: 'mirror-credentials' }], [{ name: 'mirror-credentials' }],
    ]);
    const csi = daemonSets.find((ds) => ds.metadata.name === 'csi-node');
    expect(JSON.parse(csi.metadata.annotations[MIRROR_ANNOTATION])).toEqual({
      mirror: 'mirror.example.com',
      images: {
        [CsiNodePlugin.DEFAULT_IMAGE]: `mirror.example.com/${CsiNodePlugin.DEFAULT_IMAGE}`,
        [CsiNodePlugin.DEFAULT_LIVENESS_PROBE_IMAGE]: `mirror.example.com/${CsiNodePlugin.DEFAULT_LIVENESS_PROBE_IMAGE}`,
        [CsiNodePlugin.DEFAULT_REGISTRAR_IMAGE]: `mirror.example.com/${CsiNodePlugin.DEFAULT_REGISTRAR_IMAGE}`,
      },
    });
  });

  test('no mirror: images, pull secrets and annotations unchanged', () => {
    const { chart } = app();
    new NodeAgent(chart, 'agent', { image });
    const ds = synthValid(chart).find((m) => m.kind === 'DaemonSet');
    expect(ds.spec.template.spec.containers[0].image).toBe(image);
    expect(ds.spec.template.spec.imagePullSecrets).toBeUndefined();
    expect(ds.metadata.annotations?.[MIRROR_ANNOTATION]).toBeUndefined();
  });

  test('the review knows the mirror: allowedRegistries name the upstream registries, in the agent and in SecurityCheck', () => {
    const { app: a, chart } = app();
    RegistryMirror.of(a, 'mirror.example.com');
    const monitor = new NodeMonitor(chart, 'node-exporter', { allowedRegistries: ['quay.io'] });
    const findings = monitor.review().workloads.flatMap((w) => w.findings).filter((f) => f.rule === 'NA-IMAGE-REGISTRY');
    expect(findings).toEqual([]);
    const check = SecurityCheck.review(chart, { allowedRegistries: ['quay.io'] }).workloads.flatMap((w) => w.findings).filter((f) => f.rule === 'NA-IMAGE-REGISTRY');
    expect(check).toEqual([]);
    expect(SecurityCheck.review(chart, { allowedRegistries: ['ghcr.io'] }).workloads.flatMap((w) => w.findings).filter((f) => f.rule === 'NA-IMAGE-REGISTRY')
      .map((f) => f.message)).toEqual([expect.stringContaining("the mirror's copy of quay.io/prometheus/node-exporter, and neither the mirror nor quay.io is an allowed registry (ghcr.io)")]);
  });
});
