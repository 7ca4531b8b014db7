/**
 * The embedded store's redo log: with it, LMDB commits are not fsync'd (`noSync`); instead each
 * write transaction appends a record of its changes (redo-record.ts) to the log file of the
 * current generation, inside the transaction (so the log is in commit order across every process
 * on the directory), and a commit is acknowledged once the log is fsync'd past its record. One
 * `fdatasync` of a short sequential append replaces the sync of the ~20 scattered pages an LMDB
 * commit dirties, and it is shared by every commit that waits for it.
 *
 * Files: `redo.<generation>` in the data directory. The generation lives in LMDB (meta key
 * "logGen"), so a transaction reads which file it appends to in the same snapshot it commits in;
 * the checkpointer (checkpoint.ts) moves it on and reuses or deletes files the data file has
 * caught up with.
 *
 * Records are written in place, not appended: where the next one goes and the crc it chains from
 * (redo-record.ts, chained records) are kept in LMDB too (meta key "logTail": [generation u64 BE]
 * [offset u64 BE][crc u32 BE]), read and moved on inside the write transaction. So a file can be
 * an old generation's, reused (checkpointer.ts): writing into blocks the file already has does
 * not change its size, and its `fdatasync` then writes the data and flushes the disk's cache
 * without also writing the inode (2026-12-04: ~125 -> ~85 µs idle; 400 -> 260-380 µs under
 * oltp_update_non_index). A record of a transaction that did not commit is overwritten by the
 * next one (the tail in LMDB did not move), or left after the last record, where it does not
 * chain.
 */
import { closeSync, constants, fdatasync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { encodeTs } from './value-format.js';
import { counterValue, type EmbeddedDbs } from './commit-apply.js';
import { chainSeed, encodeChained, encodeRecord, recordCrc, type RedoOp, type RedoRecord, type RunPuts } from './redo-record.js';
import { runKey, runValue, type KeyRun } from '../key-run.js';
import { concatBytes } from '../../util/index.js';

export const LOG_SEQ_KEY = 'logSeq';
export const LOG_GEN_KEY = 'logGen';
export const LOG_TAIL_KEY = 'logTail';

/** Where the next record of generation `gen` goes, and the crc it chains from. */
export interface LogTail {
  readonly gen: bigint;
  readonly offset: number;
  readonly crc: number;
}

/** The stored tail if it is generation `gen`'s, else the start of that generation's file. */
export function tailOf(raw: Uint8Array | undefined, gen: bigint): LogTail {
  if (raw !== undefined && raw.length === 20) {
    const b = Buffer.from(raw.buffer, raw.byteOffset, raw.length);
    if (b.readBigUInt64BE(0) === gen) return { gen, offset: Number(b.readBigUInt64BE(8)), crc: b.readUInt32BE(16) };
  }
  return { gen, offset: 0, crc: chainSeed(gen) };
}

function encodeTail(t: LogTail): Buffer {
  const out = Buffer.allocUnsafe(20);
  out.writeBigUInt64BE(t.gen, 0);
  out.writeBigUInt64BE(BigInt(t.offset), 8);
  out.writeUInt32BE(t.crc, 16);
  return out;
}

export function logFileName(dir: string, gen: bigint): string {
  return join(dir, `redo.${gen}`);
}

/**
 * One generation's file as this process appends to and syncs it. Once retired (the generation
 * moved on) it takes no more appends; it syncs what it has not yet and closes its fd when no
 * sync is pending, so a commit that appended before the switch and asks for its sync after it
 * is answered from `synced` (never an fdatasync on a closed or reused fd).
 */
export class LogFile {
  /** Records this process appended / known fsync'd (counts, not offsets: any fsync covers all). */
  private appended = 0;
  private synced = 0;
  private syncing = false;
  private waiters: Array<{ upTo: number; resolve: () => void; reject: (err: unknown) => void }> = [];
  private retired = false;
  private closed = false;
  private failure: unknown;
  private syncQueued = false;

  constructor(
    readonly gen: bigint,
    private readonly path: string,
    private readonly fd: number,
    private readonly onSyncFailure: (err: unknown) => void,
  ) {}

  /**
   * Writes `bytes` at `offset` (the caller holds LMDB's write lock and took the offset from the
   * log's tail). A failed write throws the OS error with this file's path (`path`), so the store
   * can name it (a failed fdatasync carries it too).
   */
  append(bytes: Buffer, offset: number): number {
    if (this.retired) throw new Error(`redo log generation ${this.gen} is retired`);
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, offset + done);
    } catch (err) {
      // What was written is past the tail LMDB keeps: the next record overwrites it.
      if (err instanceof Error) Object.assign(err, { path: this.path });
      throw err;
    }
    this.syncSoon();
    return ++this.appended;
  }

  /** Appended records known to be on disk (a count, as `append` returns). */
  get syncedCount(): number {
    return this.synced;
  }

  /**
   * Starts the fdatasync of everything appended once the current JavaScript job ends (a
   * microtask), without waiting for a commit to ask. lmdb-js runs a write batch's callbacks in one
   * job, so one fdatasync covers the whole batch, and it runs while lmdb-js's write thread
   * commits the batch to LMDB rather than after (a commit is acknowledged when both are done).
   */
  private syncSoon(): void {
    if (this.syncQueued) return;
    this.syncQueued = true;
    queueMicrotask(() => {
      this.syncQueued = false;
      this.sync(this.appended).catch(() => undefined);
    });
  }

  /** Resolves once an fdatasync that started after append number `upTo` finished. */
  sync(upTo: number): Promise<void> {
    if (upTo <= this.synced) return Promise.resolve();
    // After a failed fdatasync a later one can succeed although the pages that failed are lost:
    // an append that no sync covered before the failure is never acknowledged.
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error(`redo log generation ${this.gen} closed unsynced`));
    return new Promise((resolve, reject) => {
      this.waiters.push({ upTo, resolve, reject });
      this.kick();
    });
  }

  /**
   * fdatasync on this thread, now, unless append number `upTo` is known synced (a lone commit,
   * lone-commits.ts). A failure breaks the log as a failed asynchronous sync does, and throws.
   */
  syncNow(upTo: number): void {
    if (upTo <= this.synced) return;
    if (this.failure !== undefined) throw this.failure; // as in sync()
    if (this.closed) throw new Error(`redo log generation ${this.gen} closed unsynced`);
    const target = this.appended;
    try {
      fdatasyncSync(this.fd);
    } catch (err) {
      if (err instanceof Error) Object.assign(err, { path: this.path });
      this.failure = err;
      this.onSyncFailure(err);
      throw err;
    }
    if (target > this.synced) this.synced = target;
  }

  /** No more appends: syncs what is left, then closes the fd. */
  retire(): void {
    this.retired = true;
    if (this.synced < this.appended) this.sync(this.appended).catch(() => undefined);
    else this.closeIfIdle();
  }

  private closeIfIdle(): void {
    if (!this.retired || this.closed || this.syncing || this.waiters.length > 0) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private kick(): void {
    if (this.syncing || this.waiters.length === 0) return;
    this.syncing = true;
    const target = this.appended;
    fdatasync(this.fd, (err) => this.onSynced(target, err));
  }

  private onSynced(target: number, err: NodeJS.ErrnoException | null): void {
    this.syncing = false;
    const waiting = this.waiters;
    this.waiters = [];
    if (err !== null) {
      Object.assign(err, { path: this.path });
      this.failure = err;
      this.onSyncFailure(err);
      for (const w of waiting) w.reject(err);
    } else {
      if (target > this.synced) this.synced = target; // syncNow may have gone further
      for (const w of waiting) {
        if (w.upTo <= target) w.resolve();
        else this.waiters.push(w);
      }
    }
    if (this.waiters.length > 0) this.kick();
    else this.closeIfIdle();
  }
}

/** A record appended: wait for `file.sync(count)` before acknowledging. */
export interface Appended {
  readonly file: LogFile;
  readonly count: number;
}

/** Records up to this size are encoded into the log's reused buffer (larger ones into a buffer of their own). */
const SCRATCH_MAX = 16 << 20;

/**
 * This process's side of the log: the open file of the current generation, and one buffer that
 * every record is encoded into. A record's bytes are needed only while its transaction's callback
 * runs (written, then applied from), and a fresh buffer per record costs page faults: a bulk
 * INSERT's or an index build's record is hundreds of KB, which the allocator maps anew each time.
 */
export class RedoLog {
  private file: LogFile | undefined;
  private scratch = Buffer.allocUnsafe(0);
  private readonly alloc = (size: number): Buffer => {
    if (size > SCRATCH_MAX) return Buffer.allocUnsafe(size);
    if (size > this.scratch.length) this.scratch = Buffer.allocUnsafe(Math.min(SCRATCH_MAX, Math.max(size, 2 * this.scratch.length, 64 << 10)));
    return this.scratch.subarray(0, size);
  };
  /** Set when an fdatasync failed: the kernel may have dropped the unsynced pages, so no later sync can be trusted. */
  private broken: unknown;

  constructor(private readonly dir: string) {}

  /**
   * Inside a write transaction: writes `rec` chained at the tail of generation `gen`'s file (`raw`
   * is meta's "logTail") and returns the tail to store after it. `bytes` lies in the log's reused
   * buffer: valid until this log's next append.
   */
  append(gen: bigint, raw: Uint8Array | undefined, rec: RedoRecord): Appended & { readonly tail: Buffer; readonly bytes: Buffer } {
    if (this.broken !== undefined) throw new Error(`redo log unusable after a failed fdatasync: ${String(this.broken)}`);
    const tail = tailOf(raw, gen);
    const bytes = encodeChained(rec, tail.crc, this.alloc);
    const file = this.fileFor(gen);
    const count = file.append(bytes, tail.offset);
    return { file, count, bytes, tail: encodeTail({ gen, offset: tail.offset + bytes.length, crc: recordCrc(bytes) }) };
  }

  /**
   * Inside a write transaction on `meta`: writes `rec` at the tail of the current generation's
   * file (meta's "logGen" and "logTail") and moves the tail on in the same transaction. Returns
   * the record's bytes too (valid until the next append, see append).
   */
  appendIn(meta: EmbeddedDbs['meta'], rec: RedoRecord): Appended & { readonly bytes: Buffer } {
    const gen = counterValue(meta.getBinaryFast(LOG_GEN_KEY));
    const written = this.append(gen, meta.getBinaryFast(LOG_TAIL_KEY), rec);
    void meta.put(LOG_TAIL_KEY, written.tail);
    return written;
  }

  close(): void {
    this.file?.retire();
    this.file = undefined;
  }

  private fileFor(gen: bigint): LogFile {
    if (this.file?.gen === gen) return this.file;
    const path = logFileName(this.dir, gen);
    // Not O_APPEND: records go where the tail says (a reused file is longer than its records).
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644);
    this.file?.retire();
    this.file = new LogFile(gen, path, fd, (err) => {
      this.broken ??= err;
    });
    return this.file;
  }
}

/**
 * After a write batch failed for good (nothing of it committed, its callers get an error): logs
 * a mark of the committed sequence in a transaction of its own and waits for its fsync. The mark
 * is written at the tail LMDB kept, over the failed batch's first record, and whatever of the
 * batch lies after it no longer chains (redo-record.ts); without the mark, a failed record with
 * nothing after it would be replayed after a crash, resurrecting a write its client was told had
 * failed.
 */
export async function markFailedBatch(dbs: EmbeddedDbs, log: RedoLog): Promise<void> {
  const appended = await dbs.data.transaction(() => {
    const meta = dbs.meta;
    return log.appendIn(meta, { kind: 'mark', base: counterValue(meta.getBinaryFast(LOG_SEQ_KEY)) });
  });
  await appended.file.sync(appended.count);
}

/**
 * One transaction's writes, recorded and then applied: finish() appends the record first and
 * only then writes to LMDB, so a failed append (a full disk) leaves nothing of this transaction
 * in the write batch it shares with other commits (a write transaction has no child
 * transactions under LMDB's WRITEMAP, data-file-room.ts). Once the first write is made, only
 * LMDB can fail, and a failed LMDB write fails the whole batch (the transaction is then unusable
 * and its commit refused), whose records recovery drops (markFailedBatch). Without a log (the
 * store opened with LMDB syncing each commit) it only writes.
 */
export class LoggedWrites {
  private readonly ops: RedoOp[] = [];
  private run: RunPuts | undefined;

  constructor(
    private readonly dbs: EmbeddedDbs,
    private readonly log: RedoLog | undefined,
  ) {}

  put(db: 'data' | 'tombs', key: Uint8Array, value: Uint8Array): void {
    this.ops.push({ db, op: 'put', key, value });
  }

  /** A put into `meta`, whose keys are names. */
  putMeta(name: string, value: Buffer): void {
    this.ops.push({ db: 'meta', op: 'put', key: Buffer.from(name), value });
  }

  remove(db: 'data' | 'tombs', key: Uint8Array): void {
    this.ops.push({ db, op: 'remove', key });
  }

  /** Puts into `data` of every key of `run`, each stored as `header` followed by the key's value. */
  putRun(run: KeyRun, header: Uint8Array): void {
    this.run = { run, header };
  }

  /**
   * Last step inside the transaction: logs the writes (nothing if there are none), then makes
   * them, with one native call over the record's bytes where the add-on has it (native-apply.ts).
   */
  finish(): Appended | undefined {
    if (this.ops.length === 0) return undefined;
    const meta = this.dbs.meta;
    if (this.log === undefined) {
      this.apply(() => encodeRecord(this.record(0n)));
      return undefined;
    }
    const base = counterValue(meta.getBinaryFast(LOG_SEQ_KEY));
    const appended = this.log.appendIn(meta, this.record(base));
    this.apply(() => appended.bytes);
    void meta.put(LOG_SEQ_KEY, encodeTs(base + 1n));
    return appended;
  }

  private record(base: bigint): RedoRecord {
    return this.run === undefined ? { kind: 'writes', base, ops: this.ops } : { kind: 'writes', base, ops: this.ops, run: this.run };
  }

  /** Makes the writes: natively from the record's bytes (`record`, asked for only then), else one by one. */
  private apply(record: () => Buffer): void {
    const applier = this.dbs.applier;
    if (applier !== undefined) {
      applier.applyRecord(record());
      return;
    }
    for (const op of this.ops) applyWrite(this.dbs, op);
    if (this.run === undefined) return;
    const { run, header } = this.run;
    for (let i = run.from; i < run.to; i++) void this.dbs.data.put(runKey(run, i), concatBytes([header, runValue(run, i)]) as Buffer);
  }
}

/** One recorded write, made in the current write transaction (commits, and recovery's replay). */
export function applyWrite(dbs: EmbeddedDbs, op: RedoOp): void {
  if (op.db === 'meta') {
    if (op.op === 'put') void dbs.meta.put(Buffer.from(op.key).toString('utf8'), op.value as Buffer);
    else dbs.meta.removeSync(Buffer.from(op.key).toString('utf8'));
  } else if (op.op === 'put') {
    void dbs[op.db].put(op.key, op.value as Buffer);
  } else {
    dbs[op.db].removeSync(op.key);
  }
}
