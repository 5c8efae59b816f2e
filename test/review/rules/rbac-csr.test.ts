import { RbacCsrRule, Severity } from '../../../src/review';
import { boundCluster, findingsOf } from '../util';

const rule = new RbacCsrRule();
const GROUP = 'certificates.k8s.io';
const APPROVAL = { apiGroups: [GROUP], resources: ['certificatesigningrequests/approval'], verbs: ['update'] };
const CREATE = { apiGroups: [GROUP], resources: ['certificatesigningrequests'], verbs: ['create', 'get'] };
const approve = (resourceNames?: string[]) => ({ apiGroups: [GROUP], resources: ['signers'], verbs: ['approve'], ...(resourceNames ? { resourceNames } : {}) });

describe('NA-RBAC-CSR: the ServiceAccount cannot approve client certificates', () => {
  test('Noncompliance 1: approval and approve on every signer, with create on requests, is critical', () => {
    const findings = findingsOf(rule, boundCluster([APPROVAL, approve(), CREATE]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findings[0].message).toContain('can approve certificate signing requests for every signer (approve on signers, with update on ' +
      'certificatesigningrequests/approval): kubernetes.io/kube-apiserver-client issues client certificates for any user and group, system:masters ' +
      'included, and kubernetes.io/kube-apiserver-client-kubelet for any node; it can also create the requests');
  });

  test('Noncompliance 2: the client signers by name are critical; approving only what others create is high; kubelet-serving high', () => {
    expect(findingsOf(rule, boundCluster([APPROVAL, approve(['kubernetes.io/kube-apiserver-client']), CREATE])).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findingsOf(rule, boundCluster([APPROVAL, approve(['kubernetes.io/*']), CREATE])).map((f) => f.severity)).toEqual([Severity.CRITICAL]);
    expect(findingsOf(rule, boundCluster([APPROVAL, approve()])).map((f) => [f.severity, f.message])).toEqual([[Severity.HIGH,
      expect.stringContaining('it approves requests others create (no binding in these manifests lets it create them)')]]);
    expect(findingsOf(rule, boundCluster([APPROVAL, approve(['kubernetes.io/kubelet-serving']), CREATE])).map((f) => f.severity)).toEqual([Severity.HIGH]);
  });

  test('Noncompliance 3: a signer of its own (Antrea\'s IPsec signer) is medium', () => {
    const findings = findingsOf(rule, boundCluster([APPROVAL, approve(['antrea.io/antrea-agent-ipsec-tunnel'])]));
    expect(findings.map((f) => f.severity)).toEqual([Severity.MEDIUM]);
    expect(findings[0].message).toContain('for the signers "antrea.io/antrea-agent-ipsec-tunnel" (approve on signers, limited by resourceNames, with update ' +
      'on certificatesigningrequests/approval): signers outside kubernetes.io, whose certificates the API server accepts only if it is configured to trust their CA');
  });

  test('Compliance: one of the two rights alone approves nothing', () => {
    expect(findingsOf(rule, boundCluster([APPROVAL, CREATE]))).toEqual([]);
    expect(findingsOf(rule, boundCluster([approve(), CREATE]))).toEqual([]);
  });
});
