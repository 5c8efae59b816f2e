/**
 * The guards at the public boundary: what a plain-JavaScript caller (or a cast) can pass that the TypeScript types forbid
 * fails with an Error naming the field, the value received and the fix; never a TypeError, never a silent change.
 * Each case of issue 12 has its line here.
 */
import { App, Chart, Duration, Testing } from 'cdk8s';
import { Capability, TaintEffect } from 'cdk8s-plus-28';
import { acknowledgeAll } from './review-helper';
import {
  AgentProbe, AgentUpdateStrategy, HostAccessType, HostMount, NodeAgent, NodeAgentProps, NodeRequirement, Toleration,
} from '../../src';
import { errorOf } from '../util/errors';
import { synthValid } from '../util/k8s-schema';

const image = 'registry.example.com/node-agent:1.2.0';


function agent(props: any, chart = new Chart(Testing.app(), 'test')): NodeAgent {
  return new NodeAgent(chart, 'node-agent', { image, ...props });
}

/** builds and synthesizes an agent with these props; returns the error message. */
function rejected(props: any): string {
  return errorOf(() => {
    const chart = new Chart(Testing.app(), 'test');
    agent(props, chart);
    Testing.synth(chart);
  });
}

describe('an object where a list belongs (was: TypeError "object is not iterable")', () => {
  test.each([
    ['tolerations', { tolerations: Toleration.controlPlane() }, /^\[test\/node-agent\] tolerations must be a list of tolerations \(e\.g\. \[Toleration\.controlPlane\(\)\]\), got Toleration \{"key":"node-role.*: put it in a list \(of one item\)$/],
    ['hostMounts', { hostMounts: HostMount.readOnly('/var/log', { reason: 'r' }) }, /^\[test\/node-agent\] hostMounts must be a list of host mounts .*, got HostMount \{"hostPath":"\/var\/log"/],
    ['ports', { ports: { name: 'metrics', containerPort: 9100 } }, /^\[test\/node-agent\] ports must be a list of ports .*, got \{"name":"metrics","containerPort":9100\}/],
    ['capabilities', { capabilities: { capability: Capability.NET_ADMIN, reason: 'r' } }, /^\[test\/node-agent\] capabilities must be a list of capabilities with their reasons/],
    ['initContainers', { initContainers: { name: 'install', image } }, /^\[test\/node-agent\] initContainers must be a list of containers/],
    ['sidecars', { sidecars: { name: 'proxy', image } }, /^\[test\/node-agent\] sidecars must be a list of containers/],
    ['scratchDirs', { scratchDirs: { path: '/tmp' } }, /^\[test\/node-agent\] scratchDirs must be a list of absolute paths/],
    ['requiredNodeAffinity', { requiredNodeAffinity: { requirements: [NodeRequirement.exists('gpu')] } }, /^\[test\/node-agent\] requiredNodeAffinity must be a list of node affinity terms/],
    ['clusterPermissions', { clusterPermissions: { resources: ['pods'], verbs: ['get'] } }, /^\[test\/node-agent\] clusterPermissions must be a list of RBAC rules/],
    ['allowedRegistries', { allowedRegistries: 'quay.io' }, /^\[test\/node-agent\] allowedRegistries must be a list of registry hosts .*, got "quay\.io": write a list, e\.g\. \["quay\.io"\]$/],
  ])('%s', (_, props, message) => {
    expect(rejected(props)).toMatch(message);
  });
});

describe('a string where a list or a map belongs (was: rendered character by character, or as a string)', () => {
  test.each([
    ['command', { command: '/bin/agent --verbose' }, /^\[test\/node-agent\] command must be a list of strings .*, got "\/bin\/agent --verbose": write one item per word, e\.g\. \["\/bin\/agent","--verbose"\]$/],
    ['args', { args: '--verbose' }, /^\[test\/node-agent\] args must be a list of strings .*, got "--verbose": write a list, e\.g\. \["--verbose"\]$/],
    ['nodeSelector', { nodeSelector: 'disktype=ssd' }, /^\[test\/node-agent\] nodeSelector must be a map of node label names to values .*, got "disktype=ssd"$/],
    ['configFiles', { configFiles: 'log_level: info' }, /^\[test\/node-agent\] configFiles must be a map of file names to contents .*, got "log_level: info"$/],
    ['env', { env: 'LOG_LEVEL=info' }, /^\[test\/node-agent\] env must be a map of variable names to values/],
    ['labels', { labels: 'team=platform' }, /^\[test\/node-agent\] labels must be a map of label names to values/],
    ['podAnnotations', { podAnnotations: ['a'] }, /^\[test\/node-agent\] podAnnotations must be a map of annotation names to values .*, got \["a"\]$/],
    ['service.ports', { ports: [{ name: 'metrics', containerPort: 9100 }], service: { ports: 'metrics' } }, /^\[test\/node-agent\] service\.ports must be a list of port names/],
    ['a sidecar command', { sidecars: [{ name: 'proxy', image, command: 'proxy' }] }, /^\[test\/node-agent\] sidecars\[proxy\]\.command must be a list of strings/],
  ])('%s', (_, props, message) => {
    expect(rejected(props)).toMatch(message);
  });
});

describe('values of the wrong type', () => {
  test.each([
    ['a number as a label value (was: rendered as a number)', { labels: { tier: 1 } }, '[test/node-agent] labels.tier must be a string, got 1'],
    ['a number as a node selector value', { nodeSelector: { tier: 1 } }, '[test/node-agent] nodeSelector.tier must be a string, got 1'],
    ['a number as an env value', { env: { PORT: 8080 } }, '[test/node-agent] env.PORT must be a string, got 8080'],
    ['a number as a config file', { configFiles: { 'a.conf': 1 } }, '[test/node-agent] configFiles.a.conf must be a string, got 1'],
    ['strings as capabilities (was: "undefined" is not a capability name)', { capabilities: ['NET_ADMIN'] },
      "[test/node-agent] capabilities[0] must be a capability with its reason (e.g. { capability: Capability.NET_ADMIN, reason: 'programs the node routes' }), got \"NET_ADMIN\""],
    ['a number as hostPort (was: got undefined)', { ports: [{ name: 'metrics', containerPort: 9100, hostPort: 9100 }] },
      "[test/node-agent] ports[metrics].hostPort must be an object with the port and the reason (e.g. { port: 9100, reason: 'scraped on the node address' }), got 9100"],
    ["linuxOnly: 'false' (was: Linux only)", { linuxOnly: 'false' }, '[test/node-agent] linuxOnly must be true or false, got "false": write false without quotes'],
    ["createNamespace: 'no'", { createNamespace: 'no' }, '[test/node-agent] createNamespace must be true or false, got "no"'],
    ["entrypointFileCapability: 'yes'", { capabilities: [{ capability: 'NET_ADMIN', reason: 'r', entrypointFileCapability: 'yes' }] },
      '[test/node-agent] capabilities[0].entrypointFileCapability must be true or false, got "yes"'],
    ["readOnlyRootFilesystem: 'false'", { readOnlyRootFilesystem: 'false' }, '[test/node-agent] readOnlyRootFilesystem must be true or false, got "false": write false without quotes'],
    ["revisionHistoryLimit: '5'", { revisionHistoryLimit: '5' }, '[test/node-agent] revisionHistoryLimit must be a number (e.g. 10), got "5": write 5 without quotes'],
    ["runAsUser: '1000'", { runAsUser: '1000' }, '[test/node-agent] runAsUser must be a number (e.g. 65534), got "1000": write 1000 without quotes'],
    ["containerPort: '9100'", { ports: [{ name: 'metrics', containerPort: '9100' }] }, '[test/node-agent] ports[metrics].containerPort must be a number (e.g. 9100), got "9100": write 9100 without quotes'],
    ['hostNetwork: true', { hostNetwork: true }, "[test/node-agent] hostNetwork must be an object with the reason (e.g. { reason: 'reads the node\\'s network interfaces' }), got true"],
    ["privileged: 'because'", { privileged: 'because' }, /^\[test\/node-agent\] privileged must be an object with the reason .*, got "because"$/],
    ['a protocol in lower case', { ports: [{ name: 'dns', containerPort: 53, protocol: 'udp' }] },
      '[test/node-agent] ports[dns].protocol "udp" is not one of TCP, UDP, SCTP (e.g. Protocol.TCP): did you mean Protocol.UDP?'],
    ['a DNS policy in lower case', { dnsPolicy: 'clusterfirst' }, /^\[test\/node-agent\] dnsPolicy "clusterfirst" is not one of ClusterFirst, .*: did you mean DnsPolicy\.CLUSTER_FIRST\?$/],
    ['reviewFailOn in upper case', { reviewFailOn: 'HIGH' }, /^\[test\/node-agent\] reviewFailOn "HIGH" is not one of low, medium, high, critical \(e\.g\. Severity\.HIGH\): did you mean Severity\.HIGH\?$/],
    ['a number of seconds as minReady', { minReady: 30 }, '[test/node-agent] minReady must be a Duration (e.g. Duration.seconds(30)), got 30'],
    ['a symbol', { namespace: Symbol('ns') }, "[test/node-agent] namespace must be a string (e.g. 'observability'), got Symbol(ns)"],
    ['a bigint', { fsGroup: 10n }, '[test/node-agent] fsGroup must be a number (e.g. 65534), got 10n'],
    ['a Map as labels', { labels: new Map([['team', 'platform']]) }, /^\[test\/node-agent\] labels must be a map of label names to values .*, got a Map$/],
    ['null in a list', { tolerations: [null] }, /^\[test\/node-agent\] tolerations\[0\] must be created with Toleration\.controlPlane\(\), .*, got null$/],
    ['a port without a name', { ports: [{ containerPort: 9100 }] }, "[test/node-agent] ports[0].name is required: name the port, e.g. { name: 'metrics', containerPort: 9100 }"],
    ['a capability grant without a capability', { capabilities: [{ reason: 'r' }] }, /^\[test\/node-agent\] capabilities\[0\]\.capability is required: name it with the Capability enum/],
  ])('%s', (_, props, message) => {
    if (typeof message === 'string') expect(rejected(props)).toBe(message);
    else expect(rejected(props)).toMatch(message);
  });

  test('a misspelled capability: the closest one suggested (was: rendered, and the runtime refuses the container)', () => {
    expect(rejected({ capabilities: [{ capability: 'NET_ADMN', reason: 'r' }] }))
      .toBe('[test/node-agent] capabilities: "NET_ADMN" is not a capability name: did you mean Capability.NET_ADMIN? use the Capability enum, e.g. Capability.NET_ADMIN');
    expect(rejected({ capabilities: [{ capability: 'CAP_SYS_PTRACE', reason: 'r' }] })).toMatch(/did you mean Capability\.SYS_PTRACE\?/);
  });

  test('an image with a leading or trailing space (was: accepted, and the API server rejects the pods)', () => {
    expect(rejected({ image: ' registry.example.com/node-agent:1.2.0' }))
      .toBe('[test/node-agent] image " registry.example.com/node-agent:1.2.0" has leading or trailing whitespace: write "registry.example.com/node-agent:1.2.0"');
    expect(rejected({ sidecars: [{ name: 'proxy', image: 'registry.example.com/proxy:1.0.0\n' }] })).toMatch(/^\[test\/node-agent\] sidecars\[proxy\]\.image .* has leading or trailing whitespace/);
  });

  test('props that are not an object', () => {
    expect(errorOf(() => new NodeAgent(new Chart(Testing.app(), 'test'), 'node-agent', undefined as any)))
      .toBe('[test/node-agent] props are required: at least { image: "registry.example.com/node-agent:1.2.0" }, got undefined');
    expect(errorOf(() => new NodeAgent(new Chart(Testing.app(), 'test'), 'node-agent', 'nginx:1.0' as any)))
      .toBe("[test/node-agent] props must be a NodeAgentProps object (e.g. { image: 'registry.example.com/node-agent:1.2.0' }), got \"nginx:1.0\"");
  });
});

describe('unknown props: an error with the closest known prop (jsii sends only declared fields, so only a literal can carry one)', () => {
  test.each([
    ['tolerationz', { tolerationz: [Toleration.controlPlane()] }, '[test/node-agent] NodeAgentProps has no property "tolerationz": did you mean "tolerations"?'],
    ['hostMount', { hostMount: [] }, '[test/node-agent] NodeAgentProps has no property "hostMount": did you mean "hostMounts"?'],
    ['nodeselector', { nodeselector: {} }, '[test/node-agent] NodeAgentProps has no property "nodeselector": did you mean "nodeSelector"?'],
    ['imagePullPolicy', { imagePullPolicy: 'Always' }, '[test/node-agent] NodeAgentProps has no property "imagePullPolicy": remove it (the properties of NodeAgentProps are listed in API.md)'],
    ['undefined under a misspelled name', { tolerationz: undefined }, '[test/node-agent] NodeAgentProps has no property "tolerationz": did you mean "tolerations"?'],
    ['in a port', { ports: [{ name: 'm', containerPort: 9, hostport: { port: 9, reason: 'r' } }] }, '[test/node-agent] ports[m]: AgentPort has no property "hostport": did you mean "hostPort"?'],
    ['in a sidecar', { sidecars: [{ name: 'proxy', image, mounts: [] }] }, /^\[test\/node-agent\] sidecars\[proxy\]: AgentContainerProps has no property "mounts": remove it/],
    ['in resources', { resources: { memoryLimits: 1 } }, '[test/node-agent] resources: AgentResources has no property "memoryLimits": did you mean "memoryLimit"?'],
    ['in a reason', { hostPID: { reason: 'r', because: 'x' } }, /^\[test\/node-agent\] hostPID: Justification has no property "because"/],
    ['in a service', { ports: [{ name: 'm', containerPort: 9 }], service: { ports: ['m'], internalTrafficPolicy: 'Local' } }, /^\[test\/node-agent\] service: AgentServiceOptions has no property "internalTrafficPolicy"/],
    ['in an RBAC rule', { clusterPermissions: [{ resources: ['pods'], verb: ['get'] }] }, '[test/node-agent] clusterPermissions[0]: AccessRule has no property "verb": did you mean "verbs"?'],
  ])('%s', (_, props, message) => {
    if (typeof message === 'string') expect(rejected(props)).toBe(message);
    else expect(rejected(props)).toMatch(message);
  });
});

describe('null is "not set", as jsii sends an unset value', () => {
  test('an optional prop set to null renders as if left out', () => {
    const withNulls = new App({ outdir: '/tmp/unused' });
    acknowledgeAll(agent({ namespace: null, tolerations: null, labels: null, hostNetwork: null, resources: { memoryLimit: null } }, new Chart(withNulls, 'test')));
    const without = new App({ outdir: '/tmp/unused' });
    acknowledgeAll(agent({}, new Chart(without, 'test')));
    expect(withNulls.synthYaml()).toEqual(without.synthYaml());
  });

  test('a required field set to null fails', () => {
    expect(rejected({ ports: [{ name: null, containerPort: 9100 }] })).toBe("[test/node-agent] ports[0].name is required, got null: name the port, e.g. { name: 'metrics', containerPort: 9100 }");
  });
});

describe('the props are read once, as checked: changing them afterwards changes nothing', () => {
  test('a list changed after construction is not rendered', () => {
    const chart = new Chart(Testing.app(), 'test');
    const args = ['--verbose'];
    acknowledgeAll(agent({ args }, chart));
    args.push('--debug');
    const ds = synthValid(chart).find((m) => m.kind === 'DaemonSet');
    expect(ds.spec.template.spec.containers[0].args).toEqual(['--verbose']);
  });
});

describe("the methods' arguments", () => {
  const a = () => agent({});
  test.each([
    ['addToleration', () => a().addToleration('node-role.kubernetes.io/control-plane' as any),
      /^\[test\/node-agent\] addToleration\(toleration\) must be created with Toleration\.controlPlane\(\), .*, got "node-role\.kubernetes\.io\/control-plane"$/],
    ['addToleration()', () => a().addToleration(undefined as any), /^\[test\/node-agent\] addToleration\(toleration\) is required/],
    ['addHostMount', () => a().addHostMount('/var/log' as any), /^\[test\/node-agent\] addHostMount\(mount\) must be created with HostMount\.readOnly\(\) or HostMount\.readWrite\(\), got "\/var\/log"$/],
    ['addSidecar', () => a().addSidecar({ name: 'proxy', image, comand: ['x'] } as any), /^\[test\/node-agent\] addSidecar\(props\): AgentContainerProps has no property "comand": did you mean "command"\?$/],
    ['addInitContainer', () => a().addInitContainer('installer' as any), /^\[test\/node-agent\] addInitContainer\(props\) must be a AgentContainerProps object/],
    ['addClusterPermission', () => a().addClusterPermission({ resources: 'pods', verbs: ['get'] } as any), /^\[test\/node-agent\] addClusterPermission\(rule\)\.resources must be a list of resources/],
    ['addNamespacePermission', () => a().addNamespacePermission(null as any), /^\[test\/node-agent\] addNamespacePermission\(rule\) is required/],
    ['addEnv', () => a().addEnv(42 as any, 'x'), '[test/node-agent] env: a variable name must be a string, got 42'],
    ['addEnv value', () => a().addEnv('LEVEL', 3 as any), '[test/node-agent] env.LEVEL must be a string, got 3'],
    ['addNodeSelector', () => a().addNodeSelector('tier', 1 as any), /^\[test\/node-agent\] nodeSelector\.tier must be a string/],
    ['addHostAccessReason', () => a().addHostAccessReason({ type: 'hostpath' as any, detail: '/x (read-only)', reason: 'r' }),
      /^\[test\/node-agent\] addHostAccessReason\(reason\)\.type "hostpath" is not one of .*: did you mean HostAccessType\.HOST_PATH\?$/],
    ['addHostAccessReason without detail', () => a().addHostAccessReason({ type: HostAccessType.HOST_PID, reason: 'r' } as any), /addHostAccessReason\(reason\)\.detail is required/],
    ['coverage', () => a().coverage({ items: [] } as any), /^\[test\/node-agent\] coverage: nodes must be an array of Node objects/],
    ['rolloutPlan', () => a().rolloutPlan('3' as any), /^\[test\/node-agent\] rolloutPlan: nodeCount "3" is not a number of nodes/],
  ])('%s', (_, f, message) => {
    if (typeof message === 'string') expect(errorOf(f)).toBe(message);
    else expect(errorOf(f)).toMatch(message);
  });
});

describe('factories', () => {
  test.each([
    ['NodeRequirement.isIn(null, ...) (was: a crash)', () => NodeRequirement.isIn(null as any, ['a']), 'NodeRequirement.isIn key: the label key must be a string, got null'],
    ['NodeRequirement.isIn(key, "a")', () => NodeRequirement.isIn('zone', 'a' as any), /^NodeRequirement\.isIn\("zone"\) needs at least one value, got "a"/],
    ['Toleration.exists(undefined) (was: tolerates every NoSchedule taint)', () => Toleration.exists(undefined as any), 'Toleration.exists key: the label key must be a string, got undefined'],
    ["Toleration.exists(key, 'gpu') (was: the value dropped)", () => Toleration.exists('dedicated', 'gpu' as any),
      'Toleration.exists("dedicated"): options must be an object such as { effect: TaintEffect.NO_SCHEDULE }, got "gpu": to tolerate only the value "gpu", did you mean Toleration.equal("dedicated", "gpu")?'],
    ['Toleration.exists(key, 3)', () => Toleration.exists('dedicated', 3 as any), /^Toleration\.exists\("dedicated"\): options must be a TolerationOptions object .*, got 3$/],
    ['Toleration.exists with a misspelled option', () => Toleration.exists('dedicated', { efect: TaintEffect.NO_SCHEDULE } as any),
      'Toleration.exists("dedicated"): TolerationOptions has no property "efect": did you mean "effect"?'],
    ['Toleration.equal with a number value', () => Toleration.equal('dedicated', 1 as any), /^Toleration\.equal\("dedicated"\) value: the label value must be a string/],
    ['Toleration.equal with seconds as evictAfter', () => Toleration.equal('k', 'v', { effect: TaintEffect.NO_EXECUTE, evictAfter: 300 as any }),
      'Toleration.equal("k"): evictAfter must be a Duration (e.g. Duration.seconds(30)), got 300'],
    ['HostMount.readOnly with a misspelled option', () => HostMount.readOnly('/var/log', { reason: 'r', mountpath: '/logs' } as any),
      'HostMount.readOnly("/var/log"): ReadOnlyHostMountOptions has no property "mountpath": did you mean "mountPath"?'],
    ['HostMount.readOnly with a number as path', () => HostMount.readOnly(42 as any, { reason: 'r' }), 'HostMount.readOnly(42) host path must be an absolute path such as "/var/log", got 42'],
    ['HostMount.readWrite with the reason in the options', () => HostMount.readWrite('/var/lib/agent', { reason: 'keeps state' } as any),
      'HostMount.readWrite("/var/lib/agent"): the reason is the second argument, a string, got {"reason":"keeps state"}: write HostMount.readWrite("/var/lib/agent", "keeps state", options)'],
    ['HostMount.readWrite with options as a string', () => HostMount.readWrite('/var/lib/agent', 'r', '/state' as any),
      /^HostMount\.readWrite\("\/var\/lib\/agent"\): options must be a HostMountOptions object .*, got "\/state"$/],
    ['AgentUpdateStrategy.rollingUpdate with a misspelled option', () => AgentUpdateStrategy.rollingUpdate({ maxUnavaliable: 1 } as any),
      'AgentUpdateStrategy.rollingUpdate: RollingUpdateOptions has no property "maxUnavaliable": did you mean "maxUnavailable"?'],
    ['AgentProbe.httpGet without options', () => (AgentProbe.httpGet as any)('/healthz'), 'AgentProbe.httpGet: options are required: give at least the port, e.g. AgentProbe.httpGet("/healthz", { port: 8080 })'],
    ['AgentProbe.httpGet without a port', () => AgentProbe.httpGet('/healthz', {} as any), /^AgentProbe\.httpGet: port is required/],
    ['AgentProbe.httpGet with a port as text', () => AgentProbe.httpGet('/healthz', { port: '8080' as any }), 'AgentProbe.httpGet: port must be a number (e.g. 8080), got "8080": write 8080 without quotes'],
    ['AgentProbe.httpGet with a number as path', () => AgentProbe.httpGet(200 as any, { port: 80 }), "AgentProbe.httpGet: path must be a string (e.g. '/healthz'), got 200"],
    ['AgentProbe.tcpSocket with seconds as period', () => AgentProbe.tcpSocket(80, { period: 10 } as any), 'AgentProbe.tcpSocket: period must be a Duration (e.g. Duration.seconds(30)), got 10'],
    ['AgentProbe.tcpSocket with a misspelled option', () => AgentProbe.tcpSocket(80, { timout: Duration.seconds(1) } as any), 'AgentProbe.tcpSocket: AgentProbeOptions has no property "timout": did you mean "timeout"?'],
    ['AgentProbe.exec with a string', () => AgentProbe.exec('cat /tmp/healthy' as any), /^AgentProbe\.exec: command must be a list of strings .*: write one item per word, e\.g\. \["cat","\/tmp\/healthy"\]$/],
  ])('%s', (_, f, message) => {
    if (typeof message === 'string') expect(errorOf(f)).toBe(message);
    else expect(errorOf(f)).toMatch(message);
  });

  test('options left out or null are the defaults', () => {
    expect(Toleration.exists('k', null as any)).toEqual(Toleration.exists('k'));
    expect(HostMount.readWrite('/x', 'r', null as any)).toEqual(HostMount.readWrite('/x', 'r'));
    expect(AgentUpdateStrategy.rollingUpdate(null as any)).toEqual(AgentUpdateStrategy.rollingUpdate());
  });
});

describe('valid props pass the guards unchanged', () => {
  test('every kind of value the props take', () => {
    const props: NodeAgentProps = {
      image,
      command: ['/bin/agent'],
      env: Object.fromEntries([['__proto__', 'kept']]),
      labels: { team: 'platform' },
      tolerations: [Toleration.controlPlane()],
      hostMounts: [HostMount.readOnly('/var/log', { reason: 'reads logs' })],
      ports: [{ name: 'metrics', containerPort: 9100 }],
      service: { ports: ['metrics'] },
      liveness: AgentProbe.tcpSocket(9100),
    };
    const chart = new Chart(Testing.app(), 'test');
    acknowledgeAll(agent(props, chart));
    const ds = synthValid(chart).find((m) => m.kind === 'DaemonSet');
    expect(ds.spec.template.spec.containers[0].env.slice(3)).toEqual([{ name: '__proto__', value: 'kept' }]);
    expect(ds.spec.template.spec.containers[0].command).toEqual(['/bin/agent']);
    expect(ds.spec.template.spec.tolerations).toHaveLength(1);
  });
});
