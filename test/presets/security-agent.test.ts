import {
  PINNED, SameKeys, acknowledgedRules, chart, container, find, hostMount, hostMounts, kinds, openFindings,
  podSpec, reasonFor, reasonKeys, synthOf,
} from './preset-helpers';
import { FalcoDriver, NodeAgent, NodeAgentProps, SecurityAgent, SecurityAgentProps } from '../../src';

function synth(props?: SecurityAgentProps): any[] {
  return synthOf((c) => new SecurityAgent(c, 'falco', props));
}

describe('SecurityAgent defaults (modern eBPF)', () => {
  const manifests = synth();
  const main = container(manifests);
  const spec = podSpec(manifests);

  test('is a NodeAgent constructible with (scope, id) alone; no RBAC, no Service', () => {
    const agent = new SecurityAgent(chart(), 'falco');
    expect(agent).toBeInstanceOf(NodeAgent);
    expect(agent.driver.kind).toEqual('modern_ebpf');
    expect(kinds(manifests)).toEqual(['DaemonSet', 'Namespace', 'ServiceAccount']);
    expect(spec.automountServiceAccountToken).toBe(false);
  });

  test('the image is Falco, pinned', () => {
    expect(main.image).toEqual('docker.io/falcosecurity/falco:0.44.1');
    expect(main.image).toEqual(SecurityAgent.DEFAULT_IMAGE);
    expect(main.image).toMatch(PINNED);
  });

  test('runs Falco with the modern eBPF engine, the webserver on 8765 and JSON output', () => {
    expect(main.command).toEqual(['/usr/bin/falco']);
    expect(main.args).toEqual([
      '-o', 'engine.kind=modern_ebpf',
      '-o', 'webserver.enabled=true',
      '-o', 'webserver.listen_port=8765',
      '-o', 'webserver.k8s_healthz_endpoint=/healthz',
      '-o', 'json_output=true',
    ]);
    expect(main.env).toEqual(expect.arrayContaining([
      { name: 'HOST_ROOT', value: '/host' },
      { name: 'FALCO_K8S_NODE_NAME', value: '$(NODE_NAME)' },
      { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    ]));
  });

  test('least privilege: BPF, PERFMON, SYS_RESOURCE and SYS_PTRACE, each with its reason, not privileged', () => {
    expect(main.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: false,
      runAsUser: 0,
      capabilities: { add: ['BPF', 'PERFMON', 'SYS_RESOURCE', 'SYS_PTRACE'], drop: ['ALL'] },
    });
    for (const cap of ['BPF', 'PERFMON', 'SYS_RESOURCE', 'SYS_PTRACE']) expect(reasonFor(manifests, `capability:${cap}@agent`)).toBeTruthy();
    expect(reasonFor(manifests, 'runAsRoot:agent@agent')).toMatch(/effective only for UID 0/);
    expect(spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(spec.initContainers).toBeUndefined();
    expect(find(manifests, 'DaemonSet').spec.template.metadata.annotations).toEqual({
      'container.apparmor.security.beta.kubernetes.io/agent': 'unconfined',
    });
  });

  test('host mounts, all read-only: /proc and /etc under /host, /sys/kernel, the containerd socket under /host', () => {
    expect(hostMounts(manifests)).toEqual([
      { hostPath: '/proc', type: 'Directory', mountPath: '/host/proc', readOnly: true, propagation: undefined, volume: 'host-proc' },
      { hostPath: '/etc', type: 'Directory', mountPath: '/host/etc', readOnly: true, propagation: undefined, volume: 'host-etc' },
      {
        hostPath: '/run/containerd/containerd.sock',
        type: 'Socket',
        mountPath: '/host/run/containerd/containerd.sock',
        readOnly: true,
        propagation: undefined,
        volume: 'host-run-containerd-containerd-sock',
      },
      { hostPath: '/sys/kernel', type: 'Directory', mountPath: '/sys/kernel', readOnly: true, propagation: undefined, volume: 'host-sys-kernel' },
    ]);
    expect(hostMounts(manifests).map((m) => m.hostPath)).not.toContain('/dev');
  });

  test('tolerates the control-plane taint; no host namespaces, no priority class', () => {
    expect(spec.tolerations).toEqual([{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }]);
    expect(spec.hostNetwork).toBeUndefined();
    expect(spec.hostPID).toBeUndefined();
    expect(spec.priorityClassName).toBeUndefined();
  });

  test('webserver port 8765 with startup, liveness and readiness on /healthz', () => {
    expect(main.ports).toEqual([{ name: 'web', containerPort: 8765, protocol: 'TCP' }]);
    const httpGet = { path: '/healthz', port: 8765 };
    expect(main.startupProbe).toEqual({ httpGet, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 5, failureThreshold: 20 });
    expect(main.livenessProbe).toEqual({ httpGet, periodSeconds: 15, timeoutSeconds: 5, failureThreshold: 3 });
    expect(main.readinessProbe).toEqual({ httpGet, periodSeconds: 15, timeoutSeconds: 5, failureThreshold: 3 });
  });

  test('resources: requests and a memory limit', () => {
    expect(main.resources).toEqual({ requests: { cpu: '100m', memory: '512Mi' }, limits: { memory: '1024Mi' } });
  });

  test('Pod Security labels on the namespace', () => {
    expect(find(manifests, 'Namespace').metadata.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'privileged',
      'pod-security.kubernetes.io/audit': 'restricted',
    });
  });

  test('every host privilege carries its reason on the DaemonSet', () => {
    expect(reasonKeys(manifests)).toEqual([
      'capability:BPF@agent',
      'capability:PERFMON@agent',
      'capability:SYS_PTRACE@agent',
      'capability:SYS_RESOURCE@agent',
      'hostPath:/etc (read-only)@agent',
      'hostPath:/proc (read-only)@agent',
      'hostPath:/run/containerd/containerd.sock (read-only)@agent',
      'hostPath:/sys/kernel (read-only)@agent',
      'runAsRoot:agent@agent',
    ].sort());
  });

  test('security review: no unacknowledged finding; the runtime socket and the AppArmor override are acknowledged, with reasons', () => {
    const agent = new SecurityAgent(chart(), 'falco');
    expect(openFindings(agent)).toEqual([]);
    expect(acknowledgedRules(agent)).toEqual(['NA-HOSTPATH-SENSITIVE', 'NA-RUNTIME-SOCKET', 'PSS-BASELINE-appArmorProfile']);
  });

  test('snapshot', () => {
    expect(manifests).toMatchSnapshot();
  });
});

describe('SecurityAgent kernel module (privileged opt-in)', () => {
  const manifests = synth({ driver: FalcoDriver.kernelModule('node pool on kernel 4.14 without BTF') });
  const main = container(manifests);

  test('the main container and the driver loader are privileged, with the given reason', () => {
    expect(main.securityContext.privileged).toBe(true);
    expect(main.securityContext.capabilities).toEqual({ drop: ['ALL'] });
    expect(main.args).toContain('engine.kind=kmod');
    expect(reasonFor(manifests, 'privileged:agent@agent')).toMatch(/kernel 4.14 without BTF/);
    const loader = container(manifests, 'falco-driver-loader');
    expect(loader.image).toEqual(SecurityAgent.DEFAULT_DRIVER_LOADER_IMAGE);
    expect(loader.image).toMatch(PINNED);
    expect(loader.securityContext.privileged).toBe(true);
    expect(reasonFor(manifests, 'privileged:falco-driver-loader@falco-driver-loader')).toMatch(/kernel 4.14 without BTF/);
  });

  test('mounts /dev and /sys/module read-only instead of /sys/kernel; the loader reads the kernel build tree read-only', () => {
    expect(hostMount(manifests, '/dev')).toMatchObject({ mountPath: '/host/dev', readOnly: true });
    expect(hostMount(manifests, '/sys/module')).toMatchObject({ readOnly: true });
    expect(hostMounts(manifests).map((m) => m.hostPath)).not.toContain('/sys/kernel');
    for (const m of hostMounts(manifests, 'falco-driver-loader')) expect(m.readOnly).toBe(true);
    expect(hostMounts(manifests, 'falco-driver-loader').map((m) => m.hostPath)).toEqual(['/proc', '/boot', '/lib/modules', '/usr', '/etc']);
  });

  test('security review: no unacknowledged finding; the privileged containers are acknowledged with the given reason', () => {
    const agent = new SecurityAgent(chart(), 'falco', { driver: FalcoDriver.kernelModule('node pool on kernel 4.14 without BTF') });
    expect(openFindings(agent)).toEqual([]);
    // the privilege escalation of a privileged container is part of its NA-PRIVILEGED finding (one cause, one finding)
    expect(acknowledgedRules(agent)).toEqual(['NA-HOSTPATH-SENSITIVE', 'NA-PRIVILEGED', 'NA-RUNTIME-SOCKET']);
    const acks = JSON.parse(find(manifests, 'DaemonSet').metadata.annotations['node-agents.cdk8s.io/acknowledged']);
    expect(acks.find((a: any) => a.rule === 'NA-PRIVILEGED').reason).toMatch(/kernel 4.14 without BTF/);
  });

  test('no AppArmor override for the kernel module', () => {
    expect(find(manifests, 'DaemonSet').spec.template.metadata.annotations).toBeUndefined();
  });

  test('fails on a driver not made by FalcoDriver, naming the construct', () => {
    expect(() => new SecurityAgent(chart(), 'falco', { driver: { kind: 'kmod' } as any })).toThrow(/\[test\/falco\] driver must be created with FalcoDriver/);
  });

  test('fails without a reason', () => {
    expect(() => FalcoDriver.kernelModule('')).toThrow(/the reason must be one non-empty line/);
    expect(() => FalcoDriver.kernelModule('two\nlines')).toThrow(/the reason must be one non-empty line/);
  });
});

describe('SecurityAgent overrides', () => {
  test('props take every NodeAgent property, with the image optional', () => {
    const same: SameKeys<Omit<SecurityAgentProps, 'driver' | 'containerRuntimeSockets' | 'driverLoaderImage'>, NodeAgentProps> = true;
    const imageOptional: undefined extends SecurityAgentProps['image'] ? true : false = true;
    expect([same, imageOptional]).toEqual([true, true]);
  });

  test('container runtime sockets are configurable, each read-only and typed Socket under /host', () => {
    const m = synth({ containerRuntimeSockets: ['/run/crio/crio.sock'] });
    expect(hostMount(m, '/run/crio/crio.sock')).toMatchObject({ type: 'Socket', mountPath: '/host/run/crio/crio.sock', readOnly: true });
    expect(hostMounts(m).map((x) => x.hostPath)).not.toContain('/run/containerd/containerd.sock');
    expect(() => synth({ containerRuntimeSockets: ['run/crio.sock'] })).toThrow(/\[test\/falco\] containerRuntimeSockets: "run\/crio.sock" must be an absolute host path/);
  });

  test('a prop set by the user wins: image, tolerations, priority; annotations are added', () => {
    const m = synth({
      image: 'registry.example.com/falco:0.44.1',
      tolerations: [],
      podAnnotations: { 'example.com/team': 'security' },
      priorityClassName: 'security-critical',
    });
    expect(container(m).image).toEqual('registry.example.com/falco:0.44.1');
    expect(podSpec(m).tolerations).toBeUndefined();
    // the AppArmor override the eBPF driver needs is kept beside the user's annotations
    expect(find(m, 'DaemonSet').spec.template.metadata.annotations).toEqual({
      'container.apparmor.security.beta.kubernetes.io/agent': 'unconfined', 'example.com/team': 'security',
    });
    expect(podSpec(m).priorityClassName).toEqual('security-critical');
  });

  test('env and the AppArmor annotation keep what Falco needs: yours are added, another value for theirs refused', () => {
    const m = synth({ env: { FALCO_LOG_LEVEL: 'debug' } });
    expect(container(m).env.filter((e: any) => e.value !== undefined)).toEqual([
      { name: 'HOST_ROOT', value: '/host' }, { name: 'FALCO_HOSTNAME', value: '$(NODE_NAME)' }, { name: 'FALCO_K8S_NODE_NAME', value: '$(NODE_NAME)' },
      { name: 'FALCO_LOG_LEVEL', value: 'debug' },
    ]);
    expect(() => synth({ env: { HOST_ROOT: '/' } })).toThrow(
      '[test/falco] env: HOST_ROOT is one of the env SecurityAgent always keeps, because Falco finds the host\'s /proc and /etc under HOST_ROOT and ' +
      'names the node in its events. The env you set are added to the preset\'s: leave HOST_ROOT out, or give yours another name');
    expect(() => synth({ podAnnotations: { 'container.apparmor.security.beta.kubernetes.io/agent': 'runtime/default' } }))
      .toThrow(/podAnnotations: container\.apparmor\.security\.beta\.kubernetes\.io\/agent is one of the podAnnotations SecurityAgent always keeps/);
  });

  test('the AppArmor annotation follows the container name', () => {
    const m = synth({ containerName: 'falco' });
    expect(find(m, 'DaemonSet').spec.template.metadata.annotations).toEqual({ 'container.apparmor.security.beta.kubernetes.io/falco': 'unconfined' });
  });
});
