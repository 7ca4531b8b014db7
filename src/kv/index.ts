export * from './kv.js';
export { assertSharedOpenSafe, openStore, recoverStore, type OpenStoreOptions } from './open.js';
