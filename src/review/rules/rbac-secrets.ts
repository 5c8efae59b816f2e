import { rbacViolations } from '../_rbac-findings';
import { RULE_SECRETS } from '../_rbac-rights';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';
import { RBAC_SCOPE } from './_rbac-scope';

/**
 * `NA-RBAC-SECRETS`: the workload's ServiceAccount reads no Secrets through the API (get, list, watch on `secrets` in the core group).
 */
export class RbacSecretsRule implements IReviewRule {
  public readonly id = RULE_SECRETS;
  public readonly severity = Severity.CRITICAL;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'The workload\'s ServiceAccount reads no Secrets through the API';
  public readonly explanation = 'Reading Secrets (get, list or watch: list and watch return their data too) reads every credential in scope. ' +
    'Critical cluster-wide or in kube-system (bootstrap tokens, the controllers\' credentials); high in another ' +
    'namespace, whose workloads keep their credentials there; medium when resourceNames limits the rule to named ' +
    'Secrets (the message names them). Changing Secrets without reading them (update, patch, delete) replaces or ' +
    'deletes the credentials other workloads read: medium cluster-wide or in kube-system, low elsewhere or limited ' +
    'by resourceNames; create alone, which adds Secrets, is low. A * resource in a named API group ' +
    '(k8s.cni.cncf.io, crd.projectcalico.org) grants no Secrets: they are in the core group.' + RBAC_SCOPE;
  public readonly fix = 'mount the Secrets the agent needs as Secret volumes, or grant read access with a RoleBinding in their namespace, limited by resourceNames to them';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return rbacViolations(workload, this.id);
  }
}
