// Pod Security exactness: for every agent and preset in the examples' output, a pod made from its DaemonSet's template
// (as the controller makes it) is admitted in the agent's Namespace exactly as the library labelled it, and refused
// when the enforce label is one level stricter, with pod-security-admission's message listing exactly the violations
// the library computes. The computed level is then the strictest level the server admits: exact, not merely safe.
import { appArmorAnnotationWarnings, applyAll, dryRunPod, enforcingNamespace, podFromTemplate, psaRefusal, resetCluster, stricter } from './cluster';
import { Kube, exampleDaemonSetOutputs, readManifests, rel } from './kube';
import { withPrometheusCrds } from './prometheus-crds';
import { PodSecurity, PodSecurityLevel } from '../../src';

const kube = Kube.fromKubeconfig();

// the observability example's ServiceMonitors need the Prometheus operator's CRDs
withPrometheusCrds(kube);

describe.each(exampleDaemonSetOutputs().map((f) => [rel(f), f]))('%s', (_name, file) => {
  const objects = readManifests(file);
  const daemonSets = objects.filter((o) => o.kind === 'DaemonSet');

  test.each(daemonSets.map((ds) => [`${ds.metadata.namespace}/${ds.metadata.name}`, ds]))('%s: admitted as labelled, refused one level stricter', async (_id, ds) => {
    await resetCluster(kube);
    await applyAll(kube, objects);
    const namespace = objects.find((o) => o.kind === 'Namespace' && o.metadata.name === ds.metadata.namespace);
    expect(namespace).toBeDefined();
    const labels = namespace.metadata.labels;
    const enforce = labels['pod-security.kubernetes.io/enforce'] as PodSecurityLevel;
    const version = labels['pod-security.kubernetes.io/enforce-version'];
    const computed = PodSecurity.evaluateWorkload(ds, { version });
    // one agent per namespace in the examples: the label is the agent's own level.
    expect(enforce).toBe(computed.level);

    // admitted in its own namespace
    const pod = podFromTemplate(ds.spec.template, `${ds.metadata.name}-psa`, ds.metadata.namespace);
    const admitted = await dryRunPod(kube, pod);
    expect(admitted.message).toBe('');
    expect(admitted.status).toBe(201);
    // Pod Security admission judges the pod as the API server stores it, after its defaults and mutations (the
    // ServiceAccount token volume; from 1.30 an AppArmor annotation also sets the container's appArmorProfile field):
    // the library's level of the template must be that pod's level, and its messages that pod's messages.
    const stored = admitted.stored;
    const storedOptions = { version, annotations: stored.metadata.annotations };
    expect(PodSecurity.evaluate(stored.spec, storedOptions).level).toBe(computed.level);

    // the warn label's warning is exactly the library's violations at that level (plus, for AppArmor annotations,
    // the server's deprecation warning: a known, reported disagreement)
    const warn = labels['pod-security.kubernetes.io/warn'] as PodSecurityLevel;
    const warnVersion = labels['pod-security.kubernetes.io/warn-version'];
    const warnViolations = PodSecurity.violationsAt(stored.spec, warn, { ...storedOptions, version: warnVersion });
    expect(admitted.warnings).toEqual([
      ...appArmorAnnotationWarnings(pod.metadata.annotations, 'metadata.annotations'),
      ...warnViolations.length === 0 ? [] : [`would violate PodSecurity "${warn}:${warnVersion}": ${warnViolations.map((v) => v.message).join(', ')}`],
    ]);

    // refused one level stricter, for exactly the library's violations at that level
    const next = stricter(enforce);
    if (next === undefined) {
      expect(computed.nextLevelViolations).toEqual([]);
      return;
    }
    const stricterNamespace = await enforcingNamespace(kube, next, version);
    const refused = await dryRunPod(kube, { ...pod, metadata: { ...pod.metadata, namespace: stricterNamespace } });
    expect(refused.status).toBe(403);
    const expected = PodSecurity.violationsAt(stored.spec, next, storedOptions);
    expect(checks(expected)).toEqual(checks(computed.nextLevelViolations));
    expect(refused.message).toBe(psaRefusal(pod.metadata.name, next, version, expected.map((v) => v.message)));
  });
});

function checks(violations: { check: string }[]): string[] {
  return violations.map((v) => v.check);
}
