import { ImagePinnedRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, goodContainer } from '../util';

const rule = new ImagePinnedRule();

describe('NA-IMAGE-PINNED: Images are pinned to a release (no latest, branch or channel tag, no untagged)', () => {
  test('Noncompliance 1: the latest tag', () => {
    const findings = findingsOf(rule, [agentWithContainer({ image: 'busybox:latest' })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.HIGH, container: 'agent', field: 'spec.template.spec.containers[0].image' });
    expect(findings[0].message).toContain('uses image busybox:latest, tagged latest');
  });

  test('Noncompliance 2: no tag (a registry port is not a tag), in an init container too', () => {
    const ds = agent({
      initContainers: [{ name: 'init', image: 'quay.io/prometheus/busybox' }],
      containers: [goodContainer({ image: 'localhost:5000/agent' })],
    });
    expect(findingsOf(rule, [ds]).map((f) => [f.container, f.message.replace(/^.*?: /, '')])).toEqual([
      ['agent', 'uses image localhost:5000/agent without a tag, which pulls latest (spec.template.spec.containers[0].image)'],
      ['init', 'uses image quay.io/prometheus/busybox without a tag, which pulls latest (spec.template.spec.initContainers[0].image)'],
    ]);
  });

  test('Noncompliance 3: no image at all', () => {
    expect(findingsOf(rule, [agentWithContainer({ image: undefined })]).map((f) => f.message)).toEqual([expect.stringContaining('has no image')]);
  });

  test('Noncompliance 4: a tag that names a branch or a channel, alone or with a suffix', () => {
    const images = ['calico/node:master', 'longhornio/longhorn-manager:master-head', 'metallb/speaker:main', 'ghcr.io/x/multus:snapshot',
      'registry.k8s.io/sig-storage/nfsplugin:canary', 'mcr.microsoft.com/k8s/csi/smb-csi:canary-windows-hp', 'fluent/fluent-bit:latest-debian',
      'quay.io/cilium/cilium:nightly', 'nginx:stable-alpine', 'alpine:edge', 'x/y:v1.2-latest'];
    const ds = agent({ containers: images.map((image, i) => goodContainer({ name: `c${i}`, image })) });
    const findings = findingsOf(rule, [ds]);
    expect(findings.map((f) => f.container).sort()).toEqual(images.map((_, i) => `c${i}`).sort());
    for (const f of findings) expect(f.severity).toBe(Severity.HIGH);
    expect(findings.find((f) => f.container === 'c1')!.message).toContain('uses image longhornio/longhorn-manager:master-head: tag master-head names a branch or channel, which moves with each build');
  });

  test('Noncompliance 5: a tag that names only a major version and a variant rolls (fluentd-kubernetes-daemonset\'s v1-debian-elasticsearch)', () => {
    const images = ['fluent/fluentd-kubernetes-daemonset:v1-debian-elasticsearch', 'node:20-alpine', 'x/agent:v2_slim'];
    const ds = agent({ containers: images.map((image, i) => goodContainer({ name: `c${i}`, image })) });
    const findings = findingsOf(rule, [ds]);
    expect(findings.map((f) => f.container).sort()).toEqual(['c0', 'c1', 'c2']);
    expect(findings.find((f) => f.container === 'c0')!.message).toContain('tag v1-debian-elasticsearch names only a major version, a rolling tag');
  });

  // the GPU operator's container-toolkit asset (test/corpus gpu-operator-container-toolkit), kustomize bases
  test.each(['FILLED BY THE OPERATOR', '<IMAGE>', 'registry.example.com/Agent:1.0', 'agent:1.0 ', 'x/agent:-1', 'x/agent@sha256:abc'])(
    'Noncompliance 6: %j is no valid image reference: a placeholder, not "pulls latest"', (image) => {
      const [finding] = findingsOf(rule, [agentWithContainer({ image })]);
      expect(finding.severity).toBe(Severity.HIGH);
      expect(finding.message).toContain(`uses image ${JSON.stringify(image)}, which is not a valid image reference`);
      expect(finding.message).toContain('InvalidImageName');
      expect(finding.message).not.toContain('latest');
      expect(finding.fix).toContain('set a valid image reference');
    });

  test('Compliance: release tags that merely contain such a word are releases', () => {
    const ds = agent({
      containers: ['x/mainframe:1.0.0', 'x/agent:v2.3.1-debian', 'x/edge-router:1.4.2', 'x/stable-diffusion:0.9.1', 'registry.k8s.io/pause:3.9',
        // a bare major (some projects number releases with one integer), a date build, registries with ports
        'x/agent:v2', 'x/build:20240101-alpine', '[::1]:5000/agent:1.0', 'my-registry.local:5000/team/agent__x:1.0']
        .map((image, i) => goodContainer({ name: `c${i}`, image })),
    });
    expect(findingsOf(rule, [ds])).toEqual([]);
  });

  test('Compliance: a version tag, a digest, or latest pinned by a digest', () => {
    const ds = agent({
      containers: [
        goodContainer({ image: 'cr.fluentbit.io/fluent/fluent-bit:5.1.1' }),
        goodContainer({ name: 'b', image: 'registry.example.com/agent@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' }),
        goodContainer({ name: 'c', image: 'nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' }),
        goodContainer({ name: 'd', image: 'localhost:5000/agent:1.0' }),
      ],
    });
    expect(findingsOf(rule, [ds])).toEqual([]);
  });
});
