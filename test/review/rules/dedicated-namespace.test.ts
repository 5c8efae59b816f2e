import { DedicatedNamespaceRule, Severity } from '../../../src/review';
import { agent, findingsOf } from '../util';

const rule = new DedicatedNamespaceRule();

describe('NA-NAMESPACE: The workload runs in a dedicated namespace', () => {
  test('Noncompliance 1: no namespace', () => {
    const findings = findingsOf(rule, [agent({}, { namespace: null })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.MEDIUM, field: 'metadata.namespace' });
    expect(findings[0].namespace).toBeUndefined();
    expect(findings[0].message).toBe('DaemonSet node-agent: sets no namespace: it lands in the namespace kubectl is given (--namespace) or that of its ' +
      'context, often default, and the review cannot tell which (the other objects of its file set none or several) (metadata.namespace)');
    expect(findings[0].fix).toBe('set metadata.namespace to a namespace of the agent\'s own, or review with --namespace NAMESPACE, the namespace it is applied to');
  });

  test.each(['default', 'kube-system', 'kube-public', 'kube-node-lease'])('Noncompliance 2: the shared namespace %s', (ns) => {
    const findings = findingsOf(rule, [agent({}, { namespace: ns })]);
    expect(findings.map((f) => f.message)).toEqual([`DaemonSet ${ns}/node-agent: runs in the shared namespace ${ns} (metadata.namespace)`]);
  });

  test('Noncompliance 3: kube-system can be acknowledged, and the finding stays in the report', () => {
    const acks = JSON.stringify([{ rule: 'NA-NAMESPACE', reason: 'kube-proxy runs in kube-system by convention' }]);
    const findings = findingsOf(rule, [agent({}, { namespace: 'kube-system', annotations: { 'node-agents.cdk8s.io/acknowledged': acks } })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ acknowledged: true, acknowledgedReason: 'kube-proxy runs in kube-system by convention' });
  });

  test('Compliance: a namespace of its own', () => {
    expect(findingsOf(rule, [agent({}, { namespace: 'observability' })])).toEqual([]);
  });
});
