import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiObject, App, Chart, Duration, JsonPatch, Size, Testing } from 'cdk8s';
import { Capability, Cpu, DnsPolicy, HostPathVolumeType, MountPropagation, PercentOrAbsolute, Protocol, TaintEffect } from 'cdk8s-plus-28';
import { acknowledgeAll } from './review-helper';
import {
  AgentProbe, AgentUpdateStrategy, HostAccessReasons, HostAccessType, HostMount, NodeAgent, NodeAgentProps,
  NodeRequirement, PodSecurity, PodSecurityLevel, SecurityCheck, SecurityReview, Severity, Toleration,
} from '../../src';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';

function chart(namespace?: string): Chart {
  return new Chart(Testing.app(), 'test', { namespace });
}

/**
 * synthesizes one agent and returns its manifests, validated strictly. `acknowledged` lists review rules
 * whose findings the test accepts (critical findings, e.g. of privileged agents, fail the synth otherwise).
 */
function synth(props: Partial<NodeAgentProps> = {}, acknowledged: string[] = []): any[] {
  const c = chart();
  const agent = new NodeAgent(c, 'node-agent', { image, ...props });
  for (const rule of acknowledged) agent.acknowledge(rule, 'accepted in this test');
  return synthValid(c);
}

function find(manifests: any[], kind: string): any {
  const found = manifests.filter((m) => m.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0];
}

function podSpec(manifests: any[]): any {
  return find(manifests, 'DaemonSet').spec.template.spec;
}

function mainContainer(manifests: any[]): any {
  return podSpec(manifests).containers[0];
}

function reasons(manifests: any[]): any[] {
  return HostAccessReasons.parse(find(manifests, 'DaemonSet').metadata.annotations);
}

describe('defaults', () => {
  const manifests = synth();

  test('renders a Namespace, a ServiceAccount and a DaemonSet, nothing else', () => {
    expect(manifests.map((m) => m.kind).sort()).toEqual(['DaemonSet', 'Namespace', 'ServiceAccount']);
  });

  test('default child is the DaemonSet', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image });
    expect(ApiObject.of(agent).kind).toEqual('DaemonSet');
    expect(agent.daemonSet.kind).toEqual('DaemonSet');
  });

  test('dedicated namespace named after the agent', () => {
    const ds = find(manifests, 'DaemonSet');
    expect(ds.metadata.namespace).toEqual('node-agent');
    expect(find(manifests, 'Namespace').metadata.name).toEqual('node-agent');
    expect(find(manifests, 'Namespace').metadata.namespace).toBeUndefined();
  });

  test('selector derives from the name only', () => {
    const ds = find(manifests, 'DaemonSet');
    expect(ds.spec.selector).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'node-agent' } });
    expect(ds.spec.template.metadata.labels).toEqual({ 'app.kubernetes.io/name': 'node-agent' });
  });

  test('rolling update one node at a time and 10 revisions', () => {
    const ds = find(manifests, 'DaemonSet');
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } });
    expect(ds.spec.revisionHistoryLimit).toEqual(10);
    expect(ds.spec.minReadySeconds).toBeUndefined();
  });

  test('linux nodes only, no tolerations, no affinity', () => {
    const spec = podSpec(manifests);
    expect(spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(spec.tolerations).toBeUndefined();
    expect(spec.affinity).toBeUndefined();
    expect(spec.priorityClassName).toBeUndefined();
  });

  test('least privilege: seccomp RuntimeDefault, non-root, read-only root, no escalation, drop ALL', () => {
    const spec = podSpec(manifests);
    expect(spec.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(mainContainer(manifests).securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
    });
    expect(spec.hostNetwork).toBeUndefined();
    expect(spec.hostPID).toBeUndefined();
    expect(spec.hostIPC).toBeUndefined();
    expect(spec.volumes).toBeUndefined();
  });

  test('no host privilege, so no reasons annotation, and the pod is restricted', () => {
    expect(find(manifests, 'DaemonSet').metadata.annotations).toBeUndefined();
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image });
    expect(agent.podSecurityLevel).toEqual(PodSecurityLevel.RESTRICTED);
    expect(find(Testing.synth(c), 'Namespace').metadata.labels).toEqual({
      'app.kubernetes.io/managed-by': 'cdk8s-node-agents',
      'pod-security.kubernetes.io/enforce': 'restricted',
      'pod-security.kubernetes.io/enforce-version': 'v1.28',
      'pod-security.kubernetes.io/warn': 'restricted',
      'pod-security.kubernetes.io/warn-version': 'v1.28',
      'pod-security.kubernetes.io/audit': 'restricted',
      'pod-security.kubernetes.io/audit-version': 'v1.28',
    });
  });

  test('container: name agent, IfNotPresent, requests and a memory limit but no CPU limit', () => {
    const container = mainContainer(manifests);
    expect(container.name).toEqual('agent');
    expect(container.image).toEqual(image);
    expect(container.imagePullPolicy).toEqual('IfNotPresent');
    expect(container.resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } });
  });

  test('NODE_NAME, POD_NAME and POD_NAMESPACE from the downward API', () => {
    expect(mainContainer(manifests).env).toEqual([
      { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
    ]);
  });

  test('dedicated ServiceAccount without a token when the agent has no permissions', () => {
    const sa = find(manifests, 'ServiceAccount');
    expect(sa.metadata).toMatchObject({ name: 'node-agent', namespace: 'node-agent' });
    expect(sa.automountServiceAccountToken).toBe(false);
    expect(podSpec(manifests).serviceAccountName).toEqual('node-agent');
    expect(podSpec(manifests).automountServiceAccountToken).toBe(false);
  });

  test('snapshot', () => {
    expect(manifests).toMatchSnapshot();
  });
});

describe('identity and naming', () => {
  test('name overrides the construct id; refactoring the construct path keeps the selector', () => {
    const a = chart();
    new NodeAgent(a, 'old-id', { image, name: 'collector' });
    const b = new Chart(Testing.app(), 'renamed-chart');
    new NodeAgent(new Chart(b, 'nested'), 'new-id', { image, name: 'collector' });
    const selA = find(synthValid(a), 'DaemonSet').spec.selector;
    const selB = find(Testing.synth(b.node.children[0] as Chart), 'DaemonSet').spec.selector;
    expect(selA).toEqual(selB);
    expect(selA).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'collector' } });
  });

  test('chart namespace is used when no namespace is given', () => {
    const c = chart('observability');
    new NodeAgent(c, 'node-agent', { image });
    const manifests = synthValid(c);
    expect(find(manifests, 'DaemonSet').metadata.namespace).toEqual('observability');
    expect(find(manifests, 'Namespace').metadata).toEqual(expect.objectContaining({ name: 'observability' }));
    expect(find(manifests, 'Namespace').metadata.namespace).toBeUndefined();
  });

  test('createNamespace false renders no Namespace', () => {
    const manifests = synth({ namespace: 'kube-system', createNamespace: false });
    expect(manifests.map((m) => m.kind)).not.toContain('Namespace');
    expect(find(manifests, 'DaemonSet').metadata.namespace).toEqual('kube-system');
  });

  test('two agents in one namespace share one Namespace, enforced at the less strict level', () => {
    const c = chart();
    new NodeAgent(c, 'a', { image, namespace: 'observability' });
    new NodeAgent(c, 'b', { image, namespace: 'observability', hostPID: { reason: 'sees node processes' } });
    const manifests = synthValid(c);
    const namespaces = manifests.filter((m) => m.kind === 'Namespace');
    expect(namespaces).toHaveLength(1);
    expect(namespaces[0].metadata.labels['pod-security.kubernetes.io/enforce']).toEqual('privileged');
  });

  test('extra labels reach every object and the pods but not the selector', () => {
    const manifests = synth({ labels: { team: 'platform' } });
    expect(find(manifests, 'DaemonSet').spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'node-agent' });
    expect(find(manifests, 'DaemonSet').spec.template.metadata.labels.team).toEqual('platform');
    expect(find(manifests, 'ServiceAccount').metadata.labels.team).toEqual('platform');
  });

  test('isNodeAgent', () => {
    const c = chart();
    expect(NodeAgent.isNodeAgent(new NodeAgent(c, 'x', { image }))).toBe(true);
    expect(NodeAgent.isNodeAgent(c)).toBe(false);
    expect(NodeAgent.isNodeAgent(undefined)).toBe(false);
  });

  test.each([
    ['name', { name: 'Node_Agent' }, /name "Node_Agent" is not a valid name/],
    ['namespace', { namespace: 'has space' }, /namespace "has space" is not a valid name/],
    ['label key', { labels: { 'bad key': 'x' } }, /labels: "bad key" is not a valid label key/],
    ['label value', { labels: { team: 'has space' } }, /labels.team: "has space" is not a valid label value/],
    ['selector label', { labels: { 'app.kubernetes.io/name': 'x' } }, /is set by the agent/],
    ['psa version', { podSecurityVersion: 'v-next' }, /v-next/],
  ])('fails on a bad %s', (_, props, message) => {
    expect(() => synth(props as any)).toThrow(message);
  });
});

describe('image', () => {
  test.each([
    ['registry.example.com/node-agent:1.2.0'],
    ['nginx:1.27-alpine'],
    ['localhost:5000/agent:v1'],
    [`quay.io/cilium/cilium:v1.13.18@sha256:${'a'.repeat(64)}`],
    [`quay.io/cilium/cilium@sha256:${'b'.repeat(64)}`],
  ])('accepts pinned %s', (img) => {
    expect(mainContainer(synth({ image: img })).image).toEqual(img);
  });

  test.each([
    ['', /image is empty/],
    ['   ', /image is empty/],
    ['registry.example.com/node-agent', /is not pinned/],
    ['nginx', /is not pinned/],
    ['nginx:latest', /uses the "latest" tag/],
    ['Nginx:1.0', /not a valid image reference/],
    ['nginx:1.0@sha256:short', /not a valid image reference/],
  ])('fails on %j', (img, message) => {
    expect(() => synth({ image: img })).toThrow(message);
  });

  test('fails with the construct path in the message', () => {
    expect(() => synth({ image: 'nginx:latest' })).toThrow(/^\[test\/node-agent\] image "nginx:latest"/);
  });

  test('allowed registries are enforced for every container, Docker Hub counting as docker.io', () => {
    expect(() => synth({ allowedRegistries: ['registry.example.com'] })).not.toThrow();
    expect(() => synth({ image: 'nginx:1.27', allowedRegistries: ['registry.example.com'] })).toThrow(/registry "docker.io", which is not in allowedRegistries \[registry.example.com\]/);
    expect(() => synth({
      allowedRegistries: ['registry.example.com'],
      sidecars: [{ name: 'proxy', image: 'quay.io/brancz/kube-rbac-proxy:v0.14.2' }],
    })).toThrow(/sidecars\[proxy\].image .* registry "quay.io"/);
  });
});

describe('placement', () => {
  test('nodeSelector adds to the linux default; linuxOnly false removes it', () => {
    expect(podSpec(synth({ nodeSelector: { 'node-role.kubernetes.io/worker': '' } })).nodeSelector)
      .toEqual({ 'kubernetes.io/os': 'linux', 'node-role.kubernetes.io/worker': '' });
    expect(podSpec(synth({ linuxOnly: false })).nodeSelector).toBeUndefined();
    expect(podSpec(synth({ nodeSelector: { 'kubernetes.io/os': 'windows' } })).nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
  });

  test('required and preferred node affinity with every operator', () => {
    const spec = podSpec(synth({
      requiredNodeAffinity: [
        { requirements: [NodeRequirement.isIn('zone', ['a', 'b']), NodeRequirement.notIn('pool', ['spot'])] },
        { requirements: [NodeRequirement.exists('gpu'), NodeRequirement.doesNotExist('virtual'), NodeRequirement.greaterThan('cores', 4), NodeRequirement.lessThan('gen', 10), NodeRequirement.named('node-1')] },
      ],
      preferredNodeAffinity: [{ weight: 100, requirements: [NodeRequirement.isIn('disk-type', ['ssd'])] }],
    }));
    expect(spec.affinity.nodeAffinity).toEqual({
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }, { key: 'pool', operator: 'NotIn', values: ['spot'] }] },
          {
            matchExpressions: [
              { key: 'gpu', operator: 'Exists' },
              { key: 'virtual', operator: 'DoesNotExist' },
              { key: 'cores', operator: 'Gt', values: ['4'] },
              { key: 'gen', operator: 'Lt', values: ['10'] },
            ],
            matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }],
          },
        ],
      },
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 100, preference: { matchExpressions: [{ key: 'disk-type', operator: 'In', values: ['ssd'] }] } },
      ],
    });
  });

  test('tolerations: control plane, equal, exists, NoSchedule-only, everything, NoExecute with seconds', () => {
    const spec = podSpec(synth({
      tolerations: [
        Toleration.controlPlane(),
        Toleration.equal('dedicated', 'gpu', { effect: TaintEffect.NO_SCHEDULE }),
        Toleration.exists('example.com/maintenance', { effect: TaintEffect.NO_EXECUTE, evictAfter: Duration.minutes(5) }),
        Toleration.allNoSchedule(),
        Toleration.everything(),
      ],
    }));
    expect(spec.tolerations).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
      { key: 'example.com/maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { operator: 'Exists', effect: 'NoSchedule' },
      { operator: 'Exists' },
    ]);
  });

  test('addToleration and addNodeSelector after construction are rendered', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image });
    agent.addToleration(Toleration.controlPlane());
    agent.addNodeSelector('agent', 'enabled');
    const spec = podSpec(synthValid(c));
    expect(spec.tolerations).toHaveLength(1);
    expect(spec.nodeSelector.agent).toEqual('enabled');
  });

  test('priorityClassName', () => {
    expect(podSpec(synth({ priorityClassName: 'system-node-critical' })).priorityClassName).toEqual('system-node-critical');
  });

  test.each([
    ['an empty required affinity', () => ({ requiredNodeAffinity: [] }), /requiredNodeAffinity is empty/],
    ['a term without requirements', () => ({ requiredNodeAffinity: [{ requirements: [] }] }), /requiredNodeAffinity\[0\] has no requirements/],
    ['In without values', () => ({ requiredNodeAffinity: [{ requirements: [NodeRequirement.isIn('zone', [])] }] }), /NodeRequirement\.isIn\("zone"\) needs at least one value/],
    ['a weight of 0', () => ({ preferredNodeAffinity: [{ weight: 0, requirements: [NodeRequirement.exists('x')] }] }), /weight must be a whole number from 1 to 100, got 0/],
    ['a weight of 101', () => ({ preferredNodeAffinity: [{ weight: 101, requirements: [NodeRequirement.exists('x')] }] }), /got 101/],
    ['Gt with a fraction', () => ({ requiredNodeAffinity: [{ requirements: [NodeRequirement.greaterThan('cores', 1.5)] }] }), /Gt on "cores" needs a whole number, got 1.5/],
    ['a bad selector key', () => ({ nodeSelector: { 'a b': 'x' } }), /nodeSelector: "a b" is not a valid label key/],
    ['a bad selector value', () => ({ nodeSelector: { a: 'x y' } }), /nodeSelector.a: "x y" is not a valid label value/],
    ['evictAfter without NoExecute', () => ({ tolerations: [Toleration.exists('k', { evictAfter: Duration.seconds(5) })] }), /evictAfter applies only to NoExecute/],
    ['a duplicate toleration', () => ({ tolerations: [Toleration.controlPlane(), Toleration.controlPlane()] }), /is given twice/],
    ['a bad priority class', () => ({ priorityClassName: 'Not Valid' }), /priorityClassName "Not Valid"/],
    // the values are built inside the check: the factories reject their own bad arguments, the agent the rest
  ])('fails on %s', (_, props, message) => {
    expect(() => synth(props() as any)).toThrow(message);
  });
});

describe('rollout', () => {
  test.each([
    [AgentUpdateStrategy.rollingUpdate({ maxUnavailable: PercentOrAbsolute.absolute(1) }), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }],
    [AgentUpdateStrategy.rollingUpdate({ maxUnavailable: PercentOrAbsolute.percent(10) }), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } }],
    [AgentUpdateStrategy.rollingUpdate({ maxSurge: PercentOrAbsolute.absolute(1) }), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } }],
    [AgentUpdateStrategy.rollingUpdate({ maxUnavailable: PercentOrAbsolute.percent(0), maxSurge: PercentOrAbsolute.percent(25) }), { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '0%', maxSurge: '25%' } }],
    [AgentUpdateStrategy.onDelete(), { type: 'OnDelete' }],
  ])('renders %#', (strategy, expected) => {
    expect(find(synth({ updateStrategy: strategy }), 'DaemonSet').spec.updateStrategy).toEqual(expected);
  });

  test.each([
    ['both zero', { maxUnavailable: PercentOrAbsolute.absolute(0) }, /maxUnavailable/],
    ['both zero with surge 0%', { maxUnavailable: PercentOrAbsolute.absolute(0), maxSurge: PercentOrAbsolute.percent(0) }, /maxUnavailable/],
    ['both non-zero', { maxUnavailable: PercentOrAbsolute.absolute(1), maxSurge: PercentOrAbsolute.absolute(1) }, /maxSurge/],
    ['a percentage over 100%', { maxUnavailable: PercentOrAbsolute.percent(150) }, /150%/],
    ['a negative count', { maxUnavailable: PercentOrAbsolute.absolute(-1) }, /-1/],
  ])('fails on %s (in the factory, as the strategy is built)', (_, options, message) => {
    expect(() => synth({ updateStrategy: AgentUpdateStrategy.rollingUpdate(options) })).toThrow(message);
    expect(() => AgentUpdateStrategy.rollingUpdate(options)).toThrow(/^AgentUpdateStrategy\.rollingUpdate: /);
  });

  test('minReady and revisionHistoryLimit', () => {
    const ds = find(synth({ minReady: Duration.seconds(30), revisionHistoryLimit: 3 }), 'DaemonSet');
    expect(ds.spec.minReadySeconds).toEqual(30);
    expect(ds.spec.revisionHistoryLimit).toEqual(3);
    expect(() => synth({ revisionHistoryLimit: -1 })).toThrow(/revisionHistoryLimit must be a whole number from 0/);
  });

  test('rolloutPlan uses the rendered strategy', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'a', { image, updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxUnavailable: PercentOrAbsolute.percent(10) }) });
    const plan = agent.rolloutPlan(25);
    expect(plan.maxUnavailable).toEqual(3);
    expect(plan.waves).toEqual(9);
  });
});

describe('host access', () => {
  test('host mounts are read-only and typed Directory by default, at the same path', () => {
    const manifests = synth({ hostMounts: [HostMount.readOnly('/var/log', { reason: 'tails logs' })] });
    expect(podSpec(manifests).volumes).toEqual([{ name: 'host-var-log', hostPath: { path: '/var/log', type: 'Directory' } }]);
    expect(mainContainer(manifests).volumeMounts).toEqual([{ name: 'host-var-log', mountPath: '/var/log', readOnly: true }]);
    expect(reasons(manifests)).toEqual([{ type: 'hostPath', detail: '/var/log (read-only)', container: 'agent', reason: 'tails logs' }]);
  });

  test('each reason is also written as one annotation per privilege, in the form the admission policy reads', () => {
    const manifests = synth({ hostMounts: [HostMount.readOnly('/var/log', { reason: 'tails logs' })], hostNetwork: { reason: 'serves node metrics' } });
    const annotations = find(manifests, 'DaemonSet').metadata.annotations;
    expect(Object.fromEntries(Object.entries(annotations).filter(([k]) => k.startsWith('host-access.node-agents.cdk8s.io/')))).toEqual({
      'host-access.node-agents.cdk8s.io/hostnetwork': 'hostNetwork | serves node metrics',
      'host-access.node-agents.cdk8s.io/hostpath-var-log-read-only': 'hostPath /var/log (read-only) | tails logs',
    });
    expect(HostAccessReasons.parse(annotations).length).toBe(2);
  });

  test('an annotation under host-access.node-agents.cdk8s.io/ set by hand fails synth: those are written from the reasons', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image });
    agent.daemonSet.metadata.addAnnotation('host-access.node-agents.cdk8s.io/x', 'hostNetwork | hand-written');
    expect(() => Testing.synth(c)).toThrow('metadata.annotations host-access.node-agents.cdk8s.io/x: annotations under host-access.node-agents.cdk8s.io/ ' +
      'are written from the host-access reasons (node-agents.cdk8s.io/host-access) and must match them; remove them, and give each privilege ' +
      'its reason through the props or addHostAccessReason (not a JSON patch of the annotations)');
  });

  test('a JSON patch of the reasons annotation that the per-privilege annotations do not follow fails synth; one of both passes', () => {
    const build = (patches: JsonPatch[]) => {
      const c = chart();
      const agent = new NodeAgent(c, 'node-agent', { image, hostNetwork: { reason: 'serves node metrics' } });
      agent.daemonSet.addJsonPatch(...patches);
      return c;
    };
    const json = JSON.stringify([{ type: 'hostNetwork', detail: '', reason: 'reads host network statistics' }]);
    expect(() => Testing.synth(build([JsonPatch.replace('/metadata/annotations/node-agents.cdk8s.io~1host-access', json)])))
      .toThrow('metadata.annotations host-access.node-agents.cdk8s.io/hostnetwork: annotations under host-access.node-agents.cdk8s.io/');
    const both = build([
      JsonPatch.replace('/metadata/annotations/node-agents.cdk8s.io~1host-access', json),
      JsonPatch.replace('/metadata/annotations/host-access.node-agents.cdk8s.io~1hostnetwork', 'hostNetwork | reads host network statistics'),
    ]);
    expect(find(synthValid(both), 'DaemonSet').metadata.annotations['host-access.node-agents.cdk8s.io/hostnetwork']).toBe('hostNetwork | reads host network statistics');
  });

  test('a read-only mount needs a reason too, low risk or high: it is asked as the mount is built, and recorded', () => {
    expect(() => HostMount.readOnly('/var/lib/node-agent', { mountPath: '/state' } as any)).toThrow(/^HostMount\.readOnly\("\/var\/lib\/node-agent"\) needs a reason/);
    expect(() => (HostMount.readOnly as any)('/proc')).toThrow(/^HostMount\.readOnly\("\/proc"\) needs its options with a reason, got undefined/);
    // /proc, even read-only, is sensitive (every process's command line): its reason is recorded, and the review also asks for an acknowledgement
    expect(() => synth({ hostMounts: [HostMount.readOnly('/proc', { mountPath: '/host/proc', reason: 'reads process metrics' })] }))
      .toThrow(/\[high\] NA-HOSTPATH-SENSITIVE: .*mounts host path \/proc read-only at \/host\/proc/);
    const manifests = synth({ hostMounts: [HostMount.readOnly('/proc', { mountPath: '/host/proc', reason: 'reads process metrics' })] }, ['NA-HOSTPATH-SENSITIVE']);
    expect(mainContainer(manifests).volumeMounts).toEqual([{ name: 'host-proc', mountPath: '/host/proc', readOnly: true }]);
    expect(reasons(manifests)).toEqual([{ type: 'hostPath', detail: '/proc (read-only)', container: 'agent', reason: 'reads process metrics' }]);
  });

  test('a writable mount carries its reason into the annotation', () => {
    const manifests = synth({
      hostMounts: [HostMount.readWrite('/var/lib/fluent-bit', 'keeps tail positions', { type: HostPathVolumeType.DIRECTORY_OR_CREATE })],
    });
    expect(podSpec(manifests).volumes[0].hostPath).toEqual({ path: '/var/lib/fluent-bit', type: 'DirectoryOrCreate' });
    expect(mainContainer(manifests).volumeMounts[0].readOnly).toBeUndefined();
    expect(reasons(manifests)).toEqual([{ type: 'hostPath', detail: '/var/lib/fluent-bit (read-write)', container: 'agent', reason: 'keeps tail positions' }]);
  });

  test('HostToContainer propagation is rendered', () => {
    const manifests = synth({ hostMounts: [HostMount.readOnly('/sys', { mountPath: '/host/sys', propagation: MountPropagation.HOST_TO_CONTAINER, reason: 'reads hardware metrics' })] });
    expect(mainContainer(manifests).volumeMounts[0]).toEqual({ name: 'host-sys', mountPath: '/host/sys', readOnly: true, mountPropagation: 'HostToContainer' });
  });

  test('Bidirectional propagation needs privileged', () => {
    const bidi = HostMount.readWrite('/var/lib/kubelet', 'publishes volumes', { propagation: MountPropagation.BIDIRECTIONAL });
    expect(() => synth({ hostMounts: [bidi] })).toThrow(/Bidirectional propagation, which Kubernetes allows only in privileged containers/);
    const manifests = synth(
      { hostMounts: [bidi], privileged: { reason: 'Bidirectional mount propagation for volume publishing' } },
      ['NA-PRIVILEGED', 'PSS-BASELINE-privileged', 'NA-HOSTPATH-SENSITIVE'],
    );
    const sc = mainContainer(manifests).securityContext;
    expect(sc.privileged).toBe(true);
    expect(sc.allowPrivilegeEscalation).toBeUndefined();
  });

  // HostMount's factories reject these as the mount is built, before any agent sees it
  test.each([
    ['a relative path', () => HostMount.readOnly('var/log', { reason: 'r' }), /must be an absolute path/],
    ['a .. segment', () => HostMount.readOnly('/var/log/../../etc', { reason: 'r' }), /must not contain "." or ".." segments: write the path it resolves to, e.g. "\/etc"/],
    ['a . segment', () => HostMount.readOnly('/var/./log', { reason: 'r' }), /must not contain "." or ".."/],
    ['an empty segment', () => HostMount.readOnly('/var//log', { reason: 'r' }), /empty path segment/],
    ['a relative mount path', () => HostMount.readOnly('/var/log', { reason: 'r', mountPath: 'logs' }), /mountPath "logs" must be an absolute path/],
    ['a writable mount without reason', () => HostMount.readWrite('/var/log', ''), /needs a reason/],
    ['a multi-line reason', () => HostMount.readWrite('/var/log', 'a\nb'), /must be a single line/],
  ])('fails on %s', (_, mount, message) => {
    expect(() => synth({ hostMounts: [mount()] })).toThrow(message);
  });

  test('fails on duplicate mount paths', () => {
    expect(() => synth({ hostMounts: [HostMount.readOnly('/var/log', { reason: 'r' }), HostMount.readOnly('/var/log/', { reason: 'r', volumeName: 'other' })] }))
      .toThrow(/mount path "\/var\/log" is already used/);
    expect(() => synth({ hostMounts: [HostMount.readOnly('/a', { reason: 'r', mountPath: '/x' }), HostMount.readOnly('/b', { reason: 'r', mountPath: '/x' })] }))
      .toThrow(/mount path "\/x" is already used/);
  });

  test('two paths whose derived volume names coincide get two volumes', () => {
    const volumes = podSpec(synth({ hostMounts: [HostMount.readOnly('/var/log', { reason: 'r' }), HostMount.readOnly('/var-log', { reason: 'r' })] })).volumes;
    expect(volumes.map((v: any) => v.hostPath.path)).toEqual(['/var/log', '/var-log']);
    // one keeps the derived name, the other gets a hash of its path; which one is fixed by sorting the paths.
    expect(volumes.map((v: any) => v.name).sort()).toEqual(['host-var-log', expect.stringMatching(/^host-var-log-[0-9a-f]{8}$/)]);
  });

  test('fails when one host path is mounted with two types, or a chosen volume name is taken', () => {
    expect(() => synth({
      hostMounts: [HostMount.readOnly('/run/x', { reason: 'r', type: HostPathVolumeType.DIRECTORY })],
      sidecars: [{ name: 'side', image, hostMounts: [HostMount.readOnly('/run/x', { reason: 'r', type: HostPathVolumeType.SOCKET })] }],
    })).toThrow(/\[test\/node-agent\] host mounts: host path \/run\/x is mounted as \/run\/x \(Directory\) in container "agent" and as \/run\/x \(Socket\) in container "side"/);
    expect(() => synth({ configFiles: { a: 'b' }, hostMounts: [HostMount.readOnly('/var/log', { reason: 'r', volumeName: 'config' })] }))
      .toThrow(/volume name "config" is used for the config files and for host path \/var\/log/);
  });

  test('host namespaces with reasons; hostNetwork switches DNS to ClusterFirstWithHostNet', () => {
    const manifests = synth({
      hostNetwork: { reason: 'reads host network statistics' },
      hostPID: { reason: 'reads host processes' },
      hostIPC: { reason: 'inspects shared memory' },
    });
    const spec = podSpec(manifests);
    expect(spec).toMatchObject({ hostNetwork: true, hostPID: true, hostIPC: true, dnsPolicy: 'ClusterFirstWithHostNet' });
    expect(reasons(manifests)).toEqual([
      { type: 'hostIPC', detail: '', reason: 'inspects shared memory' },
      { type: 'hostNetwork', detail: '', reason: 'reads host network statistics' },
      { type: 'hostPID', detail: '', reason: 'reads host processes' },
    ]);
    expect(podSpec(synth({ hostNetwork: { reason: 'x y z' }, dnsPolicy: DnsPolicy.DEFAULT })).dnsPolicy).toEqual('Default');
  });

  test.each([['hostNetwork'], ['hostPID'], ['hostIPC']])('fails on %s without a reason', (field) => {
    expect(() => synth({ [field]: { reason: ' ' } })).toThrow(new RegExp(`${field} needs a reason`));
  });

  test('capabilities are added with reasons, all others dropped, to a root container', () => {
    const manifests = synth({
      runAsRoot: { reason: 'the added capabilities take effect only for root' },
      capabilities: [
        { capability: Capability.NET_ADMIN, reason: 'network management' },
        { capability: Capability.SYS_PTRACE, reason: 'process tracing' },
      ],
    });
    expect(mainContainer(manifests).securityContext).toMatchObject({
      capabilities: { add: ['NET_ADMIN', 'SYS_PTRACE'], drop: ['ALL'] }, runAsUser: 0, runAsNonRoot: false, allowPrivilegeEscalation: false,
    });
    expect(reasons(manifests)).toEqual([
      { type: 'capability', detail: 'NET_ADMIN', container: 'agent', reason: 'network management' },
      { type: 'capability', detail: 'SYS_PTRACE', container: 'agent', reason: 'process tracing' },
      { type: 'runAsRoot', detail: 'agent', container: 'agent', reason: 'the added capabilities take effect only for root' },
    ]);
  });

  test.each([
    ['a capability without reason', { capabilities: [{ capability: Capability.NET_ADMIN, reason: '' }] }, /capabilities NET_ADMIN needs a reason/],
    ['a capability twice', { capabilities: [{ capability: Capability.BPF, reason: 'a' }, { capability: Capability.BPF, reason: 'b' }] }, /BPF is listed twice/],
    ['ALL', { capabilities: [{ capability: Capability.ALL, reason: 'everything' }] }, /adding ALL capabilities is root on the node/],
    ['runAsUser 0', { runAsUser: 0 }, /runAsUser is 0 \(root\): to run as root, set runAsRoot/],
    ['runAsUser with runAsRoot', { runAsUser: 1000, runAsRoot: { reason: 'x' } }, /both set/],
    ['privileged without reason', { privileged: { reason: '' } }, /privileged needs a reason/],
  ])('fails on %s', (_, props, message) => {
    expect(() => synth(props as any)).toThrow(message);
  });

  test('running as root is explicit and recorded', () => {
    const manifests = synth({ runAsRoot: { reason: 'the image starts as root' } });
    expect(mainContainer(manifests).securityContext).toMatchObject({ runAsNonRoot: false, runAsUser: 0 });
    expect(podSpec(manifests).securityContext.runAsNonRoot).toBeUndefined();
    expect(reasons(manifests)).toEqual([{ type: 'runAsRoot', detail: 'agent', container: 'agent', reason: 'the image starts as root' }]);
  });

  test('runAsUser, runAsGroup and fsGroup', () => {
    const manifests = synth({ runAsUser: 65534, runAsGroup: 65534, fsGroup: 65534 });
    expect(mainContainer(manifests).securityContext).toMatchObject({ runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true });
    expect(podSpec(manifests).securityContext.fsGroup).toEqual(65534);
  });

  test('host ports carry a reason', () => {
    const manifests = synth({ ports: [{ name: 'metrics', containerPort: 9100, hostPort: { port: 9100, reason: 'scraped on the node address' } }] });
    expect(mainContainer(manifests).ports).toEqual([{ name: 'metrics', containerPort: 9100, hostPort: 9100, protocol: 'TCP' }]);
    expect(reasons(manifests)).toEqual([{ type: 'hostPort', detail: '9100/TCP', container: 'agent', reason: 'scraped on the node address' }]);
    expect(() => synth({ ports: [{ name: 'metrics', containerPort: 9100, hostPort: { port: 9100, reason: '' } }] })).toThrow(/hostPort needs a reason/);
  });

  test('privileged output is accepted by the API server: no allowPrivilegeEscalation=false beside privileged', () => {
    const manifests = synth({ privileged: { reason: 'loads a kernel module' } }, ['NA-PRIVILEGED', 'PSS-BASELINE-privileged']);
    const sc = mainContainer(manifests).securityContext;
    expect(sc.privileged).toBe(true);
    expect('allowPrivilegeEscalation' in sc).toBe(false);
    expect(reasons(manifests)).toEqual([{ type: 'privileged', detail: 'agent', container: 'agent', reason: 'loads a kernel module' }]);
  });

  test('the namespace is enforced at the level the agent needs', () => {
    const level = (props: Partial<NodeAgentProps>) => find(synth(props), 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce'];
    expect(level({})).toEqual('restricted');
    expect(level({ capabilities: [{ capability: Capability.CHOWN, reason: 'chowns files' }], runAsRoot: { reason: 'CHOWN takes effect only for root' } })).toEqual('baseline');
    expect(level({ hostMounts: [HostMount.readOnly('/var/log', { reason: 'r' })] })).toEqual('privileged');
    // Pod Security reads the AppArmor annotation (policy 1.28): an unconfined container is not baseline
    expect(level({ podAnnotations: { 'container.apparmor.security.beta.kubernetes.io/agent': 'unconfined' } })).toEqual('privileged');
    expect(level({ podAnnotations: { 'container.apparmor.security.beta.kubernetes.io/agent': 'runtime/default' } })).toEqual('restricted');
  });

  test('podSecurityVersion is pinned in the namespace labels', () => {
    const labels = find(synth({ podSecurityVersion: '1.32' }), 'Namespace').metadata.labels;
    expect(labels['pod-security.kubernetes.io/enforce-version']).toEqual('v1.32');
    expect(labels['pod-security.kubernetes.io/warn-version']).toEqual('v1.32');
  });
});

describe('security review at synth', () => {
  test('the DaemonSet checks what it renders: toJson() throws every open finding; review() and coverage() still inspect it', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image, privileged: { reason: 'loads a kernel module' } });
    let message = '';
    try {
      agent.daemonSet.toJson();
    } catch (e) {
      message = (e as Error).message;
    }
    const lines = message.split('\n');
    expect(lines[0]).toEqual('Validation failed with the following errors:');
    expect(lines.slice(1).map((l) => l.replace(/\]: .*/s, ']').replace(/^  \[test\/node-agent\] security review: \[(\w+)\] ([\w-]+):.*/, '$1 $2')))
      .toEqual(['critical NA-PRIVILEGED']);
    // one privilege, one finding: Pod Security's check is merged into it
    const open = agent.review().workloads[0].findings.filter((f) => !f.acknowledged && f.severity === 'critical');
    expect(open.map((f) => f.rules)).toEqual([['NA-PRIVILEGED', 'PSS-BASELINE-privileged', 'NA-PRIVILEGE-ESCALATION']]);
    expect(agent.coverage([{ metadata: { name: 'n1', labels: { 'kubernetes.io/os': 'linux' } } }]).desired).toEqual(1);
    expect(agent.rolloutPlan(10).maxUnavailable).toEqual(1);
  });

  test('App.synth reports every failing agent at once, before it writes any manifest', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-node-agents-fail-'));
    const app = new App({ outdir });
    new NodeAgent(new Chart(app, 'drivers'), 'kmod', { image, privileged: { reason: 'loads a kernel module' } });
    const collector = new NodeAgent(new Chart(app, 'logs'), 'collector', { image });
    collector.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/hostPID', true));
    let message = '';
    try {
      app.synth();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^Validation failed with the following errors:\n/);
    expect(message).toMatch(/\[drivers\/kmod\] security review: \[critical\] NA-PRIVILEGED/);
    expect(message).toMatch(/\[logs\/collector\] hostPID has no recorded reason/);
    expect(fs.readdirSync(outdir)).toEqual([]);
  });

  test('each App.synth checks again: a change between two synths fails the second', () => {
    const app = Testing.app();
    const agent = new NodeAgent(new Chart(app, 'observability'), 'node-agent', { image });
    expect(() => app.synthYaml()).not.toThrow();
    agent.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/hostIPC', true));
    expect(() => app.synthYaml()).toThrow(/\[observability\/node-agent\] hostIPC has no recorded reason/);
    agent.addHostAccessReason({ type: HostAccessType.HOST_IPC, detail: '', reason: 'shares memory with the node' });
    agent.acknowledge('PSS-BASELINE-hostNamespaces', 'shares memory with the node');
    expect(app.synthYaml()).toMatch(/hostIPC: true/);
  });

  test('an app of several charts checks and reviews each agent once per synth, not once per chart', () => {
    const app = Testing.app();
    const agents: NodeAgent[] = [];
    for (const cluster of ['a', 'b', 'c']) {
      const c = new Chart(app, `cluster-${cluster}`, { namespace: `agents-${cluster}` });
      agents.push(new NodeAgent(c, 'logs', { image }), new NodeAgent(c, 'metrics', { image }));
    }
    const gate = jest.spyOn(SecurityReview, '_openFindings');
    try {
      app.synthYaml();
      expect(gate).toHaveBeenCalledTimes(agents.length);
      gate.mockClear();
      app.synth();
      expect(gate).toHaveBeenCalledTimes(agents.length);
    } finally {
      gate.mockRestore();
    }
  });

  test('in a synth, each pod is evaluated for Pod Security once: the Namespace label takes the level the review evaluated', () => {
    const app = Testing.app();
    const c = new Chart(app, 'agents');
    new NodeAgent(c, 'logs', { image, namespace: 'shared', hostMounts: [HostMount.readOnly('/var/log', { reason: 'reads the logs' })] });
    new NodeAgent(c, 'metrics', { image, namespace: 'shared' });
    const pod = jest.spyOn(PodSecurity, 'evaluate');
    const workload = jest.spyOn(PodSecurity, 'evaluateWorkload');
    try {
      const yaml = app.synthYaml();
      // the review evaluates each agent's DaemonSet (evaluateWorkload, which evaluates its pod): nothing evaluates a pod again
      expect(workload).toHaveBeenCalledTimes(2);
      expect(pod).toHaveBeenCalledTimes(2);
      // the least strict of the two levels: a hostPath volume (/var/log) is not allowed at baseline
      expect(yaml).toMatch(/pod-security\.kubernetes\.io\/enforce: privileged/);
    } finally {
      pod.mockRestore();
      workload.mockRestore();
    }
  });

  test('a privileged agent fails synth until its critical findings are acknowledged, with the construct path', () => {
    expect(() => synth({ privileged: { reason: 'loads a kernel module' } })).toThrow(/\[test\/node-agent\] security review: \[critical\] NA-PRIVILEGED: .*agent.acknowledge\('NA-PRIVILEGED', 'reason', 'agent'\)/);
  });

  test('the first failing synth lists everything still needed: each reason, each acknowledgement, with a line to paste', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image, privileged: { reason: 'loads a kernel module' } });
    agent.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/hostPID', true));
    let lines: string[] = [];
    try {
      synthValid(c);
    } catch (e) {
      lines = (e as Error).message.split('\n').slice(1).map((l) => l.trim());
    }
    expect(lines.map((l) => /^\[test\/node-agent\] (?:(hostPID) has no recorded reason|security review: \[\w+\] ([\w-]+):)/.exec(l)?.slice(1).find((x) => x)))
      .toEqual(['hostPID', 'NA-PRIVILEGED']);
    // following the lines, one by one, is all it takes: the next synth passes. hostPID's reason accepts its Pod Security
    // part too (high, not critical), and the acknowledgement of NA-PRIVILEGED the privileged check merged into it
    agent.addHostAccessReason({ type: HostAccessType.HOST_PID, detail: '', reason: 'reads the node\'s processes' });
    agent.acknowledge('NA-PRIVILEGED', 'the kernel module driver needs it', 'agent');
    expect(find(synthValid(c), 'DaemonSet').spec.template.spec.hostPID).toBe(true);
  });

  test('acknowledgements are recorded on the DaemonSet and shown in the review', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image, privileged: { reason: 'loads a kernel module' } });
    agent.acknowledge('NA-PRIVILEGED', 'the kernel module driver needs it');
    agent.acknowledge('PSS-BASELINE-privileged', 'the kernel module driver needs it');
    const ds = find(synthValid(c), 'DaemonSet');
    expect(JSON.parse(ds.metadata.annotations['node-agents.cdk8s.io/acknowledged'])).toEqual([
      { rule: 'NA-PRIVILEGED', reason: 'the kernel module driver needs it' },
      { rule: 'PSS-BASELINE-privileged', reason: 'the kernel module driver needs it' },
    ]);
    const findings = agent.review().workloads[0].findings.filter((f) => f.rule === 'NA-PRIVILEGED');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ acknowledged: true, acknowledgedReason: 'the kernel module driver needs it' });
  });

  test('acknowledgements on a parent construct are inherited', () => {
    const c = chart();
    SecurityCheck.acknowledge(c, 'NA-PRIVILEGED', 'every agent of this chart is a privileged driver');
    SecurityCheck.acknowledge(c, 'PSS-BASELINE-privileged', 'every agent of this chart is a privileged driver');
    new NodeAgent(c, 'node-agent', { image, privileged: { reason: 'loads a kernel module' } });
    expect(() => synthValid(c)).not.toThrow();
  });

  test('reviewFailOn sets the threshold', () => {
    expect(() => synth({ privileged: { reason: 'x y z' }, reviewFailOn: Severity.CRITICAL })).toThrow(/NA-PRIVILEGED/);
    // the default agent has only low-severity hygiene findings at most
    expect(() => synth({ reviewFailOn: Severity.MEDIUM })).toThrow(/security review: \[medium\]/);
    expect(() => synth({ reviewFailOn: 'urgent' as any })).toThrow(/reviewFailOn "urgent" is not one of low, medium, high, critical/);
  });

  test('reasons explain non-critical findings about the privilege they justify', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image, capabilities: [{ capability: Capability.NET_ADMIN, reason: 'programs routes' }], runAsRoot: { reason: 'NET_ADMIN takes effect only for root' } });
    const findings = agent.review().workloads[0].findings.filter((f) => f.rule === 'NA-CAPABILITIES');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ acknowledged: true });
    expect(findings[0].acknowledgedReason).toContain('programs routes');
  });
});

describe('escape hatch', () => {
  test('JSON patches are kept, including fields cdk8s-plus drops', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image });
    agent.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/runtimeClassName', 'gvisor'));
    agent.daemonSet.addJsonPatch(JsonPatch.replace('/spec/updateStrategy/rollingUpdate/maxUnavailable', '10%'));
    const ds = find(synthValid(c), 'DaemonSet');
    expect(ds.spec.template.spec.runtimeClassName).toEqual('gvisor');
    expect(ds.spec.updateStrategy.rollingUpdate.maxUnavailable).toEqual('10%');
  });

  test('a read-only host path patched in needs its reason too: the synth names it, addHostAccessReason accepts it', () => {
    const patched = () => {
      const c = chart();
      const agent = new NodeAgent(c, 'node-agent', { image });
      agent.daemonSet.addJsonPatch(
        JsonPatch.add('/spec/template/spec/volumes', [{ name: 'logs', hostPath: { path: '/var/log', type: 'Directory' } }]),
        JsonPatch.add('/spec/template/spec/containers/0/volumeMounts', [{ name: 'logs', mountPath: '/var/log', readOnly: true }]),
      );
      return { c, agent };
    };
    const bare = patched();
    expect(() => synthValid(bare.c)).toThrow(/\[test\/node-agent\] hostPath \/var\/log \(read-only\) has no recorded reason: .*agent\.addHostAccessReason\(\{ type: HostAccessType\.HOST_PATH, detail: '\/var\/log \(read-only\)', reason: '\.\.\.' \}\)/);
    const explained = patched();
    explained.agent.addHostAccessReason({ type: HostAccessType.HOST_PATH, detail: '/var/log (read-only)', reason: 'tails container logs' });
    acknowledgeAll(explained.agent);
    expect(find(synthValid(explained.c), 'DaemonSet').spec.template.spec.volumes).toHaveLength(1);
  });

  test('a privilege patched in without a reason fails synth; with a recorded reason it passes', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image });
    agent.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/hostPID', true));
    expect(() => synthValid(c)).toThrow(/\[test\/node-agent\] hostPID has no recorded reason/);
    agent.addHostAccessReason({ type: HostAccessType.HOST_PID, detail: '', reason: 'sees node processes' });
    expect(podSpec(synthValid(c)).hostPID).toBe(true);
  });

  test('a change after a successful synth is checked again at the next synth', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image });
    expect(() => synthValid(c)).not.toThrow();
    agent.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/hostIPC', true));
    expect(() => synthValid(c)).toThrow(/hostIPC has no recorded reason/);
  });

  test('a privilege patched in with its reason raises the namespace\'s enforce level', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image });
    expect(agent.podSecurityLevel).toEqual(PodSecurityLevel.RESTRICTED);
    agent.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/hostPID', true));
    agent.addHostAccessReason({ type: HostAccessType.HOST_PID, detail: '', reason: 'sees node processes' });
    agent.acknowledge('PSS-BASELINE-hostNamespaces', 'sees node processes');
    expect(agent.podSecurityLevel).toEqual(PodSecurityLevel.PRIVILEGED);
    expect(find(synthValid(c), 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce']).toEqual('privileged');
  });

  test('a patched field of a type the API server cannot decode fails synth, naming the field (even one only a medium rule reads)', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image });
    agent.daemonSet.addJsonPatch(JsonPatch.replace('/spec/template/spec/containers/0/resources', 'lots'));
    expect(() => Testing.synth(c)).toThrow(/\[test\/node-agent\] security review: \[high\] NA-API-REJECTED: .*spec\.template\.spec\.containers\[0\]\.resources must be an object \(a ResourceRequirements\), got "lots"; the API server rejects this/);
  });

  test('App.synth reports the construct path of a missing reason', () => {
    const app = Testing.app();
    const c = new Chart(app, 'observability');
    const agent = new NodeAgent(c, 'node-agent', { image });
    agent.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/containers/0/securityContext/capabilities/add', ['SYS_ADMIN']));
    expect(() => app.synth()).toThrow(/observability\/node-agent.*capability SYS_ADMIN in container "agent" has no recorded reason/s);
  });
});

describe('runtime', () => {
  test('resources: custom requests and limits', () => {
    const manifests = synth({
      resources: { cpuRequest: Cpu.millis(10), memoryRequest: Size.mebibytes(40), memoryLimit: Size.mebibytes(256), cpuLimit: Cpu.units(1) },
    });
    expect(mainContainer(manifests).resources).toEqual({ requests: { cpu: '10m', memory: '40Mi' }, limits: { cpu: '1', memory: '256Mi' } });
    expect(() => synth({ resources: { memoryRequest: Size.mebibytes(512), memoryLimit: Size.mebibytes(256) } })).toThrow(/memoryLimit \(256Mi\) is below memoryRequest \(512Mi\)/);
  });

  test('probes', () => {
    const container = mainContainer(synth({
      ports: [{ name: 'http', containerPort: 2020 }],
      liveness: AgentProbe.httpGet('/', { port: 2020 }),
      readiness: AgentProbe.httpGet('/api/v1/health', { port: 2020, period: Duration.seconds(5), failureThreshold: 3 }),
      startup: AgentProbe.tcpSocket(2020, { initialDelay: Duration.seconds(3), timeout: Duration.seconds(5) }),
    }));
    expect(container.livenessProbe).toEqual({ httpGet: { path: '/', port: 2020 } });
    expect(container.readinessProbe).toEqual({ httpGet: { path: '/api/v1/health', port: 2020 }, periodSeconds: 5, failureThreshold: 3 });
    expect(container.startupProbe).toEqual({ tcpSocket: { port: 2020 }, initialDelaySeconds: 3, timeoutSeconds: 5 });
    expect(mainContainer(synth({ liveness: AgentProbe.exec(['cat', '/tmp/ok']) })).livenessProbe).toEqual({ exec: { command: ['cat', '/tmp/ok'] } });
    expect(() => synth({ liveness: AgentProbe.httpGet('health', { port: 80 }) })).toThrow(/path "health" must start with "\/"/);
    expect(() => synth({ liveness: AgentProbe.exec([]) })).toThrow(/exec probe needs a command/);
  });

  test('extra env after the downward-API variables; those cannot be overridden', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'a', { image, env: { LOG_LEVEL: 'info' } });
    agent.addEnv('EXTRA', '1');
    const env = mainContainer(synthValid(c)).env;
    expect(env.slice(3)).toEqual([{ name: 'LOG_LEVEL', value: 'info' }, { name: 'EXTRA', value: '1' }]);
    expect(() => synth({ env: { NODE_NAME: 'x' } })).toThrow(/NODE_NAME is set by the agent from the downward API/);
    expect(() => synth({ env: { '1BAD': 'x' } })).toThrow(/not a valid environment variable name/);
  });

  test('command, args, ports and termination grace period', () => {
    const manifests = synth({
      command: ['/bin/agent'],
      args: ['--verbose'],
      ports: [{ name: 'metrics', containerPort: 9100 }, { name: 'dns', containerPort: 53, protocol: Protocol.UDP }],
      terminationGracePeriod: Duration.seconds(60),
    });
    expect(mainContainer(manifests)).toMatchObject({
      command: ['/bin/agent'],
      args: ['--verbose'],
      ports: [{ name: 'metrics', containerPort: 9100, protocol: 'TCP' }, { name: 'dns', containerPort: 53, protocol: 'UDP' }],
    });
    expect(podSpec(manifests).terminationGracePeriodSeconds).toEqual(60);
    expect(() => synth({ ports: [{ name: 'metrics', containerPort: 1 }, { name: 'metrics', containerPort: 2 }] })).toThrow(/port name "metrics" is used twice/);
    expect(() => synth({ ports: [{ name: 'x', containerPort: 70000 }] })).toThrow(/containerPort must be a whole number from 1 to 65535, got 70000/);
  });

  test('config files: ConfigMap mounted read-only, checksum rolls the agent', () => {
    const manifests = synth({ configFiles: { 'agent.conf': 'level=info\n' } });
    const cm = find(manifests, 'ConfigMap');
    expect(cm.metadata).toMatchObject({ name: 'node-agent-config', namespace: 'node-agent' });
    expect(cm.data).toEqual({ 'agent.conf': 'level=info\n' });
    expect(mainContainer(manifests).volumeMounts).toEqual([{ name: 'config', mountPath: '/etc/node-agent', readOnly: true }]);
    expect(podSpec(manifests).volumes).toEqual([{ name: 'config', configMap: { name: 'node-agent-config' } }]);
    const checksum = (files: any) => find(synth({ configFiles: files }), 'DaemonSet').spec.template.metadata.annotations['checksum/config'];
    expect(checksum({ 'agent.conf': 'level=info\n' })).toMatch(/^[0-9a-f]{64}$/);
    expect(checksum({ 'agent.conf': 'level=info\n' })).toEqual(checksum({ 'agent.conf': 'level=info\n' }));
    expect(checksum({ 'agent.conf': 'level=debug\n' })).not.toEqual(checksum({ 'agent.conf': 'level=info\n' }));
    expect(() => synth({ configFiles: {} })).toThrow(/configFiles is empty/);
    expect(() => synth({ configFiles: { '../x': 'a' } })).toThrow(/"..\/x" is not a valid file name/);
    expect(() => synth({ configMountPath: '/etc/x' })).toThrow(/configMountPath is set but configFiles is not/);
  });

  test('scratch directories are writable emptyDirs', () => {
    const manifests = synth({ scratchDirs: ['/tmp'] });
    expect(podSpec(manifests).volumes).toEqual([{ name: 'agent-scratch-tmp', emptyDir: {} }]);
    expect(mainContainer(manifests).volumeMounts).toEqual([{ name: 'agent-scratch-tmp', mountPath: '/tmp' }]);
  });

  test('installer pattern: init container writes the host, the agent keeps a read-only mount of the same path', () => {
    const manifests = synth({
      hostMounts: [HostMount.readOnly('/opt/cni/bin', { reason: 'r' })],
      initContainers: [{
        name: 'install-cni',
        image: 'registry.example.com/cni-installer:1.0.0',
        hostMounts: [HostMount.readWrite('/opt/cni/bin', 'installs the CNI binaries')],
      }],
      sidecars: [{ name: 'exporter', image: 'registry.example.com/exporter:2.0.0' }],
    }, ['NA-HOSTPATH-SENSITIVE']);
    const spec = podSpec(manifests);
    expect(spec.volumes).toEqual([{ name: 'host-opt-cni-bin', hostPath: { path: '/opt/cni/bin', type: 'Directory' } }]);
    expect(spec.initContainers[0].volumeMounts).toEqual([{ name: 'host-opt-cni-bin', mountPath: '/opt/cni/bin' }]);
    expect(spec.containers[0].volumeMounts).toEqual([{ name: 'host-opt-cni-bin', mountPath: '/opt/cni/bin', readOnly: true }]);
    expect(spec.containers.map((c: any) => c.name)).toEqual(['agent', 'exporter']);
    expect(spec.containers[1].securityContext).toEqual(spec.containers[0].securityContext);
    expect(reasons(manifests)).toEqual([
      { type: 'hostPath', detail: '/opt/cni/bin (read-only)', container: 'agent', reason: 'r' },
      { type: 'hostPath', detail: '/opt/cni/bin (read-write)', container: 'install-cni', reason: 'installs the CNI binaries' },
    ]);
  });

  test.each([
    ['an init container with a probe', { initContainers: [{ name: 'init', image, readiness: AgentProbe.tcpSocket(1) }] }, /init containers run to completion/],
    ['a duplicate container name', { sidecars: [{ name: 'agent', image }] }, /container name "agent" is already used/],
    ['a bad sidecar image', { sidecars: [{ name: 'proxy', image: 'proxy' }] }, /sidecars\[proxy\].image "proxy" is not pinned/],
  ])('fails on %s', (_, props, message) => {
    expect(() => synth(props as any)).toThrow(message);
  });
});

describe('permissions', () => {
  test('cluster permissions: ClusterRole and binding without namespace, token mounted', () => {
    const c = chart('observability');
    new NodeAgent(c, 'collector', { image, clusterPermissions: [{ resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] }] });
    const manifests = synthValid(c);
    const role = find(manifests, 'ClusterRole');
    expect(role.metadata.name).toEqual('observability:collector');
    expect(role.metadata.namespace).toBeUndefined();
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] }]);
    const binding = find(manifests, 'ClusterRoleBinding');
    expect(binding.metadata.namespace).toBeUndefined();
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'observability:collector' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'collector', namespace: 'observability' }]);
    expect(find(manifests, 'ServiceAccount').automountServiceAccountToken).toBe(true);
    expect(podSpec(manifests).automountServiceAccountToken).toBe(true);
  });

  test('namespace permissions: Role and RoleBinding in the agent namespace', () => {
    const manifests = synth({ namespacePermissions: [{ resources: ['configmaps'], verbs: ['get'], resourceNames: ['agent-state'] }] });
    const role = find(manifests, 'Role');
    expect(role.metadata).toMatchObject({ name: 'node-agent', namespace: 'node-agent' });
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['agent-state'] }]);
    expect(find(manifests, 'RoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'node-agent', namespace: 'node-agent' }]);
  });

  test('explicit automountServiceAccountToken wins', () => {
    expect(podSpec(synth({ automountServiceAccountToken: true })).automountServiceAccountToken).toBe(true);
  });

  test.each([
    ['no verbs', { clusterPermissions: [{ resources: ['pods'], verbs: [] }] }, /at least one verb/],
    ['no resources', { clusterPermissions: [{ resources: [], verbs: ['get'] }] }, /at least one resource/],
    ['empty resourceNames', { namespacePermissions: [{ resources: ['pods'], verbs: ['get'], resourceNames: [] }] }, /resourceNames is empty/],
  ])('fails on %s', (_, props, message) => {
    expect(() => synth(props as any)).toThrow(message);
  });
});

describe('queries', () => {
  test('coverage over a node list', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'a', { image, nodeSelector: { agent: 'enabled' } });
    const node = (name: string, labels: any) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/os': 'linux', ...labels } } });
    const plan = agent.coverage([node('n1', { agent: 'enabled' }), node('n2', {})]);
    expect(plan.desired).toEqual(1);
    expect(plan.placements.map((p) => p.shouldRun)).toEqual([true, false]);
  });

  test('output is deterministic', () => {
    const build = () => {
      const app = new App({ outdir: '/tmp/unused' });
      const c = new Chart(app, 'c');
      new NodeAgent(c, 'a', {
        image,
        hostNetwork: { reason: 'r' },
        capabilities: [{ capability: Capability.SYS_PTRACE, reason: 'b' }, { capability: Capability.NET_ADMIN, reason: 'a' }],
        runAsRoot: { reason: 'the capabilities take effect only for root' },
        configFiles: { b: '2', a: '1' },
      });
      return app.synthYaml();
    };
    expect(build()).toEqual(build());
  });
});

describe('service', () => {
  test('exposes named container ports, selecting the agent pods', () => {
    const manifests = synth({
      ports: [{ name: 'metrics', containerPort: 9100 }],
      service: { ports: ['metrics'], annotations: { 'prometheus.io/scrape': 'true' }, nodeLocal: true },
    });
    const svc = find(manifests, 'Service');
    expect(svc.metadata).toMatchObject({ name: 'node-agent', namespace: 'node-agent', annotations: { 'prometheus.io/scrape': 'true' } });
    expect(svc.spec).toEqual({
      type: 'ClusterIP',
      selector: { 'app.kubernetes.io/name': 'node-agent' },
      ports: [{ name: 'metrics', port: 9100, targetPort: 'metrics', protocol: 'TCP' }],
      internalTrafficPolicy: 'Local',
    });
  });

  test('fails on a port the container does not declare', () => {
    expect(() => synth({ service: { ports: ['metrics'] } })).toThrow(/service.ports: "metrics" is not a port of the main container/);
    expect(() => synth({ service: { ports: [] } })).toThrow(/service.ports is empty/);
  });
});

describe('rules the API server enforces, no stricter', () => {
  const port = (name: string, containerPort: number, hostPort: number, protocol?: Protocol) =>
    ({ name, containerPort, protocol, hostPort: { port: hostPort, reason: 'reached on the node address' } });

  test('a privileged container patched to allowPrivilegeEscalation: false fails synth, as the API server refuses it', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image, privileged: { reason: 'loads a kernel module' } });
    for (const rule of ['NA-PRIVILEGED', 'PSS-BASELINE-privileged']) agent.acknowledge(rule, 'accepted in this test');
    expect(() => synthValid(c)).not.toThrow();
    agent.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/containers/0/securityContext/allowPrivilegeEscalation', false));
    expect(() => synthValid(c)).toThrow(/\[test\/node-agent\] security review: \[high\] NA-API-REJECTED: .*container "agent": sets privileged: true beside allowPrivilegeEscalation: false.*; the API server rejects this/);
  });

  test('a JSON patch that takes the selector\'s label off the pod template fails synth, as the API server refuses it', () => {
    const c = chart();
    const agent = new NodeAgent(c, 'node-agent', { image });
    expect(() => synthValid(c)).not.toThrow();
    agent.daemonSet.addJsonPatch(JsonPatch.remove('/spec/template/metadata/labels/app.kubernetes.io~1name'));
    expect(() => synthValid(c)).toThrow(/\[test\/node-agent\] security review: \[high\] NA-API-REJECTED: .*spec\.selector does not match the pod template's labels: the template fails app\.kubernetes\.io\/name=node-agent.*; the API server rejects this/);
  });

  test('two containers on one hostPort fail; the same port over another protocol does not', () => {
    const sidecar = (p: any) => ({ name: 'exporter', image, ports: [p] });
    expect(() => synth({ ports: [port('metrics', 9100, 9100)], sidecars: [sidecar(port('exporter', 9200, 9100))] }, ['PSS-BASELINE-hostPorts', 'NA-HOST-ACCESS-REASON']))
      .toThrow(/NA-API-REJECTED: .*container "exporter": host port 9100\/TCP is also bound by container "agent"/);
    const spec = podSpec(synth({ ports: [port('metrics', 9100, 9100)], sidecars: [sidecar(port('exporter', 9100, 9100, Protocol.UDP))] }, ['PSS-BASELINE-hostPorts']));
    expect(spec.containers.map((x: any) => x.ports[0].protocol)).toEqual(['TCP', 'UDP']);
  });

  test('an init container may bind the main container\'s hostPort: init containers run one at a time', () => {
    const spec = podSpec(synth({
      ports: [port('metrics', 9100, 9100)],
      initContainers: [{ name: 'init', image, ports: [port('init-metrics', 9100, 9100)] }],
    }, ['PSS-BASELINE-hostPorts']));
    expect([spec.initContainers[0].ports[0].hostPort, spec.containers[0].ports[0].hostPort]).toEqual([9100, 9100]);
  });

  test('on the host network hostPort must equal containerPort in the pod\'s containers, not in init containers', () => {
    const hostNetwork = { reason: 'watches node interfaces' };
    expect(() => synth({ hostNetwork, ports: [port('metrics', 9100, 9101)] }, ['PSS-BASELINE-hostNamespaces', 'PSS-BASELINE-hostPorts']))
      .toThrow(/NA-API-REJECTED: .*container "agent": port metrics: on the host network hostPort \(9101\) must equal containerPort \(9100\)/);
    const spec = podSpec(synth({ hostNetwork, initContainers: [{ name: 'init', image, ports: [port('init-metrics', 9100, 9101)] }] },
      ['PSS-BASELINE-hostNamespaces', 'PSS-BASELINE-hostPorts']));
    expect(spec.initContainers[0].ports[0]).toMatchObject({ containerPort: 9100, hostPort: 9101 });
  });
});
