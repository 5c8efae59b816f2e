import { PodSecurityCheck } from '../../src/model';
import { PodSecurityCheckRule, ReviewPack, Severity } from '../../src/review';

const PSS_BASELINE = [
  'PSS-BASELINE-hostNamespaces', 'PSS-BASELINE-privileged', 'PSS-BASELINE-capabilities', 'PSS-BASELINE-hostPathVolumes',
  'PSS-BASELINE-hostPorts', 'PSS-BASELINE-appArmorProfile', 'PSS-BASELINE-seLinuxOptions', 'PSS-BASELINE-procMount',
  'PSS-BASELINE-seccompProfile', 'PSS-BASELINE-sysctls', 'PSS-BASELINE-windowsHostProcess', 'PSS-BASELINE-hostProbesAndHostLifecycle',
];

// Adding, removing or re-levelling a rule must be a visible, reviewed change: these lists pin every pack.
describe('pack manifests', () => {
  test('node-agent-baseline', () => {
    const pack = ReviewPack.nodeAgentBaseline();
    expect(pack.id).toBe('node-agent-baseline');
    expect(pack.rules.map((r) => `${r.id}:${r.severity}`)).toEqual([
      'NA-HOSTPATH-WRITABLE:critical',
      'NA-HOSTPATH-UNUSED:medium',
      'NA-PRIVILEGED:critical',
      'NA-NAMESPACE:medium',
      'NA-SERVICE-ACCOUNT:medium',
      'NA-RBAC-CLUSTER-ADMIN:critical',
      'NA-RBAC-SECRETS:critical',
      'NA-RBAC-EXEC:critical',
      'NA-RBAC-WORKLOADS:critical',
      'NA-RBAC-ESCALATION:critical',
      'NA-RBAC-NODE-PROXY:critical',
      'NA-RBAC-NODES:high',
      'NA-RBAC-TOKENS:critical',
      'NA-RBAC-TRAFFIC:high',
      'NA-RBAC-ADMISSION:critical',
      'NA-RBAC-CSR:critical',
      'NA-RBAC-BROAD:medium',
      'NA-RBAC-SHIPPED-ROLE:high',
      'NA-IMAGE-PINNED:high',
      'NA-IMAGE-REGISTRY:high',
      'NA-READONLY-ROOTFS:medium',
      'NA-RUN-AS-NON-ROOT:medium',
    ]);
  });

  test('node-agent-practices', () => {
    const pack = ReviewPack.nodeAgentPractices();
    expect(pack.id).toBe('node-agent-practices');
    expect(pack.rules.map((r) => `${r.id}:${r.severity}${r.ratesByRisk ? ' by risk' : ''}`)).toEqual([
      'NA-RESOURCES:medium',
      'NA-PROBES:medium',
      'NA-PRIORITY-CLASS:medium',
      'NA-SECCOMP:medium',
      'NA-HOSTPATH-SENSITIVE:critical by risk',
      'NA-RUNTIME-SOCKET:critical',
      'NA-HOSTPATH-TYPE:low',
      'NA-RBAC-CLUSTER-ADMIN:critical by risk',
      'NA-RBAC-SECRETS:critical by risk',
      'NA-RBAC-EXEC:critical by risk',
      'NA-RBAC-WORKLOADS:critical by risk',
      'NA-RBAC-ESCALATION:critical by risk',
      'NA-RBAC-NODE-PROXY:critical by risk',
      'NA-RBAC-NODES:high by risk',
      'NA-RBAC-TOKENS:critical by risk',
      'NA-RBAC-TRAFFIC:high by risk',
      'NA-RBAC-ADMISSION:critical by risk',
      'NA-RBAC-CSR:critical by risk',
      'NA-RBAC-BROAD:medium',
      'NA-RBAC-SHIPPED-ROLE:high by risk',
      'NA-HOST-ACCESS-REASON:critical by risk',
      'NA-AUTOMOUNT-TOKEN:low',
      'NA-PRIVILEGE-ESCALATION:medium',
      'NA-CAPABILITIES:critical by risk',
      'NA-CAPABILITY-INERT:medium',
      'NA-ROOT-GROUP:low',
      'NA-ENV-SECRET:high',
      'NA-UPDATE-STRATEGY:medium',
    ]);
  });

  test('pss-baseline', () => {
    const pack = ReviewPack.podSecurityBaseline();
    expect(pack.id).toBe('pss-baseline');
    expect(pack.rules.map((r) => r.id)).toEqual(PSS_BASELINE);
    expect(pack.rules.map((r) => r.severity)).toEqual(['high', 'critical', 'medium', 'medium', 'medium', 'medium', 'medium', 'medium', 'medium', 'medium', 'critical', 'medium']);
  });

  test('pss-restricted: the whole profile, the baseline rules shared with pss-baseline', () => {
    const pack = ReviewPack.podSecurityRestricted();
    expect(pack.id).toBe('pss-restricted');
    expect(pack.rules.map((r) => r.id)).toEqual([
      ...PSS_BASELINE,
      'PSS-RESTRICTED-restrictedVolumes', 'PSS-RESTRICTED-allowPrivilegeEscalation', 'PSS-RESTRICTED-runAsNonRoot', 'PSS-RESTRICTED-runAsUser',
      'PSS-RESTRICTED-seccompProfile', 'PSS-RESTRICTED-capabilities', 'PSS-RESTRICTED-procMount',
    ]);
    expect(pack.rules.slice(0, PSS_BASELINE.length)).toEqual(ReviewPack.podSecurityBaseline().rules);
    expect(pack.rules.slice(0, 1)[0]).toBe(ReviewPack.podSecurityBaseline().rules[0]);
  });

  test('defaults, all and byId', () => {
    expect(ReviewPack.defaults().map((p) => p.id)).toEqual(['node-agent-baseline', 'node-agent-practices', 'pss-baseline']);
    expect(ReviewPack.all().map((p) => p.id)).toEqual(['node-agent-baseline', 'node-agent-practices', 'pss-baseline', 'pss-restricted']);
    expect(ReviewPack.byId('pss-restricted').rules).toHaveLength(19);
    expect(() => ReviewPack.byId('nsa')).toThrow('unknown review pack "nsa": use one of node-agent-baseline, node-agent-practices, pss-baseline, pss-restricted');
  });

  test('every rule has a stable ID, a title, an explanation and a fix', () => {
    for (const rule of ReviewPack.all().flatMap((p) => p.rules)) {
      expect(rule.id).toMatch(/^(NA-[A-Z-]+|PSS-(BASELINE|RESTRICTED)-[a-zA-Z]+)$/);
      expect(rule.title.length).toBeGreaterThan(10);
      expect(rule.explanation.length).toBeGreaterThan(40);
      expect(rule.fix.length).toBeGreaterThan(10);
      expect(rule.fix).not.toMatch(/\.$/);
    }
  });
});

describe('pack IDs', () => {
  test('byId knows the current IDs only, and names them when given another', () => {
    expect(ReviewPack.all().map((p) => p.id)).toEqual(['node-agent-baseline', 'node-agent-practices', 'pss-baseline', 'pss-restricted']);
    expect(ReviewPack.byId(ReviewPack.NODE_AGENT_BASELINE).rules).toEqual(ReviewPack.nodeAgentBaseline().rules);
    expect(() => ReviewPack.byId('baseline')).toThrow('unknown review pack "baseline": use one of node-agent-baseline, node-agent-practices, pss-baseline, pss-restricted');
  });
});

describe('ReviewPack.custom', () => {
  test('a pack of chosen rules', () => {
    const pack = ReviewPack.custom('mine', [new PodSecurityCheckRule(PodSecurityCheck.RUN_AS_NON_ROOT)], 'only runAsNonRoot');
    expect([pack.id, pack.description, pack.rules.map((r) => r.id)]).toEqual(['mine', 'only runAsNonRoot', ['PSS-RESTRICTED-runAsNonRoot']]);
    expect(ReviewPack.custom('x', []).description).toBe('Custom rules (x).');
  });

  test('fails for an empty ID, a rule without an ID and duplicate IDs', () => {
    expect(() => ReviewPack.custom(' ', [])).toThrow('review pack ID must be a non-empty string, e.g. "my-company"');
    expect(() => ReviewPack.custom('x', [{ id: '' } as any])).toThrow('review pack x: rules[0] must be an IReviewRule with a non-empty id and an evaluate method');
    const rule = new PodSecurityCheckRule(PodSecurityCheck.PRIVILEGED);
    expect(() => ReviewPack.custom('x', [rule, rule])).toThrow('review pack x: two rules have the ID PSS-BASELINE-privileged: give each rule its own ID');
  });

  test('a custom rule may not take the library\'s NA- or PSS- prefix (it could never be acknowledged); built-in rules keep theirs', () => {
    const mine = (id: string) => ({ id, severity: Severity.LOW, title: 't', explanation: 'e', fix: 'f', evaluate: () => [] });
    expect(() => ReviewPack.custom('acme', [mine('NA-MY-RULE')])).toThrow('review pack acme: rule ID "NA-MY-RULE" starts with NA- or PSS-, which this library\'s rules use: give the rule an ID with a prefix of your own (e.g. "ACME-MY-RULE")');
    expect(() => ReviewPack.custom('acme', [mine('pss-x')])).toThrow(/rule ID "pss-x" starts with NA- or PSS-/);
    expect(ReviewPack.custom('acme', [mine('ACME-MY-RULE'), new PodSecurityCheckRule(PodSecurityCheck.PRIVILEGED)]).rules.map((r) => r.id))
      .toEqual(['ACME-MY-RULE', 'PSS-BASELINE-privileged']);
  });
});
