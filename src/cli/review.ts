// `cdk8s-node-agents review`: the security review of every workload in a set of manifests (cdk8s output, a
// third-party chart's rendered output, kubectl get -o yaml).

import { PodSecurity } from '../model';
import { HOST_PRIVILEGES } from '../model/_host-privileges';
import { ReviewPack, Severities, Severity, SecurityReview } from '../review';
import { CliError, CliIo, Command, EXIT_FAILURE, EXIT_OK, oneLine, PROGRAM, parseCommandArgs, usageError } from './_command';
import { inputErrors } from './_input-errors';
import { loadObjects } from './_manifests';
import { namespaceNameError } from '../review/_namespace';

const PACK_IDS = ReviewPack.all().map((p) => p.id);
// one line per host privilege type, from the model's descriptors: what grants it and how its detail reads.
const HOST_ACCESS_TYPES = HOST_PRIVILEGES
  .map((d) => wrap(`${d.type}: ${d.grantedBy}; detail: ${d.detailFormat}`, 30, 90))
  .join('\n');

/** `text` in lines of at most `width` columns, each indented by `indent` spaces (continuations by two more). */
function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const pad = lines.length === 0 ? indent : indent + 2;
    if (line !== '' && pad + line.length + 1 + word.length > width) {
      lines.push(' '.repeat(pad) + line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(' '.repeat(lines.length === 0 ? indent : indent + 2) + line);
  return lines.join('\n');
}
const DEFAULT_PACK_IDS = ReviewPack.defaults().map((p) => p.id);

const HELP = `usage: ${PROGRAM} review [--json] [--fail-on SEVERITY] [--pack ID...] [--allowed-registry R...]
                         [--registry-mirror M...] [--pod-security-version V] [--namespace NS] FILE...

Reviews the security of every workload in FILE... (DaemonSet, Deployment, StatefulSet,
ReplicaSet, Job, CronJob, Pod): its Pod Security level, every host privilege with its risk,
what an attacker gains through it, the safer alternative and the reason recorded for it,
and the findings of the rule packs, open and acknowledged. The other objects (Namespaces,
ServiceAccounts, RBAC) are read as context.

  FILE                      manifests: YAML streams with any kinds (as cdk8s synth or
                            helm template write) or JSON; List kinds are flattened
  --json                    print JSON instead of the Markdown report:
                              { "podSecurityVersion", "packs", "workloads": [{ "kind",
                                "namespace", "namespaceSource", "name",
                                "podSecurityLevel",
                                "hostAccess": [{ "type", "detail", "risk", "container",
                                  "reason", "attackerGains", "saferAlternative" }],
                                "findings": [{ "rule", "severity", "message", "fix",
                                  "container", "field", "acknowledged",
                                  "acknowledgedReason" }] }] }
                            type and detail, one line per type:
${HOST_ACCESS_TYPES}
  --fail-on SEVERITY        exit 1 when an unacknowledged finding at or above SEVERITY
                            (${Severities.all().join(', ')}) is open; without it the exit
                            status ignores findings
  --pack ID                 run this rule pack instead of the defaults; repeat for more.
                            Packs: ${PACK_IDS.join(', ')}
                            (default: ${DEFAULT_PACK_IDS.join(', ')}); see RULES.md
  --allowed-registry R      images must come from R: a registry host (registry.example.com)
                            or a host and path prefix (docker.io/falcosecurity); repeat for
                            more. Default: any registry
  --registry-mirror M       images were rewritten to the mirror M as M/<registry>/<path>
                            (RegistryMirror): judge such an image by the registry it
                            mirrors; repeat for more. Default: none
  --pod-security-version V  the Pod Security policy version: 1.25 and later (1.28, v1.34)
                            or latest. Default: ${PodSecurity.DEFAULT_VERSION}
  -n, --namespace NS        the namespace the manifests are applied to (kubectl apply -n NS):
                            the namespace of every object that sets none; an object that
                            sets another is an error, as kubectl rejects it. Default: the
                            one namespace all other objects of the object's FILE set, else
                            unknown (never assumed to be default)
  -h, --help                print this help

The API server's own rules on host access (duplicate host ports, hostPort on the host
network, Bidirectional propagation outside privileged containers, allowPrivilegeEscalation:
false beside privileged or CAP_SYS_ADMIN) are always checked, whatever the packs: their
findings (NA-API-REJECTED) cannot be acknowledged, and like NA-REVIEW-ERROR (a field of the
wrong type) they make the exit status 2: the API server would reject the manifest.

A finding is accepted, with a reason, in the workload's metadata annotation
  node-agents.cdk8s.io/acknowledged: '[{"rule": "NA-NAMESPACE", "reason": "..."}]'
(a "container" key narrows it to one container); it stays in the report, marked
acknowledged. Reasons for host privileges go in node-agents.cdk8s.io/host-access.

exit status: 0 on success (findings or not, without --fail-on); 1 when --fail-on finds an
open finding at or above its severity; 2 for bad input, with one 'error:' line per file or
object on stderr, naming the file, the line, the document and the field:
  - bad arguments, or a file that cannot be read as Kubernetes objects: unreadable, empty,
    not UTF-8 (or UTF-16 with a BOM) YAML or JSON, invalid YAML, an alias bomb, nested
    deeper than 200 levels, a document without apiVersion, kind or metadata.name. Nothing
    is printed on stdout;
  - an object the API server would reject: a workload with a NA-REVIEW-ERROR or
    NA-API-REJECTED finding or that a rule could not evaluate (a field of the wrong type),
    a DaemonSet without spec.template, a Node or DaemonSet whose placement or update
    strategy fields have the wrong type. The report is printed first
    (those findings say what to fix; the other workloads are reviewed as usual), then the
    errors. Exit 2 wins over --fail-on.

examples:
  ${PROGRAM} review dist/*.k8s.yaml
  helm template fluent-bit fluent/fluent-bit > fluent-bit.yaml
  ${PROGRAM} review --fail-on high --allowed-registry cr.fluentbit.io fluent-bit.yaml
`;

interface Options {
  readonly help: boolean;
  readonly json: boolean;
  readonly failOn?: Severity;
  readonly packs?: ReviewPack[];
  readonly allowedRegistries?: string[];
  readonly registryMirrors?: string[];
  readonly podSecurityVersion?: string;
  readonly namespace?: string;
  readonly files: string[];
}

export const reviewCommand: Command = {
  name: 'review',
  summary: 'review the security of every workload in a set of manifests: Pod Security level, host privileges with risk and reason, findings',
  help: HELP,
  async run(args: string[], io: CliIo): Promise<number> {
    const options = parseOptions(args);
    if (options.help) {
      io.stdout.write(HELP);
      return EXIT_OK;
    }
    const objects = loadObjects(options.files);
    // with each object's file: an object without a namespace takes the one the rest of its file uses
    const report = SecurityReview._reviewFiles(objects.map((o) => o.object), {
      packs: options.packs,
      allowedRegistries: options.allowedRegistries,
      registryMirrors: options.registryMirrors,
      podSecurityVersion: options.podSecurityVersion,
      namespace: options.namespace,
    }, objects.map((o) => o.file));
    // the report is printed even when some objects are invalid: their NA-REVIEW-ERROR and NA-API-REJECTED findings
    // carry the fix, and the rest is reviewed; the exit status (2) and stderr say the input must be fixed.
    io.stdout.write(options.json ? SecurityReview.toJson(report) : SecurityReview.toMarkdown(report));
    if (report.workloads.length === 0) io.stderr.write(`${oneLine(`note: no workload found in ${options.files.join(', ')}`)}\n`);
    const errors = inputErrors(objects, report);
    if (errors.length > 0) throw new CliError(errors);
    if (options.failOn === undefined) return EXIT_OK;
    const open = SecurityReview.openFindings(report, options.failOn);
    if (open.length === 0) return EXIT_OK;
    io.stderr.write(`review: ${open.length} open ${open.length === 1 ? 'finding' : 'findings'} at or above ${options.failOn} (--fail-on ${options.failOn})\n`);
    return EXIT_FAILURE;
  },
};

function reviewUsageError(what: string): CliError {
  return usageError('review', what);
}

function parseOptions(args: string[]): Options {
  const parsed = parseCommandArgs('review', {
    args,
    options: {
      'json': { type: 'boolean' },
      'fail-on': { type: 'string' },
      'pack': { type: 'string', multiple: true },
      'allowed-registry': { type: 'string', multiple: true },
      'registry-mirror': { type: 'string', multiple: true },
      'pod-security-version': { type: 'string' },
      'namespace': { type: 'string', short: 'n' },
      'help': { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  const v = parsed.values;
  const help = v.help === true;
  if (help) return { help, json: false, files: [] };

  let failOn: Severity | undefined;
  if (v['fail-on'] !== undefined) {
    try {
      failOn = Severities.parse(v['fail-on']);
    } catch {
      throw reviewUsageError(`--fail-on must be one of ${Severities.all().join(', ')}, got ${JSON.stringify(v['fail-on'])}`);
    }
  }
  let packs: ReviewPack[] | undefined;
  if (v.pack !== undefined) {
    packs = [];
    for (const id of v.pack) {
      let pack: ReviewPack;
      try {
        pack = ReviewPack.byId(id);
      } catch {
        throw reviewUsageError(`unknown pack ${JSON.stringify(id)} (--pack takes ${PACK_IDS.join(', ')})`);
      }
      if (!packs.some((p) => p.id === pack.id)) packs.push(pack);
    }
  }
  const registries = v['allowed-registry'];
  if (registries !== undefined && registries.some((r) => r.trim() === '')) throw reviewUsageError('--allowed-registry needs a registry, e.g. registry.example.com');
  const mirrors = v['registry-mirror'];
  if (mirrors !== undefined && mirrors.some((r) => r.trim() === '')) throw reviewUsageError('--registry-mirror needs a mirror host, e.g. mirror.example.com');
  const version = v['pod-security-version'];
  if (version !== undefined) {
    try {
      PodSecurity.versionLabel(version);
    } catch (e: any) {
      throw reviewUsageError(`--pod-security-version: ${e.message}`);
    }
  }
  const namespace = v.namespace;
  if (namespace !== undefined) {
    const error = namespaceNameError(namespace);
    if (error) throw reviewUsageError(`--namespace ${error}`);
  }
  if (parsed.positionals.length === 0) throw reviewUsageError('missing FILE (the manifests to review, e.g. dist/*.k8s.yaml)');
  return {
    help,
    json: v.json === true,
    failOn,
    packs,
    allowedRegistries: registries,
    registryMirrors: mirrors,
    podSecurityVersion: version,
    namespace,
    files: parsed.positionals,
  };
}

