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

describe('one privilege, one finding', () => {
  test('a runtime socket mount is one critical finding, the Pod Security check merged into it', () => {
    const all = findings([socketAgent('/run/host-containerd/containerd.sock')]);
    const socket = about(all, '/run/host-containerd/containerd.sock');
    expect(socket).toHaveLength(1);
    expect(socket[0]).toMatchObject({
      rule: 'NA-RUNTIME-SOCKET',
      severity: Severity.CRITICAL,
      container: 'agent',
      mergedRules: ['NA-HOSTPATH-SENSITIVE', 'NA-HOSTPATH-WRITABLE', 'NA-HOST-ACCESS-REASON', 'PSS-BASELINE-hostPathVolumes'],
      rules: ['NA-RUNTIME-SOCKET', 'NA-HOSTPATH-SENSITIVE', 'NA-HOSTPATH-WRITABLE', 'NA-HOST-ACCESS-REASON', 'PSS-BASELINE-hostPathVolumes'],
      podSecurity: ['hostPathVolumes'],
      acknowledged: false,
    });
    expect(socket[0].message).toContain('talks to the Bottlerocket host containerd API through its socket');
    expect(socket[0].message).toContain('no reason is recorded for it in annotation node-agents.cdk8s.io/host-access; fails Pod Security baseline check hostPathVolumes');
    // Pod Security's check is no finding of its own: the privilege's finding is the only one that names it
    expect(all.filter((f) => f.rules.includes('PSS-BASELINE-hostPathVolumes'))).toEqual(socket);
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
      ['NA-CAPABILITIES', Severity.HIGH, ['NA-HOST-ACCESS-REASON', 'PSS-BASELINE-capabilities']],
      ['NA-CAPABILITY-INERT', Severity.MEDIUM, undefined],
    ]);
    expect(about(all, '/var/log').map((f) => [f.rule, f.severity, f.mergedRules])).toEqual([
      ['NA-HOSTPATH-SENSITIVE', Severity.HIGH, ['NA-HOSTPATH-WRITABLE', 'NA-HOST-ACCESS-REASON', 'PSS-BASELINE-hostPathVolumes']],
    ]);
    expect(all.filter((f) => f.rule.startsWith('PSS-'))).toEqual([]);
  });

  test('a privileged container is one finding: its privilege escalation, which no setting fixes, joins it', () => {
    const ds = agentWithContainer({ securityContext: { privileged: true } });
    const all = findings([ds]);
    const privileged = all.filter((f) => f.container === 'agent' && f.severity === Severity.CRITICAL && !f.rule.startsWith('PSS-'));
    expect(privileged.map((f) => [f.rule, f.mergedRules])).toEqual([['NA-PRIVILEGED', ['NA-HOST-ACCESS-REASON', 'PSS-BASELINE-privileged', 'NA-PRIVILEGE-ESCALATION']]]);
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
      ['bootstrap', 'NA-HOSTPATH-SENSITIVE', Severity.HIGH, ['NA-HOSTPATH-WRITABLE', 'NA-HOST-ACCESS-REASON', 'PSS-BASELINE-hostPathVolumes']],
      ['agent', 'NA-HOSTPATH-WRITABLE', Severity.MEDIUM, ['NA-HOST-ACCESS-REASON', 'PSS-BASELINE-hostPathVolumes']],
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

  test('a hostPath volume without a type joins the finding of its mount, which says it and how to fix it', () => {
    const ds = agentWithContainer({ volumeMounts: [{ name: 'dev', mountPath: '/dev' }] }, { volumes: [{ name: 'dev', hostPath: { path: '/dev' } }] });
    const all = findings([ds]);
    const dev = all.filter((f) => f.rules.includes('NA-HOSTPATH-TYPE'));
    expect(dev.map((f) => [f.rule, f.severity, f.rules])).toEqual([
      ['NA-HOSTPATH-SENSITIVE', Severity.CRITICAL, ['NA-HOSTPATH-SENSITIVE', 'NA-HOSTPATH-WRITABLE', 'NA-HOST-ACCESS-REASON', 'PSS-BASELINE-hostPathVolumes', 'NA-HOSTPATH-TYPE']],
    ]);
    expect(dev[0].message).toContain('; hostPath volume "dev" (/dev) sets no type: nothing is checked before it is mounted; no reason is recorded');
    expect(dev[0].fix).toContain('; set hostPath.type: Directory');
    expect(all.filter((f) => f.message.includes('/dev'))).toEqual(dev);
  });

  test('a host path no container mounts is one finding for the pod: unused, its missing reason and the Pod Security check', () => {
    const ds = agent({ volumes: [hostPathVolume('spare', '/var/lib/spare', 'Directory')] });
    expect(findings([ds]).filter((f) => f.message.includes('/var/lib/spare')).map((f) => [f.rule, f.container, f.rules])).toEqual([
      ['NA-HOSTPATH-UNUSED', undefined, ['NA-HOSTPATH-UNUSED', 'NA-HOST-ACCESS-REASON', 'PSS-BASELINE-hostPathVolumes']],
    ]);
  });

  test('an acknowledgement of a merged Pod Security check accepts the finding at its severity, never a more severe one (the fix says so)', () => {
    const ack = (rule: string) => ({ annotations: { [ACK]: JSON.stringify([{ rule, reason: 'runs in its own privileged namespace' }]) } });
    const privileged = findings([agentWithContainer({ securityContext: { privileged: true } }, {}, ack('PSS-BASELINE-privileged'))]).find((f) => f.rule === 'NA-PRIVILEGED')!;
    expect([privileged.acknowledged, privileged.acknowledgedReason]).toEqual([true, 'runs in its own privileged namespace']);
    const log = (extra: any) => agentWithContainer({ volumeMounts: [{ name: 'log', mountPath: '/var/log', readOnly: true }] },
      { volumes: [hostPathVolume('log', '/var/log', 'Directory')] }, extra);
    // /var/log read-only: NA-HOSTPATH-SENSITIVE at medium, the check at medium too: either acknowledgement accepts it
    expect(about(findings([log(ack('PSS-BASELINE-hostPathVolumes'))]), '/var/log').map((f) => [f.severity, f.acknowledged])).toEqual([[Severity.MEDIUM, true]]);
    // /dev read-write is critical: the check's acknowledgement (its part is medium) does not accept it
    const dev = agentWithContainer({ volumeMounts: [{ name: 'dev', mountPath: '/dev' }] }, { volumes: [hostPathVolume('dev', '/dev', 'Directory')] }, ack('PSS-BASELINE-hostPathVolumes'));
    const [open] = about(findings([dev]), '/dev');
    expect([open.rule, open.severity, open.acknowledged]).toEqual(['NA-HOSTPATH-SENSITIVE', Severity.CRITICAL, false]);
    expect(open.unacceptedAcknowledgements).toEqual(['PSS-BASELINE-hostPathVolumes']);
    expect(SecurityReview.toMarkdown(SecurityReview.review([dev]))).toContain('  - not accepted by the acknowledgement of PSS-BASELINE-hostPathVolumes: ' +
      'that part is less severe than this critical finding; acknowledge NA-HOSTPATH-SENSITIVE to accept it\n');
  });

  test('a recorded reason accepts a privilege\'s finding with its Pod Security part, as it accepted the check before', () => {
    const ds = agentWithContainer({ volumeMounts: [{ name: 'v', mountPath: '/v' }] }, { volumes: [hostPathVolume('v', '/var/lib/agent', 'DirectoryOrCreate')] },
      { annotations: { [REASONS]: JSON.stringify([{ type: 'hostPath', detail: '/var/lib/agent (read-write)', reason: 'keeps its state' }]) } });
    expect(findings([ds]).filter((f) => f.message.includes('/var/lib/agent')).map((f) => [f.rules, f.acknowledged, f.acknowledgedReason])).toEqual([
      [['NA-HOSTPATH-WRITABLE', 'PSS-BASELINE-hostPathVolumes'], true, 'host-access reason for hostPath /var/lib/agent (read-write): keeps its state'],
    ]);
  });

  test('the JSON keeps every rule ID and the Pod Security check for tools', () => {
    const report = SecurityReview.review([agentWithContainer({ securityContext: { privileged: true } })]);
    const json = JSON.parse(SecurityReview.toJson(report)).workloads[0].findings;
    const privileged = json.find((f: any) => f.rule === 'NA-PRIVILEGED');
    expect([privileged.rules, privileged.mergedRules, privileged.podSecurity]).toEqual([
      ['NA-PRIVILEGED', 'NA-HOST-ACCESS-REASON', 'PSS-BASELINE-privileged', 'NA-PRIVILEGE-ESCALATION'],
      ['NA-HOST-ACCESS-REASON', 'PSS-BASELINE-privileged', 'NA-PRIVILEGE-ESCALATION'],
      ['privileged'],
    ]);
    // every finding names its rules, its own first
    for (const f of json) expect(f.rules[0]).toBe(f.rule);
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
      ['NA-CAPABILITIES', ['NA-HOST-ACCESS-REASON', 'PSS-BASELINE-capabilities', 'MY-CAPS']],
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

  test('a declared hostPort is one finding: the missing reason, with Pod Security\'s hostPorts check, at the port\'s risk', () => {
    const ds = agentWithContainer({ ports: [{ containerPort: 9100, hostPort: 9100 }] });
    expect(findings([ds]).filter((f) => f.message.includes('9100')).map((f) => [f.rule, f.severity, f.rules, f.podSecurity])).toEqual([
      ['NA-HOST-ACCESS-REASON', Severity.LOW, ['NA-HOST-ACCESS-REASON', 'PSS-BASELINE-hostPorts'], ['hostPorts']],
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
    // its one open finding says what an attacker gains and the safer alternative: the entry points to it, not says it again
    expect(md).toContain('- hostPath /opt/cni/bin (read-write) in containers "agent", "install": risk critical\n  - reason: no reason recorded\n' +
      '  - attacker gains and safer alternative: in the open finding [critical] NA-HOSTPATH-SENSITIVE (container "install") below\n');
    expect(md).toContain('which is critical risk: replaces binaries that the container runtime runs as root on the host for every new pod: root on the node ' +
      '(only init containers write it here');
    // an entry whose finding says it otherwise (a volume no container mounts) says it itself
    expect(md).toContain('- hostPath /var/lib/spare (read-write), mounted by no container: risk medium\n  - reason: no reason recorded\n  - attacker gains: tampers');
    expect(md).toContain('- hostPath /var/lib/spare (read-write), mounted by no container: risk medium');
    expect(JSON.parse(SecurityReview.toJson(report)).workloads[0].hostAccess[0].containers).toEqual(['agent', 'install']);
  });
});
