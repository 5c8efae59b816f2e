import { isFrom, mirroredImage, parseImage } from '../_image';
import { containersOf } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-IMAGE-REGISTRY`: when the review is given `allowedRegistries`, every image comes from one of them.
 *
 * Part of the node-agent baseline: an image that runs with host privileges on every node comes from a known source.
 * Without `allowedRegistries` the rule does not apply.
 */
export class ImageRegistryRule implements IReviewRule {
  public readonly id = 'NA-IMAGE-REGISTRY';
  public readonly severity = Severity.HIGH;
  public readonly title = 'Images come from an allowed registry';
  public readonly explanation = 'A node agent\'s image runs with host privileges on every node: its registry is part of the node\'s trusted ' +
    'computing base. Allowing only known registries (a mirror you control, the vendor\'s) keeps a typo or a look-alike repository from ' +
    'running there. An allowed entry is a registry host (registry.example.com) or a host and path prefix (docker.io/falcosecurity); ' +
    'an image without a registry is from docker.io. An image from a registry mirror given to the review (registryMirrors; ' +
    'RegistryMirror declares it for an app), named <mirror>/<registry>/<path>, is judged by the registry it mirrors. The rule applies ' +
    'only when the review is given allowed registries.';
  public readonly fix = 'pull the image from an allowed registry (mirror it there), or add its registry to the allowed list';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const allowed = workload.options.allowedRegistries;
    if (allowed === undefined) return [];
    const violations: RuleViolation[] = [];
    const mirrors = workload.options.registryMirrors ?? [];
    const list = allowed.length === 0 ? 'none is allowed' : allowed.join(', ');
    for (const c of containersOf(workload)) {
      const image = c.container.image;
      if (typeof image !== 'string' || image.trim() === '') continue; // NA-IMAGE-PINNED reports it
      const ref = parseImage(image);
      if (allowed.some((entry) => isFrom(ref, entry))) continue;
      // an image from the mirror the workload declares is judged by the registry it mirrors
      const upstream = mirroredImage(ref, mirrors);
      if (upstream !== undefined && allowed.some((entry) => isFrom(upstream, entry))) continue;
      violations.push({
        message: upstream !== undefined
          ? `uses image ${image}, the mirror's copy of ${upstream.fullName}, and neither the mirror nor ${upstream.registry} is an allowed registry (${list})`
          : `uses image ${image} from ${ref.registry}, which is not an allowed registry (${list})`,
        container: c.name,
        field: `${c.path}.image`,
      });
    }
    return violations;
  }
}
