export * from './kv.js';
export { openStore, type OpenStoreOptions } from './open.js';
