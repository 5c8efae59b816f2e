import * as fc from 'fast-check';
import { HostAccess, HostAccessType, HostRisk, RiskLevel } from '../../src/model';

const { LOW, MEDIUM, HIGH, CRITICAL } = RiskLevel;

describe('HostRisk.forPath', () => {
  // [path, risk read-only, risk read-write]
  const table: Array<[string, RiskLevel, RiskLevel]> = [
    ['/', CRITICAL, CRITICAL],
    ['/etc', CRITICAL, CRITICAL], // contains /etc/kubernetes
    ['/etc/kubernetes', CRITICAL, CRITICAL],
    ['/etc/kubernetes/manifests', MEDIUM, CRITICAL], // the manifests hold no credentials; writing them runs any pod
    ['/etc/kubernetes/pki', CRITICAL, CRITICAL],
    ['/etc/kubernetes/admin.conf', CRITICAL, CRITICAL],
    ['/etc/kubernetes/kubelet.conf', HIGH, HIGH],
    ['/var/lib/etcd', CRITICAL, CRITICAL],
    ['/var/lib/kubelet', HIGH, CRITICAL],
    ['/var/lib/kubelet/pods', HIGH, CRITICAL],
    ['/var/lib/kubelet/plugins_registry', MEDIUM, HIGH],
    ['/var/lib/kubelet/plugins', HIGH, HIGH],
    ['/var/lib/kubelet/plugins/ebs.csi.aws.com', MEDIUM, HIGH], // one driver's own socket directory
    ['/var/lib/kubelet/plugins/kubernetes.io/csi', HIGH, HIGH], // staged volumes of every driver, not a driver named kubernetes.io
    ['/var/run/docker.sock', CRITICAL, CRITICAL],
    ['/run/docker.sock', CRITICAL, CRITICAL],
    ['/run/containerd/containerd.sock', CRITICAL, CRITICAL],
    ['/var/run/crio/crio.sock', CRITICAL, CRITICAL],
    ['/run/containerd', CRITICAL, CRITICAL], // contains the socket
    ['/run/k3s', CRITICAL, CRITICAL],
    ['/run/host-containerd', CRITICAL, CRITICAL],
    ['/run/k0s/containerd.sock', CRITICAL, CRITICAL],
    ['/run/flannel', LOW, MEDIUM], // one program's own runtime directory
    ['/var/run/cilium/envoy/sockets', LOW, MEDIUM],
    ['/run/cilium/cgroupv2', LOW, HIGH], // a cgroup2 mount
    ['/run/calico/cgroup', LOW, HIGH],
    ['/run/systemd', CRITICAL, CRITICAL], // contains systemd's private socket
    ['/run/dbus', CRITICAL, CRITICAL], // contains the system bus socket
    ['/run', CRITICAL, CRITICAL],
    ['/var/run', CRITICAL, CRITICAL],
    ['/run/xtables.lock', LOW, LOW],
    ['/var/run/xtables.lock', LOW, LOW],
    ['/proc', HIGH, CRITICAL],
    ['/proc/sys/kernel', LOW, CRITICAL], // core_pattern; no process's data
    ['/proc/sys/net', LOW, HIGH], // network sysctls only
    ['/proc/sys', LOW, CRITICAL], // contains /proc/sys/kernel
    ['/proc/1', HIGH, CRITICAL],
    ['/proc/swaps', LOW, HIGH],
    ['/sys', MEDIUM, CRITICAL],
    ['/sys/fs/cgroup', LOW, CRITICAL],
    ['/sys/fs/bpf', MEDIUM, HIGH],
    ['/sys/fs', MEDIUM, CRITICAL], // contains /sys/fs/bpf and /sys/fs/cgroup
    ['/sys/module', LOW, CRITICAL], // it contains the firmware search path
    ['/sys/kernel', MEDIUM, CRITICAL], // uevent_helper; contains debugfs
    ['/sys/class/net', LOW, HIGH],
    ['/dev', HIGH, CRITICAL],
    ['/dev/kmsg', MEDIUM, MEDIUM],
    ['/var/log', MEDIUM, HIGH],
    ['/var/log/pods', MEDIUM, HIGH],
    ['/var/log/containers', MEDIUM, HIGH],
    ['/var/log/calico/cni', LOW, MEDIUM], // one program's own logs
    ['/var/log/journal', MEDIUM, HIGH],
    ['/boot', MEDIUM, CRITICAL],
    ['/lib/modules', LOW, CRITICAL],
    ['/usr/lib/modules', LOW, CRITICAL],
    ['/usr/src', LOW, MEDIUM],
    ['/usr', LOW, CRITICAL],
    ['/root', HIGH, CRITICAL],
    ['/home', HIGH, CRITICAL],
    ['/home/alice/.ssh', HIGH, CRITICAL],
    ['/opt/cni/bin', LOW, CRITICAL],
    ['/opt/cni', LOW, CRITICAL],
    ['/etc/cni/net.d', MEDIUM, HIGH],
    ['/var/lib/docker', HIGH, CRITICAL],
    ['/var/lib/docker/containers', HIGH, CRITICAL],
    ['/var/lib/docker/volumes', MEDIUM, HIGH], // a part of Docker's storage this catalogue does not describe
    ['/var/lib/containerd', HIGH, CRITICAL],
    ['/var/lib/fluent-bit', LOW, MEDIUM], // an agent's own state directory under /var/lib
    ['/var/lib', CRITICAL, CRITICAL], // contains /var/lib/etcd
    ['/etc/machine-id', LOW, MEDIUM],
    ['/etc/kubernetes/secrets-store-csi-providers', MEDIUM, HIGH], // one component's directory, not manifests/ or pki/
    ['/etc/kubernetes/node-feature-discovery/features.d', LOW, MEDIUM],
    ['/etc/ssh', HIGH, CRITICAL],
    ['/etc/containerd', MEDIUM, CRITICAL],
    ['/etc/falco', MEDIUM, HIGH], // configuration this catalogue does not know
    ['/etc/os-release', LOW, MEDIUM],
    ['/etc/shadow', HIGH, CRITICAL],
    ['/etc/passwd', LOW, CRITICAL],
    ['/etc/resolv.conf', LOW, HIGH],
    ['/etc/ssl/certs', LOW, HIGH],
    ['/tmp', LOW, MEDIUM],
    ['/srv/data', MEDIUM, HIGH],
    ['/mnt/fast-disks', MEDIUM, HIGH],
    ['/var/lib/kube-router/kubeconfig', HIGH, HIGH], // a kubeconfig, by its name
    ['/home/alice/.kube/config', HIGH, HIGH], // a kubeconfig, by its name: writing it is not adding an SSH key
    ['/var/lib/dbus', LOW, MEDIUM],
    ['/etcd', MEDIUM, HIGH], // not under /etc: matched by whole segments, so unknown
    ['/var/lib/kubeletx', LOW, MEDIUM], // not under /var/lib/kubelet
    ['C:\\var\\log', MEDIUM, HIGH],
    ['\\\\.\\pipe\\docker_engine', CRITICAL, CRITICAL],
    ['\\\\.\\pipe\\containerd-containerd', CRITICAL, CRITICAL],
    ['//./pipe/containerd-containerd', CRITICAL, CRITICAL],
  ];

  test.each(table)('%s: read-only %s, read-write %s', (path, ro, rw) => {
    expect(HostRisk.forPath(path, true).risk).toBe(ro);
    expect(HostRisk.forPath(path, false).risk).toBe(rw);
  });

  test.each([
    '/run/containerd/containerd.sock', '/var/run/docker.sock', '/run/docker.sock', '/var/run/crio/crio.sock', '/run/crio/crio.sock',
    '/run/cri-dockerd.sock', '/run/podman/podman.sock', '/run/k3s/containerd/containerd.sock', '/run/k0s/containerd.sock',
    '/run/host-containerd/containerd.sock', '/var/run/host-containerd/containerd.sock', '/run/dockershim.sock',
    '/var/snap/microk8s/common/run/containerd.sock', '/opt/custom/containerd.sock',
  ])('the runtime socket %s is critical read-only, and says why', (path) => {
    const a = HostRisk.forPath(path, true);
    expect(a.risk).toBe(CRITICAL);
    expect(a.attackerGains).toContain('a read-only mount does not stop a process from connecting to a socket');
    expect(a.attackerGains).toContain('root on the node');
    expect(a.saferAlternative).toContain('do not mount a container runtime socket');
  });

  test('paths are normalised and /var/run is read as /run', () => {
    expect(HostRisk.forPath('/var/log/../lib/etcd/', true).matchedPath).toBe('/var/lib/etcd');
    expect(HostRisk.forPath('/var//run/docker.sock', true).matchedPath).toBe('/run/docker.sock');
    expect(HostRisk.forPath('/var/log/pods', true).matchedPath).toBe('/var/log/pods');
    expect(HostRisk.forPath('/var/log/antrea', true).matchedPath).toBe('/var/log'); // judged by /var/log's rule for what is below it
    expect(HostRisk.forPath('/etcd', true)).not.toHaveProperty('matchedPath');
  });

  test('a directory names the riskier path it contains, and the generic advice', () => {
    const a = HostRisk.forPath('/run', true);
    expect(a.matchedPath).toBe('/run/containerd/containerd.sock');
    expect(a.attackerGains).toBe(
      'reads the runtime state of host services (their PID files, and the sockets they serve); it also contains /run/containerd/containerd.sock, ' +
      'mounted read-only with it, which is critical (as do /run/docker.sock, /run/crio/crio.sock, /run/cri-dockerd.sock, and 9 more): talks to the ' +
      'containerd API through its socket (a read-only mount does not stop a process from connecting to a socket): starts a privileged container ' +
      'with the node\'s root filesystem mounted, which is root on the node, and reads, stops or execs into every container it runs',
    );
    expect(a.saferAlternative).toContain('; more generally, mount only the program\'s own directory (e.g. /run/<program>) or file (e.g. /run/xtables.lock)');
  });

  test('a path without riskier content keeps its own text', () => {
    expect(HostRisk.forPath('/var/log', true)).toEqual({
      risk: MEDIUM,
      attackerGains: 'reads the logs of every pod and host service on the node, where tokens and personal data often leak',
      saferAlternative: 'mount only the log directories the agent reads (e.g. /var/log/pods and /var/log/containers for container logs)',
      matchedPath: '/var/log',
    });
  });

  test('an empty path is rejected', () => {
    expect(() => HostRisk.forPath('', true)).toThrow('host path must be a non-empty string, got "": pass the hostPath path');
  });

  test('every known path has a risk for both modes, read-write never below read-only, and plain-English text', () => {
    for (const path of HostRisk.knownPaths()) {
      const ro = HostRisk.forPath(path, true);
      const rw = HostRisk.forPath(path, false);
      expect(HostRisk.rank(rw.risk)).toBeGreaterThanOrEqual(HostRisk.rank(ro.risk));
      for (const a of [ro, rw]) {
        expect(a.attackerGains.length).toBeGreaterThan(20);
        expect(a.saferAlternative.length).toBeGreaterThan(5);
      }
    }
  });

  test('the catalogue covers every path the brief names', () => {
    const known = HostRisk.knownPaths();
    for (const p of ['/', '/etc', '/var/lib/kubelet', '/run/docker.sock', '/run/containerd/containerd.sock', '/run/crio/crio.sock', '/proc', '/sys',
      '/dev', '/var/log', '/boot', '/lib/modules', '/root', '/home', '/etc/kubernetes', '/var/lib/etcd', '/opt/cni/bin', '/etc/cni/net.d']) {
      expect(known).toContain(p);
    }
  });
});

// Each row is a host path a real upstream manifest mounts, which the review once judged by its parent: what the text
// must say of the exact path, and what it must not claim (the parent's contents, or advice the manifest already follows).
describe('HostRisk.forPath: a path is judged by what it is, not by its parent', () => {
  interface Row {
    readonly path: string;
    readonly readOnly: boolean;
    readonly type?: string;
    readonly risk: RiskLevel;
    readonly says: string;
    readonly never: string[];
    readonly advice?: string;
  }
  const rows: Row[] = [
    // programs' own runtime directories the catalogue knows by name: what each serves there (flannel, aws-vpc-cni, calico,
    // cilium, tetragon, secrets-store-csi-driver)
    ...([
      ['/run/flannel', MEDIUM, 'flannel\'s subnet.env'],
      ['/var/run/aws-node', MEDIUM, 'ipamd\'s IP allocation checkpoint'],
      ['/var/run/calico', HIGH, 'calico-node\'s BIRD control sockets'],
      ['/var/run/nodeagent', HIGH, 'the node agent socket Felix serves'],
      ['/var/run/cilium', HIGH, 'cilium-agent\'s API socket (cilium.sock)'],
      ['/var/run/tetragon', MEDIUM, 'Tetragon\'s socket and state'],
      ['/var/run/secrets-store-csi-providers', HIGH, 'a secret provider\'s socket'],
    ] as [string, RiskLevel, string][]).map(([path, risk, says]) => ({
      path,
      readOnly: false,
      risk,
      says,
      never: ['replaces the sockets and PID files of host services', 'does not know'],
      advice: 'keep it to the program that owns it',
    })),
    // a directory under /run the catalogue does not know: no guess at its owner, rated by what such a directory can hold
    {
      path: '/var/run/antrea',
      readOnly: false,
      risk: HIGH,
      says: '/var/run/antrea, a directory under /var/run that this catalogue does not know',
      never: ['one program\'s own', 'only the agent itself'],
      advice: 'check what serves /var/run/antrea',
    },
    {
      path: '/var/run/cilium/envoy/sockets',
      readOnly: false,
      risk: MEDIUM,
      says: 'inside cilium-agent\'s runtime directory',
      never: ['of host services', 'cilium.sock): changes'],
    },
    {
      path: '/var/run/cilium/envoy/artifacts',
      readOnly: true,
      risk: LOW,
      says: 'inside cilium-agent\'s runtime directory',
      never: ['runtime state of host services'],
      advice: 'nothing narrower',
    },
    // cilium's cgroup2 mount
    {
      path: '/run/cilium/cgroupv2',
      readOnly: false,
      risk: HIGH,
      says: 'cgroup (v2) hierarchy mounted at /run/cilium/cgroupv2',
      never: ['sockets and PID files', 'release_agent to'],
    },
    // falco: Bottlerocket's host containerd
    {
      path: '/run/host-containerd/containerd.sock',
      readOnly: false,
      risk: CRITICAL,
      says: 'talks to the Bottlerocket host containerd API through its socket',
      never: ['PID files', 'xtables.lock'],
    },
    // secrets-store-csi-driver, gpu-feature-discovery: subdirectories of /etc/kubernetes
    {
      path: '/etc/kubernetes/secrets-store-csi-providers',
      readOnly: false,
      risk: HIGH,
      says: 'a subdirectory of /etc/kubernetes that one component keeps (not the static pod manifests, the kubeconfigs or pki/)',
      never: ['writes static pod manifests', 'replaces cluster certificates', 'do not mount Kubernetes configuration'],
    },
    {
      path: '/etc/kubernetes/node-feature-discovery/features.d',
      readOnly: false,
      risk: MEDIUM,
      says: 'nfd-worker publishes as labels of this node',
      never: ['static pod manifests', 'mount only features.d'],
    },
    // the CSI drivers' own socket directories
    ...['ebs.csi.aws.com', 'csi-nfsplugin', 'smb.csi.k8s.io', 'csi-secrets-store'].map((driver) => ({
      path: `/var/lib/kubelet/plugins/${driver}`,
      readOnly: false,
      risk: HIGH,
      says: `the socket directory of the CSI driver ${driver} (one driver's, not other drivers')`,
      never: ['replaces other CSI drivers', 'mount only the driver\'s own directory'],
      advice: `nothing narrower: /var/lib/kubelet/plugins/${driver} is one driver's own directory`,
    })),
    // fluent-bit
    {
      path: '/var/lib/docker/containers',
      readOnly: true,
      risk: HIGH,
      says: 'config.v2.json), which holds its environment variables: the secrets passed as env',
      never: ['image layers'],
    },
    // calico
    {
      path: '/var/log/calico/cni',
      readOnly: true,
      risk: LOW,
      says: 'logs that the program keeping /var/log/calico writes there (not other pods\' or host services\')',
      never: ['every pod', 'mount read-only'],
    },
    // cilium
    {
      path: '/proc/sys/net', readOnly: false, risk: HIGH, says: 'network settings (IP forwarding, rp_filter, ARP, conntrack)', never: ['core_pattern'],
    },
    // falco
    { path: '/sys/module', readOnly: false, risk: CRITICAL, says: 'parameters of loaded kernel modules', never: ['uevent'] },
    // calico's ebpf-bootstrap: /sys/fs holds /sys/fs/cgroup, the riskiest thing below it
    { path: '/sys/fs', readOnly: false, risk: CRITICAL, says: 'it also contains /sys/fs/cgroup', never: ['uevent'] },
    // local-static-provisioner
    {
      path: '/mnt/fast-disks',
      readOnly: false,
      risk: HIGH,
      says: 'local disks of PersistentVolumes with the data of the pods bound to them',
      never: ['use a PersistentVolume for data', 'host services keep there'],
    },
    // kube-router: a single file, a kubeconfig
    {
      path: '/var/lib/kube-router/kubeconfig',
      readOnly: true,
      type: 'File',
      risk: HIGH,
      says: 'reads the kubeconfig /var/lib/kube-router/kubeconfig',
      never: ['DirectoryOrCreate', 'state of the host service'],
      advice: 'nothing narrower: the single file, read-only, typed File',
    },
    // every manifest with iptables: the lock, typed FileOrCreate already
    {
      path: '/run/xtables.lock',
      readOnly: false,
      type: 'FileOrCreate',
      risk: LOW,
      says: 'holds the iptables lock',
      never: ['mount it with type FileOrCreate'],
      advice: 'nothing to change',
    },
    // calico: an agent's own state directory, typed DirectoryOrCreate already
    {
      path: '/var/lib/calico',
      readOnly: false,
      type: 'DirectoryOrCreate',
      risk: MEDIUM,
      says: 'tampers with /var/lib/calico',
      never: ['(type DirectoryOrCreate)'],
    },
    // weave: D-Bus's directory, read for its machine ID
    {
      path: '/var/lib/dbus', readOnly: true, risk: LOW, says: 'D-Bus\'s machine ID', never: ['DirectoryOrCreate'], advice: 'mount only the file the agent reads',
    },
    // csi-driver-nfs, secrets-store: /var/lib/kubelet/pods is where a CSI node plugin publishes volumes
    {
      path: '/var/lib/kubelet/pods',
      readOnly: false,
      risk: CRITICAL,
      says: 'the volumes of every pod on the node',
      never: ['/var/lib/kubelet/plugins/<driver> for a CSI driver'],
      advice: 'needed only by a CSI node plugin',
    },
    // read-only mounts are not told to mount read-only
    ...['/lib/modules', '/sys', '/sys/kernel', '/proc', '/var/log', '/dev/kmsg', '/boot', '/sys/fs/cgroup', '/var/log/pods'].map((path) => ({
      path, readOnly: true, risk: HostRisk.forPath(path, true).risk, says: '', never: ['mount read-only', 'mount it read-only'],
    })),
  ];

  test.each(rows.map((r) => [`${r.path} (${r.readOnly ? 'read-only' : 'read-write'}${r.type ? `, ${r.type}` : ''})`, r]))('%s', (_name, row) => {
    const r = row as Row;
    const a = HostRisk.forPath(r.path, r.readOnly, r.type);
    expect(a.risk).toBe(r.risk);
    expect(a.attackerGains).toContain(r.says);
    for (const claim of r.never) expect(`${a.attackerGains} | ${a.saferAlternative}`).not.toContain(claim);
    if (r.advice !== undefined) expect(a.saferAlternative).toContain(r.advice);
  });

  test('a fix already applied is not given: /opt/cni/bin written only by the install init container', () => {
    const init = HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/opt/cni/bin (read-write)', onlyInitContainers: true });
    expect(init.risk).toBe(CRITICAL);
    expect(init.attackerGains).toContain('only init containers write it here');
    expect(init.saferAlternative).toMatch(/^nothing narrower: only the install init container writes it/);
    const agent = HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/opt/cni/bin (read-write)' });
    expect(agent.saferAlternative).toBe('mount it read-write only in the CNI plugin\'s install init container, never in a long-running container');
  });
});

// What node agents mount, from the corpus manifests added for issue 21 (test/corpus): each judgement is the catalogue's
// knowledge of that path, never the story of a pattern it resembles.
describe('HostRisk.forPath: what node agents really mount', () => {
  test.each([
    // [path, read-only?, risk, says, never]
    ['/var/run/nri/nri.sock', false, CRITICAL, 'containerd\'s NRI socket', ['one program\'s own']], // nri-device-injector
    ['/var/run/nri', true, CRITICAL, 'changes every container the runtime creates', ['one program\'s own']],
    ['/run/nvidia', false, CRITICAL, '/run/nvidia/driver', ['one program\'s own']], // gpu-operator-driver
    ['/run/nvidia/driver', false, CRITICAL, 'injects into every GPU container', ['one program\'s own']], // gpu-operator-container-toolkit
    ['/run/nvidia/toolkit', false, CRITICAL, 'NVIDIA container runtime', ['one program\'s own']],
    ['/run/nvidia/validations', false, MEDIUM, 'validation markers', ['one program\'s own']],
    ['/run/nvidia/driver/lib/firmware', false, CRITICAL, 'NVIDIA driver', ['one program\'s own']],
    ['/run/mellanox/drivers', false, CRITICAL, 'Mellanox OFED driver', ['one program\'s own']],
    ['/var/run/cdi', false, CRITICAL, 'Container Device Interface specs', ['one program\'s own']], // sample-device-plugin
    ['/run/containers/oci/hooks.d', false, CRITICAL, 'adds an OCI hook', ['bundles of running containers']],
    ['/run/udev', false, CRITICAL, '/run/udev/rules.d', ['misleads']], // gce-pd-csi-node-linux: not below /lib/udev
    ['/etc/udev', false, CRITICAL, 'RUN programs udevd runs as root', []],
    ['/dev/log', false, MEDIUM, 'syslog socket', ['device node']], // gpu-operator-driver
    ['/sys/module/firmware_class/parameters/path', false, CRITICAL, 'firmware search path', ['run-time parameters']],
    ['/home/kubernetes/bin/nvidia', false, CRITICAL, 'NVIDIA driver', ['SSH key']], // nvidia-driver-installer-gce
    ['/home/kubernetes/bin/nvidia/vulkan/icd.d', false, CRITICAL, 'NVIDIA driver', ['SSH key']],
    ['/home/keys', false, HIGH, 'a directory under /home that this catalogue does not know', []], // a CSI driver's encryption keys
    ['/tmp/agent-output', false, MEDIUM, 'a directory under /tmp that this catalogue does not know', ['host processes trust']],
    ['/run/ztunnel', false, HIGH, 'ztunnel\'s socket', ['does not know']], // ztunnel
    ['/var/run/istio-cni', false, MEDIUM, 'istio-cni\'s socket', ['does not know']], // istio-cni
    ['/etc/kubernetes/azure.json', true, HIGH, 'service principal secret', []],
    ['/etc/pki/tls/private', true, HIGH, 'TLS private keys', ['public']],
    ['/var/run/some-agent', false, HIGH, 'a directory under /var/run that this catalogue does not know', ['one program\'s own', 'only the agent itself']],
  ] as [string, boolean, RiskLevel, string, string[]][])('%s (read-only %s): %s, "%s"', (path, readOnly, risk, says, never) => {
    const a = HostRisk.forPath(path, readOnly);
    expect(a.risk).toBe(risk);
    expect(a.attackerGains).toContain(says);
    for (const claim of never) expect(a.attackerGains).not.toContain(claim);
  });

  // gce-pd-csi-node-windows: csi-proxy's named pipes are endpoints of a host service that runs as SYSTEM
  test.each(['\\\\.\\pipe\\csi-proxy-volume-v1', '\\\\.\\pipe\\csi-proxy-disk-v1beta2', '//./pipe/csi-proxy-filesystem-v1'])('%s: csi-proxy, SYSTEM, critical even read-only; a fix that applies to a pipe', (pipe) => {
    for (const readOnly of [true, false]) {
      const a = HostRisk.forPath(pipe, readOnly);
      expect(a.risk).toBe(CRITICAL);
      expect(a.attackerGains).toContain('served as SYSTEM by csi-proxy');
      expect(a.attackerGains).not.toContain('directory');
      expect(a.saferAlternative).not.toMatch(/read-only|type \(Directory or File\)/);
    }
  });

  test('a named pipe the catalogue does not know is a host service\'s endpoint, not a directory', () => {
    const a = HostRisk.forPath('\\\\.\\pipe\\some-service', true);
    expect(a.risk).toBe(HIGH);
    expect(a.attackerGains).toContain('a named pipe of a host service this catalogue does not know');
    expect(a.attackerGains).not.toContain('directory');
  });

  // gce-pd-csi-node-windows, secrets-store-csi-driver-windows: the Windows kubelet's directories, as the Linux ones
  test.each([
    ['C:\\var\\lib\\kubelet\\pods\\', '/var/lib/kubelet/pods', CRITICAL],
    ['\\var\\lib\\kubelet\\pods', '/var/lib/kubelet/pods', CRITICAL],
    ['\\var\\lib\\kubelet\\plugins_registry', '/var/lib/kubelet/plugins_registry', HIGH],
    ['C:\\var\\lib\\kubelet\\plugins\\csi-secrets-store\\', '/var/lib/kubelet/plugins/csi-secrets-store', HIGH],
    ['c:/var/lib/kubelet', '/var/lib/kubelet', CRITICAL],
  ] as [string, string, RiskLevel][])('%s is judged as %s on Linux', (windows, linux, risk) => {
    const a = HostRisk.forPath(windows, false);
    const l = HostRisk.forPath(linux, false);
    expect(a.risk).toBe(risk);
    expect(l.risk).toBe(risk);
    expect(a.attackerGains).toBe(`on the Windows node, as ${linux} on Linux: ${l.attackerGains}`);
  });

  test('other Windows paths stay unknown', () => {
    expect(HostRisk.forPath('C:\\k\\secrets-store-csi-providers', false).attackerGains).toContain('this catalogue does not know');
    expect(HostRisk.forPath('C:\\var\\lib\\kubeletx', false).attackerGains).toContain('this catalogue does not know');
  });
});

describe('HostRisk.forCapability', () => {
  test.each([
    ['SYS_ADMIN', CRITICAL], ['SYS_MODULE', CRITICAL], ['SYS_RAWIO', CRITICAL], ['ALL', CRITICAL], ['SYS_BOOT', CRITICAL],
    ['NET_ADMIN', HIGH], ['SYS_PTRACE', HIGH], ['BPF', HIGH], ['DAC_READ_SEARCH', HIGH], ['SYS_TIME', HIGH], ['MAC_ADMIN', HIGH],
    ['PERFMON', MEDIUM], ['NET_RAW', MEDIUM], ['SYSLOG', MEDIUM], ['AUDIT_READ', MEDIUM],
    ['CHOWN', LOW], ['NET_BIND_SERVICE', LOW], ['KILL', LOW], ['AUDIT_WRITE', LOW],
    ['CAP_SYS_ADMIN', CRITICAL], ['net_admin', HIGH], ['cap_perfmon', MEDIUM],
    ['FOO_BAR', HIGH], ['SYS_ADMINISTRATOR', HIGH],
  ])('%s is %s', (cap, risk) => {
    expect(HostRisk.forCapability(cap).risk).toBe(risk);
  });

  test('the text names the capability; unknown ones say so', () => {
    expect(HostRisk.forCapability('cap_sys_module').attackerGains).toBe('SYS_MODULE: loads kernel modules: arbitrary code in the kernel');
    expect(HostRisk.forCapability('FOO').attackerGains).toBe('FOO: a capability this catalogue does not know: review it as if it were powerful');
    expect(HostRisk.forCapability('FOO').saferAlternative).toContain('check the spelling');
  });

  test('every baseline-allowed capability is known and low; every known one has text', () => {
    for (const c of ['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']) {
      expect(HostRisk.knownCapabilities()).toContain(c);
      expect(HostRisk.forCapability(c).risk).toBe(LOW);
    }
    for (const c of HostRisk.knownCapabilities()) {
      const a = HostRisk.forCapability(c);
      expect(a.attackerGains.startsWith(`${c}: `)).toBe(true);
      expect(a.saferAlternative.length).toBeGreaterThan(5);
    }
  });
});

describe('HostRisk.forCapability in a pod: what the capability reaches depends on the host namespaces it shares', () => {
  test.each([
    ['NET_RAW', [], MEDIUM, 'its own pod\'s network namespace (the pod does not use hostNetwork)'],
    ['NET_RAW', ['hostNetwork'], HIGH, 'on the node\'s interfaces (the pod uses hostNetwork)'],
    ['NET_ADMIN', [], HIGH, 'its own pod\'s network namespace (the pod does not use hostNetwork)'],
    ['NET_ADMIN', ['hostNetwork', 'hostPID'], HIGH, 'the node\'s interfaces, routes, iptables and nftables (the pod uses hostNetwork)'],
    ['SYS_PTRACE', ['hostNetwork'], MEDIUM, 'which are its own pod\'s (the pod does not use hostPID)'],
    ['SYS_PTRACE', ['hostPID'], HIGH, 'every process on the node (the pod uses hostPID)'],
    ['KILL', [], LOW, 'its own pod'],
    ['IPC_OWNER', ['hostIPC'], MEDIUM, 'host processes (the pod uses hostIPC)'],
    ['SYS_ADMIN', ['hostNetwork'], CRITICAL, 'mounts filesystems'],
  ])('%s with %j is %s', (cap, namespaces, risk, says) => {
    const a = HostRisk.forCapability(cap, namespaces as string[]);
    expect(a.risk).toBe(risk);
    expect(a.attackerGains).toContain(says);
  });

  test('without the pod\'s namespaces the text covers both cases; an unknown namespace is rejected', () => {
    expect(HostRisk.forCapability('NET_RAW').attackerGains).toContain('in its network namespace');
    expect(() => HostRisk.forCapability('NET_RAW', ['hostUsers'])).toThrow('host namespace must be one of hostNetwork, hostPID, hostIPC, got "hostUsers"');
  });

  test('an item carries the namespaces: HostRisk.assess rates the capability in its pod', () => {
    const [item] = HostAccess.of({ hostNetwork: true, containers: [{ name: 'a', securityContext: { runAsNonRoot: true, capabilities: { add: ['NET_RAW'] } } }] })
      .filter((i) => i.type === HostAccessType.CAPABILITY);
    expect(HostRisk.assess(item).risk).toBe(HIGH);
  });
});

describe('HostRisk.forHostPort through hostNetwork', () => {
  test('a container port of a hostNetwork pod is a port of the node, rated like a hostPort, and told so', () => {
    const a = HostRisk.forHostPort(8081, true);
    expect(a.risk).toBe(LOW);
    expect(a.attackerGains).toBe('listens on port 8081 of the node\'s addresses (a container port of a hostNetwork pod, no hostPort needed): ' +
      'reachable from outside the cluster unless a firewall blocks it');
    expect(a.saferAlternative).not.toContain('hostIP');
    expect(HostRisk.forHostPort(10250, true).risk).toBe(HIGH);
  });
});

describe('HostRisk.assess', () => {
  test('the source document\'s table 4.1: privileged is the most dangerous, host namespaces high, a writable hostPath of / critical', () => {
    expect(HostRisk.assess({ type: HostAccessType.PRIVILEGED, detail: 'agent', container: 'agent' }).risk).toBe(CRITICAL);
    expect(HostRisk.assess({ type: HostAccessType.HOST_NETWORK, detail: '' }).risk).toBe(HIGH);
    expect(HostRisk.assess({ type: HostAccessType.HOST_PID, detail: '' }).risk).toBe(HIGH);
    expect(HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/ (read-write)', path: '/', readOnly: false }).risk).toBe(CRITICAL);
  });

  test.each([
    [HostAccessType.HOST_IPC, '', MEDIUM],
    [HostAccessType.RUN_AS_ROOT, 'agent', MEDIUM],
    [HostAccessType.CAPABILITY, 'SYS_ADMIN', CRITICAL],
    [HostAccessType.CAPABILITY, 'PERFMON', MEDIUM],
    [HostAccessType.HOST_PORT, '9100/TCP', LOW],
    [HostAccessType.HOST_PORT, '10250/TCP', HIGH],
    [HostAccessType.HOST_PORT, '22/TCP', HIGH],
  ])('%s %s is %s', (type, detail, risk) => {
    const a = HostRisk.assess({ type, detail });
    expect(a.risk).toBe(risk);
    expect(a.attackerGains.length).toBeGreaterThan(10);
    expect(a.saferAlternative.length).toBeGreaterThan(10);
  });

  test('a HostAccessReason (mode in the detail, no readOnly field) is assessed like the item', () => {
    const reason = { type: HostAccessType.HOST_PATH, detail: '/var/log (read-only)', reason: 'collects logs' };
    expect(HostRisk.assess(reason)).toEqual(HostRisk.forPath('/var/log', true));
    expect(HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/var/log (read-write)' }).risk).toBe(HIGH);
    expect(HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/var/log' }).risk).toBe(HIGH); // no mode: read-write assumed
  });

  test('Bidirectional mount propagation raises a hostPath to at least high and says why', () => {
    const a = HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/var/log (read-only)', path: '/var/log', readOnly: true, mountPropagation: 'Bidirectional' });
    expect(a.risk).toBe(HIGH);
    expect(a.attackerGains).toContain('with Bidirectional mount propagation, mounts made in the container propagate to the host');
    const kubelet = HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/var/lib/kubelet (read-write)', mountPropagation: 'Bidirectional' });
    expect(kubelet.risk).toBe(CRITICAL);
    const h2c = HostRisk.assess({ type: HostAccessType.HOST_PATH, detail: '/var/log (read-only)', mountPropagation: 'HostToContainer' });
    expect(h2c.risk).toBe(MEDIUM);
  });

  test('an unknown type is rejected', () => {
    expect(() => HostRisk.assess({ type: 'hostUsers' as HostAccessType, detail: '' })).toThrow(
      'host access type "hostUsers" is not known: use one of hostPath, hostNetwork, hostPID, hostIPC, hostPort, privileged, hostProcess, capability, runAsRoot',
    );
  });

  test('every item HostAccess lists for the source document\'s agent gets an assessment', () => {
    const items = HostAccess.of({
      containers: [{
        name: 'agent',
        image: 'registry.example.com/node-agent:1.2.0',
        securityContext: { capabilities: { add: ['NET_ADMIN', 'SYS_PTRACE'] }, readOnlyRootFilesystem: true, runAsNonRoot: true },
        volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }],
      }],
      volumes: [{ name: 'varlog', hostPath: { path: '/var/log', type: 'Directory' } }],
    });
    expect(items.map((i) => [i.detail, HostRisk.assess(i).risk])).toEqual([
      ['/var/log (read-only)', MEDIUM],
      ['NET_ADMIN', HIGH],
      ['SYS_PTRACE', MEDIUM], // without hostPID it reaches only the pod's own processes
    ]);
  });
});

describe('host ports, propagation and levels', () => {
  test.each([[0], [65536], [1.5], [NaN]])('forHostPort(%p) is rejected', (port) => {
    expect(() => HostRisk.forHostPort(port)).toThrow('host port must be a number from 1 to 65535');
  });

  test('forHostPort names the node service it would capture', () => {
    expect(HostRisk.forHostPort(6443).attackerGains).toContain('the Kubernetes API server');
  });

  test.each([['Bidirectional', HIGH], ['HostToContainer', LOW], ['None', LOW]])('mount propagation %s is %s', (mode, risk) => {
    expect(HostRisk.forMountPropagation(mode).risk).toBe(risk);
  });

  test('an unknown mount propagation is rejected', () => {
    expect(() => HostRisk.forMountPropagation('bidirectional')).toThrow(
      'mount propagation must be one of Bidirectional, HostToContainer, None, got "bidirectional": fix the volumeMount',
    );
  });

  test('rank and highest', () => {
    expect([LOW, MEDIUM, HIGH, CRITICAL].map((l) => HostRisk.rank(l))).toEqual([1, 2, 3, 4]);
    expect(HostRisk.highest([MEDIUM, CRITICAL, LOW])).toBe(CRITICAL);
    expect(HostRisk.highest([LOW])).toBe(LOW);
    expect(HostRisk.highest([])).toBeUndefined();
    expect(() => HostRisk.rank('severe' as RiskLevel)).toThrow('risk level must be one of low, medium, high, critical, got "severe"');
  });
});

// ---------- properties ----------

const segmentArb = fc.constantFrom('var', 'lib', 'log', 'run', 'etc', 'kubernetes', 'kubelet', 'pods', 'containerd', 'docker.sock', 'proc', 'sys', 'fs',
  'cgroup', 'dev', 'opt', 'cni', 'bin', 'usr', 'home', 'x', 'agent', 'etcd', 'modules', 'net.d', 'crio', 'crio.sock', 'containerd.sock');
const posixPathArb = fc.array(segmentArb, { maxLength: 5 }).map((parts) => `/${parts.join('/')}`);

describe('properties', () => {
  test('read-write is never less risky than read-only', () => {
    fc.assert(fc.property(posixPathArb, (path) => {
      expect(HostRisk.rank(HostRisk.forPath(path, false).risk)).toBeGreaterThanOrEqual(HostRisk.rank(HostRisk.forPath(path, true).risk));
    }), { numRuns: 500 });
  });

  // a socket recognised only by its name may sit in any directory, and a cgroup2 mount in any program's directory under
  // /run (or /var/run, its alias): their parent cannot know it holds one
  const NAMED = ['docker.sock', 'crio.sock', 'containerd.sock'];

  test('mounting a directory is never less risky than mounting something inside it (unless only its name says what it is)', () => {
    fc.assert(fc.property(posixPathArb, fc.array(segmentArb, { minLength: 1, maxLength: 3 }), fc.boolean(), (dir, rest, readOnly) => {
      const inside = `${dir === '/' ? '' : dir}/${rest.join('/')}`;
      fc.pre(!rest.some((s) => NAMED.includes(s)) || HostRisk.forPath(inside, readOnly).matchedPath !== undefined);
      fc.pre(!((inside.startsWith('/run/') || inside.startsWith('/var/run/')) && rest.includes('cgroup')));
      expect(HostRisk.rank(HostRisk.forPath(dir, readOnly).risk)).toBeGreaterThanOrEqual(HostRisk.rank(HostRisk.forPath(inside, readOnly).risk));
    }), { numRuns: 500 });
  });

  test('the assessment does not depend on how the path is spelled', () => {
    fc.assert(fc.property(posixPathArb, fc.boolean(), (path, readOnly) => {
      const expected = HostRisk.forPath(path, readOnly);
      expect(HostRisk.forPath(`${path}/`, readOnly)).toEqual(expected);
      expect(HostRisk.forPath(path.replace(/\//g, '//'), readOnly)).toEqual(expected);
      expect(HostRisk.forPath(`${path}/x/..`, readOnly)).toEqual(expected);
    }), { numRuns: 300 });
  });

  test('a capability is assessed the same however it is spelled', () => {
    fc.assert(fc.property(fc.constantFrom(...HostRisk.knownCapabilities()), fc.boolean(), fc.boolean(), (cap, prefix, lower) => {
      let spelled = prefix ? `CAP_${cap}` : cap;
      if (lower) spelled = spelled.toLowerCase();
      expect(HostRisk.forCapability(spelled)).toEqual(HostRisk.forCapability(cap));
    }));
  });
});

describe('assessments are computed once per path and mount, and each caller owns what it is given', () => {
  test('the same path and mount give equal assessments, as separate objects: changing one changes no later one', () => {
    const first = HostRisk.forPath('/var/run/docker.sock', true);
    (first as any).risk = 'low';
    (first as any).attackerGains = 'changed';
    const second = HostRisk.forPath('/var/run/docker.sock', true);
    expect(second.risk).toBe(CRITICAL);
    expect(second.attackerGains).not.toBe('changed');
    expect(second).not.toBe(first);
  });

  test('the mode and the hostPath type are part of what is looked up', () => {
    expect(HostRisk.forPath('/var/lib/kubelet', true).risk).not.toBe(HostRisk.forPath('/var/lib/kubelet', false).risk);
    expect(HostRisk.forPath('/run/containerd', true, 'Socket')).toEqual(HostRisk.forPath('/run/containerd', true, 'Socket'));
  });
});
