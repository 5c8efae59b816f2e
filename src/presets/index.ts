// re-exports only
export {};
