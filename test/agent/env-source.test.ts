import { synthMain as synth } from './review-helper';
import { EnvSource } from '../../src/agent/env-source';

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
