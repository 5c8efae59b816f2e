import { Severity } from './severity';

/**
 * One thing the security review found wrong with one workload.
 *
 * Acknowledged findings stay in the report, marked `acknowledged` with the reason given, so that a reader sees every
 * accepted risk next to the ones still open.
 */
export interface Finding {
  /** the stable ID of the rule that found it, e.g. `NA-HOSTPATH-WRITABLE` or `PSS-BASELINE-hostNamespaces`. */
  readonly rule: string;

  /** how urgent it is. Usually the rule's severity; rules that rate by risk give each finding its own. */
  readonly severity: Severity;

  /**
   * What is wrong, naming the object (`kind namespace/name`), the container and the field, e.g.
   * `DaemonSet logging/fluent-bit, container "fluent-bit": mounts host path /var/log read-write (spec.template.spec.containers[0].volumeMounts[0].readOnly)`.
   */
  readonly message: string;

  /** how to fix it. */
  readonly fix: string;

  /** the workload's kind, e.g. `DaemonSet`. */
  readonly kind: string;

  /**
   * The namespace the workload lands in, as `WorkloadReview.namespace` gives it (its own, or as the review resolved it).
   *
   * @default - unknown: the manifest sets none and the review could not tell
   */
  readonly namespace?: string;

  /** the workload's name. */
  readonly name: string;

  /**
   * The container concerned.
   *
   * @default - a finding about the pod or the workload as a whole
   */
  readonly container?: string;

  /**
   * The JSON path of the field concerned, in the manifest, e.g. `spec.template.spec.containers[0].securityContext.privileged`.
   *
   * @default - the finding concerns no single field
   */
  readonly field?: string;

  /**
   * The other rules that found the same cause (one host privilege of one container), merged into this finding: one
   * cause, one finding. `rule` is the most specific of them at the finding's severity. An acknowledgement of `rule`, or
   * of a merged rule whose own finding would have had this severity, accepts it.
   *
   * @default - no other rule found this cause
   */
  readonly mergedRules?: string[];

  /** whether an acknowledgement with a reason accepts this finding. */
  readonly acknowledged: boolean;

  /**
   * Why the finding was accepted: the reasons of every matching acknowledgement, joined by `; `.
   *
   * @default - not acknowledged
   */
  readonly acknowledgedReason?: string;
}
