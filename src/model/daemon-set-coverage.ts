import { str, stringMap } from './_label-selector';
import { evaluateNodeSelector, evaluateRequiredNodeAffinity } from './_node-affinity';
import { checkDaemonSetShape, checkNodeShape } from './_placement-shape';
import { isWindowsPod } from './_pod-spec';
import { daemonPodTolerations, isBlockingEffect, readTaints, readTolerations, toleratesTaint, untoleratedTaintReason } from './_tolerations';

/**
 * Whether one node runs a DaemonSet's pod, and if not, why.
 */
export interface NodePlacement {
  /** the node's `metadata.name` ("" when the node has no name). */
  readonly nodeName: string;

  /**
   * Whether the DaemonSet controller places a pod on this node (it counts towards `desiredNumberScheduled`).
   */
  readonly shouldRun: boolean;

  /**
   * Whether a pod that is already running on this node may stay.
   *
   * True when the pod should run, and also when only untolerated `NoSchedule` taints keep it off the node
   * (a taint added after the pod started does not remove it). False for a nodeName, nodeSelector or required
   * affinity mismatch, and for an untolerated `NoExecute` taint.
   */
  readonly shouldContinueRunning: boolean;

  /**
   * Every cause that keeps the pod off the node, in plain words with the fix; empty when `shouldRun` is true.
   *
   * Causes are listed in the order the controller checks them: the template's `nodeName`, `nodeSelector`,
   * required node affinity, then each untolerated `NoSchedule`/`NoExecute` taint.
   */
  readonly reasons: string[];

  /**
   * What goes wrong on a node the pod is placed on, in plain words with the fix: a Windows node
   * (`kubernetes.io/os: windows`) given a pod template that declares no OS (no `spec.os.name`, no `kubernetes.io/os`
   * in its nodeSelector, no Windows HostProcess container), whose Linux images cannot run there.
   *
   * @default - nothing: the pod should not run on the node, or nothing known goes wrong there
   */
  readonly warnings?: string[];
}

/**
 * Where a DaemonSet runs on a set of nodes.
 */
export interface CoveragePlan {
  /** the number of nodes that should run the pod: what `kubectl get ds` shows as DESIRED (`desiredNumberScheduled`). */
  readonly desired: number;

  /** one placement per node, in the order of the nodes given. */
  readonly placements: NodePlacement[];
}

/**
 * Predicts which nodes a DaemonSet runs on, the way the DaemonSet controller decides it
 * (`NodeShouldRunDaemonPod` in `pkg/controller/daemon/daemon_controller.go`), offline, from plain JSON.
 *
 * For each node it checks:
 * - `spec.template.spec.nodeName`, when set, must be the node's name;
 * - every `spec.template.spec.nodeSelector` entry must be a node label with exactly that value
 *   (`{gpu: ""}` needs the label `gpu` with an empty value; an empty map is no constraint);
 * - the required node affinity, when set: its terms are ORed, the expressions in a term ANDed; an empty term,
 *   an invalid term and zero terms match nothing; `NotIn` and `DoesNotExist` match an absent label; `Gt`/`Lt`
 *   compare 64-bit integers; `matchFields` compare `metadata.name`. Preferred affinity never matters;
 * - every `NoSchedule` and `NoExecute` taint must be tolerated, by the template's tolerations or by the ones the
 *   controller adds to every daemon pod (not-ready and unreachable for NoExecute; disk-, memory- and pid-pressure
 *   and unschedulable for NoSchedule; network-unavailable for NoSchedule only with `hostNetwork: true`).
 *   `PreferNoSchedule` taints never block.
 *
 * Cordoned nodes (`spec.unschedulable: true`) still run DaemonSet pods. Resources, host ports and the like are
 * scheduler checks, not controller checks: a node counted here may still hold a Pending pod.
 */
export class DaemonSetCoverage {
  /**
   * Plans a DaemonSet over a node inventory.
   *
   * @param daemonSet an `apps/v1` DaemonSet as plain JSON (only `spec.template.spec` is read)
   * @param nodes `v1` Node objects as plain JSON, e.g. the `items` of `kubectl get nodes -o json`
   * @returns the number of nodes that should run the pod, and one placement per node in input order
   * @throws when the DaemonSet or a node is not an object, the DaemonSet has no `spec.template.spec`, or a field read
   * has the wrong JSON type (`tolerations` or `taints` that are not a list, a nodeSelector value that is not a string)
   */
  public static plan(daemonSet: any, nodes: any[]): CoveragePlan {
    if (!Array.isArray(nodes)) {
      throw new Error(`nodes must be an array of Node objects, got ${describe(nodes)}; pass the items of a NodeList`);
    }
    const placements = nodes.map((node, i) => DaemonSetCoverage.place(daemonSet, node, `nodes[${i}]`));
    return { desired: placements.filter((p) => p.shouldRun).length, placements };
  }

  /**
   * Decides one node.
   *
   * @param daemonSet an `apps/v1` DaemonSet as plain JSON
   * @param node a `v1` Node as plain JSON
   * @throws when the DaemonSet or the node is not an object, the DaemonSet has no `spec.template.spec`, or a field read
   * has the wrong JSON type
   */
  public static placement(daemonSet: any, node: any): NodePlacement {
    return DaemonSetCoverage.place(daemonSet, node, 'node');
  }

  private static place(daemonSet: any, node: any, nodeLabel: string): NodePlacement {
    if (!isObject(daemonSet)) {
      throw new Error(`daemonSet must be a DaemonSet object, got ${describe(daemonSet)}; pass the parsed manifest`);
    }
    if (!isObject(node)) {
      throw new Error(`${nodeLabel} must be a Node object, got ${describe(node)}; pass the parsed node (kubectl get nodes -o json)`);
    }
    const podSpec = checkDaemonSetShape(daemonSet);
    checkNodeShape(node, nodeLabel);
    const nodeName = str(node.metadata?.name);
    const labels = stringMap(node.metadata?.labels);

    // nodeName, nodeSelector and required affinity: a mismatch means (false, false)
    const placementReasons: string[] = [];
    const templateNodeName = str(podSpec.nodeName);
    if (templateNodeName !== '' && templateNodeName !== nodeName) {
      placementReasons.push(
        `spec.template.spec.nodeName is ${templateNodeName}, so the pod runs only on that node; ` +
        'remove nodeName and use a nodeSelector or node affinity to choose nodes',
      );
    }
    placementReasons.push(...evaluateNodeSelector(podSpec.nodeSelector, nodeName, labels).reasons);
    const requiredAffinity = podSpec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    placementReasons.push(...evaluateRequiredNodeAffinity(requiredAffinity, nodeName, labels).reasons);

    // taints: only NoSchedule and NoExecute count; the controller adds its own tolerations first
    const tolerations = [...readTolerations(podSpec.tolerations), ...daemonPodTolerations(podSpec.hostNetwork === true)];
    const untolerated = readTaints(node.spec?.taints)
      .filter((taint) => isBlockingEffect(taint.effect))
      .filter((taint) => !tolerations.some((toleration) => toleratesTaint(toleration, taint)));

    const reasons = [...placementReasons, ...untolerated.map(untoleratedTaintReason)];
    const warnings = reasons.length === 0 ? osWarnings(podSpec, labels) : [];
    const placement = {
      nodeName,
      shouldRun: reasons.length === 0,
      shouldContinueRunning: placementReasons.length === 0 && !untolerated.some((taint) => taint.effect === 'NoExecute'),
      reasons,
    };
    return warnings.length > 0 ? { ...placement, warnings } : placement;
  }

  private constructor() {}
}

/**
 * A Windows node (the kubelet's `kubernetes.io/os` label) running a pod that declares no OS: the DaemonSet controller
 * places it like any other, and a container image without a Windows variant does not run there (the pull finds no
 * matching platform, or the container fails to start). A pod that declares Windows (`isWindowsPod`) is meant for it.
 */
function osWarnings(podSpec: any, labels: Map<string, string>): string[] {
  if (labels.get('kubernetes.io/os') !== 'windows' || isWindowsPod(podSpec)) return [];
  const fix = 'add nodeSelector kubernetes.io/os: linux';
  if (podSpec.os?.name === 'linux') {
    // pkg/kubelet/lifecycle/predicate.go: the kubelet rejects a pod whose spec.os.name is not its node's OS
    return ['the node runs Windows (kubernetes.io/os=windows) and the pod sets spec.os.name: linux, which the DaemonSet controller does not check: ' +
      `the pod is placed here and the kubelet rejects it (PodOSNotSupported), again and again; ${fix}`];
  }
  return ['the node runs Windows (kubernetes.io/os=windows) and the pod template declares no OS, so the pod is placed here: a Linux image ' +
    'does not run on Windows (the pull finds no Windows variant, or the container fails to start), so unless every image has a Windows ' +
    `variant the pod fails on this node; ${fix}`];
}

function isObject(value: unknown): value is { [key: string]: any } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string "${value.length > 60 ? `${value.slice(0, 57)}...` : value}"`;
  return String(typeof value === 'object' ? 'an object' : value);
}
