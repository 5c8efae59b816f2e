import { isValidImageReference, parseImage } from '../_image';
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
 * a tag that names only a major version and a variant (`v1-debian-elasticsearch`, `20-alpine`): the variant images of a
 * release line, which projects move to each release of it (fluentd-kubernetes-daemonset's `v1-debian-elasticsearch`, the
 * official images' `20-alpine`). A bare `v1` is not reported: some projects number their releases with one integer. Up
 * to three digits, so that a date build tag is not taken for one.
 */
const MAJOR_ONLY = /^v?\d{1,3}[-_][A-Za-z][A-Za-z0-9_-]*$/;

/**
 * `NA-IMAGE-PINNED`: every container's image names a version: a release tag (not `latest`, a branch or channel name
 * such as `main`, `master`, `nightly`, `canary`, `edge`, `snapshot`, or those with a suffix such as `latest-debian`),
 * or a digest. A tag that names only a major version and a variant (`v1-debian-elasticsearch`) rolls and is reported; a version line
 * such as `1.5` is not: many projects move it with each patch release, others publish two-part releases (`pause:3.9`),
 * and the manifest does not say which. An image that is no valid reference (a placeholder) is reported as such.
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
      if (!isValidImageReference(image)) {
        // a placeholder left for a tool to fill in (kustomize, an operator) is not an image that pulls anything, latest included
        violations.push({
          message: `uses image ${JSON.stringify(image)}, which is not a valid image reference (a placeholder?): the kubelet does not pull it, and ` +
            'the container waits with InvalidImageName',
          container: c.name,
          field,
          fix: 'set a valid image reference, pinned to a release tag or a digest (or fill the placeholder in with the tool it is meant for, ' +
            'and review that output)',
        });
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
      } else if (MAJOR_ONLY.test(ref.tag)) {
        violations.push({
          message: `uses image ${image}: tag ${ref.tag} names only a major version, a rolling tag moved to every release of that line`,
          container: c.name,
          field,
        });
      }
    }
    return violations;
  }
}
