export { EmbeddedStore, type EmbeddedStoreOptions } from './embedded-store.js';
export { openError } from './storage-errors.js';
export { lmdbHasOpenFix } from './lmdb-build.js';
