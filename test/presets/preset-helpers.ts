/**
 * Shared helpers of the preset tests: synthesize one chart strictly and look into its objects.
 */
import { Chart, Testing } from 'cdk8s';
import { Capability, HostPathVolumeType } from 'cdk8s-plus-28';
import { AgentProbe, CniFlavor, HostAccessReasons, HostMount, NodeAgent } from '../../src';
import { synthValid } from '../util/k8s-schema';

/** a fresh chart in a fresh app. */
export function chart(namespace?: string): Chart {
  return new Chart(Testing.app(), 'test', { namespace });
}

/** builds into a fresh chart and returns its manifests, validated strictly against the schema. */
export function synthOf(build: (chart: Chart) => void, namespace?: string): any[] {
  const c = chart(namespace);
  build(c);
  return synthValid(c);
}

/** the one object of a kind (fails when there are none or several). */
export function find(manifests: any[], kind: string): any {
  const found = manifests.filter((m) => m.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0];
}

/** the kinds of the manifests, sorted. */
export function kinds(manifests: any[]): string[] {
  return manifests.map((m) => m.kind).sort();
}

/** the DaemonSet's pod spec. */
export function podSpec(manifests: any[]): any {
  return find(manifests, 'DaemonSet').spec.template.spec;
}

/** a container of the pod (regular or init) by name. */
export function container(manifests: any[], name = 'agent'): any {
  const spec = podSpec(manifests);
  const found = [...spec.containers, ...spec.initContainers ?? []].filter((c: any) => c.name === name);
  if (found.length !== 1) throw new Error(`expected one container ${name}, found ${found.length}`);
  return found[0];
}

/** one host mount of a container, as the kubelet will see it. */
export interface RenderedHostMount {
  readonly hostPath: string;
  readonly type?: string;
  readonly mountPath: string;
  readonly readOnly: boolean;
  readonly propagation?: string;
  readonly volume: string;
}

/** the hostPath mounts of a container, in order. */
export function hostMounts(manifests: any[], name = 'agent'): RenderedHostMount[] {
  const volumes = new Map<string, any>((podSpec(manifests).volumes ?? []).map((v: any) => [v.name, v]));
  return (container(manifests, name).volumeMounts ?? [])
    .filter((m: any) => volumes.get(m.name)?.hostPath)
    .map((m: any) => {
      const v = volumes.get(m.name);
      return {
        hostPath: v.hostPath.path,
        type: v.hostPath.type,
        mountPath: m.mountPath,
        readOnly: m.readOnly === true,
        propagation: m.mountPropagation,
        volume: m.name,
      };
    });
}

/** the host mount of a container at a host path. */
export function hostMount(manifests: any[], hostPath: string, name = 'agent'): RenderedHostMount {
  const found = hostMounts(manifests, name).filter((m) => m.hostPath === hostPath);
  if (found.length !== 1) throw new Error(`expected one mount of ${hostPath} in ${name}, found ${found.length}`);
  return found[0];
}

/** the host-access reasons recorded on the DaemonSet, as `type:detail[@container]` keys, sorted. */
export function reasonKeys(manifests: any[]): string[] {
  return HostAccessReasons.parse(find(manifests, 'DaemonSet').metadata.annotations)
    .map((r) => `${r.type}:${r.detail}${r.container ? `@${r.container}` : ''}`)
    .sort();
}

/** the recorded reason for a privilege. */
export function reasonFor(manifests: any[], key: string): string | undefined {
  const reasons = HostAccessReasons.parse(find(manifests, 'DaemonSet').metadata.annotations);
  return reasons.find((r) => `${r.type}:${r.detail}${r.container ? `@${r.container}` : ''}` === key)?.reason;
}

/** the rules of the agent's ClusterRole. */
export function clusterRules(manifests: any[]): any[] {
  return find(manifests, 'ClusterRole').rules;
}

/** an image reference pinned to a version tag (optionally with a digest), never latest. */
export const PINNED = /^[a-z0-9.-]+(\/[a-z0-9._-]+)+:v?\d+\.\d+\.\d+[-.\w]*(@sha256:[0-9a-f]{64})?$/;

/** `true` when two types have exactly the same keys (a compile error otherwise, in the tests that use it). */
export type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;

/** the security review's findings for an agent that no acknowledgement accepts, as `[severity] rule (container)`. */
export function openFindings(agent: NodeAgent): string[] {
  return agent.review().workloads
    .flatMap((w) => w.findings)
    .filter((f) => !f.acknowledged)
    .map((f) => `[${f.severity}] ${f.rule}${f.container ? ` (${f.container})` : ''}: ${f.message}`);
}

/** the rules an agent's findings were acknowledged for, with the reasons given (host-access explanations left out). */
export function acknowledgedRules(agent: NodeAgent): string[] {
  return [...new Set(agent.review().workloads
    .flatMap((w) => w.findings)
    .filter((f) => f.acknowledged && !(f.acknowledgedReason ?? '').startsWith('host-access reason'))
    .map((f) => f.rule))].sort();
}

/** a custom CNI flavor: its own agent with NET_ADMIN, probes on 9099 and one installer writing /opt/cni/bin. */
export function customCniFlavor(): CniFlavor {
  return CniFlavor.custom({
    name: 'my-cni',
    image: 'registry.example.com/my-cni:1.0.0',
    capabilities: [{ capability: Capability.NET_ADMIN, reason: 'programs routes' }],
    runAsRoot: { reason: 'capabilities need root' },
    liveness: AgentProbe.tcpSocket(9099),
    readiness: AgentProbe.tcpSocket(9099),
    installers: [{
      name: 'install',
      image: 'registry.example.com/my-cni-installer:1.0.0',
      runAsRoot: { reason: 'writes into /opt/cni/bin' },
      hostMounts: [HostMount.readWrite('/opt/cni/bin', 'installs the plugin binary', { type: HostPathVolumeType.DIRECTORY_OR_CREATE })],
    }],
  });
}
