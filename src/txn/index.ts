export type { ExistingKeyError, Txn, TxnStore } from './types.js';
export type { MappedPage, PairMapper } from '../kv/kv.js';
export { createTxnStore, isWriteConflict } from './txn-store.js';
