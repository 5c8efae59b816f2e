import { Chart, Testing } from 'cdk8s';
import { synthMain as synth } from './review-helper';
import { EnvValue } from '../../src/agent/env-value';
import { NodeAgent } from '../../src/agent/node-agent';
import { EnvSecretRule } from '../../src/review/rules/env-secret';

const image = 'registry.example.com/node-agent:1.2.0';

function findings(agent: NodeAgent, rule: string): any[] {
  return agent.review().workloads.flatMap((w) => w.findings).filter((f) => f.rule === rule);
}

describe('EnvValue: env from Secret and ConfigMap keys', () => {
  test('secretKeyRef and configMapKeyRef, optional kept, before the literal values that may reference them', () => {
    const { container } = synth({
      envValueFrom: {
        LOKI_PASSWORD: EnvValue.fromSecretKey('loki-credentials', 'password'),
        LOKI_URL: EnvValue.fromConfigMapKey('loki', 'url', { optional: true }),
      },
      env: { LOKI_AUTH: 'fluent-bit:$(LOKI_PASSWORD)' },
    });
    expect(container.env.slice(3)).toEqual([
      { name: 'LOKI_PASSWORD', valueFrom: { secretKeyRef: { name: 'loki-credentials', key: 'password' } } },
      { name: 'LOKI_URL', valueFrom: { configMapKeyRef: { name: 'loki', key: 'url', optional: true } } },
      { name: 'LOKI_AUTH', value: 'fluent-bit:$(LOKI_PASSWORD)' },
    ]);
  });

  test('a credential read from a Secret key is not flagged; a literal one is, and the fix says the Secret key is the way', () => {
    const fromSecret = synth({ envValueFrom: { API_TOKEN: EnvValue.fromSecretKey('agent', 'token') } }, false).agent;
    expect(findings(fromSecret, 'NA-ENV-SECRET')).toEqual([]);
    const chart = new Chart(Testing.app(), 'test');
    const literal = new NodeAgent(chart, 'node-agent', { image, env: { API_TOKEN: 'hunter2' } });
    const [finding] = findings(literal, 'NA-ENV-SECRET');
    expect(finding.message).toMatch(/sets API_TOKEN, named like a credential, to a literal value/);
    expect(new EnvSecretRule().fix).toMatch(/^put the value in a Secret and read it from the Secret's key, which is the right way to give a container a credential: valueFrom\.secretKeyRef \(on a NodeAgent or preset: envValueFrom: \{ NAME: EnvValue\.fromSecretKey\('secret', 'key'\) \}\)/);
  });

  test('a name in both env and envValueFrom, or taken by the downward API, is refused', () => {
    expect(() => synth({ env: { TOKEN: 'x' }, envValueFrom: { TOKEN: EnvValue.fromSecretKey('s', 'k') } }))
      .toThrow('[test/node-agent] env.TOKEN is set twice (also in envValueFrom)');
    expect(() => synth({ envValueFrom: { NODE_NAME: EnvValue.fromSecretKey('s', 'k') } }))
      .toThrow(/envValueFrom\.NODE_NAME: NODE_NAME is set by the agent from the downward API/);
    expect(() => synth({ envValueFrom: { '1X': EnvValue.fromSecretKey('s', 'k') } })).toThrow(/envValueFrom\.1X: "1X" is not a valid environment variable name/);
    expect(() => synth({ envValueFrom: { X: 's' as any } })).toThrow(/envValueFrom\.X must be created with EnvValue\.fromSecretKey\(\), fromConfigMapKey\(\) or fromPodField\(\), got "s"/);
  });

  test('a pod field is a fieldRef; a field the API server does not let env read is refused, listing those it does', () => {
    const { container } = synth({ envValueFrom: { HOST_IP: EnvValue.fromPodField('status.hostIP') } });
    expect(container.env).toContainEqual({ name: 'HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } });
    expect(() => EnvValue.fromPodField('spec.hostIP')).toThrow(
      'EnvValue.fromPodField("spec.hostIP"): the field must be one the API server lets an environment variable read: metadata.name, metadata.namespace, ' +
      'metadata.uid, spec.nodeName, spec.serviceAccountName, status.hostIP, status.hostIPs, status.podIP, status.podIPs');
    expect(() => EnvValue.fromPodField(3 as any)).toThrow(/EnvValue\.fromPodField\(3\)/);
  });

  test.each([
    ['a name that is no DNS subdomain', () => EnvValue.fromSecretKey('My_Secret', 'k'), /EnvValue\.fromSecretKey\("My_Secret", "k"\): the name "My_Secret" is not a valid name/],
    ['an invalid key', () => EnvValue.fromConfigMapKey('c', 'a b'), /the key "a b" is not a Secret or ConfigMap key/],
    ['an unknown option', () => EnvValue.fromSecretKey('s', 'k', { prefix: 'X' } as any), /EnvKeyOptions has no property "prefix"/],
  ])('refuses %s', (_name, make, message) => {
    expect(make).toThrow(message);
  });
});
