export type { Txn, TxnStore } from './types.js';
export { createTxnStore } from './txn-store.js';
