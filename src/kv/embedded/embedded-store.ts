import { setTimeout as sleep } from 'node:timers/promises';
import { open, type RootDatabase, type Transaction } from 'lmdb';
import type { CommitRequest, KeyRange, Snapshot, Store } from '../kv.js';
import { ERRORS, SqlError } from '../../errors/index.js';
import { compareBytes, toHex } from '../../util/index.js';
import { applyCommit, checkOnlyCommit, counterValue, COUNTER_KEY, readCounter, type CommitOutcome, type EmbeddedDbs } from './commit-apply.js';
import { getFastIn, LmdbSnapshot, MAX_KEY_BYTES, type PinGroup, type ReadLease } from './lmdb-snapshot.js';
import { LeakGuard } from './leak-guard.js';
import { RawRangeReader } from './raw-range.js';
import { isRetryableWriteFailure, mapWriteError, openError, writeCause } from './storage-errors.js';
import { TombstoneGc } from './tombstone-gc.js';
import { WriteWatchdog } from './write-watchdog.js';

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
  /**
   * Told about failing writes (disk full, I/O errors: once per run of failures, again after a
   * write succeeded) and failed tombstone GC rounds; the store keeps going. Default: a process
   * warning.
   */
  readonly onBackgroundError?: (what: string, err: unknown) => void;
  /** A commit or range delete unfinished this long counts as stuck (write-watchdog.ts). Default 60 s; 0 = never. */
  readonly stuckWriteMs?: number;
  /** After a free-list fault, until a write succeeds: the stuck limit instead (default 5 s, at most stuckWriteMs). */
  readonly stuckAfterFaultMs?: number;
  /** Told once when a write is stuck (the server exits on it). Default: onBackgroundError. */
  readonly onStuckWrite?: (ageMs: number) => void;
}

/** Delete keys may not exceed this (the tombstone index prefixes them with 8 bytes). */
const MAX_WRITE_KEY_BYTES = MAX_KEY_BYTES - 8;
const DELETE_RANGE_BATCH = 1000;
const CONFLICT_BASE = ERRORS.ER_LOCK_DEADLOCK.template;
/**
 * Waits before each retry of a write batch that failed with a retryable LMDB fault
 * (storage-errors.ts): 6 attempts over ~0.6 s. lmdb-js's LMDB fork caches a free-list position
 * per process and drops it only when the shared transaction id moved past what this process
 * expects, so an immediate retry can meet the same stale position: in a harness run
 * (oltp_write_only, 32 threads, two workers) four attempts within 7 ms all failed. Waiting lets
 * the other processes commit (or go quiet), after which the cache is dropped.
 */
const RETRY_DELAYS_MS = [5, 15, 45, 135, 405];
const BATCH_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** The commit's timestamp, or the 1213 its outcome calls for. */
function commitResult(req: CommitRequest, outcome: CommitOutcome): bigint {
  if (outcome.kind === 'ok') return outcome.commitTs;
  if (outcome.kind === 'conflict') {
    throw new SqlError('ER_LOCK_DEADLOCK', `${CONFLICT_BASE} (write conflict on key ${toHex(outcome.key)})`);
  }
  throw new SqlError('ER_LOCK_DEADLOCK', `${CONFLICT_BASE} (snapshot ${req.startTs} is older than the GC safe point ${outcome.safePoint})`);
}

/**
 * The default ShaleDB store: one LMDB environment in a data directory, shared safely by several
 * OS processes (LMDB's lock file and write mutex). Durable: commit() resolves only after LMDB
 * has fsync'd the transaction (never noSync/noMetaSync; with lmdb-js's default overlappingSync
 * the commit waits for `flushed`, not only for the commit to become visible). Concurrent commits
 * from one process share one LMDB write transaction and one fsync (lmdb-js batches async
 * transaction callbacks queued in the same event turn / while a write is in flight); each
 * commit runs its conflict check in order inside that transaction, in its own child
 * transaction so a failing member never leaves partial writes.
 */
export class EmbeddedStore implements Store {
  readonly url: string;
  private readonly root: RootDatabase<Buffer, string>;
  private readonly dbs: EmbeddedDbs;
  private readonly reader: RawRangeReader;
  /**
   * Pinned read txns with at least one open snapshot or a hold, oldest first (Map keeps insertion
   * order; startTs never decreases along it). A group leaves the map when its last member ended
   * and its hold was dropped.
   */
  private readonly pinned = new Map<Transaction, PinGroup>();
  /** The most recently used group (fast path: snapshots between two commits share it). */
  private current: PinGroup | undefined;
  /** Groups whose hold dropHolds() releases at the next setImmediate. */
  private heldGroups: PinGroup[] = [];
  private readonly maxPinned: number;
  private readonly gc: TombstoneGc;
  private readonly gcTimer: NodeJS.Timeout | undefined;
  /** Ends the lease of a snapshot garbage-collected without release(). */
  private readonly leakGuard = new LeakGuard((lease) => this.endLease(lease));
  private readonly endLeaseFn = (lease: ReadLease): void => this.endLease(lease);
  private readonly onBackgroundError: (what: string, err: unknown) => void;
  private readonly watchdog: WriteWatchdog;
  /** The last write failed on the store's files (the next failure is not reported again). */
  private writesFailing = false;
  private closed = false;

  private constructor(
    private readonly path: string,
    opts: EmbeddedStoreOptions,
  ) {
    this.url = `lmdb://${path}`;
    this.onBackgroundError = opts.onBackgroundError ?? ((what, err) => process.emitWarning(`${this.url}: ${what}: ${String(err)}`));
    const maxReaders = opts.maxReaders ?? 1024;
    this.maxPinned = Math.max(1, opts.maxPinnedReadTxns ?? Math.floor(maxReaders / 4));
    this.root = open<Buffer, string>({
      path,
      // lmdb-js would otherwise treat a path with an extension ("shale.data") as the file itself.
      noSubdir: false,
      maxDbs: 8,
      maxReaders,
      mapSize: opts.mapSize ?? 1024 * 1024 * 1024,
      // lmdb-js 3.5's event-turn batching leaves a promise of its own without a handler; when a
      // write fails (disk full) that rejection would crash the process. Concurrent commits
      // still share one write transaction and one fsync without it.
      eventTurnBatching: false,
    });
    this.dbs = {
      data: this.root.openDB<Buffer, Uint8Array>({ name: 'data', keyEncoding: 'binary', encoding: 'binary' }),
      meta: this.root.openDB<Buffer, string>({ name: 'meta', encoding: 'binary' }),
      tombs: this.root.openDB<Buffer, Uint8Array>({ name: 'tombs', keyEncoding: 'binary', encoding: 'binary' }),
    };
    this.reader = new RawRangeReader(this.root, 'data');
    const onStuck = opts.onStuckWrite ?? ((ageMs: number) => this.onBackgroundError('write stuck', new Error(`a write has not finished for ${Math.round(ageMs / 1000)} s`)));
    const stuckMs = opts.stuckWriteMs ?? 60_000;
    this.watchdog = new WriteWatchdog(stuckMs, onStuck, Math.min(stuckMs, opts.stuckAfterFaultMs ?? 5000));
    this.gc = new TombstoneGc(this.dbs, opts.gcAgeMs ?? 10 * 60_000, () => this.oldestActiveStart());
    const interval = opts.gcIntervalMs ?? 60_000;
    if (interval > 0) {
      this.gcTimer = setInterval(() => this.runGc(), interval);
      this.gcTimer.unref();
    }
  }

  /** Opens (creating if needed) the store in directory `path`; a clear Error if it cannot. */
  static open(path: string, opts: EmbeddedStoreOptions = {}): EmbeddedStore {
    try {
      return new EmbeddedStore(path, opts);
    } catch (err) {
      throw openError(path, err);
    }
  }

  snapshot(): Promise<Snapshot> {
    try {
      return Promise.resolve(this.snapshotNow());
    } catch (err) {
      return Promise.reject(err);
    }
  }

  snapshotNow(): Snapshot {
    if (this.closed) throw new Error(`${this.url}: store is closed`);
    const txn = this.useReadTxn();
    // While a group has open members or a hold its txn object cannot be reset/renewed by lmdb-js
    // (they hold references), so the same txn object means the same LMDB snapshot and startTs.
    let group = this.current;
    if (group === undefined || group.txn !== txn || group.evicted || (group.open === 0 && !group.held)) {
      group = this.pinned.get(txn);
      if (group === undefined) {
        if (this.pinned.size >= this.maxPinned) this.evictOldest();
        const raw = getFastIn(this.dbs.meta, COUNTER_KEY, { transaction: txn });
        group = { txn, startTs: counterValue(raw), open: 0, evicted: false, held: false };
        this.pinned.set(txn, group);
      }
      this.current = group;
    }
    group.open++;
    const lease: ReadLease = { group, released: false, watched: false };
    const snap = new LmdbSnapshot(this.dbs.data, this.reader, lease, this.endLeaseFn);
    this.leakGuard.watch(snap, lease);
    return snap;
  }

  async commit(req: CommitRequest): Promise<bigint> {
    if (this.closed) throw new Error(`${this.url}: store is closed`);
    validateKeys(req);
    if (req.mutations.length === 0) return commitResult(req, this.checkOnly(req));
    let outcome: CommitOutcome;
    const write = this.watchdog.begin();
    try {
      outcome = await this.checkAndWrite(req);
      // lmdb-js defaults to overlappingSync: the promise above resolves once the transaction is
      // committed and visible, before its pages are fsync'd. An OK'd commit must be durable, so
      // wait for the flush too (flushes run in order; this one covers our transaction). Commits
      // in flight meanwhile still share the next write transaction and fsync.
      if (outcome.kind === 'ok' && req.mutations.length > 0) await this.root.flushed;
    } catch (err) {
      throw await this.writeFailed('commit', err);
    } finally {
      this.watchdog.end(write);
    }
    this.writesFailing = false;
    return commitResult(req, outcome);
  }

  /** A commit with nothing to write: checked in the current read transaction (checkOnlyCommit). */
  private checkOnly(req: CommitRequest): CommitOutcome {
    const txn = this.useReadTxn();
    try {
      return checkOnlyCommit(this.dbs, req, txn);
    } finally {
      txn.done();
    }
  }

  /** The commit's check-and-write in the next write batch (retried as writeBatch() says). */
  private checkAndWrite(req: CommitRequest): Promise<CommitOutcome> {
    return this.writeBatch('commit', () => this.dbs.data.childTransaction(() => applyCommit(this.dbs, req)));
  }

  /**
   * Runs `write` (one lmdb-js write transaction). A batch that failed with one of lmdb-js's
   * free-list faults (storage-errors.ts) was aborted as a whole, nothing of it applied, so it is
   * run again in a new batch (a commit checks its conflicts afresh); each such retry is reported.
   */
  private async writeBatch<T>(what: string, write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await write();
        this.watchdog.healthy();
        return result;
      } catch (err) {
        const cause = await writeCause(err);
        if (!isRetryableWriteFailure(cause)) throw err;
        this.watchdog.suspect();
        if (attempt >= BATCH_ATTEMPTS) throw err;
        const delay = RETRY_DELAYS_MS[attempt - 1] as number;
        this.onBackgroundError(`${what}: write batch failed (attempt ${attempt} of ${BATCH_ATTEMPTS}), retrying in ${delay} ms`, cause);
        await sleep(delay);
      }
    }
  }

  async deleteRange(range: KeyRange): Promise<void> {
    if (compareBytes(range.start, range.end) >= 0) return;
    const start = range.start.length === 0 ? undefined : range.start;
    for (;;) {
      const write = this.watchdog.begin();
      const removed = await this.writeBatch('delete range', () =>
        this.dbs.data.transaction(() => {
          const keys: Buffer[] = [];
          for (const key of this.dbs.data.getKeys({ start, end: range.end, limit: DELETE_RANGE_BATCH })) {
            keys.push(Buffer.from(key));
          }
          for (const key of keys) this.dbs.data.removeSync(key);
          return keys.length;
        }),
      )
        .catch(async (err: unknown) => Promise.reject(await this.writeFailed('delete range', err)))
        .finally(() => this.watchdog.end(write));
      if (removed < DELETE_RANGE_BATCH) break;
    }
    await this.root.flushed;
  }

  /** Runs one tombstone collection now (tests, maintenance); resolves with tombstones removed. */
  collectGarbage(): Promise<number> {
    return this.gc.collect().catch(async (err: unknown) => Promise.reject(await this.writeFailed('tombstone GC', err)));
  }

  /** The latest committed timestamp (reads outside any snapshot). */
  latestCommitTs(): bigint {
    return readCounter(this.dbs.meta, COUNTER_KEY);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.gcTimer !== undefined) clearInterval(this.gcTimer);
    this.watchdog.stop();
    for (const group of [...this.pinned.values()]) this.evictGroup(group);
    this.leakGuard.clear();
    await this.root.close();
  }

  /** release() / finalizer: drops the lease's txn reference once (no-op if its group was evicted). */
  private endLease(lease: ReadLease): void {
    const group = lease.group;
    if (lease.released || group.evicted) return;
    lease.released = true;
    this.leakGuard.forget(lease);
    if (--group.open === 0 && !group.held) {
      // The lease's txn reference becomes the group's hold (PinGroup.held) until setImmediate.
      group.held = true;
      this.heldGroups.push(group);
      if (this.heldGroups.length === 1) setImmediate(this.dropHolds).unref();
      return;
    }
    doneQuietly(group.txn);
  }

  /** setImmediate after groups were held: each drops its hold; an empty group is unpinned. */
  private readonly dropHolds = (): void => {
    const groups = this.heldGroups;
    this.heldGroups = [];
    for (const group of groups) {
      if (!group.held) continue; // evicted meanwhile
      group.held = false;
      if (group.open === 0) this.pinned.delete(group.txn);
      doneQuietly(group.txn);
    }
  };

  /** Ends every open member of `group` (and its hold) at once; their snapshots then report expiry. */
  private evictGroup(group: PinGroup): void {
    group.evicted = true;
    this.pinned.delete(group.txn);
    for (; group.open > 0; group.open--) doneQuietly(group.txn);
    if (group.held) {
      group.held = false;
      doneQuietly(group.txn);
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
    if (first.done !== true) this.evictGroup(first.value);
  }

  /** The smallest startTs of any open snapshot (tombstones it may still see must be kept). */
  private oldestActiveStart(): bigint | undefined {
    let min: bigint | undefined;
    for (const group of this.pinned.values()) if (min === undefined || group.startTs < min) min = group.startTs;
    return min;
  }

  private runGc(): void {
    if (this.closed) return;
    this.collectGarbage().catch((err: unknown) => {
      // GC is best-effort; a failure (e.g. disk full) leaves tombstones for the next round.
      if (!this.writesFailing) this.onBackgroundError('tombstone GC failed', err);
    });
  }

  /**
   * The error to throw for a failed LMDB write (storage-errors.ts): the OS / LMDB cause as a
   * MySQL error. The first of a run of storage failures is also reported to onBackgroundError.
   */
  private async writeFailed(what: string, err: unknown): Promise<unknown> {
    const failure = await mapWriteError(err, this.path, this.url);
    if (failure.storage && !this.writesFailing) {
      this.writesFailing = true;
      this.onBackgroundError(`${what} failed, writes to the store fail until the cause is fixed`, failure.error);
    }
    return failure.error;
  }
}

/** txn.done(), ignoring the error of an already closed environment (nothing left to free). */
function doneQuietly(txn: Transaction): void {
  try {
    txn.done();
  } catch {
    // The environment is already closed.
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
