import { Chart, Testing } from 'cdk8s';
import { HostPathVolumeType } from 'cdk8s-plus-28';
import {
  AgentContainerProps, ContainerOptions, ContainerSettings, HostMount, NodeAgent, NodeAgentProps, NodeAgentSettings,
} from '../../src';
import { withPresetDefaults, withoutKeys } from '../../src/agent/_preset';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';
const installer = 'registry.example.com/installer:1.0.0';

type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;

function chart(): Chart {
  return new Chart(Testing.app(), 'test');
}

function podSpec(manifests: any[]): any {
  return manifests.find((m) => m.kind === 'DaemonSet').spec.template.spec;
}

describe('image-less settings, for presets', () => {
  test('NodeAgentProps is NodeAgentSettings plus the image; ContainerOptions is ContainerSettings plus the image', () => {
    const agentKeys: SameKeys<NodeAgentProps, NodeAgentSettings & { image: string }> = true;
    const containerKeys: SameKeys<ContainerOptions, ContainerSettings & { image: string }> = true;
    const settingsHaveNoImage: 'image' extends keyof NodeAgentSettings ? false : true = true;
    const imageRequired: undefined extends NodeAgentProps['image'] ? false : true = true;
    expect([agentKeys, containerKeys, settingsHaveNoImage, imageRequired]).toEqual([true, true, true, true]);
  });

  test('NodeAgentProps still takes every container option (it is a ContainerOptions)', () => {
    const props: NodeAgentProps = { image, args: ['--verbose'] };
    const asContainer: ContainerOptions = props;
    expect(asContainer.image).toEqual(image);
  });
});

describe('config files in init containers and sidecars (configMountPath)', () => {
  const installerProps: AgentContainerProps = {
    name: 'install',
    image: installer,
    command: ['cp', '/config/conf.json', '/host/var/lib/node-agent/conf.json'],
    runAsRoot: { reason: 'writes into a root-owned directory' },
    hostMounts: [HostMount.readWrite('/var/lib/node-agent', 'installs the configuration', { type: HostPathVolumeType.DIRECTORY_OR_CREATE, mountPath: '/host/var/lib/node-agent' })],
    configMountPath: '/config',
  };

  test('mounts the ConfigMap read-only in the init container at its path, sharing the one config volume', () => {
    const c = chart();
    new NodeAgent(c, 'node-agent', { image, configFiles: { 'conf.json': '{}' }, initContainers: [installerProps] });
    const spec = podSpec(synthValid(c));
    expect(spec.initContainers[0].volumeMounts).toContainEqual({ name: 'config', mountPath: '/config', readOnly: true });
    expect(spec.containers[0].volumeMounts).toContainEqual({ name: 'config', mountPath: '/etc/node-agent', readOnly: true });
    expect(spec.volumes.filter((v: any) => v.name === 'config')).toEqual([{ name: 'config', configMap: { name: 'node-agent-config' } }]);
  });

  test('works for sidecars and for containers added after construction', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image, configFiles: { 'conf.json': '{}' } });
    agent.addSidecar({ name: 'reloader', image: installer, configMountPath: '/watch' });
    const spec = podSpec(synthValid(c));
    expect(spec.containers[1].volumeMounts).toEqual([{ name: 'config', mountPath: '/watch', readOnly: true }]);
  });

  test('without configMountPath an extra container does not see the config files', () => {
    const c = chart();
    new NodeAgent(c, 'node-agent', { image, configFiles: { 'conf.json': '{}' }, sidecars: [{ name: 'other', image: installer }] });
    expect(podSpec(Testing.synth(c)).containers[1].volumeMounts).toBeUndefined();
  });

  test('fails when the agent has no config files', () => {
    expect(() => new NodeAgent(chart(), 'node-agent', { image, initContainers: [installerProps] }))
      .toThrow(/\[test\/node-agent\] initContainers\[install\]\.configMountPath is set but the agent has no configFiles/);
  });

  test('fails on a relative path or a path another mount of the container uses', () => {
    const files = { 'conf.json': '{}' };
    expect(() => new NodeAgent(chart(), 'node-agent', { image, configFiles: files, sidecars: [{ name: 's', image: installer, configMountPath: 'config' }] }))
      .toThrow(/sidecars\[s\]\.configMountPath "config" must be an absolute path/);
    expect(() => new NodeAgent(chart(), 'node-agent', { image, configFiles: files, sidecars: [{ name: 's', image: installer, scratchDirs: ['/config'], configMountPath: '/config' }] }))
      .toThrow(/mount path "\/config" is already used by another mount of container "s"/);
  });
});

describe('preset defaults (internal)', () => {
  test('a prop set replaces the default entirely; undefined keeps it; lists are not merged', () => {
    const merged = withPresetDefaults<any>({ image, args: ['a', 'b'], env: { A: '1' } }, { args: ['c'], env: undefined, image: undefined });
    expect(merged).toEqual({ image, args: ['c'], env: { A: '1' } });
  });

  test('runAsRoot and runAsUser exclude each other: setting one drops the other\'s default', () => {
    expect(withPresetDefaults<any>({ runAsRoot: { reason: 'r' } }, { runAsUser: 1000 })).toEqual({ runAsUser: 1000 });
    expect(withPresetDefaults<any>({ runAsUser: 65534 }, { runAsRoot: { reason: 'r' } })).toEqual({ runAsRoot: { reason: 'r' } });
    expect(withPresetDefaults<any>({ runAsUser: 65534 }, {})).toEqual({ runAsUser: 65534 });
  });

  test('withoutKeys drops the preset-only keys and nothing else', () => {
    expect(withoutKeys<any>({ output: 1, image, args: undefined }, ['output'])).toEqual({ image, args: undefined });
    expect(withoutKeys<any>(undefined, ['output'])).toEqual({});
  });
});

describe('acknowledgements scoped to a container', () => {
  function agentWithInstaller(c: Chart): NodeAgent {
    return new NodeAgent(c, 'node-agent', {
      image,
      runAsRoot: { reason: 'the agent reads root-owned files' },
      initContainers: [{
        name: 'install',
        image: installer,
        runAsRoot: { reason: 'writes into a root-owned directory' },
        hostMounts: [HostMount.readWrite('/opt/cni/bin', 'installs a plugin binary', { type: HostPathVolumeType.DIRECTORY_OR_CREATE })],
      }],
    });
  }

  test('accepts only the findings about that container, and travels in the annotation with it', () => {
    const c = chart();
    const agent = agentWithInstaller(c);
    agent.acknowledge('NA-RUN-AS-NON-ROOT', 'the installer must write a root-owned directory', 'install');
    agent.acknowledge('NA-HOSTPATH-SENSITIVE', 'the installer writes only its own binary', 'install');
    const findings = agent.review().workloads[0].findings.filter((f) => f.rule === 'NA-RUN-AS-NON-ROOT');
    expect(findings.map((f) => [f.container, f.acknowledgedReason?.split(';')[0]])).toEqual(expect.arrayContaining([
      ['install', 'the installer must write a root-owned directory'],
    ]));
    const ds = synthValid(c).find((m) => m.kind === 'DaemonSet');
    expect(JSON.parse(ds.metadata.annotations['node-agents.cdk8s.io/acknowledged'])).toEqual([
      { rule: 'NA-HOSTPATH-SENSITIVE', container: 'install', reason: 'the installer writes only its own binary' },
      { rule: 'NA-RUN-AS-NON-ROOT', container: 'install', reason: 'the installer must write a root-owned directory' },
    ]);
  });

  test('does not accept the same rule for another container', () => {
    const c = chart();
    const agent = agentWithInstaller(c);
    agent.acknowledge('NA-HOSTPATH-SENSITIVE', 'accepted for another container only', 'agent');
    const open = agent.review().workloads[0].findings.filter((f) => f.rule === 'NA-HOSTPATH-SENSITIVE' && !f.acknowledged);
    expect(open.map((f) => f.container)).toEqual(['install']);
  });

  test('fails on an empty container name', () => {
    expect(() => agentWithInstaller(chart()).acknowledge('NA-RUN-AS-NON-ROOT', 'reason', ' ')).toThrow(/container must be a container name, got " "/);
  });
});

describe('imagePullSecrets', () => {
  test('rendered on the pod, in order', () => {
    const c = chart();
    new NodeAgent(c, 'node-agent', { image, imagePullSecrets: ['mirror-credentials', 'vendor'] });
    expect(podSpec(synthValid(c)).imagePullSecrets).toEqual([{ name: 'mirror-credentials' }, { name: 'vendor' }]);
  });

  test('a name that is no DNS subdomain, or listed twice, is refused', () => {
    expect(() => new NodeAgent(chart(), 'node-agent', { image, imagePullSecrets: ['Mirror'] })).toThrow(/\[test\/node-agent\] imagePullSecrets "Mirror" is not a valid name/);
    expect(() => new NodeAgent(chart(), 'node-agent', { image, imagePullSecrets: ['a', 'a'] })).toThrow('[test/node-agent] imagePullSecrets: "a" is listed twice: list each Secret once');
  });
});
