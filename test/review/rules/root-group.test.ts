import { RootGroupRule, Severity } from '../../../src/review';
import { agent, findingsOf, goodContainer, goodPodSpec, workload } from '../util';

const rule = new RootGroupRule();

describe('NA-ROOT-GROUP: Containers do not run with the root group', () => {
  test('Noncompliance: runAsGroup 0 on the pod (every container that does not override it), fsGroup 0, supplementalGroups with 0', () => {
    const ds = workload(goodPodSpec({
      securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 0, fsGroup: 0, supplementalGroups: [5, 0] },
      containers: [goodContainer(), goodContainer({ name: 'own', securityContext: { ...goodContainer().securityContext, runAsGroup: 2000 } })],
    }));
    expect(findingsOf(rule, [ds]).map((f) => [f.severity, f.container, f.field])).toEqual([
      [Severity.LOW, undefined, 'spec.template.spec.securityContext.fsGroup'],
      [Severity.LOW, undefined, 'spec.template.spec.securityContext.supplementalGroups'],
      [Severity.LOW, 'agent', 'spec.template.spec.securityContext.runAsGroup'],
    ]);
  });

  test('Noncompliance: a container\'s own runAsGroup 0 (the EBS CSI node plugin sets runAsUser, runAsGroup and fsGroup 0)', () => {
    const ds = agent({ containers: [goodContainer({ securityContext: { ...goodContainer().securityContext, runAsGroup: 0 } })] });
    expect(findingsOf(rule, [ds]).map((f) => f.message)).toEqual([expect.stringContaining('runs with group 0 (runAsGroup: 0)')]);
  });

  test('Compliance: non-zero groups, unset groups, and Windows pods', () => {
    expect(findingsOf(rule, [agent()])).toEqual([]);
    const nonRoot = goodPodSpec({ securityContext: { runAsNonRoot: true, runAsUser: 1, runAsGroup: 1, fsGroup: 1 } });
    expect(findingsOf(rule, [workload(nonRoot)])).toEqual([]);
    expect(findingsOf(rule, [workload(goodPodSpec({ os: { name: 'windows' }, securityContext: { runAsGroup: 0 } }))])).toEqual([]);
  });
});
