// Internal: the RBAC right to redirect Service traffic, judged from one policy rule in the scope of its binding.
// Writes to a Service's spec (externalIPs), to its status (status.loadBalancer.ingress) or to the Endpoints and
// EndpointSlices behind it send traffic where the writer chooses: CVE-2020-8554 (an externalIP or a load-balancer IP
// is intercepted for every pod of the cluster, from any namespace: unfixed by design, mitigated by the
// DenyServiceExternalIPs admission plugin or an admission policy) and CVE-2021-25740 (Endpoints that point elsewhere;
// Kubernetes 1.22 removed Endpoints writes from the aggregated edit and admin roles for it).
import { UNKNOWN_NAMESPACE, describeNamespace } from './_namespace';
import { PolicyRule, allowedVerbs } from './_rbac';
import { RightHit, Scope } from './_rbac-rights';
import { Severity } from './severity';

export const RULE_TRAFFIC = 'NA-RBAC-TRAFFIC';

const WRITE = ['create', 'update', 'patch'];

export const TRAFFIC_FIX = 'keep these writes only in the controller that assigns the addresses or manages the endpoints (a load-balancer ' +
  'or endpoints controller), not in an agent on every node, and acknowledge the finding with that reason; block externalIPs cluster-wide ' +
  'with the DenyServiceExternalIPs admission plugin or a ValidatingAdmissionPolicy';

/** the traffic-redirecting rights one rule grants in its scope. */
export function traffic(r: PolicyRule, scope: Scope): RightHit[] {
  const where = scope.cluster ? 'in every namespace' : `in ${describeNamespace(scope.namespace ?? UNKNOWN_NAMESPACE)}`;
  const hits: RightHit[] = [];
  const hit = (key: string, severity: Severity, verbs: string[], resource: string, names: string[] | undefined, what: string) => hits.push({
    rule: RULE_TRAFFIC,
    key,
    severity: names ? Severity.MEDIUM : severity,
    what: `${names ? `for the objects named ${names.map((n) => JSON.stringify(n)).join(', ')} ` : ''}${what} (${verbs.join(', ')} on ` +
      `${resource}${names ? ', limited by resourceNames' : ''} ${where})`,
    fix: TRAFFIC_FIX,
    limited: names !== undefined,
  });
  const services = allowedVerbs(r, '', 'services', WRITE);
  if (services) {
    hit('services', Severity.HIGH, services.verbs, 'services', services.names,
      'can set a Service\'s externalIPs, and so intercept the traffic every pod of the cluster sends to those addresses, any external ' +
      'address included (CVE-2020-8554, from any namespace), and can point existing Services at other pods by changing their selectors');
  }
  const status = allowedVerbs(r, '', 'services/status', ['update', 'patch']);
  if (status) {
    hit('services/status', Severity.HIGH, status.verbs, 'services/status', status.names,
      'can set a LoadBalancer Service\'s status.loadBalancer.ingress addresses, which kube-proxy then routes to that Service\'s pods: ' +
      'intercepts the traffic every pod of the cluster sends to those addresses (CVE-2020-8554, from any namespace)');
  }
  const endpoints = allowedVerbs(r, '', 'endpoints', WRITE);
  const slices = allowedVerbs(r, 'discovery.k8s.io', 'endpointslices', WRITE);
  // the API server's own Service, default/kubernetes, is among them cluster-wide and in the default namespace
  const reachesApiServer = scope.cluster || scope.namespace === 'default';
  const endpointsSeverity = reachesApiServer || scope.namespace === 'kube-system' ? Severity.HIGH : Severity.MEDIUM;
  const endpointsWhat = `can point the Services ${where} at any address${reachesApiServer ? ', the API server\'s own default/kubernetes ' +
    'included' : ''}: their clients\' traffic goes where it chooses (CVE-2021-25740)`;
  if (endpoints) hit('endpoints', endpointsSeverity, endpoints.verbs, 'endpoints', endpoints.names, endpointsWhat);
  if (slices) hit('endpointslices', endpointsSeverity, slices.verbs, 'endpointslices', slices.names, endpointsWhat);
  return hits;
}
