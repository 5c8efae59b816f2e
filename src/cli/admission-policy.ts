// `cdk8s-node-agents admission-policy`: writes the host-access ValidatingAdmissionPolicy and its binding as YAML, for
// teams that apply manifests without cdk8s (the same objects the HostAccessPolicy construct renders).

import { stringify } from 'yaml';
import { CliIo, Command, EXIT_OK, PROGRAM, parseCommandArgs, usageError } from './_command';
import { admissionPolicyErrors, admissionPolicyManifests, POLICY_WORKLOADS } from '../model/_admission-policy';

const DEFAULT_NAME = 'node-agents-host-access';

const HELP = `usage: ${PROGRAM} admission-policy [--workload KIND...] [--action ACTION...]
                                   [--failure-policy Fail|Ignore] [--namespace-label K=V...]
                                   [--object-label K=V...] [--exempt-namespace NS...] [--name NAME]
                                   [--allowed-registry R... --registries-namespace NS]

Writes to stdout, as YAML, a ValidatingAdmissionPolicy and its binding
(admissionregistration.k8s.io/v1, Kubernetes 1.30 and later) that refuse a workload taking a
host privilege (hostPath, hostNetwork, hostPID, hostIPC, hostPort, privileged, hostProcess,
an added capability, running as root) without a reason. A reason is one annotation per
privilege on the workload's metadata, which NodeAgent writes itself:
  host-access.node-agents.cdk8s.io/<name>: "hostPath /var/log (read-only) | tails the node's logs"
  host-access.node-agents.cdk8s.io/<name>: "capability[agent] NET_ADMIN | programs routes"
(<name> is free; "[container]" after the type narrows a container's privilege to one
container). The policy's checks are generated from the same descriptors as the review's;
what it leaves to the review is listed in the README.

  --workload KIND           check this kind: ${Object.keys(POLICY_WORKLOADS).join(', ')};
                            repeat for more. Default: DaemonSet
  --action ACTION           Deny, Warn or Audit (Audit with either of the others); repeat
                            for more. Default: Deny
  --failure-policy P        Fail (refuse) or Ignore (admit) when the policy cannot be
                            evaluated. Default: Fail
  --namespace-label K=V     check only namespaces with this label; repeat for more
  --object-label K=V        check only workloads with this label; repeat for more
  --exempt-namespace NS     do not check this namespace; repeat for more
  --name NAME               the name of the policy and of its binding. Default: ${DEFAULT_NAME}
  --allowed-registry R      images must also come from R: a registry host (registry.example.com)
                            or a host and path prefix (docker.io/falcosecurity), as review's
                            --allowed-registry reads it; repeat for more. Written as a ConfigMap
                            (data.allowedRegistries, one per line) that the binding names as the
                            policy's parameter, before the policy. Default: images not checked
  --registries-namespace NS the namespace of that ConfigMap (required with --allowed-registry)
  -h, --help                print this help

exit status: 0 when the YAML is written; 2 for bad arguments (one 'error:' line each).

example:
  ${PROGRAM} admission-policy --exempt-namespace kube-system > host-access-policy.yaml
  kubectl apply -f host-access-policy.yaml
`;

function labels(command: string, option: string, values: string[] | undefined): { [key: string]: string } | undefined {
  if (values === undefined) return undefined;
  const result: { [key: string]: string } = {};
  for (const v of values) {
    const at = v.indexOf('=');
    if (at <= 0) throw usageError(command, `${option} must be KEY=VALUE, got ${JSON.stringify(v)}`);
    result[v.slice(0, at)] = v.slice(at + 1);
  }
  return result;
}

export const admissionPolicyCommand: Command = {
  name: 'admission-policy',
  summary: 'write the ValidatingAdmissionPolicy (and binding) that refuses host privileges without a reason, as YAML',
  help: HELP,
  async run(args: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommandArgs('admission-policy', {
      args,
      allowPositionals: true,
      options: {
        'help': { type: 'boolean', short: 'h' },
        'workload': { type: 'string', multiple: true },
        'action': { type: 'string', multiple: true },
        'failure-policy': { type: 'string' },
        'namespace-label': { type: 'string', multiple: true },
        'object-label': { type: 'string', multiple: true },
        'exempt-namespace': { type: 'string', multiple: true },
        'name': { type: 'string' },
        'allowed-registry': { type: 'string', multiple: true },
        'registries-namespace': { type: 'string' },
      },
    });
    if (values.help) {
      io.stdout.write(HELP);
      return EXIT_OK;
    }
    if (positionals.length > 0) throw usageError('admission-policy', `unexpected argument ${JSON.stringify(positionals[0])}`);
    const namespaceLabels = labels('admission-policy', '--namespace-label', values['namespace-label']);
    const objectLabels = labels('admission-policy', '--object-label', values['object-label']);
    const registries = values['allowed-registry'];
    if ((registries === undefined) !== (values['registries-namespace'] === undefined)) {
      throw usageError('admission-policy', '--allowed-registry and --registries-namespace go together: the allowed registries are a ConfigMap in that namespace');
    }
    const name = values.name ?? DEFAULT_NAME;
    const spec = {
      name,
      registries: registries === undefined ? undefined : { name, namespace: values['registries-namespace']!, allowed: registries },
      workloads: values.workload ?? ['DaemonSet'],
      validationActions: values.action ?? ['Deny'],
      failurePolicy: values['failure-policy'] ?? 'Fail',
      namespaceSelector: namespaceLabels && { matchLabels: namespaceLabels },
      objectSelector: objectLabels && { matchLabels: objectLabels },
      exemptNamespaces: values['exempt-namespace'] ?? [],
    };
    const errors = admissionPolicyErrors(spec);
    if (errors.length > 0) throw usageError('admission-policy', errors.join('; '));
    io.stdout.write(admissionPolicyManifests(spec).map((o) => stringify(o, { lineWidth: 0 })).join('---\n'));
    return EXIT_OK;
  },
};
