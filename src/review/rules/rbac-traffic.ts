import { rbacViolations } from '../_rbac-findings';
import { RULE_TRAFFIC, TRAFFIC_FIX } from '../_rbac-traffic';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';
import { RBAC_SCOPE } from './_rbac-scope';

/**
 * `NA-RBAC-TRAFFIC`: the workload's ServiceAccount cannot redirect Service traffic (writes to services, services/status,
 * endpoints or endpointslices).
 */
export class RbacTrafficRule implements IReviewRule {
  public readonly id = RULE_TRAFFIC;
  public readonly severity = Severity.HIGH;
  public readonly ratesByRisk?: boolean = true;
  public readonly title = 'The workload\'s ServiceAccount cannot redirect Service traffic';
  public readonly explanation = 'Whoever writes a Service\'s spec or status, or the Endpoints and EndpointSlices behind it, decides where ' +
    'its traffic goes. create, update or patch on services sets externalIPs, and update or patch on services/status sets a ' +
    'LoadBalancer\'s ingress addresses: kube-proxy on every node then sends the traffic any pod addresses to those IPs (external ones ' +
    'included) to the attacker\'s pods, whatever the namespace of the Service (CVE-2020-8554, unfixed by design). create, update or patch ' +
    'on endpoints or endpointslices points Services at any address, the API server\'s default/kubernetes included when the right is ' +
    'cluster-wide or in default (CVE-2021-25740: Kubernetes 1.22 took Endpoints writes out of the edit and admin roles). High; medium ' +
    'for endpoints in another namespace, and when resourceNames limits the right to named objects. Load-balancer and endpoints ' +
    'controllers need these writes; an agent on every node rarely does, and its token is on every node.' + RBAC_SCOPE;
  public readonly fix = TRAFFIC_FIX;

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return rbacViolations(workload, this.id);
  }
}
