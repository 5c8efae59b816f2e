// CsiNodePlugin on the real node of cluster:up (kubelet v1.37.2, containerd, runc), with its defaults but for the
// images and the driver's name: the kubelet registers the driver through the registrar (the CSINode lists it), and a
// pod with a CSI ephemeral inline volume of that driver starts with the volume mounted.
//
// The images are NOT the upstream ones the preset pins (the Go module proxy refuses the hostpath driver,
// node-driver-registrar and livenessprobe): they are this project's own test programs (cluster/csi, built by
// cluster/images.js), set through the preset's image props. They take the upstream programs' flags, so the preset's
// args, ports and probes run unchanged. The driver mounts a new tmpfs per volume at the kubelet's target path, inside
// its own container, and writes a file naming the volume and the pod into it: the pod reading that file proves the
// Bidirectional propagation (driver container -> host -> the pod's container).
import * as fs from 'fs';
import { Chart, Testing } from 'cdk8s';
import { applyAll } from './cluster';
import { Kube, eventually } from './kube';
import { capabilityNames, cleanUp, containerLog, hostProcesses, onRealNode, podOnRealNode, requireRealNode, waitForLog } from './real-node';
import { CsiNodePlugin, CsiVolumeLifecycleMode } from '../../src';
import { synthValid } from '../util/k8s-schema';

const kube = Kube.fromKubeconfig();
const node = requireRealNode();
const DRIVER = 'csi.cdk8s-node-agents.test';
const NAMESPACE = 'real-csi';
const APP_NAMESPACE = 'real-csi-app';
const SOCKET = `${node.kubeletRoot}/plugins/${DRIVER}/csi.sock`;
const REGISTRATION_SOCKET = `${node.kubeletRoot}/plugins_registry/${DRIVER}-reg.sock`;
const CSI_DRIVER_PATH = `/apis/storage.k8s.io/v1/csidrivers/${DRIVER}`;

/**
 * The CSIDriver object a driver with inline volumes needs, as CsiNodePlugin renders it with `csiDriver` (by default it
 * renders none, which the first test shows the kubelet's refusal of): the kubelet publishes an inline volume only for a
 * driver whose CSIDriver lists Ephemeral. podInfoOnMount has the kubelet tell the driver the volume is ephemeral and whose it is.
 */
function csiDriverObject(): any {
  const chart = new Chart(Testing.app(), 'real-csi-driver');
  new CsiNodePlugin(chart, 'csi', {
    namespace: NAMESPACE,
    driverName: DRIVER,
    csiDriver: { volumeLifecycleModes: [CsiVolumeLifecycleMode.EPHEMERAL], attachRequired: false, podInfoOnMount: true },
  });
  const driver = synthValid(chart).find((m) => m.kind === 'CSIDriver');
  expect(driver.metadata.name).toBe(DRIVER);
  return driver;
}

function plugin(): any[] {
  const chart = new Chart(Testing.app(), 'real-csi');
  new CsiNodePlugin(chart, 'csi', {
    namespace: NAMESPACE,
    driverName: DRIVER,
    image: node.images['csi-driver'],
    registrarImage: node.images['csi-registrar'],
    livenessProbeImage: node.images['csi-livenessprobe'],
  });
  return synthValid(chart);
}

/** a pod on the real node with an inline volume of the driver (read-only), printing the file the driver wrote. */
function app(name: string): any {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: APP_NAMESPACE },
    spec: {
      nodeName: node.name,
      tolerations: [{ key: node.taint.key, operator: 'Exists', effect: node.taint.effect }],
      terminationGracePeriodSeconds: 1,
      containers: [{
        name: 'app',
        image: node.images.agent,
        imagePullPolicy: 'Never',
        args: ['cat /data/volume; echo "== write"; touch /data/x 2>&1; echo "exit=$?"; echo "== done"; exec sleep 3600'],
        volumeMounts: [{ name: 'scratch', mountPath: '/data' }],
      }],
      volumes: [{ name: 'scratch', csi: { driver: DRIVER, readOnly: true, volumeAttributes: { purpose: 'test' } } }],
    },
  };
}

const podPath = (name: string) => `/api/v1/namespaces/${APP_NAMESPACE}/pods/${name}`;
const eventsOf = async (pod: any) => kube.list(`/api/v1/namespaces/${pod.metadata.namespace}/events`, { fieldSelector: `involvedObject.uid=${pod.metadata.uid}` });
/** where the kubelet has a pod's CSI volume mounted (pkg/volume/csi: <root>/pods/<uid>/volumes/kubernetes.io~csi/<volume>/mount). */
const targetPath = (pod: any, volume: string) => `${node.kubeletRoot}/pods/${pod.metadata.uid}/volumes/kubernetes.io~csi/${volume}/mount`;

/** the host's mounts at `mountPoint` (its /proc/self/mountinfo: the test runs in the host's mount namespace), as `fstype source`. */
function hostMountsAt(mountPoint: string): string[] {
  return fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((l) => l.split(' ')).filter((f) => f[4] === mountPoint)
    .map((f) => { const sep = f.indexOf('-'); return `${f[sep + 1]} ${f[sep + 2]}`; });
}

/** deletes the app pod (grace 1 s, so the kubelet unpublishes its volume) and waits until it is gone. */
async function deleteApp(name: string): Promise<void> {
  await kube.delete(podPath(name), { gracePeriodSeconds: 1 });
  await eventually(`pod ${name} to be gone`, async () => ((await kube.request('GET', podPath(name))).status === 404 ? true : undefined), { timeoutMs: 60_000 });
}

let ds: any;
let pluginPod: any;

beforeAll(async () => {
  await cleanUp(kube);
  await kube.delete(CSI_DRIVER_PATH);
  const objects = plugin();
  ds = objects.find((o) => o.kind === 'DaemonSet');
  await applyAll(kube, [...onRealNode(objects), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: APP_NAMESPACE } }]);
});
afterAll(async () => {
  await kube.delete(CSI_DRIVER_PATH);
  await cleanUp(kube);
});

describe('CsiNodePlugin on the real node (the driver, registrar and livenessprobe are cluster/csi\'s test programs)', () => {
  test('the pod is Ready with the preset\'s probes; the driver\'s socket is where the kubelet looks; the kubelet registers the driver (CSINode)', async () => {
    const containers = ds.spec.template.spec.containers;
    expect(containers.map((c: any) => c.name)).toEqual(['agent', 'node-driver-registrar', 'liveness-probe']);
    expect(containers.map((c: any) => c.image)).toEqual([node.images['csi-driver'], node.images['csi-registrar'], node.images['csi-livenessprobe']]);
    // the preset's own args, unchanged: the test programs take them as the upstream programs do
    expect(containers[1].args).toEqual(['--v=2', '--csi-address=/csi/csi.sock', `--kubelet-registration-path=${SOCKET}`, '--http-endpoint=:9809']);

    pluginPod = await podOnRealNode(kube, ds, undefined, 120_000);
    // every container Ready through the preset's probes: the driver's /healthz (its Probe, through the livenessprobe
    // on 9898), the registrar's /healthz on 9809 (which answers 200 only once the kubelet reported the registration)
    expect(pluginPod.status.containerStatuses.map((c: any) => [c.name, c.ready, c.restartCount]).sort()).toEqual([
      ['agent', true, 0], ['liveness-probe', true, 0], ['node-driver-registrar', true, 0],
    ]);
    // the socket the driver created in its plugin directory (mounted at /csi) is where the registrar told the
    // kubelet to find it, and where the kubelet's plugin watcher found the registration socket
    expect(fs.statSync(SOCKET).isSocket()).toBe(true);
    expect(fs.statSync(REGISTRATION_SOCKET).isSocket()).toBe(true);
    expect(containerLog(pluginPod, 'node-driver-registrar')).toContain(`the kubelet registered driver ${DRIVER}`);

    // the kubelet, having called the driver's NodeGetInfo, lists it in the node's CSINode and annotates the Node
    const csiNode = await eventually('the CSINode to list the driver', async () => {
      const r = await kube.request('GET', `/apis/storage.k8s.io/v1/csinodes/${node.name}`);
      return (r.body?.spec?.drivers ?? []).some((d: any) => d.name === DRIVER) ? r.body : undefined;
    });
    expect(csiNode.spec.drivers.find((d: any) => d.name === DRIVER)).toMatchObject({ name: DRIVER, nodeID: node.name });
    const annotations = (await kube.get(`/api/v1/nodes/${node.name}`)).metadata.annotations;
    expect(JSON.parse(annotations['csi.volume.kubernetes.io/nodeid'])).toMatchObject({ [DRIVER]: node.name });

    // privileged, as the preset renders it: every capability, whatever capabilities.drop says
    // (the tmpfs mounts below need CAP_SYS_ADMIN, which drop: [ALL] would have removed from an unprivileged container)
    const [driverProcess] = hostProcesses('/bin/driver');
    expect(containers[0].securityContext).toMatchObject({ privileged: true, capabilities: { drop: ['ALL'] } });
    expect(capabilityNames(driverProcess.status.CapEff[0])).toContain('SYS_ADMIN');
    // and no seccomp filter, though RuntimeDefault applies to it on paper: the runtime confines no privileged
    // container (why the review's NA-SECCOMP does not ask a privileged container for a profile)
    expect(containers[0].securityContext.seccompProfile?.type ?? ds.spec.template.spec.securityContext?.seccompProfile?.type).toBe('RuntimeDefault');
    expect(driverProcess.status.Seccomp).toEqual(['0']); // SECCOMP_MODE_DISABLED
  });

  test('without a CSIDriver object listing Ephemeral, the kubelet refuses the inline volume (FailedMount)', async () => {
    expect((await kube.request('GET', CSI_DRIVER_PATH)).status).toBe(404);
    await applyAll(kube, [app('no-csidriver')]);
    const pod = await kube.get(podPath('no-csidriver'));
    const failed = await eventually('a FailedMount event', async () => (await eventsOf(pod)).find((e) => e.reason === 'FailedMount'), { timeoutMs: 60_000 });
    console.log(`the kubelet without a CSIDriver: ${failed.message}`);
    expect(failed.message).toBe('MountVolume.SetUp failed for volume "scratch" : kubernetes.io/csi: mounter.SetupAt failed to check volume lifecycle mode: ' +
      `volume mode "Ephemeral" not supported by driver ${DRIVER} (no CSIDriver object)`);
    expect((await kube.get(podPath('no-csidriver'))).status.phase).toBe('Pending');
    await deleteApp('no-csidriver');
  });

  test('with the CSIDriver, a pod\'s inline volume is published, propagated from the driver\'s container to the pod, and unpublished when the pod goes', async () => {
    await applyAll(kube, [csiDriverObject()]);
    // the kubelet's CSIDriver informer must have it before the pod's volume is set up
    await eventually('the CSIDriver', async () => ((await kube.request('GET', CSI_DRIVER_PATH)).status === 200 ? true : undefined));
    await applyAll(kube, [app('reader')]);
    const pod = await eventually('the reader pod Running', async () => {
      const p = await kube.get(podPath('reader'));
      return p.status.phase === 'Running' ? p : undefined;
    }, { timeoutMs: 90_000 });
    const log = await waitForLog(pod, 'app', /== done/);
    const lines = log.split('\n');
    // the file the driver wrote in the tmpfs it mounted, read in the pod's container: the volume ID the kubelet
    // generates for an inline volume (csi-<hash>), and the pod the kubelet named in the volume context
    expect(lines[0]).toMatch(new RegExp(`^volume csi-[0-9a-f]{64} of driver ${DRIVER.replace(/\./g, '\\.')} on node ${node.name} for pod ${APP_NAMESPACE}/reader$`));
    // readOnly in the pod's CSI volume: the kubelet asked for it, the driver remounted its tmpfs read-only
    expect(lines.slice(lines.indexOf('== write') + 1, lines.indexOf('== done'))).toEqual(['touch: /data/x: Read-only file system', 'exit=1']);

    // on the host (not only in the driver's mount namespace): the tmpfs at the kubelet's target path
    const target = targetPath(pod, 'scratch');
    expect(hostMountsAt(target)).toEqual(['tmpfs tmpfs']);
    expect(fs.readFileSync(`${target}/volume`, 'utf8')).toBe(`${lines[0]}\n`);
    expect(containerLog(pluginPod, 'agent')).toContain('/csi.v1.Node/NodePublishVolume: ok');

    await deleteApp('reader');
    // the kubelet called NodeUnpublishVolume: the mount is gone from the host, and the target directory with it
    await eventually('the volume unmounted on the host', async () => (hostMountsAt(target).length === 0 ? true : undefined));
    expect(fs.existsSync(target)).toBe(false);
    expect(containerLog(pluginPod, 'agent')).toContain('/csi.v1.Node/NodeUnpublishVolume: ok');
  });

  test('the DaemonSet deleted: the registrar\'s socket goes and the kubelet deregisters the driver from the CSINode', async () => {
    await kube.delete(`/apis/apps/v1/namespaces/${NAMESPACE}/daemonsets/${ds.metadata.name}`);
    await eventually('the CSINode without the driver', async () => {
      const r = await kube.request('GET', `/apis/storage.k8s.io/v1/csinodes/${node.name}`);
      return (r.body?.spec?.drivers ?? []).some((d: any) => d.name === DRIVER) ? undefined : true;
    }, { timeoutMs: 60_000 });
    expect(fs.existsSync(REGISTRATION_SOCKET)).toBe(false);
  });
});
