import { HostPrivilege } from './review-rule';
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
   * privilege, one finding. `rule` is the most specific of them at the finding's severity. An acknowledgement of `rule`,
   * or of a merged rule whose own finding would have had this severity, accepts it. The Pod Security check the privilege
   * fails (`PSS-BASELINE-...`) is among them: it is no longer a finding of its own for the whole pod when host privileges
   * alone fail it.
   *
   * @default - no other rule found this cause
   */
  readonly mergedRules?: string[];

  /**
   * The one host privilege the finding is about, as `WorkloadReview.hostAccess` lists it (for a hostPath, `detail` carries
   * the mode of the rule that judged it: match entries by the path). One privilege of one container, one finding.
   *
   * @default - not about one host privilege (hygiene, RBAC, images, a Pod Security check that judges missing hardening)
   */
  readonly privilege?: HostPrivilege;

  /**
   * Every rule of the finding, for tools: `rule` first, then the merged ones (`mergedRules`), Pod Security checks
   * (`PSS-...`) included. An acknowledgement of `rule`, or of a rule here whose part has the finding's severity, accepts
   * it; one of a rule whose part is less severe does not (`unacceptedAcknowledgements` then names it).
   */
  readonly rules: string[];

  /**
   * For a finding about one host privilege: the Pod Security baseline check that privilege fails (a pod-security-admission
   * check ID such as `hostPathVolumes` or `capabilities_baseline`), whether or not the `pss-baseline` pack ran.
   *
   * @default - not about one host privilege, or one that fails no baseline check (running as root)
   */
  readonly podSecurity?: string[];

  /** whether an acknowledgement with a reason accepts this finding. */
  readonly acknowledged: boolean;

  /**
   * For an open finding: the merged rules that an acknowledgement names, but whose part is less severe than the finding
   * (`rules` lists them), so the acknowledgement does not accept it: it would hide the more severe part. Acknowledge
   * `rule` (or a merged rule at the finding's severity) to accept it.
   *
   * @default - no such acknowledgement
   */
  readonly unacceptedAcknowledgements?: string[];

  /**
   * Why the finding was accepted: the reasons of every matching acknowledgement, joined by `; `.
   *
   * @default - not acknowledged
   */
  readonly acknowledgedReason?: string;
}
