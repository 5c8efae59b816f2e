import { Chart, Duration, Testing } from 'cdk8s';
import { acknowledgeAll } from './review-helper';
import { AgentProbe } from '../../src/agent/agent-probe';
import { NodeAgent } from '../../src/agent/node-agent';
import { NodeAgentProps } from '../../src/agent/node-agent-props';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';

function container(props: Partial<NodeAgentProps>): any {
  const chart = new Chart(Testing.app(), 'test');
  acknowledgeAll(new NodeAgent(chart, 'node-agent', { image, ...props }));
  return synthValid(chart).find((m) => m.kind === 'DaemonSet').spec.template.spec.containers[0];
}

function build(props: Partial<NodeAgentProps>): void {
  new NodeAgent(new Chart(Testing.app(), 'test'), 'node-agent', { image, ...props });
}

describe('factories', () => {
  test('httpGet: path, port and scheme; timing options kept', () => {
    const options = { port: 2020, scheme: 'HTTPS', period: Duration.seconds(5), failureThreshold: 2 };
    const p = AgentProbe.httpGet('/healthz', options);
    expect(p.handler).toEqual({ httpGet: { path: '/healthz', port: 2020, scheme: 'HTTPS' } });
    // a checked copy: changing the object afterwards changes nothing
    expect(p.options).toEqual(options);
    expect(p.options).not.toBe(options);
  });

  test('tcpSocket: the port; no options by default', () => {
    const p = AgentProbe.tcpSocket(9100);
    expect(p.handler).toEqual({ tcpSocket: { port: 9100 } });
    expect(p.options).toEqual({});
  });

  test('exec: the command', () => {
    expect(AgentProbe.exec(['cat', '/tmp/healthy']).handler).toEqual({ exec: { command: ['cat', '/tmp/healthy'] } });
  });
});

describe('rendered by NodeAgent', () => {
  test('each probe kind with every timing option', () => {
    const timing = { initialDelay: Duration.seconds(0), period: Duration.minutes(1), timeout: Duration.seconds(3), failureThreshold: 5 };
    const c = container({
      liveness: AgentProbe.httpGet('/healthz', { port: 8080, ...timing }),
      readiness: AgentProbe.tcpSocket(8080, timing),
      startup: AgentProbe.exec(['/bin/agent', 'ready'], timing),
    });
    const seconds = { initialDelaySeconds: 0, periodSeconds: 60, timeoutSeconds: 3, failureThreshold: 5 };
    expect(c.livenessProbe).toEqual({ httpGet: { path: '/healthz', port: 8080 }, ...seconds });
    expect(c.readinessProbe).toEqual({ tcpSocket: { port: 8080 }, ...seconds });
    expect(c.startupProbe).toEqual({ exec: { command: ['/bin/agent', 'ready'] }, ...seconds });
  });

  test('without options, only the handler (Kubernetes defaults apply)', () => {
    expect(container({ liveness: AgentProbe.httpGet('/', { port: 1, scheme: 'HTTP' }) }).livenessProbe).toEqual({ httpGet: { path: '/', port: 1, scheme: 'HTTP' } });
    expect(container({ readiness: AgentProbe.tcpSocket(65535) }).readinessProbe).toEqual({ tcpSocket: { port: 65535 } });
  });

  test('sidecars take probes too', () => {
    const chart = new Chart(Testing.app(), 'test');
    acknowledgeAll(new NodeAgent(chart, 'node-agent', { image, sidecars: [{ name: 'proxy', image, readiness: AgentProbe.tcpSocket(8443) }] }));
    const containers = synthValid(chart).find((m) => m.kind === 'DaemonSet').spec.template.spec.containers;
    expect(containers[1].readinessProbe).toEqual({ tcpSocket: { port: 8443 } });
  });
});

describe('rejected by NodeAgent', () => {
  test.each([
    ['a relative path', { liveness: AgentProbe.httpGet('healthz', { port: 80 }) }, /^\[test\/node-agent\] probe path "healthz" must start with "\/"/],
    ['an unknown scheme', { liveness: AgentProbe.httpGet('/', { port: 80, scheme: 'http' }) }, /probe scheme "http" must be HTTP or HTTPS/],
    ['port 0', { readiness: AgentProbe.tcpSocket(0) }, /probe port must be a whole number from 1 to 65535, got 0/],
    ['port 65536', { readiness: AgentProbe.httpGet('/', { port: 65536 }) }, /probe port must be a whole number from 1 to 65535, got 65536/],
    ['an empty command', { startup: AgentProbe.exec([]) }, /probe: an exec probe needs a command/],
    ['failureThreshold 0', { liveness: AgentProbe.tcpSocket(80, { failureThreshold: 0 }) }, /probe failureThreshold must be a whole number from 1 to 1000000, got 0/],
    ['a zero timeout', { liveness: AgentProbe.tcpSocket(80, { timeout: Duration.seconds(0) }) }, /probe timeout must be a whole number of seconds, at least 1, got 0s/],
    ['a zero period', { liveness: AgentProbe.tcpSocket(80, { period: Duration.seconds(0) }) }, /probe period must be a whole number of seconds, at least 1, got 0s/],
    ['something that is not an AgentProbe', { liveness: { handler: { tcpSocket: { port: 80 } }, options: {} } as any }, /liveness must be a probe created with AgentProbe\.httpGet\(\), tcpSocket\(\) or exec\(\)/],
  ])('%s', (_, props, message) => {
    expect(() => build(props)).toThrow(message);
  });

  test('init containers cannot have probes', () => {
    expect(() => build({ initContainers: [{ name: 'init', image, liveness: AgentProbe.tcpSocket(80) }] }))
      .toThrow(/^\[test\/node-agent\] initContainers\[init\]\.probes: init containers run to completion and cannot have liveness, readiness or startup probes/);
  });

  test('a sidecar probe error names the sidecar', () => {
    expect(() => build({ sidecars: [{ name: 'proxy', image, readiness: AgentProbe.tcpSocket(0) }] })).toThrow(/sidecars\[proxy\]\.probe port/);
  });
});
