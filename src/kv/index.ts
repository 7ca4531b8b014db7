export * from './kv.js';
export { openStore, recoverStore, type OpenStoreOptions } from './open.js';
