import { ReviewSettings } from './review-settings';
import { Severity } from './severity';

/**
 * One workload as a rule sees it: the manifest, where its pod spec is, and the other manifests for context.
 */
export interface WorkloadContext {
  /** the workload's manifest as plain JSON, as rendered (escape hatches included). */
  readonly manifest: any;

  /** the workload's kind: DaemonSet, Deployment, StatefulSet, ReplicaSet, Job, CronJob or Pod. */
  readonly kind: string;

  /**
   * The namespace the workload lands in: its own `metadata.namespace`; else the namespace the review was given
   * (`ReviewOptions.namespace`, the CLI's `--namespace`); else the one namespace every other object of its file sets.
   *
   * @default - unknown: the manifest sets none, the review was given none, and the other objects of its file set none
   * or several
   */
  readonly namespace?: string;

  /**
   * How `namespace` was determined: `manifest` (its own `metadata.namespace`), `option` (`ReviewOptions.namespace`,
   * `--namespace`) or `file` (the namespace every other object of its file sets). A message that depends on a namespace
   * the manifest does not set should say which.
   *
   * @default - the namespace is unknown
   */
  readonly namespaceSource?: string;

  /** the workload's name (empty when the manifest has none). */
  readonly name: string;

  /** the workload's pod spec (`spec.template.spec`; `spec.jobTemplate.spec.template.spec` for a CronJob; `spec` for a Pod). */
  readonly podSpec: any;

  /** where `podSpec` is in the manifest, as a JSON path: `spec.template.spec`, `spec.jobTemplate.spec.template.spec` or `spec`. */
  readonly podSpecPath: string;

  /** every manifest under review, for rules that need context: RBAC, ServiceAccounts, Namespaces. */
  readonly allManifests: any[];

  /**
   * The review's settings that rules read (`podSecurityVersion` resolved, `allowedRegistries`). At run time it is the
   * review's whole `ReviewOptions` object; a rule should read only these settings.
   */
  readonly options: ReviewSettings;
}

/**
 * One host privilege a workload takes, identified the way `HostAccess` lists it and the
 * `node-agents.cdk8s.io/host-access` annotation records its reason.
 */
export interface HostPrivilege {
  /** the kind of privilege: a `HostAccessType` value, e.g. `capability`. */
  readonly type: string;

  /** which privilege, in `HostAccessItem.detail` format: `/var/log (read-only)`, `NET_ADMIN`, `9100/TCP`, a container name, or empty. */
  readonly detail: string;

  /**
   * The container that holds it.
   *
   * @default - a pod-level privilege (host namespaces, hostPath volumes)
   */
  readonly container?: string;
}

/**
 * One thing a rule found wrong with a workload. The engine adds the rule ID, the workload's identity, and turns it
 * into a `Finding`.
 */
export interface RuleViolation {
  /**
   * What is wrong, without the workload's and the container's names (the engine prefixes them), naming the field in
   * words, e.g. `mounts host path /var/log read-write at /var/log`.
   */
  readonly message: string;

  /**
   * The container concerned.
   *
   * @default - a violation of the pod or the workload as a whole
   */
  readonly container?: string;

  /**
   * The JSON path of the field concerned, in the manifest, e.g. `spec.template.spec.containers[0].securityContext.privileged`.
   *
   * @default - no single field
   */
  readonly field?: string;

  /**
   * This violation's severity, for rules that rate each violation (by the risk of a host path or a capability).
   *
   * @default - the rule's severity
   */
  readonly severity?: Severity;

  /**
   * A fix specific to this violation (e.g. the risk catalogue's safer alternative for this path).
   *
   * @default - the rule's fix
   */
  readonly fix?: string;

  /**
   * The host privileges this violation exists because of: taking them is the whole problem (a PSS baseline check that
   * forbids host paths, an added capability, a writable mount). When every one has a reason recorded in the workload's
   * `node-agents.cdk8s.io/host-access` annotation and the finding is not critical, the engine reports it acknowledged,
   * with those reasons: the privilege was explained. Critical findings (root on the node) stay open until acknowledged
   * explicitly.
   *
   * @default - the violation is not about a privilege being taken; a recorded reason does not accept it
   */
  readonly privileges?: HostPrivilege[];

  /**
   * The one host privilege this violation is about, identified as `HostAccess` lists it (for a hostPath, the mode in
   * `detail` does not matter: a path is one cause). The engine merges the violations of different rules about the same
   * privilege of the same container into one finding: one privilege, one finding, at the highest severity, with the
   * message and fix of the most specific rule, the other rules in `Finding.mergedRules` and all in `Finding.rules`. A
   * violation about the privilege for the whole pod (no `container`) joins the findings of each container that has it.
   *
   * @default - not about one host privilege: never merged
   */
  readonly cause?: HostPrivilege;
}

/**
 * A review rule: a pure predicate over one workload, cdk-nag style. It knows its ID, severity and wording; it does not
 * know about packs, acknowledgements or reports.
 *
 * A rule returns violations and should not throw; if it does, the engine reports the error as a finding of the rule,
 * so an unreadable manifest never passes silently.
 */
export interface IReviewRule {
  /** the stable rule ID, e.g. `NA-HOSTPATH-WRITABLE`. Findings, acknowledgements and RULES.md use it. */
  readonly id: string;

  /** the severity of its findings; for rules that rate by risk, the highest they give (each finding says its own). */
  readonly severity: Severity;

  /**
   * Whether each finding takes the risk of what it is about (a host path, a capability, an RBAC right in its scope) as
   * its severity, `severity` being the highest.
   *
   * @default false
   */
  readonly ratesByRisk?: boolean;

  /** the compliant condition, in a few words, e.g. `Host paths are mounted read-only`. */
  readonly title: string;

  /** why the rule matters, in a few sentences. */
  readonly explanation: string;

  /** how to fix a violation. */
  readonly fix: string;

  /**
   * Checks one workload.
   *
   * @param workload the workload and its context
   * @returns one violation per problem found; empty when the workload complies or the rule does not apply
   */
  evaluate(workload: WorkloadContext): RuleViolation[];
}
