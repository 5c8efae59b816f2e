import { Testing } from 'cdk8s';
import { buildClusterAddonsApp } from '../../examples/cluster-addons/main';
import { synthValid } from '../util/k8s-schema';

/**
 * The cluster add-ons example: the CNI agent and the CSI node plugin, one chart each, every object
 * schema-valid.
 */

function charts(): Map<string, any[]> {
  const app = Testing.app();
  buildClusterAddonsApp(app);
  return new Map(app.charts.map((c) => [c.node.id, synthValid(c)]));
}

const byChart = charts();

function daemonSet(chart: string): any {
  const found = byChart.get(chart)!.filter((m) => m.kind === 'DaemonSet');
  expect(found).toHaveLength(1);
  return found[0];
}

test('one chart per add-on, and the admission policy', () => {
  expect([...byChart.keys()]).toEqual(['network', 'storage', 'admission']);
});

test('admission: the host-access policy and its binding, opt-in by namespace label, kube-system exempt, Deny and Audit', () => {
  const [policy, binding] = byChart.get('admission')!;
  expect(policy.kind).toBe('ValidatingAdmissionPolicy');
  expect(policy.spec.validations.length).toBe(9);
  expect(binding.kind).toBe('ValidatingAdmissionPolicyBinding');
  expect(binding.spec).toEqual({
    policyName: 'node-agents-host-access',
    validationActions: ['Deny', 'Audit'],
    matchResources: {
      namespaceSelector: {
        matchLabels: { 'node-agents.cdk8s.io/host-access-policy': 'enforce' },
        matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }],
      },
    },
  });
});

test('both add-ons are node-critical and tolerate every taint', () => {
  for (const chart of ['network', 'storage']) {
    const spec = daemonSet(chart).spec.template.spec;
    expect(spec.priorityClassName).toEqual('system-node-critical');
    expect(spec.tolerations).toEqual([{ operator: 'Exists' }]);
  }
});

test('flannel: installers write the CNI directories, the agent runs on the host network', () => {
  const spec = daemonSet('network').spec.template.spec;
  expect(spec.hostNetwork).toBe(true);
  expect(spec.initContainers.map((c: any) => c.name)).toEqual(['install-cni-plugin', 'install-cni']);
  expect(spec.containers[0].image).toEqual('ghcr.io/flannel-io/flannel:v0.28.9');
  const netConf = JSON.parse(byChart.get('network')!.find((m) => m.kind === 'ConfigMap').data['net-conf.json']);
  expect(netConf.Network).toEqual('10.244.0.0/16');
});

test('CSI: the driver, its sidecars and a CSIDriver object named after the driver', () => {
  const spec = daemonSet('storage').spec.template.spec;
  expect(spec.containers.map((c: any) => c.name)).toEqual(['agent', 'node-driver-registrar', 'liveness-probe']);
  const driver = byChart.get('storage')!.find((m) => m.kind === 'CSIDriver');
  expect(driver.metadata.name).toEqual('hostpath.csi.k8s.io');
  expect(driver.spec.attachRequired).toBe(false);
});
