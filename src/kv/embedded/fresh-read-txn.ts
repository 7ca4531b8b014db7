/**
 * The read transaction a snapshot starts from. lmdb-js keeps one read transaction current for at
 * least a millisecond (until a timer, or a commit of its own process, resets it), so a snapshot
 * taken right after another worker acknowledged a commit could miss that commit. `use()` resets
 * lmdb-js's read transaction first, but only when some process committed since the last reset:
 * LMDB's shared "last committed transaction" id (lock.mdb's mti_txnid, read through the function
 * scripts/lmdb-addon-functions.mjs adds to lmdb-js, ~30 ns) is the id a read transaction beginning
 * now starts from, so an id read before a reset is at most the id of the snapshot the reset
 * leads to, and while it has not moved that snapshot holds every commit acknowledged so far.
 * A reset costs 1-3 µs (a timer, and a new LMDB transaction while statements hold the old one).
 * Without the add-on function (lmdb-js's prebuilt binaries) every call resets.
 */
import type { Database, Transaction } from 'lmdb';
import type { AddonFunctions } from './lmdb-build.js';

export class FreshReadTxn {
  /** The committed id read just before the last reset (0: unknown, reset next time). */
  private resetAt = 0;

  constructor(
    private readonly db: Database<Buffer, Uint8Array>,
    private readonly addon: AddonFunctions | undefined,
  ) {}

  /** LMDB's last committed transaction id now (0 without the add-on function: unknown). */
  lastCommitted(): number {
    return this.addon?.lastTxnId() ?? 0;
  }

  /** The id use() last read (0: unknown): the transaction it returned holds every commit up to it. */
  get usedAt(): number {
    return this.resetAt;
  }

  /** lmdb-js's current read transaction, reset first unless nothing was committed since the last reset. */
  use(): Transaction {
    const id = this.lastCommitted();
    if (id === 0 || id !== this.resetAt) {
      this.db.resetReadTxn();
      this.resetAt = id;
    }
    return this.db.useReadTransaction();
  }
}
