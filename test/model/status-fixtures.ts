// Realistic cluster objects for the `status` tests: nodes, a DaemonSet with the status the controller writes, its
// ControllerRevisions, pods with the statuses the kubelet writes, and events with the reasons and messages the
// kubelet, the scheduler and the DaemonSet controller write. Every builder returns plain JSON as
// `kubectl get -o json` prints it; test/model/status-fixtures.test.ts checks each against the Kubernetes schema.
//
// Where the wording comes from (kubernetes/kubernetes):
// - scheduler: pkg/scheduler/framework/types.go (FitError.Error: "0/%v nodes are available: <sorted histogram>."
//   + " " + the PostFilter message), pkg/scheduler/schedule_one.go (nodes a PreFilter result leaves out:
//   "node(s) didn't satisfy plugin(s) [NodeAffinity]"), plugins/noderesources/fit.go ("Insufficient cpu"),
//   plugins/nodeports/node_ports.go ("node(s) didn't have free ports for the requested pod ports"),
//   framework/preemption/preemption.go ("preemption: 0/3 nodes are available: ... Preemption is not helpful
//   for scheduling.", "No preemption victims found for incoming pod")
// - kubelet volumes: pkg/volume/hostpath/host_path.go (checkType: "hostPath type check failed: %s is not a
//   directory" up to v1.34; v1.37: "hostPath type check failed, %s is not a directory, unable to determine its type:
//   path %q does not exist"), pkg/volume/util/operationexecutor/operation_executor.go
//   (generateVolumeMsg: `MountVolume.SetUp failed for volume "varlog" : <err>`), pkg/kubelet/events/event.go
//   (FailedMount)
// - kubelet images: pkg/kubelet/images/image_manager.go ("Failed to pull image %q: %v", "Back-off pulling image %q"),
//   pkg/kubelet/images/types.go (ErrImagePull, ImagePullBackOff)
// - kubelet restarts: pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff ("back-off %s restarting failed
//   container=%s pod=%s", event "Back-off restarting failed container %s in pod %s")
// - kubelet probes: pkg/kubelet/prober/prober.go ("%s probe failed: %s", reason Unhealthy), pkg/probe/http/http.go
//   ("HTTP probe failed with statuscode: %d")
// - DaemonSet controller: pkg/controller/controller_utils.go (FailedCreate "Error creating: %v"); the Pod Security
//   admission error text: staging/src/k8s.io/pod-security-admission/admission/admission.go ("violates PodSecurity %q: %s")

export const NOW = '2025-06-02T09:10:00Z';
export const NS = 'observability';
export const DS_NAME = 'node-agent';
export const DS_UID = '6b0f3c52-9d4e-4a7f-8f1e-2c9a7d3e5b10';
export const IMAGE = 'registry.example.com/node-agent:1.2.0';
export const HASH_V1 = '7c9d5f8b6';
export const HASH_V2 = '5d4b8c7f9';

export function node(name: string, opts: { controlPlane?: boolean; ready?: boolean; labels?: Record<string, string> } = {}): any {
  const ready = opts.ready ?? true;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `0c1d2e3f-${name.length.toString(16).padStart(4, '0')}-4a5b-8c6d-${Buffer.from(name).toString('hex').slice(0, 12).padEnd(12, '0')}`,
      creationTimestamp: '2025-06-02T08:14:05Z',
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        ...(opts.controlPlane ? { 'node-role.kubernetes.io/control-plane': '' } : {}),
        ...opts.labels,
      },
    },
    spec: {
      podCIDR: '10.244.1.0/24',
      providerID: `kind://docker/kind/${name}`,
      ...(opts.controlPlane ? { taints: [{ effect: 'NoSchedule', key: 'node-role.kubernetes.io/control-plane' }] } : {}),
    },
    status: {
      allocatable: { 'cpu': '8', 'ephemeral-storage': '102625208Ki', 'memory': '16248876Ki', 'pods': '110' },
      capacity: { 'cpu': '8', 'ephemeral-storage': '102625208Ki', 'memory': '16248876Ki', 'pods': '110' },
      conditions: [
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available', lastHeartbeatTime: '2025-06-02T09:08:41Z', lastTransitionTime: '2025-06-02T08:14:27Z' },
        { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', lastHeartbeatTime: '2025-06-02T09:08:41Z', lastTransitionTime: '2025-06-02T08:14:27Z' },
        { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available', lastHeartbeatTime: '2025-06-02T09:08:41Z', lastTransitionTime: '2025-06-02T08:14:27Z' },
        ready
          ? { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: '2025-06-02T09:08:41Z', lastTransitionTime: '2025-06-02T08:14:52Z' }
          // pkg/controller/nodelifecycle/node_lifecycle_controller.go: "Kubelet stopped posting node status."
          : { type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastHeartbeatTime: '2025-06-02T08:50:41Z', lastTransitionTime: '2025-06-02T08:51:30Z' },
      ],
      nodeInfo: {
        architecture: 'amd64',
        bootID: '3f1c2a4e-8d0b-4f7e-9a61-2c5d7e9b0a13',
        containerRuntimeVersion: 'containerd://1.7.15',
        kernelVersion: '6.8.0-45-generic',
        kubeProxyVersion: 'v1.30.0',
        kubeletVersion: 'v1.30.0',
        machineID: 'b1d0f3a9c2e84d67a5f0c3e2d1b4a697',
        operatingSystem: 'linux',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        systemUUID: 'b1d0f3a9-c2e8-4d67-a5f0-c3e2d1b4a697',
      },
    },
  };
}

/** the kind cluster of the examples: one tainted control plane, two workers. */
export function kindNodes(): any[] {
  return [node('kind-control-plane', { controlPlane: true }), node('kind-worker'), node('kind-worker2')];
}

export interface DsOptions {
  readonly image?: string;
  readonly generation?: number;
  readonly observedGeneration?: number;
  readonly templateGeneration?: number;
  readonly minReadySeconds?: number;
  readonly updateStrategy?: any;
  readonly status?: Partial<Record<'desiredNumberScheduled' | 'currentNumberScheduled' | 'numberReady' | 'updatedNumberScheduled' | 'numberAvailable' | 'numberMisscheduled' | 'numberUnavailable', number>>;
  readonly hostPort?: number;
  readonly requests?: Record<string, string>;
  readonly tolerations?: any[];
  readonly hostPath?: string;
}

export function daemonSet(opts: DsOptions = {}): any {
  const generation = opts.generation ?? 1;
  const status = {
    currentNumberScheduled: 2,
    desiredNumberScheduled: 2,
    numberAvailable: 2,
    numberMisscheduled: 0,
    numberReady: 2,
    updatedNumberScheduled: 2,
    ...opts.status,
  };
  const numberUnavailable = status.desiredNumberScheduled - status.numberAvailable;
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: DS_NAME,
      namespace: NS,
      uid: DS_UID,
      generation,
      resourceVersion: '4321',
      creationTimestamp: '2025-06-02T08:30:00Z',
      annotations: { 'deprecated.daemonset.template.generation': String(opts.templateGeneration ?? generation) },
      labels: { 'app.kubernetes.io/name': DS_NAME },
    },
    spec: {
      revisionHistoryLimit: 10,
      selector: { matchLabels: { 'app.kubernetes.io/name': DS_NAME } },
      ...(opts.minReadySeconds !== undefined ? { minReadySeconds: opts.minReadySeconds } : {}),
      template: template(opts),
      updateStrategy: opts.updateStrategy ?? { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
    },
    status: {
      ...status,
      ...(numberUnavailable > 0 ? { numberUnavailable } : {}),
      observedGeneration: opts.observedGeneration ?? generation,
    },
  };
}

export function template(opts: DsOptions = {}): any {
  return {
    metadata: { creationTimestamp: null, labels: { 'app.kubernetes.io/name': DS_NAME } },
    spec: {
      containers: [{
        name: 'agent',
        image: opts.image ?? IMAGE,
        imagePullPolicy: 'IfNotPresent',
        ...(opts.hostPort ? { ports: [{ containerPort: opts.hostPort, hostPort: opts.hostPort, name: 'metrics', protocol: 'TCP' }] } : {}),
        readinessProbe: { failureThreshold: 3, httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, periodSeconds: 10, successThreshold: 1, timeoutSeconds: 1 },
        resources: { limits: { memory: '64Mi' }, requests: { cpu: '100m', memory: '64Mi', ...opts.requests } },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        volumeMounts: [{ mountPath: opts.hostPath ?? '/var/log', name: 'varlog', readOnly: true }],
      }],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      serviceAccountName: DS_NAME,
      terminationGracePeriodSeconds: 30,
      ...(opts.tolerations ? { tolerations: opts.tolerations } : {}),
      volumes: [{ name: 'varlog', hostPath: { path: opts.hostPath ?? '/var/log', type: 'Directory' } }],
    },
  };
}

/** the ControllerRevision the controller writes for a template (`snapshot` in pkg/controller/daemon/update.go). */
export function revision(revisionNumber: number, hash: string, tmpl: any = template()): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${DS_NAME}-${hash}`,
      namespace: NS,
      uid: `9e8d7c6b-0000-4000-8000-00000000000${revisionNumber}`,
      creationTimestamp: `2025-06-02T08:3${revisionNumber}:00Z`,
      labels: { 'app.kubernetes.io/name': DS_NAME, 'controller-revision-hash': hash },
      annotations: { 'deprecated.daemonset.template.generation': String(revisionNumber) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: DS_NAME, uid: DS_UID, controller: true, blockOwnerDeletion: true }],
    },
    data: { spec: { template: { ...tmpl, $patch: 'replace' } } },
    revision: revisionNumber,
  };
}

export interface PodOptions {
  readonly name?: string;
  readonly hash?: string;
  readonly templateGeneration?: number;
  readonly created?: string;
  readonly scheduled?: boolean;
  readonly phase?: string;
  readonly ready?: boolean;
  readonly readySince?: string;
  readonly containerStatus?: any;
  readonly conditions?: any[];
  readonly status?: any;
  readonly deletionTimestamp?: string;
  readonly image?: string;
  readonly hostPath?: string;
}

let podCounter = 0;

/** a DaemonSet pod on `nodeName`, as the controller creates it and the kubelet reports it (running and ready by default). */
export function pod(nodeName: string, opts: PodOptions = {}): any {
  podCounter++;
  const name = opts.name ?? `${DS_NAME}-${nodeName.endsWith('2') ? 'x7k2p' : nodeName.endsWith('plane') ? 'c9q4m' : 'b5t8r'}`;
  const uid = `4f3e2d1c-${String(podCounter).padStart(4, '0')}-4b5a-9c8d-${Buffer.from(name).toString('hex').slice(-12)}`;
  const scheduled = opts.scheduled ?? true;
  const ready = opts.ready ?? true;
  const created = opts.created ?? '2025-06-02T08:40:00Z';
  const readySince = opts.readySince ?? '2025-06-02T08:40:12Z';
  const tmpl = template({ image: opts.image, hostPath: opts.hostPath });
  const containerStatus = opts.containerStatus ?? {
    containerID: 'containerd://0d9c8b7a6f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6b5a',
    image: opts.image ?? IMAGE,
    imageID: 'registry.example.com/node-agent@sha256:3b5f0c2d9e8a7f6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b',
    lastState: {},
    name: 'agent',
    ready,
    restartCount: 0,
    started: true,
    state: { running: { startedAt: '2025-06-02T08:40:05Z' } },
  };
  const conditions = opts.conditions ?? (scheduled
    ? [
      { type: 'PodReadyToStartContainers', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-06-02T08:40:03Z' },
      { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-06-02T08:40:01Z' },
      ready
        ? { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: readySince }
        : { type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: '2025-06-02T08:40:01Z', reason: 'ContainersNotReady', message: 'containers with unready status: [agent]' },
      ready
        ? { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: readySince }
        : { type: 'ContainersReady', status: 'False', lastProbeTime: null, lastTransitionTime: '2025-06-02T08:40:01Z', reason: 'ContainersNotReady', message: 'containers with unready status: [agent]' },
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-06-02T08:40:00Z' },
    ]
    : []);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      generateName: `${DS_NAME}-`,
      namespace: NS,
      uid,
      resourceVersion: String(5000 + podCounter),
      creationTimestamp: created,
      ...(opts.deletionTimestamp ? { deletionTimestamp: opts.deletionTimestamp, deletionGracePeriodSeconds: 30 } : {}),
      labels: {
        'app.kubernetes.io/name': DS_NAME,
        'controller-revision-hash': opts.hash ?? HASH_V1,
        'pod-template-generation': String(opts.templateGeneration ?? 1),
      },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: DS_NAME, uid: DS_UID, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      ...tmpl.spec,
      ...(scheduled ? { nodeName } : {}),
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
          },
        },
      },
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
      priority: 0,
      tolerations: [
        { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists' },
        { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists' },
        { effect: 'NoSchedule', key: 'node.kubernetes.io/disk-pressure', operator: 'Exists' },
        { effect: 'NoSchedule', key: 'node.kubernetes.io/memory-pressure', operator: 'Exists' },
        { effect: 'NoSchedule', key: 'node.kubernetes.io/pid-pressure', operator: 'Exists' },
        { effect: 'NoSchedule', key: 'node.kubernetes.io/unschedulable', operator: 'Exists' },
      ],
    },
    status: opts.status ?? {
      phase: opts.phase ?? (scheduled ? 'Running' : 'Pending'),
      conditions,
      ...(scheduled ? {
        hostIP: '172.18.0.2',
        hostIPs: [{ ip: '172.18.0.2' }],
        podIP: '10.244.1.7',
        podIPs: [{ ip: '10.244.1.7' }],
        startTime: '2025-06-02T08:40:00Z',
        containerStatuses: [containerStatus],
      } : {}),
      qosClass: 'Burstable',
    },
  };
}

let eventCounter = 0;

/** a `v1` Event about `obj` as a component records it through client-go's legacy recorder (kubelet, controllers). */
export interface EventOptions {
  readonly type?: string;
  readonly reason: string;
  readonly message: string;
  readonly count?: number;
  readonly first?: string;
  readonly last?: string;
  readonly component?: string;
  readonly host?: string;
  readonly fieldPath?: string;
}

export function event(obj: any, e: EventOptions): any {
  eventCounter++;
  const component = e.component ?? 'kubelet';
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${obj.metadata.name}.18${String(eventCounter).padStart(14, '0')}`,
      namespace: obj.metadata.namespace,
      uid: `e0e0e0e0-0000-4000-8000-${String(eventCounter).padStart(12, '0')}`,
      resourceVersion: String(7000 + eventCounter),
      creationTimestamp: e.first ?? e.last ?? '2025-06-02T08:40:00Z',
    },
    involvedObject: {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      name: obj.metadata.name,
      namespace: obj.metadata.namespace,
      uid: obj.metadata.uid,
      resourceVersion: obj.metadata.resourceVersion,
      ...(e.fieldPath ? { fieldPath: e.fieldPath } : {}),
    },
    reason: e.reason,
    message: e.message,
    source: { component, ...(e.host ? { host: e.host } : {}) },
    firstTimestamp: e.first ?? e.last ?? '2025-06-02T08:40:00Z',
    lastTimestamp: e.last ?? e.first ?? '2025-06-02T08:40:00Z',
    count: e.count ?? 1,
    type: e.type ?? 'Warning',
    eventTime: null,
    reportingComponent: component,
    reportingInstance: e.host ?? '',
  };
}

/**
 * a scheduler event as read through the core `v1` API: the scheduler records through `events.k8s.io/v1`, so the
 * object carries eventTime, action and reportingController, and no first/lastTimestamp.
 */
export function schedulerEvent(p: any, message: string, at = '2025-06-02T09:05:00.123456Z'): any {
  eventCounter++;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${p.metadata.name}.18${String(eventCounter).padStart(14, '0')}`,
      namespace: p.metadata.namespace,
      uid: `e1e1e1e1-0000-4000-8000-${String(eventCounter).padStart(12, '0')}`,
      resourceVersion: String(7000 + eventCounter),
      creationTimestamp: at.replace(/\.\d+Z$/, 'Z'),
    },
    action: 'Scheduling',
    eventTime: at,
    firstTimestamp: null,
    lastTimestamp: null,
    involvedObject: { apiVersion: 'v1', kind: 'Pod', name: p.metadata.name, namespace: p.metadata.namespace, uid: p.metadata.uid, resourceVersion: p.metadata.resourceVersion },
    message,
    reason: 'FailedScheduling',
    reportingComponent: 'default-scheduler',
    reportingInstance: 'default-scheduler-kind-control-plane',
    source: {},
    type: 'Warning',
  };
}

/** a kind List of objects, as `kubectl get a,b,c -A -o json` prints it. */
export function list(items: any[]): any {
  return { apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } };
}
