import { Chart, Testing } from 'cdk8s';
import { HostPathVolumeType, MountPropagation } from 'cdk8s-plus-28';
import { acknowledgeAll } from './review-helper';
import { HostMount } from '../../src/agent/host-mount';
import { NodeAgent } from '../../src/agent/node-agent';
import { NodeAgentProps } from '../../src/agent/node-agent-props';
import { HostAccessReasons } from '../../src/model/host-access-reasons';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';

/** the DaemonSet of one agent, validated strictly. */
function daemonSet(props: Partial<NodeAgentProps>): any {
  const chart = new Chart(Testing.app(), 'test');
  acknowledgeAll(new NodeAgent(chart, 'node-agent', { image, ...props }));
  return synthValid(chart).find((m) => m.kind === 'DaemonSet');
}

function build(props: Partial<NodeAgentProps>): void {
  new NodeAgent(new Chart(Testing.app(), 'test'), 'node-agent', { image, ...props });
}

describe('HostMount.readOnly', () => {
  test('defaults: same path in the container, read-only, typed Directory, no propagation, derived volume name; the reason trimmed', () => {
    const m = HostMount.readOnly('/var/log', { reason: ' tails logs ' });
    expect(m.hostPath).toBe('/var/log');
    expect(m.mountPath).toBe('/var/log');
    expect(m.writable).toBe(false);
    expect(m.type).toBe(HostPathVolumeType.DIRECTORY);
    expect(m.propagation).toBeUndefined();
    expect(m.volumeName).toBeUndefined();
    expect(m.reason).toBe('tails logs');
  });

  test('keeps every option', () => {
    const m = HostMount.readOnly('/run/containerd/containerd.sock', {
      mountPath: '/host/containerd.sock',
      type: HostPathVolumeType.SOCKET,
      propagation: MountPropagation.HOST_TO_CONTAINER,
      volumeName: 'containerd',
      reason: 'lists containers',
    });
    expect(m).toMatchObject({
      hostPath: '/run/containerd/containerd.sock',
      mountPath: '/host/containerd.sock',
      writable: false,
      type: 'Socket',
      propagation: 'HostToContainer',
      volumeName: 'containerd',
      reason: 'lists containers',
    });
  });
});

describe('HostMount.readWrite', () => {
  test('writable, with the reason it was given', () => {
    const m = HostMount.readWrite('/var/lib/fluent-bit', 'keeps tail positions across restarts', { type: HostPathVolumeType.DIRECTORY_OR_CREATE });
    expect(m).toMatchObject({ hostPath: '/var/lib/fluent-bit', mountPath: '/var/lib/fluent-bit', writable: true, type: 'DirectoryOrCreate' });
    expect(m.reason).toBe('keeps tail positions across restarts');
  });
});

describe('rendered by NodeAgent', () => {
  test('a read-only mount: readOnly mount, typed hostPath volume named after the path', () => {
    const ds = daemonSet({ hostMounts: [HostMount.readOnly('/var/log', { reason: 'r' })] });
    const spec = ds.spec.template.spec;
    expect(spec.volumes).toEqual([{ name: 'host-var-log', hostPath: { path: '/var/log', type: 'Directory' } }]);
    expect(spec.containers[0].volumeMounts).toEqual([{ name: 'host-var-log', mountPath: '/var/log', readOnly: true }]);
  });

  test('a writable mount has no readOnly flag and records its reason', () => {
    const ds = daemonSet({ hostMounts: [HostMount.readWrite('/var/lib/agent', 'keeps its state on the node')] });
    expect(ds.spec.template.spec.containers[0].volumeMounts).toEqual([{ name: 'host-var-lib-agent', mountPath: '/var/lib/agent' }]);
    expect(HostAccessReasons.parse(ds.metadata.annotations)).toEqual([
      { type: 'hostPath', detail: '/var/lib/agent (read-write)', container: 'agent', reason: 'keeps its state on the node' },
    ]);
  });

  test('a read-only mount records its reason when it has one', () => {
    const ds = daemonSet({ hostMounts: [HostMount.readOnly('/var/log', { reason: '  tails container logs ' })] });
    expect(HostAccessReasons.parse(ds.metadata.annotations)).toEqual([
      { type: 'hostPath', detail: '/var/log (read-only)', container: 'agent', reason: 'tails container logs' },
    ]);
  });

  test('mountPath, propagation, volumeName and type are rendered as given', () => {
    const ds = daemonSet({
      hostMounts: [HostMount.readOnly('/proc', { reason: 'r', mountPath: '/host/proc', propagation: MountPropagation.HOST_TO_CONTAINER, volumeName: 'proc', type: HostPathVolumeType.DEFAULT })],
    });
    const spec = ds.spec.template.spec;
    expect(spec.volumes).toEqual([{ name: 'proc', hostPath: { path: '/proc' } }]);
    expect(spec.containers[0].volumeMounts).toEqual([{ name: 'proc', mountPath: '/host/proc', readOnly: true, mountPropagation: 'HostToContainer' }]);
  });

  test('derived names: "/" is host-root, odd characters become dashes', () => {
    const spec = daemonSet({ hostMounts: [HostMount.readOnly('/', { reason: 'r', mountPath: '/host' }), HostMount.readOnly('/var/lib/docker.sock_dir', { reason: 'r' })] }).spec.template.spec;
    expect(spec.volumes.map((v: any) => v.name)).toEqual(['host-root', 'host-var-lib-docker-sock-dir']);
  });

  test('a very long path still gives a valid volume name', () => {
    const long = `/${'a'.repeat(40)}/${'b'.repeat(40)}`;
    const name = daemonSet({ hostMounts: [HostMount.readOnly(long, { reason: 'r' })] }).spec.template.spec.volumes[0].name;
    expect(name.length).toBeLessThanOrEqual(63);
    expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
  });

  test('the same path mounted by two containers is one volume', () => {
    const spec = daemonSet({
      hostMounts: [HostMount.readOnly('/opt/cni/bin', { reason: 'r' })],
      initContainers: [{ name: 'install', image, hostMounts: [HostMount.readWrite('/opt/cni/bin', 'installs the CNI binaries')] }],
    }).spec.template.spec;
    expect(spec.volumes).toEqual([{ name: 'host-opt-cni-bin', hostPath: { path: '/opt/cni/bin', type: 'Directory' } }]);
  });

  test('Bidirectional propagation in a privileged container', () => {
    const spec = daemonSet({
      privileged: { reason: 'publishes CSI volume mounts to the node' },
      hostMounts: [HostMount.readWrite('/var/lib/kubelet', 'publishes volumes', { propagation: MountPropagation.BIDIRECTIONAL })],
    }).spec.template.spec;
    expect(spec.containers[0].volumeMounts[0].mountPropagation).toBe('Bidirectional');
  });
});

describe('rejected by the factories', () => {
  test.each([
    ['a relative host path', () => HostMount.readOnly('var/log', { reason: 'r' }), /^HostMount\.readOnly\("var\/log"\) host path "var\/log" must be an absolute path/],
    ['a ".." segment', () => HostMount.readOnly('/var/../etc', { reason: 'r' }), /^HostMount\.readOnly\("\/var\/\.\.\/etc"\) host path "\/var\/\.\.\/etc" must not contain "\." or "\.\." segments: write the path it resolves to, e.g. "\/etc"/],
    ['a "." segment', () => HostMount.readOnly('/var/./log', { reason: 'r' }), /must not contain "\." or "\.\." segments/],
    ['an empty segment', () => HostMount.readOnly('/var//log', { reason: 'r' }), /has an empty path segment \("\/\/"\): write "\/var\/log"/],
    ['a relative mountPath', () => HostMount.readOnly('/var/log', { reason: 'r', mountPath: 'logs' }), /^HostMount\.readOnly\("\/var\/log"\) mountPath "logs" must be an absolute path/],
    ['a blank read-write reason', () => HostMount.readWrite('/var/lib/x', '  '), /^HostMount\.readWrite\("\/var\/lib\/x"\) \(read-write\) needs a reason/],
    ['a multi-line read-write reason', () => HostMount.readWrite('/var/lib/x', 'a\nb'), /^HostMount\.readWrite\("\/var\/lib\/x"\) \(read-write\): the reason must be a single line/],
    ['a blank read-only reason', () => HostMount.readOnly('/var/log', { reason: '' }), /^HostMount\.readOnly\("\/var\/log"\) needs a reason/],
    ['an invalid volume name', () => HostMount.readOnly('/var/log', { reason: 'r', volumeName: 'Logs' }), /^HostMount\.readOnly\("\/var\/log"\) volumeName "Logs" is not a valid name/],
    ['an unknown type (JavaScript input)', () => HostMount.readOnly('/var/log', { reason: 'r', type: 'Dir' as any }), /^HostMount\.readOnly\("\/var\/log"\): type "Dir" is not a HostPathVolumeType/],
    ['an unknown propagation (JavaScript input)', () => HostMount.readOnly('/var/log', { reason: 'r', propagation: 'Both' as any }), /^HostMount\.readOnly\("\/var\/log"\): propagation "Both" is not one of/],
  ])('%s', (_, make, message) => {
    expect(make).toThrow(message);
  });
});

describe('rejected by NodeAgent', () => {
  test('one mount path twice in a container, with or without a trailing slash', () => {
    expect(() => build({ hostMounts: [HostMount.readOnly('/a', { reason: 'r', mountPath: '/m' }), HostMount.readOnly('/b', { reason: 'r', mountPath: '/m/' })] }))
      .toThrow(/hostMounts\[\/b\]: mount path "\/m" is already used by another mount of container "agent"/);
  });

  test('a mount that is not a HostMount', () => {
    expect(() => build({ hostMounts: [{ hostPath: '/var/log' } as any] })).toThrow(/hostMounts\[\/var\/log\] must be created with HostMount\.readOnly\(\) or HostMount\.readWrite\(\)/);
  });

  test('Bidirectional propagation without privileged fails at synth: the API server would reject it', () => {
    expect(() => daemonSet({ hostMounts: [HostMount.readOnly('/var/lib/kubelet', { reason: 'r', propagation: MountPropagation.BIDIRECTIONAL })] }))
      .toThrow(/\[test\/node-agent\] security review: \[high\] NA-API-REJECTED: .*container "agent": mounts \/var\/lib\/kubelet with Bidirectional propagation, which Kubernetes allows only in privileged containers/);
  });
});
