import { Chart, Testing } from 'cdk8s';
import { checkImage, parseImage } from '../../src/agent/_image';

const HEX64 = '0123456789abcdef'.repeat(4);

describe('parseImage', () => {
  test.each([
    // Docker Hub: a first component without '.' or ':' (and not localhost) is part of the repository
    ['nginx:1.27', { registry: 'docker.io', repository: 'nginx', tag: '1.27' }],
    ['library/nginx:1.27-alpine', { registry: 'docker.io', repository: 'library/nginx', tag: '1.27-alpine' }],
    ['grafana/alloy:v1.4.2', { registry: 'docker.io', repository: 'grafana/alloy', tag: 'v1.4.2' }],
    ['docker.io/grafana/alloy:v1.4.2', { registry: 'docker.io', repository: 'grafana/alloy', tag: 'v1.4.2' }],
    ['nginx', { registry: 'docker.io', repository: 'nginx' }],
    // registries: a dot, a port, or localhost
    ['registry.example.com/node-agent:1.2.0', { registry: 'registry.example.com', repository: 'node-agent', tag: '1.2.0' }],
    ['registry.example.com:5000/team/node-agent:1.2.0', { registry: 'registry.example.com:5000', repository: 'team/node-agent', tag: '1.2.0' }],
    ['10.0.0.1:5000/agent:v1', { registry: '10.0.0.1:5000', repository: 'agent', tag: 'v1' }],
    ['localhost/agent:v1', { registry: 'localhost', repository: 'agent', tag: 'v1' }],
    ['localhost:5000/agent:v1', { registry: 'localhost:5000', repository: 'agent', tag: 'v1' }],
    ['host:5000/agent', { registry: 'host:5000', repository: 'agent' }],
    ['quay.io/cilium/cilium/operator-generic:v1.16.3', { registry: 'quay.io', repository: 'cilium/cilium/operator-generic', tag: 'v1.16.3' }],
    // a single component is a Docker Hub repository, even 'localhost' or one with a tag that looks like a port
    ['localhost:1.0', { registry: 'docker.io', repository: 'localhost', tag: '1.0' }],
    ['registry:5000', { registry: 'docker.io', repository: 'registry', tag: '5000' }],
    // digests, with and without a tag
    [`quay.io/cilium/cilium@sha256:${HEX64}`, { registry: 'quay.io', repository: 'cilium/cilium', digest: `sha256:${HEX64}` }],
    [`quay.io/cilium/cilium:v1.13.18@sha256:${HEX64}`, { registry: 'quay.io', repository: 'cilium/cilium', tag: 'v1.13.18', digest: `sha256:${HEX64}` }],
    [`nginx:latest@sha256:${HEX64}`, { registry: 'docker.io', repository: 'nginx', tag: 'latest', digest: `sha256:${HEX64}` }],
    [`localhost:5000/agent@sha512:${HEX64}${HEX64}`, { registry: 'localhost:5000', repository: 'agent', digest: `sha512:${HEX64}${HEX64}` }],
    // repository separators: '.', '_', '__', dashes
    ['example.com/a.b_c__d--e-f/g:1', { registry: 'example.com', repository: 'a.b_c__d--e-f/g', tag: '1' }],
    // tags: up to 128 characters of [A-Za-z0-9_.-], not starting with '.' or '-'
    ['agent:_underscore', { registry: 'docker.io', repository: 'agent', tag: '_underscore' }],
    ['agent:V1.2.3-RC.1_b', { registry: 'docker.io', repository: 'agent', tag: 'V1.2.3-RC.1_b' }],
    [`agent:${'t'.repeat(128)}`, { registry: 'docker.io', repository: 'agent', tag: 't'.repeat(128) }],
  ])('%s', (image, expected) => {
    expect(parseImage(image)).toEqual({ tag: undefined, digest: undefined, ...expected });
  });

  test.each([
    [''],
    [':1.0'],
    ['nginx:'],
    ['Nginx:1.0'],
    ['registry.example.com/Agent:1'],
    ['registry.example.com/:1'],
    ['a//b:1'],
    ['/agent:1'],
    ['agent/:1'],
    ['-agent:1'],
    ['agent-:1'],
    ['a___b:1'],
    ['agent:.1'],
    ['agent:-1'],
    ['agent:1 '],
    ['agent :1'],
    [`agent:${'t'.repeat(129)}`],
    ['agent@sha256:short'],
    [`agent@sha256:${'a'.repeat(31)}`],
    [`agent@sha256:${'g'.repeat(64)}`],
    [`agent@${HEX64}`],
    [`agent@:${HEX64}`],
    ['agent@'],
    ['http://registry.example.com/agent:1'],
  ])('rejects %j', (image) => {
    expect(parseImage(image)).toBeUndefined();
  });
});

describe('checkImage', () => {
  const scope = () => new Chart(Testing.app(), 'test');

  test('returns the parsed reference of a pinned image', () => {
    expect(checkImage(undefined, 'image', 'registry.example.com/node-agent:1.2.0')).toEqual({
      registry: 'registry.example.com', repository: 'node-agent', tag: '1.2.0', digest: undefined,
    });
  });

  test.each([
    ['a version tag', 'nginx:1.27'],
    ['a digest', `nginx@sha256:${HEX64}`],
    ['latest pinned by a digest', `nginx:latest@sha256:${HEX64}`],
  ])('accepts an image pinned by %s', (_, image) => {
    expect(checkImage(undefined, 'image', image).repository).toBe('nginx');
  });

  test.each([
    ['', /^image is empty/],
    ['   ', /^image is empty/],
    ['nginx', /^image "nginx" is not pinned: add a version tag or a digest \(e\.g\. "nginx:1\.2\.0"\)/],
    ['localhost:5000/agent', /^image "localhost:5000\/agent" is not pinned/],
    ['nginx:latest', /^image "nginx:latest" uses the "latest" tag/],
    ['Nginx:1', /^image "Nginx:1" is not a valid image reference: expected \[registry\/\]repository\[:tag\]\[@sha256:digest\]/],
  ])('rejects %j', (image, message) => {
    expect(() => checkImage(undefined, 'image', image)).toThrow(message);
  });

  test('prefixes errors with the construct path and uses the field name given', () => {
    expect(() => checkImage(scope(), 'sidecars[proxy].image', 'proxy')).toThrow(/^\[test\] sidecars\[proxy\]\.image "proxy" is not pinned/);
  });

  test('a missing image (JavaScript callers) is reported as empty', () => {
    expect(() => checkImage(scope(), 'image', undefined as any)).toThrow(/^\[test\] image is empty/);
  });

  describe('allowedRegistries', () => {
    test('an image from a listed registry passes', () => {
      expect(checkImage(undefined, 'image', 'quay.io/a/b:1', ['registry.example.com', 'quay.io']).registry).toBe('quay.io');
    });

    test('Docker Hub images count as docker.io', () => {
      expect(checkImage(undefined, 'image', 'nginx:1.27', ['docker.io']).registry).toBe('docker.io');
      expect(() => checkImage(undefined, 'image', 'nginx:1.27', ['registry.example.com']))
        .toThrow('image "nginx:1.27" comes from registry "docker.io", which is not in allowedRegistries [registry.example.com]: use an image from an allowed registry or add "docker.io" to allowedRegistries');
    });

    test('the registry port is part of the registry', () => {
      expect(() => checkImage(undefined, 'image', 'localhost:5000/agent:1', ['localhost'])).toThrow(/registry "localhost:5000", which is not in allowedRegistries \[localhost\]/);
    });

    test('an empty list allows every registry', () => {
      expect(checkImage(undefined, 'image', 'ghcr.io/a/b:1', []).registry).toBe('ghcr.io');
    });

    test('pinning is checked before the registry', () => {
      expect(() => checkImage(undefined, 'image', 'ghcr.io/a/b', ['registry.example.com'])).toThrow(/is not pinned/);
    });
  });
});
