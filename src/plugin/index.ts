// re-exports only
export * from './validation-plugin';
