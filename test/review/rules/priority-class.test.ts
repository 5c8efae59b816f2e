import { PriorityClassRule, Severity } from '../../../src/review';
import { agent, findingsOf } from '../util';

const rule = new PriorityClassRule();

describe('NA-PRIORITY-CLASS: Node-critical agents set a priorityClassName', () => {
  test('Noncompliance 1: tolerates every taint without a priority class', () => {
    const findings = findingsOf(rule, [agent({ tolerations: [{ operator: 'Exists' }] })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.MEDIUM, field: 'spec.template.spec.priorityClassName' });
    expect(findings[0].message).toContain('tolerates every taint, so it is node-critical, but sets no priorityClassName');
  });

  test('Noncompliance 2: hostNetwork; key-less Exists tolerations for NoSchedule and NoExecute together', () => {
    expect(findingsOf(rule, [agent({ hostNetwork: true })]).map((f) => f.message)).toEqual([expect.stringContaining('uses hostNetwork, so it is node-critical')]);
    const both = agent({ hostNetwork: true, tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }, { operator: 'Exists', effect: 'NoExecute' }], priorityClassName: '' });
    expect(findingsOf(rule, [both]).map((f) => f.message)).toEqual([expect.stringContaining('tolerates every taint and uses hostNetwork')]);
  });

  test('Compliance: a priority class; or an agent that is not node-critical', () => {
    expect(findingsOf(rule, [agent({ tolerations: [{ operator: 'Exists' }], priorityClassName: 'system-node-critical' })])).toEqual([]);
    expect(findingsOf(rule, [agent({ tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }] })])).toEqual([]);
    expect(findingsOf(rule, [agent({ tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }] })])).toEqual([]);
    expect(findingsOf(rule, [agent()])).toEqual([]);
  });
});
