// Internal: the RBAC rights the review reports, each judged from one policy rule in the scope of its binding (a
// ClusterRoleBinding: the whole cluster; a RoleBinding: its namespace). A right is what the rule lets the holder do
// that matters for the cluster: read Secrets, exec into pods, create pods... Severities follow the project's scale:
// critical = control of a node or of the cluster, high = a real foothold, medium = weakens defences, low = hygiene.
import { UNKNOWN_NAMESPACE, describeNamespace } from './_namespace';
import { PolicyRule, allowedVerbs } from './_rbac';
import { Severity } from './severity';

/** where a rule applies: the cluster (a ClusterRoleBinding) or one namespace (a RoleBinding). */
export interface Scope {
  readonly cluster: boolean;
  /** the RoleBinding's namespace key (UNKNOWN_NAMESPACE when unknown). */
  readonly namespace?: string;
}

/** one right a rule grants, before it is attributed to the binding and role. */
export interface RightHit {
  /** the rule ID that reports it. */
  readonly rule: string;
  /** which right of that rule: one finding per key. */
  readonly key: string;
  readonly severity: Severity;
  /** what the ServiceAccount can do, as a verb phrase: `can read every Secret in every namespace (get on secrets)...`. */
  readonly what: string;
  readonly fix: string;
  /** whether resourceNames limits it. */
  readonly limited: boolean;
  /**
   * How much of the right the rule allows (its verbs, counted over the resources), where grants of it can differ: of two
   * grants at one severity the finding names the broader one, whose verbs include the other's more often.
   *
   * @default 0
   */
  readonly breadth?: number;
}

/** what the evaluation of one rule may ask about the workload's other grants and the manifests. */
export interface RightContext {
  /** the workload under review: its kind, name and namespace key. */
  readonly workloadKind: string;
  readonly workloadName: string;
  readonly workloadNamespace: string;
  /** whether any grant in a scope that covers `scope` allows one of the verbs on the resource. */
  holds(group: string, resource: string, verbs: string[], scope: Scope): boolean;
  /** the Pod Security level a Namespace among the manifests enforces. */
  enforced(namespace: string): string | undefined;
}

export const RULE_CLUSTER_ADMIN = 'NA-RBAC-CLUSTER-ADMIN';
export const RULE_SECRETS = 'NA-RBAC-SECRETS';
export const RULE_EXEC = 'NA-RBAC-EXEC';
export const RULE_WORKLOADS = 'NA-RBAC-WORKLOADS';
export const RULE_ESCALATION = 'NA-RBAC-ESCALATION';
export const RULE_NODE_PROXY = 'NA-RBAC-NODE-PROXY';
export const RULE_NODES = 'NA-RBAC-NODES';
export const RULE_TOKENS = 'NA-RBAC-TOKENS';
export const RULE_ADMISSION = 'NA-RBAC-ADMISSION';
export const RULE_CSR = 'NA-RBAC-CSR';
export const RULE_WILDCARD = 'NA-RBAC-BROAD';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const WRITE = ['create', 'update', 'patch'];

function where(scope: Scope): string {
  return scope.cluster ? 'cluster-wide' : `in ${describeNamespace(scope.namespace ?? UNKNOWN_NAMESPACE)}`;
}

/** `Role`-style display of a group: `core ("")` for the core group. */
function groupName(group: string): string {
  return group === '' ? 'core ("")' : group;
}

function names(list: string[]): string {
  return list.map((n) => JSON.stringify(n)).join(', ');
}

function verbsOn(verbs: string[], resource: string, limited: boolean): string {
  return `${verbs.join(', ')} on ${resource}${limited ? ', limited by resourceNames' : ''}`;
}

/** severity of a right that controls pods in the scope: a pod there can be privileged unless its Namespace forbids it. */
function podControl(scope: Scope, ctx: RightContext): { severity: Severity; note: string } {
  if (scope.cluster || scope.namespace === 'kube-system' || scope.namespace === undefined) return { severity: Severity.CRITICAL, note: '' };
  const level = ctx.enforced(scope.namespace);
  if (level === 'baseline' || level === 'restricted') {
    return { severity: Severity.HIGH, note: `; its Namespace in these manifests enforces Pod Security ${level}, so pods there take no host access` };
  }
  return { severity: Severity.CRITICAL, note: '' };
}

/** severity of a right over credentials in the scope: all of the cluster's, or kube-system's, are critical. */
function credentials(scope: Scope): Severity {
  return scope.cluster || scope.namespace === 'kube-system' ? Severity.CRITICAL : Severity.HIGH;
}

/** `*` verbs on `*` resources of every group or of the core group: everything, one finding. */
export function grantsEverything(r: PolicyRule): boolean {
  return r.verbs.includes('*') && r.resources.includes('*') && r.resourceNames.length === 0 && (r.apiGroups.includes('*') || r.apiGroups.includes(''));
}

function clusterAdmin(r: PolicyRule, scope: Scope, ctx: RightContext): RightHit[] {
  if (!grantsEverything(r)) return [];
  const allGroups = r.apiGroups.includes('*');
  const fix = 'bind a role of the agent\'s own that lists only the verbs and resources it uses (node agents usually need get, list, watch ' +
    'on pods, namespaces or nodes); never * verbs on * resources';
  if (scope.cluster) {
    const what = allGroups
      ? 'holds every verb on every resource of every API group (* on *): control of the cluster'
      : 'holds every verb on every resource of the core API group (* on *): every Secret, exec into every pod, every kubelet (nodes/proxy), ' +
        'and acting as any user or group (impersonate), system:masters included: control of the cluster';
    return [{ rule: RULE_CLUSTER_ADMIN, key: 'all', severity: Severity.CRITICAL, what, fix, limited: false }];
  }
  const { severity, note } = podControl(scope, ctx);
  const what = `holds every verb on every resource of ${allGroups ? 'every API group' : 'the core API group'} ${where(scope)} (* on *): ` +
    `its Secrets, its pods and workloads${allGroups ? ', its Roles and RoleBindings' : ''}, and its Services and their endpoints, whose ` +
    `externalIPs and load-balancer status intercept traffic from every pod of the cluster (CVE-2020-8554)${note}`;
  return [{ rule: RULE_CLUSTER_ADMIN, key: 'all', severity, what, fix, limited: false }];
}

function secrets(r: PolicyRule, scope: Scope): RightHit[] {
  const allowed = allowedVerbs(r, '', 'secrets', ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection']);
  if (!allowed) return [];
  const limited = allowed.names !== undefined;
  const read = allowed.verbs.filter((v) => ['get', 'list', 'watch'].includes(v));
  const which = limited ? `the Secrets named ${names(allowed.names!)}` : 'every Secret';
  const how = verbsOn(allowed.verbs, 'secrets', limited);
  if (read.length > 0) {
    const severity = limited ? Severity.MEDIUM : credentials(scope);
    const what = `can read ${which} ${where(scope)} (${how})${limited ? '' : ', every credential stored there'}` +
      `${!limited && scope.namespace === 'kube-system' ? ' (kube-system holds bootstrap tokens and the controllers\' credentials)' : ''}`;
    let fix: string;
    if (limited) fix = 'if the agent reads these Secrets only at start, mount them as Secret volumes and drop the rule; otherwise acknowledge the finding';
    else if (scope.cluster) fix = 'grant Secrets access with a RoleBinding in the namespace that holds the Secrets the agent needs, limited by resourceNames to them, or mount them as Secret volumes';
    else fix = 'limit the rule with resourceNames to the Secrets the agent needs, or mount them as Secret volumes';
    return [{ rule: RULE_SECRETS, key: 'secrets', severity, what, fix, limited, breadth: allowed.verbs.length }];
  }
  const replaces = allowed.verbs.some((v) => v !== 'create');
  if (!replaces) {
    // create alone adds Secrets: it neither reads nor changes the existing ones
    const what = `can create Secrets ${where(scope)} (${how}) without reading them: a Secret another workload expects could be created first`;
    return [{ rule: RULE_SECRETS, key: 'secrets', severity: Severity.LOW, what, fix: 'acknowledge the finding if the agent creates its own Secrets', limited, breadth: allowed.verbs.length }];
  }
  const severity = !limited && (scope.cluster || scope.namespace === 'kube-system') ? Severity.MEDIUM : Severity.LOW;
  const what = `can change ${which} ${where(scope)} (${how}) without reading them: it can replace or delete credentials other workloads read`;
  const fix = limited ? 'acknowledge the finding if these are the agent\'s own Secrets'
    : 'limit update, patch and delete on secrets with resourceNames to the Secrets the agent owns';
  return [{ rule: RULE_SECRETS, key: 'secrets', severity, what, fix, limited, breadth: allowed.verbs.length }];
}

function exec(r: PolicyRule, scope: Scope, ctx: RightContext): RightHit[] {
  const found = ['pods/exec', 'pods/attach'].map((res) => ({ res, a: allowedVerbs(r, '', res, ['create', 'get']) })).filter((x) => x.a);
  const fix = 'remove pods/exec, pods/attach and pods/portforward: a node agent acts on its own node through its own process, never through other pods';
  if (found.length > 0) {
    const limitedNames = found.flatMap((x) => x.a!.names ?? []);
    const limited = found.every((x) => x.a!.names !== undefined);
    const how = found.map((x) => verbsOn(x.a!.verbs, x.res, x.a!.names !== undefined)).join('; ');
    const getOnly = found.every((x) => !x.a!.verbs.includes('create'));
    const { severity, note } = limited ? { severity: Severity.HIGH, note: '' } : podControl(scope, ctx);
    const which = limited ? `the pods named ${names([...new Set(limitedNames)])}` : 'every pod';
    const what = `can run commands in ${which} ${where(scope)} (${how}): with each pod's ServiceAccount token and host access, ` +
      `root on the node for a privileged agent's pod${note}` +
      `${getOnly ? '; get suffices over WebSocket before Kubernetes 1.35, and on 1.35+ while the AuthorizePodWebsocketUpgradeCreatePermission feature gate is off' : ''}`;
    return [{ rule: RULE_EXEC, key: 'exec', severity, what, fix, limited, breadth: found.reduce((n, x) => n + x.a!.verbs.length, 0) }];
  }
  const pf = allowedVerbs(r, '', 'pods/portforward', ['create', 'get']);
  if (!pf) return [];
  const limited = pf.names !== undefined;
  const what = `can forward ports of ${limited ? `the pods named ${names(pf.names!)}` : 'every pod'} ${where(scope)} ` +
    `(${verbsOn(pf.verbs, 'pods/portforward', limited)}): it reaches what they listen on, the node's own ports for a hostNetwork pod`;
  return [{ rule: RULE_EXEC, key: 'exec', severity: limited ? Severity.MEDIUM : Severity.HIGH, what, fix, limited, breadth: pf.verbs.length }];
}

const WORKLOAD_KINDS: Array<{ group: string; resource: string; kind: string; verbs: string[] }> = [
  { group: '', resource: 'pods', kind: 'Pod', verbs: WRITE },
  { group: '', resource: 'pods/ephemeralcontainers', kind: 'Pod', verbs: ['update', 'patch'] },
  { group: '', resource: 'replicationcontrollers', kind: 'ReplicationController', verbs: WRITE },
  ...['apps', 'extensions'].flatMap((group) => [
    { group, resource: 'daemonsets', kind: 'DaemonSet', verbs: WRITE },
    { group, resource: 'deployments', kind: 'Deployment', verbs: WRITE },
    { group, resource: 'replicasets', kind: 'ReplicaSet', verbs: WRITE },
  ]),
  { group: 'apps', resource: 'statefulsets', kind: 'StatefulSet', verbs: WRITE },
  { group: 'batch', resource: 'jobs', kind: 'Job', verbs: WRITE },
  { group: 'batch', resource: 'cronjobs', kind: 'CronJob', verbs: WRITE },
];

function workloads(r: PolicyRule, scope: Scope, ctx: RightContext): RightHit[] {
  const found = WORKLOAD_KINDS.map((w) => ({ w, a: allowedVerbs(r, w.group, w.resource, w.verbs) })).filter((x) => x.a);
  if (found.length === 0) return [];
  const limited = found.every((x) => x.a!.names !== undefined);
  const breadth = found.reduce((n, x) => n + x.a!.verbs.length, 0);
  const how = [...new Set(found.map((x) => verbsOn(x.a!.verbs, x.w.resource, x.a!.names !== undefined)))].join('; ');
  if (limited) {
    const objects = [...new Set(found.flatMap((x) => x.a!.names!.map((n) => `${x.w.kind} ${n}`)))];
    const own = objects.includes(`${ctx.workloadKind} ${ctx.workloadName}`) && !scope.cluster && scope.namespace === ctx.workloadNamespace;
    const one = objects.length === 1;
    const what = `can change ${objects.join(', ')}${own && one ? ', the workload itself,' : ''} ${where(scope)} (${how}): it can rewrite ` +
      `${one ? 'its' : 'their'} pod template (image, privileges, host access), which runs on every node ${one ? 'it selects' : 'they select'}`;
    const fix = 'keep the state the agent shares in a Lease (coordination.k8s.io) instead of its own workload; otherwise acknowledge the finding';
    return [{ rule: RULE_WORKLOADS, key: 'workloads', severity: Severity.HIGH, what, fix, limited, breadth }];
  }
  const { severity, note } = podControl(scope, ctx);
  const creates = found.some((x) => x.a!.verbs.includes('create'));
  const podsOnly = found.every((x) => x.w.kind === 'Pod');
  let what: string;
  if (creates) {
    what = `can create pods or workloads ${where(scope)} (${how}): a pod it defines can be privileged or mount the host's /, on any node it selects${note}`;
  } else if (podsOnly) {
    what = `can change every running pod ${where(scope)} (${how}): it can swap a container's image (or add an ephemeral container) and run ` +
      `its own code with that pod's privileges; a privileged agent's pod is root on its node${note}`;
  } else {
    what = `can change existing pods and workloads ${where(scope)} (${how}): it can swap a running pod's image or rewrite a workload's pod ` +
      `template, and run its own code with their privileges; a privileged agent's pod is root on its node${note}`;
  }
  const fix = 'remove create, update and patch on pods and workload kinds: a node agent is deployed by its DaemonSet and needs none';
  return [{ rule: RULE_WORKLOADS, key: 'workloads', severity, what, fix, limited, breadth }];
}

function escalation(r: PolicyRule, scope: Scope, ctx: RightContext): RightHit[] {
  const hits: RightHit[] = [];
  const kinds = ['roles', 'clusterroles'];
  for (const verb of ['escalate', 'bind']) {
    const found = kinds
      .map((res) => ({ res, a: allowedVerbs(r, RBAC_GROUP, res, [verb]) }))
      // escalate on ClusterRoles is checked cluster-wide: a RoleBinding cannot grant it
      .filter((x) => x.a && (scope.cluster || verb === 'bind' || x.res === 'roles'));
    if (found.length === 0) continue;
    const limited = found.every((x) => x.a!.names !== undefined);
    const how = found.map((x) => verbsOn(x.a!.verbs, x.res, x.a!.names !== undefined)).join('; ');
    const which = limited ? `the roles named ${names([...new Set(found.flatMap((x) => x.a!.names!))])}` : found.map((x) => (x.res === 'roles' ? 'any Role' : 'any ClusterRole')).join(' and ');
    // escalate takes effect when the holder also writes roles; bind when it also writes bindings
    const needed = verb === 'escalate' ? found.map((x) => x.res) : scope.cluster ? ['rolebindings', 'clusterrolebindings'] : ['rolebindings'];
    const paired = needed.some((res) => ctx.holds(RBAC_GROUP, res, WRITE, scope));
    let severity: Severity;
    let note: string;
    if (!paired) {
      severity = Severity.MEDIUM;
      note = `; it takes effect with create or update on ${needed.join(' or ')}, which no binding in these manifests grants it`;
    } else if (limited) {
      severity = Severity.HIGH;
      note = ': it is as strong as those roles';
    } else {
      const pc = podControl(scope, ctx);
      severity = scope.cluster ? Severity.CRITICAL : pc.severity;
      note = `: it grants itself any right${scope.cluster ? '' : ` ${where(scope)}`}${pc.note}`;
    }
    const action = verb === 'escalate' ? `can give ${which} rights it does not hold` : `can bind ${which}${limited ? '' : ', cluster-admin included,'} to anyone`;
    hits.push({
      rule: RULE_ESCALATION,
      key: verb,
      severity,
      what: `${action} ${where(scope)} (${how})${note}`,
      fix: `remove the ${verb} verb: an agent that creates RBAC for others should bind only rights it holds itself, which needs neither escalate nor bind`,
      limited,
    });
  }
  const identities = [
    { res: 'users', label: 'any user' }, { res: 'groups', label: 'any group, system:masters included' }, { res: 'serviceaccounts', label: 'any ServiceAccount' },
  ].map((x) => ({ ...x, a: allowedVerbs(r, '', x.res, ['impersonate']) }))
    // users and groups are cluster-scoped: a RoleBinding grants only ServiceAccounts of its namespace
    .filter((x) => x.a && (scope.cluster || x.res === 'serviceaccounts'));
  if (identities.length > 0) {
    const limited = identities.every((x) => x.a!.names !== undefined);
    const severities = identities.map((x) => {
      if (x.a!.names) return x.res === 'groups' && x.a!.names.includes('system:masters') ? Severity.CRITICAL : Severity.HIGH;
      return x.res === 'serviceaccounts' ? credentials(scope) : Severity.CRITICAL;
    });
    const severity = severities.includes(Severity.CRITICAL) ? Severity.CRITICAL : Severity.HIGH;
    const who = identities.map((x) => (x.a!.names ? `the ${x.res} named ${names(x.a!.names)}` : x.label)).join(', ');
    const how = identities.map((x) => verbsOn(x.a!.verbs, x.res, x.a!.names !== undefined)).join('; ');
    hits.push({
      rule: RULE_ESCALATION,
      key: 'impersonate',
      severity,
      what: `can act as ${who} ${where(scope)} (${how}): it holds their rights`,
      fix: 'remove the impersonate verb: the agent should act as its own ServiceAccount',
      limited,
    });
  }
  return hits;
}

function nodeProxy(r: PolicyRule, scope: Scope): RightHit[] {
  // nodes are cluster-scoped: a RoleBinding grants nothing on them
  if (!scope.cluster) return [];
  const a = allowedVerbs(r, '', 'nodes/proxy', ['get', 'create']);
  if (!a) return [];
  const limited = a.names !== undefined;
  return [{
    rule: RULE_NODE_PROXY,
    key: 'node-proxy',
    severity: limited ? Severity.HIGH : Severity.CRITICAL,
    what: `can reach the kubelet API of ${limited ? `the nodes named ${names(a.names!)}` : 'every node'} (${verbsOn(a.verbs, 'nodes/proxy', limited)}): ` +
      'its /exec, /run and /attach endpoints run commands in any container there (get suffices, over WebSocket)',
    fix: 'grant only the kubelet endpoints the agent reads: nodes/metrics, nodes/stats, nodes/log and, from Kubernetes 1.33, nodes/pods, ' +
      'nodes/healthz and nodes/configz (fine-grained kubelet authorization)',
    limited,
  }];
}

/**
 * Writes to Node objects themselves (not their subresources: `nodes/status`, which CNI plugins and node-problem-detector
 * patch, holds conditions and addresses, not where pods run).
 */
function nodeWrites(r: PolicyRule, scope: Scope): RightHit[] {
  // nodes are cluster-scoped: a RoleBinding grants nothing on them
  if (!scope.cluster) return [];
  const change = allowedVerbs(r, '', 'nodes', ['update', 'patch']);
  const remove = allowedVerbs(r, '', 'nodes', ['delete', 'deletecollection']);
  if (!change && !remove) return [];
  const a = change ?? remove!;
  const limited = a.names !== undefined;
  const which = limited ? `the nodes named ${names(a.names!)}` : 'every node';
  const verbs = [...(change?.verbs ?? []), ...(remove?.verbs ?? [])];
  const fix = 'keep it only if the agent must label, taint, cordon or remove nodes, and acknowledge the finding with that reason; ' +
    'where the design allows, give the writes to one controller (a Deployment) instead of the agent on every node';
  if (change) {
    return [{
      rule: RULE_NODES,
      key: 'nodes',
      severity: limited ? Severity.MEDIUM : Severity.HIGH,
      what: `can change the labels and taints of ${which} (${verbsOn(verbs, 'nodes', limited)}), and so where pods run: take taints ` +
        'off (the control plane\'s included), add the labels pods select, node-restriction.kubernetes.io/ ones included (which the ' +
        'NodeRestriction admission plugin keeps kubelets from setting), cordon nodes',
      fix,
      limited,
      breadth: verbs.length,
    }];
  }
  return [{
    rule: RULE_NODES,
    key: 'nodes',
    severity: Severity.MEDIUM,
    what: `can delete ${which} (${verbsOn(verbs, 'nodes', limited)}): the pods bound to a deleted Node are deleted, and the node takes no ` +
      'new pods until its kubelet registers it again',
    fix,
    limited,
    breadth: verbs.length,
  }];
}

function tokens(r: PolicyRule, scope: Scope): RightHit[] {
  const a = allowedVerbs(r, '', 'serviceaccounts/token', ['create']);
  if (!a) return [];
  const limited = a.names !== undefined;
  const which = limited ? `the ServiceAccounts named ${names(a.names!)}` : 'every ServiceAccount';
  return [{
    rule: RULE_TOKENS,
    key: 'tokens',
    severity: limited ? Severity.MEDIUM : credentials(scope),
    what: `can mint API tokens for ${which} ${where(scope)} (${verbsOn(a.verbs, 'serviceaccounts/token', limited)}): ` +
      `${limited ? 'it holds their rights' : 'it holds the rights of each, the most privileged included'}`,
    fix: limited ? 'keep the RBAC of the named ServiceAccounts minimal and acknowledge the finding with that reason'
      : 'limit the rule with resourceNames to the ServiceAccount the agent mints tokens for (e.g. its CNI plugin\'s), or rely on the agent\'s own projected token',
    limited,
  }];
}

const ADMISSION_RESOURCES = [
  { res: 'mutatingwebhookconfigurations', write: Severity.CRITICAL, remove: Severity.HIGH },
  { res: 'validatingwebhookconfigurations', write: Severity.CRITICAL, remove: Severity.HIGH },
  { res: 'mutatingadmissionpolicies', write: Severity.CRITICAL, remove: Severity.HIGH },
  { res: 'mutatingadmissionpolicybindings', write: Severity.CRITICAL, remove: Severity.HIGH },
  { res: 'validatingadmissionpolicies', write: Severity.HIGH, remove: Severity.HIGH },
  { res: 'validatingadmissionpolicybindings', write: Severity.HIGH, remove: Severity.HIGH },
];

/** one step lower, for a right limited by resourceNames to named objects. */
function lower(s: Severity): Severity {
  return s === Severity.CRITICAL ? Severity.HIGH : s === Severity.HIGH ? Severity.MEDIUM : Severity.LOW;
}

function admission(r: PolicyRule, scope: Scope): RightHit[] {
  if (!scope.cluster) return [];
  const found = ADMISSION_RESOURCES
    .map((x) => ({ ...x, a: allowedVerbs(r, 'admissionregistration.k8s.io', x.res, ['create', 'update', 'patch', 'delete', 'deletecollection']) }))
    .filter((x) => x.a);
  if (found.length === 0) return [];
  const rated = found.map((x) => {
    const writes = x.a!.verbs.some((v) => WRITE.includes(v));
    const s = writes ? x.write : x.remove;
    return x.a!.names ? lower(s) : s;
  });
  const severity = rated.reduce((a, b) => (a === Severity.CRITICAL || b === Severity.CRITICAL ? Severity.CRITICAL
    : a === Severity.HIGH || b === Severity.HIGH ? Severity.HIGH : a === Severity.MEDIUM || b === Severity.MEDIUM ? Severity.MEDIUM : Severity.LOW));
  const limited = found.every((x) => x.a!.names !== undefined);
  const verbs = new Set(found.flatMap((x) => x.a!.verbs));
  const writes = [...verbs].some((v) => WRITE.includes(v));
  const acts = [
    ...(verbs.has('create') ? ['register'] : []), ...(verbs.has('update') || verbs.has('patch') ? ['rewrite'] : []),
    ...(verbs.has('delete') || verbs.has('deletecollection') ? ['delete'] : []),
  ];
  const act = acts.length === 1 ? acts[0] : `${acts.slice(0, -1).join(', ')} or ${acts[acts.length - 1]}`;
  const kinds = found.some((x) => x.res.includes('policies') || x.res.includes('policybindings')) ? 'admission webhooks and policies' : 'admission webhooks';
  const how = found.map((x) => verbsOn(x.a!.verbs, x.res, x.a!.names !== undefined)).join('; ');
  let what: string;
  if (limited) {
    what = `can ${act} the admission configurations named ${names([...new Set(found.flatMap((x) => x.a!.names!))])} (${how}): ` +
      `${writes ? 'which objects the API server sends them and where, and ' : ''}the checks they enforce`;
  } else if (writes) {
    what = `can ${act} ${kinds} (${how}): a webhook receives every object it registers for, ` +
      'Secrets included, and a mutating one rewrites pods as they are created';
  } else {
    what = `can delete ${kinds} (${how}): the checks they enforce stop`;
  }
  return [{
    rule: RULE_ADMISSION,
    key: 'admission',
    severity,
    what,
    fix: limited ? 'acknowledge the finding if the named configurations are the agent\'s own'
      : 'limit the rule with resourceNames to the agent\'s own webhook configuration (update, patch and delete; create cannot be limited by name)',
    limited,
  }];
}

const CLIENT_SIGNERS = ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/*'];

/** CSR approval: update on certificatesigningrequests/approval and approve on signers, both cluster-wide. */
function csr(r: PolicyRule, scope: Scope, ctx: RightContext): RightHit[] {
  if (!scope.cluster) return [];
  const approve = allowedVerbs(r, 'certificates.k8s.io', 'signers', ['approve']);
  if (!approve) return [];
  if (!ctx.holds('certificates.k8s.io', 'certificatesigningrequests/approval', ['update', 'patch'], scope)) return [];
  const signers = approve.names;
  const limited = signers !== undefined;
  const canCreate = ctx.holds('certificates.k8s.io', 'certificatesigningrequests', ['create'], scope);
  let severity: Severity;
  let consequence: string;
  if (!limited || signers.some((s) => CLIENT_SIGNERS.includes(s))) {
    severity = canCreate ? Severity.CRITICAL : Severity.HIGH;
    consequence = 'kubernetes.io/kube-apiserver-client issues client certificates for any user and group, system:masters included, ' +
      'and kubernetes.io/kube-apiserver-client-kubelet for any node';
    consequence += canCreate ? '; it can also create the requests' : '; it approves requests others create (no binding in these manifests lets it create them)';
  } else if (signers.includes('kubernetes.io/kubelet-serving')) {
    severity = Severity.HIGH;
    consequence = 'kubernetes.io/kubelet-serving issues serving certificates for any node\'s kubelet';
  } else {
    severity = Severity.MEDIUM;
    consequence = 'signers outside kubernetes.io, whose certificates the API server accepts only if it is configured to trust their CA';
  }
  return [{
    rule: RULE_CSR,
    key: 'csr',
    severity,
    what: `can approve certificate signing requests for ${limited ? `the signers ${names(signers)}` : 'every signer'} ` +
      `(${verbsOn(approve.verbs, 'signers', limited)}, with update on certificatesigningrequests/approval): ${consequence}`,
    fix: limited ? 'acknowledge the finding if the signers are the agent\'s own'
      : 'limit approve on signers with resourceNames to the agent\'s own signer',
    limited,
  }];
}

/** every right one rule grants in its scope (the wildcard rule aside: see wildcard()). */
export function rightsOf(r: PolicyRule, scope: Scope, ctx: RightContext): RightHit[] {
  const all = clusterAdmin(r, scope, ctx);
  if (all.length > 0) return all;
  return [
    ...secrets(r, scope), ...exec(r, scope, ctx), ...workloads(r, scope, ctx), ...escalation(r, scope, ctx),
    ...nodeProxy(r, scope), ...nodeWrites(r, scope), ...tokens(r, scope), ...admission(r, scope), ...csr(r, scope, ctx),
  ];
}

/**
 * A rule with `*` verbs or resources that grants none of the rights above: it still grants what the API adds later.
 * `crds` are the plural resource names the manifests' CustomResourceDefinitions define, by group.
 */
export function wildcard(r: PolicyRule, scope: Scope, crds: Map<string, string[]>, ruleKey: string): RightHit[] {
  // rules on nonResourceURLs (/metrics, /healthz) reach no resource: not judged
  if (r.nonResourceURLs.length > 0) return [];
  const allVerbs = r.verbs.includes('*');
  const allResources = r.resources.includes('*');
  if (!allVerbs && !allResources) return [];
  const verbs = allVerbs ? 'every verb (*)' : r.verbs.join(', ');
  let what: string;
  if (allResources) {
    const groups = r.apiGroups.filter((g) => g !== '*');
    const named = r.apiGroups.includes('*') ? 'of every API group' : `of API group ${groups.map(groupName).join(', ')}`;
    const known = groups.flatMap((g) => crds.get(g) ?? []);
    what = `has ${verbs} on every resource ${named} ${where(scope)}: those it serves now${known.length > 0 ? ` (among these manifests: ${known.join(', ')})` : ''} ` +
      'and any it adds later';
    if (!r.apiGroups.includes('*') && !r.apiGroups.includes('')) what += '; no resource of another group (Secrets, pods and RBAC are not in it)';
  } else {
    what = `has ${verbs} on ${r.resources.join(', ')} (API group ${r.apiGroups.map(groupName).join(', ')}) ${where(scope)}: ` +
      'delete and deletecollection included, and verbs the API adds later';
  }
  return [{
    rule: RULE_WILDCARD,
    key: ruleKey,
    severity: Severity.MEDIUM,
    what,
    fix: allResources ? 'list the resources the agent uses instead of *' : 'list the verbs the agent uses instead of *',
    limited: r.resourceNames.length > 0,
  }];
}
