import { ResourcesRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, goodContainer } from '../util';

const rule = new ResourcesRule();

describe('NA-RESOURCES: Containers request CPU and memory and limit memory', () => {
  test('Noncompliance 1: no resources at all', () => {
    const findings = findingsOf(rule, [agentWithContainer({ resources: {} })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.MEDIUM, container: 'agent', field: 'spec.template.spec.containers[0].resources' });
    expect(findings[0].message).toContain('sets no resources requests.cpu, requests.memory, limits.memory');
  });

  test('Noncompliance 2: requests without a memory limit; an init container without resources', () => {
    const ds = agent({
      initContainers: [{ name: 'init', image: 'x:1' }],
      containers: [goodContainer({ resources: { requests: { cpu: '10m', memory: '40Mi' } } })],
    });
    expect(findingsOf(rule, [ds]).map((f) => [f.container, f.message.split(': ')[1]])).toEqual([
      ['agent', 'sets no resources limits.memory (spec.template.spec.containers[0].resources)'],
      ['init', 'sets no resources requests.cpu, requests.memory, limits.memory (spec.template.spec.initContainers[0].resources)'],
    ]);
  });

  test('Compliance: requests and a memory limit; limits alone (the API copies them into requests); ephemeral containers are exempt', () => {
    expect(findingsOf(rule, [agent()])).toEqual([]);
    expect(findingsOf(rule, [agentWithContainer({ resources: { limits: { cpu: '1', memory: '1Gi' } } })])).toEqual([]);
    expect(findingsOf(rule, [agent({ ephemeralContainers: [{ name: 'debug', image: 'busybox:1.36' }] })])).toEqual([]);
  });
});
