/**
 * Checkpoints of a store that runs with the redo log (redo-log.ts): how the log is kept short
 * and how LMDB's unsynced data file is kept recoverable.
 *
 * One process per data directory checkpoints (it holds the lease: meta key "logOwner", its pid
 * and a heartbeat; any process takes the lease over when the holder's pid is gone or its
 * heartbeat is 10 s old). A checkpoint, every checkpointMs (5 s) while there are writes:
 *
 * 1. creates the next generation's log file (the kept spare renamed, if there is one) and fsyncs
 *    the directory;
 * 2. under LMDB's write lock (a synchronous write transaction, so no batch is half-done):
 *    copies LMDB's two meta pages (they describe the last committed state, T), opens a read
 *    transaction (at T or older: while it is open LMDB never reuses a page of T's tree), reads
 *    T's log sequence and switches "logGen" to the new generation, so every later transaction
 *    logs into the new file;
 * 3. fdatasyncs the data file: T's pages are now on disk, and no later write touches them;
 * 4. writes the checkpoint file {meta pages, new generation, T's sequence, boot id} durably;
 * 5. ends the previous checkpoint's read transaction and deletes older generations' files, but
 *    keeps the newest of them for reuse as a later generation's (log-recycle.ts).
 *
 * After an OS crash (recovery.ts) the saved meta pages put back make the data file state T
 * again whatever the kernel did or did not write since, and the log from the checkpoint's
 * generation replays everything after T. A crash between steps leaves the previous checkpoint
 * valid: its read transaction is ended and its files deleted only in step 5.
 */
import { closeSync, existsSync, fdatasync, fdatasyncSync, openSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { unlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { RootDatabase, Transaction } from 'lmdb';
import { counterValue, type EmbeddedDbs } from './commit-apply.js';
import { createDurably, createDurablySync, fsyncPath, readMetaPages, writeCheckpoint, writeCheckpointAsync, type Checkpoint } from './checkpoint-file.js';
import { LOG_GEN_KEY, LOG_SEQ_KEY, logFileName } from './redo-log.js';
import { keepSpare, takeSpare } from './log-recycle.js';
import { encodeTs } from './value-format.js';
import { pidAlive } from '../../util/index.js';

export const LOG_OWNER_KEY = 'logOwner';
const LEASE_STALE_MS = 10_000;
const HEARTBEAT_MS = 3_000;

/** The log generations present in `dir`, ascending. */
export function logGenerations(dir: string): bigint[] {
  const gens: bigint[] = [];
  for (const name of readdirSync(dir)) {
    const m = /^redo\.(\d+)$/.exec(name);
    if (m !== null) gens.push(BigInt(m[1] as string));
  }
  return gens.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

interface Plan {
  readonly now: number;
  readonly oldGen: bigint;
  readonly gen: bigint;
}

interface Taken {
  readonly pageSize: number;
  readonly metas: Buffer;
  readonly gen: bigint;
  readonly pin: Transaction;
  readonly seq: bigint;
}

/** fsync of `path`, which may not exist (a generation nothing was ever logged into: gen 0 of a new store). */
function syncIfExists(path: string): void {
  if (existsSync(path)) fsyncPath(path);
}

export class Checkpointer {
  private pin: Transaction | undefined;
  private lastSeq = -1n;
  private lastBeat = 0;
  /** When the last checkpoint of this process switched generations (0: none yet). */
  private lastCheckpoint = 0;
  private running = false;
  /** The tick in flight (or the last one): close() waits for it before closing the data file. */
  private current: Promise<boolean> = Promise.resolve(false);
  private readonly dataFd: number;

  constructor(
    private readonly dir: string,
    private readonly root: RootDatabase<Buffer, string>,
    private readonly dbs: EmbeddedDbs,
    private readonly bootId: string,
    /** A timer tick checkpoints at most this often (forced ones always run). */
    private readonly intervalMs = 0,
  ) {
    this.dataFd = openSync(join(dir, 'data.mdb'), 'r');
  }

  /**
   * One tick: checkpoints if this process holds (or may take) the lease and the log moved (or
   * `force`). Only step 2 blocks the thread (briefly, holding the write lock); the file I/O of
   * the other steps runs on libuv's pool, so the commits this process serves keep flowing.
   */
  tick(force = false): Promise<boolean> {
    if (this.running) return Promise.resolve(false);
    this.running = true;
    this.current = this.runTick(force).finally(() => {
      this.running = false;
    });
    return this.current;
  }

  /** Resolves once no tick is running (whatever its outcome: the caller of tick() handles that). */
  async idle(): Promise<void> {
    while (this.running) await this.current.catch(() => false);
  }

  private async runTick(force: boolean): Promise<boolean> {
    const plan = this.plan(force);
    if (plan === undefined) return false;
    await createDurably(this.dir, logFileName(this.dir, plan.gen), takeSpare);
    const taken = this.switchGeneration(plan);
    if (taken === undefined) return false;
    await promisify(fdatasync)(this.dataFd);
    await writeCheckpointAsync(this.dir, this.checkpointOf(taken));
    // Deleting a log file of many MB takes milliseconds: off the event loop.
    await Promise.all(this.adopt(taken).map((path) => unlink(path)));
    return true;
  }

  /** A checkpoint now, blocking (at open and close), if this process holds or may take the lease. */
  checkpointNow(): boolean {
    if (this.running) return false;
    const plan = this.plan(true);
    if (plan === undefined) return false;
    createDurablySync(this.dir, logFileName(this.dir, plan.gen), takeSpare);
    const taken = this.switchGeneration(plan);
    if (taken === undefined) return false;
    fdatasyncSync(this.dataFd);
    writeCheckpoint(this.dir, this.checkpointOf(taken));
    for (const path of this.adopt(taken)) unlinkSync(path);
    return true;
  }

  /** Gives the lease up (if held) and ends the read transaction of the last checkpoint; after idle(). */
  close(): void {
    this.root.transactionSync(() => {
      if (leaseHolder(this.dbs.meta.getBinaryFast(LOG_OWNER_KEY))?.pid === process.pid) void this.dbs.meta.removeSync(LOG_OWNER_KEY);
    });
    this.pin?.done();
    this.pin = undefined;
    closeSync(this.dataFd);
  }

  /** Whether to checkpoint now, and the generation it starts (step 1 creates its file). */
  private plan(force: boolean): Plan | undefined {
    const now = Date.now();
    const meta = this.dbs.meta;
    const seqNow = counterValue(meta.getBinaryFast(LOG_SEQ_KEY));
    const owner = meta.getBinaryFast(LOG_OWNER_KEY);
    if (!this.mayOwn(owner, now)) return undefined;
    // Taking the lease over always checkpoints: the last checkpoint's read transaction died with its holder.
    const held = leaseHolder(owner)?.pid === process.pid;
    if (!force && held && (seqNow === this.lastSeq || now - this.lastCheckpoint < this.intervalMs)) {
      // Nothing logged since the last checkpoint, or too soon for another: only keep the lease fresh (no fsync).
      if (now - this.lastBeat >= HEARTBEAT_MS) this.heartbeat(now);
      return undefined;
    }
    const oldGen = counterValue(meta.getBinaryFast(LOG_GEN_KEY));
    return { now, oldGen, gen: oldGen + 1n };
  }

  /** Step 2 (see the file comment), under the write lock; undefined if the lease or generation moved meanwhile. */
  private switchGeneration(plan: Plan): Taken | undefined {
    const meta = this.dbs.meta;
    let taken: Taken | undefined;
    this.root.transactionSync(() => {
      if (!this.mayOwn(meta.getBinaryFast(LOG_OWNER_KEY), plan.now) || counterValue(meta.getBinaryFast(LOG_GEN_KEY)) !== plan.oldGen) return;
      // Every record of the old generation is on disk before any of the new one can be
      // acknowledged: recovery may need both, and a later file's records build on earlier ones.
      syncIfExists(logFileName(this.dir, plan.oldGen));
      const pages = readMetaPages(this.dataFd);
      taken = { ...pages, gen: plan.gen, pin: this.newestSnapshot(), seq: counterValue(meta.getBinaryFast(LOG_SEQ_KEY)) };
      void meta.putSync(LOG_OWNER_KEY, lease(process.pid, plan.now));
      void meta.putSync(LOG_GEN_KEY, encodeTs(plan.gen));
    });
    if (taken !== undefined) {
      this.lastBeat = plan.now;
      this.lastCheckpoint = plan.now;
    }
    return taken;
  }

  /**
   * Under the write lock: a read transaction on the newest commit, the one whose meta pages were
   * just copied. lmdb-js hands out one shared read transaction per event-loop turn, which may be
   * older than a commit another process (or this one's write thread) made since; it is reset
   * first. The pin must be exactly that snapshot: LMDB reuses pages written after the oldest
   * reader once no reader holds them (scripts/lmdb-young-pages.mjs), so an older pin would not
   * keep the checkpoint's own tree.
   */
  private newestSnapshot(): Transaction {
    this.dbs.data.resetReadTxn();
    return this.dbs.data.useReadTransaction();
  }

  /** Renews the lease this process holds (an LMDB write, synced by the next checkpoint or never needed). */
  private heartbeat(now: number): void {
    const meta = this.dbs.meta;
    this.root.transactionSync(() => {
      if (this.mayOwn(meta.getBinaryFast(LOG_OWNER_KEY), now)) void meta.putSync(LOG_OWNER_KEY, lease(process.pid, now));
    });
    this.lastBeat = now;
  }

  private checkpointOf(taken: Taken): Checkpoint {
    return { pageSize: taken.pageSize, gen: taken.gen, seq: taken.seq, bootId: this.bootId, metas: taken.metas };
  }

  /** Step 5, once the checkpoint file is written; returns the older generations' files for the caller to delete (one may be kept as the spare). */
  private adopt(taken: Taken): string[] {
    this.pin?.done();
    this.pin = taken.pin;
    this.lastSeq = taken.seq;
    const done = logGenerations(this.dir)
      .filter((old) => old < taken.gen)
      .map((old) => logFileName(this.dir, old));
    return keepSpare(this.dir, done);
  }

  /** True if the lease stored as `raw` is ours, free, or stale. */
  private mayOwn(raw: Buffer | undefined, now: number): boolean {
    const holder = leaseHolder(raw);
    if (holder === undefined || holder.pid === process.pid) return true;
    return now - holder.beat > LEASE_STALE_MS || !pidAlive(holder.pid);
  }
}

/** The lease as stored: [pid u64 BE][heartbeat ms u64 BE]; undefined if there is none. */
function leaseHolder(raw: Buffer | undefined): { pid: number; beat: number } | undefined {
  if (raw === undefined || raw.length !== 16) return undefined;
  return { pid: Number(raw.readBigUInt64BE(0)), beat: Number(raw.readBigUInt64BE(8)) };
}

function lease(pid: number, now: number): Buffer {
  const out = Buffer.alloc(16);
  out.writeBigUInt64BE(BigInt(pid), 0);
  out.writeBigUInt64BE(BigInt(now), 8);
  return out;
}
