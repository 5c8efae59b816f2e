/**
 * Internal: the Namespace shared by the agents of one chart that live in it. Not exported.
 *
 * Two agents in the same namespace must not each emit a Namespace object (the second `kubectl apply`
 * would overwrite the first one's Pod Security labels), so the first agent creates it on the chart and
 * later agents join it. Its `enforce` level is the least strict level any of its agents needs.
 */
import { ApiObject, Chart, JsonPatch, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { fail } from './_validate';
import { PodSecurity, PodSecurityLevel } from '../model/pod-security';

const STRICTNESS: PodSecurityLevel[] = [PodSecurityLevel.PRIVILEGED, PodSecurityLevel.BASELINE, PodSecurityLevel.RESTRICTED];

/** the Pod Security admission label prefix. */
export const PSA_PREFIX = 'pod-security.kubernetes.io';

export class AgentNamespace extends Construct {
  /** finds the chart's Namespace construct for `name`, creating it on first use. */
  public static of(scope: Construct, name: string, psaVersion: string): AgentNamespace {
    const chart = Chart.of(scope);
    const id = `Namespace-${name}`;
    const existing = chart.node.tryFindChild(id);
    if (existing) {
      const ns = existing as AgentNamespace;
      if (ns.psaVersion !== psaVersion) {
        fail(scope, `namespace "${name}" is shared with agents that pin Pod Security version "${ns.psaVersion}", but this one pins "${psaVersion}": use one podSecurityVersion per namespace`);
      }
      return ns;
    }
    return new AgentNamespace(chart, id, name, psaVersion);
  }

  public readonly apiObject: ApiObject;
  private readonly levels: (() => PodSecurityLevel)[] = [];

  private constructor(scope: Construct, id: string, public readonly name: string, public readonly psaVersion: string) {
    super(scope, id);
    const version = PodSecurity.versionLabel(psaVersion);
    this.apiObject = new ApiObject(this, 'Resource', {
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
    // a Namespace is cluster-scoped: never inherit the chart's namespace.
    if (Chart.of(this).namespace) this.apiObject.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
  }

  /** registers an agent's level, computed at synth so later changes to the agent count. */
  public addMember(level: () => PodSecurityLevel): void {
    this.levels.push(level);
  }

  /** the least strict level among the members: nothing more privileged than they need can start here. */
  public enforceLevel(): PodSecurityLevel {
    let index = STRICTNESS.length - 1;
    for (const level of this.levels) index = Math.min(index, STRICTNESS.indexOf(level()));
    return STRICTNESS[index];
  }
}
