export * from './model';
export * from './review';
export * from './agent';
export * from './presets';
export * from './plugin';
