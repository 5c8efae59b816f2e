/**
 * Property-based tests of NodeAgent: random valid props synthesize schema-valid, deterministic manifests
 * that keep every value set and record every host privilege; random invalid props fail with an `Error`
 * that starts with the construct path and names the field.
 *
 * The properties marked "REGRESSION" each found a bug in src/agent (the comment keeps the minimal
 * counterexample); they stay to keep those bugs fixed.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiObject, App, Chart, Duration, Size } from 'cdk8s';
import { Capability, Cpu, HostPathVolumeType, MountPropagation, PercentOrAbsolute, Protocol, TaintEffect } from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import * as YAML from 'yaml';
import { AgentCase, PROTOTYPE_NAMES, PSA_VERSIONS, absolutePath, agentCase, anyText, dnsLabel, reason } from './node-agent.arbitraries';
import { acknowledgeAll } from './review-helper';
import {
  AgentContainerProps, AgentProbe, AgentUpdateStrategy, ContainerOptions, Finding, HostAccess, HostAccessReason, HostAccessReasons,
  HostAccessType, HostMount, NodeAgent, NodeAgentProps, NodeRequirement, PodSecurity, RolloutPlan, SecurityReview, Severity, Toleration,
} from '../../src';
import { renderUnchecked } from '../../src/agent/_checked-api-object';
import { synthValid } from '../util/k8s-schema';

const IMAGE = 'registry.example.com/node-agent:1.2.0';
/** run counts keep this file under ~20 s on 2 cores; PROPERTY_RUNS_SCALE=10 searches ten times longer. */
const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? '1');
const runs = (n: number) => Math.max(1, Math.ceil(n * SCALE));
const OUTDIR = path.join(os.tmpdir(), 'cdk8s-node-agents-property-unused');

// ------------------------------------------------------------------ helpers

/**
 * Builds the agent of a case. Its security-review findings are acknowledged: valid props may take risks
 * that the review gate stops until someone accepts them (see the property on the gate below).
 */
function build(c: AgentCase, app: App = new App({ outdir: OUTDIR }), acknowledge = true): { chart: Chart; agent: NodeAgent } {
  const chart = new Chart(app, 'test', { namespace: c.chartNamespace });
  const agent = new NodeAgent(chart, c.id, c.props);
  if (acknowledge) acknowledgeAll(agent);
  return { chart, agent };
}

function yamlOf(c: AgentCase): string {
  const app = new App({ outdir: OUTDIR });
  build(c, app);
  return app.synthYaml();
}

/** drops undefined fields, as synthesis does. */
function clean<T>(x: T): T {
  return x === undefined ? x : JSON.parse(JSON.stringify(x));
}

function only(manifests: any[], kind: string): any {
  const found = manifests.filter((m) => m.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0];
}

function count(manifests: any[], kind: string): number {
  return manifests.filter((m) => m.kind === kind).length;
}

function fail(message: string): never {
  throw new Error(message);
}

// ------------------------------------------------------------------ what the output must keep

interface NamedContainer {
  readonly name: string;
  readonly list: 'containers' | 'initContainers';
  readonly options: ContainerOptions;
}

function containersOf(p: NodeAgentProps): NamedContainer[] {
  return [
    { name: p.containerName ?? 'agent', list: 'containers', options: p },
    ...(p.initContainers ?? []).map((c: AgentContainerProps): NamedContainer => ({ name: c.name, list: 'initContainers', options: c })),
    ...(p.sidecars ?? []).map((c: AgentContainerProps): NamedContainer => ({ name: c.name, list: 'containers', options: c })),
  ];
}

function expectedProbe(probe: AgentProbe | undefined): any {
  if (!probe) return undefined;
  const o = probe.options;
  return clean({
    ...probe.handler,
    initialDelaySeconds: o.initialDelay?.toSeconds(),
    periodSeconds: o.period?.toSeconds(),
    timeoutSeconds: o.timeout?.toSeconds(),
    failureThreshold: o.failureThreshold,
  });
}

/** the reasons the props give, as the annotation must record them (trimmed). */
function reasonsGiven(p: NodeAgentProps): HostAccessReason[] {
  const out: HostAccessReason[] = [];
  if (p.hostNetwork) out.push({ type: HostAccessType.HOST_NETWORK, detail: '', reason: p.hostNetwork.reason.trim() });
  if (p.hostPID) out.push({ type: HostAccessType.HOST_PID, detail: '', reason: p.hostPID.reason.trim() });
  if (p.hostIPC) out.push({ type: HostAccessType.HOST_IPC, detail: '', reason: p.hostIPC.reason.trim() });
  for (const { name, options: o } of containersOf(p)) {
    if (o.privileged) out.push({ type: HostAccessType.PRIVILEGED, detail: name, container: name, reason: o.privileged.reason.trim() });
    if (o.runAsRoot) out.push({ type: HostAccessType.RUN_AS_ROOT, detail: name, container: name, reason: o.runAsRoot.reason.trim() });
    for (const g of o.capabilities ?? []) {
      out.push({ type: HostAccessType.CAPABILITY, detail: g.capability, container: name, reason: g.reason.trim() });
    }
    for (const pt of o.ports ?? []) {
      if (pt.hostPort) out.push({ type: HostAccessType.HOST_PORT, detail: `${pt.hostPort.port}/${pt.protocol ?? Protocol.TCP}`, container: name, reason: pt.hostPort.reason.trim() });
    }
    for (const m of o.hostMounts ?? []) {
      if (m.reason !== undefined) {
        out.push({ type: HostAccessType.HOST_PATH, detail: `${HostAccess.normalizePath(m.hostPath)} (${m.writable ? 'read-write' : 'read-only'})`, container: name, reason: m.reason.trim() });
      }
    }
  }
  return out;
}

function checkContainer(c: NamedContainer, spec: any, volumes: any[], configMount?: { path: string; configMap: string }): void {
  const rendered = (spec[c.list] ?? []).find((x: any) => x.name === c.name) ?? fail(`container ${c.name} is missing from ${c.list}`);
  const o = c.options;
  expect(rendered.image).toBe(o.image);
  expect(rendered.command).toEqual(o.command);
  expect(rendered.args).toEqual(o.args);
  expect(rendered.env.slice(3)).toEqual(Object.entries(o.env ?? {}).map(([name, value]) => ({ name, value })));

  const sc = rendered.securityContext;
  expect(sc.capabilities).toEqual(clean({ add: o.capabilities?.length ? o.capabilities.map((g) => g.capability) : undefined, drop: ['ALL'] }));
  expect(sc.privileged).toBe(o.privileged ? true : undefined);
  expect(sc.allowPrivilegeEscalation).toBe(o.privileged ? undefined : false);
  expect(sc.runAsNonRoot).toBe(!o.runAsRoot);
  expect(sc.runAsUser).toBe(o.runAsRoot ? 0 : o.runAsUser);
  expect(sc.runAsGroup).toBe(o.runAsGroup);
  expect(sc.readOnlyRootFilesystem).toBe(o.readOnlyRootFilesystem ?? true);

  expect(rendered.ports).toEqual(o.ports?.length
    ? o.ports.map((pt) => clean({
      name: pt.name, containerPort: pt.containerPort, protocol: pt.protocol ?? Protocol.TCP, hostPort: pt.hostPort?.port,
    }))
    : undefined);

  const r = o.resources ?? {};
  const memoryRequest = r.memoryRequest ?? Size.mebibytes(128);
  expect(rendered.resources).toEqual(clean({
    requests: { cpu: (r.cpuRequest ?? Cpu.millis(100)).amount, memory: `${memoryRequest.toMebibytes()}Mi` },
    limits: { cpu: r.cpuLimit?.amount, memory: `${(r.memoryLimit ?? Size.mebibytes(memoryRequest.toMebibytes() * 2)).toMebibytes()}Mi` },
  }));
  expect(rendered.livenessProbe).toEqual(expectedProbe(o.liveness));
  expect(rendered.readinessProbe).toEqual(expectedProbe(o.readiness));
  expect(rendered.startupProbe).toEqual(expectedProbe(o.startup));

  // every mount the user set, at its path, with its readOnly flag and propagation, backed by the right volume
  const mounts: any[] = rendered.volumeMounts ?? [];
  const volume = (name: string) => volumes.find((v) => v.name === name) ?? fail(`volume ${name} of container ${c.name} is missing`);
  const mountAt = (p: string) => mounts.find((m) => m.mountPath === p) ?? fail(`container ${c.name} has no mount at ${p}`);
  for (const m of o.hostMounts ?? []) {
    const vm = mountAt(m.mountPath);
    expect(vm.readOnly).toBe(m.writable ? undefined : true);
    expect(vm.mountPropagation).toBe(m.propagation);
    expect(volume(vm.name)).toEqual(clean({ name: vm.name, hostPath: { path: m.hostPath, type: m.type || undefined } }));
  }
  for (const dir of o.scratchDirs ?? []) {
    const vm = mountAt(dir);
    expect(vm.readOnly).toBeUndefined();
    expect(volume(vm.name)).toEqual({ name: vm.name, emptyDir: {} });
  }
  if (configMount) {
    const vm = mountAt(configMount.path);
    expect(vm.readOnly).toBe(true);
    expect(volume(vm.name)).toEqual({ name: vm.name, configMap: { name: configMount.configMap } });
  }
  expect(mounts).toHaveLength((o.hostMounts ?? []).length + (o.scratchDirs ?? []).length + (configMount ? 1 : 0));
}

/** every value set in the props is in the output, unchanged. */
function checkKeepsValues(c: AgentCase, manifests: any[]): void {
  const p = c.props;
  const name = p.name ?? c.id;
  const namespace = p.namespace ?? c.chartNamespace ?? name;
  const ds = only(manifests, 'DaemonSet');
  const template = ds.spec.template;
  const spec = template.spec;

  expect(ds.metadata).toMatchObject({ name, namespace });
  expect(ds.spec.selector).toEqual({ matchLabels: { 'app.kubernetes.io/name': name } });
  expect(template.metadata.labels).toEqual({ 'app.kubernetes.io/name': name, ...p.labels });
  for (const [k, v] of Object.entries(p.podAnnotations ?? {})) expect(template.metadata.annotations[k]).toBe(v);

  // placement
  const selector: { [k: string]: string } = { ...(p.linuxOnly ?? true ? { 'kubernetes.io/os': 'linux' } : {}), ...p.nodeSelector };
  expect(spec.nodeSelector).toEqual(Object.keys(selector).length > 0 ? selector : undefined);
  expect(spec.tolerations).toEqual(p.tolerations?.length
    ? p.tolerations.map((t) => clean({
      key: t.key, operator: t.operator, value: t.value, effect: t.effect, tolerationSeconds: t.evictAfter?.toSeconds(),
    }))
    : undefined);
  const checkTerm = (rendered: any, requirements: NodeRequirement[]) => {
    const labels = requirements.filter((r) => r.target === 'label');
    const fields = requirements.filter((r) => r.target === 'field');
    expect(rendered.matchExpressions ?? []).toEqual(labels.map((r) => clean({ key: r.key, operator: r.operator, values: r.values })));
    expect(rendered.matchFields ?? []).toEqual(fields.map((r) => clean({ key: r.key, operator: r.operator, values: r.values })));
  };
  const affinity = spec.affinity?.nodeAffinity;
  const required = p.requiredNodeAffinity ?? [];
  const preferred = p.preferredNodeAffinity ?? [];
  expect(affinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []).toHaveLength(required.length);
  required.forEach((t, i) => checkTerm(affinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[i], t.requirements));
  expect(affinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).toHaveLength(preferred.length);
  preferred.forEach((t, i) => {
    expect(affinity.preferredDuringSchedulingIgnoredDuringExecution[i].weight).toBe(t.weight);
    checkTerm(affinity.preferredDuringSchedulingIgnoredDuringExecution[i].preference, t.requirements);
  });
  expect(spec.priorityClassName).toBe(p.priorityClassName);

  // rollout
  const strategy = p.updateStrategy ?? AgentUpdateStrategy.rollingUpdate();
  expect(ds.spec.updateStrategy.type).toBe(strategy.type);
  if (strategy.type === 'RollingUpdate') {
    const ru = ds.spec.updateStrategy.rollingUpdate;
    if (strategy.maxUnavailable !== undefined) expect(ru.maxUnavailable).toEqual(strategy.maxUnavailable.value);
    if (strategy.maxSurge !== undefined) expect(ru.maxSurge).toEqual(strategy.maxSurge.value);
    // the pair the API server receives is one it accepts
    expect(() => RolloutPlan.validate(ru.maxUnavailable, ru.maxSurge)).not.toThrow();
  } else {
    expect(ds.spec.updateStrategy.rollingUpdate).toBeUndefined();
  }
  expect(ds.spec.minReadySeconds).toBe(p.minReady?.toSeconds());
  expect(ds.spec.revisionHistoryLimit).toBe(p.revisionHistoryLimit ?? 10);

  // pod
  expect(spec.hostNetwork).toBe(p.hostNetwork ? true : undefined);
  expect(spec.hostPID).toBe(p.hostPID ? true : undefined);
  expect(spec.hostIPC).toBe(p.hostIPC ? true : undefined);
  expect(spec.dnsPolicy).toBe(p.dnsPolicy ?? (p.hostNetwork ? 'ClusterFirstWithHostNet' : undefined));
  expect(spec.securityContext.fsGroup).toBe(p.fsGroup);
  expect(spec.terminationGracePeriodSeconds).toBe(p.terminationGracePeriod?.toSeconds());
  const permissions = (p.clusterPermissions ?? []).length + (p.namespacePermissions ?? []).length > 0;
  expect(spec.automountServiceAccountToken).toBe(p.automountServiceAccountToken ?? permissions);
  expect(spec.serviceAccountName).toBe(name);
  expect(only(manifests, 'ServiceAccount').metadata).toMatchObject({ name, namespace });

  // containers, their mounts and the volumes behind them
  const containers = containersOf(p);
  expect(spec.containers.map((x: any) => x.name)).toEqual(containers.filter((x) => x.list === 'containers').map((x) => x.name));
  expect((spec.initContainers ?? []).map((x: any) => x.name)).toEqual(containers.filter((x) => x.list === 'initContainers').map((x) => x.name));
  const configMount = p.configFiles ? { path: p.configMountPath ?? `/etc/${name}`, configMap: `${name}-config` } : undefined;
  containers.forEach((x, i) => checkContainer(x, spec, spec.volumes ?? [], i === 0 ? configMount : undefined));

  // config files
  expect(count(manifests, 'ConfigMap')).toBe(p.configFiles ? 1 : 0);
  if (p.configFiles) {
    expect(only(manifests, 'ConfigMap').data).toEqual(p.configFiles);
    expect(template.metadata.annotations['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
  }

  // permissions
  const rules = (rs: any[]) => rs.map((r) => clean({ apiGroups: r.apiGroups ?? [''], resources: r.resources, verbs: r.verbs, resourceNames: r.resourceNames }));
  for (const [kind, given] of [['ClusterRole', p.clusterPermissions], ['Role', p.namespacePermissions]] as const) {
    expect(count(manifests, kind)).toBe(given?.length ? 1 : 0);
    expect(count(manifests, `${kind}Binding`)).toBe(given?.length ? 1 : 0);
    if (given?.length) {
      expect(only(manifests, kind).rules).toEqual(rules(given));
      expect(only(manifests, `${kind}Binding`).subjects).toEqual([{ kind: 'ServiceAccount', name, namespace }]);
    }
  }

  // service
  expect(count(manifests, 'Service')).toBe(p.service ? 1 : 0);
  if (p.service) {
    const svc = only(manifests, 'Service');
    expect(svc.spec.ports.map((x: any) => x.name)).toEqual(p.service.ports);
    expect(svc.spec.internalTrafficPolicy).toBe(p.service.nodeLocal ? 'Local' : undefined);
    for (const [k, v] of Object.entries(p.service.annotations ?? {})) expect(svc.metadata.annotations[k]).toBe(v);
  }

  // namespace, pinned at the version asked for
  expect(count(manifests, 'Namespace')).toBe(p.createNamespace ?? true ? 1 : 0);
  if (p.createNamespace ?? true) {
    const ns = only(manifests, 'Namespace');
    const version = p.podSecurityVersion ?? '1.28';
    expect(ns.metadata.name).toBe(namespace);
    expect(ns.metadata.labels['pod-security.kubernetes.io/enforce-version']).toBe(version === 'latest' ? 'latest' : `v${version.replace(/^v/, '')}`);
  }
}

/** every host privilege in the pod spec has its reason in the annotation, and every reason given is recorded as given. */
function checkHostAccessRecorded(c: AgentCase, manifests: any[]): void {
  const ds = only(manifests, 'DaemonSet');
  const recorded = HostAccessReasons.parse(ds.metadata.annotations);
  const given = reasonsGiven(c.props);
  expect(recorded).toHaveLength(given.length);
  expect(recorded).toEqual(expect.arrayContaining(given));
  const withReason = new Set(containersOf(c.props)
    .flatMap((x) => (x.options.hostMounts ?? []).filter((m) => m.reason !== undefined).map((m) => HostAccess.normalizePath(m.hostPath))));
  for (const item of HostAccess.of(ds.spec.template.spec)) {
    // a read-only host mount needs no reason; when one was given, it is recorded
    if (item.type === HostAccessType.HOST_PATH && item.readOnly && !withReason.has(item.path!)) continue;
    // a container port on the host network is explained by the hostNetwork's reason
    if (item.viaHostNetwork) continue;
    if (!HostAccessReasons.find(recorded, item.type, item.detail, item.container)) {
      fail(`${item.type} ${item.detail} (container ${item.container}) is in the pod spec but not in ${HostAccessReasons.ANNOTATION}: ${JSON.stringify(recorded)}`);
    }
  }
}

// ------------------------------------------------------------------ valid props

describe('random valid props', () => {
  test('synthesize schema-valid, byte-identical YAML that keeps every value set and records every host privilege', () => {
    fc.assert(fc.property(agentCase, (c) => {
      const app = new App({ outdir: OUTDIR });
      const { chart } = build(c, app);
      const manifests = synthValid(chart);
      // deterministic: a fresh app with the same props writes the same bytes
      const yaml = app.synthYaml();
      expect(yamlOf(c)).toBe(yaml);
      // the YAML on disk says what the manifests say (YAML 1.1, as cdk8s writes it and kubectl reads it)
      expect(YAML.parseAllDocuments(yaml, { version: '1.1' }).map((d) => d.toJS())).toEqual(manifests);
      checkKeepsValues(c, manifests);
      checkHostAccessRecorded(c, manifests);
    }), { numRuns: runs(50) });
  });

  test('without acknowledgements, fail only on security-review findings, each with the construct path', () => {
    fc.assert(fc.property(agentCase, (c) => {
      const { chart } = build(c, undefined, false);
      try {
        synthValid(chart);
      } catch (e) {
        const lines = (e as Error).message.split('\n');
        expect(lines[0]).toBe('Validation failed with the following errors:');
        for (const line of lines.slice(1)) {
          expect(line.startsWith(`  [test/${c.id}] security review: `)).toBe(true);
          expect(line).toMatch(/ security review: \[(high|critical)\] [A-Za-z0-9-]+: .*agent\.acknowledge\('[A-Za-z0-9-]+', 'reason'(, '[a-z0-9-]+')?\)/);
        }
      }
    }), { numRuns: runs(30) });
  });
});

describe('the shortcuts synthesis takes give what the long way gives', () => {
  test('the Pod Security level, read from the agent without rendering, is the level of the pod spec it renders', () => {
    fc.assert(fc.property(agentCase, (c) => {
      const { chart, agent } = build(c);
      const daemonSet = only(synthValid(chart), 'DaemonSet');
      expect(agent.podSecurityLevel).toEqual(PodSecurity.evaluateWorkload(daemonSet, { version: agent.podSecurityVersion }).level);
    }), { numRuns: runs(40) });
  });

  test('the same holds for agents without host access, where the pod annotations decide (AppArmor)', () => {
    // random agents nearly always take some host privilege, which makes them privileged whatever the annotations
    const lean = fc.record({
      version: fc.constantFrom(...PSA_VERSIONS),
      appArmor: fc.constantFrom('unconfined', 'runtime/default', 'localhost/agent-profile'),
      capability: fc.constantFrom(undefined, Capability.CHOWN, Capability.NET_BIND_SERVICE),
    });
    fc.assert(fc.property(lean, ({ version, appArmor, capability }) => {
      const chart = new Chart(new App({ outdir: OUTDIR }), 'test');
      const agent = new NodeAgent(chart, 'agent', {
        image: IMAGE,
        podSecurityVersion: version,
        podAnnotations: { 'container.apparmor.security.beta.kubernetes.io/agent': appArmor },
        capabilities: capability === undefined ? undefined : [{ capability, reason: 'a test capability' }],
        runAsRoot: capability === undefined ? undefined : { reason: 'the added capability takes effect only for root' },
      });
      acknowledgeAll(agent);
      const daemonSet = only(synthValid(chart), 'DaemonSet');
      expect(agent.podSecurityLevel).toEqual(PodSecurity.evaluateWorkload(daemonSet, { version }).level);
    }), { numRuns: runs(40) });
  });

  test('the synth-time gate finds exactly the open findings of the full review, at every threshold', () => {
    fc.assert(fc.property(agentCase, fc.boolean(), (c, acknowledge) => {
      const { agent } = build(c, undefined, acknowledge);
      // the agent's own objects, as its check reviews them (the shared Namespace is no part of it)
      const objects = agent.node.findAll().filter((o): o is ApiObject => ApiObject.isApiObject(o)).map(renderUnchecked);
      const options = { podSecurityVersion: agent.podSecurityVersion, allowedRegistries: c.props.allowedRegistries };
      const full = SecurityReview.review(objects, options);
      // what lets the gate skip the rules below its threshold: no rule crashes on what an agent renders
      const crashes = full.workloads.flatMap((w) => w.findings).filter((f) => f.rule === SecurityReview.ERROR_RULE || f.message.includes('could not evaluate it'));
      expect(crashes).toEqual([]);
      // the gate skips the rules rated below its threshold: a finding it reports lists only the merged rules that ran
      // (a rule below the threshold never decides a finding at or above it: not its severity, nor its acknowledgement)
      const withoutMerged = (findings: Finding[]) => findings.map(
        ({ mergedRules: _merged, rules: _rules, unacceptedAcknowledgements: _lesser, ...f }) => f);
      for (const threshold of Object.values(Severity)) {
        const open = withoutMerged(SecurityReview.openFindings(full, threshold));
        expect(withoutMerged(SecurityReview._openFindings(objects, options, threshold, true))).toEqual(open);
        expect(withoutMerged(SecurityReview._openFindings(objects, options, threshold, false))).toEqual(open);
      }
    }), { numRuns: runs(40) });
  });
});

// ------------------------------------------------------------------ invalid props

/** one invalid change to valid props, and the field the error must name. */
interface Mutation {
  readonly what: string;
  readonly field: RegExp;
  readonly apply: (p: NodeAgentProps) => NodeAgentProps;
  /**
   * Set when the value class's factory rejects the change as the value is built (HostMount, Toleration, NodeRequirement,
   * AgentUpdateStrategy validate their own arguments): the error then starts with the factory's name, not the construct path.
   */
  readonly factory?: string;
}

const M = (what: string, field: RegExp, apply: (p: NodeAgentProps) => NodeAgentProps): Mutation => ({ what, field, apply });
const F = (factory: string, what: string, field: RegExp, apply: (p: NodeAgentProps) => NodeAgentProps): Mutation => ({ what, field, apply, factory });

const BAD_IMAGES = ['', '   ', 'nginx', 'registry.example.com/node-agent', 'nginx:latest', 'registry.example.com/agent:latest', 'Nginx:1.0',
  'nginx:1.0@sha256:short', 'a//b:1', 'nginx:-1', 'nginx:', 'http://registry.example.com/agent:1', 'agent:1 ', `agent:${'x'.repeat(129)}`, 'localhost:5000/agent'];
const BAD_PATHS = ['var/log', '', 'relative', './x', '/var/../etc', '/var/./log', '/var//log', '/..', '~/x'];
const BAD_LABEL_KEYS = ['', 'a b', '-a', 'a-', '/a', 'a/', 'a/b/c', 'Example.COM/x', `${'k'.repeat(64)}`, `${'p'.repeat(254)}/x`, 'ü', 'a\nb'];
const BAD_LABEL_VALUES = ['a b', '-a', 'a-', '.a', 'a/b', `${'v'.repeat(64)}`, 'ü', 'a\nb'];
const BAD_NAMES = ['Node_Agent', 'UPPER', '-a', 'a-', 'a.b', `${'n'.repeat(64)}`, '', 'a b'];
const BAD_SUBDOMAINS = ['Node_1', 'UPPER', '-a', 'a..b', '.a', '', 'a b', `${'p'.repeat(254)}`];
const BLANK_REASONS = ['', ' ', '\t'];
const MULTILINE_REASONS = ['first\nsecond', 'a\r\nb', 'carriage\rreturn', '\nleading'];
const SECOND = 'mutation-second';
/** a mount path no generated case uses (generated paths are lower case). */
const FREE = '/MUTATION/path';

const mainName = (p: NodeAgentProps) => p.containerName ?? 'agent';
const withSidecar = (p: NodeAgentProps, s: Partial<AgentContainerProps>) => ({
  ...p,
  sidecars: [...p.sidecars ?? [], { name: SECOND, image: IMAGE, ...s }],
});
const withMount = (p: NodeAgentProps, ...mounts: HostMount[]) => ({ ...p, hostMounts: [...p.hostMounts ?? [], ...mounts] });
const withToleration = (p: NodeAgentProps, t: Toleration) => ({ ...p, tolerations: [...p.tolerations ?? [], t] });
const withPort = (p: NodeAgentProps, port: any) => ({ ...p, ports: [{ name: 'mutation', containerPort: 8080 }, port], service: undefined });
const required = (...requirements: NodeRequirement[]) => [{ requirements }];
const rolling = (maxUnavailable?: PercentOrAbsolute, maxSurge?: PercentOrAbsolute) => AgentUpdateStrategy.rollingUpdate({ maxUnavailable, maxSurge });
const ALL_TYPES = Object.values(HostPathVolumeType);
const ROLLING = 'AgentUpdateStrategy.rollingUpdate';

/** mutations the library rejects as it should. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // images
  fc.constantFrom(...BAD_IMAGES).map((i) => M(`image ${JSON.stringify(i)}`, /\bimage\b/, (p) => ({ ...p, image: i }))),
  fc.constantFrom(...BAD_IMAGES).map((i) => M(`sidecar image ${JSON.stringify(i)}`, new RegExp(`sidecars\\[${SECOND}\\]\\.image`), (p) => withSidecar(p, { image: i }))),
  fc.constantFrom(...BAD_IMAGES).map((i) => M(`init image ${JSON.stringify(i)}`, new RegExp(`initContainers\\[${SECOND}\\]\\.image`), (p) => ({ ...p, initContainers: [...p.initContainers ?? [], { name: SECOND, image: i }] }))),
  fc.constant(M('an image from a registry not allowed', /image .*allowedRegistries/, (p) => ({ ...p, allowedRegistries: ['only.example.com'] }))),
  // host paths
  fc.tuple(fc.constantFrom(...BAD_PATHS), fc.boolean()).map(([hp, rw]) => F(`HostMount.${rw ? 'readWrite' : 'readOnly'}`, `host path ${JSON.stringify(hp)}`, / host path /,
    (p) => withMount(p, rw ? HostMount.readWrite(hp, 'writes', { mountPath: FREE }) : HostMount.readOnly(hp, { reason: 'r', mountPath: FREE })))),
  fc.constantFrom(...BAD_PATHS).map((mp) => F('HostMount.readOnly', `mountPath ${JSON.stringify(mp)}`, /\("\/MUTATION"\) mountPath/, (p) => withMount(p, HostMount.readOnly('/MUTATION', { reason: 'r', mountPath: mp })))),
  fc.constantFrom(...BAD_PATHS).map((d) => M(`scratch dir ${JSON.stringify(d)}`, /scratchDirs\[/, (p) => ({ ...p, scratchDirs: [...p.scratchDirs ?? [], d] }))),
  fc.constantFrom(...BAD_PATHS).map((d) => M(`configMountPath ${JSON.stringify(d)}`, /configMountPath/, (p) => ({ ...p, configFiles: { 'a.conf': 'x' }, configMountPath: d }))),
  fc.constantFrom(FREE, `${FREE}/`).map((second) => M(`a mount path used twice (${second})`, /already used/,
    (p) => withMount(p, HostMount.readOnly('/MUTATION/a', { reason: 'r', mountPath: FREE }), HostMount.readOnly('/MUTATION/b', { reason: 'r', mountPath: second })))),
  fc.constant(M('a scratch dir on a mount path', /(hostMounts|scratchDirs)\[\/MUTATION\/path\].*already used/, (p) => ({ ...withMount(p, HostMount.readOnly(FREE, { reason: 'r' })), scratchDirs: [...p.scratchDirs ?? [], FREE] }))),
  fc.constantFrom('Bad_Volume', 'a.b', `${'v'.repeat(64)}`).map((v) => F('HostMount.readOnly', `volumeName ${v}`, /volumeName/, (p) => withMount(p, HostMount.readOnly(FREE, { reason: 'r', volumeName: v })))),
  fc.constant(M('Bidirectional without privileged', /Bidirectional/, (p) => ({
    ...withMount({ ...p, hostMounts: (p.hostMounts ?? []).filter((m) => m.propagation !== MountPropagation.BIDIRECTIONAL) }, HostMount.readOnly(FREE, { reason: 'r', propagation: MountPropagation.BIDIRECTIONAL, volumeName: 'mutation' })),
    privileged: undefined,
  }))),
  // reasons: blank or on several lines, on every privilege that takes one
  fc.tuple(fc.constantFrom(...BLANK_REASONS, ...MULTILINE_REASONS), fc.constantFrom('hostNetwork', 'hostPID', 'hostIPC', 'privileged', 'runAsRoot')).map(([r, f]) =>
    M(`${f} reason ${JSON.stringify(r)}`, new RegExp(`\\b${f}\\b`), (p) => ({ ...p, [f]: { reason: r }, runAsUser: undefined }))),
  fc.constantFrom(...BLANK_REASONS, ...MULTILINE_REASONS).map((r) => M(`capability reason ${JSON.stringify(r)}`, /capabilities/,
    (p) => ({ ...p, capabilities: [{ capability: Capability.NET_ADMIN, reason: r }] }))),
  fc.constantFrom(...BLANK_REASONS, ...MULTILINE_REASONS).map((r) => F('HostMount.readWrite', `read-write mount reason ${JSON.stringify(r)}`, /\("\/MUTATION\/path"\) \(read-write\)/, (p) => withMount(p, HostMount.readWrite(FREE, r)))),
  fc.constantFrom(...BLANK_REASONS, ...MULTILINE_REASONS).map((r) => F('HostMount.readOnly', `read-only mount reason ${JSON.stringify(r)}`, /\("\/MUTATION\/path"\)/, (p) => withMount(p, HostMount.readOnly(FREE, { reason: r })))),
  fc.constantFrom(...BLANK_REASONS, ...MULTILINE_REASONS).map((r) => M(`hostPort reason ${JSON.stringify(r)}`, /ports\[mutation-host\]\.hostPort/, (p) => withPort(p, { name: 'mutation-host', containerPort: 9, hostPort: { port: 9, reason: r } }))),
  fc.constantFrom(...BLANK_REASONS, ...MULTILINE_REASONS).map((r) => M(`sidecar privileged reason ${JSON.stringify(r)}`, new RegExp(`sidecars\\[${SECOND}\\]\\.privileged`), (p) => withSidecar(p, { privileged: { reason: r } }))),
  // labels and names
  fc.constantFrom(...BAD_LABEL_KEYS).map((k) => M(`nodeSelector key ${JSON.stringify(k)}`, /nodeSelector/, (p) => ({ ...p, nodeSelector: { ...p.nodeSelector, [k]: 'x' } }))),
  fc.constantFrom(...BAD_LABEL_VALUES).map((v) => M(`nodeSelector value ${JSON.stringify(v)}`, /nodeSelector\.mutation/, (p) => ({ ...p, nodeSelector: { ...p.nodeSelector, mutation: v } }))),
  fc.constantFrom(...BAD_LABEL_KEYS).map((k) => M(`label key ${JSON.stringify(k)}`, /labels/, (p) => ({ ...p, labels: { ...p.labels, [k]: 'x' } }))),
  fc.constantFrom(...BAD_LABEL_VALUES).map((v) => M(`label value ${JSON.stringify(v)}`, /labels\.mutation/, (p) => ({ ...p, labels: { ...p.labels, mutation: v } }))),
  fc.constantFrom('app.kubernetes.io/name', 'app.kubernetes.io/managed-by').map((k) => M(`label ${k}`, /labels: "app\.kubernetes\.io/, (p) => ({ ...p, labels: { ...p.labels, [k]: 'x' } }))),
  fc.constantFrom(...BAD_LABEL_KEYS).map((k) => M(`pod annotation key ${JSON.stringify(k)}`, /podAnnotations/, (p) => ({ ...p, podAnnotations: { ...p.podAnnotations, [k]: 'x' } }))),
  fc.constantFrom(...BAD_LABEL_KEYS).map((k) => M(`service annotation key ${JSON.stringify(k)}`, /service\.annotations/, (p) => ({ ...withPort(p, { name: 'other', containerPort: 9 }), service: { ports: ['mutation'], annotations: { [k]: 'x' } } }))),
  fc.constantFrom(...BAD_LABEL_KEYS).map((k) => F('Toleration.exists', `toleration key ${JSON.stringify(k)}`, /key/, (p) => withToleration(p, Toleration.exists(k)))),
  fc.constantFrom(...BAD_LABEL_VALUES).map((v) => F('Toleration.equal', `toleration value ${JSON.stringify(v)}`, /\("mutation"\) value/, (p) => withToleration(p, Toleration.equal('mutation', v)))),
  fc.constantFrom(...BAD_LABEL_KEYS).map((k) => F('NodeRequirement.exists', `affinity key ${JSON.stringify(k)}`, /key/, (p) => ({ ...p, requiredNodeAffinity: required(NodeRequirement.exists(k)) }))),
  fc.constantFrom(...BAD_LABEL_VALUES).map((v) => F('NodeRequirement.isIn', `affinity value ${JSON.stringify(v)}`, /\("zone"\) value/, (p) => ({ ...p, requiredNodeAffinity: required(NodeRequirement.isIn('zone', ['a', v])) }))),
  fc.constantFrom(...BAD_SUBDOMAINS).map((n) => F('NodeRequirement.notNamed', `node name ${JSON.stringify(n)}`, /node name/, (p) => ({ ...p, requiredNodeAffinity: required(NodeRequirement.notNamed(n)) }))),
  fc.constantFrom(...BAD_NAMES).map((n) => M(`name ${JSON.stringify(n)}`, /\bname "/, (p) => ({ ...p, name: n }))),
  fc.constantFrom(...BAD_NAMES).map((n) => M(`namespace ${JSON.stringify(n)}`, /namespace "/, (p) => ({ ...p, namespace: n }))),
  fc.constantFrom(...BAD_NAMES).map((n) => M(`sidecar name ${JSON.stringify(n)}`, /sidecars\[.*\]\.name/, (p) => ({ ...p, sidecars: [{ name: n, image: IMAGE }] }))),
  fc.constantFrom(...BAD_SUBDOMAINS).map((n) => M(`priorityClassName ${n}`, /priorityClassName/, (p) => ({ ...p, priorityClassName: n }))),
  // placement
  fc.constant(M('an empty requiredNodeAffinity', /requiredNodeAffinity is empty/, (p) => ({ ...p, requiredNodeAffinity: [] }))),
  fc.constant(M('a term without requirements', /preferredNodeAffinity\[0\] has no requirements/, (p) => ({ ...p, preferredNodeAffinity: [{ weight: 1, requirements: [] }] }))),
  fc.constantFrom('isIn', 'notIn').map((op) => F(`NodeRequirement.${op}`, `${op} without values`, /\("zone"\) needs at least one value/, (p) => ({ ...p, requiredNodeAffinity: required((NodeRequirement as any)[op]('zone', [])) }))),
  fc.tuple(fc.constantFrom(1.5, NaN, Infinity, -Infinity, 2 ** 60), fc.boolean()).map(([n, gt]) => F(`NodeRequirement.${gt ? 'greaterThan' : 'lessThan'}`, `${gt ? 'Gt' : 'Lt'} ${n}`, /(Gt|Lt) on "cores"/,
    (p) => ({ ...p, requiredNodeAffinity: required(gt ? NodeRequirement.greaterThan('cores', n) : NodeRequirement.lessThan('cores', n)) }))),
  fc.constantFrom(0, -1, 101, 1000, 1.5, NaN).map((w) => M(`weight ${w}`, /preferredNodeAffinity\[0\]\.weight/, (p) => ({ ...p, preferredNodeAffinity: [{ weight: w, requirements: [NodeRequirement.exists('x')] }] }))),
  fc.constantFrom(TaintEffect.NO_SCHEDULE, TaintEffect.PREFER_NO_SCHEDULE, undefined).map((e) => F('Toleration.exists', `evictAfter with effect ${e}`, /\("mutation"\): evictAfter/,
    (p) => withToleration(p, Toleration.exists('mutation', { effect: e, evictAfter: Duration.seconds(30) })))),
  fc.constant(M('a toleration given twice', /tolerations: .*given twice/, (p) => withToleration(withToleration(p, Toleration.exists('mutation')), Toleration.exists('mutation')))),
  // rollout
  fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 100 }), fc.boolean()).map(([u, s, pct]) => F(ROLLING, 'maxUnavailable and maxSurge both non-zero', /rollingUpdate: .*maxSurge/,
    (p) => ({ ...p, updateStrategy: rolling(pct ? PercentOrAbsolute.percent(s) : PercentOrAbsolute.absolute(u), PercentOrAbsolute.absolute(s)) }))),
  fc.constantFrom(
    [PercentOrAbsolute.absolute(0), undefined],
    [PercentOrAbsolute.percent(0), PercentOrAbsolute.absolute(0)],
    [PercentOrAbsolute.absolute(0), PercentOrAbsolute.percent(0)],
  )
    .map(([u, s]) => F(ROLLING, 'maxUnavailable and maxSurge both zero', /rollingUpdate: maxUnavailable cannot be 0/, (p) => ({ ...p, updateStrategy: rolling(u, s) }))),
  fc.tuple(fc.integer({ min: 101, max: 100000 }), fc.boolean()).map(([n, surge]) => F(ROLLING, `${n}%`, new RegExp(`rollingUpdate: .*${n}%`),
    (p) => ({
      ...p,
      updateStrategy: surge ? rolling(PercentOrAbsolute.absolute(0), PercentOrAbsolute.percent(n)) : rolling(PercentOrAbsolute.percent(n)),
    }))),
  fc.integer({ min: -1000, max: -1 }).map((n) => F(ROLLING, `a budget of ${n}`, /rollingUpdate: maxUnavailable/, (p) => ({ ...p, updateStrategy: rolling(PercentOrAbsolute.absolute(n)) }))),
  fc.constantFrom(-1, 1.5, 2 ** 31).map((n) => M(`revisionHistoryLimit ${n}`, /revisionHistoryLimit/, (p) => ({ ...p, revisionHistoryLimit: n }))),
  // containers
  fc.constantFrom(0, -1, 1.5, 2 ** 31).map((u) => M(`runAsUser ${u}`, /runAsUser/, (p) => ({ ...p, runAsUser: u, runAsRoot: undefined }))),
  fc.constantFrom(0, -1).map((u) => M(`sidecar runAsUser ${u}`, new RegExp(`sidecars\\[${SECOND}\\]\\.runAsUser`), (p) => withSidecar(p, { runAsUser: u }))),
  fc.constant(M('runAsUser and runAsRoot', /runAsUser \(1000\) and runAsRoot/, (p) => ({ ...p, runAsUser: 1000, runAsRoot: { reason: 'r' } }))),
  fc.constantFrom(-1, 1.5).map((g) => M(`runAsGroup ${g}`, /runAsGroup/, (p) => ({ ...p, runAsGroup: g }))),
  fc.constantFrom(-1, 1.5).map((g) => M(`fsGroup ${g}`, /fsGroup/, (p) => ({ ...p, fsGroup: g }))),
  fc.constantFrom('sidecars', 'initContainers').map((list) => M(`a ${list} entry named like the main container`, new RegExp(`${list}: container name`),
    (p) => ({ ...p, [list]: [...(p as any)[list] ?? [], { name: mainName(p), image: IMAGE }] }))),
  fc.constant(M('an init container named like a sidecar', /sidecars: container name "mutation-second"/, (p) => ({ ...p, initContainers: [{ name: SECOND, image: IMAGE }], sidecars: [{ name: SECOND, image: IMAGE }] }))),
  fc.constantFrom(0, -1, 65536, 1.5, NaN).map((n) => M(`containerPort ${n}`, /ports\[mutation-bad\]\.containerPort/, (p) => withPort(p, { name: 'mutation-bad', containerPort: n }))),
  fc.constantFrom(0, -1, 65536, 1.5).map((n) => M(`hostPort ${n}`, /ports\[mutation-host\]\.hostPort\.port/, (p) => withPort(p, { name: 'mutation-host', containerPort: 9, hostPort: { port: n, reason: 'r' } }))),
  fc.constantFrom('', 'UPPER', '123', 'a_b', 'sixteen-chars-xx', '-a').map((n) => M(`port name ${JSON.stringify(n)}`, /ports: port name/, (p) => withPort(p, { name: n, containerPort: 9 }))),
  fc.constant(M('a port name used twice', /ports: port name "mutation" is used twice/, (p) => withPort(p, { name: 'mutation', containerPort: 9 }))),
  fc.constant(M('a port number used twice', /ports: 8080\/TCP is declared twice/, (p) => withPort(p, { name: 'again', containerPort: 8080, protocol: Protocol.TCP }))),
  fc.constant(M('a capability listed twice', /capabilities: NET_ADMIN is listed twice/, (p) => ({ ...p, capabilities: [{ capability: 'NET_ADMIN' as any, reason: 'a' }, { capability: 'NET_ADMIN' as any, reason: 'b' }] }))),
  fc.constantFrom('ALL', 'net_admin', 'CAP_NET_ADMIN ', '').map((cap) => M(`capability ${JSON.stringify(cap)}`, /capabilities/, (p) => ({ ...p, capabilities: [{ capability: cap as any, reason: 'r' }] }))),
  fc.constantFrom('NODE_NAME', 'POD_NAME', 'POD_NAMESPACE', '1BAD', 'A=B', '', 'with space').map((n) => M(`env ${JSON.stringify(n)}`, /env\./, (p) => ({ ...p, env: { [n]: 'x' } }))),
  fc.constantFrom(1, 255).map((lim) => M(`a memory limit of ${lim}Mi below the request`, /resources: memoryLimit/, (p) => ({ ...p, resources: { memoryRequest: Size.mebibytes(256), memoryLimit: Size.mebibytes(lim) } }))),
  fc.constantFrom(Cpu.millis(1), Cpu.millis(999), Cpu.units(0.5)).map((lim) => M(`a CPU limit of ${lim.amount} below the request`, /resources: cpuLimit/, (p) => ({ ...p, resources: { cpuRequest: Cpu.units(1), cpuLimit: lim } }))),
  // probes
  fc.tuple(fc.constantFrom('liveness', 'readiness', 'startup'), fc.constantFrom(
    AgentProbe.httpGet('healthz', { port: 80 }), AgentProbe.httpGet('/', { port: 80, scheme: 'FTP' }), AgentProbe.httpGet('/', { port: 0 }),
    AgentProbe.tcpSocket(70000), AgentProbe.exec([]), AgentProbe.tcpSocket(80, { failureThreshold: 0 }),
    AgentProbe.tcpSocket(80, { period: Duration.seconds(0) }),
    AgentProbe.tcpSocket(80, { timeout: Duration.seconds(0) }),
  )).map(([kind, pr]) => M(`a bad ${kind} probe`, /\bprobe\b/, (p) => ({ ...p, [kind]: pr }))),
  fc.constantFrom('liveness', 'readiness', 'startup').map((kind) => M(`an init container ${kind} probe`, new RegExp(`initContainers\\[${SECOND}\\]\\.probes`),
    (p) => ({ ...p, initContainers: [{ name: SECOND, image: IMAGE, [kind]: AgentProbe.tcpSocket(80) }] }))),
  // config, service, permissions
  fc.constant(M('empty configFiles', /configFiles is empty/, (p) => ({ ...p, configFiles: {} }))),
  fc.constantFrom('../x', 'a/b', '.', '..', 'with space', '').map((f) => M(`config file ${JSON.stringify(f)}`, /configFiles: /, (p) => ({ ...p, configFiles: { [f]: 'x' } }))),
  fc.constant(M('configMountPath without configFiles', /configMountPath is set but configFiles is not/, (p) => ({ ...p, configFiles: undefined, configMountPath: '/etc/x' }))),
  fc.constant(M('a service without ports', /service\.ports is empty/, (p) => ({ ...p, service: { ports: [] } }))),
  fc.constant(M('a service on an undeclared port', /service\.ports: "mutation-none"/, (p) => ({ ...p, service: { ports: ['mutation-none'] } }))),
  fc.tuple(fc.constantFrom('clusterPermissions', 'namespacePermissions'), fc.constantFrom(
    { resources: ['pods'], verbs: [] }, { resources: [], verbs: ['get'] }, { resources: ['pods'], verbs: ['get'], resourceNames: [] },
  )).map(([f, rule]) => M(`${f} ${JSON.stringify(rule)}`, new RegExp(f), (p) => ({ ...p, [f]: [...(p as any)[f] ?? [], rule] }))),
);

/** the error thrown by building and synthesizing, or undefined. */
function errorOf(c: AgentCase, props: NodeAgentProps): unknown {
  try {
    const chart = new Chart(new App({ outdir: OUTDIR }), 'test', { namespace: c.chartNamespace });
    // findings accepted, so that only the change under test can fail the synth
    acknowledgeAll(new NodeAgent(chart, c.id, props));
    synthValid(chart);
    return undefined;
  } catch (e) {
    return e;
  }
}

/**
 * An `Error` (not a TypeError or other crash) whose message starts with the construct path, or, for checks
 * run at synth, the validation report cdk8s and `synthValid` print: one `[<path>] ...` line per error. A mutation that a
 * value class's factory rejects fails as the props are built, with an error that starts with the factory's name.
 */
function checkMutation(c: AgentCase, m: Mutation, base: NodeAgentProps): void {
  let props: NodeAgentProps;
  try {
    props = m.apply(base);
  } catch (e) {
    if (m.factory === undefined) fail(`${m.what}: building the props failed before the construct: ${(e as any)?.message ?? e}`);
    checkRejection(e, m.factory, m.field, m.what);
    return;
  }
  if (m.factory !== undefined) fail(`${m.what}: ${m.factory} accepted it`);
  checkRejection(errorOf(c, props), `[test/${c.id}] `, m.field, m.what);
}

function checkRejection(e: unknown, prefix: string, field: RegExp, what: string): void {
  if (e === undefined) fail(`${what}: accepted silently`);
  if (!(e instanceof Error) || e.constructor !== Error) fail(`${what}: crashed with ${(e as any)?.constructor?.name}: ${(e as any)?.message ?? e}`);
  const validation = 'Validation failed with the following errors:\n';
  const lines = e.message.startsWith(validation) ? e.message.slice(validation.length).split('\n').map((l) => l.trim()) : [e.message];
  if (!lines.every((l) => l.startsWith(prefix))) fail(`${what}: the error does not start with ${prefix}: ${e.message}`);
  if (!field.test(e.message)) fail(`${what}: the error does not name the field (${field}): ${e.message}`);
}

describe('random invalid props (one invalid change to valid props)', () => {
  test('fail with an Error that starts with the construct path and names the field', () => {
    fc.assert(fc.property(agentCase, mutation, (c, m) => {
      // registries are left open so that the containers some mutations add are judged on what the mutation breaks
      checkMutation(c, m, { ...c.props, allowedRegistries: undefined });
    }), { numRuns: runs(400) });
  });
});

// ------------------------------------------------------------------ regressions these properties found (all fixed)

const smallCase = fc.record({ id: dnsLabel(20) }).map(({ id }): AgentCase => ({ id, props: { image: IMAGE } }));

describe('regressions (fixed): invalid props rejected with the construct path and the field', () => {
  /** one known bug: where it is, what goes wrong, and the mutations that show it. */
  const knownBugs: Array<[string, fc.Arbitrary<Mutation>]> = [
    // REGRESSION, fixed (was in src/agent/_container.ts checkProbe; node-agent.ts addToleration, minReady, terminationGracePeriod):
    // a Duration that is not a whole number of seconds goes through cdk8s' Duration.toSeconds() before the library's
    // own check, which throws cdk8s' bare "'1500 millis' cannot be converted into a whole number of seconds." with
    // neither the construct path nor the field. Minimal: liveness: AgentProbe.tcpSocket(80, { timeout: Duration.millis(1500) }).
    ['a Duration that is not a whole number of seconds', fc.oneof(
      fc.tuple(fc.constantFrom('liveness', 'readiness', 'startup'), fc.constantFrom('timeout', 'period', 'initialDelay'), fc.integer({ min: 1, max: 999 }))
        .map(([kind, option, ms]) => M(`${kind} probe ${option} ${1000 + ms}ms`, new RegExp(`probe ${option}`),
          (p) => ({ ...p, [kind]: AgentProbe.tcpSocket(80, { [option]: Duration.millis(1000 + ms) }) }))),
      fc.integer({ min: 1, max: 999 }).map((ms) => F('Toleration.exists', `evictAfter ${1000 + ms}ms`, /\("mutation"\) evictAfter/,
        (p) => withToleration(p, Toleration.exists('mutation', { effect: TaintEffect.NO_EXECUTE, evictAfter: Duration.millis(1000 + ms) })))),
      fc.constantFrom('minReady', 'terminationGracePeriod').map((f) => M(`${f} 1500ms`, new RegExp(f), (p) => ({ ...p, [f]: Duration.millis(1500) }))),
    )],
    // REGRESSION, fixed (was in src/agent/_container.ts checkResources): the same for a memory Size that is not a whole number of MiB:
    // cdk8s' bare "'1536 kibibytes' cannot be converted into a whole number of mebibytes." (1536Ki is a valid quantity).
    // Minimal: resources: { memoryRequest: Size.kibibytes(1536) }.
    ['a memory Size that is not a whole number of MiB', fc.tuple(fc.integer({ min: 1, max: 1023 }), fc.boolean())
      .map(([ki, limit]) => M(`memory ${limit ? 'limit' : 'request'} ${1024 + ki}Ki`, /resources/,
        (p) => ({ ...p, resources: limit ? { memoryLimit: Size.kibibytes(1024 * 512 + ki) } : { memoryRequest: Size.kibibytes(1024 + ki) } })))],
    // REGRESSION, fixed (was in src/agent/node-agent.ts constructor): an invalid podSecurityVersion fails inside the model
    // ("pod security version must be ...") without the construct path or the prop name. Minimal: podSecurityVersion: 'v-next'.
    ['an invalid podSecurityVersion', fc.constantFrom('v-next', '1.2', 'v2.0', '', 'LATEST')
      .map((v) => M(`podSecurityVersion ${JSON.stringify(v)}`, /podSecurityVersion/, (p) => ({ ...p, podSecurityVersion: v })))],
    // REGRESSION, fixed (was in src/agent/_container.ts AgentContainer constructor): a bad containerName is reported as
    // `name "Node_Agent" is not a valid name`, which names the agent's `name` prop, not `containerName`.
    // Minimal: containerName: 'Node_Agent'.
    ['an invalid containerName', fc.constantFrom(...BAD_NAMES)
      .map((n) => M(`containerName ${JSON.stringify(n)}`, /containerName/, (p) => ({ ...p, containerName: n })))],
    // REGRESSION, fixed (was in src/agent/node-agent.ts renderVolumes): one host path mounted with two types by two containers is only
    // found while rendering, so cdk8s wraps the message: "Failed serializing construct at path 'test/x/Resource' with name
    // 'x': Error: [test/x] host mounts: ...". Minimal: hostMounts: [HostMount.readOnly('/x', { reason: 'r' })], sidecars: [{ name: 's',
    // image, hostMounts: [HostMount.readOnly('/x', { reason: 'r', type: HostPathVolumeType.FILE })] }].
    ['one host path with two types in two containers', fc.tuple(fc.constantFrom(...ALL_TYPES), fc.constantFrom(...ALL_TYPES))
      .filter(([a, b]) => a !== b)
      .map(([a, b]) => M(`one host path with types ${JSON.stringify(a)} and ${JSON.stringify(b)}`, /host mounts: /, (p) => ({
        ...withMount(p, HostMount.readOnly(FREE, { reason: 'r', type: a })),
        sidecars: [{ name: SECOND, image: IMAGE, hostMounts: [HostMount.readOnly(FREE, { reason: 'r', type: b })] }],
      })))],
  ];

  test.each(knownBugs)('%s fails with an Error that starts with the construct path and names the field', (_, mutations) => {
    fc.assert(fc.property(smallCase, mutations, (c, m) => {
      checkMutation(c, m, c.props);
    }), { numRuns: runs(20) });
  });

  // REGRESSION, fixed (was in src/agent/_image.ts checkImage, _container.ts, node-agent.ts): the library is jsii, so JavaScript callers
  // can pass what the TypeScript types forbid; these crash with a TypeError instead of a clear Error. Minimal:
  // image: null -> TypeError "Cannot read properties of null (reading 'trim')"; minReady: 30 (a number, not a Duration)
  // -> TypeError "props.minReady.toSeconds is not a function".
  test.each([
    M('image: null', /image/, (p) => ({ ...p, image: null as any })),
    M('image: 42', /image/, (p) => ({ ...p, image: 42 as any })),
    M('ports: [null]', /ports/, (p) => ({ ...p, ports: [null as any] })),
    M('minReady: 30', /minReady/, (p) => ({ ...p, minReady: 30 as any })),
    M('terminationGracePeriod: 30', /terminationGracePeriod/, (p) => ({ ...p, terminationGracePeriod: 30 as any })),
    M('resources: { memoryRequest: 128 }', /resources/, (p) => ({ ...p, resources: { memoryRequest: 128 as any } })),
    F('Toleration.exists', 'evictAfter: 300', /evictAfter/, (p) => withToleration(p, Toleration.exists('k', { effect: TaintEffect.NO_EXECUTE, evictAfter: 300 as any }))),
  ].map((m) => [m.what, m] as const))('untyped (JavaScript) input %s fails with an Error that starts with the construct path', (_, m) => {
    fc.assert(fc.property(smallCase, (c) => {
      checkMutation(c, m, c.props);
    }), { numRuns: runs(5) });
  });
});

/** one agent with these props (review findings accepted), synthesized and validated strictly. */
function synthOne(props: Partial<NodeAgentProps>): any[] {
  const chart = new Chart(new App({ outdir: OUTDIR }), 'test');
  acknowledgeAll(new NodeAgent(chart, 'node-agent', { image: IMAGE, ...props }));
  return synthValid(chart);
}

function podSpecOf(manifests: any[]): any {
  return only(manifests, 'DaemonSet').spec.template.spec;
}

/** the volume behind the main container's mount at `mountPath`. */
function volumeAt(manifests: any[], mountPath: string): any {
  const spec = podSpecOf(manifests);
  const vm = spec.containers[0].volumeMounts.find((m: any) => m.mountPath === mountPath);
  return spec.volumes.find((v: any) => v.name === vm.name);
}

describe('regressions found by these properties (fixed)', () => {
  // a host path with a trailing slash passed checkAbsolutePath, but its reason was recorded as "/a/ (read-write)"
  // while the rendered-spec check looked for "/a (read-write)", so synth failed.
  test('a read-write host path with a trailing slash synthesizes with its reason', () => {
    fc.assert(fc.property(absolutePath, reason, (p, r) => {
      const manifests = synthOne({ hostMounts: [HostMount.readWrite(`${p}/`, r)] });
      expect(volumeAt(manifests, `${p}/`).hostPath.path).toBe(`${p}/`);
      expect(HostAccessReasons.parse(only(manifests, 'DaemonSet').metadata.annotations)).toEqual([
        { type: 'hostPath', detail: `${p} (read-write)`, container: 'agent', reason: r.trim() },
      ]);
    }), { numRuns: runs(20) });
  });

  // the namespace pinned `v${psaVersion}`, so the "v1.32" spelling became "vv1.32".
  test('podSecurityVersion "v1.xx" is pinned as v1.xx', () => {
    fc.assert(fc.property(fc.integer({ min: 25, max: 32 }), (minor) => {
      const labels = only(synthOne({ podSecurityVersion: `v1.${minor}` }), 'Namespace').metadata.labels;
      expect(labels['pod-security.kubernetes.io/enforce-version']).toBe(`v1.${minor}`);
    }), { numRuns: runs(8) });
  });
});

describe('regressions (fixed): valid props that failed or lost a value', () => {
  // REGRESSION, fixed (was in src/agent/_container.ts addEnv, node-agent.ts labels check): `name in DOWNWARD_ENV`,
  // `name in this.env` and `k in this.selectorLabels` also see Object.prototype members, so valid names are
  // rejected with a wrong message. Minimal: env: { toString: 'x' } -> "env.toString: toString is set by the agent
  // from the downward API (function toString() { [native code] })"; labels: { valueOf: 'x' } -> "is set by the agent".
  // ('constructor' is left out of labels: cdk8s itself cannot render a map with that key.)
  test('Object.prototype member names are valid env var names', () => {
    fc.assert(fc.property(fc.constantFrom(...PROTOTYPE_NAMES), anyText, (n, value) => {
      const manifests = synthOne({ env: Object.fromEntries([[n, value]]) });
      expect(podSpecOf(manifests).containers[0].env.slice(3)).toEqual([{ name: n, value }]);
    }), { numRuns: runs(16) });
  });

  test('Object.prototype member names are valid label keys', () => {
    fc.assert(fc.property(fc.constantFrom(...PROTOTYPE_NAMES.filter((n) => n !== 'constructor' && n !== '__proto__')), (n) => {
      const manifests = synthOne({ labels: Object.fromEntries([[n, 'x']]) });
      expect(only(manifests, 'DaemonSet').spec.template.metadata.labels[n]).toBe('x');
    }), { numRuns: runs(12) });
  });

  /** turning '-' into '/' can make a '.' or '..' segment ('/a-.-a' -> '/a/./a'), which the library rightly refuses. */
  const hasDotSegment = (p: string) => p.split('/').some((segment) => segment === '.' || segment === '..');

  // REGRESSION, fixed (was in src/agent/_container.ts volumeNameFor, node-agent.ts renderVolumes): derived volume names are a lossy
  // slug of the path (lower-cased, every other character run -> '-', cut at 63), so two different host paths can
  // share one name and synth fails ("volume host-a-b is used for /a-b and /a/b"). Minimal: hostMounts:
  // [HostMount.readOnly('/a-b', { reason: 'r' }), HostMount.readOnly('/a/b', { reason: 'r' })]; also '/Data' and '/data'.
  test('two different host paths get two volumes', () => {
    const twoPaths = fc.oneof(
      absolutePath.filter((p) => p.includes('-') || p.split('/').length > 2).map((p) => [p, p.replace(/-/g, '/').replace(/\/+/g, '/').replace(/\/$/, '')] as const),
      absolutePath.map((p) => [p, p.toUpperCase()] as const),
      fc.tuple(fc.string({ unit: fc.constantFrom('a', 'b'), minLength: 60, maxLength: 60 }), fc.constantFrom('x', 'y')).map(([s, e]) => [`/${s}/a${e}`, `/${s}/b${e}`] as const),
    ).filter(([a, b]) => a !== b && !hasDotSegment(a) && !hasDotSegment(b));
    fc.assert(fc.property(twoPaths, ([a, b]) => {
      const manifests = synthOne({ hostMounts: [HostMount.readOnly(a, { reason: 'r' }), HostMount.readOnly(b, { reason: 'r' })] });
      expect(volumeAt(manifests, a).hostPath.path).toBe(a);
      expect(volumeAt(manifests, b).hostPath.path).toBe(b);
    }), { numRuns: runs(20) });
  });

  // REGRESSION, fixed (was in src/agent/_container.ts scratchVolumes): scratch dirs whose slugs coincide (or whose names are cut at
  // 63 characters) share one emptyDir, silently: what the agent writes to one appears in the other.
  // Minimal: scratchDirs: ['/a-b', '/a/b'] -> both mounts use volume agent-scratch-a-b; also containerName of 43
  // characters with scratchDirs ['/var/lib/state-a', '/var/lib/state-b'].
  test('every scratch dir gets its own emptyDir', () => {
    const twoDirs = fc.oneof(
      absolutePath.filter((p) => p.includes('-')).map((p) => ({ containerName: undefined, dirs: [p, p.replace(/-/g, '/').replace(/\/+/g, '/').replace(/\/$/, '')] })),
      fc.tuple(dnsLabel(63).filter((n) => n.length >= 45), absolutePath).map(([containerName, p]) => ({ containerName, dirs: [`/var/lib/state${p}/a`, `/var/lib/state${p}/b`] })),
    ).filter(({ dirs }) => dirs[0] !== dirs[1] && !dirs.some(hasDotSegment));
    fc.assert(fc.property(twoDirs, ({ containerName, dirs }) => {
      const manifests = synthOne({ containerName, scratchDirs: dirs });
      expect(volumeAt(manifests, dirs[0]).name).not.toBe(volumeAt(manifests, dirs[1]).name);
    }), { numRuns: runs(20) });
  });

  // REGRESSION, fixed (was in src/agent/node-agent.ts renderVolumes): a host mount whose volume name equals one the agent owns
  // ('config' for the config files, '<container>-scratch-<dir>' for scratch dirs) is silently replaced by that
  // volume: the hostPath disappears and the container mounts the ConfigMap / emptyDir instead. Minimal:
  // configFiles: { a: 'b' }, hostMounts: [HostMount.readOnly('/var/log', { reason: 'r', volumeName: 'config' })]. Either reject
  // the name or keep the hostPath.
  test('a host mount keeps its hostPath whatever its volume name, or the name is rejected', () => {
    const clash = fc.constantFrom<{ volumeName?: string; extra: Partial<NodeAgentProps>; hostPath?: string }>(
      { volumeName: 'config', extra: { configFiles: { 'a.conf': 'x' } } },
      { volumeName: 'agent-scratch-tmp', extra: { scratchDirs: ['/tmp'] } },
      { volumeName: undefined, extra: { containerName: 'host', scratchDirs: ['/x'] }, hostPath: '/scratch/x' },
    );
    fc.assert(fc.property(clash, absolutePath, (cl, p) => {
      const hostPath = cl.hostPath ?? `/host${p}`;
      const props = { ...cl.extra, hostMounts: [HostMount.readOnly(hostPath, { reason: 'r', volumeName: cl.volumeName })] };
      const e = errorOf({ id: 'node-agent', props: { image: IMAGE } }, { image: IMAGE, ...props });
      if (e !== undefined) return checkRejection(e, '[test/node-agent] ', /volumeName|host mounts/, 'a clashing volume name');
      expect(volumeAt(synthOne(props), hostPath).hostPath?.path).toBe(hostPath);
    }), { numRuns: runs(20) });
  });

  // REGRESSION, fixed (was in src/agent/node-agent.ts createRbac): the ClusterRole and ClusterRoleBinding are named
  // `${namespace}-${name}`, which two agents can share: namespace 'a-b' with name 'c' and namespace 'a' with name 'b-c'
  // both render ClusterRole 'a-b-c', so one apply overwrites the other's permissions and binding. Minimal: two agents in
  // one chart, { name: 'c', namespace: 'a-b', clusterPermissions } and { name: 'b-c', namespace: 'a', clusterPermissions }.
  test('two agents with different names or namespaces never render two objects with one name', () => {
    const pair = fc.oneof(
      // arbitrary pairs
      fc.tuple(dnsLabel(20), dnsLabel(20), dnsLabel(20), dnsLabel(20)).map(([n1, ns1, n2, ns2]) => [[ns1, n1], [ns2, n2]]),
      // pairs whose `${namespace}-${name}` coincide
      fc.tuple(dnsLabel(10), dnsLabel(10), dnsLabel(10)).map(([x, y, z]) => [[`${x}-${y}`, z], [x, `${y}-${z}`]]),
    ).filter(([[ns1, n1], [ns2, n2]]) => ns1 !== ns2 || n1 !== n2);
    fc.assert(fc.property(pair, ([[ns1, n1], [ns2, n2]]) => {
      const chart = new Chart(new App({ outdir: OUTDIR }), 'test');
      const clusterPermissions = [{ resources: ['pods'], verbs: ['get', 'list', 'watch'] }];
      acknowledgeAll(new NodeAgent(chart, 'one', { image: IMAGE, name: n1, namespace: ns1, clusterPermissions }));
      acknowledgeAll(new NodeAgent(chart, 'two', { image: IMAGE, name: n2, namespace: ns2, clusterPermissions }));
      const manifests = synthValid(chart);
      const byId = new Map<string, any>();
      for (const m of manifests) {
        const id = `${m.kind} ${m.metadata.namespace ?? ''}/${m.metadata.name}`;
        if (byId.has(id) && JSON.stringify(byId.get(id)) !== JSON.stringify(m)) fail(`two different ${id}`);
        byId.set(id, m);
      }
    }), { numRuns: runs(20) });
  });

  // REGRESSION, fixed (was in src/agent/node-agent.ts renderSpec): podAnnotations['checksum/config'] is overwritten by the agent's
  // checksum when configFiles are set, silently. Minimal: podAnnotations: { 'checksum/config': 'mine' },
  // configFiles: { a: 'b' }. Either reject the key or keep the value.
  test('a pod annotation the user sets is kept, or rejected', () => {
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 10 }), (value) => {
      const props = { podAnnotations: { 'checksum/config': value }, configFiles: { 'a.conf': 'x' } };
      const e = errorOf({ id: 'node-agent', props: { image: IMAGE } }, { image: IMAGE, ...props });
      if (e !== undefined) return checkRejection(e, '[test/node-agent] ', /podAnnotations/, 'checksum/config');
      expect(only(synthOne(props), 'DaemonSet').spec.template.metadata.annotations['checksum/config']).toBe(value);
    }), { numRuns: runs(10) });
  });
});

// ------------------------------------------------------------------ values of a wrong type or shape (plain JavaScript)

/**
 * Values of every kind a JavaScript caller can pass where the types say otherwise; made fresh for each use (a list or a
 * map given to one agent must not be shared with the next).
 */
const WRONG_VALUES: Array<() => unknown> = [
  () => null, () => 0, () => 42, () => -1, () => 1.5, () => NaN, () => '', () => 'x y', () => 'TRUE', () => '42', () => 'mutated',
  () => true, () => false, () => ({}), () => ({ a: 1 }), () => [], () => [42], () => ['x'], () => [null], () => [{}],
  () => 10n, () => Symbol('s'), () => () => 1, () => new Date(0), () => new Map([['a', 'b']]),
  () => Duration.seconds(1), () => Size.mebibytes(1), () => Toleration.everything(), () => HostMount.readOnly('/x', { reason: 'r' }),
  () => AgentProbe.tcpSocket(80), () => NodeRequirement.exists('k'),
];

/** the props that are maps of names to strings: their keys are names the user chose, not properties. */
const MAP_PROPS = ['labels', 'podAnnotations', 'nodeSelector', 'env', 'configFiles', 'annotations'];

/** every prop of NodeAgentProps the generated cases may leave out of their objects. */
const OPTIONAL_PROPS = ['runAsUser', 'runAsRoot', 'reviewFailOn'];

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    return proto === Object.prototype || proto === null ? 'object' : `instance of ${(v as any).constructor?.name}`;
  }
  return typeof v;
}

/** one place a value can be changed: a struct's field, a list's item or a map's entry. */
interface Target {
  readonly path: Array<string | number>;
  readonly role: 'field' | 'item' | 'entry';
  readonly value: unknown;
}

/** every place in the props a value can be changed, and every struct a property can be added to. */
function targetsOf(props: NodeAgentProps): { targets: Target[]; structs: Array<Array<string | number>> } {
  const targets: Target[] = [];
  const structs: Array<Array<string | number>> = [[]];
  const walk = (value: unknown, route: Array<string | number>, key?: string | number): void => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        targets.push({ path: [...route, i], role: 'item', value: v });
        walk(v, [...route, i]);
      });
    } else if (kindOf(value) === 'object') {
      if (typeof key === 'string' && MAP_PROPS.includes(key)) {
        for (const [k, v] of Object.entries(value as object)) targets.push({ path: [...route, k], role: 'entry', value: v });
      } else {
        if (route.length > 0) structs.push(route);
        for (const [k, v] of Object.entries(value as object)) {
          targets.push({ path: [...route, k], role: 'field', value: v });
          walk(v, [...route, k], k);
        }
      }
    }
  };
  walk(props, []);
  for (const k of OPTIONAL_PROPS) if (!(k in props)) targets.push({ path: [k], role: 'field', value: undefined });
  return { targets, structs };
}

/** a copy of `root` with the value at `route` set (or, for `deleteIt`, the field removed); copies only along the route. */
function setAt(root: any, route: Array<string | number>, value: unknown, deleteIt = false): any {
  if (route.length === 0) return value;
  const [head, ...rest] = route;
  const copy = Array.isArray(root) ? [...root] : { ...root };
  if (rest.length === 0 && deleteIt) delete copy[head];
  else copy[head] = setAt(root[head], rest, value, deleteIt);
  return copy;
}

/** the field a change is about, as an error must name it: the last property name on the path (for an item, its list's). */
function fieldOf(route: Array<string | number>): string {
  return String([...route].reverse().find((p) => typeof p === 'string') ?? 'props');
}

/** the outcome of building and synthesizing an agent with these props: its YAML, or the error. */
function outcome(c: AgentCase, props: unknown): { yaml?: string; manifests?: any[]; error?: unknown } {
  try {
    const app = new App({ outdir: OUTDIR });
    const chart = new Chart(app, 'test', { namespace: c.chartNamespace });
    acknowledgeAll(new NodeAgent(chart, c.id, props as NodeAgentProps));
    const manifests = synthValid(chart);
    return { yaml: app.synthYaml(), manifests };
  } catch (error) {
    return { error };
  }
}

/** the error is the library's: an Error (no TypeError, RangeError or a dependency's error) with the construct path on each line. */
function checkOwnError(e: unknown, c: AgentCase, what: string): string {
  if (!(e instanceof Error) || e.constructor !== Error) fail(`${what}: crashed with ${(e as any)?.constructor?.name}: ${(e as any)?.message ?? String(e)}`);
  const validation = 'Validation failed with the following errors:\n';
  const lines = e.message.startsWith(validation) ? e.message.slice(validation.length).split('\n').map((l) => l.trim()) : [e.message];
  if (!lines.every((l) => l.startsWith(`[test/${c.id}] `))) fail(`${what}: the error does not start with the construct path: ${e.message}`);
  return e.message;
}

/** a change: where, and the value (or the property added). */
const change = fc.record({
  target: fc.nat(),
  // null one time in four (index 0): "not set" for a field, an error in a list or a map
  value: fc.oneof({ arbitrary: fc.constant(0), weight: 1 }, { arbitrary: fc.nat(WRONG_VALUES.length - 1), weight: 3 }),
  addKey: fc.oneof({ arbitrary: fc.constant(true), weight: 1 }, { arbitrary: fc.constant(false), weight: 4 }),
  key: fc.constantFrom('tolerationz', 'imagePullPolicy', 'mountpath', 'Reason', 'extra'),
});

describe('random props with one value of a wrong type or shape, as plain JavaScript can pass it', () => {
  test('render schema-valid output that keeps every value, or fail with an Error that starts with the construct path and names the field', () => {
    fc.assert(fc.property(agentCase, change, (c, ch) => {
      const { targets, structs } = targetsOf(c.props);
      if (ch.addKey) {
        // a property the interface does not have, e.g. a misspelling
        const at = structs[ch.target % structs.length];
        const what = `${ch.key} added at ${JSON.stringify(at)}`;
        const r = outcome(c, setAt(c.props, [...at, ch.key], 'x'));
        if (r.error === undefined) fail(`${what}: accepted`);
        if (!checkOwnError(r.error, c, what).includes(JSON.stringify(ch.key))) fail(`${what}: the error does not name the property: ${(r.error as Error).message}`);
        return;
      }
      const target = targets[ch.target % targets.length];
      const candidates = WRONG_VALUES.filter((make) => target.value === undefined || kindOf(make()) !== kindOf(target.value));
      const value = candidates[ch.value % candidates.length]();
      const what = `${JSON.stringify(target.path)} (${target.role}) set to ${kindOf(value)} ${String(typeof value === 'symbol' ? 'Symbol' : value)}`;
      const mutated = setAt(c.props, target.path, value);
      const r = outcome(c, mutated);
      if (value === null && target.role === 'field') {
        // null is "not set": the same outcome as leaving the field out
        const without = outcome(c, setAt(c.props, target.path, undefined, true));
        if ((r.error === undefined) !== (without.error === undefined)) fail(`${what}: null and leaving it out differ: ${(r.error as Error)?.message ?? (without.error as Error)?.message}`);
        if (r.error !== undefined) checkOwnError(r.error, c, what);
        else expect(r.yaml).toBe(without.yaml);
        return;
      }
      if (r.error !== undefined) {
        const message = checkOwnError(r.error, c, what);
        if (!message.includes(fieldOf(target.path))) fail(`${what}: the error does not name ${fieldOf(target.path)}: ${message}`);
        return;
      }
      // accepted: then it was valid after all (e.g. an empty list), and every value is in the output
      checkKeepsValues({ ...c, props: mutated }, r.manifests!);
      checkHostAccessRecorded({ ...c, props: mutated }, r.manifests!);
    }), { numRuns: runs(300) });
  });
});
