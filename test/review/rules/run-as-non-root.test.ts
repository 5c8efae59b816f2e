import { RunAsNonRootRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, goodContainer } from '../util';

const rule = new RunAsNonRootRule();

describe('NA-RUN-AS-NON-ROOT: Containers run as non-root', () => {
  test('Noncompliance 1: neither runAsNonRoot nor runAsUser (the image decides)', () => {
    const findings = findingsOf(rule, [agent({ securityContext: {} })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.MEDIUM, container: 'agent', field: 'spec.template.spec.containers[0].securityContext.runAsNonRoot' });
    expect(findings[0].message).toContain('sets neither runAsNonRoot: true nor a runAsUser');
  });

  test('Noncompliance 2: runAsUser 0 on the pod, and on a container overriding a non-root pod', () => {
    expect(findingsOf(rule, [agent({ securityContext: { runAsUser: 0 } })]).map((f) => f.field)).toEqual(['spec.template.spec.securityContext.runAsUser']);
    const ds = agentWithContainer({ securityContext: { runAsUser: 0 } });
    expect(findingsOf(rule, [ds]).map((f) => [f.field, f.message.includes('runs as root (runAsUser: 0)')])).toEqual([
      ['spec.template.spec.containers[0].securityContext.runAsUser', true],
    ]);
  });

  test('Noncompliance 3: runAsNonRoot false on the container', () => {
    const ds = agent({ securityContext: {}, containers: [goodContainer({ securityContext: { runAsNonRoot: false } })] });
    expect(findingsOf(rule, [ds]).map((f) => f.message)).toEqual([expect.stringContaining('sets runAsNonRoot: false and no runAsUser')]);
  });

  test('Noncompliance 4: a runAsRoot reason explains it (acknowledged, not hidden)', () => {
    const reasons = JSON.stringify([{ type: 'runAsRoot', detail: 'agent', container: 'agent', reason: 'reads root-owned logs' }]);
    const findings = findingsOf(rule, [agent({ securityContext: {} }, { annotations: { 'node-agents.cdk8s.io/host-access': reasons } })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ acknowledged: true, acknowledgedReason: 'host-access reason for runAsRoot (may run as root): reads root-owned logs' });
  });

  test('Compliance: runAsNonRoot on the pod, or a non-zero runAsUser', () => {
    expect(findingsOf(rule, [agent({ securityContext: { runAsNonRoot: true } })])).toEqual([]);
    expect(findingsOf(rule, [agent({ securityContext: {}, containers: [goodContainer({ securityContext: { runAsUser: 1000 } })] })])).toEqual([]);
  });

  test('Compliance: a HostProcess pod is not checked: it runs as the Windows user it names (the hostProcess privilege reports it)', () => {
    const spec = { hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } } };
    expect(findingsOf(rule, [agent({ ...spec, containers: [{ name: 'agent', image: 'x:1' }] })])).toEqual([]);
  });

  test('Noncompliance: a Windows container without runAsUserName runs as the image\'s user, ContainerAdministrator in servercore images', () => {
    const findings = findingsOf(rule, [agent({ securityContext: {}, os: { name: 'windows' }, containers: [{ name: 'agent', image: 'x:1' }] })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      severity: 'medium',
      container: 'agent',
      field: 'spec.template.spec.containers[0].securityContext.windowsOptions.runAsUserName',
    });
    expect(findings[0].message).toContain('ContainerAdministrator');
    expect(findings[0].message).not.toContain('UID');
    expect(findings[0].fix).toContain('runAsUserName: ContainerUser');
  });

  test('Compliance: a Windows container that names ContainerUser', () => {
    const c = { name: 'agent', image: 'x:1', securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } };
    expect(findingsOf(rule, [agent({ securityContext: {}, os: { name: 'windows' }, containers: [c] })])).toEqual([]);
  });
});
