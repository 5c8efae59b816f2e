import { Testing } from 'cdk8s';
import { BLACKBOX_EXPORTER_IMAGE, buildPrivateRegistryApp } from '../../examples/private-registry/main';
import { LogCollector, NodeMonitor, PodSecurity, SecurityAgent, SecurityCheck } from '../../src';
import { MIRROR_ANNOTATION } from '../../src/review/_image';
import { synthValid } from '../util/k8s-schema';

/**
 * The private-registry example: every image through a mirror with a pull secret, and a log collector shipping to an
 * authenticated Loki with its credentials from a Secret.
 */

function build(): { all: any[]; app: ReturnType<typeof Testing.app> } {
  const app = Testing.app();
  buildPrivateRegistryApp(app);
  expect(app.charts.map((c) => c.node.id)).toEqual(['private-registry']);
  return { all: synthValid(app.charts[0]), app };
}

const { all, app } = build();
const daemonSets = all.filter((m) => m.kind === 'DaemonSet');
const containers = daemonSets.flatMap((d) => [...d.spec.template.spec.initContainers ?? [], ...d.spec.template.spec.containers]);
const collector = daemonSets.find((d) => d.metadata.name === 'fluent-bit');

test('every image is the preset\'s pinned default, pulled through the mirror, with the mirror\'s pull secret', () => {
  expect(containers.map((c) => c.image)).toEqual([
    `mirror.example.com/${LogCollector.DEFAULT_IMAGE}`,
    `mirror.example.com/${NodeMonitor.DEFAULT_IMAGE}`,
    `mirror.example.com/${SecurityAgent.DEFAULT_IMAGE}`,
  ]);
  for (const ds of daemonSets) {
    expect(ds.spec.template.spec.imagePullSecrets).toEqual([{ name: 'mirror-credentials' }]);
    const images = JSON.parse(ds.metadata.annotations[MIRROR_ANNOTATION]).images;
    expect(Object.values(images)).toEqual([ds.spec.template.spec.containers[0].image]);
  }
});

test('the Deployment, which is not an agent, pulls through the mirror too, with the pull secret, the rewrite in its annotation', () => {
  const deployment = all.find((m) => m.kind === 'Deployment');
  expect(deployment.metadata.namespace).toBe('monitoring');
  const spec = deployment.spec.template.spec;
  expect(spec.containers.map((c: any) => c.image)).toEqual([`mirror.example.com/${BLACKBOX_EXPORTER_IMAGE}`]);
  expect(spec.imagePullSecrets).toEqual([{ name: 'mirror-credentials' }]);
  // no Pod Security warning where it runs: the monitoring namespace warns at the level its agent meets
  const level = all.find((m) => m.kind === 'Namespace' && m.metadata.name === 'monitoring').metadata.labels['pod-security.kubernetes.io/warn'];
  expect(level).toBe('restricted');
  expect(PodSecurity.violationsAt(spec, level)).toEqual([]);
  expect(JSON.parse(deployment.metadata.annotations[MIRROR_ANNOTATION])).toEqual({
    mirror: 'mirror.example.com', images: { [BLACKBOX_EXPORTER_IMAGE]: `mirror.example.com/${BLACKBOX_EXPORTER_IMAGE}` },
  });
});

test('the Loki credentials come from Secret keys, read by the configuration through the environment', () => {
  const env = collector.spec.template.spec.containers[0].env;
  expect(env.filter((e: any) => e.name.startsWith('LOKI_'))).toEqual([
    { name: 'LOKI_USERNAME', valueFrom: { secretKeyRef: { name: 'loki-credentials', key: 'username' } } },
    { name: 'LOKI_PASSWORD', valueFrom: { secretKeyRef: { name: 'loki-credentials', key: 'password' } } },
  ]);
  const config = all.find((m) => m.kind === 'ConfigMap' && m.metadata.namespace === 'logging').data['fluent-bit.yaml'];
  expect(config).toContain('http_user: ${LOKI_USERNAME}');
  expect(config).toContain('http_passwd: ${LOKI_PASSWORD}');
  expect(config).toContain('host: logs.example.com');
  expect(config).toContain('tls: "on"');
  expect(config).toContain('tls.verify: "on"');
  expect(config).toContain('tls.ca_file: /etc/loki-ca/ca.crt');
});

test('Loki\'s CA is a Secret mounted read-only where the configuration reads it', () => {
  const spec = collector.spec.template.spec;
  expect(spec.volumes).toContainEqual({ name: 'secret-loki-ca', secret: { secretName: 'loki-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }], defaultMode: 0o444 } });
  expect(spec.containers[0].volumeMounts).toContainEqual({ name: 'secret-loki-ca', mountPath: '/etc/loki-ca', readOnly: true });
});

test('the review has no open finding, no NA-ENV-SECRET at all, and knows the mirror', () => {
  const report = SecurityCheck.review(app, { allowedRegistries: ['cr.fluentbit.io', 'quay.io', 'docker.io/falcosecurity'] });
  const findings = report.workloads.flatMap((w) => w.findings);
  expect(findings.filter((f) => !f.acknowledged).map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
  expect(findings.filter((f) => f.rule === 'NA-ENV-SECRET' || f.rule === 'NA-IMAGE-REGISTRY')).toEqual([]);
});
