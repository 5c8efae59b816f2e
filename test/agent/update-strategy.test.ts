import { Chart, Testing } from 'cdk8s';
import { PercentOrAbsolute } from 'cdk8s-plus-28';
import { acknowledgeAll } from './review-helper';
import { NodeAgent } from '../../src/agent/node-agent';
import { AgentUpdateStrategy } from '../../src/agent/update-strategy';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';
const abs = PercentOrAbsolute.absolute;
const pct = PercentOrAbsolute.percent;

function agent(updateStrategy?: AgentUpdateStrategy): { chart: Chart; agent: NodeAgent } {
  const chart = new Chart(Testing.app(), 'test');
  return { chart, agent: new NodeAgent(chart, 'node-agent', { image, updateStrategy }) };
}

function rendered(updateStrategy?: AgentUpdateStrategy): any {
  const { chart, agent: a } = agent(updateStrategy);
  acknowledgeAll(a);
  return synthValid(chart).find((m) => m.kind === 'DaemonSet').spec.updateStrategy;
}

describe('factories', () => {
  test('rollingUpdate without options leaves both budgets to the defaults', () => {
    const s = AgentUpdateStrategy.rollingUpdate();
    expect(s.type).toBe('RollingUpdate');
    expect(s.maxUnavailable).toBeUndefined();
    expect(s.maxSurge).toBeUndefined();
  });

  test('rollingUpdate keeps the budgets given', () => {
    const maxUnavailable = pct(0);
    const maxSurge = abs(2);
    const s = AgentUpdateStrategy.rollingUpdate({ maxUnavailable, maxSurge });
    expect(s.maxUnavailable).toBe(maxUnavailable);
    expect(s.maxSurge).toBe(maxSurge);
  });

  test('onDelete has no budgets', () => {
    expect({ ...AgentUpdateStrategy.onDelete() }).toEqual({ type: 'OnDelete', maxUnavailable: undefined, maxSurge: undefined });
  });
});

describe('rendered by NodeAgent', () => {
  test.each([
    ['the default: one node at a time', undefined, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }],
    ['rollingUpdate()', AgentUpdateStrategy.rollingUpdate(), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }],
    ['a node count', AgentUpdateStrategy.rollingUpdate({ maxUnavailable: abs(3) }), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3 } }],
    ['100%', AgentUpdateStrategy.rollingUpdate({ maxUnavailable: pct(100) }), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '100%' } }],
    ['1%', AgentUpdateStrategy.rollingUpdate({ maxUnavailable: pct(1) }), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '1%' } }],
    ['a surge alone sets maxUnavailable to 0', AgentUpdateStrategy.rollingUpdate({ maxSurge: abs(1) }), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } }],
    ['a surge in percent', AgentUpdateStrategy.rollingUpdate({ maxUnavailable: pct(0), maxSurge: pct(100) }), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '0%', maxSurge: '100%' } }],
    ['an explicit zero surge keeps the default unavailability', AgentUpdateStrategy.rollingUpdate({ maxSurge: abs(0) }), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }],
    ['onDelete', AgentUpdateStrategy.onDelete(), { type: 'OnDelete' }],
  ])('%s', (_, strategy, expected) => {
    expect(rendered(strategy)).toEqual(expected);
  });

  test('the strategy in force is exposed', () => {
    expect(agent().agent.updateStrategy.type).toBe('RollingUpdate');
    expect(agent(AgentUpdateStrategy.onDelete()).agent.updateStrategy.type).toBe('OnDelete');
  });

  test('rolloutPlan counts nodes: 10% of 25 nodes rounds up to 3 per wave', () => {
    const plan = agent(AgentUpdateStrategy.rollingUpdate({ maxUnavailable: pct(10) })).agent.rolloutPlan(25);
    expect(plan).toMatchObject({ nodeCount: 25, maxUnavailable: 3, maxSurge: 0, waves: 9 });
  });

  test('rolloutPlan with a surge', () => {
    const plan = agent(AgentUpdateStrategy.rollingUpdate({ maxSurge: abs(2) })).agent.rolloutPlan(5);
    expect(plan).toMatchObject({ maxUnavailable: 0, maxSurge: 2, waves: 3 });
  });
});

describe('rejected by AgentUpdateStrategy.rollingUpdate', () => {
  test.each([
    ['both budgets non-zero', { maxUnavailable: abs(1), maxSurge: abs(1) }, /maxSurge 1 may not be set when maxUnavailable is non-zero \(maxUnavailable is 1\)/],
    ['a surge beside the default unavailability, in percent', { maxUnavailable: pct(10), maxSurge: pct(10) }, /maxSurge "10%" may not be set when maxUnavailable is non-zero/],
    ['both budgets zero', { maxUnavailable: abs(0) }, /maxUnavailable cannot be 0 when maxSurge is 0/],
    ['both budgets zero in percent', { maxUnavailable: pct(0), maxSurge: pct(0) }, /maxUnavailable cannot be 0 when maxSurge is 0/],
    ['more than 100%', { maxUnavailable: pct(101) }, /maxUnavailable "101%" is more than 100%/],
    ['a surge of more than 100%', { maxUnavailable: abs(0), maxSurge: pct(250) }, /maxSurge "250%" is more than 100%/],
    ['a negative count', { maxUnavailable: abs(-1) }, /maxUnavailable -1 is negative/],
    ['a fraction of a node', { maxUnavailable: abs(1.5) }, /maxUnavailable 1\.5 is not a whole number of nodes/],
  ])('%s', (_, options, message) => {
    expect(() => AgentUpdateStrategy.rollingUpdate(options)).toThrow(message);
    expect(() => AgentUpdateStrategy.rollingUpdate(options)).toThrow(/^AgentUpdateStrategy\.rollingUpdate: /);
  });

  test('a budget that is not a PercentOrAbsolute (JavaScript input)', () => {
    expect(() => AgentUpdateStrategy.rollingUpdate({ maxUnavailable: 1 as any })).toThrow(/^AgentUpdateStrategy\.rollingUpdate: maxUnavailable must be a PercentOrAbsolute .*, got 1$/);
  });
});

describe('rejected by NodeAgent', () => {
  test('something that is not an AgentUpdateStrategy', () => {
    expect(() => agent({ type: 'RollingUpdate' } as any)).toThrow(/updateStrategy must be created with AgentUpdateStrategy\.rollingUpdate\(\) or onDelete\(\)/);
  });
});
