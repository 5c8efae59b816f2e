import { workloadApiViolations } from '../../src/model/_workload-api-rules';

// Cases after Kubernetes' own validation tests (k8s.io/kubernetes v1.37.2: pkg/apis/apps/validation/validation_test.go,
// pkg/apis/batch/validation/validation_test.go); the integration suite (test/cluster/api-rules.test.ts) checks each
// against a real API server.

const template = (podSpec: any = {}) => ({ metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }], ...podSpec } });
const apps = (kind: string, name: string, podSpec: any = {}) => ({ apiVersion: 'apps/v1', kind, metadata: { name }, spec: { selector: { matchLabels: { app: 'a' } }, template: template(podSpec) } });
const job = (name: string, podSpec: any = {}, spec: any = {}) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: template(podSpec), ...spec } });
const cronJob = (name: string, podSpec: any = {}) => ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name }, spec: { schedule: '@daily', jobTemplate: { spec: { template: template(podSpec) } } } });
const fields = (manifest: any) => workloadApiViolations(manifest).map((v) => v.field);

describe('object names', () => {
  test('an RFC 1123 subdomain for a DaemonSet, Deployment, ReplicaSet, Job, CronJob and Pod', () => {
    for (const m of [apps('DaemonSet', 'agent.v1'), apps('Deployment', 'a-b.c'), job('abc-123', { restartPolicy: 'Never' }), { kind: 'Pod', metadata: { name: 'p.q' }, spec: {} }]) {
      expect(fields(m)).toEqual([]);
    }
    expect(workloadApiViolations(apps('DaemonSet', 'Node_Agent'))).toEqual([{
      field: 'metadata.name',
      message: 'the name "Node_Agent" is not a lowercase RFC 1123 subdomain (lowercase letters, digits, "-" and ".", starting and ending with a letter or digit), which a DaemonSet\'s name must be',
      fix: 'rename it, e.g. to "node-agent"',
    }]);
    expect(fields(apps('ReplicaSet', 'a'.repeat(254)))).toEqual(['metadata.name']);
  });

  test('TestValidateStatefulSet "invalid name": a StatefulSet\'s name is an RFC 1123 label (no dots)', () => {
    expect(workloadApiViolations(apps('StatefulSet', 'abc.def'))[0].message).toBe('the name "abc.def" must not contain dots, which a StatefulSet\'s name must be');
    expect(fields(apps('StatefulSet', 'abc-def'))).toEqual([]);
  });

  test('TestValidateCronJob "metadata.name: must be no more than 52 characters"', () => {
    expect(fields(cronJob('a'.repeat(52), { restartPolicy: 'OnFailure' }))).toEqual([]);
    expect(workloadApiViolations(cronJob('a'.repeat(53), { restartPolicy: 'OnFailure' }))[0].message).toMatch(/is 53 characters long, more than the 52 a CronJob's name may have/);
  });

  test('a nameless object is not this rule\'s (kubectl refuses it before the server)', () => {
    expect(fields({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: {}, spec: { template: template() } })).toEqual([]);
  });
});

describe('the restart policy of the pods', () => {
  test('TestValidateDaemonSet "invalid restart policy 1/2": an apps/v1 controller\'s pods restart Always', () => {
    for (const kind of ['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet']) {
      expect(fields(apps(kind, 'a'))).toEqual([]);
      expect(fields(apps(kind, 'a', { restartPolicy: 'Always' }))).toEqual([]);
      expect(fields(apps(kind, 'a', { restartPolicy: 'OnFailure' }))).toEqual(['spec.template.spec.restartPolicy']);
    }
    expect(workloadApiViolations(apps('DaemonSet', 'a', { restartPolicy: 'Never' }))[0]).toEqual({
      field: 'spec.template.spec.restartPolicy',
      message: 'the pods\' restartPolicy is "Never": a DaemonSet\'s pods must restart Always (they are meant to keep running)',
      fix: 'set restartPolicy: Always, or remove it (Always)',
    });
  });

  test('TestValidateJob "spec.template.spec.restartPolicy: Required value": a Job\'s pods set OnFailure or Never', () => {
    expect(workloadApiViolations(job('j'))[0].message).toBe('the pods\' restartPolicy is not set (Always by default): a Job\'s pods must set OnFailure or Never');
    expect(fields(job('j', { restartPolicy: 'Always' }))).toEqual(['spec.template.spec.restartPolicy']);
    expect(fields(job('j', { restartPolicy: 'OnFailure' }))).toEqual([]);
    expect(fields(cronJob('c'))).toEqual(['spec.jobTemplate.spec.template.spec.restartPolicy']);
    expect(fields(cronJob('c', { restartPolicy: 'Never' }))).toEqual([]);
  });

  test('TestValidateJob "...restartPolicy: Invalid value" with a podFailurePolicy: Never only', () => {
    const policy = { podFailurePolicy: { rules: [] } };
    expect(fields(job('j', { restartPolicy: 'OnFailure' }, policy))).toEqual(['spec.template.spec.restartPolicy']);
    expect(fields(job('j', { restartPolicy: 'Never' }, policy))).toEqual([]);
  });

  test('a value that is no restart policy is left to the pod spec\'s rule (one finding)', () => {
    expect(fields(job('j', { restartPolicy: 'onFailure' }))).toEqual([]);
  });
});
