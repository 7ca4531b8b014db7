export type { ExistingKeyError, Txn, TxnStore } from './types.js';
export type { MappedPage, PairMapper } from '../kv/kv.js';
export type { KeyRun } from '../kv/key-run.js';
export { createTxnStore, isWriteConflict } from './txn-store.js';
