// Bad input: for each invalid combination the library refuses at synth, the same object forced through (the valid
// variant's synthesized DaemonSet, changed in the one field) is refused by the API server too, with its own validation
// error on that field; and the valid variant is accepted by both. The library's rules are the server's: not looser,
// and not stricter by accident.
import { App, Chart, JsonPatch, Testing } from 'cdk8s';
import { MountPropagation } from 'cdk8s-plus-28';
import { parseAllDocuments } from 'yaml';
import { applyAll, resetCluster } from './cluster';
import { Kube } from './kube';
import { HostMount, NodeAgent, NodeAgentProps, SecurityReview } from '../../src';

const kube = Kube.fromKubeconfig();
const image = 'registry.example.com/node-agent:1.2.0';
const NAMESPACE = 'bad-input';

beforeAll(async () => {
  await resetCluster(kube);
  await applyAll(kube, [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }]);
});
afterAll(() => resetCluster(kube));

function build(props: Partial<NodeAgentProps>, patch?: (agent: NodeAgent) => void): { app: App; agent: NodeAgent } {
  const app = Testing.app();
  const agent = new NodeAgent(new Chart(app, 'bad-input'), 'agent', { namespace: NAMESPACE, createNamespace: false, image, ...props });
  patch?.(agent);
  return { app, agent };
}

/**
 * Synthesizes one agent as an app does (`app.synthYaml()`, which checks every agent). The security review's findings
 * of the valid variant are acknowledged: the review gate is not under test, and must not be what fails the synth.
 */
function synth(props: Partial<NodeAgentProps>, patch?: (agent: NodeAgent) => void, acknowledgeLike: Partial<NodeAgentProps> = props): any[] {
  const rules = new Set(build(acknowledgeLike).agent.review().workloads.flatMap((w) => w.findings).map((f) => f.rule));
  const { app, agent } = build(props, patch);
  for (const rule of [...rules].sort()) agent.acknowledge(rule, 'the review is not under test here');
  return parseAllDocuments(app.synthYaml()).map((d) => d.toJSON());
}

function daemonSetOf(objects: any[]): any {
  return objects.find((o) => o.kind === 'DaemonSet');
}

/** the API server's answer to the DaemonSet, as a dry-run server-side apply with strict field validation. */
async function serverSays(ds: any): Promise<{ status: number; causes: { field: string; message: string }[] }> {
  const r = await kube.apply(ds, { dryRun: true });
  return {
    status: r.status,
    causes: (r.body?.details?.causes ?? []).map((c: any) => ({ field: c.field, message: c.message })),
  };
}

interface Case {
  readonly name: string;
  /** props the library accepts, nearest to the invalid ones. */
  readonly valid: Partial<NodeAgentProps>;
  /** the invalid request, through props or an escape hatch. */
  readonly invalid: { props: Partial<NodeAgentProps>; patch?: (agent: NodeAgent) => void };
  /** what the library says at synth. */
  readonly libraryError: RegExp;
  /** the valid variant's DaemonSet, changed into the invalid one as a user forcing it through would. */
  readonly force: (ds: any) => void;
  /** the API server's validation error. */
  readonly server: { field: string; message: string };
}

const metrics = (hostPort: number) => ({ name: 'metrics', containerPort: 9100, hostPort: { port: hostPort, reason: 'scraped on the node address' } });
const privileged = { reason: 'publishes CSI volume mounts to the node' };

const CASES: Case[] = [
  {
    name: 'privileged with allowPrivilegeEscalation false',
    valid: { privileged },
    invalid: {
      props: { privileged },
      patch: (agent) => agent.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/containers/0/securityContext/allowPrivilegeEscalation', false)),
    },
    libraryError: /NA-API-REJECTED: .*container "agent": sets privileged: true beside allowPrivilegeEscalation: false/,
    force: (ds) => { ds.spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation = false; },
    server: { field: 'spec.template.spec.containers[0].securityContext', message: 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true' },
  },
  {
    name: 'hostNetwork with hostPort different from containerPort',
    valid: { hostNetwork: { reason: 'watches node interfaces' }, ports: [metrics(9100)] },
    invalid: { props: { hostNetwork: { reason: 'watches node interfaces' }, ports: [metrics(9101)] } },
    libraryError: /on the host network hostPort \(9101\) must equal containerPort \(9100\)/,
    force: (ds) => { ds.spec.template.spec.containers[0].ports[0].hostPort = 9101; },
    server: { field: 'spec.template.spec.containers[0].ports[0].hostPort', message: 'must match `containerPort` when `hostNetwork` is true' },
  },
  {
    name: 'two containers with the same hostPort',
    valid: { ports: [metrics(9100)], sidecars: [{ name: 'exporter', image, ports: [{ name: 'exporter', containerPort: 9200, hostPort: { port: 9200, reason: 'scraped on the node address' } }] }] },
    invalid: { props: { ports: [metrics(9100)], sidecars: [{ name: 'exporter', image, ports: [{ name: 'exporter', containerPort: 9200, hostPort: { port: 9100, reason: 'scraped on the node address' } }] }] } },
    libraryError: /NA-API-REJECTED: .*container "exporter": host port 9100\/TCP is also bound by container "agent"/,
    force: (ds) => { ds.spec.template.spec.containers[1].ports[0].hostPort = 9100; },
    server: { field: 'spec.template.spec.containers[1].ports[0].hostPort', message: 'Duplicate value: "TCP//9100"' },
  },
  {
    name: 'Bidirectional mount propagation without privileged',
    valid: { privileged, hostMounts: [HostMount.readWrite('/var/lib/kubelet', 'mounts volumes for pods', { propagation: MountPropagation.BIDIRECTIONAL })] },
    invalid: { props: { hostMounts: [HostMount.readWrite('/var/lib/kubelet', 'mounts volumes for pods', { propagation: MountPropagation.BIDIRECTIONAL })] } },
    libraryError: /mounts \/var\/lib\/kubelet with Bidirectional propagation, which Kubernetes allows only in privileged containers/,
    force: (ds) => {
      const sc = ds.spec.template.spec.containers[0].securityContext;
      delete sc.privileged;
      sc.allowPrivilegeEscalation = false;
    },
    server: { field: 'spec.template.spec.containers[0].volumeMounts.mountPropagation', message: 'Forbidden: Bidirectional mount propagation is available only to privileged containers' },
  },
  {
    name: 'a pod template without the label the selector requires',
    valid: {},
    invalid: { props: {}, patch: (agent) => agent.daemonSet.addJsonPatch(JsonPatch.remove('/spec/template/metadata/labels/app.kubernetes.io~1name')) },
    libraryError: /NA-API-REJECTED: .*spec\.selector does not match the pod template's labels: the template fails app\.kubernetes\.io\/name=agent/,
    force: (ds) => { delete ds.spec.template.metadata.labels['app.kubernetes.io/name']; },
    server: { field: 'spec.template.metadata.labels', message: '`selector` does not match template `labels`' },
  },
  {
    name: 'a pod template without containers (a JSON patch removing them)',
    valid: {},
    invalid: { props: {}, patch: (agent) => agent.daemonSet.addJsonPatch(JsonPatch.remove('/spec/template/spec/containers')) },
    libraryError: /NA-API-REJECTED: .*has no containers, and a pod needs at least one/,
    force: (ds) => { delete ds.spec.template.spec.containers; },
    server: { field: 'spec.template.spec.containers', message: 'Required value' },
  },
  {
    name: 'a container without an image (a JSON patch removing it)',
    valid: {},
    invalid: { props: {}, patch: (agent) => agent.daemonSet.addJsonPatch(JsonPatch.remove('/spec/template/spec/containers/0/image')) },
    libraryError: /NA-API-REJECTED: .*container "agent": has no image, which the API server requires/,
    force: (ds) => { delete ds.spec.template.spec.containers[0].image; },
    server: { field: 'spec.template.spec.containers[0].image', message: 'Required value' },
  },
];

describe.each(CASES.map((c) => [c.name, c]))('%s', (_name, c) => {
  test('the library refuses it at synth', () => {
    expect(() => synth(c.invalid.props, c.invalid.patch, c.valid)).toThrow(c.libraryError);
  });

  test('the API server accepts the valid variant and refuses the forced one, on the same field', async () => {
    const ds = daemonSetOf(synth(c.valid));
    expect(await serverSays(ds)).toEqual({ status: 201, causes: [] });
    const forced = JSON.parse(JSON.stringify(ds));
    c.force(forced);
    const answer = await serverSays(forced);
    expect(answer.status).toBe(422);
    // the server's message starts with the rejected value (`Invalid value: {...}: `), and ends with the rule
    expect(answer.causes.filter((x) => x.field === c.server.field && x.message.endsWith(c.server.message))).toHaveLength(1);
  });
});

/** what the API server accepts, the library must accept too (its rules are not stricter by accident). */
const ACCEPTED: [string, Partial<NodeAgentProps>][] = [
  // init containers run one by one: the server checks host port clashes within each, not against the others
  ['an init container binding the same hostPort as the main container', {
    ports: [metrics(9100)],
    initContainers: [{ name: 'probe-port', image, ports: [{ name: 'init-metrics', containerPort: 9100, hostPort: { port: 9100, reason: 'checks the node port is free' } }] }],
  }],
  // the server requires hostPort == containerPort on the host network for the pod's containers only
  ['hostNetwork with an init container whose hostPort differs from its containerPort', {
    hostNetwork: { reason: 'watches node interfaces' },
    initContainers: [{ name: 'probe-port', image, ports: [{ name: 'init-metrics', containerPort: 9100, hostPort: { port: 9101, reason: 'checks the node port is free' } }] }],
  }],
];

test.each(ACCEPTED)('the server and the library both accept %s', async (_name, props) => {
  const ds = daemonSetOf(synth(props));
  expect(await serverSays(ds)).toEqual({ status: 201, causes: [] });
});

/**
 * The selector rules on plain manifests, as `review` reads a chart: for each apps/v1 controller the review reports
 * NA-API-REJECTED exactly when the API server refuses the object, and on a field the server names.
 */
describe('the selector of apps/v1 controllers: the review and the API server agree', () => {
  const controller = (kind: string, selector: any, labels: any = { app: 'agent' }) => ({
    apiVersion: 'apps/v1',
    kind,
    metadata: { name: `selector-${kind.toLowerCase()}`, namespace: NAMESPACE },
    spec: {
      ...(selector === undefined ? {} : { selector }),
      ...(kind === 'StatefulSet' ? { serviceName: 'agent' } : {}),
      template: { metadata: { labels }, spec: { containers: [{ name: 'agent', image }] } },
    },
  });
  const SELECTORS: [string, any, any][] = [
    ['a matching selector', { matchLabels: { app: 'agent' } }, { app: 'agent', tier: 'node' }],
    ['a matching expression', { matchExpressions: [{ key: 'app', operator: 'In', values: ['agent', 'collector'] }] }, { app: 'agent' }],
    ['no selector', undefined, { app: 'agent' }],
    ['an empty selector', {}, { app: 'agent' }],
    ['a selector the template does not match', { matchLabels: { app: 'agent' } }, { 'app.kubernetes.io/name': 'agent' }],
    ['an expression the template does not match', { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['agent'] }] }, { app: 'agent' }],
    ['an unknown operator', { matchExpressions: [{ key: 'app', operator: 'in', values: ['agent'] }] }, { app: 'agent' }],
    ['Exists with values', { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['agent'] }] }, { app: 'agent' }],
    ['an invalid label key', { matchLabels: { 'app=agent': 'x' } }, { app: 'agent' }],
  ];
  const cases = ['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet'].flatMap((kind) => SELECTORS.map(([name, selector, labels]) => [kind, name, selector, labels]));

  test.each(cases)('%s with %s', async (kind, _name, selector, labels) => {
    const manifest = controller(kind, selector, labels);
    const review = SecurityReview.review([manifest]);
    const rejected = review.workloads[0].findings.filter((f) => f.rule === 'NA-API-REJECTED').map((f) => f.field);
    const answer = await serverSays(manifest);
    if (rejected.length === 0) {
      expect(answer).toEqual({ status: 201, causes: [] });
    } else {
      expect(answer.status).toBe(422);
      expect(rejected).toHaveLength(1);
      // the server names the selector itself or a field inside it (matchLabels, matchExpressions[i].operator...); for a
      // DaemonSet without a selector it names the template's labels (a missing selector matches none), the review names
      // the selector, where the fix goes
      const serverField = kind === 'DaemonSet' && selector === undefined ? 'spec.template.metadata.labels' : rejected[0];
      expect(answer.causes.filter((c) => c.field === serverField || c.field.startsWith(`${serverField}.`))).not.toEqual([]);
    }
  });
});
