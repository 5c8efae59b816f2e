import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { fail } from './_validate';
import { PolicyAction, PolicyFailurePolicy, PolicyWorkload } from './host-access-policy-options';
import { admissionPolicyManifests, admissionPolicyErrors } from '../model/_admission-policy';

/**
 * Props of `HostAccessPolicy`.
 */
export interface HostAccessPolicyProps {
  /**
   * The name of the ValidatingAdmissionPolicy and of its binding.
   *
   * @default 'node-agents-host-access'
   */
  readonly name?: string;

  /**
   * The workloads the policy checks.
   *
   * @default [PolicyWorkload.DAEMON_SET]
   */
  readonly workloads?: PolicyWorkload[];

  /**
   * What the API server does with a workload the policy refuses. `Deny` and `Warn` cannot be combined (the API server
   * refuses the binding); `Audit` goes with either.
   *
   * @default [PolicyAction.DENY]
   */
  readonly actions?: PolicyAction[];

  /**
   * What the API server does when the policy cannot be evaluated.
   *
   * @default PolicyFailurePolicy.FAIL
   */
  readonly failurePolicy?: PolicyFailurePolicy;

  /**
   * Only workloads in namespaces with these labels are checked (the binding's `namespaceSelector.matchLabels`).
   *
   * @default - every namespace
   */
  readonly namespaceLabels?: { [key: string]: string };

  /**
   * Only workloads with these labels are checked (the binding's `objectSelector.matchLabels`).
   *
   * @default - every workload
   */
  readonly objectLabels?: { [key: string]: string };

  /**
   * Namespaces whose workloads are not checked, by name (through the `kubernetes.io/metadata.name` label the API server
   * sets on every namespace).
   *
   * @default - none
   */
  readonly exemptNamespaces?: string[];
}

/**
 * A ValidatingAdmissionPolicy and its binding that hold every workload in the cluster to what NodeAgent holds its own
 * DaemonSet to at synth: every host privilege (hostPath, host namespaces, hostPort, privileged, hostProcess, added
 * capabilities, running as root) has a written reason.
 *
 * The policy's CEL is generated from the library's host privilege descriptors, the ones its review and synth check
 * read. It reads the reasons from one `host-access.node-agents.cdk8s.io/<name>: "<privilege> | <reason>"` annotation
 * per privilege on the workload's metadata, which NodeAgent writes beside its `node-agents.cdk8s.io/host-access`
 * list (CEL cannot decode that JSON exactly). What the policy leaves to the review (acknowledgements of critical
 * findings, hostPorts on the host network, ephemeral containers, the rest of the review's rules) is listed in the README.
 */
export class HostAccessPolicy extends Construct {
  /** the ValidatingAdmissionPolicy. */
  public readonly policy: ApiObject;
  /** the ValidatingAdmissionPolicyBinding. */
  public readonly binding: ApiObject;

  constructor(scope: Construct, id: string, props: HostAccessPolicyProps = {}) {
    super(scope, id);
    const spec = {
      name: props.name ?? 'node-agents-host-access',
      workloads: props.workloads ?? [PolicyWorkload.DAEMON_SET],
      validationActions: props.actions ?? [PolicyAction.DENY],
      failurePolicy: props.failurePolicy ?? PolicyFailurePolicy.FAIL,
      namespaceSelector: props.namespaceLabels === undefined ? undefined : { matchLabels: { ...props.namespaceLabels } },
      objectSelector: props.objectLabels === undefined ? undefined : { matchLabels: { ...props.objectLabels } },
      exemptNamespaces: props.exemptNamespaces ?? [],
    };
    const errors = admissionPolicyErrors(spec);
    if (errors.length > 0) fail(this, errors.join('; '));
    const [policy, binding] = admissionPolicyManifests(spec);
    this.policy = new ApiObject(this, 'Policy', policy);
    this.binding = new ApiObject(this, 'Binding', binding);
  }
}
