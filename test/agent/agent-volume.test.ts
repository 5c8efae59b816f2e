import { Chart, Duration, Size, Testing } from 'cdk8s';
import { EmptyDirMedium } from 'cdk8s-plus-28';
import { acknowledgeAll } from './review-helper';
import { AgentVolume } from '../../src/agent/agent-volume';
import { NodeAgent } from '../../src/agent/node-agent';
import { NodeAgentProps } from '../../src/agent/node-agent-props';
import { ProjectedSource } from '../../src/agent/projected-source';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';

/** the pod spec of one agent, validated strictly. */
function podSpec(props: Partial<NodeAgentProps>): any {
  const chart = new Chart(Testing.app(), 'test');
  acknowledgeAll(new NodeAgent(chart, 'node-agent', { image, ...props }));
  return synthValid(chart).find((m) => m.kind === 'DaemonSet').spec.template.spec;
}

function build(props: Partial<NodeAgentProps>): void {
  new NodeAgent(new Chart(Testing.app(), 'test'), 'node-agent', { image, ...props });
}

describe('AgentVolume: Secrets and ConfigMaps', () => {
  test('a Secret with items, modes and optional: read-only, named after the Secret', () => {
    const spec = podSpec({
      volumes: [AgentVolume.fromSecret('loki-credentials', '/etc/loki', {
        items: [{ key: 'password', path: 'password', mode: 0o400 }, { key: 'ca.crt', path: 'tls/ca.crt' }],
        defaultMode: 0o440,
        optional: true,
      })],
    });
    expect(spec.volumes).toEqual([{
      name: 'secret-loki-credentials',
      secret: { secretName: 'loki-credentials', items: [{ key: 'password', path: 'password', mode: 0o400 }, { key: 'ca.crt', path: 'tls/ca.crt' }], defaultMode: 0o440, optional: true },
    }]);
    expect(spec.containers[0].volumeMounts).toEqual([{ name: 'secret-loki-credentials', mountPath: '/etc/loki', readOnly: true }]);
  });

  test('a ConfigMap with every key; the same volume in two containers is one pod volume', () => {
    const extra = AgentVolume.fromConfigMap('agent.extra', '/etc/agent/extra');
    const spec = podSpec({ volumes: [extra], sidecars: [{ name: 'reloader', image, volumes: [AgentVolume.fromConfigMap('agent.extra', '/config')] }] });
    expect(spec.volumes).toEqual([{ name: 'configmap-agent-extra', configMap: { name: 'agent.extra' } }]);
    expect(spec.containers.map((c: any) => c.volumeMounts)).toEqual([
      [{ name: 'configmap-agent-extra', mountPath: '/etc/agent/extra', readOnly: true }],
      [{ name: 'configmap-agent-extra', mountPath: '/config', readOnly: true }],
    ]);
  });

  test('two different mounts of one Secret get two volumes, the derived name made unique', () => {
    const spec = podSpec({
      volumes: [
        AgentVolume.fromSecret('tls', '/etc/a', { items: [{ key: 'tls.crt', path: 'tls.crt' }] }),
        AgentVolume.fromSecret('tls', '/etc/b', { items: [{ key: 'tls.key', path: 'tls.key' }] }),
      ],
    });
    expect(spec.volumes.map((v: any) => v.name)).toEqual(['secret-tls', expect.stringMatching(/^secret-tls-[0-9a-f]{8}$/)]);
  });

  test('the same chosen volume name for two different volumes is refused', () => {
    expect(() => podSpec({
      volumes: [AgentVolume.fromSecret('a', '/etc/a', { volumeName: 'creds' }), AgentVolume.fromSecret('b', '/etc/b', { volumeName: 'creds' })],
    })).toThrow(/volume name "creds" is used for the secret volume at \/etc\/a of container "agent" and for the secret volume at \/etc\/b/);
  });

  test.each([
    ['a name that is no DNS subdomain', () => AgentVolume.fromSecret('Loki_Credentials', '/etc/loki'), /AgentVolume\.fromSecret\("Loki_Credentials"\): the name "Loki_Credentials" is not a valid name/],
    ['a relative mount path', () => AgentVolume.fromSecret('loki', 'etc/loki'), /mountPath "etc\/loki" must be an absolute path/],
    ['a mode above 0777', () => AgentVolume.fromSecret('loki', '/etc/loki', { defaultMode: 0o1777 }), /defaultMode must be a file mode from 0 to 0777 \(write it in octal, e\.g\. 0o440\), got 1023 \(01777\)/],
    ['a decimal mode typed for octal (777)', () => AgentVolume.fromSecret('loki', '/etc/loki', { defaultMode: 777 }), /got 777 \(01411\)/],
    ['an item path with ..', () => AgentVolume.fromSecret('loki', '/etc/loki', { items: [{ key: 'p', path: '../p' }] }), /items\[p\]\.path "\.\.\/p" must not contain a "\.\." segment/],
    ['an absolute item path', () => AgentVolume.fromConfigMap('c', '/etc/c', { items: [{ key: 'p', path: '/p' }] }), /items\[p\]\.path "\/p" must be relative to the mount path, e\.g\. "p"/],
    ['an invalid key', () => AgentVolume.fromSecret('loki', '/etc/loki', { items: [{ key: 'a/b', path: 'p' }] }), /items key "a\/b" is not a Secret or ConfigMap key/],
    ['two items to one file', () => AgentVolume.fromSecret('loki', '/etc/loki', { items: [{ key: 'a', path: 'p' }, { key: 'b', path: 'p' }] }), /two items write the file "p"/],
    ['empty items', () => AgentVolume.fromSecret('loki', '/etc/loki', { items: [] }), /items is empty, which would project no key: leave it out/],
    ['an unknown option', () => AgentVolume.fromSecret('loki', '/etc/loki', { readOnly: false } as any), /SecretVolumeOptions has no property "readOnly"/],
    ['a volume name that is no DNS label', () => AgentVolume.fromSecret('loki', '/etc/loki', { volumeName: 'Creds' }), /volumeName "Creds" is not a valid name/],
  ])('refuses %s', (_name, make, message) => {
    expect(make).toThrow(message);
  });

  test('a volume at a path another mount of the container uses is refused', () => {
    expect(() => build({ scratchDirs: ['/etc/loki'], volumes: [AgentVolume.fromSecret('loki', '/etc/loki')] }))
      .toThrow(/\[test\/node-agent\] scratchDirs\[\/etc\/loki\]: mount path "\/etc\/loki" is already used by another mount of container "agent"/);
    expect(() => build({ hostMounts: [], volumes: [AgentVolume.emptyDir('/etc/a'), AgentVolume.fromSecret('s', '/etc/a')] }))
      .toThrow(/\[test\/node-agent\] volumes\[\/etc\/a\]: mount path "\/etc\/a" is already used/);
    expect(() => build({ volumes: [{ mountPath: '/x' }] as any })).toThrow(/volumes\[\/x\] must be created with AgentVolume\.fromSecret\(\)/);
  });
});

describe('AgentVolume.projected', () => {
  test('a ServiceAccount token with audience and expiry, a Secret, a ConfigMap and downward API fields in one directory', () => {
    const spec = podSpec({
      volumes: [AgentVolume.projected('/var/run/secrets/vault', [
        ProjectedSource.serviceAccountToken({ path: 'token', audience: 'vault', expiration: Duration.hours(1) }),
        ProjectedSource.secret('vault-ca', { items: [{ key: 'ca.crt', path: 'ca.crt' }] }),
        ProjectedSource.configMap('vault-config', { optional: true }),
        ProjectedSource.downwardApi([{ path: 'labels', fieldPath: 'metadata.labels' }, { path: 'app', fieldPath: "metadata.labels['app.kubernetes.io/name']", mode: 0o444 }]),
      ], { defaultMode: 0o440 })],
    });
    expect(spec.volumes).toEqual([{
      name: 'projected-var-run-secrets-vault',
      projected: {
        defaultMode: 0o440,
        sources: [
          { serviceAccountToken: { path: 'token', audience: 'vault', expirationSeconds: 3600 } },
          { secret: { name: 'vault-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { configMap: { name: 'vault-config', optional: true } },
          { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }, { path: 'app', fieldRef: { fieldPath: "metadata.labels['app.kubernetes.io/name']" }, mode: 0o444 }] } },
        ],
      },
    }]);
    expect(spec.containers[0].volumeMounts).toEqual([{ name: 'projected-var-run-secrets-vault', mountPath: '/var/run/secrets/vault', readOnly: true }]);
  });

  test.each([
    ['no source', () => AgentVolume.projected('/p', []), /give at least one source/],
    ['a plain object as source', () => AgentVolume.projected('/p', [{ secret: { name: 'x' } } as any]), /a source must be created with ProjectedSource\.secret\(\)/],
    ['two sources writing one file', () => AgentVolume.projected('/p', [ProjectedSource.serviceAccountToken({ path: 'token' }), ProjectedSource.secret('s', { items: [{ key: 'k', path: 'token' }] })]),
      /the serviceAccountToken and the secret sources both write "token"/],
    ['a token valid for less than 10 minutes', () => ProjectedSource.serviceAccountToken({ path: 'token', expiration: Duration.minutes(5) }), /expiration must be a whole number of seconds from 600 \(10 minutes, the API server's minimum\) to 4294967296 \(2\^32\), got 300s/],
    ['a token valid for more than 2^32 seconds', () => ProjectedSource.serviceAccountToken({ path: 'token', expiration: Duration.seconds(4294967297) }), /to 4294967296 \(2\^32\), got 4294967297s/],
    ['a token without a path', () => ProjectedSource.serviceAccountToken({ audience: 'vault' } as any), /give the file the token is written to/],
    ['an audience with spaces', () => ProjectedSource.serviceAccountToken({ path: 't', audience: 'my vault' }), /audience "my vault" must be one word/],
    ['spec.nodeName in a downward API volume', () => ProjectedSource.downwardApi([{ path: 'node', fieldPath: 'spec.nodeName' }]), /fieldPath "spec\.nodeName" of file "node" is not a field a downward API volume supports/],
    ['a downward API file outside the volume', () => ProjectedSource.downwardApi([{ path: 'a/../../b', fieldPath: 'metadata.name' }]), /must not contain a "\.\." segment/],
    ['no downward API file', () => ProjectedSource.downwardApi([]), /give at least one file/],
  ])('refuses %s', (_name, make, message) => {
    expect(make).toThrow(message);
  });
});

describe('AgentVolume.emptyDir', () => {
  test('sized, in memory, writable; one per container unless named, then shared', () => {
    const shared = AgentVolume.emptyDir('/shared', { volumeName: 'handoff' });
    const spec = podSpec({
      volumes: [AgentVolume.emptyDir('/buffer', { sizeLimit: Size.mebibytes(256), medium: EmptyDirMedium.MEMORY }), shared],
      initContainers: [{ name: 'prepare', image, volumes: [AgentVolume.emptyDir('/buffer'), AgentVolume.emptyDir('/shared', { volumeName: 'handoff' })] }],
    });
    expect(spec.volumes).toEqual([
      { name: 'prepare-emptydir-buffer', emptyDir: {} },
      { name: 'handoff', emptyDir: {} },
      { name: 'agent-emptydir-buffer', emptyDir: { medium: 'Memory', sizeLimit: '256Mi' } },
    ]);
    expect(spec.containers[0].volumeMounts).toEqual([{ name: 'agent-emptydir-buffer', mountPath: '/buffer' }, { name: 'handoff', mountPath: '/shared' }]);
  });

  test('the default medium renders no medium', () => {
    expect(podSpec({ volumes: [AgentVolume.emptyDir('/cache', { medium: EmptyDirMedium.DEFAULT })] }).volumes).toEqual([{ name: 'agent-emptydir-cache', emptyDir: {} }]);
  });

  test.each([
    ['a size that is not whole MiB', () => AgentVolume.emptyDir('/b', { sizeLimit: Size.kibibytes(1) }), /sizeLimit must be a whole, positive number of MiB/],
    ['an unknown medium', () => AgentVolume.emptyDir('/b', { medium: 'HugePages' as any }), /medium/],
  ])('refuses %s', (_name, make, message) => {
    expect(make).toThrow(message);
  });
});
