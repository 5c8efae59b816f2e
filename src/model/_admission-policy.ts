/**
 * Internal: the ValidatingAdmissionPolicy and its binding that enforce, at admission, what the synth gate enforces at
 * synth for the reasons: every host privilege that needs a reason has one. Generated from the host privilege
 * descriptors (`ADMISSION_CHECKS`, one per `HostAccessType`): one validation per type, in `HostAccessType` order.
 * Plain JSON out; the construct and the CLI render it.
 */
import { ADMISSION_CHECKS } from './_admission-checks';
import { REGISTRIES_KEY, REGISTRY_VALIDATION, REGISTRY_VARIABLES } from './_admission-registries';
import { HOST_PRIVILEGES } from './_host-privileges';
import { BLANK_CHARACTERS, REASON_ANNOTATION_PREFIX, REASON_SEPARATOR } from './_reason-annotations';

/** the workloads the policy can check, with their API group, resource and where their pod spec is. */
export const POLICY_WORKLOADS: { [kind: string]: { group: string; resource: string; podSpec: string } } = {
  DaemonSet: { group: 'apps', resource: 'daemonsets', podSpec: 'object.spec.template.spec' },
  Deployment: { group: 'apps', resource: 'deployments', podSpec: 'object.spec.template.spec' },
  StatefulSet: { group: 'apps', resource: 'statefulsets', podSpec: 'object.spec.template.spec' },
  ReplicaSet: { group: 'apps', resource: 'replicasets', podSpec: 'object.spec.template.spec' },
  Job: { group: 'batch', resource: 'jobs', podSpec: 'object.spec.template.spec' },
  CronJob: { group: 'batch', resource: 'cronjobs', podSpec: 'object.spec.jobTemplate.spec.template.spec' },
  Pod: { group: '', resource: 'pods', podSpec: 'object.spec' },
};

export interface AdmissionPolicySpec {
  readonly name: string;
  /** kinds of `POLICY_WORKLOADS`. */
  readonly workloads: string[];
  /** `Deny`, `Warn`, `Audit`. */
  readonly validationActions: string[];
  readonly failurePolicy: string;
  readonly namespaceSelector?: any;
  readonly objectSelector?: any;
  readonly exemptNamespaces: string[];
  /**
   * The allowed registries, in a ConfigMap the binding names as the policy's parameter: every image must come from one
   * of them, as the review's NA-IMAGE-REGISTRY judges. Without it, images are not checked.
   */
  readonly registries?: { readonly name: string; readonly namespace: string; readonly allowed: string[] };
}

/** CEL: a string literal. */
function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, '\\\'')}'`;
}

/** CEL: whether the pair `p` is explained (its container's entry decides when there is one). */
const EXPLAINED = 'p[0] in variables.reasonIdentities ? p[0] in variables.explainedIdentities : p[1] in variables.explainedIdentities';

/** the kinds a controller makes from a template (a DaemonSet's, ReplicaSet's, StatefulSet's or Job's Pods, a Deployment's ReplicaSets, a CronJob's Jobs). */
const CONTROLLED_KINDS = ['Pod', 'ReplicaSet', 'Job'];
const ACTIONS = ['Deny', 'Warn', 'Audit'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** what the API server would refuse in a spec (or what the policy cannot mean), one line each with its fix. */
export function admissionPolicyErrors(spec: AdmissionPolicySpec): string[] {
  const errors: string[] = [];
  if (typeof spec.name !== 'string' || spec.name.length > 253 || !DNS_SUBDOMAIN.test(spec.name)) {
    errors.push(`name must be a DNS subdomain (lower-case letters, digits, '-' and '.', at most 253 characters), got ${JSON.stringify(spec.name)}`);
  }
  const kinds = Object.keys(POLICY_WORKLOADS);
  const unknown = (spec.workloads ?? []).filter((w) => !kinds.includes(w));
  if (!Array.isArray(spec.workloads) || spec.workloads.length === 0 || unknown.length > 0) {
    errors.push(`workloads must be one or more of ${kinds.join(', ')}, got ${JSON.stringify(spec.workloads)}`);
  }
  const actions = spec.validationActions ?? [];
  if (!Array.isArray(spec.validationActions) || actions.length === 0 || actions.some((a) => !ACTIONS.includes(a))) {
    errors.push(`actions must be one or more of ${ACTIONS.join(', ')}, got ${JSON.stringify(spec.validationActions)}`);
  } else if (actions.includes('Deny') && actions.includes('Warn')) {
    errors.push('actions cannot hold both Deny and Warn (the API server refuses the binding): use Deny, or Warn, each with Audit if wanted');
  } else if (new Set(actions).size !== actions.length) {
    errors.push(`actions must not repeat an action, got ${JSON.stringify(actions)}`);
  }
  if (!FAILURE_POLICIES.includes(spec.failurePolicy)) {
    errors.push(`failurePolicy must be ${FAILURE_POLICIES.join(' or ')}, got ${JSON.stringify(spec.failurePolicy)}`);
  }
  if (spec.registries !== undefined) {
    const { name, namespace, allowed } = spec.registries;
    if (typeof name !== 'string' || name.length > 253 || !DNS_SUBDOMAIN.test(name)) {
      errors.push(`the registries ConfigMap's name must be a DNS subdomain, got ${JSON.stringify(name)}`);
    }
    if (typeof namespace !== 'string' || namespace.length > 63 || !DNS_LABEL.test(namespace)) {
      errors.push(`the registries ConfigMap's namespace must be a namespace name (a DNS label), got ${JSON.stringify(namespace)}`);
    }
    for (const r of Array.isArray(allowed) ? allowed : [allowed]) {
      if (typeof r !== 'string' || r.trim() === '' || /[\r\n]/.test(r)) {
        errors.push(`allowed registry ${JSON.stringify(r)} must be a registry host or a host and path prefix on one line (registry.example.com, docker.io/falcosecurity)`);
      }
    }
  }
  for (const ns of spec.exemptNamespaces ?? []) {
    if (typeof ns !== 'string' || ns.length > 63 || !DNS_LABEL.test(ns)) {
      errors.push(`exempt namespace ${JSON.stringify(ns)} is not a namespace name (a DNS label): fix or remove it`);
    }
  }
  return errors;
}

/** the policy and its binding, as plain Kubernetes JSON; throws the problems of `admissionPolicyErrors`. */
export function admissionPolicyManifests(spec: AdmissionPolicySpec): any[] {
  const errors = admissionPolicyErrors(spec);
  if (errors.length > 0) throw new Error(errors.join('; '));
  const kinds = Object.keys(POLICY_WORKLOADS).filter((k) => spec.workloads.includes(k));
  const groups = [...new Set(kinds.map((k) => POLICY_WORKLOADS[k].group))];
  const resourceRules = groups.map((group) => ({
    apiGroups: [group],
    apiVersions: ['v1'],
    operations: ['CREATE', 'UPDATE'],
    resources: kinds.filter((k) => POLICY_WORKLOADS[k].group === group).map((k) => POLICY_WORKLOADS[k].resource),
  }));
  // the pod spec by kind: the last kind is the fallback, so that a single kind needs no condition
  const podSpec = kinds.slice(0, -1).reduceRight((rest, k) => `object.kind == '${k}' ? ${POLICY_WORKLOADS[k].podSpec} : ${rest}`,
    POLICY_WORKLOADS[kinds[kinds.length - 1]].podSpec);
  const separator = literal(REASON_SEPARATOR);
  const reasonValues = `object.metadata.?annotations.orValue({}).filter(k, k.startsWith(${literal(REASON_ANNOTATION_PREFIX)}))` +
    `.map(k, object.metadata.annotations[k]).filter(v, v.indexOf(${separator}) >= 0)`;
  const identity = `v.substring(0, v.indexOf(${separator}))`;
  const variables = [
    { name: 'podSpec', expression: podSpec },
    { name: 'containers', expression: 'variables.podSpec.?initContainers.orValue([]) + variables.podSpec.?containers.orValue([])' },
    {
      name: 'hostPathVolumes',
      // [normalised path, volume name] of every hostPath volume whose path CEL can normalise as the review does
      expression: 'variables.podSpec.?volumes.orValue([]).filter(v, has(v.hostPath) && !v.hostPath.path.split(\'/\').exists(s, s == \'..\'))' +
        '.map(v, [string(v.hostPath.path.startsWith(\'/\') ? \'/\' + v.hostPath.path.split(\'/\').filter(s, s != \'\' && s != \'.\').join(\'/\') : v.hostPath.path), string(v.name)])',
    },
    // by lists and `in` (no lambda per pair): the cost is within the API server's budget for far more mounts
    { name: 'hostPathNames', expression: 'variables.hostPathVolumes.map(h, h[1])' },
    {
      // [normalised path, 'ro' or 'rw'] of every mount of a hostPath volume, by any container
      name: 'hostPathMounts',
      expression: 'variables.containers.map(c, c.?volumeMounts.orValue([]).filter(m, m.name in variables.hostPathNames)' +
        '.map(m, [variables.hostPathVolumes[variables.hostPathNames.indexOf(m.name)][0], m.?readOnly.orValue(false) == true ? \'ro\' : \'rw\'])).flatten()',
    },
    { name: 'mountedHostPaths', expression: 'variables.hostPathMounts.map(m, m[0])' },
    { name: 'writableHostPaths', expression: 'variables.hostPathMounts.filter(m, m[1] == \'rw\').map(m, m[0])' },
    { name: 'reasonValues', expression: reasonValues },
    { name: 'reasonIdentities', expression: `variables.reasonValues.map(v, ${identity})` },
    {
      name: 'explainedIdentities',
      expression: `variables.reasonValues.filter(v, v.substring(v.indexOf(${separator}) + ${REASON_SEPARATOR.length}).matches(r'[^${BLANK_CHARACTERS}]'))` +
        `.map(v, ${identity})`,
    },
    ...HOST_PRIVILEGES.map((d) => ({ name: d.type, expression: ADMISSION_CHECKS[d.type].requirements.replace(/\n\s*/g, '') })),
    ...spec.registries === undefined ? [] : REGISTRY_VARIABLES,
  ];
  const validations = HOST_PRIVILEGES.map((d) => ({
    expression: `variables.${d.type}.all(p, ${EXPLAINED})`,
    messageExpression: 'object.kind + \' \' + object.metadata.?name.orValue(object.metadata.?generateName.orValue(\'\')) + \' takes \' + ' +
      `variables.${d.type}.filter(p, !(${EXPLAINED})).map(p, p[0]).join(', ') + ` +
      '\' without a reason: add to its metadata.annotations, one line per privilege, \' + ' +
      `variables.${d.type}.filter(p, !(${EXPLAINED})).map(p, ${literal(`${REASON_ANNOTATION_PREFIX}<name>: "`)} + p[0] + ${literal(`${REASON_SEPARATOR}<why it is needed>"`)}).join('; ') + ` +
      `${literal(' (<name>: any name of letters, digits, \'-\', \'_\' and \'.\'; NodeAgent writes these itself), or drop the privilege')}`,
    reason: 'Forbidden',
  }));
  if (spec.registries !== undefined) validations.push(REGISTRY_VALIDATION);
  const namespaceSelector = spec.exemptNamespaces.length === 0 ? spec.namespaceSelector : {
    ...spec.namespaceSelector ?? {},
    matchExpressions: [
      ...spec.namespaceSelector?.matchExpressions ?? [],
      { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: [...spec.exemptNamespaces].sort() },
    ],
  };
  const matchResources = dropEmpty({ namespaceSelector, objectSelector: spec.objectSelector });
  // a Pod, ReplicaSet or Job made by a controller carries its template's metadata, not its controller's (where the
  // reasons are, so that rewording one restarts nothing): it is checked through its controller
  const owned = kinds.filter((k) => CONTROLLED_KINDS.includes(k));
  const matchConditions = owned.length === 0 ? undefined : [{
    name: 'not-made-by-a-controller',
    expression: `!(object.kind in [${owned.map((k) => `'${k}'`).join(', ')}] && ` +
      'object.metadata.?ownerReferences.orValue([]).exists(r, r.?controller.orValue(false) == true))',
  }];
  const policy = admissionObject('ValidatingAdmissionPolicy', spec.name, {
    failurePolicy: spec.failurePolicy,
    ...spec.registries === undefined ? {} : { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } },
    matchConstraints: { resourceRules },
    ...matchConditions === undefined ? {} : { matchConditions },
    variables,
    validations,
  });
  const binding = admissionObject('ValidatingAdmissionPolicyBinding', spec.name, {
    policyName: spec.name,
    // without its parameter the policy refuses every workload (the registries are unknown), as the review refuses an
    // image when the allowed list is empty
    ...spec.registries === undefined ? {}
      : { paramRef: { name: spec.registries.name, namespace: spec.registries.namespace, parameterNotFoundAction: 'Deny' } },
    validationActions: spec.validationActions,
    ...matchResources === undefined ? {} : { matchResources },
  });
  if (spec.registries === undefined) return [policy, binding];
  const parameter = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: spec.registries.name, namespace: spec.registries.namespace },
    data: { [REGISTRIES_KEY]: spec.registries.allowed.map((r) => r.trim()).join('\n') },
  };
  // the parameter first: until it exists, the binding refuses every workload
  return [parameter, policy, binding];
}

function admissionObject(kind: string, name: string, spec: any): any {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, spec };
}

function dropEmpty(o: { [k: string]: any }): { [k: string]: any } | undefined {
  const entries = Object.entries(o).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}
