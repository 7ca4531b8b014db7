import { SqlError } from '../errors/index.js';
import { mapPairs, scanMappedOf, type KeyRange, type KvPair, type MappedPage, type Mutation, type PairMapper, type ScanOptions, type Snapshot, type Store } from '../kv/kv.js';
import type { Txn } from './types.js';
import { mergedScan } from './merge-scan.js';
import { WriteBuffer } from './write-buffer.js';

/** The write set of every transaction that has not written or locked anything (never written to). */
const NO_WRITES = new WriteBuffer();

/**
 * An optimistic snapshot-isolation transaction over a kv Store: reads go to the snapshot unless
 * this txn wrote the key; writes are buffered until commit(), which hands them (plus locked
 * keys) to Store.commit for first-committer-wins checking.
 *
 * Ownership: put() keeps `key` and `value` by reference (callers must not mutate them after),
 * and values read back from the buffer are those same arrays.
 */
export class KvTxn implements Txn {
  readonly startTs: bigint;
  /** NO_WRITES until the first put, delete or lock (most statements only read). */
  private buf = NO_WRITES;
  private done = false;
  private maxBytes = Infinity;
  private maxBytesSetting = '';

  constructor(
    private readonly kv: Store,
    private readonly snap: Snapshot,
  ) {
    this.startTs = snap.startTs;
  }

  get writeCount(): number {
    return this.buf.size;
  }

  get writeBytes(): number {
    return this.buf.bytes;
  }

  get finished(): boolean {
    return this.done;
  }

  limitWrites(maxBytes: number, setting: string): void {
    this.maxBytes = maxBytes;
    this.maxBytesSetting = setting;
  }

  getNow(key: Uint8Array): Uint8Array | undefined | null {
    const entry = this.buf.lookup(key);
    if (entry !== undefined) return entry.value ?? undefined;
    return this.snap.getNow === undefined ? null : this.snap.getNow(key);
  }

  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const entry = this.buf.lookup(key);
    if (entry === undefined) return this.snap.get(key);
    return Promise.resolve(entry.value ?? undefined);
  }

  async batchGet(keys: readonly Uint8Array[]): Promise<Array<Uint8Array | undefined>> {
    if (this.buf.size === 0) return this.snap.batchGet(keys);
    const out: Array<Uint8Array | undefined> = new Array<Uint8Array | undefined>(keys.length);
    const missing: Uint8Array[] = [];
    const missingAt: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as Uint8Array;
      const entry = this.buf.lookup(key);
      if (entry === undefined) {
        missing.push(key);
        missingAt.push(i);
      } else {
        out[i] = entry.value ?? undefined;
      }
    }
    if (missing.length > 0) {
      const got = await this.snap.batchGet(missing);
      for (let j = 0; j < missing.length; j++) out[missingAt[j] as number] = got[j];
    }
    return out;
  }

  scan(range: KeyRange, opts: ScanOptions): Promise<KvPair[]> {
    return mergedScan(this.snap, this.buf, range, opts);
  }

  /** With nothing buffered, the snapshot's scanMapped (no copies where the store has it); else the merged scan's pairs mapped. */
  async scanMapped<T>(range: KeyRange, opts: ScanOptions, map: PairMapper<T>): Promise<MappedPage<T>> {
    if (this.buf.size === 0) return scanMappedOf(this.snap, range, opts, map);
    return mapPairs(await mergedScan(this.snap, this.buf, range, opts), map, opts.limit);
  }

  put(key: Uint8Array, value: Uint8Array): void {
    const buf = this.writable();
    buf.write(key, value);
    if (buf.bytes > this.maxBytes) throw this.tooLarge();
  }

  delete(key: Uint8Array): void {
    const buf = this.writable();
    buf.write(key, null);
    if (buf.bytes > this.maxBytes) throw this.tooLarge();
  }

  lockKeys(keys: readonly Uint8Array[]): void {
    const buf = this.writable();
    for (const key of keys) buf.lock(key);
  }

  /** The txn's own write buffer, created on the first write (after checking the txn is active). */
  private writable(): WriteBuffer {
    this.checkActive();
    if (this.buf === NO_WRITES) this.buf = new WriteBuffer();
    return this.buf;
  }

  checkpoint(): number {
    return this.buf.checkpoint();
  }

  rollbackTo(cp: number): void {
    this.checkActive();
    this.buf.rollbackTo(cp);
  }

  async commit(): Promise<void> {
    this.checkActive();
    this.done = true;
    try {
      const checkKeys = this.buf.lockOnlyKeys();
      if (this.buf.size === 0 && checkKeys.length === 0) return;
      const mutations: Mutation[] = [];
      for (const e of this.buf.liveEntries()) {
        mutations.push(e.value === null ? { op: 'del', key: e.key } : { op: 'put', key: e.key, value: e.value });
      }
      await this.kv.commit({ startTs: this.startTs, mutations, checkKeys });
    } finally {
      this.snap.release();
    }
  }

  rollback(): void {
    if (this.done) return;
    this.done = true;
    this.snap.release();
  }

  private tooLarge(): SqlError {
    const detail = `buffered writes reach ${this.buf.bytes} bytes, over ${this.maxBytesSetting} = ${this.maxBytes}`;
    return SqlError.of('ER_TXN_TOO_LARGE', detail);
  }

  private checkActive(): void {
    if (this.done) throw new Error('transaction already committed or rolled back');
  }
}
