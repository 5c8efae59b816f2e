import { PodSecurityLevel } from '../model';
import { IReviewRule } from './review-rule';
import {
  AutomountTokenRule, CapabilitiesRule, CapabilityInertRule, DedicatedNamespaceRule, DedicatedServiceAccountRule, EnvSecretRule,
  HostAccessReasonRule, HostPathSensitiveRule, HostPathTypeRule, HostPathUnusedRule, HostPathWritableRule,
  ImagePinnedRule, ImageRegistryRule, PodSecurityCheckRule, PriorityClassRule, PrivilegedContainerRule,
  PrivilegeEscalationRule, ProbesRule, RbacAdmissionRule, RbacBroadRule, RbacClusterAdminRule, RbacCsrRule,
  RbacEscalationRule, RbacExecRule, RbacNodeProxyRule, RbacNodesRule, RbacSecretsRule, RbacShippedRoleRule, RbacTokensRule, RbacTrafficRule,
  RbacWorkloadsRule,
  ReadOnlyRootFilesystemRule, ResourcesRule, RootGroupRule, RunAsNonRootRule, RuntimeSocketRule, SeccompProfileRule,
  UpdateStrategyRule,
} from './rules';

// one instance of each built-in rule, shared by the packs: a rule in two packs is evaluated once.
// the RBAC rules, one per right, so that an agent acknowledges only the right it needs; in both node-agent packs.
const RBAC_RULES: IReviewRule[] = [
  new RbacClusterAdminRule(),
  new RbacSecretsRule(),
  new RbacExecRule(),
  new RbacWorkloadsRule(),
  new RbacEscalationRule(),
  new RbacNodeProxyRule(),
  new RbacNodesRule(),
  new RbacTokensRule(),
  new RbacTrafficRule(),
  new RbacAdmissionRule(),
  new RbacCsrRule(),
  new RbacBroadRule(),
  new RbacShippedRoleRule(),
];
const PSS_RULES = PodSecurityCheckRule.allChecks().map((c) => new PodSecurityCheckRule(c));
const PSS_BASELINE = PSS_RULES.filter((r) => r.level === PodSecurityLevel.BASELINE);
const PSS_RESTRICTED = PSS_RULES.filter((r) => r.level === PodSecurityLevel.RESTRICTED);

const NODE_AGENT_BASELINE: IReviewRule[] = [
  new HostPathWritableRule(),
  new HostPathUnusedRule(),
  new PrivilegedContainerRule(),
  new DedicatedNamespaceRule(),
  new DedicatedServiceAccountRule(),
  ...RBAC_RULES,
  new ImagePinnedRule(),
  new ImageRegistryRule(),
  new ReadOnlyRootFilesystemRule(),
  new RunAsNonRootRule(),
];

const NODE_AGENT_PRACTICES: IReviewRule[] = [
  new ResourcesRule(),
  new ProbesRule(),
  new PriorityClassRule(),
  new SeccompProfileRule(),
  new HostPathSensitiveRule(),
  new RuntimeSocketRule(),
  new HostPathTypeRule(),
  ...RBAC_RULES,
  new HostAccessReasonRule(),
  new AutomountTokenRule(),
  new PrivilegeEscalationRule(),
  new CapabilitiesRule(),
  new CapabilityInertRule(),
  new RootGroupRule(),
  new EnvSecretRule(),
  new UpdateStrategyRule(),
];

/**
 * A named set of review rules (cdk-nag's "NagPack"). The engine runs every rule of every pack it is given; a rule that
 * appears in several packs (the same ID) is evaluated once.
 *
 * ```ts
 * // the default packs and the restricted Pod Security profile
 * SecurityReview.review(manifests, { packs: ReviewPack.all() });
 * ```
 */
export class ReviewPack {
  /** the ID of `nodeAgentBaseline()`. */
  public static readonly NODE_AGENT_BASELINE = 'node-agent-baseline';
  /** the ID of `nodeAgentPractices()`. */
  public static readonly NODE_AGENT_PRACTICES = 'node-agent-practices';
  /** the ID of `podSecurityBaseline()`. */
  public static readonly POD_SECURITY_BASELINE = 'pss-baseline';
  /** the ID of `podSecurityRestricted()`. */
  public static readonly POD_SECURITY_RESTRICTED = 'pss-restricted';

  /**
   * The security baseline every node agent should meet: only the host paths it needs, read-only; capabilities instead
   * of privileged containers; a dedicated namespace, ServiceAccount and minimal RBAC; images pinned (no latest) and,
   * when allowed registries are given, from them; readOnlyRootFilesystem and runAsNonRoot.
   */
  public static nodeAgentBaseline(): ReviewPack {
    return new ReviewPack(ReviewPack.NODE_AGENT_BASELINE, NODE_AGENT_BASELINE,
      'The security baseline every node agent should meet: host paths read-only and only those needed; capabilities instead of ' +
      'privileged; a dedicated namespace, ServiceAccount and minimal RBAC; pinned images from allowed registries, never latest; ' +
      'readOnlyRootFilesystem and runAsNonRoot.');
  }

  /**
   * What well-maintained node-agent charts do, and what their users ask for: resources, probes, a priority class for
   * node-critical agents, seccomp, no writable sensitive host paths or runtime sockets, typed host paths, no RBAC right
   * that controls the cluster and no RBAC wildcard, a recorded reason for every host privilege, no unused API token, no
   * privilege escalation, low-risk capabilities that can take effect, no root group, no credential written into the
   * manifest, updates that roll out by themselves.
   */
  public static nodeAgentPractices(): ReviewPack {
    return new ReviewPack(ReviewPack.NODE_AGENT_PRACTICES, NODE_AGENT_PRACTICES,
      'Node-agent practice, from the charts of fluent-bit, Vector, node-exporter, Falco, flannel, Cilium and the EBS CSI driver and ' +
      'their users\' issues: resources and probes; a priority class for node-critical agents; seccomp; no writable sensitive host ' +
      'path and no container runtime socket; typed host paths; no RBAC right that controls the cluster, no RBAC wildcard; a recorded ' +
      'reason for every host privilege; no unused API token; no privilege escalation; only low-risk capabilities, each able to take ' +
      'effect; no root group; no ' +
      'credential written into the manifest; updates that roll out by themselves.');
  }

  /** every Pod Security Standards baseline check, one rule each (`PSS-BASELINE-<check>`). */
  public static podSecurityBaseline(): ReviewPack {
    return new ReviewPack(ReviewPack.POD_SECURITY_BASELINE, PSS_BASELINE,
      'The Pod Security Standards baseline level, check by check as pod-security-admission runs them, at the review\'s policy ' +
      'version. A node agent with host access fails some of these by nature: each finding says what the agent\'s namespace must allow.');
  }

  /**
   * The whole Pod Security Standards restricted profile: every baseline check and every restricted check (`PSS-RESTRICTED-<check>`).
   * The baseline rules are the same as `podSecurityBaseline()`'s, so using both packs reports each failure once.
   */
  public static podSecurityRestricted(): ReviewPack {
    return new ReviewPack(ReviewPack.POD_SECURITY_RESTRICTED, [...PSS_BASELINE, ...PSS_RESTRICTED],
      'The Pod Security Standards restricted profile: every baseline check plus every restricted check, at the review\'s policy ' +
      'version. Not a default: most node agents cannot be restricted, but agents that need no host access should be.');
  }

  /** the packs a review runs by default: `nodeAgentBaseline()`, `nodeAgentPractices()`, `podSecurityBaseline()`. */
  public static defaults(): ReviewPack[] {
    return [ReviewPack.nodeAgentBaseline(), ReviewPack.nodeAgentPractices(), ReviewPack.podSecurityBaseline()];
  }

  /** every built-in pack: the defaults, then `podSecurityRestricted()`. */
  public static all(): ReviewPack[] {
    return [...ReviewPack.defaults(), ReviewPack.podSecurityRestricted()];
  }

  /**
   * A built-in pack by its ID: `node-agent-baseline`, `node-agent-practices`, `pss-baseline` or `pss-restricted`.
   *
   * @param id the pack's ID
   * @throws when no built-in pack has that ID
   */
  public static byId(id: string): ReviewPack {
    const all = ReviewPack.all();
    const found = all.find((p) => p.id === id);
    if (!found) {
      throw new Error(`unknown review pack ${JSON.stringify(id)}: use one of ${all.map((p) => p.id).join(', ')}`);
    }
    return found;
  }

  /**
   * A pack of your own rules (or of built-in rule classes, e.g. `new PodSecurityCheckRule(PodSecurityCheck.RUN_AS_NON_ROOT)`).
   *
   * @param id the pack's ID, e.g. `my-company`
   * @param rules the rules; their IDs must be unique and non-empty
   * @param description what the pack checks, for the rules catalogue
   * @throws when the ID is empty, a rule lacks an ID, two rules share one, or a rule that is not one of this library's
   * has an ID starting with `NA-` or `PSS-`
   */
  public static custom(id: string, rules: IReviewRule[], description?: string): ReviewPack {
    // NA- and PSS- IDs are the library's: a custom rule under one could never be acknowledged, and would shadow a rule.
    const builtIn = new Set(ReviewPack.all().flatMap((p) => p.rules.map((r) => r.id)));
    for (const rule of Array.isArray(rules) ? rules : []) {
      if (rule && typeof rule.id === 'string' && /^(NA|PSS)-/i.test(rule.id) && !builtIn.has(rule.id)) {
        throw new Error(`review pack ${id}: rule ID ${JSON.stringify(rule.id)} starts with NA- or PSS-, which this library's rules use: give the rule an ID with a prefix of your own (e.g. "ACME-${rule.id.replace(/^(NA|PSS)-/i, '')}")`);
      }
    }
    return new ReviewPack(id, rules, description ?? `Custom rules (${id}).`);
  }

  /** the pack's ID, e.g. `node-agent-baseline`. */
  public readonly id: string;

  /** the pack's rules, in the order the rules catalogue lists them. */
  public readonly rules: IReviewRule[];

  /** what the pack checks, in a sentence or two. */
  public readonly description: string;

  private constructor(id: string, rules: IReviewRule[], description: string) {
    if (typeof id !== 'string' || id.trim() === '') throw new Error('review pack ID must be a non-empty string, e.g. "my-company"');
    if (!Array.isArray(rules)) throw new Error(`review pack ${id}: rules must be a list of IReviewRule`);
    const seen = new Set<string>();
    for (const [i, rule] of rules.entries()) {
      if (!rule || typeof rule.id !== 'string' || rule.id.trim() === '' || typeof rule.evaluate !== 'function') {
        throw new Error(`review pack ${id}: rules[${i}] must be an IReviewRule with a non-empty id and an evaluate method`);
      }
      if (seen.has(rule.id)) throw new Error(`review pack ${id}: two rules have the ID ${rule.id}: give each rule its own ID`);
      seen.add(rule.id);
    }
    this.id = id.trim();
    this.rules = [...rules];
    this.description = description;
  }
}

