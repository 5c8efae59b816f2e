// The Prometheus operator's ServiceMonitor and PodMonitor CRDs on the local control plane: the files of the pinned
// operator module (scripts/prometheus-crds.js downloads it through the Go module proxy and checks each file's sha256),
// installed as `kubectl apply --server-side` does, and removed again: each file that applies a custom resource (the
// example outputs, the metrics objects) installs them in its beforeAll and removes them in its afterAll, which the
// suite's --runInBand keeps apart.
import * as fs from 'fs';
import { resetCluster } from './cluster';
import { Kube, eventually, ok, readManifests } from './kube';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const script = require('../../scripts/prometheus-crds.js') as { crdFiles: () => string[]; generate: () => string; GENERATED: string; VERSION: string };
const { crdFiles, VERSION } = script;

/** what `cdk8s import` makes of the pinned CRDs, and the committed file that must be it. */
export function generatedConstructs(): { generated: string; committed: string; file: string } {
  return { generated: script.generate(), committed: fs.readFileSync(script.GENERATED, 'utf8'), file: script.GENERATED };
}

/** the operator version the CRDs come from. */
export const PROMETHEUS_OPERATOR_VERSION = VERSION;

/** the CRD objects of the pinned module, verified. */
export function prometheusCrds(): any[] {
  return crdFiles().flatMap(readManifests);
}

/** installs the CRDs and waits until each is Established and the API server serves its kind. */
export async function installPrometheusCrds(kube: Kube): Promise<any[]> {
  const crds = prometheusCrds();
  for (const crd of crds) ok(await kube.apply(crd), `apply CustomResourceDefinition ${crd.metadata.name}`);
  for (const crd of crds) {
    await eventually(`${crd.metadata.name} to be Established`, async () => {
      const live = await kube.get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`);
      return (live.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True') ? true : undefined;
    }, { timeoutMs: 60_000 });
  }
  // discovery lags the Established condition by a moment; the client caches the first discovery answer, so wait for it
  await eventually('monitoring.coreos.com/v1 to be served', async () => {
    const r = await kube.request('GET', '/apis/monitoring.coreos.com/v1');
    const kinds = r.status === 200 ? r.body.resources.map((x: any) => x.kind) : [];
    return crds.every((crd) => kinds.includes(crd.spec.names.kind)) ? true : undefined;
  }, { timeoutMs: 60_000 });
  return crds;
}

/** deletes the CRDs (and so every ServiceMonitor and PodMonitor) and waits until they are gone. */
export async function removePrometheusCrds(kube: Kube): Promise<void> {
  const names = prometheusCrds().map((crd) => crd.metadata.name);
  for (const name of names) await kube.delete(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
  await eventually('the Prometheus operator CRDs to be gone', async () => {
    const left = [];
    for (const name of names) if ((await kube.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`)).status !== 404) left.push(name);
    return left.length === 0 ? true : undefined;
  }, { timeoutMs: 60_000 });
}

/**
 * registers the hooks of a test file whose manifests hold custom resources of the operator: the cluster reset and the
 * CRDs installed before its tests, the cluster reset and the CRDs removed after them (a reset leaves CRDs in place).
 */
export function withPrometheusCrds(kube: Kube): void {
  beforeAll(async () => {
    await resetCluster(kube);
    await installPrometheusCrds(kube);
  }, 180_000);
  afterAll(async () => {
    await resetCluster(kube);
    await removePrometheusCrds(kube);
  }, 180_000);
}
