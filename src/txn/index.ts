export type { ExistingKeyError, Txn, TxnStore } from './types.js';
export type { MappedPage, PairMapper } from '../kv/kv.js';
export { createTxnStore } from './txn-store.js';
