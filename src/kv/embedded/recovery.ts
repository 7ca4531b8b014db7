/**
 * Recovery of a store that ran with the redo log (redo-log.ts, checkpointer.ts).
 *
 * After a process crash on the same boot nothing is needed: every LMDB commit went to the
 * kernel's page cache, which survived, and the next checkpoint makes it durable. After an OS
 * crash or power loss (the boot id differs from the checkpoint's), the data file may hold any
 * mix of pages written since the last checkpoint, including meta pages that point at pages
 * never written. Recovery, before LMDB opens the file, writes the checkpoint's meta pages back
 * (restoreCheckpoint: the file is then the checkpoint's state, whose pages nothing overwrote),
 * and after it opened, applies the logged transactions that committed since (replayLog).
 */
import { closeSync, fdatasyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RootDatabase } from 'lmdb';
import { counterValue, type EmbeddedDbs } from './commit-apply.js';
import { createDurablySync, readCheckpoint, type Checkpoint } from './checkpoint-file.js';
import { applyWrite, LOG_GEN_KEY, LOG_SEQ_KEY, LOG_TAIL_KEY, logFileName } from './redo-log.js';
import { LOG_OWNER_KEY, logGenerations } from './checkpointer.js';
import { committedChain, decodeChained, decodeRecords, isChainedLog, type RedoRecord } from './redo-record.js';
import { encodeTs } from './value-format.js';
import type { DataFileRoom } from './data-file-room.js';

const REPLAY_BATCH = 1000;

/** If the machine rebooted since the last checkpoint: puts its meta pages back and returns it. */
export function restoreCheckpoint(dir: string, bootId: string): Checkpoint | undefined {
  const c = readCheckpoint(dir);
  if (c === undefined || c.bootId === bootId) return undefined;
  const fd = openSync(join(dir, 'data.mdb'), 'r+');
  try {
    if (writeSync(fd, c.metas, 0, c.metas.length, 0) !== c.metas.length) throw new Error('short write of the meta pages');
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return c;
}

/** The records logged since checkpoint `c`, in order; only the last file may end torn. */
export function loggedSince(dir: string, c: Checkpoint): RedoRecord[] {
  const gens = logGenerations(dir).filter((g) => g >= c.gen);
  const records: RedoRecord[] = [];
  gens.forEach((gen, i) => {
    const buf = readFileSync(logFileName(dir, gen));
    // A file written in place ends where its chain does; one written before chaining may end torn.
    const decoded = isChainedLog(buf) ? { records: decodeChained(buf, gen), tornAt: undefined } : decodeRecords(buf);
    if (decoded.tornAt !== undefined && i < gens.length - 1) {
      throw new Error(`${logFileName(dir, gen)}: damaged record at byte ${decoded.tornAt} before the log's end`);
    }
    for (const rec of decoded.records) records.push(rec); // no spread: a long log would exceed the argument limit
  });
  return records;
}

/** Applies what committed since checkpoint `c` (LMDB open on the restored file); returns how many transactions. */
export function replayLog(dir: string, root: RootDatabase<Buffer, string>, dbs: EmbeddedDbs, c: Checkpoint, room?: DataFileRoom): number {
  const seq = counterValue(dbs.meta.getBinaryFast(LOG_SEQ_KEY));
  if (seq !== c.seq) throw new Error(`${dir}: data file at log sequence ${seq} after restoring the checkpoint of sequence ${c.seq}`);
  const chain = committedChain(loggedSince(dir, c), c.seq);
  for (let i = 0; i < chain.length; i += REPLAY_BATCH) {
    const part = chain.slice(i, i + REPLAY_BATCH);
    room?.ensure(replayBound(room, part));
    root.transactionSync(() => {
      for (const rec of part) {
        for (const op of rec.ops) applyWrite(dbs, op);
        void dbs.meta.putSync(LOG_SEQ_KEY, encodeTs(rec.base + 1n));
      }
    });
  }
  // Later records go to a generation no file has used yet (so none lands in the middle of a
  // replayed file, whose tail LMDB no longer knows), and the next checkpoint takes the lease afresh.
  const gens = logGenerations(dir);
  const last = gens.length === 0 ? c.gen : (gens[gens.length - 1] as bigint);
  const next = (last > c.gen ? last : c.gen) + 1n;
  createDurablySync(dir, logFileName(dir, next));
  root.transactionSync(() => {
    void dbs.meta.putSync(LOG_GEN_KEY, encodeTs(next));
    void dbs.meta.removeSync(LOG_TAIL_KEY);
    void dbs.meta.removeSync(LOG_OWNER_KEY);
  });
  return chain.length;
}

/** Upper bound of the bytes a replay batch adds to the data file (data-file-room.ts). */
function replayBound(room: DataFileRoom, part: readonly RedoRecord[]): number {
  let ops = 0;
  let bytes = 0;
  for (const rec of part) {
    if (rec.kind !== 'writes') continue;
    ops += rec.ops.length + 1;
    for (const op of rec.ops) bytes += op.key.length + (op.op === 'put' ? op.value.length : 0);
  }
  return room.boundOfWrites(ops, 32) + bytes;
}
