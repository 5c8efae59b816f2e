// The snapshot behind the README's daily-checks section: the kind cluster of examples/kind-cluster, every node
// labelled agent=enabled (nodes/nodes-all-labelled.yaml), exercise B applied over exercise A. Exercise B adds the
// control-plane toleration, so the template changes (revision 2) and the RollingUpdate (maxUnavailable 1) is caught
// half way: the control plane runs a new pod, kind-worker's new pod is being created, kind-worker2 still runs
// revision 1. The DaemonSet is the one the example synthesizes; the rest is what the API server, the controller and
// the kubelet add. kind-status.test.ts checks that examples/kind-cluster/snapshot.yaml is exactly this.
import * as fs from 'fs';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { parse, stringify } from 'yaml';
import { ExerciseAChart, ExerciseBChart } from '../../examples/daemonset-basics/main';

export const KIND_DIR = path.join(__dirname, '..', '..', 'examples', 'kind-cluster');
export const SNAPSHOT_FILE = path.join(KIND_DIR, 'snapshot.yaml');

const NS = 'exercises';
const NAME = 'nginx-agent';
const UID = '8d2f6a1e-4c7b-4e93-b5a0-7f3c9e1d2b46';
const HASH_A = '6d9b7c5f8';
const HASH_B = '7f5c8d9b4';

function synthesized(chart: typeof ExerciseAChart): any {
  const app = Testing.app();
  return Testing.synth(new chart(app, 'exercise'));
}

export function daemonSetOf(chart: typeof ExerciseAChart): any {
  return synthesized(chart).find((o: any) => o.kind === 'DaemonSet');
}

/** a template as the API server returns it: defaults filled in where kubectl shows them. */
function served(template: any): any {
  const t = JSON.parse(JSON.stringify(template));
  t.metadata = { creationTimestamp: null, ...t.metadata };
  return t;
}

function revision(number: number, hash: string, template: any): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${NAME}-${hash}`,
      namespace: NS,
      uid: `5a1c9e3b-000${number}-4d2f-8b6a-0c4e7f9a1d3${number}`,
      creationTimestamp: number === 1 ? '2025-06-02T08:41:10Z' : '2025-06-02T09:02:30Z',
      labels: { 'app.kubernetes.io/name': NAME, 'controller-revision-hash': hash },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: NAME, uid: UID, controller: true, blockOwnerDeletion: true }],
    },
    data: { spec: { template: { ...served(template), $patch: 'replace' } } },
    revision: number,
  };
}

function podOf(template: any, nodeName: string, name: string, uid: string, hash: string, generation: number, created: string, status: any): any {
  const spec = JSON.parse(JSON.stringify(template.spec));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      generateName: `${NAME}-`,
      namespace: NS,
      uid,
      creationTimestamp: created,
      labels: { ...template.metadata.labels, 'controller-revision-hash': hash, 'pod-template-generation': String(generation) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: NAME, uid: UID, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      ...spec,
      nodeName,
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }] } } },
      tolerations: [
        ...(spec.tolerations ?? []),
        { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists' },
        { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists' },
        { effect: 'NoSchedule', key: 'node.kubernetes.io/disk-pressure', operator: 'Exists' },
        { effect: 'NoSchedule', key: 'node.kubernetes.io/memory-pressure', operator: 'Exists' },
        { effect: 'NoSchedule', key: 'node.kubernetes.io/pid-pressure', operator: 'Exists' },
        { effect: 'NoSchedule', key: 'node.kubernetes.io/unschedulable', operator: 'Exists' },
      ],
    },
    status,
  };
}

function running(started: string, readySince: string, podIP: string, hostIP: string): any {
  return {
    phase: 'Running',
    conditions: [
      { type: 'PodReadyToStartContainers', status: 'True', lastProbeTime: null, lastTransitionTime: started },
      { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: started },
      { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: readySince },
      { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: readySince },
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: started },
    ],
    hostIP,
    hostIPs: [{ ip: hostIP }],
    podIP,
    podIPs: [{ ip: podIP }],
    startTime: started,
    containerStatuses: [{
      containerID: `containerd://${Buffer.from(podIP).toString('hex').padEnd(64, '0')}`,
      image: 'docker.io/library/nginx:1.27-alpine',
      imageID: 'docker.io/library/nginx@sha256:65645c7bb6a0661892a8b03b89d0743208a18dd2f3f17a54ef4b76fb8e2f2a10',
      lastState: {},
      name: 'agent',
      ready: true,
      restartCount: 0,
      started: true,
      state: { running: { startedAt: started } },
    }],
    qosClass: 'Burstable',
  };
}

function event(involved: any, reason: string, message: string, at: string, type = 'Normal', component = 'kubelet', host?: string): any {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${involved.metadata.name}.${Buffer.from(reason + at).toString('hex').slice(0, 16)}`, namespace: NS, creationTimestamp: at },
    involvedObject: { apiVersion: involved.apiVersion, kind: involved.kind, name: involved.metadata.name, namespace: NS, uid: involved.metadata.uid },
    reason,
    message,
    type,
    count: 1,
    firstTimestamp: at,
    lastTimestamp: at,
    eventTime: null,
    source: { component, ...(host ? { host } : {}) },
    reportingComponent: component,
    reportingInstance: host ?? '',
  };
}

export function kindSnapshot(): any {
  const nodes = parse(fs.readFileSync(path.join(KIND_DIR, 'nodes', 'nodes-all-labelled.yaml'), 'utf-8')).items;
  const a = daemonSetOf(ExerciseAChart);
  const b = daemonSetOf(ExerciseBChart);
  const ds = JSON.parse(JSON.stringify(b));
  ds.metadata = {
    ...ds.metadata,
    uid: UID,
    generation: 2,
    resourceVersion: '2817',
    creationTimestamp: '2025-06-02T08:41:10Z',
    annotations: { ...ds.metadata.annotations, 'deprecated.daemonset.template.generation': '2' },
  };
  ds.spec.template = served(ds.spec.template);
  ds.spec.updateStrategy = ds.spec.updateStrategy ?? { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
  ds.status = {
    currentNumberScheduled: 3,
    desiredNumberScheduled: 3,
    numberAvailable: 2,
    numberMisscheduled: 0,
    numberReady: 2,
    numberUnavailable: 1,
    observedGeneration: 2,
    updatedNumberScheduled: 2,
  };

  const cp = podOf(b.spec.template, 'kind-control-plane', 'nginx-agent-8kq2w', 'c41d7e2a-6b3f-4a58-9e0c-1f2d3b4a5c61', HASH_B, 2, '2025-06-02T09:02:31Z',
    running('2025-06-02T09:02:31Z', '2025-06-02T09:02:39Z', '10.244.0.5', '172.18.0.3'));
  const worker = podOf(b.spec.template, 'kind-worker', 'nginx-agent-t5n7v', 'c41d7e2a-6b3f-4a58-9e0c-1f2d3b4a5c62', HASH_B, 2, '2025-06-02T09:02:41Z', {
    phase: 'Pending',
    conditions: [
      { type: 'PodReadyToStartContainers', status: 'False', lastProbeTime: null, lastTransitionTime: '2025-06-02T09:02:41Z' },
      { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-06-02T09:02:41Z' },
      { type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: '2025-06-02T09:02:41Z', reason: 'ContainersNotReady', message: 'containers with unready status: [agent]' },
      { type: 'ContainersReady', status: 'False', lastProbeTime: null, lastTransitionTime: '2025-06-02T09:02:41Z', reason: 'ContainersNotReady', message: 'containers with unready status: [agent]' },
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-06-02T09:02:41Z' },
    ],
    hostIP: '172.18.0.2',
    hostIPs: [{ ip: '172.18.0.2' }],
    startTime: '2025-06-02T09:02:41Z',
    containerStatuses: [{ image: 'nginx:1.27-alpine', imageID: '', lastState: {}, name: 'agent', ready: false, restartCount: 0, started: false, state: { waiting: { reason: 'ContainerCreating' } } }],
    qosClass: 'Burstable',
  });
  const worker2 = podOf(a.spec.template, 'kind-worker2', 'nginx-agent-r2d4x', 'c41d7e2a-6b3f-4a58-9e0c-1f2d3b4a5c63', HASH_A, 1, '2025-06-02T08:41:11Z',
    running('2025-06-02T08:41:11Z', '2025-06-02T08:41:19Z', '10.244.2.4', '172.18.0.4'));

  const events = [
    event(ds, 'SuccessfulCreate', 'Created pod: nginx-agent-8kq2w', '2025-06-02T09:02:31Z', 'Normal', 'daemonset-controller'),
    event(ds, 'SuccessfulDelete', 'Deleted pod: nginx-agent-h3m6z', '2025-06-02T09:02:40Z', 'Normal', 'daemonset-controller'),
    event(ds, 'SuccessfulCreate', 'Created pod: nginx-agent-t5n7v', '2025-06-02T09:02:41Z', 'Normal', 'daemonset-controller'),
    event(worker, 'Scheduled', `Successfully assigned ${NS}/nginx-agent-t5n7v to kind-worker`, '2025-06-02T09:02:41Z', 'Normal', 'default-scheduler'),
  ];
  return { apiVersion: 'v1', kind: 'List', items: [...nodes, ds, revision(1, HASH_A, a.spec.template), revision(2, HASH_B, b.spec.template), cp, worker, worker2, ...events], metadata: { resourceVersion: '' } };
}

export function kindSnapshotYaml(): string {
  return '# kubectl get nodes,daemonsets,controllerrevisions,pods,events -A -o yaml (a kind cluster, exercise B rolling out)\n' +
    '# generated by test/cli/kind-snapshot.ts; test/cli/kind-status.test.ts keeps it equal\n' + stringify(kindSnapshot());
}
