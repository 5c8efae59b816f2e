import { parseImage } from '../_image';
import { containersOf } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/** tags that name a branch or a channel, not a release: they move whenever the project publishes. */
const FLOATING_TAGS = [
  'latest', 'main', 'master', 'trunk', 'head', 'edge', 'nightly', 'canary', 'snapshot', 'dev', 'devel', 'develop', 'unstable',
  'testing', 'stable', 'rolling', 'current',
];
const FLOATING = new RegExp(`^(${FLOATING_TAGS.join('|')})([-_.].*)?$|[-_.](${FLOATING_TAGS.join('|')})$`, 'i');

/**
 * `NA-IMAGE-PINNED`: every container's image names a version: a release tag (not `latest`, a branch or channel name
 * such as `main`, `master`, `nightly`, `canary`, `edge`, `snapshot`, or those with a suffix such as `latest-debian`),
 * or a digest. A version line such as `1.5` is not reported: many projects move it with each patch release, others
 * publish two-part releases (`pause:3.9`), and the manifest does not say which.
 *
 * Part of the node-agent baseline: every node runs the same, reviewed version of the agent.
 */
export class ImagePinnedRule implements IReviewRule {
  public readonly id = 'NA-IMAGE-PINNED';
  public readonly severity = Severity.HIGH;
  public readonly title = 'Images are pinned to a release (no latest, branch or channel tag, no untagged)';
  public readonly explanation = 'An image without a tag is latest. A DaemonSet pulls its image on every node, at different times: with a ' +
    'tag that moves (latest, a branch such as main or master, a channel such as nightly, canary, edge or stable) the nodes run different ' +
    'code, a restarted pod silently upgrades, and whoever can push that tag to the repository runs code on every node with the agent\'s ' +
    'host privileges.';
  public readonly fix = 'pin a release tag (e.g. :1.2.0), better a digest (@sha256:...), and roll it out by changing the manifest';

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
      } else if (FLOATING.test(ref.tag)) {
        violations.push({ message: `uses image ${image}: tag ${ref.tag} names a branch or channel, which moves with each build`, container: c.name, field });
      }
    }
    return violations;
  }
}
