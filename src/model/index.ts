// re-exports only
export {};
export * from './daemon-set-coverage';
export * from './rollout-plan';
export * from './daemon-set-status';
export * from './daemon-set-status-report';
export * from './host-access-type';
export * from './host-access-item';
export * from './host-access-reasons';
export * from './pod-security';
export * from './host-access';
export * from './risk-level';
export * from './host-risk';
export * from './pod-spec-validation';
