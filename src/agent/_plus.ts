/**
 * Internal: cdk8s-plus-28, loaded when first used. Not exported.
 *
 * The library's props use cdk8s-plus-28's enums and `Cpu` (as types), but reads their values only while
 * building agents. Loading cdk8s-plus-28 eagerly would load its 2.7 MB generated API with every
 * `require('cdk8s-node-agents')`, including for the command line and the model, which never need it.
 */
import type * as plus from 'cdk8s-plus-28';

let loaded: typeof plus | undefined;

/** the cdk8s-plus-28 module. */
export function kplus(): typeof plus {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('cdk8s-plus-28') as typeof plus;
  return loaded;
}
