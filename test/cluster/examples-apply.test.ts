// Every example's synthesized output (examples/*/dist/**/*.k8s.yaml, npm run examples) applied to the real API server
// as `kubectl apply --server-side --validate=strict -f FILE` would, in the file's own order (the first apply must
// succeed: a Namespace comes before what lives in it): every object accepted, and no warning except the Pod
// Security warnings the library's own Namespace asks for (`warn: restricted`), which must then be exactly the
// restricted-level violations the library computes.
import { appArmorAnnotationWarnings, applyAll, resetCluster } from './cluster';
import { Kube, exampleOutputs, readManifests, rel } from './kube';
import { withPrometheusCrds } from './prometheus-crds';
import { PodSecurity, PodSecurityLevel } from '../../src';

const kube = Kube.fromKubeconfig();

// the observability example's ServiceMonitors need the Prometheus operator's CRDs (of the pinned release)
withPrometheusCrds(kube);

describe.each(exampleOutputs().map((f) => [rel(f), f]))('%s', (_name, file) => {
  const objects = readManifests(file);

  // examples apply the same agents in several variants (the guide's sections): each file starts from a clean cluster.
  beforeAll(() => resetCluster(kube));

  test('every object is accepted in file order, on the first try (server-side apply, fieldValidation=Strict), with no warning but the Pod Security warn level\'s', async () => {
    expect(objects.length).toBeGreaterThan(0);
    const responses = await applyAll(kube, objects, true);
    const namespaces = new Map(objects.filter((o) => o.kind === 'Namespace').map((o) => [o.metadata.name, o.metadata.labels ?? {}]));
    for (const { obj, status, warnings } of responses) {
      // 201 created; 200 for a cluster-scoped object an earlier example already made (ClusterRoles are not reset).
      expect({ object: `${obj.kind} ${obj.metadata.name}`, status: status === 200 ? 201 : status }).toEqual({ object: `${obj.kind} ${obj.metadata.name}`, status: 201 });
      const labels = namespaces.get(obj.metadata.namespace) ?? {};
      const warnLevel = labels['pod-security.kubernetes.io/warn'] as PodSecurityLevel | undefined;
      // a known disagreement, reported: the library writes AppArmor profiles as the beta annotation, which 1.28
      // and 1.29 API servers understand and which 1.30+ servers accept with a deprecation warning.
      const expected = appArmorAnnotationWarnings(obj.spec?.template?.metadata?.annotations, 'spec.template.metadata.annotations');
      if (obj.kind === 'DaemonSet' && warnLevel !== undefined) {
        const version = labels['pod-security.kubernetes.io/warn-version'] ?? 'latest';
        const annotations = obj.spec.template.metadata?.annotations;
        const violations = PodSecurity.violationsAt(obj.spec.template.spec, warnLevel, { version, annotations });
        if (violations.length > 0) expected.push(`would violate PodSecurity "${warnLevel}:${version}": ${violations.map((v) => v.message).join(', ')}`);
      }
      expect({ object: `${obj.kind} ${obj.metadata.name}`, warnings }).toEqual({ object: `${obj.kind} ${obj.metadata.name}`, warnings: expected });
    }
    // what was applied is what the file says: read back, every DaemonSet's pod spec keeps the file's containers.
    for (const ds of objects.filter((o) => o.kind === 'DaemonSet')) {
      const live = await kube.get(`/apis/apps/v1/namespaces/${ds.metadata.namespace}/daemonsets/${ds.metadata.name}`);
      const images = (d: any) => d.spec.template.spec.containers.map((c: any) => [c.name, c.image]);
      expect(images(live)).toEqual(images(ds));
    }
  });
});
