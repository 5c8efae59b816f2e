'use strict';
// Deterministic inputs for the benchmarks: the agent every synth case builds (the least-privilege agent of
// examples/daemonset-basics, with tolerations and a node selector), its cdk8s-plus-28 twin, a node inventory
// and a set of third-party workloads.
const { prng } = require('./common');

const IMAGE = 'registry.example.com/node-agent:1.2.0';

/** agents live in a few namespaces, as in a real platform chart (4:3:2:1). */
const NAMESPACE_PATTERN = ['observability', 'observability', 'observability', 'observability',
  'logging', 'logging', 'logging', 'security', 'security', 'networking'];

function agentNamespace(i) {
  return NAMESPACE_PATTERN[i % NAMESPACE_PATTERN.length];
}

/**
 * Props of the i-th NodeAgent: the least-privilege agent of examples/daemonset-basics (NET_ADMIN and SYS_PTRACE with
 * reasons, /var/log read-only and typed), tolerating control-plane and GPU nodes, selecting amd64 nodes.
 * `namespace: undefined` leaves it to the chart (the fleet case).
 */
function agentProps(lib, plus, i, namespace) {
  return {
    name: `node-agent-${i}`,
    namespace,
    image: IMAGE,
    // as the example: added capabilities take effect only for root (Kubernetes sets no ambient capabilities)
    runAsRoot: { reason: 'NET_ADMIN and SYS_PTRACE take effect only for root; every other capability is dropped' },
    capabilities: [
      { capability: plus.Capability.NET_ADMIN, reason: 'network management only' },
      { capability: plus.Capability.SYS_PTRACE, reason: 'process tracing only, as Falco does' },
    ],
    hostMounts: [
      lib.HostMount.readOnly('/var/log', { type: plus.HostPathVolumeType.DIRECTORY, volumeName: 'varlog', reason: 'reads node and container logs' }),
    ],
    tolerations: [
      lib.Toleration.controlPlane(),
      lib.Toleration.equal('dedicated', 'gpu', { effect: plus.TaintEffect.NO_SCHEDULE }),
    ],
    nodeSelector: { 'kubernetes.io/arch': 'amd64' },
  };
}

/**
 * The same agent with cdk8s-plus-28, as close as it allows: it has no nodeSelector (required node affinity
 * instead), no updateStrategy, no seccomp at pod level; it adds its own selector label and defaults.
 */
function plusAgent(plus, cdk8s, chart, i, namespace) {
  const name = `node-agent-${i}`;
  const labels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/managed-by': 'cdk8s-node-agents' };
  const sa = new plus.ServiceAccount(chart, `sa-${i}`, { metadata: { name, namespace, labels }, automountToken: false });
  const ds = new plus.DaemonSet(chart, `agent-${i}`, {
    metadata: { name, namespace, labels },
    serviceAccount: sa,
    automountServiceAccountToken: false,
    // root, as the NodeAgent twin (its capabilities take effect only for root)
    securityContext: { ensureNonRoot: false },
    containers: [{
      name: 'agent',
      image: IMAGE,
      imagePullPolicy: plus.ImagePullPolicy.IF_NOT_PRESENT,
      envVariables: {
        NODE_NAME: plus.EnvValue.fromFieldRef(plus.EnvFieldPaths.NODE_NAME),
        POD_NAME: plus.EnvValue.fromFieldRef(plus.EnvFieldPaths.POD_NAME),
        POD_NAMESPACE: plus.EnvValue.fromFieldRef(plus.EnvFieldPaths.POD_NAMESPACE),
      },
      resources: {
        cpu: { request: plus.Cpu.millis(100) },
        memory: { request: cdk8s.Size.mebibytes(128), limit: cdk8s.Size.mebibytes(256) },
      },
      securityContext: {
        ensureNonRoot: false,
        user: 0,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        privileged: false,
        capabilities: { add: [plus.Capability.NET_ADMIN, plus.Capability.SYS_PTRACE], drop: [plus.Capability.ALL] },
      },
    }],
  });
  const varlog = plus.Volume.fromHostPath(chart, `varlog-${i}`, 'varlog', { path: '/var/log', type: plus.HostPathVolumeType.DIRECTORY });
  ds.containers[0].mount('/var/log', varlog, { readOnly: true });
  ds.scheduling.tolerate(plus.Node.tainted(
    plus.NodeTaintQuery.exists('node-role.kubernetes.io/control-plane', { effect: plus.TaintEffect.NO_SCHEDULE }),
    plus.NodeTaintQuery.is('dedicated', 'gpu', { effect: plus.TaintEffect.NO_SCHEDULE }),
  ));
  ds.scheduling.attract(plus.Node.labeled(
    plus.NodeLabelQuery.is('kubernetes.io/os', 'linux'),
    plus.NodeLabelQuery.is('kubernetes.io/arch', 'amd64'),
  ));
  return ds;
}

/** the Namespace cdk8s-plus-28 builds for a namespace of agents (the same PSA labels NodeAgent sets). */
function plusNamespace(plus, chart, name) {
  const psa = 'pod-security.kubernetes.io';
  return new plus.Namespace(chart, `ns-${name}`, {
    metadata: {
      name,
      labels: {
        'app.kubernetes.io/managed-by': 'cdk8s-node-agents',
        [`${psa}/enforce`]: 'privileged', [`${psa}/enforce-version`]: 'v1.28',
        [`${psa}/warn`]: 'restricted', [`${psa}/warn-version`]: 'v1.28',
        [`${psa}/audit`]: 'restricted', [`${psa}/audit-version`]: 'v1.28',
      },
    },
  });
}

// ---------------------------------------------------------------- node inventory

const ZONES = ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'];
const KUBELET = 'v1.28.9';

function condition(type, status, reason) {
  return {
    type, status, reason,
    message: `kubelet reports ${type} ${status}`,
    lastHeartbeatTime: '2026-11-29T10:00:00Z',
    lastTransitionTime: '2026-11-01T08:00:00Z',
  };
}

/**
 * A `kubectl get nodes -o yaml` NodeList of `count` nodes: 3 control-plane nodes (tainted), 3 zones, pools
 * general / highmem / gpu (tainted) / spot (tainted) / infra (NoExecute) / a few Windows nodes, about 0.3%
 * cordoned, and 2 nodes not ready.
 */
function nodeInventory(count) {
  const r = prng(42);
  const items = [];
  for (let i = 0; i < count; i++) {
    const zone = ZONES[i % ZONES.length];
    const controlPlane = i < 3;
    let pool = 'general';
    if (!controlPlane) {
      const x = r.next();
      pool = x < 0.70 ? 'general' : x < 0.85 ? 'highmem' : x < 0.90 ? 'gpu' : x < 0.97 ? 'spot' : x < 0.99 ? 'infra' : 'windows';
    }
    const name = controlPlane ? `cp-${i}` : `ip-10-${(i >> 8) & 255}-${i & 255}-${r.int(1, 254)}.eu-west-1.compute.internal`;
    const labels = {
      'beta.kubernetes.io/arch': pool === 'gpu' || r.chance(0.9) ? 'amd64' : 'arm64',
      'beta.kubernetes.io/os': pool === 'windows' ? 'windows' : 'linux',
      'kubernetes.io/hostname': name,
      'kubernetes.io/os': pool === 'windows' ? 'windows' : 'linux',
      'node.kubernetes.io/instance-type': { general: 'm6i.2xlarge', highmem: 'r6i.4xlarge', gpu: 'g5.2xlarge', spot: 'm6i.xlarge', infra: 'c6i.2xlarge', windows: 'm6i.2xlarge' }[pool],
      'topology.kubernetes.io/region': 'eu-west-1',
      'topology.kubernetes.io/zone': zone,
      'topology.ebs.csi.aws.com/zone': zone,
      'node.example.com/pool': controlPlane ? 'control-plane' : pool,
    };
    labels['kubernetes.io/arch'] = labels['beta.kubernetes.io/arch'];
    if (controlPlane) labels['node-role.kubernetes.io/control-plane'] = '';
    else labels['node-role.kubernetes.io/worker'] = '';
    if (pool === 'gpu') labels['nvidia.com/gpu.present'] = 'true';
    if (pool === 'spot') labels['node.example.com/capacity-type'] = 'spot';
    if (pool === 'infra') labels.dedicated = 'infra';
    if (r.chance(0.2)) labels['disk-type'] = 'ssd';

    const taints = [];
    if (controlPlane) taints.push({ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' });
    if (pool === 'gpu') taints.push({ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' });
    if (pool === 'spot') taints.push({ key: 'node.example.com/spot', value: 'true', effect: 'NoSchedule' });
    if (pool === 'infra') taints.push({ key: 'dedicated', value: 'infra', effect: 'NoExecute' });
    if (pool === 'windows') taints.push({ key: 'os', value: 'windows', effect: 'NoSchedule' });
    if (r.chance(0.01)) taints.push({ key: 'node.example.com/maintenance', value: 'soon', effect: 'PreferNoSchedule' });
    const cordoned = !controlPlane && r.chance(0.003);
    if (cordoned) taints.push({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: '2026-11-29T09:00:00Z' });
    const notReady = i === 1234 || i === 4321;
    if (notReady) taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: '2026-11-29T09:30:00Z' });

    const cpu = { general: '8', highmem: '16', gpu: '8', spot: '4', infra: '8', windows: '8' }[pool];
    const images = [];
    for (let k = 0; k < 10; k++) {
      const repo = r.pick(['registry.k8s.io/kube-proxy', 'quay.io/prometheus/node-exporter', 'cr.fluentbit.io/fluent/fluent-bit',
        'docker.io/calico/node', 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver', 'registry.example.com/app/api',
        'registry.example.com/app/worker', 'docker.io/library/nginx', 'ghcr.io/falcosecurity/falco', 'registry.k8s.io/pause']);
      const tag = `v1.${r.int(0, 30)}.${r.int(0, 9)}`;
      images.push({ names: [`${repo}@sha256:${(i * 7919 + k * 104729).toString(16).padStart(64, '0')}`, `${repo}:${tag}`], sizeBytes: r.int(700000, 300000000) });
    }
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        uid: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
        resourceVersion: String(1000000 + i),
        creationTimestamp: '2026-11-01T08:00:00Z',
        labels,
        annotations: {
          'alpha.kubernetes.io/provided-node-ip': `10.${(i >> 8) & 255}.${i & 255}.10`,
          'csi.volume.kubernetes.io/nodeid': JSON.stringify({ 'ebs.csi.aws.com': `i-0${i.toString(16).padStart(16, '0')}` }),
          'node.alpha.kubernetes.io/ttl': '0',
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        },
      },
      spec: {
        podCIDR: `100.${64 + ((i >> 8) & 63)}.${i & 255}.0/24`,
        podCIDRs: [`100.${64 + ((i >> 8) & 63)}.${i & 255}.0/24`],
        providerID: `aws:///${zone}/i-0${i.toString(16).padStart(16, '0')}`,
      },
      status: {
        addresses: [
          { type: 'InternalIP', address: `10.${(i >> 8) & 255}.${i & 255}.10` },
          { type: 'Hostname', address: name },
          { type: 'InternalDNS', address: name },
        ],
        allocatable: { cpu: `${Number(cpu) * 1000 - 90}m`, 'ephemeral-storage': '95551679124', memory: '31369452Ki', pods: '58' },
        capacity: { cpu, 'ephemeral-storage': '104845292Ki', memory: '32386284Ki', pods: '58' },
        conditions: [
          condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory'),
          condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure'),
          condition('PIDPressure', 'False', 'KubeletHasSufficientPID'),
          condition('Ready', notReady ? 'Unknown' : 'True', notReady ? 'NodeStatusUnknown' : 'KubeletReady'),
        ],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        images,
        nodeInfo: {
          architecture: labels['kubernetes.io/arch'],
          bootID: `b0000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
          containerRuntimeVersion: 'containerd://1.7.11',
          kernelVersion: '6.1.72-96.166.amzn2023.x86_64',
          kubeProxyVersion: KUBELET,
          kubeletVersion: KUBELET,
          machineID: i.toString(16).padStart(32, '0'),
          operatingSystem: labels['kubernetes.io/os'],
          osImage: pool === 'windows' ? 'Windows Server 2022 Datacenter' : 'Amazon Linux 2023',
          systemUUID: `ec2${i.toString(16).padStart(29, '0')}`,
        },
      },
    };
    if (taints.length > 0) node.spec.taints = taints;
    if (cordoned) node.spec.unschedulable = true;
    items.push(node);
  }
  return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items };
}

/**
 * Props of 100 varied agents for the coverage case: node selectors, required zone affinity, tolerations of
 * one pool or of everything, host network.
 */
function coverageAgentProps(lib, plus, i) {
  const r = prng(1000 + i);
  const props = {
    name: `coverage-agent-${i}`,
    namespace: agentNamespace(i),
    image: IMAGE,
  };
  const nodeSelector = {};
  if (r.chance(0.3)) nodeSelector['kubernetes.io/arch'] = 'amd64';
  if (r.chance(0.15)) nodeSelector['node.example.com/pool'] = r.pick(['general', 'highmem', 'gpu', 'spot']);
  if (r.chance(0.1)) nodeSelector['node-role.kubernetes.io/worker'] = '';
  if (Object.keys(nodeSelector).length > 0) props.nodeSelector = nodeSelector;
  if (r.chance(0.25)) {
    props.requiredNodeAffinity = [{
      requirements: [
        lib.NodeRequirement.in('topology.kubernetes.io/zone', ZONES.slice(0, r.int(1, 3))),
        ...(r.chance(0.5) ? [lib.NodeRequirement.notIn('node.example.com/capacity-type', ['spot'])] : []),
      ],
    }];
  }
  const tolerations = [];
  const t = r.next();
  if (t < 0.15) tolerations.push(lib.Toleration.everything());
  else {
    if (r.chance(0.4)) tolerations.push(lib.Toleration.controlPlane());
    if (r.chance(0.3)) tolerations.push(lib.Toleration.exists('nvidia.com/gpu', { effect: plus.TaintEffect.NO_SCHEDULE }));
    if (r.chance(0.3)) tolerations.push(lib.Toleration.equal('node.example.com/spot', 'true', { effect: plus.TaintEffect.NO_SCHEDULE }));
    if (r.chance(0.1)) tolerations.push(lib.Toleration.equal('dedicated', 'infra', { effect: plus.TaintEffect.NO_EXECUTE }));
  }
  if (tolerations.length > 0) props.tolerations = tolerations;
  if (r.chance(0.2)) props.hostNetwork = { reason: 'serves node-local traffic on the node address' };
  return props;
}

// ---------------------------------------------------------------- third-party workloads

const WORKLOAD_KINDS = ['Deployment', 'Deployment', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Pod'];

/**
 * `count` workloads as a user's charts render them: mostly Deployments, some StatefulSets, DaemonSets, Jobs,
 * CronJobs and bare Pods, with security contexts from locked down (restricted) to privileged.
 */
function workloads(count) {
  const r = prng(7);
  const out = [];
  for (let i = 0; i < count; i++) {
    const kind = r.pick(WORKLOAD_KINDS);
    const name = `app-${i}`;
    const namespace = `team-${i % 37}`;
    const labels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/part-of': `product-${i % 11}` };
    const profile = r.next(); // < .45 restricted, < .8 baseline, < .95 a bit more, else privileged
    const containerSc = profile < 0.45
      ? { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, runAsNonRoot: true }
      : profile < 0.8 ? { readOnlyRootFilesystem: r.chance(0.5) }
        : profile < 0.95 ? { capabilities: { add: [r.pick(['NET_ADMIN', 'SYS_ADMIN', 'NET_RAW', 'SYS_PTRACE'])] } }
          : { privileged: true };
    const containers = [];
    const nContainers = r.int(1, 3);
    for (let c = 0; c < nContainers; c++) {
      containers.push({
        name: c === 0 ? 'app' : `sidecar-${c}`,
        image: `registry.example.com/${name}/c${c}:1.${r.int(0, 40)}.${r.int(0, 9)}`,
        ports: c === 0 ? [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] : undefined,
        env: [{ name: 'LOG_LEVEL', value: 'info' }, { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '512Mi' } },
        securityContext: containerSc,
        volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
        readinessProbe: c === 0 ? { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 10 } : undefined,
      });
    }
    const volumes = [{ name: 'tmp', emptyDir: {} }];
    if (profile >= 0.8 && r.chance(0.5)) {
      volumes.push({ name: 'host', hostPath: { path: r.pick(['/var/log', '/proc', '/sys', '/var/run/containerd']), type: 'Directory' } });
      containers[0].volumeMounts.push({ name: 'host', mountPath: '/host', readOnly: true });
    }
    const podSpec = {
      serviceAccountName: name,
      securityContext: profile < 0.45 ? { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } : {},
      hostNetwork: profile >= 0.95 && r.chance(0.5) ? true : undefined,
      hostPID: profile >= 0.95 && r.chance(0.3) ? true : undefined,
      containers,
      volumes,
    };
    const template = { metadata: { labels }, spec: podSpec };
    let manifest;
    const metadata = { name, namespace, labels };
    if (kind === 'Pod') manifest = { apiVersion: 'v1', kind, metadata, spec: podSpec };
    else if (kind === 'Job') manifest = { apiVersion: 'batch/v1', kind, metadata, spec: { template: { ...template, spec: { ...podSpec, restartPolicy: 'OnFailure' } } } };
    else if (kind === 'CronJob') manifest = { apiVersion: 'batch/v1', kind, metadata, spec: { schedule: '*/15 * * * *', jobTemplate: { spec: { template: { ...template, spec: { ...podSpec, restartPolicy: 'OnFailure' } } } } } };
    else manifest = { apiVersion: 'apps/v1', kind, metadata, spec: { selector: { matchLabels: { 'app.kubernetes.io/name': name } }, template, ...(kind === 'DaemonSet' ? {} : { replicas: r.int(1, 5) }) } };
    out.push(JSON.parse(JSON.stringify(manifest))); // drop undefined fields, as a YAML round trip would
  }
  return out;
}

/** the pod spec of a workload (for PodSecurity.evaluate), without the library's helper. */
function podSpecOf(manifest) {
  if (manifest.kind === 'Pod') return manifest.spec;
  if (manifest.kind === 'CronJob') return manifest.spec.jobTemplate.spec.template.spec;
  return manifest.spec.template.spec;
}

module.exports = { IMAGE, agentNamespace, agentProps, plusAgent, plusNamespace, nodeInventory, coverageAgentProps, workloads, podSpecOf };
