// Internal: what the CNI flavors share: the CNI directories, the installers' mounts, the node-level RBAC, the
// flavors' default images, and the shape a flavor builder returns.
import { AccessRule, HostMount } from '../agent';
import { CniFlavorOptions } from './cni-flavor-options';
import { kplus } from '../agent/_plus';
import { PresetAcknowledgement } from '../agent/_preset';

export const CNI_BIN_DIR = '/opt/cni/bin';
export const CNI_CONF_DIR = '/etc/cni/net.d';
const IPV4_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

export const FLANNEL_IMAGE = 'ghcr.io/flannel-io/flannel:v0.28.9';
export const FLANNEL_CNI_PLUGIN_IMAGE = 'ghcr.io/flannel-io/flannel-cni-plugin:v1.9.1-flannel3';
export const CALICO_NODE_IMAGE = 'quay.io/calico/node:v3.31.3';
export const CALICO_CNI_IMAGE = 'quay.io/calico/cni:v3.31.3';
export const CILIUM_IMAGE = 'quay.io/cilium/cilium:v1.18.3@sha256:5649db451c88d928ea585514746d50d91e6210801b300c897283ea319d68de15';

/**
 * What every CNI node agent needs from the API server: its Node (pod CIDR, addresses), the right to
 * report the node's network status, and its own pod.
 */
export const NODE_LEVEL_RBAC: AccessRule[] = [
  { resources: ['pods'], verbs: ['get'] },
  { resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
  { resources: ['nodes/status'], verbs: ['patch'] },
];

/** what a flavor builder returns: the flavor's settings and the review findings its own defaults cause, accepted. */
export interface FlavorSpec {
  readonly options: CniFlavorOptions;
  readonly acknowledgements: PresetAcknowledgement[];
}

export function cniBinMount(mountPath: string): HostMount {
  return HostMount.readWrite(CNI_BIN_DIR, 'installs the CNI plugin binaries that the container runtime runs for every new pod', {
    type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
    mountPath,
  });
}

export function cniConfMount(mountPath: string): HostMount {
  return HostMount.readWrite(CNI_CONF_DIR, 'installs the CNI network configuration that the container runtime reads for every new pod', {
    type: kplus().HostPathVolumeType.DIRECTORY_OR_CREATE,
    mountPath,
  });
}

export function checkCidr(field: string, cidr: string): void {
  const m = IPV4_CIDR.exec(cidr ?? '');
  if (!m || m.slice(1, 5).some((o) => Number(o) > 255) || Number(m[5]) > 32) {
    throw new Error(`${field} "${cidr}" is not an IPv4 CIDR: use e.g. "10.244.0.0/16"`);
  }
}
