export { EmbeddedStore, type EmbeddedStoreOptions } from './embedded-store.js';
