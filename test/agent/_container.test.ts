// An added capability takes effect only for root (Linux gives a non-root process a capability only through ambient
// capabilities, which Kubernetes does not set, or the file capabilities of the program it executes, which the library
// cannot see): NodeAgent renders capabilities on root containers only and refuses them, with the fix, on every other.
import { Chart, Testing } from 'cdk8s';
import { Capability } from 'cdk8s-plus-28';
import { Acknowledgements, AgentContainerProps, ContainerOptions, HostAccessReasons, NodeAgent } from '../../src';
import { errorOf } from '../util/errors';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';
const ROOT = { runAsRoot: { reason: 'the added capabilities take effect only for root' } };
const EVERY_CAPABILITY = Object.values(Capability).filter((c) => c !== Capability.ALL);

type Role = 'main' | 'init' | 'sidecar';

/** an agent whose container of `role` has `options`; the other containers (if any) have none. */
function agentWith(role: Role, options: Partial<ContainerOptions>): { chart: Chart } {
  const chart = new Chart(Testing.app(), 'test');
  const extra: AgentContainerProps = { name: 'extra', image, ...options };
  const agent = new NodeAgent(chart, 'agent', {
    image,
    ...(role === 'main' ? options : {}),
    initContainers: role === 'init' ? [extra] : undefined,
    sidecars: role === 'sidecar' ? [extra] : undefined,
  });
  // privileged and critical capabilities (SYS_ADMIN, SYS_MODULE, ...) fail the review gate unless accepted; the gate
  // is tested elsewhere
  const accepted = [...options.privileged ? ['NA-PRIVILEGED', 'PSS-BASELINE-privileged'] : [], ...options.capabilities ? ['NA-CAPABILITIES'] : []];
  for (const rule of accepted) agent.acknowledge(rule, 'accepted in a test of the rendering');
  return { chart };
}

function containerOf(manifests: any[], role: Role): any {
  const spec = manifests.find((m) => m.kind === 'DaemonSet').spec.template.spec;
  return role === 'init' ? spec.initContainers[0] : role === 'sidecar' ? spec.containers[1] : spec.containers[0];
}

const field = (role: Role, sub: string) => (role === 'main' ? sub : `${role === 'init' ? 'initContainers' : 'sidecars'}[extra].${sub}`);

describe.each<Role>(['main', 'init', 'sidecar'])('the %s container', (role) => {
  const name = role === 'main' ? 'agent' : 'extra';

  test.each(EVERY_CAPABILITY)('%s as root: added, every other capability dropped, no escalation, both reasons recorded', (capability) => {
    const { chart } = agentWith(role, { ...ROOT, capabilities: [{ capability, reason: `needs ${capability}` }] });
    const manifests = synthValid(chart);
    const sc = containerOf(manifests, role).securityContext;
    expect(sc).toMatchObject({ runAsUser: 0, runAsNonRoot: false, allowPrivilegeEscalation: false, capabilities: { add: [capability], drop: ['ALL'] } });
    const reasons = HostAccessReasons.parse(manifests.find((m) => m.kind === 'DaemonSet').metadata.annotations);
    expect(reasons.filter((r) => r.container === name).map((r) => `${r.type} ${r.detail}: ${r.reason}`)).toEqual([
      `capability ${capability}: needs ${capability}`,
      `runAsRoot ${name}: the added capabilities take effect only for root`,
    ]);
  });

  test.each(EVERY_CAPABILITY)('%s as the image\'s non-root user: refused, naming the field, the capability and the fix', (capability) => {
    const message = errorOf(() => agentWith(role, { capabilities: [{ capability, reason: `needs ${capability}` }] }));
    expect(message).toContain(`[test/agent] ${field(role, 'capabilities')}: ${capability} would take no effect`);
    expect(message).toContain('runs as non-root (runAsNonRoot: true: the image\'s user, which must not be root)');
    expect(message).toContain('Kubernetes sets no ambient capabilities');
    expect(message).toContain('with allowPrivilegeEscalation: false (no_new_privs) a non-root process has a capability only if the file of its entrypoint carries it (setcap), which the library cannot see in the image');
    expect(message).toContain(`write ${field(role, 'runAsRoot')}: { reason: '...' } (root with every other capability dropped gets exactly the added ones); ` +
      'if the image\'s entrypoint carries a capability as a file capability, declare it with entrypointFileCapability: true; or remove them');
  });

  test.each(EVERY_CAPABILITY)('%s declared as the entrypoint\'s file capability: rendered on the non-root container, the review\'s finding accepted', (capability) => {
    const { chart } = agentWith(role, { runAsUser: 1000, capabilities: [{ capability, reason: `/usr/bin/agent carries ${capability}`, entrypointFileCapability: true }] });
    const manifests = synthValid(chart);
    const sc = containerOf(manifests, role).securityContext;
    expect(sc).toMatchObject({ runAsUser: 1000, runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { add: [capability], drop: ['ALL'] } });
    const agent = chart.node.findChild('agent') as NodeAgent;
    const inert = agent.review().workloads[0].findings.filter((f) => f.rule === 'NA-CAPABILITY-INERT');
    expect(inert.map((f) => [f.container, f.severity, f.acknowledged, f.acknowledgedReason])).toEqual([[
      name, 'medium', true, `declared with entrypointFileCapability: the entrypoint's file carries ${capability} as file capabilities`,
    ]]);
    // the acknowledgement travels with the manifest, for reviews of the YAML
    const acks = Acknowledgements.parse(manifests.find((m) => m.kind === 'DaemonSet').metadata.annotations);
    expect(acks.filter((a) => a.rule === 'NA-CAPABILITY-INERT').map((a) => a.container)).toEqual([name]);
  });

  test('only the undeclared capabilities are refused', () => {
    const message = errorOf(() => agentWith(role, {
      capabilities: [
        { capability: Capability.NET_BIND_SERVICE, reason: '/usr/bin/agent carries it', entrypointFileCapability: true },
        { capability: Capability.NET_ADMIN, reason: 'routes' },
      ],
    }));
    expect(message).toContain(`${field(role, 'capabilities')}: NET_ADMIN would take no effect`);
  });

  test('declared on a root container: rendered, nothing to accept (root gets the capability anyway)', () => {
    const { chart } = agentWith(role, { ...ROOT, capabilities: [{ capability: Capability.NET_ADMIN, reason: 'routes', entrypointFileCapability: true }] });
    const manifests = synthValid(chart);
    expect(containerOf(manifests, role).securityContext.capabilities.add).toEqual(['NET_ADMIN']);
    const acks = Acknowledgements.parse(manifests.find((m) => m.kind === 'DaemonSet').metadata.annotations);
    expect(acks.filter((a) => a.rule === 'NA-CAPABILITY-INERT')).toEqual([]);
  });

  test.each([
    ['runAsUser 1000', { runAsUser: 1000 }, 'runAsUser: 1000'],
    ['runAsUser 65534 with a group', { runAsUser: 65534, runAsGroup: 65534 }, 'runAsUser: 65534'],
  ])('as %s: refused, naming the user', (_, options, user) => {
    const message = errorOf(() => agentWith(role, { ...options, capabilities: [{ capability: Capability.NET_ADMIN, reason: 'programs routes' }] }));
    expect(message).toContain(`${field(role, 'capabilities')}: NET_ADMIN would take no effect: the container runs as non-root (${user})`);
  });

  test('several capabilities are named together, in the order given', () => {
    const message = errorOf(() => agentWith(role, {
      capabilities: [{ capability: Capability.SYS_PTRACE, reason: 'traces' }, { capability: Capability.NET_ADMIN, reason: 'routes' }],
    }));
    expect(message).toContain(`${field(role, 'capabilities')}: SYS_PTRACE, NET_ADMIN would take no effect`);
  });

  test('privileged and non-root: refused, saying how such a process gets a capability', () => {
    const message = errorOf(() => agentWith(role, {
      privileged: { reason: 'needs the devices' },
      capabilities: [{ capability: Capability.NET_ADMIN, reason: 'routes' }],
    }));
    expect(message).toContain('a privileged container\'s non-root process gets a capability only by executing a setuid-root program or one whose file carries it');
  });

  test('non-root without capabilities renders as before: non-root, every capability dropped', () => {
    const { chart } = agentWith(role, { runAsUser: 1000 });
    const sc = containerOf(synthValid(chart), role).securityContext;
    expect(sc).toMatchObject({ runAsUser: 1000, runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
    expect(sc.capabilities.add).toBeUndefined();
  });
});

test('the check is per container: root with capabilities beside a non-root sidecar without any', () => {
  const chart = new Chart(Testing.app(), 'test');
  new NodeAgent(chart, 'agent', {
    image,
    ...ROOT,
    capabilities: [{ capability: Capability.NET_RAW, reason: 'opens raw sockets' }],
    sidecars: [{ name: 'exporter', image, runAsUser: 65534 }],
  });
  const containers = synthValid(chart).find((m) => m.kind === 'DaemonSet').spec.template.spec.containers;
  expect(containers.map((c: any) => [c.name, c.securityContext.runAsUser, c.securityContext.capabilities.add])).toEqual([
    ['agent', 0, ['NET_RAW']],
    ['exporter', 65534, undefined],
  ]);
});
