import { ProbesRule, Severity } from '../../../src/review';
import { agentWithContainer, findingsOf, goodContainer, goodPodSpec, workload } from '../util';

const rule = new ProbesRule();

describe('NA-PROBES: Long-running containers have liveness and readiness probes', () => {
  test('Noncompliance 1: neither probe', () => {
    const findings = findingsOf(rule, [agentWithContainer({ livenessProbe: undefined, readinessProbe: undefined })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.MEDIUM, container: 'agent', field: 'spec.template.spec.containers[0].livenessProbe' });
    expect(findings[0].message).toContain('has no livenessProbe and no readinessProbe');
  });

  test('Noncompliance 2: only a liveness probe, in a Deployment', () => {
    const ds = workload(goodPodSpec({ containers: [goodContainer({ readinessProbe: undefined })] }), { kind: 'Deployment' });
    expect(findingsOf(rule, [ds]).map((f) => [f.field, f.message.includes('has no readinessProbe')])).toEqual([
      ['spec.template.spec.containers[0].readinessProbe', true],
    ]);
  });

  test('Compliance: both probes; run-to-completion workloads and init containers are exempt', () => {
    const bare = goodPodSpec({ containers: [goodContainer({ livenessProbe: undefined, readinessProbe: undefined })], initContainers: [{ name: 'init', image: 'x:1' }] });
    expect(findingsOf(rule, [agentWithContainer({})])).toEqual([]);
    expect(findingsOf(rule, [workload(bare, { kind: 'Job' })])).toEqual([]);
    expect(findingsOf(rule, [workload(bare, { kind: 'CronJob' })])).toEqual([]);
    expect(findingsOf(rule, [workload({ ...bare, restartPolicy: 'Never' }, { kind: 'Pod' })])).toEqual([]);
    expect(findingsOf(rule, [workload(bare, { kind: 'Pod' })])).toHaveLength(1);
  });
});
