// `cdk8s-node-agents coverage`: which nodes each DaemonSet in a set of manifests runs on, and why not.

import { DaemonSetCoverage, DaemonSetUpdateStrategyType, RolloutPlan } from '../model';
import { SecurityReview } from '../review';
import { CliError, CliIo, Command, EXIT_OK, lowerFirst, oneLine, PROGRAM, parseCommandArgs, usageError } from './_command';
import { inputErrors } from './_input-errors';
import { InputProblems, loadObjects, LoadedObject, uniqueNodes, whereIs } from './_manifests';

const HELP = `usage: ${PROGRAM} coverage --nodes NODES [--nodes NODES...] [--json] FILE...

Predicts, offline, which nodes each DaemonSet in FILE... runs on, the way the DaemonSet
controller decides it, and explains every node it will not run on.

  FILE            manifests: YAML streams with any kinds (as cdk8s synth writes) or JSON;
                  List kinds are flattened. Every DaemonSet found is reported.
  --nodes NODES   the node inventory: a NodeList or Node documents, YAML or JSON, as
                  'kubectl get nodes -o yaml > nodes.yaml' writes. Repeat to merge files.
  --json          print JSON instead of text:
                    { "nodeCount": N, "daemonSets": [{ "namespace", "name", "desired",
                      "nodes": [{ "name", "shouldRun", "reasons", "warnings"? }],
                      "rollout": { "strategy", "maxUnavailable", "maxSurge", "waves" } }] }
  -h, --help      print this help

Text output, per DaemonSet:
  - a 'kubectl get ds'-style line: NAMESPACE, NAME, DESIRED (the nodes that should run
    it) and NODE SELECTOR ('key=value,...' or <none>); DaemonSets without a namespace
    show 'default'; then, when the pod template has one, the required node affinity
    that places it too ('required node affinity: zone in (a,b),!spot or ...': a node
    matches one term, all of its requirements);
  - each node that will not run it, with every reason and its fix (untolerated
    NoSchedule/NoExecute taints, nodeSelector, required node affinity, nodeName);
  - each node it runs on where its pods fail: a Windows node given a pod that declares no OS;
  - the rollout: maxUnavailable and maxSurge scaled to nodes (percentages round up)
    and the number of waves needed to update every node.

The prediction covers the controller's decision only: a node counted here can still hold a
Pending pod if it lacks resources or a host port is taken.

exit status: 0 on success; 2 for bad input, with nothing on stdout and one 'error:' line
per file or object on stderr, naming the file, the line, the document and the field:
  - missing arguments;
  - a file that cannot be read as Kubernetes objects: unreadable, empty, not UTF-8 (or
    UTF-16 with a BOM) YAML or JSON, invalid YAML, an alias bomb, nested deeper than 200
    levels, a document without apiVersion, kind or metadata.name;
  - a nodes file without Node objects;
  - an object the API server would reject: a DaemonSet without spec.template, a Node or
    DaemonSet whose placement or update strategy fields have the wrong type (taints:
    "oops"), a workload with review's NA-REVIEW-ERROR or NA-API-REJECTED findings or
    that a review rule cannot evaluate (a field of the wrong type, a duplicate hostPort):
    the same input errors as review with its default packs.

example:
  kubectl get nodes -o yaml > nodes.yaml
  ${PROGRAM} coverage --nodes nodes.yaml dist/*.k8s.yaml
`;

/** the JSON report (`--json`). */
interface CoverageReport {
  readonly nodeCount: number;
  readonly daemonSets: DaemonSetReport[];
}

interface DaemonSetReport {
  readonly namespace: string;
  readonly name: string;
  readonly desired: number;
  readonly nodes: Array<{ readonly name: string; readonly shouldRun: boolean; readonly reasons: string[]; readonly warnings?: string[] }>;
  readonly rollout: { readonly strategy: string; readonly maxUnavailable: number; readonly maxSurge: number; readonly waves: number };
  /** for the text output only (not in the JSON). */
  readonly nodeSelector: string;
  /** the required node affinity's terms, formatted; for the text output only (not in the JSON). */
  readonly requiredAffinity?: string;
}

export const coverageCommand: Command = {
  name: 'coverage',
  summary: 'predict which nodes each DaemonSet runs on (and why not) from a node inventory, and its rollout waves',
  help: HELP,
  async run(args: string[], io: CliIo): Promise<number> {
    const options = parseOptions(args);
    if (options.help) {
      io.stdout.write(HELP);
      return EXIT_OK;
    }
    const { nodes, daemonSets } = load(options);
    const report: CoverageReport = { nodeCount: nodes.length, daemonSets: daemonSets.map((d) => reportDaemonSet(d, nodes)) };

    if (options.json) {
      io.stdout.write(JSON.stringify({ nodeCount: report.nodeCount, daemonSets: report.daemonSets.map(({ nodeSelector, requiredAffinity, ...rest }) => rest) }, null, 2) + '\n');
    } else {
      io.stdout.write(renderText(report, options));
      if (report.daemonSets.length === 0) io.stderr.write(`${oneLine(`note: no DaemonSet found in ${options.files.join(', ')}`)}\n`);
    }
    return EXIT_OK;
  },
};

interface Options {
  readonly help: boolean;
  readonly json: boolean;
  readonly nodeFiles: string[];
  readonly files: string[];
}

function parseOptions(args: string[]): Options {
  const parsed = parseCommandArgs('coverage', {
    args,
    options: {
      nodes: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  const help = parsed.values.help === true;
  const nodeFiles = parsed.values.nodes ?? [];
  const files = parsed.positionals;
  if (!help) {
    if (nodeFiles.length === 0) throw usageError('coverage', 'missing --nodes NODES (the node inventory, e.g. from kubectl get nodes -o yaml)');
    if (files.length === 0) throw usageError('coverage', 'missing FILE (the manifests to check, e.g. dist/*.k8s.yaml)');
  }
  return { help, json: parsed.values.json === true, nodeFiles, files };
}

/**
 * Reads the node inventory and the manifests, and checks them: every file readable as Kubernetes objects, every nodes
 * file with Node objects, every Node and DaemonSet with placement fields of the right shape, every workload free of
 * the review's findings that the API server would reject it (NA-REVIEW-ERROR, NA-API-REJECTED, a rule that could not
 * evaluate it), as `review` checks them with its default packs.
 *
 * @throws CliError with one line per file or object that is not right
 */
function load(options: Options): { nodes: any[]; daemonSets: LoadedObject[] } {
  const problems = new InputProblems();
  const nodeObjects = loadObjects(options.nodeFiles, problems);
  const manifests = loadObjects(options.files, problems);
  for (const file of options.nodeFiles) {
    if (!problems.filesWithProblems.has(file) && !nodeObjects.some((o) => o.file === file && o.object.kind === 'Node')) {
      problems.lines.push(`${file}: no Node objects found; pass a NodeList or Node documents, e.g. from 'kubectl get nodes -o yaml'`);
    }
  }
  const nodes = uniqueNodes(nodeObjects.filter((o) => o.object.kind === 'Node'));
  problems.lines.push(...nodes.problems);
  problems.lines.push(...inputErrors(nodes.nodes));
  // the review with its default packs, for the input errors it finds: the same verdict on a file as `review`'s
  problems.lines.push(...inputErrors(manifests, SecurityReview.review(manifests.map((o) => o.object))));
  problems.throwIfAny();
  return { nodes: nodes.nodes.map((o) => o.object), daemonSets: manifests.filter((o) => o.object.kind === 'DaemonSet') };
}

function reportDaemonSet(loaded: LoadedObject, nodes: any[]): DaemonSetReport {
  const ds = loaded.object;
  const namespace = typeof ds.metadata?.namespace === 'string' && ds.metadata.namespace !== '' ? ds.metadata.namespace : 'default';
  const name = String(ds.metadata?.name ?? '');
  let plan;
  let rollout: RolloutPlan;
  try {
    plan = DaemonSetCoverage.plan(ds, nodes);
    rollout = RolloutPlan.of(ds, plan.desired);
  } catch (e: any) {
    throw new CliError(`${whereIs(loaded)}: ${lowerFirst(String(e?.message ?? e))}`);
  }
  return {
    namespace,
    name,
    desired: plan.desired,
    nodes: plan.placements.map((p) => ({
      name: p.nodeName, shouldRun: p.shouldRun, reasons: p.reasons, ...(p.warnings ? { warnings: p.warnings } : {}),
    })),
    rollout: { strategy: rollout.strategy, maxUnavailable: rollout.maxUnavailable, maxSurge: rollout.maxSurge, waves: rollout.waves },
    nodeSelector: formatNodeSelector(ds.spec?.template?.spec?.nodeSelector),
    requiredAffinity: formatRequiredAffinity(ds.spec?.template?.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution),
  };
}

const OPERATORS: Record<string, (key: string, values: string[]) => string> = {
  In: (k, v) => `${k} in (${v.join(',')})`,
  NotIn: (k, v) => `${k} notin (${v.join(',')})`,
  Exists: (k) => k,
  DoesNotExist: (k) => `!${k}`,
  Gt: (k, v) => `${k}>${v[0]}`,
  Lt: (k, v) => `${k}<${v[0]}`,
};

/**
 * The required node affinity's terms as label-selector strings (`zone in (a,b),!spot`), in the form kubectl prints
 * selectors, the terms joined by " or " (a node needs to match one term: every requirement of it). Field requirements
 * are prefixed with "field:". Undefined when the DaemonSet has none (the placement already checked the shape).
 */
function formatRequiredAffinity(required: any): string | undefined {
  if (required === undefined || required === null) return undefined;
  const terms: any[] = required.nodeSelectorTerms ?? [];
  if (terms.length === 0) return 'no nodeSelectorTerms: matches no node';
  // a null requirement is the empty one the API server decodes (the placement reports it invalid)
  const requirement = (given: any, prefix: string) => {
    const r = given ?? {};
    return OPERATORS[r.operator]?.(prefix + r.key, r.values ?? []) ?? `${prefix}${r.key ?? ''} ${r.operator ?? ''} (${(r.values ?? []).join(',')})`;
  };
  return terms.map((t) => [
    ...(t?.matchExpressions ?? []).map((r: any) => requirement(r, '')),
    ...(t?.matchFields ?? []).map((r: any) => requirement(r, 'field:')),
  ].join(',') || '<empty term: matches no node>').join(' or ');
}

/** like kubectl's `labels.FormatLabels`: sorted `key=value` pairs joined by commas, or `<none>`. */
function formatNodeSelector(selector: unknown): string {
  if (!selector || typeof selector !== 'object') return '<none>';
  const pairs = Object.entries(selector as Record<string, unknown>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v ?? ''}`);
  return pairs.length === 0 ? '<none>' : pairs.join(',');
}

function renderText(report: CoverageReport, options: Options): string {
  const lines: string[] = [`${plural(report.nodeCount, 'node')} in ${options.nodeFiles.join(', ')}`];
  for (const ds of report.daemonSets) {
    lines.push('');
    lines.push(...table([['NAMESPACE', 'NAME', 'DESIRED', 'NODE SELECTOR'], [ds.namespace, ds.name || '<unnamed>', String(ds.desired), ds.nodeSelector]]));
    if (ds.requiredAffinity !== undefined) lines.push(`  required node affinity: ${ds.requiredAffinity}`);
    const skipped = ds.nodes.filter((n) => !n.shouldRun);
    if (skipped.length === 0) {
      lines.push(report.nodeCount === 0 ? '  no nodes in the inventory' : `  runs on all ${plural(report.nodeCount, 'node')}`);
    }
    for (const n of skipped) {
      lines.push(`  not on ${n.name || '<unnamed node>'}:`);
      for (const reason of n.reasons) lines.push(`    - ${reason}`);
    }
    for (const n of ds.nodes.filter((x) => x.warnings)) {
      lines.push(`  warning: on ${n.name || '<unnamed node>'}:`);
      for (const warning of n.warnings!) lines.push(`    - ${warning}`);
    }
    lines.push(`  rollout: ${describeRollout(ds.rollout, ds.desired)}`);
  }
  return lines.join('\n') + '\n';
}

function describeRollout(rollout: DaemonSetReport['rollout'], desired: number): string {
  if (rollout.strategy === DaemonSetUpdateStrategyType.ON_DELETE) {
    return 'OnDelete: nothing is automatic; a node gets the new pod only after its old pod is deleted';
  }
  return `RollingUpdate over ${plural(desired, 'node')}: maxUnavailable ${plural(rollout.maxUnavailable, 'node')}, ` +
    `maxSurge ${plural(rollout.maxSurge, 'node')}, ${plural(rollout.waves, 'wave')}`;
}

/** columns separated by three spaces, padded to the widest cell, like kubectl. */
function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c] + 3))).join(''));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

