import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiObject, App, Chart, Include, JsonPatch, Testing } from 'cdk8s';
import * as plus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import { CniFlavor, CniPlugin, CsiNodePlugin, FalcoDriver, LogCollector, NodeAgent, NodeMonitor, RegistryMirror, SecurityAgent, SecurityCheck } from '../../src';
import { parseImage } from '../../src/agent/_image';
import { MIRROR_ANNOTATION, mirroredImage, parseImage as reviewParseImage } from '../../src/review/_image';
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

describe('every object of the app that holds a pod spec', () => {
  function mirrored(pullSecrets: string[] = ['mirror-credentials']): { app: App; chart: Chart } {
    const a = Testing.app();
    RegistryMirror.of(a, 'mirror.example.com', { pullSecrets });
    return { app: a, chart: new Chart(a, 'apps') };
  }
  const annotationOf = (o: any) => JSON.parse(o.metadata.annotations[MIRROR_ANNOTATION]);

  test('a cdk8s-plus Deployment: containers and init containers rewritten, pull secret added, the rewrite in its annotation', () => {
    const { chart } = mirrored();
    const deployment = new plus.Deployment(chart, 'web', { metadata: { namespace: 'web' }, containers: [{ image: 'nginx:1.27', portNumber: 80 }] });
    deployment.addInitContainer({ name: 'migrate', image: 'ghcr.io/acme/migrate:2.0' });
    const manifest = synthValid(chart).find((m) => m.kind === 'Deployment');
    const spec = manifest.spec.template.spec;
    expect(spec.containers.map((c: any) => c.image)).toEqual(['mirror.example.com/docker.io/library/nginx:1.27']);
    expect(spec.initContainers.map((c: any) => c.image)).toEqual(['mirror.example.com/ghcr.io/acme/migrate:2.0']);
    expect(spec.imagePullSecrets).toEqual([{ name: 'mirror-credentials' }]);
    expect(annotationOf(manifest)).toEqual({
      mirror: 'mirror.example.com',
      images: { 'ghcr.io/acme/migrate:2.0': 'mirror.example.com/ghcr.io/acme/migrate:2.0', 'nginx:1.27': 'mirror.example.com/docker.io/library/nginx:1.27' },
    });
    // the pod template's own metadata is left alone: the annotation is on the object, as on a NodeAgent's DaemonSet
    expect(manifest.spec.template.metadata.annotations?.[MIRROR_ANNOTATION]).toBeUndefined();
  });

  test('a raw CronJob, after its JSON patches: an image a patch sets is mirrored, one already from the mirror kept, the user\'s pull secrets first', () => {
    const { chart } = mirrored();
    const cronJob = new ApiObject(chart, 'backup', {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'backup', namespace: 'ops', annotations: { team: 'ops' } },
      spec: {
        schedule: '0 3 * * *',
        jobTemplate: {
          spec: {
            template: {
              spec: {
                restartPolicy: 'OnFailure',
                imagePullSecrets: [{ name: 'own' }],
                containers: [{ name: 'backup', image: 'quay.io/acme/backup:1.0' }, { name: 'ship', image: 'mirror.example.com/docker.io/library/busybox:1.37' }],
              },
            },
          },
        },
      },
    });
    cronJob.addJsonPatch(JsonPatch.add('/spec/jobTemplate/spec/template/spec/initContainers', [{ name: 'wait', image: 'busybox:1.37' }]));
    const manifest = synthValid(chart).find((m) => m.kind === 'CronJob');
    const spec = manifest.spec.jobTemplate.spec.template.spec;
    expect(spec.initContainers[0].image).toBe('mirror.example.com/docker.io/library/busybox:1.37');
    expect(spec.containers.map((c: any) => c.image)).toEqual(['mirror.example.com/quay.io/acme/backup:1.0', 'mirror.example.com/docker.io/library/busybox:1.37']);
    expect(spec.imagePullSecrets).toEqual([{ name: 'own' }, { name: 'mirror-credentials' }]);
    expect(manifest.metadata.annotations.team).toBe('ops');
    expect(annotationOf(manifest).images).toEqual({
      'busybox:1.37': 'mirror.example.com/docker.io/library/busybox:1.37',
      'quay.io/acme/backup:1.0': 'mirror.example.com/quay.io/acme/backup:1.0',
    });
  });

  test('Included YAML: a Pod\'s ephemeral containers too; objects without a pod spec, a custom resource of a workload kind and an object the mirror leaves unchanged are written as they were', () => {
    const { chart } = mirrored([]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-'));
    const file = path.join(dir, 'included.yaml');
    fs.writeFileSync(file, [
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: debug\nspec:\n  containers:\n  - name: app\n    image: registry.k8s.io/pause:3.10\n' +
        '  ephemeralContainers:\n  - name: shell\n    image: docker.io/library/busybox:1.37\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  image: quay.io/not/an-image-field:1\n',
      'apiVersion: example.com/v1\nkind: Deployment\nmetadata:\n  name: custom\nspec:\n  template:\n    spec:\n      containers:\n      - name: x\n        image: quay.io/acme/x:1\n',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: mirrored\nspec:\n  selector:\n    matchLabels: {app: m}\n  template:\n    metadata:\n      labels: {app: m}\n' +
        '    spec:\n      containers:\n      - name: m\n        image: mirror.example.com/quay.io/acme/m:1\n',
    ].join('---\n'));
    new Include(chart, 'included', { url: file });
    const manifests = Testing.synth(chart);
    const pod = manifests.find((m) => m.kind === 'Pod');
    expect(pod.spec.containers[0].image).toBe('mirror.example.com/registry.k8s.io/pause:3.10');
    expect(pod.spec.ephemeralContainers[0].image).toBe('mirror.example.com/docker.io/library/busybox:1.37');
    expect(pod.spec.imagePullSecrets).toBeUndefined();
    expect(annotationOf(pod).images).toEqual({
      'docker.io/library/busybox:1.37': 'mirror.example.com/docker.io/library/busybox:1.37',
      'registry.k8s.io/pause:3.10': 'mirror.example.com/registry.k8s.io/pause:3.10',
    });
    expect(manifests.find((m) => m.kind === 'ConfigMap').data.image).toBe('quay.io/not/an-image-field:1');
    const custom = manifests.find((m) => m.apiVersion === 'example.com/v1');
    expect(custom.spec.template.spec.containers[0].image).toBe('quay.io/acme/x:1');
    const unchanged = manifests.find((m) => m.metadata.name === 'mirrored');
    expect(unchanged.metadata.annotations).toBeUndefined();
    expect(unchanged.spec.template.spec.containers[0].image).toBe('mirror.example.com/quay.io/acme/m:1');
    // the objects of the API's kinds, schema-checked (the custom resource has no schema here)
    const core = new Chart(Testing.app(), 'core');
    RegistryMirror.of(core, 'mirror.example.com');
    new Include(core, 'included', { url: file });
    core.node.findAll().filter((c) => ApiObject.isApiObject(c) && c.apiVersion === 'example.com/v1').forEach((c) => c.node.scope!.node.tryRemoveChild(c.node.id));
    expect(synthValid(core).map((m) => m.kind)).toEqual(['Pod', 'ConfigMap', 'Deployment']);
  });

  test('a NodeAgent: unchanged, and an image a JSON patch sets on its DaemonSet is mirrored and recorded with the agent\'s', () => {
    const { chart } = mirrored();
    const agent = new NodeAgent(chart, 'agent', { image: 'quay.io/acme/agent:1.0' });
    const plain = synthValid(chart).find((m) => m.kind === 'DaemonSet');
    expect(plain.spec.template.spec.containers[0].image).toBe('mirror.example.com/quay.io/acme/agent:1.0');
    expect(annotationOf(plain)).toEqual({ mirror: 'mirror.example.com', images: { 'quay.io/acme/agent:1.0': 'mirror.example.com/quay.io/acme/agent:1.0' } });
    agent.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/initContainers', [{ name: 'init', image: 'ghcr.io/acme/init:1.0' }]));
    const patched = synthValid(chart).find((m) => m.kind === 'DaemonSet');
    expect(patched.spec.template.spec.initContainers[0].image).toBe('mirror.example.com/ghcr.io/acme/init:1.0');
    expect(patched.spec.template.spec.imagePullSecrets).toEqual([{ name: 'mirror-credentials' }]);
    expect(annotationOf(patched).images).toEqual({
      'ghcr.io/acme/init:1.0': 'mirror.example.com/ghcr.io/acme/init:1.0',
      'quay.io/acme/agent:1.0': 'mirror.example.com/quay.io/acme/agent:1.0',
    });
  });

  test.each<[string, unknown, RegExp]>([
    ['a malformed reference', 'Quay.io/Acme:1', /\[apps\/job\] RegistryMirror mirror\.example\.com: spec\.template\.spec\.containers\[0\]\.image "Quay\.io\/Acme:1" is not a valid image reference/],
    ['an unresolved token', '${Token[TOKEN.12]}', /\[apps\/job\] RegistryMirror mirror\.example\.com: spec\.template\.spec\.containers\[0\]\.image is "\$\{Token\[TOKEN\.12\]\}", a token that did not resolve/],
    ['a registry with a port', 'localhost:5000/acme/job:1', /spec\.template\.spec\.containers\[0\]\.image: localhost:5000\/acme\/job:1 is from localhost:5000, whose port cannot be a path component/],
    ['a number', 42, /spec\.template\.spec\.containers\[0\]\.image is 42: an image is a string/],
  ])('an image the mirror cannot rewrite fails with the path, the field and the value: %s', (_name, value, message) => {
    const { chart } = mirrored();
    new ApiObject(chart, 'job', {
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'job' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'job', image: value }] } } },
    });
    expect(() => Testing.synth(chart)).toThrow(message);
  });

  test('an annotation of the same key the user set is not overwritten: the synth fails', () => {
    const { chart } = mirrored();
    new ApiObject(chart, 'pod', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod', annotations: { [MIRROR_ANNOTATION]: 'mine' } }, spec: { containers: [{ name: 'a', image: 'quay.io/a/b:1' }] },
    });
    expect(() => Testing.synth(chart)).toThrow(/\[apps\/pod\] RegistryMirror mirror\.example\.com: metadata\.annotations\["node-agents\.cdk8s\.io\/registry-mirror"\] is "mine", which the mirror writes: remove it/);
  });

  test('the review judges every object\'s mirrored image by the registry it mirrors', () => {
    const { chart } = mirrored();
    new plus.Deployment(chart, 'web', { containers: [{ image: 'quay.io/acme/web:1.0', portNumber: 8080 }] });
    const findings = (allowed: string[]) => SecurityCheck.review(chart, { allowedRegistries: allowed }).workloads
      .filter((w) => w.kind === 'Deployment').flatMap((w) => w.findings).filter((f) => f.rule === 'NA-IMAGE-REGISTRY').map((f) => f.message);
    expect(findings(['quay.io'])).toEqual([]);
    expect(findings(['ghcr.io'])).toEqual([expect.stringContaining("uses image mirror.example.com/quay.io/acme/web:1.0, the mirror's copy of quay.io/acme/web, and neither the mirror nor quay.io")]);
  });

  test('no mirror in the app: a Deployment is written as cdk8s-plus renders it, though another app of the process has one', () => {
    mirrored();
    const chart = new Chart(Testing.app(), 'plain');
    new plus.Deployment(chart, 'web', { containers: [{ image: 'nginx:1.27', portNumber: 80 }] });
    const manifest = synthValid(chart).find((m) => m.kind === 'Deployment');
    expect(manifest.spec.template.spec.containers[0].image).toBe('nginx:1.27');
    expect(manifest.metadata.annotations?.[MIRROR_ANNOTATION]).toBeUndefined();
    expect(manifest.spec.template.spec.imagePullSecrets).toBeUndefined();
  });
});

describe('RegistryMirror.rewrite over random image references', () => {
  const component = fc.stringMatching(/^[a-z0-9]+([._-][a-z0-9]+)?$/, { maxLength: 12 });
  const host = fc.oneof(
    fc.constantFrom('', 'docker.io/', 'index.docker.io/', 'registry-1.docker.io/', 'quay.io/', 'ghcr.io/', 'registry.k8s.io/', 'mirror.example.com/', 'other.example.com:5000/', 'localhost/'),
    fc.tuple(component, component).map(([a, b]) => `${a}.${b.replace(/[._-]/g, '')}x/`),
  );
  const reference = fc.tuple(host, fc.array(component, { minLength: 1, maxLength: 3 }), fc.option(fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,20}$/)), fc.option(fc.stringMatching(/^[a-f0-9]{64}$/)))
    .map(([h, components, tag, digest]) => `${h}${components.join('/')}${tag !== null ? `:${tag}` : ''}${digest !== null ? `@sha256:${digest}` : ''}`)
    .filter((i) => parseImage(i) !== undefined);
  const mirror = RegistryMirror.of(Testing.app(), 'mirror.example.com');

  test('the mirrored image is valid, keeps the tag and the digest, is what the review reads as the upstream image, and is not rewritten twice', () => {
    fc.assert(fc.property(reference, (i) => {
      const ref = parseImage(i)!;
      if (ref.registry.includes(':')) {
        expect(() => mirror.rewrite(i)).toThrow(/whose port cannot be a path component/);
        return;
      }
      const to = mirror.rewrite(i);
      const out = parseImage(to)!;
      expect(out).toBeDefined();
      expect(out.registry).toBe('mirror.example.com');
      expect([out.tag, out.digest]).toEqual([ref.tag, ref.digest]);
      expect(mirror.rewrite(to)).toBe(to);
      if (ref.registry === 'mirror.example.com') {
        expect(to).toBe(i);
      } else {
        const upstream = mirroredImage(reviewParseImage(to), ['mirror.example.com']);
        expect(upstream?.fullName).toBe(reviewParseImage(i).fullName);
      }
    }), { numRuns: 500 });
  });
});
