import * as fc from 'fast-check';
import { CapabilityInertRule, Severity } from '../../../src/review';
import { agent, findingsOf, goodContainer, goodPodSpec, workload } from '../util';

const rule = new CapabilityInertRule();
const FIELD = 'spec.template.spec.containers[0].securityContext.capabilities.add';

/** the good container (allowPrivilegeEscalation: false, drop ALL) adding capabilities, with more securityContext fields. */
function adding(caps: string[], sc: any = {}): any {
  return goodContainer({ securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'], add: caps }, ...sc } });
}

/** a DaemonSet whose pod securityContext is `pod` (seccomp kept) and whose one container is `container`. */
function pod(podSc: any, container: any): any {
  return agent({ securityContext: { seccompProfile: { type: 'RuntimeDefault' }, ...podSc }, containers: [container] });
}

describe('NA-CAPABILITY-INERT: Added capabilities can take effect', () => {
  test('Noncompliance 1: non-root from the pod\'s runAsUser, no escalation: medium, only through the entrypoint\'s file capabilities', () => {
    const findings = findingsOf(rule, [pod({ runAsNonRoot: true, runAsUser: 65534 }, adding(['NET_ADMIN']))]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.MEDIUM, container: 'agent', field: FIELD, acknowledged: false });
    expect(findings[0].message).toContain('adds NET_ADMIN but runs as non-root (runAsUser: 65534 from the pod\'s securityContext) with allowPrivilegeEscalation: false: ' +
      'Kubernetes sets no ambient capabilities, so the process has it only if the file of its entrypoint carries it as file capabilities (setcap), ' +
      'which the review cannot see in the image; otherwise it stays in the bounding set, never effective');
  });

  test('Noncompliance 2: the container\'s runAsUser decides over the pod\'s root', () => {
    const findings = findingsOf(rule, [pod({ runAsUser: 0 }, adding(['SYS_PTRACE'], { runAsUser: 1000 }))]);
    expect(findings.map((f) => f.message)).toEqual([expect.stringContaining('adds SYS_PTRACE but runs as non-root (runAsUser: 1000) with allowPrivilegeEscalation: false')]);
  });

  test.each([
    ['the container', {}, { runAsNonRoot: true }, 'runAsNonRoot: true and no runAsUser'],
    ['the pod', { runAsNonRoot: true }, {}, 'runAsNonRoot: true from the pod\'s securityContext and no runAsUser'],
  ])('Noncompliance 3: runAsNonRoot from %s without a runAsUser: the image\'s user, non-root by the kubelet\'s check', (_, podSc, sc, words) => {
    const findings = findingsOf(rule, [pod(podSc, adding(['NET_RAW'], sc))]);
    expect(findings).toHaveLength(1);
    expect(findings[0].severity).toBe(Severity.MEDIUM);
    expect(findings[0].message).toContain(`runs as non-root (${words}: the image's user, which the kubelet requires to be non-root)`);
  });

  test.each([
    ['allowPrivilegeEscalation unset', { allowPrivilegeEscalation: undefined }, 'allowPrivilegeEscalation not set to false'],
    ['allowPrivilegeEscalation: true', { allowPrivilegeEscalation: true }, 'allowPrivilegeEscalation: true'],
    ['privileged', { allowPrivilegeEscalation: undefined, privileged: true }, 'privileged, which may escalate'],
  ])('Noncompliance 4: %s: low, through any program\'s file capabilities or a setuid-root program', (_, sc, setting) => {
    const findings = findingsOf(rule, [pod({ runAsUser: 65534 }, adding(['NET_ADMIN'], sc))]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.LOW, field: FIELD });
    expect(findings[0].message).toContain(`adds NET_ADMIN but runs as non-root (runAsUser: 65534 from the pod's securityContext, ${setting}): Kubernetes sets no ` +
      'ambient capabilities, so only a program whose file carries it as file capabilities (setcap), or a setuid-root program, gets it; ' +
      'the review cannot see which programs of the image do');
  });

  test('Noncompliance 5: one finding per container, names normalised and deduplicated, init containers included', () => {
    const init = { ...adding(['CAP_NET_ADMIN', 'net_admin', 'SYS_PTRACE']), name: 'setup' };
    const findings = findingsOf(rule, [agent({ initContainers: [init], containers: [adding(['BPF'])] })]);
    expect(findings.map((f) => [f.container, f.field]).sort()).toEqual([
      ['agent', FIELD],
      ['setup', 'spec.template.spec.initContainers[0].securityContext.capabilities.add'],
    ]);
    const setup = findings.find((f) => f.container === 'setup')!;
    expect(setup.message).toContain('adds NET_ADMIN, SYS_PTRACE but runs as non-root');
    expect(setup.message).toContain('the process has them only if the file of its entrypoint carries them as file capabilities');
  });

  test('Noncompliance 6: a reason recorded for the capability does not accept it (the reason says why it is needed, not that it works)', () => {
    const reasons = JSON.stringify([{ type: 'capability', detail: 'NET_ADMIN', container: 'agent', reason: 'programs routes' }]);
    const ds = workload(goodPodSpec({ containers: [adding(['NET_ADMIN'])] }), { annotations: { 'node-agents.cdk8s.io/host-access': reasons } });
    expect(findingsOf(rule, [ds]).map((f) => f.acknowledged)).toEqual([false]);
  });

  test.each([
    ['runAsUser 0 on the container over the pod\'s non-root user', pod({ runAsNonRoot: true, runAsUser: 65534 }, adding(['NET_ADMIN'], { runAsUser: 0, runAsNonRoot: false }))],
    ['runAsUser 0 on the pod', pod({ runAsUser: 0 }, adding(['NET_ADMIN']))],
    ['neither runAsUser nor runAsNonRoot: the image decides', pod({}, adding(['NET_ADMIN']))],
    ['runAsNonRoot: false on the container over the pod\'s true, no runAsUser', pod({ runAsNonRoot: true }, adding(['NET_ADMIN'], { runAsNonRoot: false }))],
    ['no capability added', pod({ runAsUser: 65534 }, adding([]))],
    ['only drop', agent()],
    ['a Windows pod', agent({ os: { name: 'windows' }, securityContext: {}, containers: [goodContainer({ securityContext: { capabilities: { add: ['NET_ADMIN'] } } })] })],
  ])('Compliance: %s', (_, manifest) => {
    expect(findingsOf(rule, [manifest])).toEqual([]);
  });

  test('the same judgment as a reference written from the rule\'s definition, over every combination of the settings', () => {
    const user = fc.constantFrom(undefined, 0, 1000);
    const flag = fc.constantFrom(undefined, true, false);
    const settings = fc.record({
      podUser: user,
      podNonRoot: flag,
      user,
      nonRoot: flag,
      escalation: flag,
      privileged: fc.constantFrom(undefined, true),
      caps: fc.subarray(['NET_ADMIN', 'SYS_PTRACE', 'CHOWN']),
    });
    fc.assert(fc.property(settings, (s) => {
      // the API server rejects allowPrivilegeEscalation: false beside privileged: true
      const escalation = s.privileged ? undefined : s.escalation;
      const sc = { runAsUser: s.user, runAsNonRoot: s.nonRoot, allowPrivilegeEscalation: escalation, privileged: s.privileged };
      const findings = findingsOf(rule, [pod({ runAsUser: s.podUser, runAsNonRoot: s.podNonRoot }, adding(s.caps, sc))]);
      // the uid: the container's runAsUser, else the pod's; without one, non-root only when runAsNonRoot (the container's, else the pod's) is true
      const uid = s.user ?? s.podUser;
      const nonRoot = uid !== undefined ? uid !== 0 : (s.nonRoot ?? s.podNonRoot) === true;
      const expected = nonRoot && s.caps.length > 0 ? [s.escalation === false && !s.privileged ? Severity.MEDIUM : Severity.LOW] : [];
      expect(findings.map((f) => f.severity)).toEqual(expected);
    }), { numRuns: 300 });
  });
});
