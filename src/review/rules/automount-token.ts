import { UNKNOWN_NAMESPACE } from '../_namespace';
import { anyBindingNames, findServiceAccount, grantsTo } from '../_rbac';
import { containersOf, namespaceKey, podField, serviceAccountLabel, serviceAccountName } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/** programs that call the API with the pod's token, by the name of the executable a container runs. */
const API_CLIENTS = new Set(['kube-proxy']);

/** the executable a container runs: the last path segment of command[0], else of args[0] when that is a program path. */
function programOf(container: any): string {
  const first = Array.isArray(container?.command) && container.command.length > 0 ? container.command
    : Array.isArray(container?.args) ? container.args : [];
  // `sh -c "kube-proxy ..."`: the program is the script's first word
  const words = first[0] !== undefined && /(^|\/)(ba)?sh$/.test(String(first[0])) && first[1] === '-c' ? String(first[2] ?? '').trim().split(/\s+/) : first;
  return String(words[0] ?? '').split('/').pop() ?? '';
}

/**
 * `NA-AUTOMOUNT-TOKEN`: a pod whose ServiceAccount no RoleBinding or ClusterRoleBinding among the reviewed manifests
 * names does not mount an API token: `automountServiceAccountToken` is false on the pod or, when the pod leaves it
 * unset, on the ServiceAccount.
 */
export class AutomountTokenRule implements IReviewRule {
  public readonly id = 'NA-AUTOMOUNT-TOKEN';
  public readonly severity = Severity.LOW;
  public readonly title = 'No API token is mounted for a ServiceAccount without RBAC';
  public readonly explanation = 'Kubernetes mounts an API token into every pod unless told not to. An agent that never calls the API ' +
    '(node-exporter, most log shippers writing to a backend) has no use for it, yet whoever escapes into the container gets it, with ' +
    'whatever the cluster grants all ServiceAccounts. The rule judges from the manifests under review: if the ServiceAccount is ' +
    'bound elsewhere, acknowledge the finding with that reason. When the workload\'s namespace is unknown (no metadata.namespace, ' +
    'no --namespace, and no single namespace among the other objects of its file), a binding that names a ServiceAccount of the ' +
    'same name in any namespace may be the one: the rule then says nothing.';
  public readonly fix = 'if the agent never calls the API, set automountServiceAccountToken: false on the pod spec (or on its ' +
    'ServiceAccount); if it does, its RBAC is bound outside these manifests: bind it here, or acknowledge the finding naming that binding';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const sa = serviceAccountName(workload);
    const ns = namespaceKey(workload);
    const option = workload.options.namespace;
    const podSetting = workload.podSpec.automountServiceAccountToken;
    let how: string;
    if (podSetting !== undefined && podSetting !== null) {
      if (podSetting === false) return [];
      how = 'the pod sets automountServiceAccountToken: true';
    } else {
      const account = findServiceAccount(workload.allManifests, sa, ns, option);
      if (account?.automountServiceAccountToken === false) return [];
      how = account ? 'neither the pod nor its ServiceAccount sets automountServiceAccountToken: false'
        : 'the pod does not set automountServiceAccountToken: false';
    }
    if (grantsTo(workload.allManifests, sa, ns, option).length > 0) return [];
    // with an unknown namespace, a binding for this name in some namespace may be the one that applies
    if (ns === UNKNOWN_NAMESPACE && anyBindingNames(workload.allManifests, sa, option)) return [];
    const client = containersOf(workload).find((c) => API_CLIENTS.has(programOf(c.container)));
    return [{
      message: `mounts an API token for ${serviceAccountLabel(workload)} (${how}), but no RoleBinding or ClusterRoleBinding in the manifests grants it anything` +
        (client ? `; container ${JSON.stringify(client.name)} runs ${programOf(client.container)}, which calls the API with that token` : ''),
      field: podField(workload, 'automountServiceAccountToken'),
      // an agent that watches the API needs its token: turning it off breaks it
      fix: client ? `keep the token: ${programOf(client.container)} watches the API with it; its RBAC is bound outside these manifests (kube-proxy's ` +
        'by kubeadm to system:node-proxier): acknowledge the finding naming that binding, or bind it here' : undefined,
    }];
  }
}
