// `cdk8s-node-agents status`: a running DaemonSet's DESIRED/CURRENT/READY/UP-TO-DATE/AVAILABLE explained node by
// node, live through a kubeconfig or offline from a snapshot.

import { DaemonSetNodeState, DaemonSetStatus, DaemonSetStatusReport } from '../model';
import { CliError, CliIo, Command, EXIT_FAILURE, EXIT_OK, lowerFirst, PROGRAM, parseCommandArgs, usageError } from './_command';
import { inputErrors } from './_input-errors';
import { ApiStatusError, KubeApi } from './_kube-api';
import { resolveTarget } from './_kubeconfig';
import { LoadedObject, loadObjects, uniqueNodes, whereIs } from './_manifests';
import { newestTimestamp } from '../model/_pod-status';
import { compareText } from '../model/_text-order';

const SNAPSHOT_COMMAND = 'kubectl get nodes,daemonsets,controllerrevisions,pods,events -A -o json';

const HELP = `usage: ${PROGRAM} status [--kubeconfig FILE] [--context NAME] [-n NAMESPACE | -A] [--json] [NAME...]
       ${PROGRAM} status --from SNAPSHOT [-n NAMESPACE | -A] [--json] [NAME...]

Explains running DaemonSets: the five numbers of 'kubectl get daemonset' (DESIRED,
CURRENT, READY, UP-TO-DATE, AVAILABLE, as the DaemonSet controller wrote them in
.status) and, for every node of the cluster, one state with its evidence: the
placement rule, the scheduler's or the kubelet's message, the events.

  NAME                 DaemonSets to explain (default: every DaemonSet in the namespace)
  --kubeconfig FILE    the kubeconfig to use (default: the KUBECONFIG list, merged,
                       else ~/.kube/config), with kubectl's rules
  --context NAME       the kubeconfig context (default: current-context)
  --from SNAPSHOT      read a snapshot instead of a cluster: a List in JSON or YAML from
                         ${SNAPSHOT_COMMAND}
                       (add -o yaml for YAML); the time of the snapshot is taken as its
                       newest timestamp
  -n, --namespace NS   the namespace (default: the context's namespace, else default;
                       with --from, every namespace in the snapshot)
  -A, --all-namespaces every namespace
  --json               print JSON instead of text:
                         { "daemonSets": [{ "namespace", "name", "desired", "current",
                           "ready", "upToDate", "available",
                           "rollout": { "updated", "wavesLeft", "blocked" },
                           "nodes": [{ "name", "state", "reason", "message" }] }] }
                       with one entry per node of the cluster
  -h, --help           print this help

States, one per node, the first that applies in this order:
  excluded       the DaemonSet does not run there: nodeName, nodeSelector, required node
                 affinity or an untolerated NoSchedule/NoExecute taint (DESIRED < nodes)
  missing        it should run there but there is no pod (CURRENT < DESIRED), e.g. the
                 controller's FailedCreate event: Pod Security admission refused it
  pending        the pod is not scheduled: the scheduler's message (insufficient cpu, a
                 host port in use), or the kubelet rejected it
  creating       the pod cannot start its containers: FailedMount (a hostPath of type
                 Directory missing on the node), sandbox errors, a missing Secret
  image-pull     ErrImagePull/ImagePullBackOff: the image and the registry's error
  crash-loop     CrashLoopBackOff: restarts, last exit code and reason (OOMKilled with
                 the memory limit)
  not-ready      running, but readiness fails (the probe's message), or the node is not
                 ready (READY < CURRENT for these five)
  outdated       ready, but of an older revision than the current one (UP-TO-DATE)
  not-available  ready for less than minReadySeconds (AVAILABLE < READY)
  healthy        current, ready and available
The rollout line says how many nodes are updated (current revision and available), how
many waves remain (by maxUnavailable or maxSurge, scaled as the controller does), and
whether it is blocked: maxUnavailable (maxSurge) reached by pods that do not become ready.

Reads only: lists nodes, daemonsets, controllerrevisions, pods and events (GET).

exit status: 0 when every DaemonSet shown is rolled out (observed, UP-TO-DATE and AVAILABLE
equal DESIRED) and every node is healthy or excluded; 1 when one falls short; 2 for bad
input, with nothing on stdout and one 'error:' line per problem on stderr: bad arguments;
a snapshot that cannot be read as Kubernetes objects (unreadable, empty, not UTF-8 (or
UTF-16 with a BOM) YAML or JSON, invalid YAML, an alias bomb, nested deeper than 200
levels, a document without apiVersion, kind or metadata.name), or whose DaemonSets or
Nodes have placement or update strategy fields of the wrong type (naming the file, line,
document and field); an unknown namespace or DaemonSet; a kubeconfig problem; no access
to the API server.

examples:
  ${PROGRAM} status -n observability
  ${PROGRAM} status -n observability node-agent --json
  ${SNAPSHOT_COMMAND} > snapshot.json
  ${PROGRAM} status --from snapshot.json
`;

/** the JSON report (`--json`): exactly these fields. */
interface JsonReport {
  readonly daemonSets: Array<{
    readonly namespace: string;
    readonly name: string;
    readonly desired: number;
    readonly current: number;
    readonly ready: number;
    readonly upToDate: number;
    readonly available: number;
    readonly rollout: { readonly updated: number; readonly wavesLeft: number; readonly blocked: boolean };
    readonly nodes: Array<{ readonly name: string; readonly state: string; readonly reason: string; readonly message: string }>;
  }>;
}

interface Options {
  readonly help: boolean;
  readonly json: boolean;
  readonly from?: string;
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly namespace?: string;
  readonly allNamespaces: boolean;
  readonly names: string[];
}

/** everything the command reads, from a cluster or a snapshot. */
interface Inventory {
  readonly source: string;
  readonly nodes: any[];
  readonly daemonSets: any[];
  readonly controllerRevisions: any[];
  readonly pods: any[];
  readonly events: any[];
  readonly now: Date;
  /** the namespace shown, or undefined for all. */
  readonly namespace?: string;
  /** where each object of a snapshot was read, for messages. */
  readonly loaded?: Map<any, LoadedObject>;
}

export const statusCommand: Command = {
  name: 'status',
  summary: 'explain running DaemonSets node by node (DESIRED, CURRENT, READY, UP-TO-DATE, AVAILABLE), live or from a snapshot',
  help: HELP,
  async run(args: string[], io: CliIo): Promise<number> {
    const options = parseOptions(args);
    if (options.help) {
      io.stdout.write(HELP);
      return EXIT_OK;
    }
    const inventory = options.from !== undefined ? fromSnapshot(options) : await fromCluster(options);
    const selected = select(inventory, options);
    if (selected.length === 0) {
      io.stderr.write(`No DaemonSets found in ${inventory.namespace === undefined ? 'any namespace' : `namespace ${inventory.namespace}`}.\n`);
      if (options.json) io.stdout.write(JSON.stringify({ daemonSets: [] }, null, 2) + '\n');
      return EXIT_OK;
    }
    const reports = selected.map((ds) => explain(ds, inventory));
    if (options.json) {
      io.stdout.write(JSON.stringify(toJson(reports), null, 2) + '\n');
    } else {
      io.stdout.write(renderText(reports, selected, inventory));
    }
    return reports.every((r) => r.complete) ? EXIT_OK : EXIT_FAILURE;
  },
};

function parseOptions(args: string[]): Options {
  const parsed = parseCommandArgs('status', {
    args,
    options: {
      'kubeconfig': { type: 'string' },
      'context': { type: 'string' },
      'from': { type: 'string' },
      'namespace': { type: 'string', short: 'n' },
      'all-namespaces': { type: 'boolean', short: 'A' },
      'json': { type: 'boolean' },
      'help': { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  const v = parsed.values;
  const options: Options = {
    help: v.help === true,
    json: v.json === true,
    from: v.from,
    kubeconfig: v.kubeconfig,
    context: v.context,
    namespace: v.namespace,
    allNamespaces: v['all-namespaces'] === true,
    names: parsed.positionals,
  };
  if (options.help) return options;
  if (options.from !== undefined && (options.kubeconfig !== undefined || options.context !== undefined)) {
    throw usageError('status', '--from reads a snapshot; it cannot be combined with --kubeconfig or --context');
  }
  if (options.from === '') throw usageError('status', '--from needs a file');
  if (options.namespace !== undefined && options.allNamespaces) throw usageError('status', '-n NAMESPACE and -A (all namespaces) cannot be combined');
  if (options.namespace === '') throw usageError('status', '-n needs a namespace');
  return options;
}

function fromSnapshot(options: Options): Inventory {
  const file = options.from!;
  const all = loadObjects([file]);
  const nodesOnce = uniqueNodes(all.filter((o) => o.object?.kind === 'Node'));
  const kept = new Set(nodesOnce.nodes);
  const loaded = all.filter((o) => o.object?.kind !== 'Node' || kept.has(o));
  // the DaemonSets and Nodes are read for placement and rollout: their fields must have the right shape
  const errors = [...nodesOnce.problems, ...inputErrors(loaded)];
  if (errors.length > 0) throw new CliError(errors);
  const objects = loaded.map((o) => o.object);
  const ofKind = (kind: string) => objects.filter((o) => o?.kind === kind);
  const nodes = ofKind('Node');
  const daemonSets = ofKind('DaemonSet');
  const controllerRevisions = ofKind('ControllerRevision');
  const hint = `take it with '${SNAPSHOT_COMMAND} > snapshot.json'`;
  if (nodes.length === 0) throw new CliError(`${file}: no Node objects in the snapshot; ${hint}`);
  if (daemonSets.length === 0) throw new CliError(`${file}: no DaemonSet objects in the snapshot; ${hint}`);
  if (controllerRevisions.length === 0) throw new CliError(`${file}: no ControllerRevision objects in the snapshot (without them the current revision is unknown); ${hint}`);
  const namespace = options.allNamespaces ? undefined : options.namespace;
  if (namespace !== undefined && !objects.some((o) => o?.metadata?.namespace === namespace)) {
    throw new CliError(`${file}: namespace ${namespace} not found: no object in the snapshot is in it`);
  }
  const newest = newestTimestamp(objects);
  return {
    source: `snapshot ${file}${newest !== undefined ? `, taken at ${iso(newest)} or later (its newest timestamp)` : ''}`,
    nodes,
    daemonSets,
    controllerRevisions,
    pods: ofKind('Pod'),
    events: objects.filter((o) => o?.kind === 'Event'),
    now: new Date(newest ?? Date.now()),
    namespace,
    loaded: new Map(loaded.map((o) => [o.object, o])),
  };
}

async function fromCluster(options: Options): Promise<Inventory> {
  const target = resolveTarget({ kubeconfig: options.kubeconfig, context: options.context, env: process.env });
  const api = new KubeApi(target);
  const namespace = options.allNamespaces ? undefined : options.namespace ?? target.namespace;
  if (namespace !== undefined) {
    try {
      await api.get(`/api/v1/namespaces/${encodeURIComponent(namespace)}`);
    } catch (e) {
      if (e instanceof ApiStatusError && e.statusCode === 404) throw new CliError(`namespace ${namespace} not found (context "${target.contextName}")`);
      if (!(e instanceof ApiStatusError && e.statusCode === 403)) throw e; // may list in it without reading it: go on
    }
  }
  const scoped = (group: string, resource: string) =>
    `${group}${namespace === undefined ? '' : `/namespaces/${encodeURIComponent(namespace)}`}/${resource}`;
  const [nodes, daemonSets, controllerRevisions, pods, events] = await Promise.all([
    api.list('/api/v1/nodes'),
    api.list(scoped('/apis/apps/v1', 'daemonsets')),
    api.list(scoped('/apis/apps/v1', 'controllerrevisions')),
    api.list(scoped('/api/v1', 'pods')),
    api.list(scoped('/api/v1', 'events')),
  ]);
  return {
    source: `context ${target.contextName} (${target.server.origin})`,
    nodes,
    daemonSets,
    controllerRevisions,
    pods,
    events,
    now: new Date(),
    namespace,
  };
}

function select(inventory: Inventory, options: Options): any[] {
  const inScope = inventory.daemonSets
    .filter((ds) => inventory.namespace === undefined || namespaceOf(ds) === inventory.namespace)
    .sort((a, b) => compareText(key(a), key(b)));
  if (options.names.length === 0) return inScope;
  const where = inventory.namespace === undefined ? 'in any namespace' : `in namespace ${inventory.namespace}`;
  const unknown = options.names.filter((n) => !inScope.some((ds) => ds?.metadata?.name === n));
  if (unknown.length > 0) {
    const known = inScope.map((ds) => (inventory.namespace === undefined ? key(ds) : ds?.metadata?.name)).join(', ') || 'none';
    throw new CliError(`DaemonSet ${unknown.join(', ')} not found ${where} (DaemonSets there: ${known})`);
  }
  return inScope.filter((ds) => options.names.includes(ds?.metadata?.name));
}

function explain(ds: any, inventory: Inventory): DaemonSetStatusReport {
  try {
    return DaemonSetStatus.explain(ds, {
      nodes: inventory.nodes,
      controllerRevisions: inventory.controllerRevisions,
      pods: inventory.pods,
      events: inventory.events,
      now: inventory.now,
    });
  } catch (e: any) {
    const loaded = inventory.loaded?.get(ds);
    throw new CliError(`${loaded !== undefined ? whereIs(loaded) : `DaemonSet ${key(ds)}`}: ${lowerFirst(String(e?.message ?? e))}`);
  }
}

function toJson(reports: DaemonSetStatusReport[]): JsonReport {
  return {
    daemonSets: reports.map((r) => ({
      namespace: r.namespace,
      name: r.name,
      desired: r.status.desired,
      current: r.status.current,
      ready: r.status.ready,
      upToDate: r.status.upToDate,
      available: r.status.available,
      rollout: { updated: r.rollout.updated, wavesLeft: r.rollout.wavesLeft, blocked: r.rollout.blocked },
      nodes: r.nodes.map((n) => ({ name: n.nodeName, state: n.state, reason: n.reason, message: n.message })),
    })),
  };
}

function renderText(reports: DaemonSetStatusReport[], daemonSets: any[], inventory: Inventory): string {
  const lines: string[] = [`${inventory.source}; ${plural(inventory.nodes.length, 'node')}`, ''];
  const header = ['NAMESPACE', 'NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR'];
  lines.push(...table([header, ...reports.map((r, i) => [
    r.namespace, r.name, String(r.status.desired), String(r.status.current), String(r.status.ready), String(r.status.upToDate),
    String(r.status.available), formatNodeSelector(daemonSets[i]?.spec?.template?.spec?.nodeSelector),
  ])]));
  for (const r of reports) {
    lines.push('');
    const unhealthy = r.nodes.filter((n) => n.state !== DaemonSetNodeState.HEALTHY);
    const failing = unhealthy.filter((n) => n.state !== DaemonSetNodeState.EXCLUDED);
    const running = r.nodes.length - unhealthy.length + failing.length;
    lines.push(r.complete
      ? `${r.namespace}/${r.name}: rolled out; healthy on all ${plural(running, 'node')} that should run it`
      : `${r.namespace}/${r.name}: ${failing.length === 0 ? 'not rolled out' : `${failing.length} of ${plural(running, 'node')} not healthy`}`);
    for (const s of r.shortfalls) lines.push(`  ${s}`);
    if (unhealthy.length > 0) {
      lines.push(...table([['NODE', 'STATE', 'REASON', 'MESSAGE'], ...unhealthy.map((n) => [n.nodeName, n.state, n.reason || '-', n.message])]).map((l) => `  ${l}`));
    }
    lines.push(`  rollout: ${r.rollout.message}`);
  }
  return lines.join('\n') + '\n';
}

/** like kubectl's `labels.FormatLabels`: sorted `key=value` pairs joined by commas, or `<none>`. */
function formatNodeSelector(selector: unknown): string {
  if (!selector || typeof selector !== 'object') return '<none>';
  const pairs = Object.entries(selector as Record<string, unknown>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v ?? ''}`);
  return pairs.length === 0 ? '<none>' : pairs.join(',');
}

/** columns separated by three spaces, padded to the widest cell, like kubectl; the last column is not padded. */
function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c] + 3))).join(''));
}

function namespaceOf(obj: any): string {
  const ns = obj?.metadata?.namespace;
  return typeof ns === 'string' && ns !== '' ? ns : 'default';
}

function key(ds: any): string {
  return `${namespaceOf(ds)}/${String(ds?.metadata?.name ?? '')}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
