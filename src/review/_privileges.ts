// Internal: host privileges in words, for messages and the report, as their descriptors say them.
import { HostAccessType } from '../model';
import { descriptorOf } from '../model/_host-privileges';

/** the privilege as people read it: `hostPath /var/log (read-only)`, `capability NET_ADMIN`, `hostNetwork`. */
export function describePrivilege(item: { type: HostAccessType | string; detail: string }): string {
  return descriptorOf(item.type).describe({ type: item.type as HostAccessType, detail: item.detail });
}

/** the privilege as the report lists it: `hostPath /var/log (read-only)`, `hostNetwork`, `privileged`. */
export function labelPrivilege(item: { type: HostAccessType | string; detail: string }): string {
  return descriptorOf(item.type).label({ ...item, type: item.type as HostAccessType });
}
