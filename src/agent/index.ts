export * from './access-rule';
export * from './agent-probe';
export * from './container-options';
export * from './host-mount';
export * from './node-agent';
export * from './node-requirement';
export * from './toleration';
export * from './update-strategy';
