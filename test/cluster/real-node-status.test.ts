// `cdk8s-node-agents status` live on the real node: five NodeAgents that fail in the ways the kubelet itself reports
// (a missing hostPath, an image that is not on the node with pull policy Never, a container that keeps exiting,
// runAsNonRoot with an image that runs as root, a readiness probe that fails), each explained by the command in the
// words kubelet v1.37.2 and containerd wrote them, read back from the pods' statuses and events.
import { Chart, Testing } from 'cdk8s';
import { applyAll } from './cluster';
import { KUBECONFIG, Kube, eventually } from './kube';
import { cleanUp, onRealNode, requireRealNode, tolerateRealNode } from './real-node';
import { AgentProbe, HostMount, NodeAgent, NodeAgentProps } from '../../src';
import { runCli } from '../cli/run-cli';
import { synthValid } from '../util/k8s-schema';

const kube = Kube.fromKubeconfig();
const node = requireRealNode();
/** each agent in a Namespace of its own: the library labels each for its agent's Pod Security level. */
const nsOf = (name: string) => `rns-${name}`;
const MISSING_DIR = '/var/lib/cdk8s-node-agents-test-does-not-exist';
const MISSING_IMAGE = 'localhost/cdk8s-node-agents/does-not-exist:1.0';

function agent(name: string, props: Omit<NodeAgentProps, 'namespace'>, patch: (ds: any) => void = () => undefined): any[] {
  const chart = new Chart(Testing.app(), name);
  tolerateRealNode(new NodeAgent(chart, name, { namespace: nsOf(name), ...props }));
  const objects = synthValid(chart);
  patch(objects.find((o) => o.kind === 'DaemonSet'));
  return onRealNode(objects);
}

const CASES = {
  'missing-mount': agent('missing-mount', {
    image: node.images.agent,
    runAsUser: 1000,
    hostMounts: [HostMount.readOnly(MISSING_DIR, { volumeName: 'state', reason: 'reads the agent\'s state' })],
  }),
  // the library renders IfNotPresent; Never is what a node without registry access, as this one, needs
  'never-pull': agent('never-pull', { image: MISSING_IMAGE, runAsUser: 1000 }, (ds) => { ds.spec.template.spec.containers[0].imagePullPolicy = 'Never'; }),
  'crash': agent('crash', { image: node.images.agent, runAsUser: 1000, args: ['echo "cannot start"; exit 3'] }),
  // runs 8 s, exits, and is restarted after a back-off: Ready while it runs, having no readiness probe
  'flapping': agent('flapping', { image: node.images.agent, runAsUser: 1000, args: ['sleep 8; exit 3'] }),
  // NodeAgent's default: runAsNonRoot without a runAsUser; this image's user is root
  'root-image': agent('root-image', { image: node.images.agent }),
  'not-ready': agent('not-ready', { image: node.images.agent, runAsUser: 1000, readiness: AgentProbe.httpGet('/healthz', { port: 8080 }) }),
};

const podOf = async (name: string) => (await kube.list(`/api/v1/namespaces/${nsOf(name)}/pods`, { labelSelector: `app.kubernetes.io/name=${name}` }))[0];
const eventsOf = async (pod: any) => (kube.list(`/api/v1/namespaces/${pod.metadata.namespace}/events`, { fieldSelector: `involvedObject.uid=${pod.metadata.uid}` }));
const waiting = (pod: any) => pod?.status?.containerStatuses?.[0]?.state?.waiting;

beforeAll(async () => {
  await cleanUp(kube);
  for (const objects of Object.values(CASES)) await applyAll(kube, objects);
});
afterAll(() => cleanUp(kube));

/** the real node's line of `status --json` for the DaemonSet. */
async function statusOnRealNode(name: string): Promise<any> {
  const r = await runCli('status', '--kubeconfig', KUBECONFIG, '-n', nsOf(name), '--json');
  expect(r.stderr).toBe('');
  const ds = JSON.parse(r.stdout).daemonSets.find((d: any) => d.name === name);
  return ds.nodes.find((n: any) => n.name === node.name);
}

test('missing hostPath of type Directory: FailedMount, as the kubelet words it', async () => {
  const pod = await eventually('the missing-mount pod', () => podOf('missing-mount'));
  const failed = await eventually('a FailedMount event', async () => (await eventsOf(pod)).find((e) => e.reason === 'FailedMount'), { timeoutMs: 60_000 });
  expect(failed.message).toBe(`MountVolume.SetUp failed for volume "state" : hostPath type check failed, ${MISSING_DIR} is not a directory, unable to determine its type: path "${MISSING_DIR}" does not exist`);
  expect(failed.source).toMatchObject({ component: 'kubelet', host: node.name });
  const line = await statusOnRealNode('missing-mount');
  console.log(`status on the real node, missing-mount: ${JSON.stringify(line)}`);
  expect(line).toMatchObject({ state: 'creating', reason: 'FailedMount' });
  expect(line.message).toContain(failed.message);
});

test('image not on the node with pull policy Never: ErrImageNeverPull', async () => {
  const pod = await eventually('ErrImageNeverPull', async () => {
    const p = await podOf('never-pull');
    return waiting(p)?.reason === 'ErrImageNeverPull' ? p : undefined;
  }, { timeoutMs: 60_000 });
  expect(waiting(pod).message).toBe(`Container image "${MISSING_IMAGE}" is not present with pull policy of Never`);
  const line = await statusOnRealNode('never-pull');
  console.log(`status on the real node, never-pull: ${JSON.stringify(line)}`);
  expect(line).toMatchObject({ state: 'image-pull', reason: 'ErrImageNeverPull' });
  expect(line.message).toContain(waiting(pod).message);
  // nothing is pulled with policy Never: the advice is the node's image or the policy, not the registry's credentials
  expect(line.message).toContain('load the image into the node\'s container runtime, or set imagePullPolicy to IfNotPresent');
  expect(line.message).not.toContain('imagePullSecrets');
});

test('a container that keeps exiting: the kubelet backs off restarting it (CrashLoopBackOff), status says crash-loop', async () => {
  const pod = await eventually('a BackOff event', async () => {
    const p = await podOf('crash');
    return p && (await eventsOf(p)).some((e) => e.reason === 'BackOff') ? p : undefined;
  }, { timeoutMs: 90_000 });
  const backOff = (await eventsOf(pod)).find((e) => e.reason === 'BackOff');
  expect(backOff.message).toBe(`Back-off restarting failed container agent in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`);
  expect((await podOf('crash')).status.containerStatuses[0].lastState.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
  // between two back-offs the container runs for a moment, and without a readiness probe the kubelet reports the pod
  // Ready then. status is read between two reads of the pod that show the container not running, at the same
  // restart count: waiting in CrashLoopBackOff, or (kubelet v1.37.2, at later restarts) still terminated with the
  // exit of its last run during the back-off.
  let seen: any;
  const { line, before } = await eventually('status during a back-off', async () => {
    const first = (await podOf('crash')).status.containerStatuses[0];
    const shown = await statusOnRealNode('crash');
    const then = (await podOf('crash')).status.containerStatuses[0];
    seen = { first, shown, then };
    const down = (c: any) => c.state.waiting?.reason === 'CrashLoopBackOff' || c.state.terminated !== undefined;
    return down(first) && down(then) && first.restartCount === then.restartCount && JSON.stringify(first.state) === JSON.stringify(then.state)
      ? { line: shown, before: first } : undefined;
  }, { timeoutMs: 90_000, intervalMs: 500, last: () => seen });
  console.log(`status on the real node, crash: ${JSON.stringify(line)}`);
  expect(line).toMatchObject({ state: 'crash-loop', reason: before.state.waiting ? 'CrashLoopBackOff' : 'Error' });
  expect(line.message).toContain(`restarted ${before.restartCount} times; last exit code 3 (Error)`);
  if (before.state.waiting) expect(line.message).toContain(before.state.waiting.message);
});

test('a container Ready while it runs between two crashes (no readiness probe): status says crash-loop, not healthy', async () => {
  let seen: any;
  const { line, before } = await eventually('status while the restarted container runs, Ready', async () => {
    const first = await podOf('flapping');
    const shown = await statusOnRealNode('flapping');
    const then = await podOf('flapping');
    seen = { first: first?.status, shown, then: then?.status };
    const up = (p: any) => p?.status?.containerStatuses?.[0]?.state?.running !== undefined && p.status.containerStatuses[0].ready === true &&
      p.status.containerStatuses[0].restartCount > 0 && p.status.conditions.some((c: any) => c.type === 'Ready' && c.status === 'True');
    return up(first) && up(then) && first.status.containerStatuses[0].restartCount === then.status.containerStatuses[0].restartCount
      ? { line: shown, before: first.status.containerStatuses[0] } : undefined;
  }, { timeoutMs: 90_000, intervalMs: 500, last: () => seen });
  console.log(`status on the real node, flapping: ${JSON.stringify(line)}`);
  // the kubelet's record of the last run, read by status: exit 3 (Error), within its back-off memory
  expect(before.lastState.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
  expect(line).toMatchObject({ state: 'crash-loop', reason: 'Error' });
  expect(line.message).toMatch(new RegExp(`^pod \\S+ is Ready, but container agent restarted ${before.restartCount} times; ` +
    'last exit code 3 \\(Error\\), \\d+ s ago: it has no readiness probe, so it counts as Ready whenever it runs;'));
});

test('runAsNonRoot (NodeAgent\'s default) with an image that runs as root: CreateContainerConfigError', async () => {
  const pod = await eventually('CreateContainerConfigError', async () => {
    const p = await podOf('root-image');
    return waiting(p)?.reason === 'CreateContainerConfigError' ? p : undefined;
  }, { timeoutMs: 60_000 });
  expect(waiting(pod).message).toBe('container has runAsNonRoot and image will run as root (pod: ' +
    `"${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})", container: agent)`);
  const line = await statusOnRealNode('root-image');
  console.log(`status on the real node, root-image: ${JSON.stringify(line)}`);
  expect(line).toMatchObject({ state: 'creating', reason: 'CreateContainerConfigError' });
  expect(line.message).toContain(waiting(pod).message);
});

test('a readiness probe that fails: running, not ready, with the probe\'s error', async () => {
  const pod = await eventually('an Unhealthy event', async () => {
    const p = await podOf('not-ready');
    const unhealthy = p ? (await eventsOf(p)).find((e) => e.reason === 'Unhealthy') : undefined;
    return unhealthy ? p : undefined;
  }, { timeoutMs: 60_000 });
  const unhealthy = (await eventsOf(pod)).find((e) => e.reason === 'Unhealthy');
  const ip = pod.status.podIP;
  expect(unhealthy.message).toBe(`Readiness probe failed: Get "http://${ip}:8080/healthz": dial tcp ${ip}:8080: connect: connection refused`);
  const line = await statusOnRealNode('not-ready');
  console.log(`status on the real node, not-ready: ${JSON.stringify(line)}`);
  expect(line).toMatchObject({ state: 'not-ready' });
  expect(line.message).toContain(unhealthy.message);
});
