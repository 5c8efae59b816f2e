export * from './log-collector';
export * from './node-monitor';
export * from './cni-flavor-options';
export * from './cni-flavor';
export * from './cni-plugin';
export * from './csi-driver-options';
export * from './csi-node-plugin';
export * from './security-agent';
