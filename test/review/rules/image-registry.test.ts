import { ImageRegistryRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, goodContainer } from '../util';

const rule = new ImageRegistryRule();

describe('NA-IMAGE-REGISTRY: Images come from an allowed registry', () => {
  test('Noncompliance 1: an image from another registry', () => {
    const findings = findingsOf(rule, [agentWithContainer({ image: 'ghcr.io/acme/agent:1.0' })], { allowedRegistries: ['registry.example.com'] });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.HIGH, container: 'agent', field: 'spec.template.spec.containers[0].image' });
    expect(findings[0].message).toContain('uses image ghcr.io/acme/agent:1.0 from ghcr.io, which is not an allowed registry (registry.example.com)');
  });

  test('Noncompliance 2: an image without a registry is from docker.io; a path prefix must match whole segments', () => {
    const ds = agent({ containers: [goodContainer({ image: 'nginx:1.27' }), goodContainer({ name: 'b', image: 'docker.io/falcosecurity-fake/falco:1' })] });
    const findings = findingsOf(rule, [ds], { allowedRegistries: ['docker.io/falcosecurity'] });
    expect(findings.map((f) => f.container)).toEqual(['agent', 'b']);
    expect(findings[0].message).toContain('from docker.io');
  });

  test('Noncompliance 3: an empty allowed list allows nothing', () => {
    expect(findingsOf(rule, [agent()], { allowedRegistries: [] }).map((f) => f.message)).toEqual([expect.stringContaining('(none is allowed)')]);
  });

  test('Compliance: allowed hosts and path prefixes; docker.io aliases; no list means any registry', () => {
    const ds = agent({
      containers: [
        goodContainer(),
        goodContainer({ name: 'b', image: 'falcosecurity/falco:0.44.1' }),
        goodContainer({ name: 'c', image: 'index.docker.io/falcosecurity/falcoctl:0.13.0' }),
      ],
    });
    expect(findingsOf(rule, [ds], { allowedRegistries: ['registry.example.com', 'docker.io/falcosecurity/'] })).toEqual([]);
    expect(findingsOf(rule, [agentWithContainer({ image: 'nginx:1.27' })], { allowedRegistries: ['index.docker.io'] })).toEqual([]);
    expect(findingsOf(rule, [agentWithContainer({ image: 'ghcr.io/x/y:1' })])).toEqual([]);
  });

  test('a declared mirror: its copy of an image is judged by the registry it mirrors, with the path prefixes of allowedRegistries', () => {
    const ds = agent({
      containers: [
        goodContainer({ image: 'mirror.example.com/quay.io/prometheus/node-exporter:v1.12.1' }),
        goodContainer({ name: 'b', image: 'mirror.example.com/docker.io/falcosecurity/falco:0.44.1@sha256:' + 'a'.repeat(64) }),
        goodContainer({ name: 'c', image: 'mirror.example.com/ghcr.io/acme/agent:1.0' }),
        goodContainer({ name: 'd', image: 'mirror.example.com/tools/debug:1.0' }),
      ],
    });
    const findings = findingsOf(rule, [ds], { allowedRegistries: ['quay.io', 'docker.io/falcosecurity'], registryMirrors: ['mirror.example.com'] });
    expect(findings.map((f) => [f.container, f.message])).toEqual([
      ['c', 'DaemonSet observability/node-agent, container "c": uses image mirror.example.com/ghcr.io/acme/agent:1.0, the mirror\'s copy of ghcr.io/acme/agent, ' +
        'and neither the mirror nor ghcr.io is an allowed registry (quay.io, docker.io/falcosecurity) (spec.template.spec.containers[2].image)'],
      // a path under the mirror that names no registry is the mirror's own image, judged as such
      ['d', 'DaemonSet observability/node-agent, container "d": uses image mirror.example.com/tools/debug:1.0 from mirror.example.com, which is not an ' +
        'allowed registry (quay.io, docker.io/falcosecurity) (spec.template.spec.containers[3].image)'],
    ]);
  });

  test('without the mirror given to the review, a mirrored image is from the mirror', () => {
    const findings = findingsOf(rule, [agentWithContainer({ image: 'mirror.example.com/quay.io/prometheus/node-exporter:v1.12.1' })], { allowedRegistries: ['quay.io'] });
    expect(findings.map((f) => f.message)).toEqual([expect.stringContaining('from mirror.example.com, which is not an allowed registry (quay.io)')]);
  });
});
