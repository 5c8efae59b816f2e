// The API's types, from the API server itself: the table the library checks JSON types with (src/model/_api-types.ts)
// is what test/model/write-api-types.ts writes from the OpenAPI v3 schema the running API server serves; and for each
// value of a wrong type the review reports NA-API-REJECTED exactly when the server refuses the object (dry-run create),
// and accepts what the server accepts (IntOrString and quantity fields in both forms, null as unset).
import * as fs from 'fs';
import * as path from 'path';
import { agentDaemonSet, dryRunCreate, withNamespace } from './cluster';
import { Kube } from './kube';
import { SecurityReview } from '../../src';
import { SCHEMA_FILES, apiTypesSource } from '../model/write-api-types';

const kube = Kube.fromKubeconfig();
const NAMESPACE = 'api-types';
const image = 'registry.example.com/node-agent:1.2.0';
withNamespace(kube, NAMESPACE);

test('the type table is what the served OpenAPI v3 schema gives', async () => {
  const schemas: any = {};
  for (const served of Object.values(SCHEMA_FILES)) Object.assign(schemas, (await kube.get(served)).components.schemas);
  expect(apiTypesSource(schemas)).toBe(fs.readFileSync(path.join(__dirname, '..', '..', 'src', 'model', '_api-types.ts'), 'utf8'));
});

function daemonSet(container: any = {}, podSpec: any = {}): any {
  return agentDaemonSet(NAMESPACE, { containers: [{ name: 'agent', image, ...container }], ...podSpec });
}

const securityContext = (sc: any) => daemonSet({ securityContext: sc });

/** [name, manifest, whether the server accepts it] */
const CASES: Array<[string, any, boolean]> = [
  ['privileged: true', securityContext({ privileged: true }), true],
  ['privileged: "true"', securityContext({ privileged: 'true' }), false],
  ['containerPort: 9100', daemonSet({ ports: [{ containerPort: 9100 }] }), true],
  ['containerPort: "9100"', daemonSet({ ports: [{ containerPort: '9100' }] }), false],
  ['tolerationSeconds: 5', daemonSet({}, { tolerations: [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] }), true],
  ['tolerationSeconds: "5"', daemonSet({}, { tolerations: [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: '5' }] }), false],
  ['a container name that is a mapping', daemonSet({ name: { agent: true } }), false],
  ['capabilities.add: [1, null]', securityContext({ capabilities: { add: [1, null] } }), false],
  ['capabilities.add: null', securityContext({ capabilities: { add: null } }), true],
  ['capabilities.add: [null] (stored as [""])', securityContext({ capabilities: { add: [null] } }), true],
  ['hostNetwork: "true"', daemonSet({}, { hostNetwork: 'true' }), false],
  ['a nodeSelector value that is a boolean', daemonSet({}, { nodeSelector: { gpu: true } }), false],
  ['a label value that is a number', { ...daemonSet(), metadata: { name: 'agent', namespace: NAMESPACE, labels: { tier: 1 } } }, false],
  ['maxUnavailable: "10%" (IntOrString)', { ...daemonSet(), spec: { ...daemonSet().spec, updateStrategy: { rollingUpdate: { maxUnavailable: '10%' } } } }, true],
  ['maxUnavailable: true', { ...daemonSet(), spec: { ...daemonSet().spec, updateStrategy: { rollingUpdate: { maxUnavailable: true } } } }, false],
  ['a probe port by name and by number (IntOrString)', daemonSet({ livenessProbe: { httpGet: { port: 'metrics' } }, readinessProbe: { tcpSocket: { port: 8080 } }, ports: [{ name: 'metrics', containerPort: 9100 }] }), true],
  ['a probe port that is a list', daemonSet({ livenessProbe: { httpGet: { port: [8080] } } }), false],
  ['requests.cpu: 0.5 and "100m" (quantity)', daemonSet({ resources: { requests: { cpu: 0.5, memory: '128Mi' } } }), true],
  ['requests.cpu: true', daemonSet({ resources: { requests: { cpu: true } } }), false],
  ['runAsUser: 1000.5', securityContext({ runAsUser: 1000.5 }), false],
  ['a hostPath path that is a number', daemonSet({}, { volumes: [{ name: 'v', hostPath: { path: 5 } }] }), false],
];

test.each(CASES)('%s: the review reports NA-API-REJECTED exactly when the server refuses it', async (_name, manifest, accepted) => {
  const rejected = SecurityReview.review([manifest]).workloads[0].findings.filter((f) => f.rule === 'NA-API-REJECTED');
  const r = await dryRunCreate(kube, manifest);
  if (accepted) {
    expect(r.status).toBe(201);
    expect(rejected).toEqual([]);
  } else {
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected[0].message).toContain('the API server rejects this (it cannot decode the object)');
  }
});
