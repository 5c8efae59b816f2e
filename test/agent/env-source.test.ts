import { Chart, Testing } from 'cdk8s';
import { acknowledgeAll } from './review-helper';
import { EnvSource } from '../../src/agent/env-source';
import { NodeAgent } from '../../src/agent/node-agent';
import { NodeAgentProps } from '../../src/agent/node-agent-props';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';

function synth(props: Partial<NodeAgentProps>, acknowledge = true): { container: any; agent: NodeAgent } {
  const chart = new Chart(Testing.app(), 'test');
  const agent = new NodeAgent(chart, 'node-agent', { image, ...props });
  if (acknowledge) acknowledgeAll(agent);
  return { container: synthValid(chart).find((m) => m.kind === 'DaemonSet').spec.template.spec.containers[0], agent };
}


describe('EnvSource: envFrom', () => {
  test('every key of a Secret and of a ConfigMap, with a prefix and optional', () => {
    const { container } = synth({ envFrom: [EnvSource.fromSecret('datadog-secret', { prefix: 'DD_' }), EnvSource.fromConfigMap('agent-env', { optional: true })] });
    expect(container.envFrom).toEqual([
      { prefix: 'DD_', secretRef: { name: 'datadog-secret' } },
      { configMapRef: { name: 'agent-env', optional: true } },
    ]);
  });

  test('no envFrom renders none', () => {
    expect(synth({}).container.envFrom).toBeUndefined();
  });

  test.each([
    ['a prefix that cannot start a variable name', () => EnvSource.fromSecret('s', { prefix: '1_' }), /prefix "1_" cannot start an environment variable name/],
    ['a name that is no DNS subdomain', () => EnvSource.fromConfigMap('-c'), /the name "-c" is not a valid name/],
  ])('refuses %s', (_name, make, message) => {
    expect(make).toThrow(message);
  });
});

describe('imagePullSecrets', () => {
  test('rendered on the pod, in order', () => {
    const chart = new Chart(Testing.app(), 'test');
    acknowledgeAll(new NodeAgent(chart, 'node-agent', { image, imagePullSecrets: ['mirror-credentials', 'vendor'] }));
    expect(synthValid(chart).find((m) => m.kind === 'DaemonSet').spec.template.spec.imagePullSecrets).toEqual([{ name: 'mirror-credentials' }, { name: 'vendor' }]);
  });

  test('a name that is no DNS subdomain, or listed twice, is refused', () => {
    expect(() => synth({ imagePullSecrets: ['Mirror'] })).toThrow(/\[test\/node-agent\] imagePullSecrets "Mirror" is not a valid name/);
    expect(() => synth({ imagePullSecrets: ['a', 'a'] })).toThrow('[test/node-agent] imagePullSecrets: "a" is listed twice: list each Secret once');
  });
});
