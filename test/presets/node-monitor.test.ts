import {
  PINNED, SameKeys, acknowledgedRules, chart, container, find, hostMount, hostMounts, kinds, openFindings,
  podSpec, reasonFor, reasonKeys, synthOf,
} from './preset-helpers';
import { HostMount, Justification, NodeAgent, NodeAgentProps, NodeMonitor, NodeMonitorProps, Toleration } from '../../src';

function synth(props?: NodeMonitorProps): any[] {
  return synthOf((c) => new NodeMonitor(c, 'node-exporter', props));
}

describe('NodeMonitor defaults', () => {
  const manifests = synth();
  const main = container(manifests);
  const spec = podSpec(manifests);

  test('is a NodeAgent constructible with (scope, id) alone; no RBAC objects', () => {
    expect(new NodeMonitor(chart(), 'node-exporter')).toBeInstanceOf(NodeAgent);
    expect(kinds(manifests)).toEqual(['DaemonSet', 'Namespace', 'Service', 'ServiceAccount']);
  });

  test('the image is node-exporter, pinned', () => {
    expect(main.image).toEqual('quay.io/prometheus/node-exporter:v1.12.1');
    expect(main.image).toEqual(NodeMonitor.DEFAULT_IMAGE);
    expect(main.image).toMatch(PINNED);
  });

  test('host network and host PID, each with its reason', () => {
    expect(spec.hostNetwork).toBe(true);
    expect(spec.hostPID).toBe(true);
    expect(spec.hostIPC).toBeUndefined();
    expect(spec.dnsPolicy).toEqual('ClusterFirstWithHostNet');
    expect(reasonFor(manifests, 'hostNetwork:')).toMatch(/network interfaces/);
    expect(reasonFor(manifests, 'hostPID:')).toMatch(/process/);
  });

  test('/proc, /sys and / read-only under /host, root with HostToContainer propagation', () => {
    expect(hostMounts(manifests)).toEqual([
      { hostPath: '/proc', type: 'Directory', mountPath: '/host/proc', readOnly: true, propagation: undefined, volume: 'host-proc' },
      { hostPath: '/sys', type: 'Directory', mountPath: '/host/sys', readOnly: true, propagation: undefined, volume: 'host-sys' },
      { hostPath: '/', type: 'Directory', mountPath: '/host/root', readOnly: true, propagation: 'HostToContainer', volume: 'host-root' },
    ]);
  });

  test('args point node-exporter at the host paths', () => {
    expect(main.args.slice(0, 3)).toEqual(['--path.procfs=/host/proc', '--path.sysfs=/host/sys', '--path.rootfs=/host/root']);
    expect(main.args).toContain('--web.listen-address=:9100');
  });

  test('runs as non-root 65534 with every capability dropped, read-only root, seccomp RuntimeDefault', () => {
    expect(main.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      runAsUser: 65534,
      runAsGroup: 65534,
      capabilities: { drop: ['ALL'] },
    });
    expect(spec.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
  });

  test('the ServiceAccount token is not mounted', () => {
    expect(spec.automountServiceAccountToken).toBe(false);
    expect(find(manifests, 'ServiceAccount').automountServiceAccountToken).toBe(false);
  });

  test('tolerates every NoSchedule taint, no NoExecute taint', () => {
    expect(spec.tolerations).toEqual([{ operator: 'Exists', effect: 'NoSchedule' }]);
  });

  test('metrics port 9100, bound on the node with its reason, behind a Service', () => {
    expect(main.ports).toEqual([{ name: 'metrics', containerPort: 9100, hostPort: 9100, protocol: 'TCP' }]);
    expect(reasonFor(manifests, 'hostPort:9100/TCP@agent')).toMatch(/scrapes each node/);
    const svc = find(manifests, 'Service');
    expect(svc.spec.ports).toEqual([{ name: 'metrics', port: 9100, targetPort: 'metrics', protocol: 'TCP' }]);
    expect(svc.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9100' });
  });

  test('probes on /', () => {
    expect(main.livenessProbe).toEqual({ httpGet: { path: '/', port: 9100 } });
    expect(main.readinessProbe).toEqual({ httpGet: { path: '/', port: 9100 } });
  });

  test('resources: requests and a memory limit', () => {
    expect(main.resources).toEqual({ requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '128Mi' } });
  });

  test('NODE_NAME from the downward API; Pod Security labels on the namespace', () => {
    expect(main.env).toContainEqual({ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } });
    expect(find(manifests, 'Namespace').metadata.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'privileged',
      'pod-security.kubernetes.io/warn': 'restricted',
    });
  });

  test('every host privilege carries its reason on the DaemonSet', () => {
    expect(reasonKeys(manifests)).toEqual([
      'hostPath:/ (read-only)@agent',
      'hostPath:/proc (read-only)@agent',
      'hostPath:/sys (read-only)@agent',
      'hostNetwork:',
      'hostPID:',
      'hostPort:9100/TCP@agent',
    ].sort());
  });

  test('priority class system-cluster-critical: bound to its node, it must not stay Pending', () => {
    expect(spec.priorityClassName).toEqual('system-cluster-critical');
  });

  test('security review: no unacknowledged finding; / (its runtime sockets) and /proc, read-only, are acknowledged, with the reasons', () => {
    const agent = new NodeMonitor(chart(), 'node-exporter');
    expect(openFindings(agent)).toEqual([]);
    expect(acknowledgedRules(agent)).toEqual(['NA-HOSTPATH-SENSITIVE', 'NA-RUNTIME-SOCKET']);
    const ack = JSON.parse(find(manifests, 'DaemonSet').metadata.annotations['node-agents.cdk8s.io/acknowledged']);
    expect(ack).toEqual([
      { rule: 'NA-HOSTPATH-SENSITIVE', container: 'agent', reason: expect.stringMatching(/nobody \(65534\) without capabilities/) },
      { rule: 'NA-RUNTIME-SOCKET', container: 'agent', reason: expect.stringMatching(/nobody \(65534\) without capabilities/) },
    ]);
  });

  test('security review: the acknowledgement lapses when the user changes what it relies on', () => {
    const agent = new NodeMonitor(chart(), 'node-exporter', { runAsRoot: { reason: 'textfile collector reads root-only files' } });
    expect(openFindings(agent).map((f) => f.split(':')[0])).toEqual(['[critical] NA-RUNTIME-SOCKET (agent)', '[high] NA-HOSTPATH-SENSITIVE (agent)']);
  });

  test('snapshot', () => {
    expect(manifests).toMatchSnapshot();
  });
});

describe('NodeMonitor overrides', () => {
  test('props take every NodeAgent property, with the image optional', () => {
    const same: SameKeys<NodeMonitorProps, NodeAgentProps> = true;
    const imageOptional: undefined extends NodeMonitorProps['image'] ? true : false = true;
    expect([same, imageOptional]).toEqual([true, true]);
  });

  test('a prop set by the user wins', () => {
    const reason: Justification = { reason: 'process metrics are not wanted' };
    const m = synth({
      image: 'quay.io/prometheus/node-exporter:v1.12.1-distroless',
      args: ['--collector.systemd'],
      tolerations: [Toleration.everything()],
      priorityClassName: 'system-cluster-critical',
      hostIPC: reason,
    });
    const main = container(m);
    expect(main.image).toEqual('quay.io/prometheus/node-exporter:v1.12.1-distroless');
    expect(main.args).toEqual([
      '--path.procfs=/host/proc', '--path.sysfs=/host/sys', '--path.rootfs=/host/root', '--web.listen-address=:9100',
      '--path.udev.data=/host/root/run/udev/data',
      '--collector.filesystem.mount-points-exclude=^/(dev|proc|sys|var/lib/docker/.+|var/lib/kubelet/.+)($|/)',
      '--collector.systemd',
    ]);
    expect(podSpec(m).tolerations).toEqual([{ operator: 'Exists' }]);
    expect(podSpec(m).priorityClassName).toEqual('system-cluster-critical');
    expect(podSpec(m).hostIPC).toBe(true);
  });

  test('host mounts given by the user are added to the /proc, /sys and / node-exporter reports on', () => {
    expect(hostMounts(synth({ hostMounts: [] })).map((x) => x.hostPath)).toEqual(['/proc', '/sys', '/']);
    const m = synthOf((c) => {
      const agent = new NodeMonitor(c, 'node-exporter', {
        hostMounts: [HostMount.readOnly('/var/lib/node-exporter', { mountPath: '/textfile', reason: 'reads the textfile collector\'s metrics' })],
      });
      // the user's mount voids the preset's acknowledgements of the main container's mounts: the user judges the whole list
      agent.acknowledge('NA-HOSTPATH-SENSITIVE', '/proc and / are read-only, as nobody', 'agent');
      agent.acknowledge('NA-RUNTIME-SOCKET', '/ is read-only, as nobody', 'agent');
    });
    expect(hostMounts(m).map((x) => x.hostPath)).toEqual(['/proc', '/sys', '/', '/var/lib/node-exporter']);
  });

  test('args: a default flag of your own replaces the preset\'s; the flags that match its mounts and port are refused', () => {
    const exclude = '--collector.filesystem.mount-points-exclude=^/(dev|proc|sys)($|/)';
    const args = container(synth({ args: [exclude] })).args;
    expect(args.filter((a: string) => a.startsWith('--collector.filesystem.mount-points-exclude='))).toEqual([exclude]);
    expect(args).toContain('--path.udev.data=/host/root/run/udev/data');
    expect(() => synth({ args: ['--web.listen-address=:9200'] })).toThrow(
      /^\[test\/node-exporter\] args: your arg --web.listen-address=:9200 has the flag --web.listen-address of the arg --web.listen-address=:9100 that NodeMonitor always keeps, because .*port 9100/);
  });

  test('runAsRoot given by the user drops the preset\'s runAsUser; the user then acknowledges what root implies', () => {
    const m = synthOf((c) => {
      const agent = new NodeMonitor(c, 'node-exporter', { runAsRoot: { reason: 'reads root-only files for a textfile collector' } });
      agent.acknowledge('NA-RUNTIME-SOCKET', 'the textfile collector needs root; the runtime sockets stay unused', 'agent');
      agent.acknowledge('NA-HOSTPATH-SENSITIVE', 'the textfile collector needs root; /proc is read for statistics only', 'agent');
    });
    expect(container(m).securityContext).toMatchObject({ runAsNonRoot: false, runAsUser: 0, runAsGroup: 65534 });
  });

  test('hostMount helper sees the root mount', () => {
    expect(hostMount(synth(), '/').propagation).toEqual('HostToContainer');
  });
});
