// One cause, one finding: the engine merges the findings of different rules about the same host privilege of the same
// container (RuleViolation.cause). Minimal manifests, the default packs.
import { agent, agentWithContainer, goodContainer, hostPathVolume } from './util';
import { Finding, IReviewRule, ReviewPack, RuleViolation, SecurityReview, Severity, WorkloadContext } from '../../src/review';

const ACK = 'node-agents.cdk8s.io/acknowledged';
const REASONS = 'node-agents.cdk8s.io/host-access';

function findings(manifests: any[], packs?: ReviewPack[]): Finding[] {
  return SecurityReview.review(manifests, packs ? { packs } : {}).workloads.flatMap((w) => w.findings);
}

function about(all: Finding[], text: string): Finding[] {
  return all.filter((f) => !f.rule.startsWith('PSS-') && f.message.includes(text));
}

function socketAgent(path: string, readOnly = false): any {
  return agentWithContainer({ volumeMounts: [{ name: 'sock', mountPath: '/host/sock', readOnly }] }, { volumes: [hostPathVolume('sock', path, 'Socket')] });
}

describe('one cause, one finding', () => {
  test('a runtime socket mount is one critical finding, the Pod Security check named in it', () => {
    const all = findings([socketAgent('/run/host-containerd/containerd.sock')]);
    const socket = about(all, '/run/host-containerd/containerd.sock');
    expect(socket).toHaveLength(1);
    expect(socket[0]).toMatchObject({
      rule: 'NA-RUNTIME-SOCKET',
      severity: Severity.CRITICAL,
      container: 'agent',
      mergedRules: ['NA-HOSTPATH-SENSITIVE', 'NA-HOSTPATH-WRITABLE', 'NA-HOST-ACCESS-REASON'],
      acknowledged: false,
    });
    expect(socket[0].message).toContain('talks to the Bottlerocket host containerd API through its socket');
    expect(socket[0].message).toContain('no reason is recorded for it in annotation node-agents.cdk8s.io/host-access; fails Pod Security baseline check hostPathVolumes');
    // Pod Security's own finding stays: one per check for the whole pod
    expect(all.filter((f) => f.rule === 'PSS-BASELINE-hostPathVolumes')).toHaveLength(1);
  });

  test('an added capability is one finding (with its missing reason), a writable sensitive path one finding', () => {
    const ds = agentWithContainer(
      { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_ADMIN'] } }, volumeMounts: [{ name: 'log', mountPath: '/var/log' }] },
      { volumes: [hostPathVolume('log', '/var/log', 'Directory')] },
    );
    const all = findings([ds]);
    // the pod runs as non-root: that NET_ADMIN cannot take effect is another finding, not merged (it is about whether the
    // capability works, not about its risk)
    expect(about(all, 'NET_ADMIN').map((f) => [f.rule, f.severity, f.mergedRules])).toEqual([
      ['NA-CAPABILITIES', Severity.HIGH, ['NA-HOST-ACCESS-REASON']],
      ['NA-CAPABILITY-INERT', Severity.MEDIUM, undefined],
    ]);
    expect(about(all, '/var/log').map((f) => [f.rule, f.severity, f.mergedRules])).toEqual([
      ['NA-HOSTPATH-SENSITIVE', Severity.HIGH, ['NA-HOSTPATH-WRITABLE', 'NA-HOST-ACCESS-REASON']],
    ]);
  });

  test('a privileged container is one finding: its privilege escalation, which no setting fixes, joins it', () => {
    const ds = agentWithContainer({ securityContext: { privileged: true } });
    const all = findings([ds]);
    const privileged = all.filter((f) => f.container === 'agent' && f.severity === Severity.CRITICAL && !f.rule.startsWith('PSS-'));
    expect(privileged.map((f) => [f.rule, f.mergedRules])).toEqual([['NA-PRIVILEGED', ['NA-HOST-ACCESS-REASON', 'NA-PRIVILEGE-ESCALATION']]]);
    expect(all.map((f) => f.fix).join('\n')).not.toContain('allowPrivilegeEscalation: false on every container');
  });

  test('without the more specific rules, the remaining one still reports the cause (a pack alone)', () => {
    const only = findings([socketAgent('/run/containerd/containerd.sock', true)], [ReviewPack.nodeAgentBaseline()]);
    expect(only.filter((f) => f.message.includes('containerd.sock'))).toEqual([]); // read-only: the baseline pack judges writable mounts only
    const writable = findings([socketAgent('/run/containerd/containerd.sock')], [ReviewPack.nodeAgentBaseline()]);
    expect(about(writable, 'containerd.sock').map((f) => [f.rule, f.severity, f.mergedRules])).toEqual([['NA-HOSTPATH-WRITABLE', Severity.CRITICAL, undefined]]);
  });

  test('each container its own finding; the pod-level reason finding joins each, never raising a container above its own use', () => {
    // flannel's /run/flannel (medium): the agent writes it, an init container writes it with Bidirectional propagation (high)
    const ds = agent({
      initContainers: [goodContainer({ name: 'bootstrap', securityContext: { privileged: true }, volumeMounts: [{ name: 'run', mountPath: '/run/flannel', mountPropagation: 'Bidirectional' }] })],
      containers: [goodContainer({ volumeMounts: [{ name: 'run', mountPath: '/run/flannel' }] })],
      volumes: [hostPathVolume('run', '/run/flannel', 'DirectoryOrCreate')],
    });
    expect(about(findings([ds]), '/run/flannel').map((f) => [f.container, f.rule, f.severity, f.mergedRules])).toEqual([
      ['bootstrap', 'NA-HOSTPATH-SENSITIVE', Severity.HIGH, ['NA-HOSTPATH-WRITABLE', 'NA-HOST-ACCESS-REASON']],
      ['agent', 'NA-HOSTPATH-WRITABLE', Severity.MEDIUM, ['NA-HOST-ACCESS-REASON']],
    ]);
  });

  test('rule IDs stay stable: an acknowledgement of any merged rule at the finding\'s severity accepts it, not one of a lesser rule', () => {
    const log = (ack: string) => agentWithContainer({ volumeMounts: [{ name: 'log', mountPath: '/var/log' }] }, { volumes: [hostPathVolume('log', '/var/log', 'Directory')] },
      { annotations: { [ACK]: JSON.stringify([{ rule: ack, reason: 'tails and truncates logs' }]) } });
    for (const rule of ['NA-HOSTPATH-SENSITIVE', 'NA-HOSTPATH-WRITABLE', 'NA-HOST-ACCESS-REASON']) {
      expect(about(findings([log(rule)]), '/var/log').map((f) => [f.rule, f.acknowledged])).toEqual([['NA-HOSTPATH-SENSITIVE', true]]);
    }
    const privileged = (ack: string) => agentWithContainer({ securityContext: { privileged: true } }, {},
      { annotations: { [ACK]: JSON.stringify([{ rule: ack, reason: 'loads a kernel module' }]) } });
    const byEscalation = findings([privileged('NA-PRIVILEGE-ESCALATION')]).find((f) => f.rule === 'NA-PRIVILEGED')!;
    expect(byEscalation.acknowledged).toBe(false);
    expect(findings([privileged('NA-PRIVILEGED')]).find((f) => f.rule === 'NA-PRIVILEGED')!.acknowledged).toBe(true);
  });

  test('a recorded reason accepts a merged finding only if it accepts every rule\'s part', () => {
    const withReason = (path: string) => agentWithContainer({ volumeMounts: [{ name: 'v', mountPath: '/v' }] }, { volumes: [hostPathVolume('v', path, 'DirectoryOrCreate')] },
      { annotations: { [REASONS]: JSON.stringify([{ type: 'hostPath', detail: `${path} (read-write)`, reason: 'keeps its state' }]) } });
    // the agent's own state directory: NA-HOSTPATH-WRITABLE alone, medium: the reason accepts it
    expect(about(findings([withReason('/var/lib/agent')]), '/var/lib/agent').map((f) => [f.rule, f.severity, f.acknowledged])).toEqual([
      ['NA-HOSTPATH-WRITABLE', Severity.MEDIUM, true],
    ]);
    // a sensitive path: NA-HOSTPATH-SENSITIVE needs an explicit acknowledgement
    expect(about(findings([withReason('/var/log')]), '/var/log').map((f) => [f.rule, f.severity, f.acknowledged])).toEqual([
      ['NA-HOSTPATH-SENSITIVE', Severity.HIGH, false],
    ]);
  });

  test('a custom rule\'s violation with a cause joins the built-in finding; a malformed cause is reported', () => {
    class Mine implements IReviewRule {
      public readonly id = 'MY-CAPS';
      public readonly severity = Severity.LOW;
      public readonly title = 'mine';
      public readonly explanation = 'mine';
      public readonly fix = 'mine';
      constructor(private readonly cause: any) {}
      public evaluate(_w: WorkloadContext): RuleViolation[] {
        return [{ message: 'adds NET_ADMIN, which my company forbids', container: 'agent', cause: this.cause }];
      }
    }
    const ds = agentWithContainer({ securityContext: { capabilities: { add: ['NET_ADMIN'] } } });
    const packs = (rule: IReviewRule) => [...ReviewPack.defaults(), ReviewPack.custom('mine', [rule])];
    const merged = findings([ds], packs(new Mine({ type: 'capability', detail: 'NET_ADMIN', container: 'agent' })));
    expect(about(merged, 'NET_ADMIN').map((f) => [f.rule, f.mergedRules])).toEqual([
      ['NA-CAPABILITIES', ['NA-HOST-ACCESS-REASON', 'MY-CAPS']],
      ['NA-CAPABILITY-INERT', undefined],
    ]);
    const broken = findings([ds], packs(new Mine('NET_ADMIN')));
    expect(broken.find((f) => f.rule === 'MY-CAPS')!.message).toContain('evaluate returned a cause that is not a host privilege {type, detail}: "NET_ADMIN"');
  });
});

describe('host ports through hostNetwork', () => {
  test('listed as host ports of their containers, at the port\'s risk, with the hostNetwork\'s reason; no finding of their own', () => {
    const ds = agentWithContainer({ ports: [{ containerPort: 8081 }, { containerPort: 10250 }] }, { hostNetwork: true },
      { annotations: { [REASONS]: JSON.stringify([{ type: 'hostNetwork', detail: '', reason: 'programs the node\'s routes' }]) } });
    const [w] = SecurityReview.review([ds]).workloads;
    expect(w.hostAccess.filter((h) => h.type === 'hostPort').map((h) => [h.detail, h.container, h.risk, h.viaHostNetwork, h.reason])).toEqual([
      ['10250/TCP', 'agent', 'high', true, 'programs the node\'s routes'],
      ['8081/TCP', 'agent', 'low', true, 'programs the node\'s routes'],
    ]);
    expect(w.findings.filter((f) => f.message.includes('8081') || f.message.includes('10250') || f.rule === 'PSS-BASELINE-hostPorts')).toEqual([]);
    expect(SecurityReview.toMarkdown(SecurityReview.review([ds]))).toContain('- hostPort 8081/TCP (through hostNetwork) in container "agent": risk low\n  - reason: programs the node\'s routes');
  });

  test('a declared hostPort keeps its own findings: the missing reason, and Pod Security\'s hostPorts check', () => {
    const ds = agentWithContainer({ ports: [{ containerPort: 9100, hostPort: 9100 }] });
    expect(findings([ds]).filter((f) => f.message.includes('9100')).map((f) => [f.rule, f.severity])).toEqual([
      ['PSS-BASELINE-hostPorts', Severity.MEDIUM], ['NA-HOST-ACCESS-REASON', Severity.LOW],
    ]);
  });
});

describe('the report names the containers of each host privilege', () => {
  test('hostPath entries list their containers, in JSON and Markdown; an unmounted one says so', () => {
    const ds = agent({
      initContainers: [goodContainer({ name: 'install', volumeMounts: [{ name: 'bin', mountPath: '/host/bin' }] })],
      containers: [goodContainer({ volumeMounts: [{ name: 'bin', mountPath: '/bin-ro', readOnly: true }] })],
      volumes: [hostPathVolume('bin', '/opt/cni/bin', 'Directory'), hostPathVolume('spare', '/var/lib/spare', 'Directory')],
    });
    const report = SecurityReview.review([ds]);
    expect(report.workloads[0].hostAccess.filter((h) => h.type === 'hostPath').map((h) => [h.detail, h.containers])).toEqual([
      ['/opt/cni/bin (read-write)', ['agent', 'install']],
      ['/var/lib/spare (read-write)', []],
    ]);
    const md = SecurityReview.toMarkdown(report);
    expect(md).toContain('- hostPath /opt/cni/bin (read-write) in containers "agent", "install": risk critical');
    expect(md).toContain('  - attacker gains: replaces binaries that the container runtime runs as root on the host for every new pod: root on the node ' +
      '(only init containers write it here');
    expect(md).toContain('- hostPath /var/lib/spare (read-write), mounted by no container: risk medium');
    expect(JSON.parse(SecurityReview.toJson(report)).workloads[0].hostAccess[0].containers).toEqual(['agent', 'install']);
  });
});
