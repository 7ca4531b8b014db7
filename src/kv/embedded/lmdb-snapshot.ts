import type { Database, Transaction } from 'lmdb';
import type { KeyRange, KvPair, MappedPage, PairMapper, ScanOptions, Snapshot } from '../kv.js';
import { compareBytes } from '../../util/index.js';
import { sharedPage } from './page-builder.js';
import type { RawRangeReader } from './raw-range.js';
import { copyPayload, HEADER_BYTES, isLive } from './value-format.js';

/** Largest key lmdb-js accepts with the default page size; longer keys can never exist. */
export const MAX_KEY_BYTES = 1978;

/**
 * One pinned LMDB read transaction, shared by every snapshot opened while it was lmdb's current
 * read txn (i.e. between two commits). Each open member holds one txn.use() reference.
 */
export interface PinGroup {
  readonly txn: Transaction;
  readonly startTs: bigint;
  /** Members not yet released; the group is unpinned (and forgotten) when it reaches 0. */
  open: number;
  /** Ended by the store (too many pinned txns, or close): all member references were dropped. */
  evicted: boolean;
  /**
   * The store kept the last member's txn reference when `open` reached 0, until its next
   * setImmediate turn (and past it while nothing was committed: `seenAt`): snapshots taken
   * meanwhile (other connections' statements in the same event-loop turn) join the group instead
   * of pinning the txn and reading the counter again.
   * Holding a reference also keeps lmdb-js from resetting this txn object in place, so the same
   * txn object still means the same snapshot.
   */
  held: boolean;
  /**
   * LMDB's last committed transaction id when the txn was taken (FreshReadTxn.usedAt; 0 when
   * unknown). While that id has not moved, no process committed since, so this group's snapshot
   * is still the latest and a new snapshot may join it (ReadPins keeps the group between turns).
   */
  readonly seenAt: number;
}

/**
 * One snapshot's membership in a PinGroup. `released` is set by release() (or the finalizer for
 * snapshots dropped without release()); the store ends each lease's txn reference exactly once.
 */
export interface ReadLease {
  readonly group: PinGroup;
  released: boolean;
  /** Registered with the leak guard's FinalizationRegistry (see leak-guard.ts). */
  watched: boolean;
}

/** lmdb-js accepts `{ transaction }` on getBinaryFast at runtime; its typings omit it. */
type GetFastWithTxn<K extends Uint8Array | string> = (this: Database<Buffer, K>, key: K, opts: { transaction: Transaction }) => Buffer | undefined;

/** getBinaryFast inside read transaction `opts.transaction` (a view valid until the next read). */
export function getFastIn<K extends Uint8Array | string>(
  db: Database<Buffer, K>,
  key: K,
  opts: { transaction: Transaction },
): Buffer | undefined {
  return (db.getBinaryFast as GetFastWithTxn<K>).call(db, key, opts);
}

/** Callback the store gives each snapshot to end its lease (idempotent). */
export type EndLease = (lease: ReadLease) => void;

/**
 * A Snapshot over one LMDB read transaction. Reads are synchronous LMDB lookups wrapped in
 * resolved promises; every returned buffer is a fresh copy (LMDB hands out views into shared
 * memory). Tombstones are invisible.
 */
export class LmdbSnapshot implements Snapshot {
  readonly startTs: bigint;
  private readonly readOpts: { transaction: Transaction };

  constructor(
    private readonly data: Database<Buffer, Uint8Array>,
    private readonly reader: RawRangeReader,
    private readonly lease: ReadLease,
    private readonly endLease: EndLease,
  ) {
    this.startTs = lease.group.startTs;
    this.readOpts = { transaction: lease.group.txn };
  }

  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    try {
      return Promise.resolve(this.getNow(key));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  batchGet(keys: readonly Uint8Array[]): Promise<Array<Uint8Array | undefined>> {
    try {
      return Promise.resolve(this.batchGetSync(keys));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  scan(range: KeyRange, opts: ScanOptions): Promise<KvPair[]> {
    try {
      return Promise.resolve(this.scanSync(range, opts));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** scan() with each pair handed to `map` at offsets into lmdb's buffers (see RawRangeReader.scanMapped). */
  scanMapped<T>(range: KeyRange, opts: ScanOptions, map: PairMapper<T>): Promise<MappedPage<T>> {
    try {
      this.checkOpen();
      if (opts.limit <= 0 || compareBytes(range.start, range.end) >= 0) return Promise.resolve({ items: [], lastKey: undefined });
      return Promise.resolve(this.reader.scanMapped(this.lease.group.txn, range, opts.reverse === true, opts.limit, map));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** All found payloads are copied into one fresh allocation (views of it are returned). */
  private batchGetSync(keys: readonly Uint8Array[]): Array<Uint8Array | undefined> {
    this.checkOpen();
    const n = keys.length;
    const out = new Array<Uint8Array | undefined>(n);
    const page = sharedPage;
    page.reset();
    const piece = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) {
      const key = keys[i] as Uint8Array;
      if (key.length === 0 || key.length > MAX_KEY_BYTES) continue;
      const stored = getFastIn(this.data, key, this.readOpts);
      if (stored === undefined || !isLive(stored)) continue;
      piece[i] = page.count;
      page.append(stored, HEADER_BYTES, stored.length - HEADER_BYTES);
    }
    const views = page.finish();
    for (let i = 0; i < n; i++) {
      const p = piece[i] as number;
      out[i] = p < 0 ? undefined : views[p];
    }
    return out;
  }

  private scanSync(range: KeyRange, opts: ScanOptions): KvPair[] {
    this.checkOpen();
    if (opts.limit <= 0 || compareBytes(range.start, range.end) >= 0) return [];
    return this.reader.scan(this.lease.group.txn, range, opts.reverse === true, opts.limit);
  }

  release(): void {
    this.endLease(this.lease);
  }

  getNow(key: Uint8Array): Uint8Array | undefined {
    this.checkOpen();
    if (key.length === 0 || key.length > MAX_KEY_BYTES) return undefined;
    const stored = getFastIn(this.data, key, this.readOpts);
    return stored !== undefined && isLive(stored) ? copyPayload(stored) : undefined;
  }

  private checkOpen(): void {
    const lease = this.lease;
    if (!lease.released && !lease.group.evicted) return;
    throw new Error(
      lease.released
        ? 'snapshot used after release()'
        : `snapshot ${this.startTs} expired: too many open read transactions (release snapshots promptly)`,
    );
  }
}

/** One more reference to a read txn lmdb-js handed out (its Transaction.use(); the typings omit it), ended by done(). */
export function useAgain(txn: Transaction): void {
  (txn as unknown as { use(): void }).use();
}

/** txn.done(), ignoring the error of an already closed environment (nothing left to free). */
export function doneQuietly(txn: Transaction): void {
  try {
    txn.done();
  } catch {
    // The environment is already closed.
  }
}
