// re-exports only
export * from './severity';
export * from './finding';
export * from './acknowledgement';
export * from './review-rule';
export * from './review-pack';
export * from './review-settings';
export * from './review-options';
export * from './review-report';
export * from './security-review';
export * from './rules-catalogue';
export * from './rules';
