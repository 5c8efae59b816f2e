import { HostAccessType } from '../../model';
import { hostPathDetail } from '../../model/_host-privileges';
import { hostPathVolumes } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

function isNamedPipe(path: string): boolean {
  return /^(\\\\\.\\pipe\\|\/\/\.\/pipe\/)/i.test(path);
}

/**
 * `NA-HOSTPATH-TYPE`: every hostPath volume sets a `type` (Directory, File, Socket, DirectoryOrCreate, FileOrCreate...);
 * a Windows named pipe is not asked for one. Its violation is about the volume's host path (`cause`): it joins the finding
 * of each mount, which then says the volume sets no type and how to set one.
 */
export class HostPathTypeRule implements IReviewRule {
  public readonly id = 'NA-HOSTPATH-TYPE';
  public readonly severity = Severity.LOW;
  public readonly title = 'Host paths declare a type';
  public readonly explanation = 'Without a type the kubelet checks nothing before mounting: a path that is missing on some nodes becomes an ' +
    'empty directory the agent silently reads nothing from, and a path that is a symlink, a socket or a device where a directory was ' +
    'expected is mounted all the same. A type (Directory, File, Socket) states what the agent expects and makes the pod fail visibly otherwise.';
  public readonly fix = 'set hostPath.type: Directory for a directory that must exist, File for a single file, Socket for a socket, ' +
    'DirectoryOrCreate for the agent\'s own state directory';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    return hostPathVolumes(workload)
      // a Windows named pipe is an endpoint, not a file or directory: none of the types describes it, and upstream Windows
      // manifests (csi-proxy's clients) leave it unset
      .filter((v) => (v.type === undefined || v.type === '') && !isNamedPipe(v.path))
      .map((v) => ({
        message: `hostPath volume ${JSON.stringify(v.name)} (${v.path}) sets no type: nothing is checked before it is mounted`,
        field: `${v.field}.hostPath.type`,
        cause: { type: HostAccessType.HOST_PATH, detail: hostPathDetail(v.path, v.mounts.length > 0 && v.mounts.every((m) => m.readOnly)) },
      }));
  }
}
