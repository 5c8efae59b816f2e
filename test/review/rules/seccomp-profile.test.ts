import { SeccompProfileRule, Severity } from '../../../src/review';
import { agent, findingsOf, goodContainer } from '../util';

const rule = new SeccompProfileRule();

describe('NA-SECCOMP: Containers run with a RuntimeDefault or Localhost seccomp profile', () => {
  test('Noncompliance 1: no profile anywhere: one pod-level finding', () => {
    const findings = findingsOf(rule, [agent({ securityContext: { runAsNonRoot: true }, containers: [goodContainer(), goodContainer({ name: 'b' })] })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.MEDIUM, field: 'spec.template.spec.securityContext.seccompProfile.type' });
    expect(findings[0].container).toBeUndefined();
    expect(findings[0].message).toContain('sets no seccomp profile on the pod or its containers: they run Unconfined unless the kubelet\'s seccompDefault is on (it is off by default)');
  });

  test('Noncompliance 2: a container overriding the pod with Unconfined; a container missing one when others set theirs', () => {
    const unconfined = agent({ containers: [goodContainer({ securityContext: { seccompProfile: { type: 'Unconfined' } } })] });
    expect(findingsOf(rule, [unconfined]).map((f) => [f.container, f.field])).toEqual([['agent', 'spec.template.spec.containers[0].securityContext.seccompProfile.type']]);
    const partial = agent({
      securityContext: {},
      containers: [goodContainer({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }), goodContainer({ name: 'b' })],
    });
    expect(findingsOf(rule, [partial]).map((f) => f.container)).toEqual(['b']);
  });

  test('Compliance: RuntimeDefault on the pod, or Localhost on every container', () => {
    expect(findingsOf(rule, [agent()])).toEqual([]);
    const localhost = agent({ securityContext: {}, containers: [goodContainer({ securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'agent.json' } } })] });
    expect(findingsOf(rule, [localhost])).toEqual([]);
  });

  test.each([
    ['spec.os.name: windows', { os: { name: 'windows' } }],
    ['a HostProcess pod', { hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } } }],
  ])('Compliance: a Windows pod (%s) is not checked: the setting does not exist there', (_name, spec) => {
    expect(findingsOf(rule, [agent({ securityContext: {}, ...spec, containers: [{ name: 'agent', image: 'x:1' }] })])).toEqual([]);
  });

  test('Compliance: a privileged container is not asked for a profile (it runs Unconfined whatever it sets); the others of its pod still are', () => {
    const privileged = (more: any = {}) => goodContainer({ securityContext: { privileged: true, ...more } });
    // kubeadm's kube-proxy: one privileged container, no profile anywhere
    expect(findingsOf(rule, [agent({ securityContext: {}, containers: [privileged()] })])).toEqual([]);
    expect(findingsOf(rule, [agent({ securityContext: {}, containers: [privileged({ seccompProfile: { type: 'Unconfined' } })] })])).toEqual([]);
    // beside an unprivileged container without a profile: the finding is about that one only
    const unconfined = goodContainer({ name: 'b', securityContext: { seccompProfile: { type: 'Unconfined' } } });
    const mixed = agent({ securityContext: {}, containers: [privileged(), unconfined] });
    expect(findingsOf(rule, [mixed]).map((f) => [f.container, f.field])).toEqual([['b', 'spec.template.spec.containers[1].securityContext.seccompProfile.type']]);
    const initMixed = agent({ securityContext: {}, initContainers: [goodContainer({ name: 'init' })], containers: [privileged()] });
    expect(findingsOf(rule, [initMixed]).map((f) => [f.container ?? 'pod', f.field])).toEqual([['pod', 'spec.template.spec.securityContext.seccompProfile.type']]);
    // privileged: false is no exemption
    const notPrivileged = agent({ securityContext: {}, containers: [goodContainer({ securityContext: { privileged: false } })] });
    expect(findingsOf(rule, [notPrivileged])).toHaveLength(1);
  });
});
