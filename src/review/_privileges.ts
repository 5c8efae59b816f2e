// Internal: host privileges in words, for messages and the report.
import { HostAccessItem, HostAccessType } from '../model';

/** the privilege as people read it: `hostPath /var/log (read-only)`, `capability NET_ADMIN`, `hostNetwork`. */
export function describePrivilege(item: HostAccessItem): string {
  switch (item.type) {
    case HostAccessType.HOST_NETWORK:
    case HostAccessType.HOST_PID:
    case HostAccessType.HOST_IPC:
      return item.type;
    case HostAccessType.PRIVILEGED:
      return 'privileged';
    case HostAccessType.RUN_AS_ROOT:
      return 'runAsRoot (may run as UID 0)';
    default:
      return `${item.type} ${item.detail}`;
  }
}
