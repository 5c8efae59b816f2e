import { ownNamespace, sourceNote } from '../_namespace';
import { anyBindingNames, bindingNamespacesOf } from '../_rbac';
import { serviceAccountName } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

const SHARED = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
const FIELD = 'metadata.namespace';

/**
 * `NA-NAMESPACE`: the workload runs in a namespace of its own, not `default` or a `kube-*` system namespace, and its
 * manifest says which.
 *
 * Part of the node-agent baseline: a namespace of its own gives the agent its own Pod Security level, RBAC and policies.
 */
export class DedicatedNamespaceRule implements IReviewRule {
  public readonly id = 'NA-NAMESPACE';
  public readonly severity = Severity.MEDIUM;
  public readonly title = 'The workload runs in a dedicated namespace';
  public readonly explanation = 'A namespace of its own lets the agent have its own Pod Security level, RBAC, quotas and network policies. ' +
    'In default it shares all of them with whatever else lands there; in kube-system it sits next to the control plane\'s ' +
    'credentials, and any RoleBinding there reaches it. A manifest without a namespace lands wherever kubectl is pointed: the ' +
    'namespace given with --namespace, else that of kubectl\'s context. The review resolves it the same way: --namespace ' +
    '(ReviewOptions.namespace), judged like a namespace the manifest sets; else the one namespace all the other objects of its file ' +
    'set, which the review uses but kubectl does not, so the manifest should say it; else unknown, never assumed to be default.';
  public readonly fix = 'set metadata.namespace to a namespace of the agent\'s own (e.g. observability) and create that Namespace; ' +
    'acknowledge the finding where convention requires kube-system (kube-proxy, some CNI plugins)';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const own = ownNamespace(workload.manifest);
    const ns = own ?? workload.namespace;
    if (ns !== undefined && (own !== undefined || workload.namespaceSource === 'option')) {
      if (!SHARED.includes(ns)) return [];
      return [{ message: `runs in the shared namespace ${ns}${own !== undefined ? '' : sourceNote('option')}`, field: FIELD }];
    }
    if (ns !== undefined) {
      const shared = SHARED.includes(ns);
      return [{
        message: `sets no namespace: kubectl applies it to the namespace of its context (or of --namespace), not necessarily to ${ns}, ` +
          `the namespace every other object of its file sets, which the review takes${shared ? ` (${ns} is a shared namespace)` : ''}`,
        field: FIELD,
        fix: shared ? `set metadata.namespace to a namespace of the agent's own, with the other objects of its file (they use ${ns}); ` +
          'acknowledge the finding where convention requires kube-system' : `set metadata.namespace: ${ns}, as the other objects of its file do`,
      }];
    }
    const sa = serviceAccountName(workload);
    const expected = bindingNamespacesOf(workload.allManifests, sa, workload.options.namespace);
    const unmatched = expected.length === 1
      ? `; the bindings of its ServiceAccount ${sa} name it in namespace ${expected[0]}: the RBAC rules judge its rights as applied there`
      : anyBindingNames(workload.allManifests, sa, workload.options.namespace)
        ? `; bindings that name its ServiceAccount ${sa} in a namespace could not be matched to it` : '';
    return [{
      message: 'sets no namespace: it lands in the namespace kubectl is given (--namespace) or that of its context, often default, and ' +
        `the review cannot tell which (the other objects of its file set none or several)${unmatched}`,
      field: FIELD,
      fix: 'set metadata.namespace to a namespace of the agent\'s own, or review with --namespace NAMESPACE, the namespace it is applied to',
    }];
  }
}
