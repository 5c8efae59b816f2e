import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { agent, agentWithContainer, goodContainer, goodPodSpec, hostPathVolume, workload } from './util';
import {
  Finding, IReviewRule, ReviewPack, RuleViolation, SecurityReview, Severity, WorkloadContext,
} from '../../src/review';

const ACK = 'node-agents.cdk8s.io/acknowledged';
const REASONS = 'node-agents.cdk8s.io/host-access';

/** a rule that flags every container, for engine tests. */
class EveryContainerRule implements IReviewRule {
  public readonly id: string = 'TEST-EVERY-CONTAINER';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'flags every container';
  public readonly explanation = 'for tests';
  public readonly fix = 'nothing';
  public evaluate(w: WorkloadContext): RuleViolation[] {
    return (w.podSpec.containers ?? []).map((c: any, i: number) => ({ message: 'is a container', container: c.name, field: `${w.podSpecPath}.containers[${i}]` }));
  }
}

class ThrowingRule implements IReviewRule {
  public readonly id = 'TEST-THROWS';
  public readonly title = 'throws';
  public readonly explanation = 'for tests';
  public readonly fix = 'nothing';
  constructor(public readonly severity: Severity, private readonly behaviour: () => any) {}
  public evaluate(): RuleViolation[] {
    return this.behaviour();
  }
}

function only(...rules: IReviewRule[]): { packs: ReviewPack[] } {
  return { packs: [ReviewPack.custom('test', rules)] };
}

function allFindings(manifests: any[], options = {}): Finding[] {
  return SecurityReview.review(manifests, options).workloads.flatMap((w) => w.findings);
}

describe('SecurityReview.review: workloads', () => {
  test('reviews DaemonSet, Deployment, StatefulSet, ReplicaSet, Job, CronJob and Pod, of any apiVersion; other kinds are context', () => {
    const kinds = ['DaemonSet', 'Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'CronJob', 'Pod'];
    const manifests = [
      ...kinds.map((kind) => workload(goodPodSpec(), { kind, name: kind.toLowerCase() })),
      { ...workload(goodPodSpec(), { name: 'old' }), apiVersion: 'extensions/v1beta1' },
      { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc' }, spec: { template: { spec: goodPodSpec() } } },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } },
    ];
    const report = SecurityReview.review(manifests);
    expect(report.workloads.map((w) => `${w.kind}/${w.name}`)).toEqual([...kinds.map((k) => `${k}/${k.toLowerCase()}`), 'DaemonSet/old']);
  });

  test('finds the pod spec of each kind: CronJob\'s nested template and a Pod\'s own spec', () => {
    // restartPolicy OnFailure: what a Job's pods must set, and a Pod may
    const privileged = goodPodSpec({ restartPolicy: 'OnFailure', containers: [goodContainer({ securityContext: { privileged: true } })] });
    const rule = ReviewPack.nodeAgentBaseline().rules.find((r) => r.id === 'NA-PRIVILEGED')!;
    const fields = (kind: string) => allFindings([workload(privileged, { kind })], only(rule)).map((f) => f.field);
    expect(fields('CronJob')).toEqual(['spec.jobTemplate.spec.template.spec.containers[0].securityContext.privileged']);
    expect(fields('Pod')).toEqual(['spec.containers[0].securityContext.privileged']);
    expect(fields('Job')).toEqual(['spec.template.spec.containers[0].securityContext.privileged']);
    const contexts = SecurityReview.workloads([workload(privileged, { kind: 'CronJob' })]);
    expect(contexts.map((c) => [c.kind, c.podSpecPath, c.podSpec === privileged])).toEqual([['CronJob', 'spec.jobTemplate.spec.template.spec', true]]);
  });

  test('a compliant agent has no findings in any built-in pack and is restricted', () => {
    const report = SecurityReview.review([agent()], { packs: ReviewPack.all(), allowedRegistries: ['registry.example.com'] });
    expect(report.workloads).toHaveLength(1);
    expect(report.workloads[0]).toEqual({
      kind: 'DaemonSet', namespace: 'observability', namespaceSource: 'manifest', name: 'node-agent', podSecurityLevel: 'restricted', hostAccess: [], findings: [],
    });
  });

  test('the report records the packs and the normalised policy version', () => {
    expect(SecurityReview.review([], { podSecurityVersion: 'v1.34' })).toEqual({
      workloads: [], podSecurityVersion: '1.34', packs: ['node-agent-baseline', 'node-agent-practices', 'pss-baseline'],
    });
    expect(SecurityReview.review([], { podSecurityVersion: 'latest', packs: [] }).podSecurityVersion).toBe('latest');
  });

  test('host access lists every privilege with its risk, attacker gain, safer alternative and recorded reason', () => {
    const reasons = JSON.stringify([{ type: 'hostPath', detail: '/var/log (read-only)', container: 'agent', reason: 'reads node and container logs' }]);
    const ds = agentWithContainer(
      { volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }] },
      { hostPID: true, volumes: [hostPathVolume('varlog', '/var/log', 'Directory')] },
      { annotations: { [REASONS]: reasons } },
    );
    const [w] = SecurityReview.review([ds], { packs: [] }).workloads;
    expect(w.podSecurityLevel).toBe('privileged');
    expect(w.hostAccess.map((h) => [h.type, h.detail, h.risk, h.reason])).toEqual([
      ['hostPath', '/var/log (read-only)', 'medium', 'reads node and container logs'],
      ['hostPID', '', 'high', undefined],
    ]);
    expect(w.hostAccess[1].attackerGains).toMatch(/^sees every process on the node/);
    expect(w.hostAccess[1].saferAlternative).toMatch(/^drop it unless the agent must inspect host processes/);
  });
});

describe('SecurityReview.review: acknowledgements', () => {
  const twoContainers = (annotations?: any) => agent({ containers: [goodContainer(), goodContainer({ name: 'sidecar' })] }, { annotations });

  test('from the annotation: matched by rule ID, kept in the report with the reason', () => {
    const acks = JSON.stringify([{ rule: 'TEST-EVERY-CONTAINER', reason: 'expected in tests' }, { rule: 'OTHER', reason: 'unrelated' }]);
    const findings = allFindings([twoContainers({ [ACK]: acks })], only(new EveryContainerRule()));
    expect(findings.map((f) => [f.container, f.acknowledged, f.acknowledgedReason])).toEqual([
      ['agent', true, 'expected in tests'],
      ['sidecar', true, 'expected in tests'],
    ]);
  });

  test('an acknowledgement naming a container accepts only that container\'s findings', () => {
    const acks = JSON.stringify([{ rule: 'TEST-EVERY-CONTAINER', container: 'sidecar', reason: 'the sidecar is vendor code' }]);
    const findings = allFindings([twoContainers({ [ACK]: acks })], only(new EveryContainerRule()));
    expect(findings.map((f) => [f.container, f.acknowledged])).toEqual([['agent', false], ['sidecar', true]]);
  });

  test('from options: matched by kind, namespace and name, combined with the annotation\'s reasons; without a namespace, by the resolved one or none', () => {
    const acks = JSON.stringify([{ rule: 'TEST-EVERY-CONTAINER', container: 'agent', reason: 'from the annotation' }]);
    const manifests = [agent({}, { annotations: { [ACK]: acks } }), agent({}, { name: 'other' }), agent({}, { namespace: null })];
    const report = SecurityReview.review(manifests, {
      ...only(new EveryContainerRule()),
      acknowledgements: [
        { kind: 'DaemonSet', namespace: 'observability', name: 'node-agent', acknowledgements: [{ rule: 'TEST-EVERY-CONTAINER', reason: 'from the construct tree' }] },
        { kind: 'Deployment', namespace: 'observability', name: 'other', acknowledgements: [{ rule: 'TEST-EVERY-CONTAINER', reason: 'wrong kind' }] },
        { kind: 'DaemonSet', name: 'node-agent', acknowledgements: [{ rule: 'TEST-EVERY-CONTAINER', reason: 'no namespace' }] },
      ],
    });
    expect(report.workloads.map((w) => [w.namespace, w.name, w.findings[0].acknowledgedReason])).toEqual([
      ['observability', 'node-agent', 'from the annotation; from the construct tree'],
      ['observability', 'other', undefined],
      // the manifest sets no namespace; the other objects all use observability, so the review takes it: both acknowledgements apply
      ['observability', 'node-agent', 'from the construct tree; no namespace'],
    ]);
    expect(report.workloads[2].namespaceSource).toBe('file');
  });

  test('a malformed annotation is a NA-REVIEW-ERROR finding and accepts nothing', () => {
    const findings = allFindings([agent({}, { annotations: { [ACK]: '[{"rule": "TEST-EVERY-CONTAINER", "reason": ""}]' } })], only(new EveryContainerRule()));
    expect(findings.map((f) => [f.rule, f.severity, f.acknowledged])).toEqual([
      ['NA-REVIEW-ERROR', Severity.HIGH, false],
      ['TEST-EVERY-CONTAINER', Severity.MEDIUM, false],
    ]);
    expect(findings[0].message).toBe('DaemonSet observability/node-agent: annotation node-agents.cdk8s.io/acknowledged: entry 0 (rule TEST-EVERY-CONTAINER) has no reason: ' +
      'say in one line why the finding is accepted; no acknowledgement of this workload applies');
  });

  test('acknowledgements in options need a reason', () => {
    expect(() => SecurityReview.review([agent()], { acknowledgements: [{ kind: 'DaemonSet', name: 'x', acknowledgements: [{ rule: 'NA-NAMESPACE', reason: ' ' }] }] }))
      .toThrow(/acknowledgement of NA-NAMESPACE has no reason/);
  });
});

describe('SecurityReview.openFindings', () => {
  const acks = JSON.stringify([{ rule: 'NA-NAMESPACE', reason: 'kube-proxy convention' }]);
  const report = SecurityReview.review([
    agentWithContainer({ image: 'busybox:latest', resources: {} }, { volumes: [hostPathVolume('etc', '/etc', 'Directory')] }, { namespace: 'kube-system', annotations: { [ACK]: acks } }),
  ], { packs: [ReviewPack.nodeAgentBaseline(), ReviewPack.nodeAgentPractices()] });

  test('unacknowledged findings at or above the threshold', () => {
    const rules = (threshold: Severity) => SecurityReview.openFindings(report, threshold).map((f) => `${f.severity}:${f.rule}`);
    expect(rules(Severity.CRITICAL)).toEqual(['critical:NA-HOST-ACCESS-REASON']);
    expect(rules(Severity.HIGH)).toEqual(['critical:NA-HOST-ACCESS-REASON', 'high:NA-IMAGE-PINNED']);
    // the unmounted /etc is one finding: its missing reason (critical), with NA-HOSTPATH-UNUSED merged
    expect(rules(Severity.MEDIUM)).toEqual(['critical:NA-HOST-ACCESS-REASON', 'high:NA-IMAGE-PINNED', 'medium:NA-RESOURCES']);
    expect(SecurityReview.openFindings(report, Severity.CRITICAL)[0].rules).toEqual(['NA-HOST-ACCESS-REASON', 'NA-HOSTPATH-UNUSED']);
    expect(rules(Severity.LOW)).toHaveLength(3);
    expect(report.workloads[0].findings.filter((f) => f.acknowledged).map((f) => f.rule)).toEqual(['NA-NAMESPACE']);
  });

  test('an unknown threshold is an error', () => {
    expect(() => SecurityReview.openFindings(report, 'severe' as Severity)).toThrow(/severity must be one of low, medium, high, critical, got "severe"/);
  });
});

describe('SecurityReview._openFindings: the gate a NodeAgent runs at synth', () => {
  const acks = JSON.stringify([{ rule: 'NA-NAMESPACE', reason: 'kube-proxy convention' }]);
  const corpus: { [name: string]: any[] } = {
    'findings of every severity, one acknowledged': [
      agentWithContainer({ image: 'busybox:latest', resources: {} }, { volumes: [hostPathVolume('etc', '/etc', 'Directory')] }, { namespace: 'kube-system', annotations: { [ACK]: acks } }),
    ],
    'a field of a type the API server cannot decode': [agent({ volumes: { name: 'not-a-list' } })],
    // in an API version the type table does not cover (no API server serves it), the rules read it and crash
    'a malformed field that makes rules crash': [{ ...agent({ volumes: { name: 'not-a-list' } }), apiVersion: 'apps/v1beta2' }],
    'a malformed resources field that only medium rules read': [{ ...agentWithContainer({ resources: 'lots' }), apiVersion: 'apps/v1beta2' }],
    'a workload without a pod spec': [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'empty' }, spec: {} }],
    'the chart-shaped fluent-bit example': parseAllDocuments(fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'review', 'chart-shaped.yaml'), 'utf-8'))
      .map((d) => d.toJS()).filter((o) => o !== null),
  };
  const options = { acknowledgements: [{ kind: 'DaemonSet', namespace: 'kube-system', name: 'node-agent', acknowledgements: [{ rule: 'NA-IMAGE-PINNED', reason: 'pinned by the mirror' }] }] };

  test.each(Object.keys(corpus))('%s: the open findings of the full review, at every threshold', (name) => {
    const full = SecurityReview.review(corpus[name], options);
    for (const threshold of Object.values(Severity)) {
      expect(SecurityReview._openFindings(corpus[name], options, threshold, false)).toEqual(SecurityReview.openFindings(full, threshold));
    }
  });

  test('trusted to be well formed, it skips the rules below the threshold, and with them their crashes', () => {
    const malformed = corpus['a malformed resources field that only medium rules read'];
    const crashes = SecurityReview.openFindings(SecurityReview.review(malformed), Severity.HIGH).filter((f) => f.message.includes('could not evaluate it'));
    expect(crashes.map((f) => [f.rule, f.severity])).toEqual([['NA-RESOURCES', Severity.HIGH]]);
    expect(SecurityReview._openFindings(malformed, {}, Severity.HIGH, false).map((f) => f.rule)).toContain('NA-RESOURCES');
    expect(SecurityReview._openFindings(malformed, {}, Severity.HIGH, true).map((f) => f.rule)).not.toContain('NA-RESOURCES');
  });
});

describe('SecurityReview.review: values of a type the API server cannot decode', () => {
  // the cases: each was read as something else (a container named [object Object], capabilities 1 and NULL)
  const cases: Array<[string, any, string, string]> = [
    ['privileged: "true"', agentWithContainer({ securityContext: { privileged: 'true' } }), 'spec.template.spec.containers[0].securityContext.privileged',
      'must be a boolean, got "true"'],
    ['containerPort: "9100"', agentWithContainer({ ports: [{ containerPort: '9100' }] }), 'spec.template.spec.containers[0].ports[0].containerPort',
      'must be an integer (32 bits), got "9100"'],
    ['tolerationSeconds: "5"', agent({ tolerations: [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: '5' }] }), 'spec.template.spec.tolerations[0].tolerationSeconds',
      'must be an integer, got "5"'],
    ['a container name that is a mapping', agentWithContainer({ name: { agent: 1 } }), 'spec.template.spec.containers[0].name', 'must be a string, got {"agent":1}'],
    ['capabilities.add: [1, null]', agentWithContainer({ securityContext: { capabilities: { add: [1, null] } } }), 'spec.template.spec.containers[0].securityContext.capabilities.add[0]',
      'must be a string, got 1'],
    ['a label value that is a number', { ...agent(), metadata: { name: 'node-agent', namespace: 'observability', labels: { tier: 1 } } }, 'metadata.labels.tier',
      'must be a string, got 1'],
  ];

  test.each(cases)('%s: one NA-API-REJECTED finding naming the field, and nothing else of the workload', (_name, manifest, field, what) => {
    const [w] = SecurityReview.review([manifest], { packs: ReviewPack.all() }).workloads;
    expect(w.findings.map((f) => [f.rule, f.severity, f.field, f.message])).toEqual([[
      'NA-API-REJECTED', Severity.HIGH, field,
      `DaemonSet observability/node-agent: ${field} ${what}; the API server rejects this (it cannot decode the object), so nothing else in it was reviewed (${field})`,
    ]]);
    expect(w.hostAccess).toEqual([]);
    expect(w.podSecurityLevel).toBe('unknown');
  });

  test('a null in a list of strings is the empty string, as the server stores it: capabilities.add: [null] adds no capability named NULL', () => {
    const manifest = agentWithContainer({ securityContext: { capabilities: { add: [null] } } });
    const [w] = SecurityReview.review([manifest], { packs: ReviewPack.all() }).workloads;
    expect(w.hostAccess.filter((h) => h.type === 'capability')).toEqual([]);
    expect(w.findings.map((f) => f.message).filter((m) => /NULL|null/.test(m))).toEqual([]);
    // Pod Security admission reads the same [""]: an added capability outside the baseline set
    expect(w.findings.find((f) => f.rule === 'PSS-BASELINE-capabilities')?.message).toContain('must not include "" in securityContext.capabilities.add');
  });

  test('IntOrString and quantity fields take both forms; null is unset', () => {
    const manifest = agentWithContainer({
      resources: { requests: { cpu: 0.5, memory: '128Mi' } },
      livenessProbe: { httpGet: { path: '/healthz', port: 'metrics' } },
      readinessProbe: { httpGet: { path: '/healthz', port: 8080 } },
      securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'], add: null } },
    });
    manifest.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } };
    expect(allFindings([manifest]).filter((f) => f.rule === 'NA-API-REJECTED')).toEqual([]);
  });
});

describe('SecurityReview.review: the API server\'s StatefulSet validation', () => {
  // Metricbeat 7.17's kubernetes module test environment (corpus: metricbeat-kubernetes-module-fixture) mounts its
  // volumeClaimTemplate "mnt": the API server validates the template with a volume per claim template
  const statefulSet = (claim: string, volumes: any[] = []) => {
    const sts = workload(goodPodSpec({ containers: [goodContainer({ volumeMounts: [{ name: 'mnt', mountPath: '/mnt' }] })], volumes }), { kind: 'StatefulSet' });
    sts.spec.serviceName = 'node-agent';
    sts.spec.volumeClaimTemplates = [{ metadata: { name: claim }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Mi' } } } }];
    return sts;
  };
  const rejected = (manifest: any) => allFindings([manifest]).filter((f) => f.rule === 'NA-API-REJECTED').map((f) => `${f.field}: ${f.message}`);

  test('a mount of a volumeClaimTemplate is a mount of a volume the pod has', () => {
    expect(rejected(statefulSet('mnt'))).toEqual([]);
  });

  test('a mount of neither a pod volume nor a claim template is still rejected; a claim template replaces a pod volume of its name', () => {
    expect(rejected(statefulSet('data'))).toEqual([
      'spec.template.spec.containers[0].volumeMounts[0].name: StatefulSet observability/node-agent, container "agent": mounts volume "mnt", which the pod does ' +
        'not have; the API server rejects this (spec.template.spec.containers[0].volumeMounts[0].name)',
    ]);
    // a hostPath volume with '..' that a claim template of the same name replaces is not validated by the server
    expect(rejected(statefulSet('mnt', [{ name: 'mnt', hostPath: { path: '/var/../etc' } }]))).toEqual([]);
  });
});

describe('SecurityReview.review: rule failures never pass silently', () => {
  test('an exception becomes a finding of the rule, at least high; the other rules still run', () => {
    const low = new ThrowingRule(Severity.LOW, () => { throw new Error('cannot read spec.volumes\nsecond line'); });
    const findings = allFindings([agent()], only(low, new EveryContainerRule()));
    expect(findings.map((f) => [f.rule, f.severity, f.message])).toEqual([
      ['TEST-THROWS', Severity.HIGH, 'DaemonSet observability/node-agent: rule TEST-THROWS could not evaluate it: cannot read spec.volumes'],
      ['TEST-EVERY-CONTAINER', Severity.MEDIUM, 'DaemonSet observability/node-agent, container "agent": is a container (spec.template.spec.containers[0])'],
    ]);
    const critical = new ThrowingRule(Severity.CRITICAL, () => { throw new Error('boom'); });
    expect(allFindings([agent()], only(critical)).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
  });

  test('a result that is not a list of violations is a finding', () => {
    expect(allFindings([agent()], only(new ThrowingRule(Severity.LOW, () => undefined))).map((f) => f.message)).toEqual([
      expect.stringContaining('could not evaluate it: evaluate returned undefined, not a list of violations'),
    ]);
    expect(allFindings([agent()], only(new ThrowingRule(Severity.LOW, () => [{ container: 'x' }]))).map((f) => f.message)).toEqual([
      expect.stringContaining('evaluate returned a violation without a message'),
    ]);
  });

  test('a malformed manifest field becomes one finding naming the rules that read it (one cause, one finding)', () => {
    // apps/v1beta2, which the type table does not cover: the rules read the field themselves
    const broken = { ...agent({ volumes: { name: 'not-a-list' } }), apiVersion: 'apps/v1beta2' };
    const findings = allFindings([broken]);
    expect(findings.filter((f) => f.message.includes('could not evaluate it')).map((f) => [f.rule, f.message])).toEqual([
      ['NA-HOST-ACCESS-REASON', expect.stringMatching(new RegExp('^DaemonSet observability/node-agent: rules NA-HOST-ACCESS-REASON, ' +
        'PSS-BASELINE-hostNamespaces, .*, PSS-BASELINE-hostProbesAndHostLifecycle could not evaluate it: spec.volumes must be a list'))],
      ['NA-HOSTPATH-WRITABLE', 'DaemonSet observability/node-agent: rules NA-HOSTPATH-WRITABLE, NA-HOSTPATH-UNUSED, NA-HOSTPATH-SENSITIVE, NA-RUNTIME-SOCKET, ' +
        'NA-HOSTPATH-TYPE could not evaluate it: spec.template.spec.volumes must be a list, got {"name":"not-a-list"}'],
      // the API server's own rule keeps a finding of its own: it cannot be acknowledged, the others can
      ['NA-API-REJECTED', 'DaemonSet observability/node-agent: rule NA-API-REJECTED could not evaluate it: spec.volumes must be a list, got ' +
        '{"name":"not-a-list"}: write it as a YAML/JSON list'],
    ]);
    expect(findings.filter((f) => f.rule === 'NA-REVIEW-ERROR').map((f) => f.message)).toEqual([
      expect.stringContaining('cannot evaluate its Pod Security level: spec.volumes must be a list'),
      expect.stringContaining('cannot list its host privileges: spec.volumes must be a list'),
    ]);
    expect(SecurityReview.review([broken]).workloads[0].podSecurityLevel).toBe('unknown');
  });

  test('a workload without a pod spec is one NA-REVIEW-ERROR finding', () => {
    const report = SecurityReview.review([{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'empty' }, spec: {} }]);
    expect(report.workloads[0].podSecurityLevel).toBe('unknown');
    expect(report.workloads[0].findings.map((f) => [f.rule, f.message])).toEqual([
      ['NA-REVIEW-ERROR', 'Deployment empty: has no pod spec at spec.template.spec: nothing in it could be reviewed'],
    ]);
  });
});

describe('SecurityReview.review: packs and options', () => {
  test('a rule in several packs runs once (defaults plus restricted)', () => {
    const ds = agent({ hostNetwork: true });
    const findings = allFindings([ds], { packs: [...ReviewPack.defaults(), ReviewPack.podSecurityRestricted()] });
    expect(findings.filter((f) => f.rules.includes('PSS-BASELINE-hostNamespaces'))).toHaveLength(1);
    expect(findings.filter((f) => f.rule.startsWith('NA-RBAC-'))).toHaveLength(0);
  });

  test('two different rules with one ID are an error', () => {
    class Impostor extends EveryContainerRule {
      public readonly id = 'NA-NAMESPACE';
    }
    expect(() => SecurityReview.review([], { packs: [ReviewPack.nodeAgentBaseline(), ReviewPack.custom('mine', [new Impostor()])] }))
      .toThrow('review options: two different rules have the ID NA-NAMESPACE (pack mine and an earlier pack): give each rule its own ID');
  });

  test('bad input fails with a clear error', () => {
    expect(() => SecurityReview.review({} as any)).toThrow('manifests must be a list of Kubernetes objects (parsed YAML documents)');
    expect(() => SecurityReview.review([agent(), null])).toThrow('manifests[1] must be a Kubernetes object (a mapping with apiVersion and kind), got null');
    expect(() => SecurityReview.review([], { podSecurityVersion: '1.2' })).toThrow(/pod security version "1.2" is older than the oldest supported policy version 1.25/);
    expect(() => SecurityReview.review([], { allowedRegistries: [''] })).toThrow(/allowedRegistries must be a list of registry hosts/);
    expect(() => SecurityReview.review([], { packs: [{ id: 'fake', rules: [] } as any] })).toThrow(/packs must be ReviewPack objects/);
  });

  test('a violation may set its own severity and fix', () => {
    const rule = new ThrowingRule(Severity.LOW, () => [{ message: 'custom', severity: Severity.CRITICAL, fix: 'do this' }]);
    expect(allFindings([agent()], only(rule)).map((f) => [f.severity, f.fix])).toEqual([[Severity.CRITICAL, 'do this']]);
  });
});

describe('SecurityReview output', () => {
  const reasons = JSON.stringify([{ type: 'capability', detail: 'NET_ADMIN', container: 'agent', reason: 'programs routes' }]);
  const acks = JSON.stringify([{ rule: 'NA-PROBES', reason: 'the agent has no health endpoint yet' }]);
  const ds = agentWithContainer(
    {
      securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'], add: ['NET_ADMIN'] } },
      volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }],
      livenessProbe: undefined,
      readinessProbe: undefined,
    },
    { hostNetwork: true, priorityClassName: 'system-node-critical', volumes: [hostPathVolume('varlog', '/var/log', 'Directory')] },
    { annotations: { [REASONS]: reasons, [ACK]: acks } },
  );

  test('deterministic: the same manifests give the same JSON and Markdown', () => {
    const once = SecurityReview.review([ds, agent({}, { name: 'b' })]);
    const again = SecurityReview.review(JSON.parse(JSON.stringify([ds, agent({}, { name: 'b' })])));
    expect(SecurityReview.toJson(again)).toBe(SecurityReview.toJson(once));
    expect(SecurityReview.toMarkdown(again)).toBe(SecurityReview.toMarkdown(once));
  });

  test('JSON: the CLI shape, fixed key order, absent fields left out', () => {
    const json = JSON.parse(SecurityReview.toJson(SecurityReview.review([ds])));
    expect(Object.keys(json)).toEqual(['podSecurityVersion', 'packs', 'workloads']);
    const w = json.workloads[0];
    expect(Object.keys(w)).toEqual(['kind', 'namespace', 'namespaceSource', 'name', 'podSecurityLevel', 'hostAccess', 'findings']);
    expect(w.hostAccess.map((h: any) => [h.type, h.detail, h.risk, h.container ?? null, h.containers ?? null, h.reason ?? null])).toEqual([
      ['hostPath', '/var/log (read-only)', 'medium', null, ['agent'], null],
      ['hostNetwork', '', 'high', null, null, null],
      ['capability', 'NET_ADMIN', 'high', 'agent', ['agent'], 'programs routes'],
    ]);
    expect(Object.keys(w.hostAccess[0])).toEqual(['type', 'detail', 'risk', 'containers', 'attackerGains', 'saferAlternative']);
    expect(Object.keys(w.hostAccess[2])).toEqual(['type', 'detail', 'risk', 'container', 'containers', 'reason', 'attackerGains', 'saferAlternative']);
    const probes = w.findings.find((f: any) => f.rule === 'NA-PROBES');
    expect(Object.keys(probes)).toEqual(['rule', 'severity', 'message', 'fix', 'kind', 'namespace', 'name', 'container', 'field', 'rules', 'acknowledged', 'acknowledgedReason']);
    const hostNetwork = w.findings.find((f: any) => f.field === 'spec.template.spec.hostNetwork');
    expect(Object.keys(hostNetwork)).toEqual(['rule', 'severity', 'message', 'fix', 'kind', 'namespace', 'name', 'field', 'mergedRules', 'privilege', 'rules', 'podSecurity', 'acknowledged']);
    expect(hostNetwork.privilege).toEqual({ type: 'hostNetwork', detail: '' });
    expect(SecurityReview.toJson(SecurityReview.review([ds]))).toMatch(/\n$/);
  });

  test('Markdown: the level, every host privilege with its risk and reason (or none), open and acknowledged findings', () => {
    const md = SecurityReview.toMarkdown(SecurityReview.review([ds]));
    expect(md).toMatch(/^# Security review\n\n1 workload; Pod Security policy version 1\.28; packs node-agent-baseline, node-agent-practices, pss-baseline\.\n/);
    expect(md).toContain('## DaemonSet observability/node-agent\n\nPod Security level: privileged\n');
    // each open finding says what an attacker gains and the safer alternative: the entries point to it
    // by risk: hostNetwork and NET_ADMIN (high, in HostAccess order) before /var/log (medium)
    expect(md.indexOf('- hostNetwork: risk high')).toBeLessThan(md.indexOf('- capability NET_ADMIN'));
    expect(md.indexOf('- capability NET_ADMIN')).toBeLessThan(md.indexOf('- hostPath /var/log'));
    expect(md).toContain('Host access (3, by risk):\n\n- hostNetwork: risk high\n');
    expect(md).toContain('- hostPath /var/log (read-only) in container "agent": risk medium\n  - reason: no reason recorded\n' +
      '  - attacker gains and safer alternative: in the open finding [medium] NA-HOST-ACCESS-REASON (container "agent") below\n');
    expect(md).toContain('- hostNetwork: risk high\n  - reason: no reason recorded\n  - attacker gains and safer alternative: in the open finding [high] NA-HOST-ACCESS-REASON below\n');
    expect(md).toContain('takes hostPath /var/log (read-only), which is medium risk: reads the logs of every pod');
    // an acknowledged finding shows no fix: its entry says it all
    expect(md).toContain('- capability NET_ADMIN in container "agent": risk high\n  - reason: programs routes\n  - attacker gains: NET_ADMIN: reconfigures');
    expect(md).toContain('- capability NET_ADMIN in container "agent": risk high\n  - reason: programs routes\n');
    // hostNetwork and /var/log: one finding each, their Pod Security checks merged
    expect(md).toContain('Open findings (3: 1 high, 2 medium):');
    // the pod runs as non-root (65534) with no privilege escalation: NET_ADMIN cannot take effect
    expect(md).toContain('- [medium] NA-CAPABILITY-INERT: DaemonSet observability/node-agent, container "agent": adds NET_ADMIN but runs as non-root ' +
      '(runAsUser: 65534 from the pod\'s securityContext) with allowPrivilegeEscalation: false');
    expect(md).toContain('- [high] NA-HOST-ACCESS-REASON (with PSS-BASELINE-hostNamespaces): DaemonSet observability/node-agent: takes hostNetwork, which is high risk: uses the node\'s network stack');
    expect(md).toContain('  - fix: add {"type":"hostNetwork","detail":"","reason":"..."} to the node-agents.cdk8s.io/host-access annotation');
    expect(md).toContain('Acknowledged findings (2):');
    expect(md).toContain('- [medium] NA-PROBES: DaemonSet observability/node-agent, container "agent": has no livenessProbe and no readinessProbe ' +
      '(spec.template.spec.containers[0].livenessProbe)\n  - acknowledged: the agent has no health endpoint yet\n');
    expect(md).toContain('- [high] NA-CAPABILITIES (with PSS-BASELINE-capabilities): DaemonSet observability/node-agent, container "agent": adds capability NET_ADMIN');
    expect(md).toContain('  - acknowledged: host-access reason for capability NET_ADMIN: programs routes\n');
  });

  test('Markdown without workloads says so', () => {
    expect(SecurityReview.toMarkdown(SecurityReview.review([]))).toContain('No workloads (DaemonSet, Deployment, StatefulSet, ReplicaSet, Job, CronJob, Pod) found.');
    expect(SecurityReview.toMarkdown({ workloads: [] })).toBe('# Security review\n\n0 workloads.\nOpen findings: none. Acknowledged: 0.\n\n' +
      'No workloads (DaemonSet, Deployment, StatefulSet, ReplicaSet, Job, CronJob, Pod) found.\n');
  });
});
