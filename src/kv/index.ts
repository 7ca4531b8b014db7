export * from './kv.js';
export * from './key-run.js';
export { assertSharedOpenSafe, openStore, recoverStore, type OpenStoreOptions } from './open.js';
