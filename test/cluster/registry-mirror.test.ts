// An app pulling every image through a RegistryMirror, applied to the real API server: the objects it rewrote (a
// cdk8s-plus Deployment, a raw CronJob, an Included Pod, a NodeAgent's DaemonSet) are accepted, and the server stores
// the mirrored images, the pull secrets and the annotation as written.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiObject, Chart, Include, Testing } from 'cdk8s';
import * as plus from 'cdk8s-plus-28';
import { applyAll, resetCluster } from './cluster';
import { Kube } from './kube';
import { NodeAgent, RegistryMirror } from '../../src';
import { MIRROR_ANNOTATION } from '../../src/review/_image';
import { synthValid } from '../util/k8s-schema';

const kube = Kube.fromKubeconfig();
const NAMESPACE = 'registry-mirror';

beforeAll(() => resetCluster(kube));
afterAll(() => resetCluster(kube));

function rewrittenObjects(): any[] {
  const app = Testing.app();
  RegistryMirror.of(app, 'mirror.example.com', { pullSecrets: ['mirror-credentials'] });
  const chart = new Chart(app, 'mirrored', { namespace: NAMESPACE });
  new plus.Deployment(chart, 'web', { replicas: 0, containers: [{ image: 'nginx:1.27', portNumber: 80 }], initContainers: [{ name: 'init', image: 'ghcr.io/acme/init:1.0' }] });
  new ApiObject(chart, 'backup', {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'backup' },
    spec: { schedule: '0 3 * * *', suspend: true, jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'backup', image: 'quay.io/acme/backup:1.0' }] } } } } },
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-')), 'pod.yaml');
  // restricted, as the agent's namespace enforces
  fs.writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: included\nspec:\n' +
    '  securityContext: {runAsNonRoot: true, runAsUser: 65535, seccompProfile: {type: RuntimeDefault}}\n' +
    '  containers:\n  - name: app\n    image: registry.k8s.io/pause:3.10\n' +
    '    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}\n');
  new Include(chart, 'included', { url: file });
  new NodeAgent(chart, 'agent', { namespace: NAMESPACE, image: 'quay.io/acme/agent:1.0' });
  return synthValid(chart);
}

test('every rewritten object is accepted and stored with the mirrored images, the pull secret and the annotation', async () => {
  const objects = rewrittenObjects();
  const workloads = objects.filter((o) => MIRROR_ANNOTATION in (o.metadata.annotations ?? {}));
  expect(workloads.map((o) => o.kind).sort()).toEqual(['CronJob', 'DaemonSet', 'Deployment', 'Pod']);
  const responses = await applyAll(kube, objects);
  expect(responses.map((r) => r.status).filter((s) => s < 200 || s >= 300)).toEqual([]);
  for (const sent of workloads) {
    const stored = await kube.get(await kube.pathOf(sent.apiVersion, sent.kind, sent.metadata.namespace, sent.metadata.name));
    const specOf = (o: any) => (o.kind === 'Pod' ? o.spec : o.kind === 'CronJob' ? o.spec.jobTemplate.spec.template.spec : o.spec.template.spec);
    const images = (o: any) => [...specOf(o).initContainers ?? [], ...specOf(o).containers].map((c: any) => c.image);
    expect(images(stored)).toEqual(images(sent));
    expect(images(stored).every((i) => i.startsWith('mirror.example.com/'))).toBe(true);
    expect(specOf(stored).imagePullSecrets).toEqual([{ name: 'mirror-credentials' }]);
    expect(stored.metadata.annotations[MIRROR_ANNOTATION]).toBe(sent.metadata.annotations[MIRROR_ANNOTATION]);
  }
});
