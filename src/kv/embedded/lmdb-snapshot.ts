import type { Database, RangeOptions, Transaction } from 'lmdb';
import type { KeyRange, KvPair, ScanOptions, Snapshot } from '../kv.js';
import { compareBytes } from '../../util/index.js';
import { copyBytes, copyPayload, isLive } from './value-format.js';

/** Largest key lmdb-js accepts with the default page size; longer keys can never exist. */
export const MAX_KEY_BYTES = 1978;

/**
 * One pinned LMDB read transaction use. The store tracks every open lease so that close()
 * and the finalizer (for snapshots dropped without release()) can end it exactly once.
 */
export interface ReadLease {
  readonly txn: Transaction;
  readonly startTs: bigint;
  ended: boolean;
  /** Ended by the store (too many open read transactions), not by release(). */
  evicted: boolean;
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
    private readonly lease: ReadLease,
    private readonly endLease: EndLease,
  ) {
    this.startTs = lease.startTs;
    this.readOpts = { transaction: lease.txn };
  }

  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    try {
      return Promise.resolve(this.getSync(key));
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

  private batchGetSync(keys: readonly Uint8Array[]): Array<Uint8Array | undefined> {
    const out: Array<Uint8Array | undefined> = new Array<Uint8Array | undefined>(keys.length);
    for (let i = 0; i < keys.length; i++) out[i] = this.getSync(keys[i] as Uint8Array);
    return out;
  }

  private scanSync(range: KeyRange, opts: ScanOptions): KvPair[] {
    this.checkOpen();
    const out: KvPair[] = [];
    if (opts.limit <= 0 || compareBytes(range.start, range.end) >= 0) return out;
    for (const { key, value } of this.data.getRange(this.rangeOptions(range, opts.reverse === true))) {
      if (!isLive(value)) continue;
      out.push({ key: copyBytes(key), value: copyPayload(value) });
      if (out.length >= opts.limit) break;
    }
    return out;
  }

  release(): void {
    this.endLease(this.lease);
  }

  private getSync(key: Uint8Array): Uint8Array | undefined {
    this.checkOpen();
    if (key.length === 0 || key.length > MAX_KEY_BYTES) return undefined;
    const stored = getFastIn(this.data, key, this.readOpts);
    return stored !== undefined && isLive(stored) ? copyPayload(stored) : undefined;
  }

  /** lmdb-js ranges: forward is [start, end); reverse walks from `start` (high) down to `end` (low). */
  private rangeOptions(range: KeyRange, reverse: boolean): RangeOptions {
    const low = range.start.length === 0 ? undefined : range.start;
    if (!reverse) return { start: low, end: range.end, transaction: this.lease.txn };
    return {
      start: range.end,
      end: low,
      reverse: true,
      exclusiveStart: true,
      inclusiveEnd: true,
      transaction: this.lease.txn,
    };
  }

  private checkOpen(): void {
    if (!this.lease.ended) return;
    throw new Error(
      this.lease.evicted
        ? `snapshot ${this.startTs} expired: too many open read transactions (release snapshots promptly)`
        : 'snapshot used after release()',
    );
  }
}
