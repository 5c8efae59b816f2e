import { Acknowledgement } from './acknowledgement';
import { ReviewPack } from './review-pack';
import { ReviewSettings } from './review-settings';

/**
 * Options for a security review: the settings rules read, plus the packs to run and the acknowledgements to apply.
 */
export interface ReviewOptions extends ReviewSettings {
  /**
   * The rule packs to run. A rule in several packs (the same ID) runs once.
   *
   * @default ReviewPack.defaults(): node-agent baseline, node-agent practices and Pod Security baseline
   */
  readonly packs?: ReviewPack[];

  /**
   * Acknowledgements from outside the manifests (e.g. from the construct tree), added to those in each workload's
   * `node-agents.cdk8s.io/acknowledged` annotation.
   *
   * @default - only those in the manifests' annotations
   */
  readonly acknowledgements?: AcknowledgedWorkload[];
}

/**
 * The acknowledgements that apply to one workload, identified by kind, namespace and name.
 */
export interface AcknowledgedWorkload {
  /** the workload's kind, e.g. `DaemonSet`. */
  readonly kind: string;

  /**
   * The workload's namespace, as its manifest sets it.
   *
   * @default - a workload whose manifest sets no namespace
   */
  readonly namespace?: string;

  /** the workload's name. */
  readonly name: string;

  /** the findings accepted for it, each with its reason. */
  readonly acknowledgements: Acknowledgement[];
}
