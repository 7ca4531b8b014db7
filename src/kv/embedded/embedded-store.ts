import { open, type RootDatabase, type Transaction } from 'lmdb';
import type { CommitRequest, KeyRange, Snapshot, Store } from '../kv.js';
import { ERRORS, SqlError } from '../../errors/index.js';
import { compareBytes, toHex } from '../../util/index.js';
import { applyCommit, COUNTER_KEY, readCounter, type CommitOutcome, type EmbeddedDbs } from './commit-apply.js';
import { getFastIn, LmdbSnapshot, MAX_KEY_BYTES, type ReadLease } from './lmdb-snapshot.js';
import { TombstoneGc } from './tombstone-gc.js';
import { readTs } from './value-format.js';

export interface EmbeddedStoreOptions {
  /** Initial LMDB map size in bytes (virtual; the file grows as used and lmdb-js enlarges the map when full). Default 1 GiB. */
  readonly mapSize?: number;
  /** LMDB reader slots shared by all processes on the directory. Default 1024. */
  readonly maxReaders?: number;
  /** Tombstones younger than this are kept (see tombstone-gc.ts). Default 10 minutes. */
  readonly gcAgeMs?: number;
  /**
   * Distinct LMDB read transactions this process may pin at once (snapshots opened between two
   * commits share one). Beyond it the oldest is ended and its snapshots expire. Default
   * maxReaders / 4, leaving reader slots for other processes on the directory.
   */
  readonly maxPinnedReadTxns?: number;
  /** How often the collector runs; 0 disables the timer. Default 60 s. */
  readonly gcIntervalMs?: number;
}

/** Delete keys may not exceed this (the tombstone index prefixes them with 8 bytes). */
const MAX_WRITE_KEY_BYTES = MAX_KEY_BYTES - 8;
const DELETE_RANGE_BATCH = 1000;
const CONFLICT_BASE = ERRORS.ER_LOCK_DEADLOCK.template;

/**
 * The default ShaleDB store: one LMDB environment in a data directory, shared safely by several
 * OS processes (LMDB's lock file and write mutex). Durable: commit() resolves only after LMDB
 * has fsync'd the transaction (default sync mode; never noSync/noMetaSync). Concurrent commits
 * from one process share one LMDB write transaction and one fsync (lmdb-js batches async
 * transaction callbacks queued in the same event turn / while a write is in flight); each
 * commit runs its conflict check in order inside that transaction, in its own child
 * transaction so a failing member never leaves partial writes.
 */
export class EmbeddedStore implements Store {
  readonly url: string;
  private readonly root: RootDatabase<Buffer, string>;
  private readonly dbs: EmbeddedDbs;
  /** Open leases grouped by read txn, oldest txn first (Map keeps insertion order). */
  private readonly pinned = new Map<Transaction, Set<ReadLease>>();
  private readonly maxPinned: number;
  private readonly activeStarts = new Map<bigint, number>();
  private readonly gc: TombstoneGc;
  private readonly gcTimer: NodeJS.Timeout | undefined;
  private readonly finalizer = new FinalizationRegistry<ReadLease>((lease) => this.endLease(lease));
  private closed = false;

  private constructor(path: string, opts: EmbeddedStoreOptions) {
    this.url = `lmdb://${path}`;
    const maxReaders = opts.maxReaders ?? 1024;
    this.maxPinned = Math.max(1, opts.maxPinnedReadTxns ?? Math.floor(maxReaders / 4));
    this.root = open<Buffer, string>({
      path,
      maxDbs: 8,
      maxReaders,
      mapSize: opts.mapSize ?? 1024 * 1024 * 1024,
    });
    this.dbs = {
      data: this.root.openDB<Buffer, Uint8Array>({ name: 'data', keyEncoding: 'binary', encoding: 'binary' }),
      meta: this.root.openDB<Buffer, string>({ name: 'meta', encoding: 'binary' }),
      tombs: this.root.openDB<Buffer, Uint8Array>({ name: 'tombs', keyEncoding: 'binary', encoding: 'binary' }),
    };
    this.gc = new TombstoneGc(this.dbs, opts.gcAgeMs ?? 10 * 60_000, () => this.oldestActiveStart());
    const interval = opts.gcIntervalMs ?? 60_000;
    if (interval > 0) {
      this.gcTimer = setInterval(() => this.runGc(), interval);
      this.gcTimer.unref();
    }
  }

  /** Opens (creating if needed) the store in directory `path`. */
  static open(path: string, opts: EmbeddedStoreOptions = {}): EmbeddedStore {
    return new EmbeddedStore(path, opts);
  }

  snapshot(): Promise<Snapshot> {
    if (this.closed) return Promise.reject(new Error(`${this.url}: store is closed`));
    const txn = this.useReadTxn();
    const raw = getFastIn(this.dbs.meta, COUNTER_KEY, { transaction: txn });
    const lease: ReadLease = { txn, startTs: raw === undefined ? 0n : readTs(raw), ended: false, evicted: false };
    let group = this.pinned.get(txn);
    if (group === undefined) {
      if (this.pinned.size >= this.maxPinned) this.evictOldest();
      group = new Set();
      this.pinned.set(txn, group);
    }
    group.add(lease);
    this.activeStarts.set(lease.startTs, (this.activeStarts.get(lease.startTs) ?? 0) + 1);
    const snap = new LmdbSnapshot(this.dbs.data, lease, (l) => this.endLease(l));
    this.finalizer.register(snap, lease, lease);
    return Promise.resolve(snap);
  }

  async commit(req: CommitRequest): Promise<bigint> {
    if (this.closed) throw new Error(`${this.url}: store is closed`);
    validateKeys(req);
    const outcome: CommitOutcome = await this.dbs.data.childTransaction(() => applyCommit(this.dbs, req));
    if (outcome.kind === 'ok') return outcome.commitTs;
    if (outcome.kind === 'conflict') {
      throw new SqlError('ER_LOCK_DEADLOCK', `${CONFLICT_BASE} (write conflict on key ${toHex(outcome.key)})`);
    }
    throw new SqlError(
      'ER_LOCK_DEADLOCK',
      `${CONFLICT_BASE} (snapshot ${req.startTs} is older than the GC safe point ${outcome.safePoint})`,
    );
  }

  async deleteRange(range: KeyRange): Promise<void> {
    if (compareBytes(range.start, range.end) >= 0) return;
    const start = range.start.length === 0 ? undefined : range.start;
    for (;;) {
      const removed = await this.dbs.data.transaction(() => {
        const keys: Buffer[] = [];
        for (const key of this.dbs.data.getKeys({ start, end: range.end, limit: DELETE_RANGE_BATCH })) {
          keys.push(Buffer.from(key));
        }
        for (const key of keys) this.dbs.data.removeSync(key);
        return keys.length;
      });
      if (removed < DELETE_RANGE_BATCH) return;
    }
  }

  /** Runs one tombstone collection now (tests, maintenance); resolves with tombstones removed. */
  collectGarbage(): Promise<number> {
    return this.gc.collect();
  }

  /** The latest committed timestamp (reads outside any snapshot). */
  latestCommitTs(): bigint {
    return readCounter(this.dbs.meta, COUNTER_KEY);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.gcTimer !== undefined) clearInterval(this.gcTimer);
    for (const group of [...this.pinned.values()]) for (const lease of [...group]) this.endLease(lease);
    await this.root.close();
  }

  private endLease(lease: ReadLease): void {
    if (lease.ended) return;
    lease.ended = true;
    const group = this.pinned.get(lease.txn);
    group?.delete(lease);
    if (group?.size === 0) this.pinned.delete(lease.txn);
    this.finalizer.unregister(lease);
    const n = (this.activeStarts.get(lease.startTs) ?? 1) - 1;
    if (n > 0) this.activeStarts.set(lease.startTs, n);
    else this.activeStarts.delete(lease.startTs);
    try {
      lease.txn.done();
    } catch {
      // The environment is already closed; nothing left to free.
    }
  }

  /** useReadTransaction(); if LMDB's reader table is full, expire our oldest pins and retry once. */
  private useReadTxn(): Transaction {
    try {
      return this.dbs.data.useReadTransaction();
    } catch (err) {
      if (!String(err).includes('MDB_READERS_FULL') || this.pinned.size === 0) throw err;
      for (let n = Math.ceil(this.pinned.size / 2); n > 0; n--) this.evictOldest();
      return this.dbs.data.useReadTransaction();
    }
  }

  /** Ends every lease of the oldest pinned read txn (abandoned snapshots land here first). */
  private evictOldest(): void {
    const first = this.pinned.values().next();
    if (first.done === true) return;
    for (const lease of [...first.value]) {
      lease.evicted = true;
      this.endLease(lease);
    }
  }

  private oldestActiveStart(): bigint | undefined {
    let min: bigint | undefined;
    for (const ts of this.activeStarts.keys()) if (min === undefined || ts < min) min = ts;
    return min;
  }

  private runGc(): void {
    if (this.closed) return;
    this.gc.collect().catch((err: unknown) => {
      // GC is best-effort; a failure (e.g. disk full) leaves tombstones for the next round.
      process.emitWarning(`${this.url}: tombstone GC failed: ${String(err)}`);
    });
  }
}

function validateKeys(req: CommitRequest): void {
  for (const m of req.mutations) checkKey(m.key, MAX_WRITE_KEY_BYTES);
  for (const k of req.checkKeys) checkKey(k, MAX_KEY_BYTES);
}

function checkKey(key: Uint8Array, max: number): void {
  if (key.length === 0 || key.length > max) {
    throw new Error(`embedded store: key length ${key.length} outside 1..${max}`);
  }
}
