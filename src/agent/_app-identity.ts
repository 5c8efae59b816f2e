/**
 * Internal: objects of one name in the whole app. Not exported.
 *
 * Two objects with the same API group, kind, namespace and name are one object to the API server: whichever file is
 * applied last silently replaces the other. The app is indexed once per synth (see `_synth-counter.ts`; outside
 * `App.synth()`/`synthYaml()`, at each validation), and every clash that involves an object a NodeAgent writes is an
 * error naming both construct paths. The Namespace copies this library writes for one namespace in several charts are
 * identical by construction (see `_namespace.ts`) and do not clash with each other.
 */
import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { currentSynth, synthCounterOf } from './_synth-counter';

/** kinds the API server keeps without a namespace: a namespace set on them means nothing. */
const CLUSTER_SCOPED = new Set([
  'APIService', 'CertificateSigningRequest', 'ClusterRole', 'ClusterRoleBinding', 'CSIDriver', 'CSINode', 'CustomResourceDefinition',
  'IngressClass', 'MutatingWebhookConfiguration', 'Namespace', 'Node', 'PersistentVolume', 'PriorityClass', 'RuntimeClass',
  'StorageClass', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'ValidatingWebhookConfiguration', 'VolumeAttachment',
]);

const INDEX = Symbol.for('cdk8s-node-agents.AppIdentityIndex');
const AGENT_NAMESPACE = Symbol.for('cdk8s-node-agents.AgentNamespace');

/** marks a Namespace object as one this library writes for its agents (see `_namespace.ts`). */
export function markAgentNamespace(object: ApiObject): void {
  Object.defineProperty(object, AGENT_NAMESPACE, { value: true });
}

/** whether an object is a Namespace this library writes for its agents. */
export function isAgentNamespace(object: IConstruct): boolean {
  return AGENT_NAMESPACE in object;
}

/** the Namespace this library writes, as the check needs it. */
export interface OwnNamespace {
  readonly node: IConstruct['node'];
  readonly name: string;
  readonly apiObject: ApiObject;
  enforceLevel(): string;
}

interface Index {
  /** the objects of each identity. */
  readonly byKey: Map<string, ApiObject[]>;
  /** the identity of every object that shares its identity with another: most apps have none. */
  readonly clashing: Map<ApiObject, string>;
}

/** `apps DaemonSet observability/fluent-bit`: what the API server keys an object by. */
function identityOf(o: ApiObject): string {
  const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : 'core';
  const namespace = CLUSTER_SCOPED.has(o.kind) ? '' : o.metadata.namespace ?? Chart.of(o).namespace ?? '';
  return `${group} ${o.kind} ${namespace ? `${namespace}/` : ''}${o.name}`;
}

function buildIndex(root: IConstruct): Index {
  const byKey = new Map<string, ApiObject[]>();
  for (const c of root.node.findAll()) {
    if (!ApiObject.isApiObject(c)) continue;
    const key = identityOf(c);
    const list = byKey.get(key);
    if (list) list.push(c);
    else byKey.set(key, [c]);
  }
  const clashing = new Map<ApiObject, string>();
  for (const [key, objects] of byKey) {
    // the copies of one Namespace this library writes in several charts are one object: no clash
    if (objects.length > 1 && !objects.every(isAgentNamespace)) for (const o of objects) clashing.set(o, key);
  }
  return { byKey, clashing };
}

/** the app's index: built once per synth, or afresh outside `App.synth()`/`synthYaml()`. */
function indexOf(root: IConstruct): Index {
  const synth = currentSynth(synthCounterOf(root));
  if (synth === undefined) return buildIndex(root);
  const memo = (root as any)[INDEX] as { synth: number; index: Index } | undefined;
  if (memo?.synth === synth) return memo.index;
  const index = buildIndex(root);
  Object.defineProperty(root, INDEX, { value: { synth, index }, configurable: true, writable: true });
  return index;
}

function describe(key: string): string {
  // drop the API group for people: `DaemonSet observability/fluent-bit`
  return key.slice(key.indexOf(' ') + 1);
}

/**
 * The clashes of the objects a NodeAgent writes (every ApiObject under it) with any other object of the app, one
 * message each: what clashes, the other construct path and the fix.
 */
export function identityErrorsOf(agent: IConstruct): string[] {
  const index = indexOf(agent.node.root);
  // every agent asks at every synth: without a clash in the app, nothing to look for under it
  if (index.clashing.size === 0) return [];
  const errors: string[] = [];
  for (const own of agent.node.findAll()) {
    const key = ApiObject.isApiObject(own) ? index.clashing.get(own) : undefined;
    if (key === undefined) continue;
    for (const other of index.byKey.get(key) ?? []) {
      if (other === own) continue;
      errors.push(`${describe(key)} is also defined by ${other.node.path}: one of them would replace the other when applied; ` +
        'give the agent another name or namespace, or remove the other object');
    }
  }
  return errors;
}

/**
 * The clashes of a Namespace this library writes with Namespace objects written by hand (or by another library): the
 * copies this library writes for one namespace in several charts are the same object and are left alone.
 */
export function namespaceErrorsOf(namespace: OwnNamespace): string[] {
  const index = indexOf(namespace.node.root);
  const key = index.clashing.get(namespace.apiObject);
  if (key === undefined) return [];
  return (index.byKey.get(key) ?? [])
    .filter((other) => !isAgentNamespace(other))
    .map((other) => `Namespace ${namespace.name} is written for its agents (labelled for Pod Security at the level they need) and also by ` +
      `${other.node.path}: keep one: set createNamespace: false on the agents of namespace ${namespace.name} and label yours with ` +
      `pod-security.kubernetes.io/enforce: ${namespace.enforceLevel()}, or remove yours`);
}
