// The status fixtures are objects the API server accepts: each is checked against the Kubernetes schema, strictly
// (no field the API does not have), so the tests of DaemonSetStatus read objects shaped as a cluster returns them.
import { daemonSet, event, HASH_V1, kindNodes, node, pod, revision, schedulerEvent } from './status-fixtures';
import { validateManifest } from '../util/k8s-schema';

describe('status fixtures are valid Kubernetes objects', () => {
  const p = pod('kind-worker');
  const objects: Array<[string, any]> = [
    ['Node', kindNodes()[0]],
    ['NotReady Node', node('kind-worker2', { ready: false })],
    ['DaemonSet with status', daemonSet({ minReadySeconds: 10, hostPort: 9100 })],
    ['ControllerRevision', revision(1, HASH_V1)],
    ['running Pod', p],
    ['unscheduled Pod', pod('kind-worker2', { scheduled: false })],
    ['Event (kubelet)', event(p, { reason: 'FailedMount', message: 'MountVolume.SetUp failed for volume "varlog" : x', host: 'kind-worker' })],
    ['Event (scheduler, through events.k8s.io)', schedulerEvent(p, '0/3 nodes are available')],
  ];
  test.each(objects)('%s', (_, obj) => {
    expect(validateManifest(JSON.parse(JSON.stringify(obj)))).toEqual([]);
  });

  test('the check is strict: a field the API does not have in a pod status is reported', () => {
    const bad = pod('kind-worker');
    bad.status.containerStatuses[0].restarts = 3;
    expect(validateManifest(bad).join('\n')).toMatch(/restarts/);
  });
});
