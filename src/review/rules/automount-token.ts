import { UNKNOWN_NAMESPACE } from '../_namespace';
import { anyBindingNames, findServiceAccount, grantsTo } from '../_rbac';
import { namespaceKey, podField, serviceAccountLabel, serviceAccountName } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

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
  public readonly fix = 'set automountServiceAccountToken: false on the pod spec (or on its ServiceAccount); if the agent calls the API, ' +
    'bind it the Role it needs in the same manifests';

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
    return [{
      message: `mounts an API token for ${serviceAccountLabel(workload)} (${how}), but no RoleBinding or ClusterRoleBinding in the manifests grants it anything`,
      field: podField(workload, 'automountServiceAccountToken'),
    }];
  }
}
