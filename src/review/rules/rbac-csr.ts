import { rbacViolations } from '../_rbac-findings';
import { RULE_CSR } from '../_rbac-rights';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';
import { RBAC_SCOPE } from './_rbac-scope';

/**
 * `NA-RBAC-CSR`: the workload's ServiceAccount cannot approve certificate signing requests for the API server's client signers.
 */
export class RbacCsrRule implements IReviewRule {
  public readonly id = RULE_CSR;
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'The workload\'s ServiceAccount cannot approve client certificates';
  public readonly explanation = 'Approving a certificate signing request takes update (or patch) on certificatesigningrequests/approval and ' +
    'approve on the request\'s signer. For kubernetes.io/kube-apiserver-client the approved certificate ' +
    'authenticates as any user and group, system:masters included, and for ' +
    'kubernetes.io/kube-apiserver-client-kubelet as any node: critical when the ServiceAccount can also create ' +
    'requests, high when it can only approve those others create. kubernetes.io/kubelet-serving (any kubelet\'s ' +
    'serving certificate) is high; signers outside kubernetes.io, whose certificates the API server accepts only if ' +
    'configured to trust their CA, medium. One of the two rights alone approves nothing and is not reported.' + RBAC_SCOPE;
  public readonly fix = 'limit approve on signers with resourceNames to the agent\'s own signer';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return rbacViolations(workload, this.id);
  }
}
