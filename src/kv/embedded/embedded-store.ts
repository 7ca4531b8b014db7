import { setTimeout as sleep } from 'node:timers/promises';
import type { RootDatabase } from 'lmdb';
import type { CommitRequest, KeyRange, Snapshot, Store } from '../kv.js';
import { compareBytes } from '../../util/index.js';
import { applyCommit, checkOnlyCommit, COUNTER_KEY, readCounter, type CommitOutcome, type EmbeddedDbs } from './commit-apply.js';
import { LmdbSnapshot } from './lmdb-snapshot.js';
import { commitResult, validateKeys } from './commit-request.js';
import { RawRangeReader } from './raw-range.js';
import { BATCH_ATTEMPTS, isRetryableWriteFailure, mapWriteError, openError, RETRY_DELAYS_MS, writeCause } from './storage-errors.js';
import { TombstoneGc } from './tombstone-gc.js';
import { currentBootId } from './checkpoint-file.js';
import { Checkpointer } from './checkpointer.js';
import { LoggedWrites, markFailedBatch, RedoLog, type Appended } from './redo-log.js';
import { replayLog, restoreCheckpoint } from './recovery.js';
import { WriteWatchdog } from './write-watchdog.js';
import { LoneCommits } from './lone-commits.js';
import { FreshReadTxn } from './fresh-read-txn.js';
import { ReadPins } from './read-pins.js';
import type { DataFileRoom } from './data-file-room.js';
import { openEnvironment } from './open-environment.js';
import type { EmbeddedStoreOptions } from './embedded-options.js';

export type { EmbeddedStoreOptions } from './embedded-options.js';

const DELETE_RANGE_BATCH = 1000;
/** EmbeddedStoreOptions.checkpointMs: 1/2.5/5 s gave 3332/3464/3781 TPS, p99 14.2/13.7/8.0 ms (ARCHITECTURE.md). */
const DEFAULT_CHECKPOINT_MS = 5000;

/**
 * The default ShaleDB store: one LMDB environment in a data directory, shared safely by several
 * OS processes (LMDB's lock file and write mutex). Durable: commit() resolves only after the
 * commit is on disk. With the redo log (the default on Linux, redo-log.ts) LMDB commits are not
 * synced; each write transaction appends its changes to the log, a commit waits for an fdatasync
 * of the log past its record (one shared by every commit waiting), and a checkpointer keeps the
 * data file recoverable and the log short (checkpointer.ts, recovery.ts). Without it, LMDB fsyncs
 * each write batch (lmdb-js's overlappingSync; the commit waits for `flushed`). Concurrent commits
 * from one process share one LMDB write transaction (lmdb-js batches async transaction callbacks
 * queued in the same event turn / while a write is in flight); each commit runs its conflict
 * check in order inside that transaction and writes only once the check passed and its log record
 * is appended, so a failing member leaves no partial writes (redo-log.ts, LoggedWrites). With the
 * log, LMDB writes through its memory map (WRITEMAP, which allows no child transactions), with
 * disk blocks allocated ahead of each batch (data-file-room.ts).
 */
export class EmbeddedStore implements Store {
  readonly url: string;
  readonly checksAbsent = true;
  readonly commitsRuns = true;
  private readonly root: RootDatabase<Buffer, string>;
  private readonly dbs: EmbeddedDbs;
  private readonly reader: RawRangeReader;
  /** Set when LMDB writes through its memory map: blocks to allocate before each write batch. */
  private readonly room: DataFileRoom | undefined;
  private readonly pins: ReadPins;
  private readonly gc: TombstoneGc;
  private readonly gcTimer: NodeJS.Timeout | undefined;
  private readonly onBackgroundError: (what: string, err: unknown) => void;
  private readonly watchdog: WriteWatchdog;
  private readonly lone = new LoneCommits();
  /** The last write failed on the store's files (the next failure is not reported again). */
  private writesFailing = false;
  private closed = false;
  /** Undefined when LMDB syncs each write batch itself (EmbeddedStoreOptions.redoLog). */
  private readonly log: RedoLog | undefined;
  private readonly checkpointer: Checkpointer | undefined;
  private readonly checkpointTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly path: string,
    opts: EmbeddedStoreOptions,
  ) {
    this.url = `lmdb://${path}`;
    this.onBackgroundError = opts.onBackgroundError ?? ((what, err) => process.emitWarning(`${this.url}: ${what}: ${String(err)}`));
    const maxReaders = opts.maxReaders ?? 1024;
    const bootId = opts.bootId ?? currentBootId();
    const logged = opts.redoLog ?? bootId !== '';
    const restored = restoreCheckpoint(path, bootId);
    const env = openEnvironment(path, opts, logged, maxReaders);
    this.root = env.root;
    this.dbs = env.dbs;
    this.room = env.room;
    const maxPinned = Math.max(1, opts.maxPinnedReadTxns ?? Math.floor(maxReaders / 4));
    this.pins = new ReadPins(this.dbs, new FreshReadTxn(this.dbs.data, env.addon), maxPinned);
    this.reader = new RawRangeReader(this.root, 'data', env.addon?.scan);
    if (restored !== undefined) {
      const replayed = replayLog(path, this.root, this.dbs, restored, this.room);
      opts.onRecovered?.(replayed);
    }
    this.log = logged ? new RedoLog(path) : undefined;
    const every = opts.checkpointMs ?? DEFAULT_CHECKPOINT_MS;
    this.checkpointer = logged ? new Checkpointer(path, this.root, this.dbs, bootId, every) : undefined;
    this.checkpointer?.checkpointNow();
    if (this.checkpointer !== undefined && every > 0) {
      // Ticks at least once a second: the checkpoint lease's heartbeat and takeover run on them.
      this.checkpointTimer = setInterval(() => this.runCheckpoint(), Math.min(every, 1000));
      this.checkpointTimer.unref();
    }
    const onStuck = opts.onStuckWrite ?? ((ageMs: number) => this.onBackgroundError('write stuck', new Error(`a write has not finished for ${Math.round(ageMs / 1000)} s`)));
    const stuckMs = opts.stuckWriteMs ?? 60_000;
    this.watchdog = new WriteWatchdog(stuckMs, onStuck, Math.min(stuckMs, opts.stuckAfterFaultMs ?? 5000));
    const room = this.room;
    const beforeGc = room === undefined ? undefined : (bytes: number): void => room.ensure(bytes);
    this.gc = new TombstoneGc(this.dbs, opts.gcAgeMs ?? 10 * 60_000, () => this.pins.oldestActiveStart(), this.log, beforeGc);
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
    const lease = this.pins.lease();
    const snap = new LmdbSnapshot(this.dbs.data, this.reader, lease, this.pins.end);
    this.pins.watch(snap, lease);
    return snap;
  }

  async commit(req: CommitRequest): Promise<bigint> {
    if (this.closed) throw new Error(`${this.url}: store is closed`);
    validateKeys(req);
    if (req.mutations.length === 0 && req.run === undefined) return commitResult(req, this.checkOnly(req));
    let outcome: CommitOutcome;
    const write = this.watchdog.begin();
    try {
      this.room?.ensure(this.room.boundOf(req.mutations, req.run));
      outcome = this.log !== undefined && this.lone.take() ? await this.commitNow(req) : await this.checkAndWrite(req);
      if (outcome.kind === 'ok') await this.durable(outcome.logged);
    } catch (err) {
      throw await this.writeFailed('commit', err);
    } finally {
      this.watchdog.end(write);
    }
    this.writesFailing = false;
    return commitResult(req, outcome);
  }

  /**
   * Waits until a committed write batch is on disk: its log record fsync'd, or without the log,
   * LMDB's own sync (lmdb-js defaults to overlappingSync: a transaction is visible before its
   * pages are fsync'd, and flushes run in order, so `flushed` covers ours).
   */
  private durable(logged: Appended | undefined): Promise<unknown> {
    if (this.log === undefined) return this.root.flushed;
    return logged === undefined ? Promise.resolve() : logged.file.sync(logged.count);
  }

  /** A commit with nothing to write: checked in the current read transaction (checkOnlyCommit). */
  private checkOnly(req: CommitRequest): CommitOutcome {
    const txn = this.pins.useReadTxn();
    try {
      return checkOnlyCommit(this.dbs, req, txn);
    } finally {
      txn.done();
    }
  }

  /**
   * A lone commit (lone-commits.ts): checked, applied and logged in a synchronous write
   * transaction on this thread, then the log fdatasync'd here too. If the transaction fails,
   * nothing of it committed: its log record is marked failed (markFailedBatch) and the commit
   * goes the queued way, with its retries.
   */
  private async commitNow(req: CommitRequest): Promise<CommitOutcome> {
    let outcome: CommitOutcome;
    try {
      outcome = this.root.transactionSync(() => applyCommit(this.dbs, req, this.log));
    } catch {
      // The queued attempt meets the same failure if it lasts, and reports it (writeBatch).
      await this.markFailed('commit');
      return this.checkAndWrite(req);
    }
    this.watchdog.healthy(); // a write batch succeeded, as writeBatch() notes
    if (outcome.kind === 'ok' && outcome.logged !== undefined) outcome.logged.file.syncNow(outcome.logged.count);
    return outcome;
  }

  /** The commit's check-and-write in the next write batch (retried as writeBatch() says). */
  private checkAndWrite(req: CommitRequest): Promise<CommitOutcome> {
    return this.writeBatch('commit', () => this.dbs.data.transaction(() => applyCommit(this.dbs, req, this.log)));
  }

  /**
   * Runs `write` (one lmdb-js write transaction). A batch that failed with one of lmdb-js's
   * free-list faults (storage-errors.ts) was aborted as a whole, nothing of it applied, so it is
   * run again in a new batch (a commit checks its conflicts afresh); each such retry is reported.
   */
  private async writeBatch<T>(what: string, write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.lone.queued(write);
        this.watchdog.healthy();
        return result;
      } catch (err) {
        const cause = await writeCause(err);
        const retryable = isRetryableWriteFailure(cause);
        if (retryable) this.watchdog.suspect();
        if (!retryable || attempt >= BATCH_ATTEMPTS) {
          await this.markFailed(what);
          throw err;
        }
        const delay = RETRY_DELAYS_MS[attempt - 1] as number;
        this.onBackgroundError(`${what}: write batch failed (attempt ${attempt} of ${BATCH_ATTEMPTS}), retrying in ${delay} ms`, cause);
        await sleep(delay);
      }
    }
  }

  /** A batch failed for good: its log records must not be replayed (redo-log.ts, markFailedBatch). */
  private markFailed(what: string): Promise<void> {
    const log = this.log;
    if (log === undefined) return Promise.resolve();
    return this.lone.queued(() => markFailedBatch(this.dbs, log)).catch((err: unknown) => this.onBackgroundError(`${what}: could not log that a failed batch did not commit`, err));
  }

  async deleteRange(range: KeyRange): Promise<void> {
    if (compareBytes(range.start, range.end) >= 0) return;
    const start = range.start.length === 0 ? undefined : range.start;
    let logged: Appended | undefined;
    for (;;) {
      const write = this.watchdog.begin();
      const removed = await this.writeBatch('delete range', () => {
        this.room?.ensure(this.room.boundOfWrites(DELETE_RANGE_BATCH, 0));
        return this.dbs.data.transaction(() => {
          const keys: Buffer[] = [];
          for (const key of this.dbs.data.getKeys({ start, end: range.end, limit: DELETE_RANGE_BATCH })) {
            keys.push(Buffer.from(key));
          }
          const w = new LoggedWrites(this.dbs, this.log);
          for (const key of keys) w.remove('data', key);
          return { count: keys.length, logged: w.finish() };
        });
      })
        .catch(async (err: unknown) => Promise.reject(await this.writeFailed('delete range', err)))
        .finally(() => this.watchdog.end(write));
      logged = removed.logged ?? logged;
      if (removed.count < DELETE_RANGE_BATCH) break;
    }
    await this.durable(logged);
  }

  /** Runs one tombstone collection now (tests, maintenance); resolves with tombstones removed. */
  collectGarbage(): Promise<number> {
    return this.lone.queued(() => this.gc.collect()).catch(async (err: unknown) => Promise.reject(await this.writeFailed('tombstone GC', err)));
  }

  /**
   * Runs one checkpoint now (tests, maintenance; checkpointer.ts); false without the redo log or
   * when another process on the directory holds the checkpoint lease.
   */
  async checkpoint(): Promise<boolean> {
    if (this.checkpointer === undefined) return false;
    await this.checkpointer.idle();
    return this.closed ? false : this.checkpointer.tick(true);
  }

  /** The latest committed timestamp (reads outside any snapshot). */
  latestCommitTs(): bigint {
    return readCounter(this.dbs.meta, COUNTER_KEY);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.gcTimer !== undefined) clearInterval(this.gcTimer);
    if (this.checkpointTimer !== undefined) clearInterval(this.checkpointTimer);
    this.watchdog.stop();
    if (this.checkpointer !== undefined) {
      // A checkpoint in flight must finish before its data file and environment are closed.
      await this.checkpointer.idle();
      // A last checkpoint leaves the log empty; then the lease and its read transaction go.
      this.checkpointer.checkpointNow();
      this.checkpointer.close();
    }
    this.log?.close();
    this.room?.close();
    this.pins.clear();
    await this.root.close();
  }

  /** Timer: one checkpoint round (checkpointer.ts); failures are reported, the next round retries. */
  private runCheckpoint(): void {
    const cp = this.checkpointer;
    if (this.closed || cp === undefined) return;
    cp.tick().catch((err: unknown) => this.onBackgroundError('checkpoint failed', err));
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
