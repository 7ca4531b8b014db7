import { SqlError } from '../errors/index.js';
import { KeyExistsError, mapPairs, scanMappedOf, type CommitRequest, type KeyRange, type KvPair, type MappedPage, type Mutation, type PairMapper, type ScanOptions, type Snapshot, type Store } from '../kv/kv.js';
import { runLength, runMutations, type KeyRun } from '../kv/key-run.js';
import { toHex } from '../util/index.js';
import type { ExistingKeyError, Txn } from './types.js';
import { mergedScan } from './merge-scan.js';
import { WriteBuffer } from './write-buffer.js';

/** The write set of every transaction that has not written or locked anything (never written to). */
const NO_WRITES = new WriteBuffer();

/**
 * An optimistic snapshot-isolation transaction over a kv Store: reads go to the snapshot unless
 * this txn wrote the key; writes are buffered until commit(), which hands them (plus locked
 * keys) to Store.commit for first-committer-wins checking. During a current read (one DML or
 * locking statement, types.ts beginCurrentRead) reads go to a newer snapshot `reads` and the
 * keys written or locked carry its timestamp as their check base.
 *
 * Ownership: put() keeps `key` and `value` by reference (callers must not mutate them after),
 * and values read back from the buffer are those same arrays.
 */
export class KvTxn implements Txn {
  /** NO_WRITES until the first put, delete or lock (most statements only read). */
  private buf = NO_WRITES;
  /** Where reads go: `snap`, or a current read's newer snapshot. */
  private reads: Snapshot;
  /** The current read's timestamp (check base of what it writes or locks); undefined outside one. */
  private since: bigint | undefined;
  private done = false;
  /** What onExistingKey registered: turns a commit's KeyExistsError into the statement's error. */
  private describers: ExistingKeyError[] | undefined;
  private maxBytes = Infinity;
  private maxBytesSetting = '';

  constructor(
    private readonly kv: Store,
    private readonly snap: Snapshot,
  ) {
    this.reads = snap;
  }

  get startTs(): bigint {
    return this.reads.startTs;
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
    return this.reads.getNow === undefined ? null : this.reads.getNow(key);
  }

  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const entry = this.buf.lookup(key);
    if (entry === undefined) return this.reads.get(key);
    return Promise.resolve(entry.value ?? undefined);
  }

  async batchGet(keys: readonly Uint8Array[]): Promise<Array<Uint8Array | undefined>> {
    if (this.buf.size === 0) return this.reads.batchGet(keys);
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
      const got = await this.reads.batchGet(missing);
      for (let j = 0; j < missing.length; j++) out[missingAt[j] as number] = got[j];
    }
    return out;
  }

  scan(range: KeyRange, opts: ScanOptions): Promise<KvPair[]> {
    return mergedScan(this.reads, this.buf, range, opts);
  }

  /** With nothing buffered, the snapshot's scanMapped (no copies where the store has it); else the merged scan's pairs mapped. */
  async scanMapped<T>(range: KeyRange, opts: ScanOptions, map: PairMapper<T>): Promise<MappedPage<T>> {
    if (this.buf.size === 0) return scanMappedOf(this.reads, range, opts, map);
    return mapPairs(await mergedScan(this.reads, this.buf, range, opts), map, opts.limit);
  }

  put(key: Uint8Array, value: Uint8Array, derived = false): void {
    const buf = this.writable();
    buf.write(key, value, this.since, derived);
    if (buf.bytes > this.maxBytes) throw this.tooLarge();
  }

  putAbsent(key: Uint8Array, value: Uint8Array): boolean {
    const buf = this.writable();
    const written = buf.writeAbsent(key, value, this.since);
    if (buf.bytes > this.maxBytes) throw this.tooLarge();
    return written;
  }

  onExistingKey(describe: ExistingKeyError): void {
    this.describers ??= [];
    if (!this.describers.includes(describe)) this.describers.push(describe);
  }

  putNew(key: Uint8Array, value: Uint8Array): void {
    const buf = this.writable();
    buf.writeNew(key, value, this.since);
    if (buf.bytes > this.maxBytes) throw this.tooLarge();
  }

  delete(key: Uint8Array, derived = false): void {
    const buf = this.writable();
    buf.write(key, null, this.since, derived);
    if (buf.bytes > this.maxBytes) throw this.tooLarge();
  }

  lockKeys(keys: readonly Uint8Array[]): void {
    const buf = this.writable();
    for (const key of keys) buf.lock(key, this.since);
  }

  beginCurrentRead(): Promise<void> | undefined {
    this.checkActive();
    this.endCurrentRead();
    const now = this.kv.snapshotNow?.();
    if (now !== undefined) {
      this.readFrom(now);
      return undefined;
    }
    return this.kv.snapshot().then((latest) => {
      if (this.done) latest.release();
      else this.readFrom(latest);
    });
  }

  /** Reads go to `latest` from now on, unless it is the txn's own snapshot's state. */
  private readFrom(latest: Snapshot): void {
    if (latest.startTs <= this.snap.startTs) {
      latest.release();
      return;
    }
    this.reads = latest;
    this.since = latest.startTs;
  }

  endCurrentRead(): void {
    if (this.reads === this.snap) return;
    this.reads.release();
    this.reads = this.snap;
    this.since = undefined;
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
    this.endCurrentRead();
    this.done = true;
    try {
      const { keys: checkKeys, later } = this.buf.lockOnlyChecks();
      if (this.buf.size === 0 && checkKeys.length === 0 && later.length === 0) return;
      const req = { startTs: this.snap.startTs, mutations: this.buf.mutations(), checkKeys };
      if (this.kv.checksAbsent !== true) await this.checkAbsent(req.mutations);
      await this.kv.commit(later.length === 0 ? req : { ...req, laterChecks: later });
    } catch (err) {
      throw err instanceof KeyExistsError ? this.existing(err.key) : err;
    } finally {
      this.snap.release();
    }
  }

  /**
   * For a store that does not check `absent` mutations itself: each must find no value at the
   * snapshot (a value committed since then fails the commit's conflict check instead).
   */
  private async checkAbsent(mutations: readonly Mutation[]): Promise<void> {
    const keys = mutations.filter((m) => m.absent === true).map((m) => m.key);
    if (keys.length === 0) return;
    const found = (await this.snap.batchGet(keys)).findIndex((v) => v !== undefined);
    if (found >= 0) throw new KeyExistsError(keys[found] as Uint8Array);
  }

  /** The error for a key that had to be absent: what a registered describer makes of it, else a generic 1062. */
  private existing(key: Uint8Array): Error {
    for (const describe of this.describers ?? []) {
      const err = describe(key);
      if (err !== undefined) return err;
    }
    return SqlError.of('ER_DUP_ENTRY', toHex(key), 'PRIMARY');
  }

  rollback(): void {
    if (this.done) return;
    this.endCurrentRead();
    this.done = true;
    this.snap.release();
  }

  async commitRun(run: KeyRun): Promise<void> {
    this.checkActive();
    const startTs = this.snap.startTs;
    if (runLength(run) === 0) return;
    const req: CommitRequest = this.kv.commitsRuns === true ? { startTs, mutations: [], checkKeys: [], run } : { startTs, mutations: runMutations(run), checkKeys: [] };
    await this.kv.commit(req);
  }

  private tooLarge(): SqlError {
    const detail = `buffered writes reach ${this.buf.bytes} bytes, over ${this.maxBytesSetting} = ${this.maxBytes}`;
    return SqlError.of('ER_TXN_TOO_LARGE', detail);
  }

  private checkActive(): void {
    if (this.done) throw new Error('transaction already committed or rolled back');
  }
}
