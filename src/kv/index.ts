export * from './kv.js';
export { openStore } from './open.js';
