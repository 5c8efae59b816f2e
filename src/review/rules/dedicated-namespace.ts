import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

const SHARED = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/**
 * `NA-NAMESPACE`: the workload sets a namespace of its own, not `default` or a `kube-*` system namespace.
 *
 * Part of the node-agent baseline: a namespace of its own gives the agent its own Pod Security level, RBAC and policies.
 */
export class DedicatedNamespaceRule implements IReviewRule {
  public readonly id = 'NA-NAMESPACE';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'The workload runs in a dedicated namespace';
  public readonly explanation = 'A namespace of its own lets the agent have its own Pod Security level, RBAC, quotas and network policies. ' +
    'In default it shares all of them with whatever else lands there; in kube-system it sits next to the control plane\'s ' +
    'credentials, and any RoleBinding there reaches it. A manifest without a namespace lands wherever the person applying it points kubectl.';
  public readonly fix = 'set metadata.namespace to a namespace of the agent\'s own (e.g. observability) and create that Namespace; ' +
    'acknowledge the finding where convention requires kube-system (kube-proxy, some CNI plugins)';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    if (workload.namespace === undefined || workload.namespace === '') {
      return [{ message: 'sets no namespace: it lands in the namespace of whoever applies it, usually default', field: 'metadata.namespace' }];
    }
    if (SHARED.includes(workload.namespace)) {
      return [{ message: `runs in the shared namespace ${workload.namespace}`, field: 'metadata.namespace' }];
    }
    return [];
  }
}
