import { parseImage } from '../_image';
import { containersOf } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/**
 * `NA-IMAGE-PINNED`: every container's image names a version: a tag other than `latest`, or a digest.
 *
 * Part of the node-agent baseline: every node runs the same, reviewed version of the agent.
 */
export class ImagePinnedRule implements IReviewRule {
  public readonly id = 'NA-IMAGE-PINNED';
  public readonly severity = Severity.HIGH;
  public readonly title = 'Images are pinned to a version (no latest, no untagged)';
  public readonly explanation = 'An image without a tag is latest. A DaemonSet pulls its image on every node, at different times: with latest ' +
    'the nodes run different code, a restarted pod silently upgrades, and whoever can push latest to the repository runs code on ' +
    'every node with the agent\'s host privileges.';
  public readonly fix = 'pin a version tag (e.g. :1.2.0), better a digest (@sha256:...), and roll it out by changing the manifest';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const violations: RuleViolation[] = [];
    for (const c of containersOf(workload)) {
      const field = `${c.path}.image`;
      const image = c.container.image;
      if (typeof image !== 'string' || image.trim() === '') {
        violations.push({ message: 'has no image', container: c.name, field });
        continue;
      }
      const ref = parseImage(image);
      if (ref.digest !== undefined) continue;
      if (ref.tag === undefined) {
        violations.push({ message: `uses image ${image} without a tag, which pulls latest`, container: c.name, field });
      } else if (ref.tag === 'latest') {
        violations.push({ message: `uses image ${image}, tagged latest`, container: c.name, field });
      }
    }
    return violations;
  }
}
