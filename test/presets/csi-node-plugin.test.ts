import {
  PINNED, SameKeys, acknowledgedRules, chart, container, find, hostMount, hostMounts, kinds, openFindings,
  podSpec, reasonFor, reasonKeys, synthOf,
} from './preset-helpers';
import { AgentProbe, CsiNodePlugin, CsiNodePluginProps, CsiVolumeLifecycleMode, HostMount, NodeAgent, NodeAgentProps, Toleration } from '../../src';

function synth(props?: CsiNodePluginProps): any[] {
  return synthOf((c) => new CsiNodePlugin(c, 'csi-node', props));
}

const PLUGIN_DIR = '/var/lib/kubelet/plugins/hostpath.csi.k8s.io';
const HARDENED_SIDECAR = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: false,
  runAsUser: 0,
  capabilities: { drop: ['ALL'] },
};

describe('CsiNodePlugin defaults', () => {
  const manifests = synth();
  const driver = container(manifests);
  const registrar = container(manifests, 'node-driver-registrar');
  const probe = container(manifests, 'liveness-probe');
  const spec = podSpec(manifests);

  test('is a NodeAgent constructible with (scope, id) alone; the hostpath example driver by default', () => {
    const agent = new CsiNodePlugin(chart(), 'csi-node');
    expect(agent).toBeInstanceOf(NodeAgent);
    expect(agent.driverName).toEqual('hostpath.csi.k8s.io');
    expect(kinds(manifests)).toEqual(['DaemonSet', 'Namespace', 'ServiceAccount']);
  });

  test('a driver container plus the node-driver-registrar and livenessprobe sidecars, all pinned', () => {
    expect(spec.containers.map((c: any) => c.name)).toEqual(['agent', 'node-driver-registrar', 'liveness-probe']);
    expect(driver.image).toEqual('registry.k8s.io/sig-storage/hostpathplugin:v1.17.0');
    expect(registrar.image).toEqual('registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.15.0');
    expect(probe.image).toEqual('registry.k8s.io/sig-storage/livenessprobe:v2.17.0');
    for (const c of spec.containers) expect(c.image).toMatch(PINNED);
    expect([driver.image, registrar.image, probe.image]).toEqual([
      CsiNodePlugin.DEFAULT_IMAGE, CsiNodePlugin.DEFAULT_REGISTRAR_IMAGE, CsiNodePlugin.DEFAULT_LIVENESS_PROBE_IMAGE,
    ]);
  });

  test('the driver serves its socket in the plugin directory under its name', () => {
    expect(driver.args).toEqual(['--drivername=hostpath.csi.k8s.io', '--v=2', '--endpoint=unix:///csi/csi.sock', '--nodeid=$(NODE_NAME)']);
    expect(registrar.args).toEqual([
      '--v=2',
      '--csi-address=/csi/csi.sock',
      `--kubelet-registration-path=${PLUGIN_DIR}/csi.sock`,
      '--http-endpoint=:9809',
    ]);
    expect(probe.args).toEqual(['--csi-address=/csi/csi.sock', '--health-port=9898']);
  });

  test('driver mounts: plugin dir DirectoryOrCreate, /var/lib/kubelet Bidirectional, /dev read-write (a real kubelet mounts the termination log there)', () => {
    expect(hostMounts(manifests)).toEqual([
      { hostPath: PLUGIN_DIR, type: 'DirectoryOrCreate', mountPath: '/csi', readOnly: false, propagation: undefined, volume: 'plugin-dir' },
      { hostPath: '/var/lib/kubelet', type: 'Directory', mountPath: '/var/lib/kubelet', readOnly: false, propagation: 'Bidirectional', volume: 'kubelet-dir' },
      // read-only, the driver never started on a real node (kubelet v1.37.2, runc): "error mounting ... to rootfs at
      // /dev/termination-log: ... read-only file system" (test/cluster/real-csi.test.ts runs the preset there)
      { hostPath: '/dev', type: 'Directory', mountPath: '/dev', readOnly: false, propagation: undefined, volume: 'device-dir' },
      { hostPath: '/var/lib/csi-hostpath-data', type: 'DirectoryOrCreate', mountPath: '/csi-data-dir', readOnly: false, propagation: undefined, volume: 'csi-data-dir' },
    ]);
  });

  test('registrar mounts: the plugin dir read-only and the registration dir (Directory) it writes its socket to', () => {
    expect(hostMounts(manifests, 'node-driver-registrar')).toEqual([
      { hostPath: PLUGIN_DIR, type: 'DirectoryOrCreate', mountPath: '/csi', readOnly: true, propagation: undefined, volume: 'plugin-dir' },
      { hostPath: '/var/lib/kubelet/plugins_registry', type: 'Directory', mountPath: '/registration', readOnly: false, propagation: undefined, volume: 'registration-dir' },
    ]);
    expect(hostMount(manifests, PLUGIN_DIR, 'liveness-probe')).toMatchObject({ readOnly: true, mountPath: '/csi' });
    // one volume per host path, shared by the containers
    expect(spec.volumes.filter((v: any) => v.hostPath?.path === PLUGIN_DIR)).toHaveLength(1);
  });

  test('the driver is privileged (Bidirectional propagation) and root, each with its reason, read-only root', () => {
    expect(driver.securityContext).toEqual({
      privileged: true,
      readOnlyRootFilesystem: true,
      runAsNonRoot: false,
      runAsUser: 0,
      capabilities: { drop: ['ALL'] },
    });
    expect(reasonFor(manifests, 'privileged:agent@agent')).toMatch(/Bidirectional/);
    expect(reasonFor(manifests, 'runAsRoot:agent@agent')).toMatch(/mounts volumes/);
  });

  test('sidecars are hardened: read-only root, every capability dropped, no escalation, not privileged; root only for the sockets, with the reason', () => {
    expect(registrar.securityContext).toEqual(HARDENED_SIDECAR);
    expect(probe.securityContext).toEqual(HARDENED_SIDECAR);
    expect(spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(reasonFor(manifests, 'runAsRoot:node-driver-registrar@node-driver-registrar')).toMatch(/root-owned plugins_registry/);
    expect(reasonFor(manifests, 'runAsRoot:liveness-probe@liveness-probe')).toMatch(/root-owned CSI socket/);
  });

  test('system-node-critical and tolerates every taint', () => {
    expect(spec.priorityClassName).toEqual('system-node-critical');
    expect(spec.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(spec.hostNetwork).toBeUndefined();
  });

  test('no RBAC and no ServiceAccount token', () => {
    expect(spec.automountServiceAccountToken).toBe(false);
  });

  test('probes: the driver\'s health through the livenessprobe sidecar, the registrar\'s own, a TCP check of the sidecar', () => {
    expect(driver.livenessProbe).toEqual({ httpGet: { path: '/healthz', port: 9898 }, initialDelaySeconds: 10, timeoutSeconds: 3, periodSeconds: 10, failureThreshold: 5 });
    expect(driver.readinessProbe).toEqual({ httpGet: { path: '/healthz', port: 9898 }, timeoutSeconds: 3, periodSeconds: 5 });
    expect(registrar.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 9809 });
    expect(probe.livenessProbe).toEqual({ tcpSocket: { port: 9898 }, periodSeconds: 10 });
    expect(probe.ports).toEqual([{ name: 'healthz', containerPort: 9898, protocol: 'TCP' }]);
  });

  test('resources: requests and a memory limit for every container', () => {
    expect(driver.resources).toEqual({ requests: { cpu: '10m', memory: '64Mi' }, limits: { memory: '256Mi' } });
    expect(registrar.resources).toEqual({ requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '64Mi' } });
    expect(probe.resources).toEqual(registrar.resources);
  });

  test('NODE_NAME from the downward API; Pod Security labels on the namespace', () => {
    expect(driver.env).toContainEqual({ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } });
    expect(find(manifests, 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce']).toEqual('privileged');
  });

  test('every host privilege carries its reason on the DaemonSet', () => {
    expect(reasonKeys(manifests)).toEqual([
      `hostPath:${PLUGIN_DIR} (read-only)@liveness-probe`,
      `hostPath:${PLUGIN_DIR} (read-only)@node-driver-registrar`,
      `hostPath:${PLUGIN_DIR} (read-write)@agent`,
      'hostPath:/dev (read-write)@agent',
      'hostPath:/var/lib/csi-hostpath-data (read-write)@agent',
      'hostPath:/var/lib/kubelet (read-write)@agent',
      'hostPath:/var/lib/kubelet/plugins_registry (read-write)@node-driver-registrar',
      'privileged:agent@agent',
      'runAsRoot:agent@agent',
      'runAsRoot:liveness-probe@liveness-probe',
      'runAsRoot:node-driver-registrar@node-driver-registrar',
    ].sort());
  });

  test('sidecars have readiness probes too', () => {
    expect(registrar.readinessProbe).toEqual({ httpGet: { path: '/healthz', port: 9809 }, timeoutSeconds: 3, periodSeconds: 10 });
    expect(probe.readinessProbe).toEqual({ tcpSocket: { port: 9898 }, periodSeconds: 10 });
  });

  test('security review: no unacknowledged finding; the privileged driver and /var/lib/kubelet are acknowledged, with reasons', () => {
    const agent = new CsiNodePlugin(chart(), 'csi-node');
    expect(openFindings(agent)).toEqual([]);
    // the privilege escalation of a privileged container, and Pod Security's privileged check (acknowledged too), are part of
    // its NA-PRIVILEGED finding (one privilege, one finding)
    expect(acknowledgedRules(agent)).toEqual(['NA-HOSTPATH-SENSITIVE', 'NA-PRIVILEGED']);
    const privileged = agent.review().workloads[0].findings.find((f) => f.rule === 'NA-PRIVILEGED')!;
    expect(privileged.rules).toContain('PSS-BASELINE-privileged');
  });

  test('snapshot', () => {
    expect(manifests).toMatchSnapshot();
  });
});

describe('CsiNodePlugin overrides', () => {
  test('props take every NodeAgent property, with the image optional', () => {
    const same: SameKeys<Omit<CsiNodePluginProps, 'driverName' | 'registrarImage' | 'livenessProbeImage' | 'csiDriver'>, NodeAgentProps> = true;
    const imageOptional: undefined extends CsiNodePluginProps['image'] ? true : false = true;
    expect([same, imageOptional]).toEqual([true, true]);
  });

  test('the driver name sets the plugin directory, the driver args and the registration path', () => {
    const m = synth({ driverName: 'ebs.csi.aws.com' });
    expect(hostMount(m, '/var/lib/kubelet/plugins/ebs.csi.aws.com')).toMatchObject({ mountPath: '/csi', type: 'DirectoryOrCreate' });
    expect(container(m).args[0]).toEqual('--drivername=ebs.csi.aws.com');
    expect(container(m, 'node-driver-registrar').args).toContain('--kubelet-registration-path=/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock');
  });

  test('your own driver: image, args and host mounts from standardHostMounts (acknowledged by you), plus permissions', () => {
    const m = synthOf((c) => {
      const plugin = new CsiNodePlugin(c, 'csi-node', {
        driverName: 'ebs.csi.aws.com',
        image: 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.64.0',
        args: ['node', '--endpoint=unix:///csi/csi.sock'],
        hostMounts: CsiNodePlugin.standardHostMounts('ebs.csi.aws.com'),
        clusterPermissions: [{ resources: ['nodes'], verbs: ['get'] }],
        registrarImage: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.14.0',
      });
      // /var/lib/kubelet and /dev read-write (critical), the driver's own socket directory read-write (high): one acknowledgement for all
      expect(openFindings(plugin).map((f) => /host path (\S+)/.exec(f)![1])).toEqual(['/var/lib/kubelet', '/dev', '/var/lib/kubelet/plugins/ebs.csi.aws.com']);
      expect(openFindings(plugin).map((f) => f.split(':')[0])).toEqual([
        '[critical] NA-HOSTPATH-SENSITIVE (agent)', '[critical] NA-HOSTPATH-SENSITIVE (agent)', '[high] NA-HOSTPATH-SENSITIVE (agent)',
      ]);
      plugin.acknowledge('NA-HOSTPATH-SENSITIVE', 'the EBS driver stages and publishes volumes under /var/lib/kubelet', 'agent');
    });
    expect(container(m).image).toEqual('public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.64.0');
    expect(container(m).args).toEqual(['node', '--endpoint=unix:///csi/csi.sock']);
    expect(hostMounts(m).map((x) => x.hostPath)).toEqual(['/var/lib/kubelet/plugins/ebs.csi.aws.com', '/var/lib/kubelet', '/dev']);
    expect(find(m, 'ClusterRole').rules).toEqual([{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }]);
    expect(container(m, 'node-driver-registrar').image).toEqual('registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.14.0');
  });

  test('tolerations and priority given by the user replace the preset\'s; sidecars are added to the registrar and the liveness probe', () => {
    const m = synth({
      sidecars: [],
      tolerations: [Toleration.exists('node.kubernetes.io/unschedulable')],
      priorityClassName: 'storage-critical',
    });
    expect(podSpec(m).containers.map((c: any) => c.name)).toEqual(['agent', 'node-driver-registrar', 'liveness-probe']);
    expect(podSpec(m).tolerations).toEqual([{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' }]);
    expect(podSpec(m).priorityClassName).toEqual('storage-critical');
    const withProxy = synth({ sidecars: [{ name: 'metrics-proxy', image: 'registry.example.com/proxy:1.0.0', liveness: AgentProbe.tcpSocket(8443), readiness: AgentProbe.tcpSocket(8443) }] });
    expect(podSpec(withProxy).containers.map((c: any) => c.name)).toEqual(['agent', 'node-driver-registrar', 'liveness-probe', 'metrics-proxy']);
    expect(container(withProxy).livenessProbe.httpGet).toEqual({ path: '/healthz', port: 9898 });
  });

  test('a sidecar named as one the driver needs is refused, saying why it is kept', () => {
    expect(() => synth({ sidecars: [{ name: 'node-driver-registrar', image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.14.0' }] })).toThrow(
      /^\[test\/csi-node\] sidecars: your container node-driver-registrar has the name node-driver-registrar of the container node-driver-registrar that CsiNodePlugin always keeps, because node-driver-registrar registers the driver with the kubelet .*: leave this one out, or give yours another name$/);
  });

  test('args replace the hostpath driver\'s but must give the driver its socket', () => {
    expect(() => synth({ args: ['node'] })).toThrow(
      /^\[test\/csi-node\] args: none of your args \(nor env\) gives the driver its endpoint unix:\/\/\/csi\/csi\.sock, .* e\.g\. --endpoint=unix:\/\/\/csi\/csi\.sock$/);
    expect(container(synth({ args: ['node'], env: { CSI_ENDPOINT: 'unix:///csi/csi.sock' } })).args).toEqual(['node']);
  });

  test('add* methods add to the preset: an extra read-only host mount', () => {
    const c = chart();
    const agent = new CsiNodePlugin(c, 'csi-node');
    agent.addHostMount(HostMount.readOnly('/sys/fs/selinux', { reason: 'r' }));
    expect(agent.driverName).toEqual('hostpath.csi.k8s.io');
  });

  test('fails on an invalid driver name, naming the construct', () => {
    expect(() => new CsiNodePlugin(chart(), 'csi', { driverName: 'Not_Valid' })).toThrow(/\[test\/csi\] driverName "Not_Valid" is invalid/);
    expect(() => CsiNodePlugin.standardHostMounts('../etc')).toThrow(/driver name "..\/etc" is invalid/);
  });
});

describe('CsiNodePlugin csiDriver: the CSIDriver object the kubelet needs for inline volumes', () => {
  test('none by default (the first describe checks the kinds); with the option, one cluster-wide CSIDriver named after the driver', () => {
    const manifests = synthOf((c) => new CsiNodePlugin(c, 'csi-node', {
      driverName: 'inline.example.com',
      csiDriver: { volumeLifecycleModes: [CsiVolumeLifecycleMode.EPHEMERAL], attachRequired: false, podInfoOnMount: true },
    }), 'storage');
    const driver = find(manifests, 'CSIDriver');
    expect(driver.apiVersion).toBe('storage.k8s.io/v1');
    // cluster-scoped: the chart's namespace is not written on it
    expect(driver.metadata.name).toBe('inline.example.com');
    expect(driver.metadata.namespace).toBeUndefined();
    expect(driver.spec).toEqual({ attachRequired: false, podInfoOnMount: true, volumeLifecycleModes: ['Ephemeral'] });
  });

  test('options left unset are left to the API server\'s defaults (attach required, no pod info, Persistent)', () => {
    const driver = find(synth({ csiDriver: {} }), 'CSIDriver');
    expect(driver.metadata.name).toBe('hostpath.csi.k8s.io');
    expect(driver.spec).toEqual({});
  });

  test('refuses an empty or repeated mode list, and a mode that is not one, naming the construct and the field', () => {
    expect(() => synth({ csiDriver: { volumeLifecycleModes: [] } })).toThrow(
      /^\[test\/csi-node\] csiDriver\.volumeLifecycleModes: the list is empty, .* e\.g\. \[CsiVolumeLifecycleMode\.EPHEMERAL\]$/);
    expect(() => synth({ csiDriver: { volumeLifecycleModes: [CsiVolumeLifecycleMode.EPHEMERAL, CsiVolumeLifecycleMode.EPHEMERAL] } })).toThrow(
      /^\[test\/csi-node\] csiDriver\.volumeLifecycleModes: "Ephemeral" is listed twice, which the API server refuses: list it once$/);
    expect(() => synth({ csiDriver: { volumeLifecycleModes: ['ephemeral' as CsiVolumeLifecycleMode] } })).toThrow(
      /csiDriver\.volumeLifecycleModes\[0\] "ephemeral" is not one of Persistent, Ephemeral .*did you mean CsiVolumeLifecycleMode\.EPHEMERAL\?/);
    expect(() => synth({ csiDriver: { attachRequired: 'no' as any } })).toThrow(/csiDriver\.attachRequired/);
  });
});
