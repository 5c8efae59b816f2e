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

  /**
   * Registries images must come from, as `NodeAgentProps.allowedRegistries` reads them (a registry host, or a host and
   * path prefix; an image without a registry is from docker.io). Rendered as a ConfigMap the binding names as the
   * policy's parameter, so that the list changes without changing the policy.
   *
   * @default - images are not checked
   */
  readonly allowedRegistries?: AllowedRegistries;
}

/**
 * The allowed registries of a `HostAccessPolicy`, in the ConfigMap that is its parameter.
 */
export interface AllowedRegistries {
  /** the registry hosts or host and path prefixes, e.g. `['registry.example.com', 'docker.io/falcosecurity']`. */
  readonly registries: string[];

  /** the namespace of the ConfigMap. */
  readonly namespace: string;

  /**
   * The name of the ConfigMap.
   *
   * @default - the policy's name
   */
  readonly configMapName?: string;
}

/**
 * A ValidatingAdmissionPolicy and its binding that hold every workload in the cluster to what NodeAgent holds its own
 * DaemonSet to at synth: every host privilege (hostPath, host namespaces, hostPort, privileged, hostProcess, added
 * capabilities, running as root) has a written reason.
 *
 * The policy's CEL is generated from the library's host privilege descriptors, the ones its review and synth check
 * read. It reads the reasons from one `host-access.node-agents.cdk8s.io/<name>: "<privilege> | <reason>"` annotation
 * per privilege on the workload's metadata, which NodeAgent writes beside its `node-agents.cdk8s.io/host-access`
 * list (CEL cannot decode that JSON exactly). With `allowedRegistries`, every image must also come from an allowed
registry. What the policy leaves to the review (acknowledgements of critical
 * findings, hostPorts on the host network, ephemeral containers, the rest of the review's rules) is listed in the README.
 */
export class HostAccessPolicy extends Construct {
  /** the ValidatingAdmissionPolicy. */
  public readonly policy: ApiObject;
  /** the ValidatingAdmissionPolicyBinding. */
  public readonly binding: ApiObject;
  /** the ConfigMap with the allowed registries, the policy's parameter, when `allowedRegistries` is set. */
  public readonly parameter?: ApiObject;

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
      registries: props.allowedRegistries === undefined ? undefined : {
        name: props.allowedRegistries.configMapName ?? props.name ?? 'node-agents-host-access',
        namespace: props.allowedRegistries.namespace,
        allowed: props.allowedRegistries.registries,
      },
    };
    const errors = admissionPolicyErrors(spec);
    if (errors.length > 0) fail(this, errors.join('; '));
    const manifests = admissionPolicyManifests(spec);
    const parameter = manifests.find((m) => m.kind === 'ConfigMap');
    // the parameter first: until it exists, the binding refuses every workload
    this.parameter = parameter === undefined ? undefined : new ApiObject(this, 'Parameter', parameter);
    this.policy = new ApiObject(this, 'Policy', manifests.find((m) => m.kind === 'ValidatingAdmissionPolicy'));
    this.binding = new ApiObject(this, 'Binding', manifests.find((m) => m.kind === 'ValidatingAdmissionPolicyBinding'));
  }
}
