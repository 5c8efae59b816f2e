// DaemonSetStatus on realistic cluster objects (see status-fixtures.ts for where each message's wording comes from).
import {
  daemonSet, DS_NAME, event, HASH_V1, HASH_V2, IMAGE, kindNodes, node, NOW, NS, pod, revision, schedulerEvent, template,
} from './status-fixtures';
import { DaemonSetNodeState, DaemonSetStatus, DaemonSetStatusOptions } from '../../src/model';

const now = new Date(NOW);

function explain(ds: any, options: Partial<DaemonSetStatusOptions>) {
  return DaemonSetStatus.explain(ds, { nodes: kindNodes(), now, ...options });
}

function stateOf(report: ReturnType<typeof explain>, nodeName: string) {
  const n = report.nodes.find((x) => x.nodeName === nodeName);
  if (!n) throw new Error(`no node ${nodeName}`);
  return n;
}

/** the fixture's .status and the controller's count from the pods must agree (the fixture is consistent). */
function expectConsistent(report: ReturnType<typeof explain>) {
  expect(report.computed).toEqual(report.status);
}

describe('healthy and excluded', () => {
  test('two ready pods on the workers; the tainted control plane is excluded with the taint as reason', () => {
    const ds = daemonSet();
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker'), pod('kind-worker2')] });
    expectConsistent(r);
    expect(r.status).toMatchObject({ desired: 2, current: 2, ready: 2, upToDate: 2, available: 2 });
    expect(r.nodes.map((n) => [n.nodeName, n.state])).toEqual([
      ['kind-control-plane', 'excluded'], ['kind-worker', 'healthy'], ['kind-worker2', 'healthy'],
    ]);
    const cp = stateOf(r, 'kind-control-plane');
    expect(cp.reason).toBe('Taint');
    expect(cp.message).toContain('taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated');
    expect(stateOf(r, 'kind-worker').message).toContain(`revision 1 (${HASH_V1})`);
    expect(r.complete).toBe(true);
    expect(r.shortfalls).toEqual(['DESIRED 2 of 3 nodes: kind-control-plane (excluded) is left out by placement']);
    expect(r.rollout).toMatchObject({ strategy: 'RollingUpdate', updated: 2, wavesLeft: 0, blocked: false, currentRevision: 1, currentRevisionHash: HASH_V1 });
  });

  test('a nodeSelector and a taint both exclude a node: both rules are named, in the controller order', () => {
    const ds = daemonSet();
    ds.spec.template.spec.nodeSelector = { agent: 'enabled' };
    const nodes = [node('kind-control-plane', { controlPlane: true }), node('kind-worker', { labels: { agent: 'enabled' } }), node('kind-worker2')];
    const r = DaemonSetStatus.explain(ds, { nodes, now, controllerRevisions: [revision(1, HASH_V1, ds.spec.template)], pods: [pod('kind-worker')] });
    expect(stateOf(r, 'kind-control-plane')).toMatchObject({ state: 'excluded', reason: 'NodeSelector,Taint' });
    expect(stateOf(r, 'kind-worker2')).toMatchObject({ state: 'excluded', reason: 'NodeSelector' });
    expect(stateOf(r, 'kind-worker2').message).toContain('nodeSelector agent=enabled is not met: the node has no label agent');
    expect(r.computed.desired).toBe(1);
  });

  test('a pod left on a node tainted NoSchedule after it started: excluded, still running, counted as misscheduled', () => {
    const nodes = kindNodes();
    nodes[2].spec.taints = [{ key: 'maintenance', value: 'planned', effect: 'NoSchedule' }];
    const ds = daemonSet({
      status: {
        desiredNumberScheduled: 1, currentNumberScheduled: 1, numberReady: 1, updatedNumberScheduled: 1, numberAvailable: 1, numberMisscheduled: 1,
      },
    });
    const r = DaemonSetStatus.explain(ds, { nodes, now, controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker'), pod('kind-worker2')] });
    expectConsistent(r);
    const w2 = stateOf(r, 'kind-worker2');
    expect(w2).toMatchObject({ state: 'excluded', reason: 'Taint', podName: 'node-agent-x7k2p' });
    expect(w2.message).toContain('pod node-agent-x7k2p still runs here (a NoSchedule taint keeps new pods off, it does not evict) but is not counted');
    expect(r.computed.misscheduled).toBe(1);
    expect(r.complete).toBe(true);
  });
});

describe('missing', () => {
  test('Pod Security admission refuses the pod: the FailedCreate event of the DaemonSet controller is the evidence', () => {
    const ds = daemonSet({ status: { currentNumberScheduled: 1, numberReady: 1, updatedNumberScheduled: 1, numberAvailable: 1 } });
    const refused = event(ds, {
      reason: 'FailedCreate',
      component: 'daemonset-controller',
      message: 'Error creating: pods "node-agent-7dn2z" is forbidden: violates PodSecurity "baseline:latest": hostPath volumes (volume "varlog")',
      count: 14,
      first: '2025-06-02T08:40:00Z',
      last: '2025-06-02T09:06:40Z',
    });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker')], events: [refused] });
    expectConsistent(r);
    const w2 = stateOf(r, 'kind-worker2');
    expect(w2).toMatchObject({ state: 'missing', reason: 'FailedCreate', stuck: true });
    expect(w2.message).toBe('no pod on this node; the DaemonSet controller reports: Error creating: pods "node-agent-7dn2z" is forbidden: ' +
      'violates PodSecurity "baseline:latest": hostPath volumes (volume "varlog") (×14, last 2025-06-02T09:06:40Z)');
    expect(r.shortfalls).toContain('CURRENT 1 < DESIRED 2: kind-worker2 (missing)');
    expect(r.complete).toBe(false);
    // a missing pod is created outside the rollout's budget: no wave of replacements is left
    expect(r.rollout).toMatchObject({ updated: 1, wavesLeft: 0 });
    expect(r.rollout.message).toBe('RollingUpdate (maxUnavailable 1, 1 unavailable now): 1 of 2 nodes updated and available, no old pod left to replace; 1 node has no pod');
  });

  test('no pod and no event: the controller has not created it yet (not stuck)', () => {
    const ds = daemonSet({ status: { currentNumberScheduled: 1, numberReady: 1, updatedNumberScheduled: 1, numberAvailable: 1 } });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker')] });
    expect(stateOf(r, 'kind-worker2')).toMatchObject({ state: 'missing', reason: 'NoPod', stuck: false });
  });

  test('events about another DaemonSet of the same name (other uid) are not evidence', () => {
    const ds = daemonSet({ status: { currentNumberScheduled: 1, numberReady: 1, updatedNumberScheduled: 1, numberAvailable: 1 } });
    const old = event({ ...ds, metadata: { ...ds.metadata, uid: 'aaaaaaaa-0000-4000-8000-000000000000' } }, { reason: 'FailedCreate', component: 'daemonset-controller', message: 'Error creating: quota exceeded' });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker')], events: [old] });
    expect(stateOf(r, 'kind-worker2').reason).toBe('NoPod');
  });
});

describe('pending', () => {
  // a DaemonSet pod can only go to its own node (matchFields metadata.name), so on a 3-node cluster the scheduler
  // rules the 2 other nodes out in PreFilter: "2 node(s) didn't satisfy plugin(s) [NodeAffinity]"
  const insufficientCpu = "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. " +
    'preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.';

  function unscheduled(message: string, opts: { requests?: Record<string, string>; hostPort?: number } = {}) {
    const ds = daemonSet({ status: { numberReady: 1, numberAvailable: 1 }, ...opts });
    const p = pod('kind-worker2', {
      scheduled: false,
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastProbeTime: null, lastTransitionTime: '2025-06-02T08:40:00Z' }],
    });
    p.spec.containers = ds.spec.template.spec.containers;
    return { ds, p };
  }

  test('Insufficient cpu: the scheduler\'s message, with what the pod requests and what the node has', () => {
    const { ds, p } = unscheduled(insufficientCpu, { requests: { cpu: '2' } });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1, ds.spec.template)], pods: [pod('kind-worker'), p], events: [schedulerEvent(p, insufficientCpu)] });
    expectConsistent(r); // an unscheduled daemon pod counts as CURRENT: its node is read from the affinity
    const w2 = stateOf(r, 'kind-worker2');
    expect(w2).toMatchObject({ state: 'pending', reason: 'Unschedulable', stuck: true, podName: 'node-agent-x7k2p' });
    expect(w2.message).toBe(`pod node-agent-x7k2p is not scheduled: ${insufficientCpu} (the pod requests cpu 2, the node has 8 allocatable in all)`);
    expect(r.shortfalls).toContain('READY 1 < CURRENT 2: kind-worker2 (pending)');
  });

  test('a host port in use: the scheduler\'s NodePorts message, with the port', () => {
    const ports = "0/3 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. " +
      'preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.';
    const { ds, p } = unscheduled(ports, { hostPort: 9100 });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1, ds.spec.template)], pods: [pod('kind-worker'), p] });
    expect(stateOf(r, 'kind-worker2').message).toContain('(host port 9100/TCP is taken on the node by another pod)');
  });

  test('no PodScheduled condition yet but a FailedScheduling event: the event is the evidence', () => {
    const { ds, p } = unscheduled(insufficientCpu);
    p.status.conditions = [];
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker'), p], events: [schedulerEvent(p, insufficientCpu)] });
    expect(stateOf(r, 'kind-worker2')).toMatchObject({ state: 'pending', reason: 'FailedScheduling' });
    expect(stateOf(r, 'kind-worker2').message).toContain('last 2025-06-02T09:05:00.123Z');
  });

  test('the kubelet rejected the pod at admission (phase Failed, OutOfcpu): pending, with its message', () => {
    const ds = daemonSet({ status: { numberReady: 1, numberAvailable: 1 } });
    // pkg/kubelet/lifecycle/predicate.go InsufficientResourceError; the kubelet's rejectPod prefixes "Pod was rejected: "
    const rejected = pod('kind-worker2', {
      status: {
        phase: 'Failed',
        reason: 'OutOfcpu',
        message: "Pod was rejected: Node didn't have enough resource: cpu, requested: 4000, used: 7300, capacity: 8000",
        startTime: '2025-06-02T08:40:00Z',
      },
    });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker'), rejected] });
    expectConsistent(r);
    expect(stateOf(r, 'kind-worker2')).toMatchObject({ state: 'pending', reason: 'OutOfcpu', stuck: true });
    expect(stateOf(r, 'kind-worker2').message).toContain("Node didn't have enough resource: cpu, requested: 4000");
  });
});

describe('creating', () => {
  const containerCreating = {
    image: IMAGE,
    imageID: '',
    lastState: {},
    name: 'agent',
    ready: false,
    restartCount: 0,
    started: false,
    state: { waiting: { reason: 'ContainerCreating' } },
  };
  const notReadyConditions = [
    { type: 'PodReadyToStartContainers', status: 'False', lastProbeTime: null, lastTransitionTime: '2025-06-02T08:40:00Z' },
    { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-06-02T08:40:00Z' },
    { type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: '2025-06-02T08:40:00Z', reason: 'ContainersNotReady', message: 'containers with unready status: [agent]' },
    { type: 'ContainersReady', status: 'False', lastProbeTime: null, lastTransitionTime: '2025-06-02T08:40:00Z', reason: 'ContainersNotReady', message: 'containers with unready status: [agent]' },
    { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-06-02T08:40:00Z' },
  ];

  test.each([
    // pkg/volume/hostpath/host_path.go checkTypeInternal, as in v1.34.1 and earlier
    ['hostPath type check failed: /var/log/journal is not a directory'],
    // v1.37.2: typeMatchedOrError, with pkg/volume/util/hostutil/hostutil.go getFileType's error for a missing path
    ['hostPath type check failed, /var/log/journal is not a directory, unable to determine its type: path "/var/log/journal" does not exist'],
  ])('FailedMount of a hostPath of type Directory that is missing on the node (%s)', (error) => {
    const ds = daemonSet({ hostPath: '/var/log/journal', status: { numberReady: 1, numberAvailable: 1 } });
    const p = pod('kind-worker2', { hostPath: '/var/log/journal', phase: 'Pending', conditions: notReadyConditions, containerStatus: containerCreating });
    const failedMount = event(p, { reason: 'FailedMount', message: `MountVolume.SetUp failed for volume "varlog" : ${error}`, count: 9, first: '2025-06-02T08:40:01Z', last: '2025-06-02T09:02:17Z', host: 'kind-worker2' });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1, ds.spec.template)], pods: [pod('kind-worker', { hostPath: '/var/log/journal' }), p], events: [failedMount] });
    expectConsistent(r);
    const w2 = stateOf(r, 'kind-worker2');
    expect(w2).toMatchObject({ state: 'creating', reason: 'FailedMount', stuck: true });
    expect(w2.message).toBe(`pod node-agent-x7k2p is stuck before its containers start: MountVolume.SetUp failed for volume "varlog" : ${error} ` +
      '(×9, last 2025-06-02T09:02:17Z) (volume varlog is hostPath /var/log/journal of type Directory: it must already exist as that type on node ' +
      'kind-worker2; create it there, or keep the agent off nodes without it)');
  });

  test('ContainerCreating without a warning: on its way, not stuck', () => {
    const ds = daemonSet({ status: { numberReady: 1, numberAvailable: 1 } });
    const p = pod('kind-worker2', { phase: 'Pending', conditions: notReadyConditions, containerStatus: containerCreating });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker'), p] });
    expect(stateOf(r, 'kind-worker2')).toMatchObject({ state: 'creating', reason: 'ContainerCreating', stuck: false });
  });

  test('CreateContainerConfigError: a referenced Secret is missing', () => {
    const ds = daemonSet({ status: { numberReady: 1, numberAvailable: 1 } });
    // pkg/kubelet/kubelet_pods.go makeEnvironmentVariables: secret "%s" not found
    const p = pod('kind-worker2', {
      phase: 'Pending',
      conditions: notReadyConditions,
      containerStatus: { ...containerCreating, state: { waiting: { reason: 'CreateContainerConfigError', message: 'secret "node-agent-token" not found' } } },
    });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker'), p] });
    expect(stateOf(r, 'kind-worker2')).toMatchObject({ state: 'creating', reason: 'CreateContainerConfigError', stuck: true });
    expect(stateOf(r, 'kind-worker2').message).toBe('pod node-agent-x7k2p: container agent cannot be created: secret "node-agent-token" not found');
  });
});

describe('a rollout to a new image', () => {
  const NEW_IMAGE = 'registry.example.com/node-agent:1.2.1';
  const pullError = `rpc error: code = NotFound desc = failed to pull and unpack image "${NEW_IMAGE}": failed to resolve reference "${NEW_IMAGE}": ${NEW_IMAGE}: not found`;

  function rollout(waiting: any, events: (p: any) => any[]) {
    const ds = daemonSet({ image: NEW_IMAGE, generation: 2, status: { numberReady: 1, numberAvailable: 1, updatedNumberScheduled: 1 } });
    const newPod = pod('kind-worker', {
      name: 'node-agent-q2w9z',
      image: NEW_IMAGE,
      hash: HASH_V2,
      templateGeneration: 2,
      created: '2025-06-02T09:00:00Z',
      ready: false,
      phase: 'Pending',
      containerStatus: { image: NEW_IMAGE, imageID: '', lastState: {}, name: 'agent', ready: false, restartCount: 0, started: false, state: { waiting } },
    });
    const oldPod = pod('kind-worker2');
    const r = explain(ds, {
      controllerRevisions: [revision(1, HASH_V1), revision(2, HASH_V2, template({ image: NEW_IMAGE }))],
      pods: [newPod, oldPod],
      events: events(newPod),
    });
    return r;
  }

  test('ErrImagePull on the first node: image-pull with the registry\'s error; the next node waits: rollout blocked', () => {
    const r = rollout({ reason: 'ErrImagePull', message: pullError }, (p) => [
      event(p, { type: 'Normal', reason: 'Pulling', message: `Pulling image "${NEW_IMAGE}"`, last: '2025-06-02T09:09:40Z', fieldPath: 'spec.containers{agent}' }),
      event(p, { reason: 'Failed', message: `Failed to pull image "${NEW_IMAGE}": ${pullError}`, last: '2025-06-02T09:09:41Z', fieldPath: 'spec.containers{agent}' }),
      event(p, { reason: 'Failed', message: 'Error: ErrImagePull', last: '2025-06-02T09:09:41Z', fieldPath: 'spec.containers{agent}' }),
    ]);
    expectConsistent(r);
    const w1 = stateOf(r, 'kind-worker');
    expect(w1).toMatchObject({ state: 'image-pull', reason: 'ErrImagePull', stuck: true, podName: 'node-agent-q2w9z' });
    expect(w1.message).toContain(`container agent cannot pull image ${NEW_IMAGE}: ${pullError}`);
    // the waiting message is the pull error itself: the kubelet's Failed event is not repeated after it
    expect(w1.message).not.toContain('the kubelet reports');
    const w2 = stateOf(r, 'kind-worker2');
    expect(w2).toMatchObject({ state: 'outdated', reason: 'OutdatedRevision' });
    expect(w2.message).toBe(`pod node-agent-x7k2p runs revision 1 (${HASH_V1}); the DaemonSet's current one is revision 2 (${HASH_V2}). ` +
      'It waits: the rollout is blocked by kind-worker.');
    expect(r.rollout).toMatchObject({ updated: 0, wavesLeft: 2, blocked: true, blockedBy: ['kind-worker'], currentRevision: 2 });
    expect(r.rollout.message).toContain('blocked by kind-worker (image-pull)');
    expect(r.shortfalls).toEqual(expect.arrayContaining([
      'READY 1 < CURRENT 2: kind-worker (image-pull)',
      'UP-TO-DATE 1 < DESIRED 2: kind-worker2 (outdated)',
    ]));
  });

  test('ImagePullBackOff: the waiting message only says back-off; the kubelet\'s Failed event carries the error', () => {
    const r = rollout({ reason: 'ImagePullBackOff', message: `Back-off pulling image "${NEW_IMAGE}"` }, (p) => [
      event(p, { reason: 'Failed', message: `Failed to pull image "${NEW_IMAGE}": ${pullError}`, count: 4, last: '2025-06-02T09:08:10Z', fieldPath: 'spec.containers{agent}' }),
      event(p, { type: 'Normal', reason: 'BackOff', message: `Back-off pulling image "${NEW_IMAGE}"`, count: 22, last: '2025-06-02T09:09:55Z', fieldPath: 'spec.containers{agent}' }),
    ]);
    const w1 = stateOf(r, 'kind-worker');
    expect(w1).toMatchObject({ state: 'image-pull', reason: 'ImagePullBackOff' });
    expect(w1.message).toContain(`Back-off pulling image "${NEW_IMAGE}"; the kubelet reports: Failed to pull image "${NEW_IMAGE}": ${pullError} (×4, last 2025-06-02T09:08:10Z)`);
  });

  test('ImagePullBackOff since 1.32: the waiting message carries the pull error, so the Failed event is not repeated', () => {
    // pkg/kubelet/images/image_manager.go (v1.34.1, v1.37.2): "Back-off pulling image %q" + ": " + "<ErrImagePull>: <error>"
    const waitingMessage = `Back-off pulling image "${NEW_IMAGE}": ErrImagePull: ${pullError}`;
    const r = rollout({ reason: 'ImagePullBackOff', message: waitingMessage }, (p) => [
      event(p, { reason: 'Failed', message: `Failed to pull image "${NEW_IMAGE}": ${pullError}`, count: 4, last: '2025-06-02T09:08:10Z', fieldPath: 'spec.containers{agent}' }),
      event(p, { reason: 'Failed', message: 'Error: ImagePullBackOff', count: 22, last: '2025-06-02T09:09:55Z', fieldPath: 'spec.containers{agent}' }),
    ]);
    expect(stateOf(r, 'kind-worker').message).toBe(`pod node-agent-q2w9z: container agent cannot pull image ${NEW_IMAGE}: ${waitingMessage}; ` +
      'check the image name and tag and the pull secret (imagePullSecrets) for the registry');
  });

  test('ErrImageNeverPull (the kubelet v1.37.2 message, seen on the real node): nothing is pulled, so the fix is the node\'s image or the policy', () => {
    const waitingMessage = `Container image "${NEW_IMAGE}" is not present with pull policy of Never`;
    const r = rollout({ reason: 'ErrImageNeverPull', message: waitingMessage }, (p) => [
      event(p, { reason: 'ErrImageNeverPull', message: waitingMessage, count: 3, last: '2025-06-02T09:09:55Z', fieldPath: 'spec.containers{agent}' }),
    ]);
    const w1 = stateOf(r, 'kind-worker');
    expect(w1).toMatchObject({ state: 'image-pull', reason: 'ErrImageNeverPull', stuck: true });
    expect(w1.message).toBe(`pod node-agent-q2w9z: container agent cannot pull image ${NEW_IMAGE}: ${waitingMessage}; with imagePullPolicy Never the ` +
      'kubelet never pulls: load the image into the node\'s container runtime, or set imagePullPolicy to IfNotPresent');
    expect(w1.message).not.toContain('imagePullSecrets');
  });

  test('InvalidImageName: the reference is the problem, not the registry', () => {
    const r = rollout({ reason: 'InvalidImageName', message: `Failed to apply default image tag "${NEW_IMAGE}:": couldn't parse image name` }, () => []);
    expect(stateOf(r, 'kind-worker').message).toMatch(/; the image reference is not valid: fix the image name$/);
  });
});

describe('crash-loop', () => {
  test('CrashLoopBackOff after OOMKilled (exit code 137) against the 64Mi memory limit', () => {
    const ds = daemonSet({ status: { numberReady: 1, numberAvailable: 1 } });
    const p = pod('kind-worker', {
      ready: false,
      containerStatus: {
        containerID: 'containerd://5e4d3c2b1a0f9e8d7c6b5a4938271605f4e3d2c1b0a9f8e7d6c5b4a3928170',
        image: IMAGE,
        imageID: 'registry.example.com/node-agent@sha256:3b5f0c2d9e8a7f6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b',
        lastState: { terminated: { containerID: 'containerd://5e4d3c2b1a0f9e8d7c6b5a4938271605f4e3d2c1b0a9f8e7d6c5b4a3928170', exitCode: 137, finishedAt: '2025-06-02T09:04:58Z', reason: 'OOMKilled', startedAt: '2025-06-02T09:04:31Z' } },
        name: 'agent',
        ready: false,
        restartCount: 7,
        started: false,
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container=agent pod=node-agent-b5t8r_observability(4f3e2d1c-0001-4b5a-9c8d-2d6235743872)' } },
      },
    });
    const backOff = event(p, { reason: 'BackOff', message: 'Back-off restarting failed container agent in pod node-agent-b5t8r_observability(4f3e2d1c-0001-4b5a-9c8d-2d6235743872)', count: 31, last: '2025-06-02T09:09:58Z', fieldPath: 'spec.containers{agent}' });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [p, pod('kind-worker2')], events: [backOff] });
    expectConsistent(r);
    const w1 = stateOf(r, 'kind-worker');
    expect(w1).toMatchObject({ state: 'crash-loop', reason: 'CrashLoopBackOff', stuck: true });
    expect(w1.message).toBe('pod node-agent-b5t8r: container agent restarted 7 times; last exit code 137 (OOMKilled); the container was killed for memory: ' +
      "its limit is 64Mi; raise resources.limits.memory or lower the agent's memory use; back-off 5m0s restarting failed container=agent " +
      'pod=node-agent-b5t8r_observability(4f3e2d1c-0001-4b5a-9c8d-2d6235743872)');
  });
});

describe('crash-loop between two back-offs: Ready while it runs', () => {
  /** a Ready pod whose agent container runs again after exiting at `finishedAt` (NOW is 09:10:00). */
  function restartedPod(finishedAt: string, readinessProbe: boolean) {
    const p = pod('kind-worker', {
      readySince: '2025-06-02T09:09:21Z',
      containerStatus: {
        containerID: 'containerd://7a6f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6b5a0d9c8b',
        image: IMAGE,
        imageID: 'registry.example.com/node-agent@sha256:3b5f0c2d9e8a7f6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b',
        lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: '2025-06-02T08:40:05Z', finishedAt } },
        name: 'agent',
        ready: true,
        restartCount: 4,
        started: true,
        state: { running: { startedAt: '2025-06-02T09:09:20Z' } },
      },
    });
    if (!readinessProbe) delete p.spec.containers[0].readinessProbe;
    return p;
  }

  test('exited 40 s ago, no readiness probe: a crash loop, not healthy, saying why readiness did not show it', () => {
    const ds = daemonSet();
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [restartedPod('2025-06-02T09:09:20Z', false), pod('kind-worker2')] });
    expectConsistent(r);
    const w1 = stateOf(r, 'kind-worker');
    expect(w1).toMatchObject({ state: 'crash-loop', reason: 'Error', stuck: true, podName: 'node-agent-b5t8r' });
    expect(w1.message).toBe('pod node-agent-b5t8r is Ready, but container agent restarted 4 times; last exit code 1 (Error), 40 s ago: it has no ' +
      'readiness probe, so it counts as Ready whenever it runs; the kubelet keeps backing off its restarts until it has run for 10 minutes');
    expect(stateOf(r, 'kind-worker2').state).toBe('healthy');
  });

  test('with a readiness probe that passes while it runs, the same', () => {
    const r = explain(daemonSet(), { controllerRevisions: [revision(1, HASH_V1)], pods: [restartedPod('2025-06-02T09:09:20Z', true), pod('kind-worker2')] });
    expect(stateOf(r, 'kind-worker').message).toContain('40 s ago: its readiness probe passes while it runs;');
  });

  test('a restart more than 10 minutes ago is history: healthy', () => {
    const r = explain(daemonSet(), { controllerRevisions: [revision(1, HASH_V1)], pods: [restartedPod('2025-06-02T08:59:59Z', false), pod('kind-worker2')] });
    expect(stateOf(r, 'kind-worker')).toMatchObject({ state: 'healthy', reason: 'Available' });
  });
});

describe('not-ready', () => {
  test('running, the readiness probe fails: the kubelet\'s Unhealthy event', () => {
    const ds = daemonSet({ status: { numberReady: 1, numberAvailable: 1 } });
    const p = pod('kind-worker2', { ready: false });
    const unhealthy = event(p, { reason: 'Unhealthy', message: 'Readiness probe failed: HTTP probe failed with statuscode: 503', count: 87, last: '2025-06-02T09:09:52Z', fieldPath: 'spec.containers{agent}' });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker'), p], events: [unhealthy] });
    expectConsistent(r);
    expect(stateOf(r, 'kind-worker2')).toMatchObject({
      state: 'not-ready',
      reason: 'Unhealthy',
      stuck: true,
      message: 'pod node-agent-x7k2p runs but is not ready (container agent not ready): Readiness probe failed: HTTP probe failed with statuscode: 503 (×87, last 2025-06-02T09:09:52Z)',
    });
  });

  test('the node stopped posting status: not-ready because of the node', () => {
    const nodes = [node('kind-control-plane', { controlPlane: true }), node('kind-worker'), node('kind-worker2', { ready: false })];
    const ds = daemonSet({ status: { numberReady: 1, numberAvailable: 1 } });
    const r = DaemonSetStatus.explain(ds, { nodes, now, controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker'), pod('kind-worker2', { ready: false })] });
    expect(stateOf(r, 'kind-worker2')).toMatchObject({ state: 'not-ready', reason: 'NodeNotReady' });
    expect(stateOf(r, 'kind-worker2').message).toContain('node kind-worker2 is not ready (NodeStatusUnknown: Kubelet stopped posting node status.)');
  });

  test('running, not yet ready, no failing probe: not stuck', () => {
    const ds = daemonSet({ status: { numberReady: 1, numberAvailable: 1 } });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker'), pod('kind-worker2', { ready: false })] });
    expect(stateOf(r, 'kind-worker2')).toMatchObject({ state: 'not-ready', reason: 'ContainersNotReady', stuck: false });
    // both pods run the current revision: nothing is left to replace, one pod has yet to become available
    expect(r.rollout).toMatchObject({ updated: 1, wavesLeft: 0, blocked: false });
    expect(r.rollout.message).toBe('RollingUpdate (maxUnavailable 1, 1 unavailable now): 1 of 2 nodes updated and available, no old pod left to replace; ' +
      '1 pod of the current revision not yet available');
  });
});

describe('outdated', () => {
  test('OnDelete after a template change: every pod outdated, the fix is to delete it', () => {
    const ds = daemonSet({ image: 'registry.example.com/node-agent:1.2.1', generation: 2, updateStrategy: { type: 'OnDelete' }, status: { updatedNumberScheduled: 0 } });
    const r = explain(ds, {
      controllerRevisions: [revision(1, HASH_V1), revision(2, HASH_V2, template({ image: 'registry.example.com/node-agent:1.2.1' }))],
      pods: [pod('kind-worker'), pod('kind-worker2')],
    });
    expectConsistent(r);
    expect(stateOf(r, 'kind-worker')).toMatchObject({ state: 'outdated', stuck: false });
    expect(stateOf(r, 'kind-worker').message).toContain(`OnDelete: delete the pod to update this node (kubectl delete pod node-agent-b5t8r -n ${NS}).`);
    expect(r.rollout).toMatchObject({ strategy: 'OnDelete', updated: 0, wavesLeft: 0, blocked: false });
    expect(r.complete).toBe(false);
  });

  test('RollingUpdate half way: one node updated, the other replaced in turn (not blocked)', () => {
    const ds = daemonSet({ image: 'registry.example.com/node-agent:1.2.1', generation: 2, status: { updatedNumberScheduled: 1 } });
    const r = explain(ds, {
      controllerRevisions: [revision(1, HASH_V1), revision(2, HASH_V2, template({ image: 'registry.example.com/node-agent:1.2.1' }))],
      pods: [pod('kind-worker', { hash: HASH_V2, templateGeneration: 2, image: 'registry.example.com/node-agent:1.2.1' }), pod('kind-worker2')],
    });
    expectConsistent(r);
    expect(stateOf(r, 'kind-worker').state).toBe('healthy');
    expect(stateOf(r, 'kind-worker2').message).toContain('The RollingUpdate replaces it in turn.');
    expect(r.rollout).toMatchObject({ updated: 1, wavesLeft: 1, blocked: false });
  });
});

describe('not-available', () => {
  test('ready for less than minReadySeconds', () => {
    const ds = daemonSet({ minReadySeconds: 30, status: { numberAvailable: 1 } });
    const r = explain(ds, {
      controllerRevisions: [revision(1, HASH_V1, ds.spec.template)],
      pods: [pod('kind-worker'), pod('kind-worker2', { readySince: '2025-06-02T09:09:50Z' })],
    });
    expectConsistent(r);
    expect(stateOf(r, 'kind-worker2')).toMatchObject({
      state: 'not-available',
      reason: 'MinReadySeconds',
      message: 'pod node-agent-x7k2p is ready but not yet for minReadySeconds 30; ready since 2025-06-02T09:09:50Z, available from 2025-06-02T09:10:20Z',
    });
    expect(r.shortfalls).toContain('AVAILABLE 1 < READY 2: kind-worker2 (not-available) (minReadySeconds 30)');
  });
});

describe('the current revision', () => {
  test('two revisions match the template (a rollback recreated one): the highest revision wins', () => {
    const ds = daemonSet();
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1), revision(3, HASH_V2)], pods: [pod('kind-worker', { hash: HASH_V2 }), pod('kind-worker2', { hash: HASH_V2 })] });
    expect(r.rollout).toMatchObject({ currentRevision: 3, currentRevisionHash: HASH_V2 });
    expect(r.nodes.filter((n) => n.state === 'healthy')).toHaveLength(2);
  });

  test('a template written with and without null fields still matches', () => {
    const ds = daemonSet();
    const stored = template();
    delete stored.metadata.creationTimestamp;
    const r = explain(ds, { controllerRevisions: [revision(2, HASH_V2, stored), revision(1, HASH_V1, template({ image: 'x:1' }))] });
    expect(r.rollout.currentRevision).toBe(2);
  });

  test('no revision matches but the controller has seen the spec: the highest revision is current', () => {
    const ds = daemonSet();
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1, template({ image: 'x:1' })), revision(2, HASH_V2, template({ image: 'x:2' }))] });
    expect(r.rollout.currentRevisionHash).toBe(HASH_V2);
  });

  test('the spec changed and the controller has not seen it: no revision is current, every pod is outdated', () => {
    const ds = daemonSet({ image: 'registry.example.com/node-agent:1.3.0', generation: 3, observedGeneration: 2, templateGeneration: 3 });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker'), pod('kind-worker2')] });
    expect(r.rollout.currentRevisionHash).toBeUndefined();
    expect(r.nodes.filter((n) => n.state === 'outdated').map((n) => n.nodeName)).toEqual(['kind-worker', 'kind-worker2']);
    expect(stateOf(r, 'kind-worker').message).toContain('the current revision (not recorded yet: the controller has not seen the current template)');
    expect(r.observed).toBe(false);
    expect(r.shortfalls).toContain('the controller has not yet seen the current spec (observedGeneration 2 < generation 3): the numbers are from the previous spec');
    expect(r.complete).toBe(false);
  });

  test('a pod whose pod-template-generation label matches the annotation is up to date even with another hash (IsPodUpdated)', () => {
    const ds = daemonSet({ templateGeneration: 4 });
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker', { hash: 'ffffffff', templateGeneration: 4 }), pod('kind-worker2')] });
    expect(stateOf(r, 'kind-worker').state).toBe('healthy');
  });

  test('revisions and pods of another owner are ignored', () => {
    const ds = daemonSet();
    const foreign = revision(9, 'abcdef123');
    foreign.metadata.ownerReferences[0].uid = '11111111-2222-4333-8444-555555555555';
    const strayPod = pod('kind-worker2', { name: 'other-agent-abcde' });
    strayPod.metadata.ownerReferences[0].uid = '11111111-2222-4333-8444-555555555555';
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1), foreign], pods: [pod('kind-worker'), strayPod] });
    expect(r.rollout.currentRevision).toBe(1);
    expect(stateOf(r, 'kind-worker2').state).toBe('missing');
  });
});

describe('surge rollouts', () => {
  test('maxSurge 1: the new pod crash-loops beside the old one; the other node waits; blocked', () => {
    const ds = daemonSet({
      image: 'registry.example.com/node-agent:1.2.1',
      generation: 2,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      status: { updatedNumberScheduled: 0 },
    });
    const crashing = pod('kind-worker', {
      name: 'node-agent-n3w4p',
      hash: HASH_V2,
      templateGeneration: 2,
      created: '2025-06-02T09:00:00Z',
      ready: false,
      image: 'registry.example.com/node-agent:1.2.1',
      containerStatus: {
        image: 'registry.example.com/node-agent:1.2.1',
        imageID: 'registry.example.com/node-agent@sha256:9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b',
        lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: '2025-06-02T09:08:01Z', finishedAt: '2025-06-02T09:08:02Z', containerID: 'containerd://1a2b' } },
        name: 'agent',
        ready: false,
        restartCount: 5,
        started: false,
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 2m40s restarting failed container=agent pod=node-agent-n3w4p_observability(4f3e2d1c-0009-4b5a-9c8d-6e2d6e337770)' } },
      },
    });
    const r = explain(ds, {
      controllerRevisions: [revision(1, HASH_V1), revision(2, HASH_V2, template({ image: 'registry.example.com/node-agent:1.2.1' }))],
      pods: [pod('kind-worker'), crashing, pod('kind-worker2')],
    });
    expectConsistent(r); // the oldest pod counts: the old one, ready, not updated
    const w1 = stateOf(r, 'kind-worker');
    expect(w1).toMatchObject({ state: 'crash-loop', reason: 'CrashLoopBackOff', podName: 'node-agent-n3w4p' });
    expect(w1.message).toContain('The old pod node-agent-b5t8r still runs beside it (surge).');
    expect(r.rollout).toMatchObject({ maxSurge: 1, maxUnavailable: 0, blocked: true, blockedBy: ['kind-worker'] });
  });
});

describe('.status against the pods', () => {
  test('a stale .status is reported, and the node states follow the pods', () => {
    const ds = daemonSet(); // .status says 2 ready
    const r = explain(ds, { controllerRevisions: [revision(1, HASH_V1)], pods: [pod('kind-worker'), pod('kind-worker2', { ready: false })] });
    expect(r.status.ready).toBe(2);
    expect(r.computed.ready).toBe(1);
    expect(r.shortfalls).toEqual(expect.arrayContaining([expect.stringMatching(/^\.status disagrees with the nodes and pods given: READY 2 \(pods: 1\), AVAILABLE 2 \(pods: 1\)/)]));
    expect(r.complete).toBe(false);
  });

  test('a DaemonSet without status reads as all zero, as kubectl prints it', () => {
    const ds = daemonSet();
    delete ds.status;
    const r = explain(ds, {});
    expect(r.status).toEqual({ desired: 0, current: 0, ready: 0, upToDate: 0, available: 0, misscheduled: 0 });
  });
});

describe('input checks', () => {
  test('a DaemonSet that is not an object, or nodes that are not an array, are errors', () => {
    expect(() => DaemonSetStatus.explain(null, { nodes: [] })).toThrow(/daemonSet must be a DaemonSet object/);
    expect(() => DaemonSetStatus.explain(daemonSet(), { nodes: 'x' as any })).toThrow(/options.nodes must be an array/);
  });

  test('the node states are exactly the words of the command line', () => {
    expect(Object.values(DaemonSetNodeState)).toEqual([
      'excluded', 'missing', 'pending', 'creating', 'image-pull', 'crash-loop', 'not-ready', 'outdated', 'not-available', 'healthy',
    ]);
    expect(DS_NAME).toBe('node-agent');
  });
});
