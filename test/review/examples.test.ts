import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { HostAccessReasons, HostAccessType } from '../../src/model';
import { ReviewPack, SecurityReview, Severity } from '../../src/review';
import { runCli } from '../cli/run-cli';
import { guideFixture } from '../util/guide';
import { validateManifest } from '../util/k8s-schema';

const ROOT = path.join(__dirname, '..', '..');
const CHART_SHAPED = path.join(ROOT, 'examples', 'review', 'chart-shaped.yaml');

function loadYamlStream(file: string): any[] {
  return parseAllDocuments(fs.readFileSync(file, 'utf-8')).map((d) => d.toJS()).filter((o) => o !== null);
}

/**
 * The source document's section 4.2 manifest (copied verbatim into test/examples/fixtures), completed into a deployable
 * DaemonSet the way the document's baseline asks: `drop: [ALL]` moved inside `capabilities` (the document has it one
 * level too high), a reason for each host privilege, a dedicated namespace and ServiceAccount, resources, probes,
 * seccomp and no privilege escalation.
 */
function sectionFourTwoAgent(): any[] {
  const fragment = guideFixture('4-2-least-privilege');
  const pod = fragment.spec.template.spec;
  const container = pod.containers[0];
  const { drop, ...securityContext } = container.securityContext;
  expect(drop).toEqual(['ALL']); // the document's misplaced drop
  container.securityContext = { ...securityContext, capabilities: { ...securityContext.capabilities, drop }, allowPrivilegeEscalation: false };
  container.resources = { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } };
  container.ports = [{ name: 'health', containerPort: 8080 }];
  container.livenessProbe = { httpGet: { path: '/healthz', port: 'health' } };
  container.readinessProbe = { httpGet: { path: '/healthz', port: 'health' } };
  const reasons = HostAccessReasons.format([
    { type: HostAccessType.CAPABILITY, detail: 'NET_ADMIN', container: 'agent', reason: 'network management only (仅网络管理)' },
    { type: HostAccessType.CAPABILITY, detail: 'SYS_PTRACE', container: 'agent', reason: 'process tracing only, as Falco does (仅进程追踪)' },
    { type: HostAccessType.HOST_PATH, detail: '/var/log (read-only)', reason: 'reads node and container logs' },
  ]);
  const labels = { 'app.kubernetes.io/name': 'node-agent' };
  const daemonSet = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'node-agent', namespace: 'observability', labels, annotations: { [HostAccessReasons.ANNOTATION]: reasons } },
    spec: {
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          ...pod,
          serviceAccountName: 'node-agent',
          automountServiceAccountToken: false,
          securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
        },
      },
    },
  };
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'observability' } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'node-agent', namespace: 'observability' }, automountServiceAccountToken: false },
    daemonSet,
  ];
}

describe('the source document\'s section 4.2 agent', () => {
  const manifests = sectionFourTwoAgent();

  test('is a valid manifest', () => {
    for (const m of manifests) expect(validateManifest(m)).toEqual([]);
  });

  test('passes the default packs with every host privilege explained, but for its capabilities, which cannot take effect as non-root', () => {
    const report = SecurityReview.review(manifests, { allowedRegistries: ['registry.example.com'] });
    expect(report.workloads).toHaveLength(1);
    const [w] = report.workloads;
    // runAsNonRoot: true with allowPrivilegeEscalation: false: on a real node the process had CapEff 0
    expect(SecurityReview.openFindings(report, Severity.LOW).map((f) => [f.rule, f.severity, f.container, f.message])).toEqual([[
      'NA-CAPABILITY-INERT', Severity.MEDIUM, 'agent',
      expect.stringContaining('adds NET_ADMIN, SYS_PTRACE but runs as non-root (runAsNonRoot: true and no runAsUser: the image\'s user, which the kubelet requires to be non-root) with allowPrivilegeEscalation: false'),
    ]]);
    expect(w.podSecurityLevel).toBe('privileged');
    expect(w.hostAccess.map((h) => [h.type, h.detail, h.risk, h.reason])).toEqual([
      ['hostPath', '/var/log (read-only)', 'medium', 'reads node and container logs'],
      ['capability', 'NET_ADMIN', 'high', 'network management only (仅网络管理)'],
      // without hostPID the agent traces only its own pod's processes
      ['capability', 'SYS_PTRACE', 'medium', 'process tracing only, as Falco does (仅进程追踪)'],
    ]);
    // the findings that exist only because of the privileges stay in the report, accepted by their reasons
    // one per privilege: each capability with its Pod Security check, and /var/log's check, which the path's reason accepts
    expect(w.findings.map((f) => [f.rules, f.severity, f.acknowledged, f.acknowledgedReason])).toEqual([
      [['NA-CAPABILITIES', 'PSS-BASELINE-capabilities'], Severity.HIGH, true, 'host-access reason for capability NET_ADMIN: network management only (仅网络管理)'],
      [['NA-CAPABILITIES', 'PSS-BASELINE-capabilities'], Severity.MEDIUM, true, 'host-access reason for capability SYS_PTRACE: process tracing only, as Falco does (仅进程追踪)'],
      [['NA-CAPABILITY-INERT'], Severity.MEDIUM, false, undefined],
      [['PSS-BASELINE-hostPathVolumes'], Severity.MEDIUM, true, 'host-access reason for hostPath /var/log (read-only): reads node and container logs'],
    ]);
  });

  test('without its reasons, the same agent has open findings for every privilege, one per privilege', () => {
    const bare = JSON.parse(JSON.stringify(manifests));
    delete bare[2].metadata.annotations;
    const open = SecurityReview.openFindings(SecurityReview.review(bare), Severity.LOW);
    expect(open.map((f) => `${f.severity} ${f.rule}${f.mergedRules ? ` (${f.mergedRules.join(', ')})` : ''} ${f.container ?? '-'}`)).toEqual([
      'high NA-CAPABILITIES (NA-HOST-ACCESS-REASON, PSS-BASELINE-capabilities) agent',
      'medium NA-CAPABILITIES (NA-HOST-ACCESS-REASON, PSS-BASELINE-capabilities) agent',
      'medium NA-CAPABILITY-INERT agent',
      'medium NA-HOST-ACCESS-REASON (PSS-BASELINE-hostPathVolumes) agent',
    ]);
  });
});

describe('examples/review/chart-shaped.yaml', () => {
  const manifests = loadYamlStream(CHART_SHAPED);

  test('is valid against the Kubernetes schema', () => {
    expect(manifests.map((m) => m.kind)).toEqual(['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'Service', 'DaemonSet']);
    for (const m of manifests) expect(validateManifest(m)).toEqual([]);
  });

  test('gets the findings a fluent-bit chart\'s defaults deserve', () => {
    const report = SecurityReview.review(manifests);
    expect(report.workloads.map((w) => [w.kind, w.namespace, w.name, w.podSecurityLevel])).toEqual([['DaemonSet', 'default', 'fluent-bit', 'privileged']]);
    const [w] = report.workloads;
    expect(w.hostAccess.map((h) => `${h.type} ${h.detail} ${h.risk} ${h.reason ?? 'no reason'}`)).toEqual([
      'hostPath /etc/machine-id (read-only) low no reason',
      'hostPath /var/lib/docker/containers (read-only) high no reason',
      'hostPath /var/log (read-write) high no reason',
      'runAsRoot fluent-bit medium no reason',
    ]);
    const p = 'spec.template.spec';
    // one finding per privilege: the writable /var/log, the read-only /var/lib/docker/containers (both without a hostPath type),
    // /etc/machine-id, root; each names the rules and the Pod Security check merged into it
    expect(w.findings.map((f) => [f.severity, f.rule, f.field, f.acknowledged, f.mergedRules])).toEqual([
      ['high', 'NA-HOSTPATH-SENSITIVE', `${p}.containers[0].volumeMounts[1].readOnly`, false,
        ['NA-HOSTPATH-WRITABLE', 'NA-HOST-ACCESS-REASON', 'PSS-BASELINE-hostPathVolumes', 'NA-HOSTPATH-TYPE']],
      ['high', 'NA-HOSTPATH-SENSITIVE', `${p}.volumes[2].hostPath.path`, false, ['NA-HOST-ACCESS-REASON', 'PSS-BASELINE-hostPathVolumes', 'NA-HOSTPATH-TYPE']],
      ['medium', 'NA-NAMESPACE', 'metadata.namespace', false, undefined],
      ['medium', 'NA-PRIVILEGE-ESCALATION', `${p}.containers[0].securityContext.allowPrivilegeEscalation`, false, undefined],
      ['medium', 'NA-READONLY-ROOTFS', `${p}.containers[0].securityContext.readOnlyRootFilesystem`, false, undefined],
      ['medium', 'NA-RESOURCES', `${p}.containers[0].resources`, false, undefined],
      ['medium', 'NA-RUN-AS-NON-ROOT', `${p}.containers[0].securityContext.runAsNonRoot`, false, ['NA-HOST-ACCESS-REASON']],
      ['medium', 'NA-SECCOMP', `${p}.securityContext.seccompProfile.type`, false, undefined],
      ['low', 'NA-HOST-ACCESS-REASON', `${p}.volumes[3].hostPath`, false, ['PSS-BASELINE-hostPathVolumes']],
    ]);
    expect(w.findings.find((f) => f.field === `${p}.volumes[2].hostPath.path`)!.message).toBe(
      'DaemonSet default/fluent-bit, container "fluent-bit": mounts host path /var/lib/docker/containers read-only at /var/lib/docker/containers, ' +
      'which is high risk: reads every container\'s log (<id>-json.log) and configuration (config.v2.json), which holds its environment variables: ' +
      'the secrets passed as env; hostPath volume "varlibdockercontainers" (/var/lib/docker/containers) sets no type: nothing is checked before ' +
      'it is mounted; no reason is recorded for it in annotation node-agents.cdk8s.io/host-access; fails Pod Security baseline check ' +
      'hostPathVolumes (spec.template.spec.volumes[2].hostPath.path)');
  });

  test('with the restricted pack and an allowed registry: the image registry passes, restricted fails on hostPath and root', () => {
    const report = SecurityReview.review(manifests, { packs: [ReviewPack.podSecurityRestricted(), ReviewPack.nodeAgentBaseline()], allowedRegistries: ['cr.fluentbit.io'] });
    const rules = report.workloads[0].findings.map((f) => f.rule);
    expect(rules).not.toContain('NA-IMAGE-REGISTRY');
    expect(rules.filter((r) => r.startsWith('PSS-RESTRICTED'))).toEqual([
      'PSS-RESTRICTED-allowPrivilegeEscalation', 'PSS-RESTRICTED-capabilities', 'PSS-RESTRICTED-restrictedVolumes',
      'PSS-RESTRICTED-runAsNonRoot', 'PSS-RESTRICTED-seccompProfile',
    ]);
    expect(SecurityReview.review(manifests, { allowedRegistries: ['registry.example.com'] }).workloads[0].findings.map((f) => f.rule)).toContain('NA-IMAGE-REGISTRY');
  });

  test('the README shows the command\'s current output', async () => {
    const readme = fs.readFileSync(path.join(ROOT, 'examples', 'review', 'README.md'), 'utf-8');
    const command = '$ node bin/cdk8s-node-agents review examples/review/chart-shaped.yaml\n';
    const start = readme.indexOf(command);
    expect(start).toBeGreaterThan(0);
    const shown = readme.slice(start + command.length, readme.indexOf('```', start));
    const run = await runCli('review', path.relative(process.cwd(), CHART_SHAPED));
    expect(run.code).toBe(0);
    expect(shown).toBe(run.stdout);
    expect(readme).toContain('## 2. The same agent built with cdk8s-node-agents');
  });
});
