// A cluster for the `status` CLI tests: the kind cluster of the examples with two DaemonSets.
// - observability/node-agent rolls out image 1.2.1 (revision 2), which does not exist: the new pod on kind-worker is
//   in ImagePullBackOff, kind-worker2 keeps revision 1 and waits (maxUnavailable 1: blocked); the control plane is
//   excluded by its taint.
// - kube-system/kube-proxy tolerates every taint and is healthy on all three nodes.
import {
  daemonSet, DS_UID, event, HASH_V1, HASH_V2, kindNodes, list, pod, revision, template,
} from '../model/status-fixtures';

export const NEW_IMAGE = 'registry.example.com/node-agent:1.2.1';
const PULL_ERROR = `rpc error: code = NotFound desc = failed to pull and unpack image "${NEW_IMAGE}": failed to resolve reference "${NEW_IMAGE}": ${NEW_IMAGE}: not found`;
const PROXY_UID = '2a7e9c41-5b3d-4f60-9e12-8d4c6b2a0f37';
const PROXY_HASH = '6f8d9c7b5';

function retarget(obj: any, namespace: string, name: string, uid: string): any {
  const copy = JSON.parse(JSON.stringify(obj));
  copy.metadata.namespace = namespace;
  if (copy.metadata.ownerReferences) copy.metadata.ownerReferences = [{ ...copy.metadata.ownerReferences[0], name, uid }];
  const labelMaps = [
    copy.metadata.labels, copy.spec?.selector?.matchLabels, copy.spec?.template?.metadata?.labels, copy.data?.spec?.template?.metadata?.labels,
  ];
  for (const labels of labelMaps) {
    if (labels && labels['app.kubernetes.io/name']) labels['app.kubernetes.io/name'] = name;
  }
  return copy;
}

function kubeProxyTemplate(): any {
  const t = template({ image: 'registry.k8s.io/kube-proxy:v1.30.0' });
  t.metadata.labels = { 'app.kubernetes.io/name': 'kube-proxy' };
  t.spec.containers[0].name = 'kube-proxy';
  delete t.spec.containers[0].readinessProbe;
  t.spec.hostNetwork = true;
  t.spec.priorityClassName = 'system-node-critical';
  t.spec.serviceAccountName = 'kube-proxy';
  t.spec.tolerations = [{ operator: 'Exists' }];
  return t;
}

export function scenarioObjects(): any[] {
  const nodes = kindNodes();

  const agent = daemonSet({ image: NEW_IMAGE, generation: 2, status: { numberReady: 1, numberAvailable: 1, updatedNumberScheduled: 1 } });
  const agentRevisions = [revision(1, HASH_V1), revision(2, HASH_V2, template({ image: NEW_IMAGE }))];
  const pulling = pod('kind-worker', {
    name: 'node-agent-q2w9z',
    image: NEW_IMAGE,
    hash: HASH_V2,
    templateGeneration: 2,
    created: '2025-06-02T09:00:00Z',
    ready: false,
    phase: 'Pending',
    containerStatus: {
      image: NEW_IMAGE,
      imageID: '',
      lastState: {},
      name: 'agent',
      ready: false,
      restartCount: 0,
      started: false,
      state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${NEW_IMAGE}"` } },
    },
  });
  const old = pod('kind-worker2');
  const agentEvents = [
    event(agent, { type: 'Normal', reason: 'SuccessfulDelete', component: 'daemonset-controller', message: 'Deleted pod: node-agent-b5t8r', first: '2025-06-02T08:59:58Z' }),
    event(agent, { type: 'Normal', reason: 'SuccessfulCreate', component: 'daemonset-controller', message: 'Created pod: node-agent-q2w9z', first: '2025-06-02T09:00:00Z' }),
    event(pulling, { reason: 'Failed', message: `Failed to pull image "${NEW_IMAGE}": ${PULL_ERROR}`, count: 4, first: '2025-06-02T09:00:02Z', last: '2025-06-02T09:08:10Z', host: 'kind-worker', fieldPath: 'spec.containers{agent}' }),
    event(pulling, { type: 'Normal', reason: 'BackOff', message: `Back-off pulling image "${NEW_IMAGE}"`, count: 22, first: '2025-06-02T09:00:03Z', last: '2025-06-02T09:09:55Z', host: 'kind-worker', fieldPath: 'spec.containers{agent}' }),
  ];

  const proxyDs = retarget(daemonSet({ status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3, numberAvailable: 3 } }), 'kube-system', 'kube-proxy', PROXY_UID);
  proxyDs.metadata.name = 'kube-proxy';
  proxyDs.metadata.uid = PROXY_UID;
  proxyDs.metadata.creationTimestamp = '2025-06-02T08:14:30Z';
  proxyDs.spec.template = kubeProxyTemplate();
  proxyDs.metadata.annotations['deprecated.daemonset.template.generation'] = '1';
  const proxyRevision = retarget(revision(1, PROXY_HASH, kubeProxyTemplate()), 'kube-system', 'kube-proxy', PROXY_UID);
  proxyRevision.metadata.name = `kube-proxy-${PROXY_HASH}`;
  const proxyPods = ['kind-control-plane', 'kind-worker', 'kind-worker2'].map((n, i) => {
    const p = retarget(pod(n, { name: `kube-proxy-${['m8x2v', 'r4k7d', 'z9p3c'][i]}`, hash: PROXY_HASH, created: '2025-06-02T08:15:00Z', readySince: '2025-06-02T08:15:20Z' }), 'kube-system', 'kube-proxy', PROXY_UID);
    p.metadata.generateName = 'kube-proxy-';
    return p;
  });

  return [...nodes, agent, proxyDs, ...agentRevisions, proxyRevision, pulling, old, ...proxyPods, ...agentEvents];
}

export function scenarioList(): any {
  return list(scenarioObjects());
}

export { DS_UID };
