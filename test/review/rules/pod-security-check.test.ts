import { PodSecurityCheck } from '../../../src/model';
import { PodSecurityCheckRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, goodContainer, hostPathVolume } from '../util';

function rule(check: PodSecurityCheck): PodSecurityCheckRule {
  return new PodSecurityCheckRule(check);
}

describe('PSS-BASELINE-hostNamespaces: The pod does not share the host\'s network, PID or IPC namespace', () => {
  const r = rule(PodSecurityCheck.HOST_NAMESPACES);
  test('Noncompliance 1: hostNetwork and hostPID, with pod-security-admission\'s message', () => {
    const findings = findingsOf(r, [agent({ hostNetwork: true, hostPID: true })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'PSS-BASELINE-hostNamespaces', severity: Severity.HIGH, field: 'spec.template.spec', acknowledged: false });
    expect(findings[0].message).toBe('DaemonSet observability/node-agent: fails Pod Security baseline (policy 1.28): host namespaces (hostNetwork=true, hostPID=true) (spec.template.spec)');
  });
  test('Noncompliance 2: explained only when every host namespace has a reason', () => {
    const oneReason = { 'node-agents.cdk8s.io/host-access': JSON.stringify([{ type: 'hostNetwork', detail: '', reason: 'scrapes node network metrics' }]) };
    expect(findingsOf(r, [agent({ hostNetwork: true, hostPID: true }, { annotations: oneReason })]).map((f) => f.acknowledged)).toEqual([false]);
    const explained = findingsOf(r, [agent({ hostNetwork: true }, { annotations: oneReason })]);
    expect(explained.map((f) => [f.acknowledged, f.acknowledgedReason])).toEqual([[true, 'host-access reason for hostNetwork: scrapes node network metrics']]);
  });
  test('Compliance', () => {
    expect(findingsOf(r, [agent({ hostNetwork: false })])).toEqual([]);
  });
});

describe('PSS-BASELINE-privileged: No container is privileged', () => {
  const r = rule(PodSecurityCheck.PRIVILEGED);
  test('Noncompliance 1', () => {
    const findings = findingsOf(r, [agentWithContainer({ securityContext: { privileged: true } })]);
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['PSS-BASELINE-privileged', Severity.CRITICAL]]);
    expect(findings[0].message).toContain('privileged (container "agent" must not set securityContext.privileged=true)');
  });
  test('Compliance', () => {
    expect(findingsOf(r, [agent()])).toEqual([]);
  });
});

describe('PSS-BASELINE-capabilities: Containers add only the baseline capabilities', () => {
  const r = rule(PodSecurityCheck.CAPABILITIES_BASELINE);
  test('Noncompliance 1', () => {
    const findings = findingsOf(r, [agentWithContainer({ securityContext: { capabilities: { add: ['NET_ADMIN', 'CHOWN'] } } })]);
    expect(findings.map((f) => [f.rule, f.severity, f.field])).toEqual([['PSS-BASELINE-capabilities', Severity.MEDIUM, 'spec.template.spec']]);
    expect(findings[0].message).toContain('non-default capabilities (container "agent" must not include "NET_ADMIN" in securityContext.capabilities.add)');
  });
  test('Compliance', () => {
    expect(findingsOf(r, [agentWithContainer({ securityContext: { capabilities: { add: ['CHOWN', 'NET_BIND_SERVICE'] } } })])).toEqual([]);
  });
});

describe('PSS-BASELINE-hostPathVolumes: The pod has no hostPath volume', () => {
  const r = rule(PodSecurityCheck.HOST_PATH_VOLUMES);
  test('Noncompliance 1: even read-only', () => {
    const ds = agentWithContainer({ volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }] }, { volumes: [hostPathVolume('varlog', '/var/log', 'Directory')] });
    const findings = findingsOf(r, [ds]);
    expect(findings.map((f) => [f.rule, f.field])).toEqual([['PSS-BASELINE-hostPathVolumes', 'spec.template.spec.volumes']]);
    expect(findings[0].message).toContain('hostPath volumes (volume "varlog")');
  });
  test('Compliance', () => {
    expect(findingsOf(r, [agent({ volumes: [{ name: 'tmp', emptyDir: {} }] })])).toEqual([]);
  });
});

describe('PSS-BASELINE-hostPorts: No container binds a host port', () => {
  const r = rule(PodSecurityCheck.HOST_PORTS);
  test('Noncompliance 1', () => {
    expect(findingsOf(r, [agentWithContainer({ ports: [{ containerPort: 9100, hostPort: 9100 }] })]).map((f) => f.rule)).toEqual(['PSS-BASELINE-hostPorts']);
  });
  test('Compliance', () => {
    expect(findingsOf(r, [agentWithContainer({ ports: [{ containerPort: 9100 }] })])).toEqual([]);
  });
});

describe('PSS-BASELINE-seccompProfile: No container sets seccomp Unconfined', () => {
  const r = rule(PodSecurityCheck.SECCOMP_PROFILE_BASELINE);
  test('Noncompliance 1', () => {
    expect(findingsOf(r, [agent({ securityContext: { seccompProfile: { type: 'Unconfined' } } })]).map((f) => f.rule)).toEqual(['PSS-BASELINE-seccompProfile']);
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
