import { Duration } from 'cdk8s';
import type { DnsPolicy } from 'cdk8s-plus-28';
import { AccessRule } from './access-rule';
import { AgentContainerProps, ContainerSettings, Justification } from './container-options';
import { NodeAffinityTerm, WeightedNodeAffinityTerm } from './node-requirement';
import { Toleration } from './toleration';
import { AgentUpdateStrategy } from './update-strategy';
import { Severity } from '../review/severity';

/**
 * A Service in front of the agent's pods.
 */
export interface AgentServiceOptions {
  /** names of the main container's ports to expose, e.g. `['metrics']`. */
  readonly ports: string[];

  /**
   * Annotations on the Service, e.g. `prometheus.io/scrape: 'true'`.
   *
   * @default - none
   */
  readonly annotations?: { [key: string]: string };

  /**
   * Route traffic from a node only to the agent on that same node (`internalTrafficPolicy: Local`), so
   * node-local clients talk to their own node's agent.
   *
   * @default false
   */
  readonly nodeLocal?: boolean;
}

/**
 * Every property of `NodeAgent` except the image (`NodeAgentProps` adds it). Presets extend this
 * interface, so that each NodeAgent property can be passed to them while the image keeps a pinned
 * default.
 */
export interface NodeAgentSettings extends ContainerSettings {
  /**
   * The agent's name: the name of the DaemonSet, its ServiceAccount and RBAC objects, and the value of
   * the `app.kubernetes.io/name` selector label. The selector is immutable on a live DaemonSet and is
   * derived from this name only, never from the construct path, so refactoring the app keeps it.
   *
   * @default - the construct id
   */
  readonly name?: string;

  /**
   * The namespace the agent runs in.
   *
   * @default - the chart's namespace if it has one, otherwise a dedicated namespace named after the agent
   */
  readonly namespace?: string;

  /**
   * Whether to create the Namespace object, labelled for Pod Security admission: `enforce` at the level
   * the agent needs (so nothing more privileged can start beside it) and `warn`/`audit` at `restricted`.
   * Agents of one chart in the same namespace share one Namespace object.
   *
   * @default true
   */
  readonly createNamespace?: boolean;

  /**
   * The Pod Security Standards version to evaluate against and to pin in the namespace labels, e.g.
   * `'1.28'`, `'1.32'` or `'latest'`.
   *
   * @default '1.28'
   */
  readonly podSecurityVersion?: string;

  /**
   * Extra labels on every object of the agent and on its pods. They never enter the selector.
   *
   * @default - only the `app.kubernetes.io/*` labels
   */
  readonly labels?: { [key: string]: string };

  /**
   * Extra annotations on the agent's pods.
   *
   * @default - none (besides the config checksum when config files are set)
   */
  readonly podAnnotations?: { [key: string]: string };

  /**
   * The name of the main container.
   *
   * @default 'agent'
   */
  readonly containerName?: string;

  /**
   * Registries images may come from (e.g. `['registry.example.com', 'quay.io']`); checked for every
   * container. Docker Hub images count as registry `docker.io`.
   *
   * @default - any registry
   */
  readonly allowedRegistries?: string[];

  /**
   * The synth fails when the security review of the agent (its rendered objects, with the default rule
   * packs) has an unacknowledged finding at or above this severity. Acknowledge accepted findings with
   * `agent.acknowledge(rule, reason)` or `SecurityCheck.acknowledge(scope, rule, reason)`.
   *
   * @default Severity.HIGH
   */
  readonly reviewFailOn?: Severity;

  // ---------------------------------------------------------------- placement

  /**
   * Node labels a node must carry, with exactly these values, for the agent to run there (ANDed with
   * the required node affinity).
   *
   * @default - no selector besides `kubernetes.io/os: linux` (see `linuxOnly`)
   */
  readonly nodeSelector?: { [key: string]: string };

  /**
   * Whether to run only on Linux nodes (`kubernetes.io/os: linux` in the node selector). Agents built
   * for Linux crash-loop on Windows nodes.
   *
   * @default true
   */
  readonly linuxOnly?: boolean;

  /**
   * Node affinity that must hold for the agent to run on a node: the node must match at least one
   * term, and every requirement within it.
   *
   * @default - none
   */
  readonly requiredNodeAffinity?: NodeAffinityTerm[];

  /**
   * Preferred node affinity terms with their weights. Kept for completeness: the DaemonSet controller
   * pins each pod to its node, so preferences do not change where the agent runs.
   *
   * @default - none
   */
  readonly preferredNodeAffinity?: WeightedNodeAffinityTerm[];

  /**
   * Taints the agent tolerates. On a preset, yours replace the preset's (where it runs is yours to choose).
   *
   * @default - none beyond those the DaemonSet controller adds (node conditions, cordoned nodes)
   */
  readonly tolerations?: Toleration[];

  /**
   * The PriorityClass of the agent's pods, e.g. `system-node-critical` for agents without which the
   * node is broken (CNI, CSI). Without one, agent pods can stay Pending on full nodes.
   *
   * @default - no priority class (priority 0)
   */
  readonly priorityClassName?: string;

  // ---------------------------------------------------------------- rollout

  /**
   * How pods are replaced when the agent changes.
   *
   * @default AgentUpdateStrategy.rollingUpdate() - one node at a time
   */
  readonly updateStrategy?: AgentUpdateStrategy;

  /**
   * How long a new pod must be ready before it counts as available and the rollout moves on.
   *
   * @default - available as soon as ready
   */
  readonly minReady?: Duration;

  /**
   * How many old revisions to keep for rollbacks.
   *
   * @default 10
   */
  readonly revisionHistoryLimit?: number;

  // ---------------------------------------------------------------- host namespaces

  /**
   * Use the node's network namespace: the agent sees and can bind every interface and port of the
   * node. DNS policy then becomes `ClusterFirstWithHostNet` so cluster DNS still works.
   *
   * @default - the pod network
   */
  readonly hostNetwork?: Justification;

  /**
   * Use the node's PID namespace: the agent sees (and, with capabilities, can signal or trace) every
   * process on the node.
   *
   * @default - its own PID namespace
   */
  readonly hostPID?: Justification;

  /**
   * Use the node's IPC namespace: the agent can reach shared memory and message queues of other pods.
   *
   * @default - its own IPC namespace
   */
  readonly hostIPC?: Justification;

  /**
   * DNS policy of the pods.
   *
   * @default - `ClusterFirstWithHostNet` on the host network, Kubernetes' `ClusterFirst` otherwise
   */
  readonly dnsPolicy?: DnsPolicy;

  /**
   * Group that owns mounted volumes (pod `fsGroup`).
   *
   * @default - not set
   */
  readonly fsGroup?: number;

  // ---------------------------------------------------------------- identity

  /**
   * Cluster-wide RBAC rules for the agent's ServiceAccount (a ClusterRole and ClusterRoleBinding).
   * On a preset, the rules it needs are kept and these added after them (its props list them).
   *
   * @default - none
   */
  readonly clusterPermissions?: AccessRule[];

  /**
   * RBAC rules within the agent's namespace (a Role and RoleBinding).
   *
   * @default - none
   */
  readonly namespacePermissions?: AccessRule[];

  /**
   * Names of Secrets (of type `kubernetes.io/dockerconfigjson`, in the agent's namespace) the kubelet
   * uses to pull the pods' images from private registries or a mirror that requires credentials.
   *
   * @default - none: images are pulled anonymously or with the node's credentials
   */
  readonly imagePullSecrets?: string[];

  /**
   * Whether to mount the ServiceAccount token into the pods.
   *
   * @default - true when the agent has any permissions, false otherwise
   */
  readonly automountServiceAccountToken?: boolean;

  // ---------------------------------------------------------------- runtime

  /**
   * How long the agent gets to shut down (flush buffers) after SIGTERM before it is killed: the longest the kubelet
   * waits, not a delay. An agent that exits on SIGTERM ends the wait at once; one whose PID 1 ignores SIGTERM (a shell
   * that does not trap it, `exec sleep`) makes every stop, and so every node of a rollout, wait all of it (see `command`).
   *
   * @default Duration.seconds(30) - Kubernetes' default, kept: agents that flush on SIGTERM need the time, and a
   * shorter period would only shorten, not end, the wait for one that ignores SIGTERM
   */
  readonly terminationGracePeriod?: Duration;

  /**
   * Configuration files, by file name, written to a ConfigMap and mounted read-only into the main
   * container at `configMountPath`. A checksum of their content is put on the pod template, so
   * changing a file rolls the agent.
   *
   * @default - no configuration files
   */
  readonly configFiles?: { [fileName: string]: string };

  /**
   * Where the configuration files are mounted in the main container.
   *
   * @default - `/etc/<name>`
   */
  readonly configMountPath?: string;

  /**
   * A ClusterIP Service in front of the agents' pods, for metrics scraping or a node-local API.
   *
   * @default - no Service
   */
  readonly service?: AgentServiceOptions;

  /**
   * Init containers, run in order before the agent starts (e.g. an installer that writes to the host
   * while the long-running container keeps read-only mounts). On a preset, the init containers it
   * needs are kept and these run after them (its props list them).
   *
   * @default - none
   */
  readonly initContainers?: AgentContainerProps[];

  /**
   * Extra long-running containers next to the agent. On a preset, the sidecars it needs are kept and
   * these added after them (its props list them).
   *
   * @default - none
   */
  readonly sidecars?: AgentContainerProps[];
}

/**
 * Properties for `NodeAgent`.
 */
export interface NodeAgentProps extends NodeAgentSettings {
  /** the main container's image, pinned to a version tag or a digest (`latest` and untagged images are rejected). */
  readonly image: string;
}
