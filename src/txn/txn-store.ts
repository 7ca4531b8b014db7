import type { Store } from '../kv/kv.js';
import { isSqlError } from '../errors/index.js';
import type { Txn, TxnStore } from './types.js';
import { KvTxn } from './txn.js';

const DEFAULT_RETRIES = 10;

/** Transactions (snapshot isolation, first committer wins) over any kv Store. */
export function createTxnStore(kv: Store): TxnStore {
  return new KvTxnStore(kv);
}

class KvTxnStore implements TxnStore {
  constructor(readonly kv: Store) {}

  async begin(prefetch?: readonly Uint8Array[]): Promise<Txn> {
    const kv = this.kv;
    const withKeys = prefetch !== undefined && prefetch.length > 0 ? kv.snapshotWith?.(prefetch) : undefined;
    return new KvTxn(kv, await (withKeys ?? kv.snapshot()));
  }

  beginNow(): Txn | undefined {
    const snap = this.kv.snapshotNow?.();
    return snap === undefined ? undefined : new KvTxn(this.kv, snap);
  }

  /** Runs `fn` and commits; on 1213 retries from scratch after a random, growing 1–10 ms wait. */
  async update<T>(fn: (txn: Txn) => Promise<T>, retries: number = DEFAULT_RETRIES): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const txn = await this.begin();
      try {
        const result = await fn(txn);
        if (!txn.finished) await txn.commit();
        return result;
      } catch (err) {
        txn.rollback();
        if (attempt >= retries || !isWriteConflict(err)) throw err;
      }
      await sleep(backoffMs(attempt));
    }
  }

  async view<T>(fn: (txn: Txn) => Promise<T>): Promise<T> {
    const txn = await this.begin();
    try {
      return await fn(txn);
    } finally {
      txn.rollback();
    }
  }
}

/** A transaction's write conflict (1213): first committer wins, and a retry from scratch may pass. */
export function isWriteConflict(err: unknown): boolean {
  return isSqlError(err) && err.errno === 1213;
}

/** Random wait in [1, cap] ms where cap grows 2, 4, 8, 10, 10, ... with the attempt. */
function backoffMs(attempt: number): number {
  const cap = Math.min(10, 2 << Math.min(attempt, 4));
  return 1 + Math.random() * (cap - 1);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
