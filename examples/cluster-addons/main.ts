// Cluster add-ons that every node needs before it can run pods with volumes: the pod network's CNI
// agent (flannel, installed by init containers) and a CSI node plugin (the Kubernetes CSI hostpath
// example driver with its registrar and liveness sidecars). Both are system-node-critical and tolerate
// every taint: a node without them is broken. And the admission policy that holds every other DaemonSet in the
// cluster to the same rule as these: no host privilege without a written reason.
import { ApiObject, App, Chart } from 'cdk8s';
import { CniFlavor, CniPlugin, CsiNodePlugin, HostAccessPolicy, PolicyAction, SecurityCheck } from 'cdk8s-node-agents';
import { Construct } from 'constructs';

/** the pod network: flannel over VXLAN on 10.244.0.0/16 (the nodes' podCIDRs must fall inside it). */
export class NetworkChart extends Chart {
  /** the CNI agent. */
  public readonly cni: CniPlugin;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.cni = new CniPlugin(this, 'kube-flannel', {
      namespace: 'kube-flannel',
      flavor: CniFlavor.flannel({ podNetwork: '10.244.0.0/16' }),
    });
  }
}

/** the CSI hostpath example driver's node plugin, and the CSIDriver object that describes it to Kubernetes. */
export class StorageChart extends Chart {
  /** the CSI node plugin. */
  public readonly csi: CsiNodePlugin;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.csi = new CsiNodePlugin(this, 'csi-hostpath-node', { namespace: 'csi-hostpath' });
    // cluster-level description of the driver: no attach step, pod info on mount, ephemeral volumes too.
    new ApiObject(this, 'csi-driver', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: this.csi.driverName },
      spec: {
        attachRequired: false,
        podInfoOnMount: true,
        fsGroupPolicy: 'File',
        volumeLifecycleModes: ['Persistent', 'Ephemeral'],
      },
    });
  }
}

/**
 * The host-access admission policy (a ValidatingAdmissionPolicy and its binding): a DaemonSet applied by kubectl or a
 * chart must carry a reason for each host privilege, as NodeAgent's own do. Opt-in per namespace, for a gradual
 * rollout: label a namespace node-agents.cdk8s.io/host-access-policy=enforce to have its DaemonSets checked.
 */
export class AdmissionChart extends Chart {
  /** the policy and its binding. */
  public readonly policy: HostAccessPolicy;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.policy = new HostAccessPolicy(this, 'host-access', {
      namespaceLabels: { 'node-agents.cdk8s.io/host-access-policy': 'enforce' },
      exemptNamespaces: ['kube-system'],
      actions: [PolicyAction.DENY, PolicyAction.AUDIT],
    });
  }
}

/** builds the app: one chart (one output file) per add-on, and the admission policy. */
export function buildClusterAddonsApp(app: App): void {
  new NetworkChart(app, 'network');
  new StorageChart(app, 'storage');
  new AdmissionChart(app, 'admission');
  // review every workload at synth and write dist/security-review.md and .json next to the manifests.
  SecurityCheck.apply(app);
}

if (require.main === module) {
  const app = new App();
  buildClusterAddonsApp(app);
  app.synth();
}
