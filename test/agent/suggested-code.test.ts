/**
 * Every piece of code a message of the library suggests compiles: each message is triggered as a user would meet it,
 * the code in it is extracted (calls of the library's classes, `agent.` and `scope.` calls, enum members, and the
 * literals after "e.g.", "such as", "write" and "did you mean"), and all of it is type-checked in one program, with the
 * TypeScript compiler API, against the library's built types (`lib/index.d.ts`, which `npx projen compile` writes and
 * the build makes before the tests).
 *
 * The snippets use the forms that read the same in every jsii language: enum members (`HostAccessType.HOST_PID`), not
 * their string values, which Python, Java and Go do not accept in their place.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import { Capability } from 'cdk8s-plus-28';
import * as ts from 'typescript';
import * as lib from '../../src';
import {
  AgentProbe, CniFlavor, HostMount, LogOutput, NodeAgent, NodeAgentProps, NodeRequirement, SecurityCheck, SecurityReview, Toleration,
} from '../../src';

const ROOT = path.join(__dirname, '..', '..');
const IMAGE = 'registry.example.com/node-agent:1.2.0';

/** one message, as a user meets it, and the type each literal it suggests must have. */
interface Trigger {
  readonly name: string;
  /** what the user does: it throws the message. */
  readonly when: () => unknown;
  /** the type of the literal snippets (`{ ... }`, `[ ... ]`, `key: value`), in terms of the library's exports `L`. */
  readonly literal?: string;
}

function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

const chart = () => new Chart(new App({ outdir: path.join(ROOT, '.tmp-unused') }), 'c');
const agentWith = (props: any) => new NodeAgent(chart(), 'agent', { image: IMAGE, ...props });
const synthOf = (f: (agent: NodeAgent) => void, props: Partial<NodeAgentProps> = {}) => () => {
  const c = chart();
  const agent = new NodeAgent(c, 'agent', { image: IMAGE, ...props });
  f(agent);
  (c.node.root as App).synthYaml();
};

function patchHostPath(agent: NodeAgent): void {
  agent.daemonSet.addJsonPatch(
    JsonPatch.add('/spec/template/spec/volumes', [{ name: 'logs', hostPath: { path: '/var/log', type: 'Directory' } }]),
    JsonPatch.add('/spec/template/spec/containers/0/volumeMounts', [{ name: 'logs', mountPath: '/var/log', readOnly: true }]));
}

/** a DaemonSet written by hand, with hostPID and no reason. */
const HAND_WRITTEN = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'x' },
  spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { hostPID: true, containers: [{ name: 'c', image: IMAGE }] } } },
};

/** an app with a SecurityCheck over a chart that `f` fills, synthesized. */
function checkApp(f: (chart: Chart) => void): void {
  const c = chart();
  f(c);
  SecurityCheck.apply(c.node.root as App, { writeReport: false });
  (c.node.root as App).synthYaml();
}

const TRIGGERS: Trigger[] = [
  // the synth gate: a privilege without its reason, a finding at the threshold
  { name: 'a host namespace patched in without a reason', when: synthOf((a) => a.daemonSet.addJsonPatch(JsonPatch.add('/spec/template/spec/hostPID', true))) },
  { name: 'a host path patched in without a reason', when: synthOf(patchHostPath) },
  {
    name: 'a review finding of a container at the threshold',
    when: synthOf(() => undefined, {
      capabilities: [{ capability: Capability.SYS_ADMIN, reason: 'mounts filesystems' }], runAsRoot: { reason: 'SYS_ADMIN takes effect only for root' },
    }),
  },
  // SecurityCheck over hand-written objects
  { name: 'SecurityCheck: a finding on a hand-written object', when: () => checkApp((c) => new ApiObject(c, 'ds', HAND_WRITTEN)) },
  { name: 'SecurityCheck: an acknowledgement of a rule no pack has', when: () => checkApp((c) => SecurityCheck.acknowledge(c, 'ORG-NO-SUCH-RULE', 'checked by hand')) },
  // factories
  { name: 'AgentProbe.httpGet without options', when: () => AgentProbe.httpGet('/healthz', undefined as any) },
  { name: 'AgentProbe.httpGet without a port', when: () => AgentProbe.httpGet('/healthz', {} as any) },
  { name: 'AgentProbe.httpGet without a path', when: () => AgentProbe.httpGet(undefined as any, { port: 8080 }) },
  { name: 'AgentProbe.tcpSocket without a port', when: () => AgentProbe.tcpSocket(undefined as any) },
  { name: 'AgentProbe.exec without a command', when: () => AgentProbe.exec(undefined as any), literal: 'string[]' },
  { name: 'HostMount.readOnly without options', when: () => HostMount.readOnly('/var/log', undefined as any) },
  { name: 'HostMount.readWrite with the options as the reason', when: () => HostMount.readWrite('/var/lib/agent', { reason: 'keeps its state' } as any) },
  { name: 'Toleration.exists with a value for options', when: () => Toleration.exists('dedicated', 'agents' as any), literal: 'L.TolerationOptions' },
  { name: 'NodeRequirement.isIn without values', when: () => NodeRequirement.isIn('zone', []), literal: 'string[]' },
  { name: 'LogOutput.loki without a scheme', when: () => LogOutput.loki('loki-gateway.logging.svc:3100') },
  { name: 'LogOutput.custom without a name', when: () => LogOutput.custom({ match: '*' }), literal: '{ [key: string]: string }' },
  { name: 'LogOutput.custom with a non-object', when: () => LogOutput.custom('http' as any), literal: '{ [key: string]: string }' },
  { name: 'CniFlavor.custom without options', when: () => CniFlavor.custom(undefined as any), literal: 'L.CniFlavorOptions' },
  // props
  { name: 'a capability on a non-root container', when: () => agentWith({ capabilities: [{ capability: Capability.NET_ADMIN, reason: 'routes' }] }), literal: 'L.ContainerOptions' },
  { name: 'a capability that is not a name', when: () => agentWith({ capabilities: [{ capability: 'NET_ADMN', reason: 'r' }] }) },
  { name: 'a capability without its name', when: () => agentWith({ capabilities: [{ reason: 'r' }] }), literal: 'L.CapabilityGrant' },
  { name: 'hostMounts that are not a list', when: () => agentWith({ hostMounts: 'x' }), literal: 'L.HostMount[]' },
  { name: 'a port without a name', when: () => agentWith({ ports: [{ containerPort: 9100 }] }), literal: 'L.AgentPort' },
  { name: 'a host port without a port', when: () => agentWith({ ports: [{ name: 'm', containerPort: 9100, hostPort: { reason: 'r' } }] }), literal: 'Partial<L.AgentPort>' },
  { name: 'resources of the wrong shape', when: () => agentWith({ resources: 'small' }), literal: 'L.AgentResources' },
  { name: 'a Duration where a number was given', when: () => agentWith({ minReady: 30 }) },
  { name: 'a memory Size that is not a Size', when: () => agentWith({ resources: { memoryRequest: 128 } }) },
  { name: 'a Cpu that is not positive', when: () => agentWith({ resources: { cpuRequest: { amount: '-1' } } }) },
  { name: 'initContainers that are not a list', when: () => agentWith({ initContainers: 'x' }), literal: 'L.AgentContainerProps[]' },
  { name: 'requiredNodeAffinity that is not a list', when: () => agentWith({ requiredNodeAffinity: 'gpu' }), literal: 'L.NodeAffinityTerm[]' },
  { name: 'a weighted term without a weight', when: () => agentWith({ preferredNodeAffinity: [{ requirements: [NodeRequirement.exists('ssd')] }] }), literal: 'L.WeightedNodeAffinityTerm' },
  { name: 'tolerations that are not a list', when: () => agentWith({ tolerations: 'all' }), literal: 'L.Toleration[]' },
  { name: 'podAnnotations that are not a map', when: () => agentWith({ podAnnotations: 'x' }), literal: '{ [key: string]: string }' },
  { name: 'allowedRegistries that are not a list', when: () => agentWith({ allowedRegistries: 3 }), literal: 'string[]' },
  { name: 'an access rule without verbs', when: () => agentWith({ clusterPermissions: [{ resources: ['pods'] }] }), literal: 'L.AccessRule' },
  { name: 'a reason of the wrong type', when: () => agentWith({ hostNetwork: 'yes' }), literal: 'L.Justification' },
  { name: 'addHostAccessReason with a type that is not one', when: () => agentWith({}).addHostAccessReason({ type: 'hostpid' as any, detail: '', reason: 'r' }) },
  { name: 'addHostAccessReason without a detail', when: () => agentWith({}).addHostAccessReason({ type: lib.HostAccessType.HOST_PATH, reason: 'r' } as any), literal: 'Partial<L.HostAccessReason>' },
  { name: 'an update strategy of the wrong shape', when: () => lib.AgentUpdateStrategy.rollingUpdate({ maxUnavailable: 'x' as any }), literal: 'L.RollingUpdateOptions' },
  { name: 'review packs that are not packs', when: () => SecurityReview.review([], { packs: ['defaults' as any] }) },
];

// ------------------------------------------------------------------ extraction

/** library names a snippet may start with, besides the placeholders the prelude declares. */
const ROOTS = new Set([...Object.keys(lib), 'Capability', 'TaintEffect', 'Duration', 'Size', 'Cpu', 'PercentOrAbsolute', 'agent', 'scope']);
const CLOSE: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** the end (exclusive) of the balanced bracket group opening at `start`, skipping quoted strings. */
function balanced(text: string, start: number): number | undefined {
  const stack: string[] = [];
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'" || ch === '"') {
      const end = stringEnd(text, i);
      if (end === undefined) return undefined;
      i = end - 1;
    } else if (ch in CLOSE) {
      stack.push(CLOSE[ch]);
    } else if (ch === ')' || ch === ']' || ch === '}') {
      if (stack.pop() !== ch) return undefined;
      if (stack.length === 0) return i + 1;
    }
  }
  return undefined;
}

/** the end (exclusive) of the quoted string opening at `start`. */
function stringEnd(text: string, start: number): number | undefined {
  let end = start + 1;
  while (end < text.length && text[end] !== text[start]) end += text[end] === '\\' ? 2 : 1;
  return end < text.length ? end + 1 : undefined;
}

interface Snippet {
  readonly code: string;
  /** an expression to type-check as it is, or a literal of the trigger's type. */
  readonly kind: 'expression' | 'literal' | 'property';
}

/**
 * The code a message suggests, left to right, each piece once (a call inside a literal belongs to the literal). The
 * name a message starts with (`HostMount.readOnly("/var/log") needs ...`, after the construct path) says where the
 * error is, not what to write: it is not a suggestion.
 */
function snippetsOf(message: string): Snippet[] {
  const found: Snippet[] = [];
  const re = /(?:\b(?:e\.g\.|such as|write|did you mean)\s+(?:([a-zA-Z]+): )?([{['"]))|\b([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)+)(\(?)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(message)) !== null) {
    if (m[2] !== undefined) {
      const open = m.index + m[0].length - 1;
      const end = m[2] === "'" || m[2] === '"' ? stringEnd(message, open) : balanced(message, open);
      if (end === undefined) continue;
      if (m[1] !== undefined) found.push({ code: `${m[1]}: ${message.slice(open, end)}`, kind: 'property' });
      else if (m[2] === '{' || m[2] === '[') found.push({ code: message.slice(open, end), kind: 'literal' });
      re.lastIndex = end;
    } else if (ROOTS.has(m[3])) {
      const end = m[5] === '(' ? balanced(message, m.index + m[0].length - 1) : m.index + m[0].length;
      if (end === undefined) continue;
      const lineStart = message.lastIndexOf('\n', m.index) + 1;
      const label = /^\s*(?:\[[^\]]*\]\s*)?$/.test(message.slice(lineStart, m.index));
      if (!label) found.push({ code: message.slice(m.index, end), kind: 'expression' });
      re.lastIndex = end;
    }
  }
  return found;
}

// ------------------------------------------------------------------ type-checking, one program for all

const PRELUDE = [
  "import * as L from './lib';",
  "import { Duration, Size } from 'cdk8s';",
  "import { Capability, Cpu, PercentOrAbsolute, TaintEffect } from 'cdk8s-plus-28';",
  "import { Construct } from 'constructs';",
  `const { ${Object.keys(lib).join(', ')} } = L;`,
  'declare const agent: L.NodeAgent;',
  'declare const scope: Construct;',
  'declare const options: L.HostMountOptions;',
  'declare const yourPack: L.ReviewPack;',
  'export {};',
];

interface Checked { readonly trigger: string; readonly snippet: Snippet; readonly errors: string[] }

function typeCheck(cases: Array<{ trigger: Trigger; snippet: Snippet }>): Checked[] {
  const lines = [...PRELUDE];
  const lineOf: number[] = [];
  cases.forEach(({ trigger, snippet }, i) => {
    lineOf.push(lines.length);
    const type = trigger.literal ?? 'never';
    const body = snippet.kind === 'expression' ? `void (${snippet.code});`
      : snippet.kind === 'literal' ? `const v: ${type} = ${snippet.code}; void v;`
        : `const v: Partial<${type.replace(/^Partial<(.*)>$/, '$1')}> = { ${snippet.code} }; void v;`;
    lines.push(`function snippet${i}(): void { ${body} }`, `void snippet${i};`);
  });
  const fileName = path.join(ROOT, '__snippets__.ts');
  const text = lines.join('\n');
  // the project's own settings (tsconfig.json: strict, as an app's would be), checking one file against lib/*.d.ts
  const configHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined };
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, configHost);
  const options: ts.CompilerOptions = {
    ...config!.options, noEmit: true, noUnusedLocals: false, skipLibCheck: true, types: [], rootDir: undefined, outDir: undefined,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => (path.resolve(name) === fileName
    ? ts.createSourceFile(name, text, version)
    : getSourceFile(name, version, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === fileName || fileExists(name);
  const program = ts.createProgram([fileName], options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const general = diagnostics.filter((d) => d.file?.fileName !== undefined && path.resolve(d.file.fileName) !== fileName || d.start === undefined);
  if (general.length > 0) throw new Error(`the snippet program does not compile outside the snippets: ${ts.formatDiagnostics(general, host)}`);
  return cases.map(({ trigger, snippet }, i) => ({
    trigger: trigger.name,
    snippet,
    errors: diagnostics
      .filter((d) => d.file !== undefined && d.start !== undefined && d.file.getLineAndCharacterOfPosition(d.start).line === lineOf[i])
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  }));
}

// ------------------------------------------------------------------ the tests

const LIB_TYPES = path.join(ROOT, 'lib', 'index.d.ts');

describe('the code messages suggest', () => {
  const messages = TRIGGERS.map((t) => ({ trigger: t, message: messageOf(t.when) }));

  test('the built types are there and not older than the source (run npx projen compile)', () => {
    expect(fs.existsSync(LIB_TYPES)).toBe(true);
    // the newest file of each tree: a compile rewrites the declarations it changed, not necessarily index.d.ts
    const newest = (dir: string): number => Math.max(0, ...fs.readdirSync(dir, { withFileTypes: true })
      .map((e) => (e.isDirectory() ? newest(path.join(dir, e.name)) : e.name.endsWith('.ts') ? fs.statSync(path.join(dir, e.name)).mtimeMs : 0)));
    expect(newest(path.join(ROOT, 'lib'))).toBeGreaterThanOrEqual(newest(path.join(ROOT, 'src')) - 1000);
  });

  test.each(messages.map((m) => [m.trigger.name, m.message] as const))('%s: the message suggests code', (_, message) => {
    expect(snippetsOf(message).length).toBeGreaterThan(0);
  });

  test('every snippet type-checks against lib/index.d.ts', () => {
    const cases = messages.flatMap(({ trigger, message }) => snippetsOf(message).map((snippet) => ({ trigger, snippet })));
    const failures = typeCheck(cases).filter((c) => c.errors.length > 0).map((c) => `${c.trigger}: ${c.snippet.code}\n    ${c.errors.join('\n    ')}`);
    expect(failures).toEqual([]);
  });

  test('the checker fails on code that does not compile (the string the gate once suggested)', () => {
    const [checked] = typeCheck([{ trigger: { name: 'old', when: () => undefined }, snippet: { code: "agent.addHostAccessReason({ type: 'hostPID', detail: '', reason: '...' })", kind: 'expression' } }]);
    expect(checked.errors.join('\n')).toMatch(/Type '"hostPID"' is not assignable to type 'HostAccessType'/);
  });
});

