import { ReadOnlyRootFilesystemRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, goodContainer } from '../util';

const rule = new ReadOnlyRootFilesystemRule();

describe('NA-READONLY-ROOTFS: Containers have a read-only root filesystem', () => {
  test('Noncompliance 1: an empty securityContext', () => {
    const findings = findingsOf(rule, [agentWithContainer({ securityContext: {} })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.MEDIUM, container: 'agent', field: 'spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem' });
  });

  test('Noncompliance 2: readOnlyRootFilesystem false on an init container', () => {
    const ds = agent({ initContainers: [goodContainer({ name: 'init', securityContext: { readOnlyRootFilesystem: false } })] });
    expect(findingsOf(rule, [ds]).map((f) => f.container)).toEqual(['init']);
  });

  test('Compliance: true on every container', () => {
    expect(findingsOf(rule, [agent()])).toEqual([]);
  });

  test.each([
    ['spec.os.name: windows', { os: { name: 'windows' } }],
    ['a HostProcess pod', { hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } } }],
  ])('Compliance: a Windows pod (%s) is not checked: the setting does not exist there', (_name, spec) => {
    expect(findingsOf(rule, [agent({ securityContext: {}, ...spec, containers: [{ name: 'agent', image: 'x:1' }] })])).toEqual([]);
  });
});
