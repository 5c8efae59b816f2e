import { Chart, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { runCli } from './run-cli';
import { HostAccessPolicy, PolicyAction, PolicyWorkload } from '../../src';

test('writes the same policy and binding as the construct, as YAML', async () => {
  const r = await runCli('admission-policy', '--workload', 'DaemonSet', '--workload', 'Pod', '--action', 'Warn', '--exempt-namespace', 'kube-system',
    '--namespace-label', 'team=nodes');
  expect(r).toEqual({ code: 0, stdout: expect.any(String), stderr: '' });
  const chart = new Chart(Testing.app(), 'test');
  new HostAccessPolicy(chart, 'policy', { workloads: [PolicyWorkload.DAEMON_SET, PolicyWorkload.POD], actions: [PolicyAction.WARN], exemptNamespaces: ['kube-system'], namespaceLabels: { team: 'nodes' } });
  expect(parseAllDocuments(r.stdout).map((d) => d.toJSON())).toEqual(chart.toJson());
});

test('--allowed-registry writes the parameter ConfigMap first, as the construct does', async () => {
  const r = await runCli('admission-policy', '--allowed-registry', 'registry.example.com', '--allowed-registry', 'quay.io/cilium', '--registries-namespace', 'policies');
  expect(r.code).toBe(0);
  const chart = new Chart(Testing.app(), 'test');
  new HostAccessPolicy(chart, 'policy', { allowedRegistries: { registries: ['registry.example.com', 'quay.io/cilium'], namespace: 'policies' } });
  expect(parseAllDocuments(r.stdout).map((d) => d.toJSON())).toEqual(chart.toJson());
  expect(chart.toJson().map((o: any) => o.kind)).toEqual(['ConfigMap', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']);
});

test.each([
  [['--allowed-registry', 'a.io'], 'error: admission-policy: --allowed-registry and --registries-namespace go together'],
  [['--action', 'Block'], 'error: admission-policy: actions must be one or more of Deny, Warn, Audit, got ["Block"]'],
  [['--workload', 'Service'], 'error: admission-policy: workloads must be one or more of'],
  [['--namespace-label', 'team'], 'error: admission-policy: --namespace-label must be KEY=VALUE, got "team"'],
  [['--bogus'], 'error: admission-policy: unknown option --bogus'],
  [['file.yaml'], 'error: admission-policy: unexpected argument "file.yaml"'],
])('bad input: %j exits 2 with one line', async (args, line) => {
  const r = await runCli('admission-policy', ...args);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.split('\n').filter(Boolean)).toEqual([expect.stringContaining(line)]);
});

test('--help', async () => {
  const r = await runCli('admission-policy', '--help');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('usage: cdk8s-node-agents admission-policy');
  expect(r.stdout).toContain('host-access.node-agents.cdk8s.io/<name>: "hostPath /var/log (read-only) | tails the node\'s logs"');
});
