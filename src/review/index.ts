// re-exports only
export * from './severity';
export * from './finding';
export * from './acknowledgement';
export * from './review-rule';
export * from './review-pack';
export * from './security-review';
export * from './rules-catalogue';
export * from './rules';
