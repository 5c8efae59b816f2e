/**
 * Internal: the Namespace the agents of a namespace share. Not exported.
 *
 * An app may spread the agents of one namespace over several charts. Each chart that holds such an agent writes the
 * Namespace object itself, so that every file applies on its own, and every copy is identical: its `enforce` level is
 * the least strict level any agent of that namespace needs, across the whole app (whichever file is applied last, the
 * labels are the same). Two agents of one namespace must pin the same Pod Security version. Inside its chart the
 * Namespace is ordered before everything that lives in it, so that `kubectl apply -f` creates it first.
 */
import { ApiObject, Chart, JsonPatch, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { markAgentNamespace, namespaceErrorsOf } from './_app-identity';
import { PatchCheckedApiObject } from './_checked-api-object';
import { fail } from './_validate';
import { PodSecurity, PodSecurityLevel } from '../model/pod-security';

const STRICTNESS: PodSecurityLevel[] = [PodSecurityLevel.PRIVILEGED, PodSecurityLevel.BASELINE, PodSecurityLevel.RESTRICTED];
const REGISTRY = Symbol.for('cdk8s-node-agents.Namespaces');

/** the Pod Security admission label prefix. */
export const PSA_PREFIX = 'pod-security.kubernetes.io';

/** what the app knows of one namespace: the version its agents pin, and the level each of them needs. */
interface NamespaceRecord {
  readonly psaVersion: string;
  /** the path of the first agent that pinned the version, for error messages. */
  readonly pinnedBy: string;
  readonly levels: (() => PodSecurityLevel)[];
}

function registryOf(root: IConstruct): Map<string, NamespaceRecord> {
  let registry = (root as any)[REGISTRY] as Map<string, NamespaceRecord> | undefined;
  if (!registry) {
    registry = new Map();
    Object.defineProperty(root, REGISTRY, { value: registry });
  }
  return registry;
}

export class AgentNamespace extends Construct {
  /**
   * The Namespace object for `name` in the chart of `agent`, created on first use, with the agent's level registered
   * app-wide. Fails when another agent of the namespace pins another Pod Security version.
   */
  public static join(agent: Construct, name: string, psaVersion: string, level: () => PodSecurityLevel): AgentNamespace {
    const registry = registryOf(agent.node.root);
    let record = registry.get(name);
    if (!record) {
      record = { psaVersion, pinnedBy: agent.node.path, levels: [] };
      registry.set(name, record);
    } else if (record.psaVersion !== psaVersion) {
      fail(agent, `namespace "${name}" is shared with agents that pin Pod Security version "${record.psaVersion}" (${record.pinnedBy}), but this one pins "${psaVersion}": use one podSecurityVersion per namespace`);
    }
    record.levels.push(level);
    const chart = Chart.of(agent);
    const existing = chart.node.tryFindChild(`Namespace-${name}`);
    return existing ? existing as AgentNamespace : new AgentNamespace(chart, `Namespace-${name}`, name, record);
  }

  public readonly apiObject: ApiObject;

  private constructor(scope: Construct, id: string, public readonly name: string, private readonly record: NamespaceRecord) {
    super(scope, id);
    const version = PodSecurity.versionLabel(record.psaVersion);
    this.apiObject = new PatchCheckedApiObject(this, 'Resource', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        labels: {
          'app.kubernetes.io/managed-by': 'cdk8s-node-agents',
          [`${PSA_PREFIX}/enforce`]: Lazy.any({ produce: () => this.enforceLevel() }) as any,
          [`${PSA_PREFIX}/enforce-version`]: version,
          [`${PSA_PREFIX}/warn`]: PodSecurityLevel.RESTRICTED,
          [`${PSA_PREFIX}/warn-version`]: version,
          [`${PSA_PREFIX}/audit`]: PodSecurityLevel.RESTRICTED,
          [`${PSA_PREFIX}/audit-version`]: version,
        },
      },
    });
    markAgentNamespace(this.apiObject);
    // a Namespace of the same name written by hand would replace this one, or be replaced by it, when applied
    this.node.addValidation({ validate: () => namespaceErrorsOf(this) });
    // a Namespace is cluster-scoped: never inherit the chart's namespace.
    if (Chart.of(this).namespace) this.apiObject.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
  }

  /** orders `object` after the Namespace in the chart's output: it lives in the namespace. */
  public precede(object: ApiObject): void {
    object.node.addDependency(this.apiObject);
  }

  /** the least strict level among the namespace's agents, app-wide: nothing more privileged than they need can start here. */
  public enforceLevel(): PodSecurityLevel {
    let index = STRICTNESS.length - 1;
    for (const level of this.record.levels) index = Math.min(index, STRICTNESS.indexOf(level()));
    return STRICTNESS[index];
  }
}
