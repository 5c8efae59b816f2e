import { PodSecurityCheck } from '../../../src/model';
import { PodSecurityCheckRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, goodContainer, hostPathVolume } from '../util';

function rule(check: PodSecurityCheck): PodSecurityCheckRule {
  return new PodSecurityCheckRule(check);
}

describe('PSS-BASELINE-hostNamespaces: The pod does not share the host\'s network, PID or IPC namespace', () => {
  const r = rule(PodSecurityCheck.HOST_NAMESPACES);
  test('Noncompliance 1: hostNetwork and hostPID, one finding each (one privilege, one finding), at the check\'s severity', () => {
    const findings = findingsOf(r, [agent({ hostNetwork: true, hostPID: true })]);
    expect(findings.map((f) => [f.rule, f.severity, f.field, f.podSecurity, f.acknowledged])).toEqual([
      ['PSS-BASELINE-hostNamespaces', Severity.HIGH, 'spec.template.spec.hostNetwork', ['hostNamespaces'], false],
      ['PSS-BASELINE-hostNamespaces', Severity.HIGH, 'spec.template.spec.hostPID', ['hostNamespaces'], false],
    ]);
    expect(findings[0].message).toBe('DaemonSet observability/node-agent: takes hostNetwork (risk high), which Pod Security baseline forbids ' +
      '(check hostNamespaces, policy 1.28) (spec.template.spec.hostNetwork)');
  });
  test('Noncompliance 2: each privilege\'s part explained by its own reason', () => {
    const oneReason = { 'node-agents.cdk8s.io/host-access': JSON.stringify([{ type: 'hostNetwork', detail: '', reason: 'scrapes node network metrics' }]) };
    const findings = findingsOf(r, [agent({ hostNetwork: true, hostPID: true }, { annotations: oneReason })]);
    expect(findings.map((f) => [f.field, f.acknowledged, f.acknowledgedReason])).toEqual([
      ['spec.template.spec.hostNetwork', true, 'host-access reason for hostNetwork: scrapes node network metrics'],
      ['spec.template.spec.hostPID', false, undefined],
    ]);
  });
  test('Compliance', () => {
    expect(findingsOf(r, [agent({ hostNetwork: false })])).toEqual([]);
  });
});

describe('PSS-BASELINE-privileged: No container is privileged', () => {
  const r = rule(PodSecurityCheck.PRIVILEGED);
  test('Noncompliance 1', () => {
    const findings = findingsOf(r, [agentWithContainer({ securityContext: { privileged: true } })]);
    expect(findings.map((f) => [f.rule, f.severity, f.container, f.field])).toEqual([
      ['PSS-BASELINE-privileged', Severity.CRITICAL, 'agent', 'spec.template.spec.containers[0].securityContext.privileged'],
    ]);
    expect(findings[0].message).toContain('takes privileged (risk critical), which Pod Security baseline forbids (check privileged, policy 1.28)');
  });
  test('Compliance', () => {
    expect(findingsOf(r, [agent()])).toEqual([]);
  });
});

describe('PSS-BASELINE-capabilities: Containers add only the baseline capabilities', () => {
  const r = rule(PodSecurityCheck.CAPABILITIES_BASELINE);
  test('Noncompliance 1', () => {
    const findings = findingsOf(r, [agentWithContainer({ securityContext: { capabilities: { add: ['NET_ADMIN', 'CHOWN'] } } })]);
    // CHOWN is a baseline capability: only NET_ADMIN fails the check
    expect(findings.map((f) => [f.rule, f.severity, f.field])).toEqual([
      ['PSS-BASELINE-capabilities', Severity.MEDIUM, 'spec.template.spec.containers[0].securityContext.capabilities.add'],
    ]);
    expect(findings[0].message).toContain('container "agent": takes capability NET_ADMIN (risk high), which Pod Security baseline forbids (check capabilities_baseline');
  });
  test('Compliance', () => {
    expect(findingsOf(r, [agentWithContainer({ securityContext: { capabilities: { add: ['CHOWN', 'NET_BIND_SERVICE'] } } })])).toEqual([]);
  });
});

describe('PSS-BASELINE-hostPathVolumes: The pod has no hostPath volume', () => {
  const r = rule(PodSecurityCheck.HOST_PATH_VOLUMES);
  test('Noncompliance 1: even read-only; at most the path\'s risk (the check forbids every path alike)', () => {
    const ds = agentWithContainer({ volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }, { name: 'mods', mountPath: '/lib/modules', readOnly: true }] },
      { volumes: [hostPathVolume('varlog', '/var/log', 'Directory'), hostPathVolume('mods', '/lib/modules', 'Directory')] });
    const findings = findingsOf(r, [ds]);
    expect(findings.map((f) => [f.rule, f.severity, f.field])).toEqual([
      ['PSS-BASELINE-hostPathVolumes', Severity.MEDIUM, 'spec.template.spec.volumes[0].hostPath'],
      ['PSS-BASELINE-hostPathVolumes', Severity.LOW, 'spec.template.spec.volumes[1].hostPath'],
    ]);
    expect(findings[0].message).toContain('takes hostPath /var/log (read-only) (risk medium), which Pod Security baseline forbids (check hostPathVolumes, policy 1.28)');
  });
  test('Compliance', () => {
    expect(findingsOf(r, [agent({ volumes: [{ name: 'tmp', emptyDir: {} }] })])).toEqual([]);
  });
});

describe('PSS-BASELINE-hostPorts: No container binds a host port', () => {
  const r = rule(PodSecurityCheck.HOST_PORTS);
  test('Noncompliance 1', () => {
    // 9100 is a low-risk port: the check's part is low
    expect(findingsOf(r, [agentWithContainer({ ports: [{ containerPort: 9100, hostPort: 9100 }] })]).map((f) => [f.rule, f.severity])).toEqual([
      ['PSS-BASELINE-hostPorts', Severity.LOW],
    ]);
  });
  test('Compliance', () => {
    expect(findingsOf(r, [agentWithContainer({ ports: [{ containerPort: 9100 }] })])).toEqual([]);
  });
});

describe('PSS-BASELINE-seccompProfile: No container sets seccomp Unconfined', () => {
  const r = rule(PodSecurityCheck.SECCOMP_PROFILE_BASELINE);
  test('Noncompliance 1: no host privilege fails it: one finding for the pod, pod-security-admission\'s message', () => {
    const findings = findingsOf(r, [agent({ securityContext: { seccompProfile: { type: 'Unconfined' } } })]);
    expect(findings.map((f) => [f.rule, f.field, f.podSecurity])).toEqual([['PSS-BASELINE-seccompProfile', 'spec.template.spec', undefined]]);
    expect(findings[0].message).toContain('fails Pod Security baseline (policy 1.28): seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")');
  });
  test('Compliance: unset is baseline', () => {
    expect(findingsOf(r, [agent({ securityContext: {} })])).toEqual([]);
  });
});

describe('PSS-BASELINE-hostProbesAndHostLifecycle: Probes and lifecycle handlers do not set a host', () => {
  const r = rule(PodSecurityCheck.HOST_PROBES_AND_HOST_LIFECYCLE);
  const ds = agentWithContainer({ livenessProbe: { httpGet: { host: '10.0.0.1', path: '/', port: 80 } } });
  test('Noncompliance 1: from policy version 1.34', () => {
    expect(findingsOf(r, [ds], { podSecurityVersion: '1.34' }).map((f) => f.message)).toEqual([expect.stringContaining('(policy 1.34)')]);
  });
  test('Compliance: the check does not exist at 1.28', () => {
    expect(findingsOf(r, [ds])).toEqual([]);
  });
});

describe('PSS-RESTRICTED-runAsNonRoot: The pod or every container sets runAsNonRoot: true', () => {
  const r = rule(PodSecurityCheck.RUN_AS_NON_ROOT);
  test('Noncompliance 1', () => {
    const findings = findingsOf(r, [agent({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } } })]);
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['PSS-RESTRICTED-runAsNonRoot', Severity.LOW]]);
    expect(findings[0].message).toContain('fails Pod Security restricted (policy 1.28): runAsNonRoot != true');
  });
  test('Compliance', () => {
    expect(findingsOf(r, [agent()])).toEqual([]);
  });
});

describe('PSS-RESTRICTED-capabilities: Containers drop ALL capabilities and add at most NET_BIND_SERVICE', () => {
  const r = rule(PodSecurityCheck.CAPABILITIES_RESTRICTED);
  test('Noncompliance 1: no drop ALL; a reason does not explain a restricted check', () => {
    const reasons = { 'node-agents.cdk8s.io/host-access': JSON.stringify([{ type: 'capability', detail: 'CHOWN', reason: 'x' }]) };
    const ds = agent({ containers: [goodContainer({ securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['CHOWN'] } } })] }, { annotations: reasons });
    expect(findingsOf(r, [ds]).map((f) => [f.rule, f.acknowledged])).toEqual([['PSS-RESTRICTED-capabilities', false]]);
  });
  test('Compliance', () => {
    expect(findingsOf(r, [agent()])).toEqual([]);
  });
});

describe('PodSecurityCheckRule', () => {
  test('one rule per check, IDs from the level and the check without its level suffix', () => {
    expect(PodSecurityCheckRule.allChecks().map((c) => new PodSecurityCheckRule(c).id)).toEqual([
      'PSS-BASELINE-hostNamespaces', 'PSS-BASELINE-privileged', 'PSS-BASELINE-capabilities', 'PSS-BASELINE-hostPathVolumes',
      'PSS-BASELINE-hostPorts', 'PSS-BASELINE-appArmorProfile', 'PSS-BASELINE-seLinuxOptions', 'PSS-BASELINE-procMount',
      'PSS-BASELINE-seccompProfile', 'PSS-BASELINE-sysctls', 'PSS-BASELINE-windowsHostProcess', 'PSS-BASELINE-hostProbesAndHostLifecycle',
      'PSS-RESTRICTED-restrictedVolumes', 'PSS-RESTRICTED-allowPrivilegeEscalation', 'PSS-RESTRICTED-runAsNonRoot', 'PSS-RESTRICTED-runAsUser',
      'PSS-RESTRICTED-seccompProfile', 'PSS-RESTRICTED-capabilities', 'PSS-RESTRICTED-procMount',
    ]);
  });

  test('fails for an unknown check', () => {
    expect(() => new PodSecurityCheckRule('bogus' as PodSecurityCheck)).toThrow(/unknown pod security check "bogus": use a PodSecurityCheck value/);
  });
});
