/**
 * Transactions over any `kv` Store: snapshot isolation, buffered writes with read-your-writes,
 * first committer wins. Implementations live beside this file; other layers use only these types.
 */
import type { KeyRange, KvPair, MappedPage, PairMapper, ScanOptions, Store } from '../kv/kv.js';
import type { KeyRun } from '../kv/key-run.js';

/** The error for a putAbsent key that held a value at commit, or undefined when the key is another's. */
export type ExistingKeyError = (key: Uint8Array) => Error | undefined;

export interface Txn {
  /**
   * The timestamp reads see: every commit with commitTs <= startTs. The txn's own snapshot's,
   * or during a current read (beginCurrentRead) the later state that statement reads.
   */
  readonly startTs: bigint;
  /** Number of buffered mutations (puts + deletes). */
  readonly writeCount: number;
  /** Bytes of the buffered mutations' keys and values. */
  readonly writeBytes: number;
  /** True once commit() or rollback() was called. */
  readonly finished: boolean;

  /** Buffered value if this txn wrote `key` (undefined if it deleted it), else the snapshot's. */
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  /**
   * get() without a promise when the answer needs no I/O (a buffered write, or a snapshot with
   * Snapshot.getNow): the value, undefined when absent; null when only get() can answer.
   */
  getNow(key: Uint8Array): Uint8Array | undefined | null;
  /** Like get() for many keys, in one snapshot round trip. */
  batchGet(keys: readonly Uint8Array[]): Promise<Array<Uint8Array | undefined>>;
  /**
   * Up to `limit` live pairs in [start, end) merging the snapshot with this txn's buffer
   * (buffered puts appear, buffered deletes hide snapshot keys), ascending unless `reverse`.
   * To page on, call again with the range narrowed past the last key returned.
   */
  scan(range: KeyRange, opts: ScanOptions): Promise<KvPair[]>;
  /**
   * scan() handing each pair to `map` instead of returning it; the pairs may be views valid only
   * during the call (`map` copies or decodes what it keeps). Returns the mapped items and a copy
   * of the last key, to page on past it.
   */
  scanMapped<T>(range: KeyRange, opts: ScanOptions, map: PairMapper<T>): Promise<MappedPage<T>>;

  /**
   * Buffers a put / a delete. `derived`: the key is only ever written together with a key of the
   * same transaction that covers it (a non-unique index entry with its row's record key), so the
   * commit need not check it for conflicts (kv.ts Mutation). A key also written without it, or
   * locked, is checked.
   */
  put(key: Uint8Array, value: Uint8Array, derived?: boolean): void;
  /**
   * put() of a key this transaction has not written, distinct from every other putNew key (the
   * caller's promise: an index backfill's entries). Cheaper per key for large batches; the
   * transaction throws if a later access finds the promise broken.
   */
  putNew(key: Uint8Array, value: Uint8Array): void;
  /**
   * put() of a key that must hold no live value when the transaction commits (kv.ts Mutation
   * `absent`: a row under a generated AUTO_INCREMENT id). False, writing nothing, when this
   * transaction holds a live value for it. A stored value found at commit fails the commit with
   * the error an onExistingKey describer gives for the key. The key must differ from every other
   * putNew and putAbsent key (generated ids are never handed out twice): cheaper per key for
   * bulk INSERTs, and the transaction throws if a later access finds the promise broken.
   */
  putAbsent(key: Uint8Array, value: Uint8Array): boolean;
  /** Registers (once per function) how to report a putAbsent key found at commit (undefined: not mine). */
  onExistingKey(describe: ExistingKeyError): void;
  delete(key: Uint8Array, derived?: boolean): void;
  /**
   * Adds keys whose snapshot value this txn depends on (SELECT ... FOR UPDATE, the definition
   * of a table it writes). Commit fails with 1213 if any of them changed after startTs.
   */
  lockKeys(keys: readonly Uint8Array[]): void;

  /**
   * From now on a put/delete that takes the buffer beyond `maxBytes` throws ER_TXN_TOO_LARGE
   * (naming `setting`); the write stays buffered, so the caller rolls the statement back.
   */
  limitWrites(maxBytes: number, setting: string): void;

  /**
   * Starts a current read for one statement of an open transaction: InnoDB's UPDATE, DELETE,
   * INSERT and locking SELECT read the latest committed rows, not the transaction's snapshot.
   * Until endCurrentRead(), reads see the latest committed state (merged with this txn's writes)
   * and keys written or locked meanwhile conflict at commit only with commits after that state,
   * so a row another transaction committed before the statement is updated, not a 1213 at
   * COMMIT. A promise only when the store needs I/O for a snapshot.
   */
  beginCurrentRead(): Promise<void> | undefined;
  /** Back to the txn's snapshot (the statement ended). Idempotent. */
  endCurrentRead(): void;

  /** Marks the current buffer state (statement start). */
  checkpoint(): number;
  /** Undoes every put/delete/lockKeys made after checkpoint `cp` (a failed statement). */
  rollbackTo(cp: number): void;

  /**
   * Commits durably. Read-only txns just release their snapshot. Rejects with SqlError
   * ER_LOCK_DEADLOCK (1213/40001) on a write conflict; the txn is finished either way.
   */
  commit(): Promise<void>;
  /** Discards the buffer and releases the snapshot. Idempotent. */
  rollback(): void;
  /**
   * Commits the puts of `run` (kv key-run.ts) on their own, over this transaction's snapshot:
   * conflict-checked from its startTs, without its buffered writes, with no write buffer or
   * object per key; this transaction stays open and unchanged. Several such commits share one
   * read (an index backfill's sorted batches: catalog/sorted-backfill.ts).
   */
  commitRun(run: KeyRun): Promise<void>;
}

export interface TxnStore {
  readonly kv: Store;
  /**
   * Starts a transaction at the latest committed state. `prefetch`: keys it will likely read
   * first, read along with the snapshot where the store can (Store.snapshotWith).
   */
  begin(prefetch?: readonly Uint8Array[]): Promise<Txn>;
  /** begin() without a promise when the kv store can snapshot synchronously (Store.snapshotNow), else undefined. */
  beginNow?(): Txn | undefined;
  /**
   * Managed read-write transaction: runs `fn`, commits, retries from scratch on 1213 up to
   * `retries` times (default 10, with a small random backoff). Rolls back on any other throw.
   */
  update<T>(fn: (txn: Txn) => Promise<T>, retries?: number): Promise<T>;
  /** Managed read-only transaction (no commit needed; always released). */
  view<T>(fn: (txn: Txn) => Promise<T>): Promise<T>;
}
