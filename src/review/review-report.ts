import { Finding } from './finding';

/**
 * One host privilege of a workload, with its risk and the reason recorded for it.
 */
export interface HostAccessEntry {
  /**
   * The kind of privilege: a `HostAccessType` value.
   */
  readonly type: string;

  /**
   * Which privilege of that kind, in the format `HostAccessReason` documents per type (the host path with its mode, the
   * capability, `port/protocol`, a container name, or empty).
   */
  readonly detail: string;

  /** the privilege's risk: a `RiskLevel` value. */
  readonly risk: string;

  /**
   * The container that holds it.
   *
   * @default - a pod-level privilege (host namespaces, hostPath volumes)
   */
  readonly container?: string;

  /**
   * For a hostPath: the containers that mount it (init, regular and ephemeral), sorted; empty when none does. For a
   * container's privilege: that container.
   *
   * @default - a pod-level privilege without containers: a host namespace
   */
  readonly containers?: string[];

  /**
   * For a hostPort: true when it is a container port of a hostNetwork pod that declares no `hostPort` (on the host
   * network every container port is a port of the node).
   *
   * @default - not a hostPort, or a declared one
   */
  readonly viaHostNetwork?: boolean;

  /**
   * The reason recorded for it in the workload's `node-agents.cdk8s.io/host-access` annotation. For a container port
   * that is a node port through hostNetwork and has no reason of its own: the hostNetwork's, which explains it.
   *
   * @default - no reason recorded
   */
  readonly reason?: string;

  /** what an attacker who controls the container gains through it. */
  readonly attackerGains: string;

  /** how to get what the agent needs with less. */
  readonly saferAlternative: string;
}

/**
 * The review of one workload.
 */
export interface WorkloadReview {
  /** the workload's kind. */
  readonly kind: string;

  /**
   * The namespace the workload lands in: its own `metadata.namespace`; else the namespace the review was given
   * (`ReviewOptions.namespace`, `--namespace`); else the one namespace every other object of its file sets.
   *
   * @default - unknown: the manifest sets none and the review could not tell
   */
  readonly namespace?: string;

  /**
   * How `namespace` was determined: `manifest` (its own `metadata.namespace`), `option` (`ReviewOptions.namespace`,
   * `--namespace`) or `file` (the namespace every other object of its file sets).
   *
   * @default - the namespace is unknown
   */
  readonly namespaceSource?: string;

  /** the workload's name. */
  readonly name: string;

  /** the strictest Pod Security level the pod satisfies (`privileged`, `baseline`, `restricted`), or `unknown` when its spec cannot be read. */
  readonly podSecurityLevel: string;

  /** every host privilege the pod takes, in `HostAccess` order. */
  readonly hostAccess: HostAccessEntry[];

  /** every finding, open and acknowledged: by severity (critical first), then rule, container, field and message. */
  readonly findings: Finding[];
}

/**
 * The result of a security review.
 */
export interface ReviewReport {
  /** one review per workload, in the order of the manifests. */
  readonly workloads: WorkloadReview[];

  /**
   * The Pod Security policy version evaluated, normalised: `1.28` or `latest`.
   *
   * @default - not recorded
   */
  readonly podSecurityVersion?: string;

  /**
   * The IDs of the packs that ran.
   *
   * @default - not recorded
   */
  readonly packs?: string[];
}
