// Property tests: random bytes, YAML-like token soup, randomly edited YAML text and randomly mutated valid manifests,
// fed to every command that reads files. Whatever the input, a command exits 0, 1 or 2; it never prints a stack trace
// or "unexpected failure"; every line on stderr is one `error:`/`note:`/`warning:` line of at most MAX_LINE
// characters; on exit 2 every error line names the file it is about, and coverage and status print nothing on stdout;
// review never exits 0 or 1 on a workload one of its rules could not evaluate.
import * as fc from 'fast-check';
import { stringify } from 'yaml';
import { CliResult, runCli, tempFiles } from './run-cli';
import { scenarioList } from './status-scenario';
import { MAX_ERROR_LINES, MAX_LINE } from '../../src/cli/_command';

const t = tempFiles();

function nodeObj(name: string, labels: any = {}, taints: any[] = []): any {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } }, spec: { taints } };
}

/** a DaemonSet that uses every field the commands read: placement, rollout, containers, ports, mounts, volumes. */
function richDaemonSet(): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: 'agent',
      namespace: 'observability',
      labels: { app: 'agent' },
      annotations: {
        'node-agents.cdk8s.io/host-access': JSON.stringify([{ type: 'hostPath', detail: '/var/log (read-only)', reason: 'reads the node logs' }]),
        'node-agents.cdk8s.io/acknowledged': JSON.stringify([{ rule: 'NA-NAMESPACE', reason: 'tested' }]),
      },
    },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }] } } },
          hostNetwork: true,
          securityContext: { runAsNonRoot: true, runAsUser: 65534, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [{
            name: 'agent',
            image: 'registry.example.com/node-agent:1.2.0',
            ports: [{ name: 'metrics', containerPort: 9100, hostPort: 9100 }],
            securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } },
            volumeMounts: [{ name: 'logs', mountPath: '/var/log', readOnly: true }],
            resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
          }],
          volumes: [{ name: 'logs', hostPath: { path: '/var/log', type: 'Directory' } }],
        },
      },
    },
  };
}

const NODES = [
  nodeObj('cp', { 'node-role.kubernetes.io/control-plane': '', 'zone': 'a' }, [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]),
  nodeObj('w1', { zone: 'a' }),
  nodeObj('w2', { zone: 'c' }, [{ key: 'gpu', value: 'true', effect: 'NoExecute' }]),
];

const NODES_FILE = t.write('nodes.yaml', NODES.map((n) => stringify(n)).join('---\n'));
const APP_FILE = t.write('app.yaml', stringify(richDaemonSet()));
const VALID_STREAM = [richDaemonSet(), ...NODES].map((o) => stringify(o)).join('---\n');

type Command = [string, (file: string) => Promise<CliResult>, boolean];

/** each command, given `file` as its input; `true` when it prints nothing on stdout on exit 2. */
const COMMANDS: Command[] = [
  ['coverage FILE', (file) => runCli('coverage', '--nodes', NODES_FILE, file), true],
  ['coverage --nodes', (file) => runCli('coverage', '--nodes', file, APP_FILE), true],
  ['review', (file) => runCli('review', file), false],
  ['status --from', (file) => runCli('status', '--from', file), true],
];

/** the contract every run keeps, whatever its input; returns a description of the first breach, or undefined. */
function breach(r: CliResult, file: string, quietOnError: boolean): string | undefined {
  if (![0, 1, 2].includes(r.code)) return `exit ${r.code}`;
  if (/unexpected failure/.test(r.stderr) || /^\s+at /m.test(r.stderr)) return 'a crash';
  if (r.stderr !== '' && !r.stderr.endsWith('\n')) return 'stderr does not end with a newline';
  const lines = r.stderr === '' ? [] : r.stderr.slice(0, -1).split('\n');
  const long = lines.find((l) => l.length > MAX_LINE);
  if (long !== undefined) return `a line of ${long.length} characters`;
  const odd = lines.find((l) => !/^(error|note|warning): /.test(l));
  if (odd !== undefined) return `a line that is not error/note/warning: ${odd.slice(0, 80)}`;
  const errors = lines.filter((l) => l.startsWith('error: '));
  if (errors.length > MAX_ERROR_LINES) return `${errors.length} error lines`;
  if (r.code === 2) {
    if (errors.length === 0) return 'exit 2 without an error line';
    const unnamed = errors.find((l) => !l.includes(file) && !/ more problems not shown; /.test(l));
    if (unnamed !== undefined) return `an error line that does not name the file: ${unnamed.slice(0, 200)}`;
    if (quietOnError && r.stdout !== '') return 'output on stdout with exit 2';
  } else if (errors.length > 0) {
    return `exit ${r.code} with an error line: ${errors[0].slice(0, 200)}`;
  } else if (/could not evaluate it/.test(r.stdout)) {
    // a rule that threw on a field of the wrong type: the API server would reject the object, so never exit 0 or 1
    return `exit ${r.code} on a workload a rule could not evaluate: ${/could not evaluate it: [^\n]*/.exec(r.stdout)![0].slice(0, 200)}`;
  }
  return undefined;
}

async function checkAll(file: string): Promise<void> {
  for (const [name, run, quiet] of COMMANDS) {
    const r = await run(file);
    const problem = breach(r, file, quiet);
    if (problem !== undefined) throw new Error(`${name}: ${problem}\nexit ${r.code}\nstderr: ${r.stderr.slice(0, 1000)}`);
  }
}

const RUNS = 120;

describe('whatever the input, every command exits 0, 1 or 2 with short one-line errors naming the file, never a crash', () => {
  test('random bytes', async () => {
    const file = t.write('bytes.bin', '');
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
      t.write('bytes.bin', Buffer.from(bytes) as any);
      await checkAll(file);
    }), { numRuns: RUNS });
  });

  test('random text of YAML tokens (anchors, aliases, flow and block collections, scalars, document markers)', async () => {
    const tokens = [
      ':', ': ', '-', '- ', ' ', '  ', '\n', '\n  ', '[', ']', '{', '}', ',', '&a ', '*a', '&b ', '*b', '---\n', '...\n', '? ', '|\n  ', '>\n  ',
      '"', "'", '#', '!!str ', '!!map ', '!x ', '%YAML 1.2\n', '<<: ', 'kind', 'apiVersion', 'v1', 'apps/v1', 'metadata', 'name', 'spec', 'items',
      'DaemonSet', 'Node', 'List', 'NodeList', 'taints', 'template', 'containers', 'null', '~', 'true', '1', '-1', '1e400', '0x1F', '\t', '\r\n', '\u00e9', '\ud83d\ude00',
    ];
    // a valid start more often than not, so that the soup reaches the object checks and the commands too
    const starts = [
      '', 'apiVersion: v1\nkind: Node\nmetadata: {name: n}\n', 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d}\nspec:\n  template:\n    spec:\n      ',
      'apiVersion: v1\nkind: List\nitems:\n- ', 'apiVersion: v1\nkind: NodeList\nitems:\n- metadata: {name: n}\n  spec:\n    taints: ',
    ];
    const file = t.write('soup.yaml', '');
    await fc.assert(fc.asyncProperty(fc.constantFrom(...starts), fc.array(fc.constantFrom(...tokens), { maxLength: 80 }), async (start, parts) => {
      t.write('soup.yaml', start + parts.join(''));
      await checkAll(file);
    }), { numRuns: RUNS });
  });

  test('valid YAML with random edits: deleted ranges, inserted characters, duplicated, swapped and re-indented lines', async () => {
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.string({ unit: 'binary', maxLength: 6 }) }),
      fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
      fc.record({ kind: fc.constant('indent' as const), at: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }),
    );
    const file = t.write('edited.yaml', '');
    await fc.assert(fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 4 }), async (edits) => {
      let text = VALID_STREAM;
      for (const e of edits) {
        const lines = text.split('\n');
        if (e.kind === 'delete') {
          const at = e.at % (text.length + 1);
          text = text.slice(0, at) + text.slice(at + e.length);
        } else if (e.kind === 'insert') {
          const at = e.at % (text.length + 1);
          text = text.slice(0, at) + e.text + text.slice(at);
        } else if (e.kind === 'duplicate') {
          const at = e.at % lines.length;
          lines.splice(at, 0, lines[at]);
          text = lines.join('\n');
        } else if (e.kind === 'swap') {
          const a = e.at % lines.length;
          const b = e.with % lines.length;
          [lines[a], lines[b]] = [lines[b], lines[a]];
          text = lines.join('\n');
        } else {
          const at = e.at % lines.length;
          lines[at] = e.by >= 0 ? ' '.repeat(e.by) + lines[at] : lines[at].replace(new RegExp(`^ {0,${-e.by}}`), '');
          text = lines.join('\n');
        }
      }
      t.write('edited.yaml', text);
      await checkAll(file);
    }), { numRuns: RUNS });
  });

  test('valid manifests, a node inventory and a status snapshot with one field deleted or replaced by any JSON value', async () => {
    /** every path to a value in `o`, e.g. ['spec', 'template', 'spec', 'containers', 0, 'ports']. */
    function paths(o: any, prefix: Array<string | number> = []): Array<Array<string | number>> {
      const result: Array<Array<string | number>> = [prefix];
      if (typeof o === 'object' && o !== null) {
        for (const [k, v] of Object.entries(o)) result.push(...paths(v, [...prefix, Array.isArray(o) ? Number(k) : k]));
      }
      return result;
    }
    function mutate(o: any, path: Array<string | number>, action: { kind: 'delete' } | { kind: 'set'; value: unknown }): any {
      if (path.length === 0) return action.kind === 'delete' ? null : action.value;
      const copy = JSON.parse(JSON.stringify(o));
      let parent = copy;
      for (const key of path.slice(0, -1)) parent = parent[key];
      const last = path[path.length - 1];
      if (action.kind === 'set') parent[last] = action.value;
      else if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
      return copy;
    }
    const bases: Array<[string, any]> = [
      ['manifests', { apiVersion: 'v1', kind: 'List', items: [richDaemonSet(), ...NODES] }],
      ['snapshot', scenarioList()],
    ];
    const action = fc.oneof(
      fc.constant({ kind: 'delete' as const }),
      fc.record({ kind: fc.constant('set' as const), value: fc.jsonValue({ maxDepth: 2 }) }),
      fc.record({ kind: fc.constant('set' as const), value: fc.constantFrom<unknown>('oops', 5, true, null, [], {}, ['oops'], [5], [{}], { a: 1 }, '', -1, 1.5) }),
    );
    const file = t.write('mutated.yaml', '');
    await fc.assert(fc.asyncProperty(fc.nat(bases.length - 1), fc.nat(), action, fc.boolean(), async (b, p, a, asJson) => {
      const [, base] = bases[b];
      const all = paths(base);
      const mutated = mutate(base, all[p % all.length], a);
      t.write('mutated.yaml', asJson ? JSON.stringify(mutated, null, 2) : stringify(mutated));
      await checkAll(file);
    }), { numRuns: RUNS });
  });
});
