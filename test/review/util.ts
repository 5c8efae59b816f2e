// Shared fixtures for the review tests: plain manifests, no charts (cdk-nag's TestPack idea: one rule at a time).
import { Finding, IReviewRule, ReviewOptions, ReviewPack, SecurityReview } from '../../src/review';

export const IMAGE = 'registry.example.com/node-agent:1.2.0';

/** a container that every default rule accepts. */
export function goodContainer(extra: any = {}): any {
  return {
    name: 'agent',
    image: IMAGE,
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
    livenessProbe: { httpGet: { path: '/healthz', port: 8080 } },
    readinessProbe: { httpGet: { path: '/healthz', port: 8080 } },
    ...extra,
  };
}

/** a pod spec that every rule of every built-in pack accepts (Pod Security restricted included). */
export function goodPodSpec(extra: any = {}): any {
  return {
    serviceAccountName: 'node-agent',
    automountServiceAccountToken: false,
    securityContext: { runAsNonRoot: true, runAsUser: 65534, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [goodContainer()],
    ...extra,
  };
}

export interface WorkloadOptions {
  readonly kind?: string;
  readonly name?: string;
  /** null: no namespace. */
  readonly namespace?: string | null;
  readonly annotations?: { [key: string]: string };
}

function metadata(options: WorkloadOptions): any {
  const m: any = { name: options.name ?? 'node-agent' };
  if (options.namespace !== null) m.namespace = options.namespace ?? 'observability';
  if (options.annotations) m.annotations = options.annotations;
  return m;
}

/** a DaemonSet (or another kind with a pod template) around a pod spec. */
export function workload(podSpec: any = goodPodSpec(), options: WorkloadOptions = {}): any {
  const kind = options.kind ?? 'DaemonSet';
  const labels = { 'app.kubernetes.io/name': options.name ?? 'node-agent' };
  const template = { metadata: { labels }, spec: podSpec };
  switch (kind) {
    case 'Pod':
      return { apiVersion: 'v1', kind, metadata: metadata(options), spec: podSpec };
    case 'CronJob':
      return { apiVersion: 'batch/v1', kind, metadata: metadata(options), spec: { schedule: '0 * * * *', jobTemplate: { spec: { template } } } };
    case 'Job':
      return { apiVersion: 'batch/v1', kind, metadata: metadata(options), spec: { template } };
    default:
      return { apiVersion: 'apps/v1', kind, metadata: metadata(options), spec: { selector: { matchLabels: labels }, template } };
  }
}

/** a DaemonSet whose pod spec is the good one with some fields replaced. */
export function agent(podSpecChanges: any = {}, options: WorkloadOptions = {}): any {
  return workload(goodPodSpec(podSpecChanges), options);
}

/** the good pod spec with its one container changed. */
export function agentWithContainer(containerChanges: any, podSpecChanges: any = {}, options: WorkloadOptions = {}): any {
  return agent({ containers: [goodContainer(containerChanges)], ...podSpecChanges }, options);
}

/** the findings of one rule over the manifests, through the engine (so messages, severities and acknowledgements are real). */
export function findingsOf(rule: IReviewRule, manifests: any[], options: ReviewOptions = {}): Finding[] {
  const report = SecurityReview.review(manifests, { ...options, packs: [ReviewPack.custom('test', [rule])] });
  // the engine's always-on rule runs in every review: left out unless it is the rule under test
  return report.workloads.flatMap((w) => w.findings).filter((f) => f.rule !== SecurityReview.API_REJECTED_RULE || rule.id === f.rule);
}

export function rbac(kind: 'ClusterRole' | 'Role', name: string, rules: any[], namespace?: string): any {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: namespace ? { name, namespace } : { name }, rules };
}

export function binding(kind: 'ClusterRoleBinding' | 'RoleBinding', name: string, roleRef: { kind: string; name: string }, subjects: any[], namespace?: string): any {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind,
    metadata: namespace ? { name, namespace } : { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef },
    subjects,
  };
}

export function saSubject(name = 'node-agent', namespace = 'observability'): any {
  return { kind: 'ServiceAccount', name, namespace };
}

export function hostPathVolume(name: string, path: string, type?: string): any {
  return { name, hostPath: type === undefined ? { path } : { path, type } };
}

/** the RBAC rules of the node-agent baseline, each right a rule of its own. */
export function rbacRules(): IReviewRule[] {
  return ReviewPack.nodeAgentBaseline().rules.filter((r) => r.id.startsWith('NA-RBAC-'));
}

/** the findings of every RBAC rule over the manifests, through the engine. */
export function rbacFindings(manifests: any[], options: ReviewOptions = {}): Finding[] {
  const report = SecurityReview.review(manifests, { ...options, packs: [ReviewPack.custom('rbac', rbacRules())] });
  return report.workloads.flatMap((w) => w.findings);
}

/** the agent, a ClusterRole with these rules and a ClusterRoleBinding of it to the agent's ServiceAccount. */
export function boundCluster(rules: any[], extra: any[] = []): any[] {
  return [
    // an agent given RBAC mounts the token that uses it
    agent({ automountServiceAccountToken: true }),
    rbac('ClusterRole', 'node-agent', rules),
    binding('ClusterRoleBinding', 'node-agent', { kind: 'ClusterRole', name: 'node-agent' }, [saSubject()]),
    ...extra,
  ];
}

/** the agent, a Role with these rules in `namespace` and a RoleBinding of it there to the agent's ServiceAccount. */
export function boundInNamespace(namespace: string, rules: any[], extra: any[] = []): any[] {
  return [
    agent({ automountServiceAccountToken: true }),
    rbac('Role', 'node-agent', rules, namespace),
    binding('RoleBinding', 'node-agent', { kind: 'Role', name: 'node-agent' }, [saSubject()], namespace),
    ...extra,
  ];
}

/** `[rule, severity]` of each finding. */
export function rulesAndSeverities(findings: Finding[]): string[] {
  return findings.map((f) => `${f.rule}:${f.severity}`);
}
