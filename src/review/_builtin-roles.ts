// Internal: Kubernetes' built-in ClusterRoles, for bindings that name one the manifests do not define (cluster-admin,
// edit, system:kubelet-api-admin...). Data transcribed from the bootstrap policy of k8s.io/kubernetes v1.37.2,
// plugin/pkg/auth/authorizer/rbac/bootstrappolicy/testdata/cluster-roles.yaml (the roles with the default feature
// gates); test/corpus/fetch.js fetches that file from the k8s.io/kubernetes Go module, and a test compares the two.
// admin, edit and view carry no rules of their own: they aggregate the system:aggregate-to-* roles, as in a cluster.

/** a ClusterRole manifest as the API server creates it at bootstrap. */
function role(name: string, spec: { labels?: { [key: string]: string }; aggregate?: Array<{ [key: string]: string }>; rules?: any[] }): any {
  const manifest: any = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...spec.labels } },
    rules: spec.rules ?? [],
  };
  if (spec.aggregate) manifest.aggregationRule = { clusterRoleSelectors: spec.aggregate.map((matchLabels) => ({ matchLabels })) };
  return manifest;
}

function rule(verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): any {
  return resourceNames ? { apiGroups, resources, resourceNames, verbs } : { apiGroups, resources, verbs };
}

function urls(verbs: string[], nonResourceURLs: string[]): any {
  return { nonResourceURLs, verbs };
}

/** the Kubernetes version whose bootstrap policy BUILT_IN_CLUSTER_ROLES transcribes. */
export const BUILT_IN_ROLES_VERSION = '1.37';

/** every ClusterRole the API server creates at bootstrap (default feature gates), in name order. */
export const BUILT_IN_CLUSTER_ROLES: any[] = [
  role('admin', {
    aggregate: [{ 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' }],
  }),
  role('cluster-admin', {
    rules: [
      rule(['*'], ['*'], ['*']),
      urls(['*'], ['*']),
    ],
  }),
  role('edit', {
    labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' },
    aggregate: [{ 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' }],
  }),
  role('system:aggregate-to-admin', {
    labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' },
    rules: [
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
      rule(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], ['rbac.authorization.k8s.io'], ['rolebindings', 'roles']),
    ],
  }),
  role('system:aggregate-to-edit', {
    labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
    rules: [
      rule(['get', 'list', 'watch'], [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(['create', 'delete', 'deletecollection', 'patch', 'update'], [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
      rule(['create'], [''], ['pods/eviction']),
      rule(['create', 'delete', 'deletecollection', 'patch', 'update'], [''], ['configmaps', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy']),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(['create', 'delete', 'deletecollection', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
      rule(['create', 'delete', 'deletecollection', 'patch', 'update'], ['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale']),
      rule(['create', 'delete', 'deletecollection', 'patch', 'update'], ['autoscaling'], ['horizontalpodautoscalers']),
      rule(['create', 'delete', 'deletecollection', 'patch', 'update'], ['batch'], ['cronjobs', 'jobs']),
      rule(['create', 'delete', 'deletecollection', 'patch', 'update'], ['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale']),
      rule(['create', 'delete', 'deletecollection', 'patch', 'update'], ['policy'], ['poddisruptionbudgets']),
      rule(['create', 'delete', 'deletecollection', 'patch', 'update'], ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
      rule(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], ['coordination.k8s.io'], ['leases']),
      rule(['create', 'delete', 'deletecollection', 'patch', 'update'], ['resource.k8s.io'], ['resourceclaims', 'resourceclaimtemplates']),
    ],
  }),
  role('system:aggregate-to-view', {
    labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
    rules: [
      rule(['get', 'list', 'watch'], [''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status']),
      rule(['get', 'list', 'watch'], [''], ['bindings', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status']),
      rule(['get', 'list', 'watch'], [''], ['namespaces']),
      rule(['get', 'list', 'watch'], ['', 'events.k8s.io'], ['events']),
      rule(['get', 'list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
      rule(['get', 'list', 'watch'], ['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status']),
      rule(['get', 'list', 'watch'], ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(['get', 'list', 'watch'], ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      rule(['get', 'list', 'watch'], ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale']),
      rule(['get', 'list', 'watch'], ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(['get', 'list', 'watch'], ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
      rule(['get', 'list', 'watch'], ['resource.k8s.io'], ['resourceclaims', 'resourceclaims/status', 'resourceclaimtemplates']),
    ],
  }),
  role('system:auth-delegator', {
    rules: [
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    ],
  }),
  role('system:basic-user', {
    rules: [
      rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ],
  }),
  role('system:certificates.k8s.io:certificatesigningrequests:nodeclient', {
    rules: [
      rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/nodeclient']),
    ],
  }),
  role('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', {
    rules: [
      rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient']),
    ],
  }),
  role('system:certificates.k8s.io:kube-apiserver-client-approver', {
    rules: [
      rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client']),
    ],
  }),
  role('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', {
    rules: [
      rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
    ],
  }),
  role('system:certificates.k8s.io:kubelet-serving-approver', {
    rules: [
      rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kubelet-serving']),
    ],
  }),
  role('system:certificates.k8s.io:legacy-unknown-approver', {
    rules: [
      rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/legacy-unknown']),
    ],
  }),
  role('system:cluster-trust-bundle-discovery', {
    rules: [
      rule(['get', 'list', 'watch'], ['certificates.k8s.io'], ['clustertrustbundles']),
    ],
  }),
  role('system:discovery', {
    rules: [
      urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/']),
    ],
  }),
  role('system:heapster', {
    rules: [
      rule(['get', 'list', 'watch'], [''], ['events', 'namespaces', 'nodes', 'pods']),
      rule(['get', 'list', 'watch'], ['extensions'], ['deployments']),
    ],
  }),
  role('system:kube-aggregator', {
    rules: [
      rule(['get', 'list', 'watch'], [''], ['endpoints', 'services']),
    ],
  }),
  role('system:kube-controller-manager', {
    rules: [
      rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
      rule(['create'], ['coordination.k8s.io'], ['leases']),
      rule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-controller-manager']),
      rule(['create'], [''], ['secrets', 'serviceaccounts']),
      rule(['delete'], [''], ['secrets']),
      rule(['get'], [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
      rule(['update'], [''], ['secrets', 'serviceaccounts']),
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], [''], ['serviceaccounts/token']),
    ],
  }),
  role('system:kube-dns', {
    rules: [
      rule(['list', 'watch'], [''], ['endpoints', 'services']),
    ],
  }),
  role('system:kube-scheduler', {
    rules: [
      rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
      rule(['create'], ['coordination.k8s.io'], ['leases']),
      rule(['get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leases'], ['kube-scheduler']),
      rule(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], ['coordination.k8s.io'], ['leasecandidates']),
      rule(['get', 'list', 'watch'], [''], ['nodes']),
      rule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
      rule(['create'], [''], ['bindings', 'pods/binding']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(['get', 'list', 'watch'], [''], ['replicationcontrollers', 'services']),
      rule(['get', 'list', 'watch'], ['apps', 'extensions'], ['replicasets']),
      rule(['get', 'list', 'watch'], ['apps'], ['statefulsets']),
      rule(['get', 'list', 'watch'], ['policy'], ['poddisruptionbudgets']),
      rule(['get', 'list', 'watch'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['csinodes']),
      rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['volumeattachments']),
      rule(['get', 'list', 'watch'], [''], ['namespaces']),
      rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['csidrivers']),
      rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['csistoragecapacities']),
      rule(['get', 'list', 'watch'], ['resource.k8s.io'], ['deviceclasses']),
      rule(['get', 'list', 'patch', 'update', 'watch'], ['resource.k8s.io'], ['resourceclaims']),
      rule(['get', 'list', 'patch', 'update', 'watch'], ['resource.k8s.io'], ['resourceclaims/status']),
      rule(['update'], [''], ['pods/finalizers']),
      rule(['get', 'list', 'watch'], ['resource.k8s.io'], ['resourceslices']),
      rule(['create', 'delete'], ['resource.k8s.io'], ['resourceclaims']),
      rule(['get', 'list', 'watch'], ['resource.k8s.io'], ['devicetaintrules']),
      rule(['patch', 'update'], ['resource.k8s.io'], ['resourceclaims/binding']),
    ],
  }),
  role('system:kubelet-api-admin', {
    rules: [
      rule(['get', 'list', 'watch'], [''], ['nodes']),
      rule(['proxy'], [''], ['nodes']),
      rule(['*'], [''], ['nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats']),
      rule(['*'], [''], ['nodes/configz', 'nodes/healthz', 'nodes/pods']),
    ],
  }),
  role('system:monitoring', {
    rules: [
      urls(['get'], ['/flagz', '/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*', '/statusz']),
      rule(['get'], [''], ['nodes/metrics']),
    ],
  }),
  role('system:node', {
    rules: [
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews']),
      rule(['get', 'list', 'watch'], [''], ['services']),
      rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
      rule(['patch', 'update'], [''], ['nodes/status']),
      rule(['patch', 'update'], [''], ['nodes']),
      rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
      rule(['get', 'list', 'watch'], [''], ['pods']),
      rule(['create', 'delete'], [''], ['pods']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(['create'], [''], ['pods/eviction']),
      rule(['get', 'list', 'watch'], [''], ['configmaps', 'secrets']),
      rule(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['get'], [''], ['endpoints']),
      rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
      rule(['create', 'delete', 'get', 'patch', 'update'], ['coordination.k8s.io'], ['leases']),
      rule(['get'], ['storage.k8s.io'], ['volumeattachments']),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(['get', 'patch', 'update'], [''], ['persistentvolumeclaims/status']),
      rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['csidrivers']),
      rule(['create', 'delete', 'get', 'patch', 'update'], ['storage.k8s.io'], ['csinodes']),
      rule(['get', 'list', 'watch'], ['node.k8s.io'], ['runtimeclasses']),
      rule(['get'], ['resource.k8s.io'], ['resourceclaims']),
      rule(['deletecollection'], ['resource.k8s.io'], ['resourceslices']),
      rule(['get', 'list', 'watch'], ['certificates.k8s.io'], ['clustertrustbundles']),
      rule(['get'], [''], ['serviceaccounts']),
      rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['podcertificaterequests']),
    ],
  }),
  role('system:node-bootstrapper', {
    rules: [
      rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
    ],
  }),
  role('system:node-problem-detector', {
    rules: [
      rule(['get'], [''], ['nodes']),
      rule(['patch'], [''], ['nodes/status']),
      rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
    ],
  }),
  role('system:node-proxier', {
    rules: [
      rule(['list', 'watch'], [''], ['endpoints', 'services']),
      rule(['get', 'list', 'watch'], [''], ['nodes']),
      rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
      rule(['list', 'watch'], ['networking.k8s.io'], ['servicecidrs']),
      rule(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
    ],
  }),
  role('system:persistent-volume-provisioner', {
    rules: [
      rule(['create', 'delete', 'get', 'list', 'watch'], [''], ['persistentvolumes']),
      rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
      rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['storageclasses']),
      rule(['watch'], [''], ['events']),
      rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']),
    ],
  }),
  role('system:public-info-viewer', {
    rules: [
      urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/']),
    ],
  }),
  role('system:service-account-issuer-discovery', {
    rules: [
      urls(['get'], ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/']),
    ],
  }),
  role('system:volume-scheduler', {
    rules: [
      rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumes']),
      rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['storageclasses']),
      rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumeclaims']),
    ],
  }),
  role('view', {
    labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
    aggregate: [{ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }],
  }),
];
