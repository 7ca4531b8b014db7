import type { Database, Transaction } from 'lmdb';
import type { CommitRequest, Mutation } from '../kv.js';
import { compareBytes, keyNext } from '../../util/index.js';
import { getFastIn } from './lmdb-snapshot.js';
import type { NativeApplier } from './native-apply.js';
import { LoggedWrites, type Appended, type RedoLog } from './redo-log.js';
import { runConflict } from './run-check.js';
import { encodeTombstone, encodeTs, HEADER_BYTES, isLive, readTs, storedAfter, writeLive } from './value-format.js';

export const COUNTER_KEY = 'commitTs';
export const GC_SAFE_POINT_KEY = 'gcSafePoint';
const TOMB_MARK = Buffer.from([1]);
const NO_PAYLOAD = new Uint8Array(0);

/** The three LMDB databases of one embedded store. */
export interface EmbeddedDbs {
  /** User keys -> [commitTs][kind][payload] (see value-format.ts). */
  readonly data: Database<Buffer, Uint8Array>;
  /** 'commitTs' and 'gcSafePoint' counters. */
  readonly meta: Database<Buffer, string>;
  /** [commitTs 8B BE][user key] -> 0x01, one entry per tombstone written (for GC). */
  readonly tombs: Database<Buffer, Uint8Array>;
  /** Makes a commit's writes in one native call; undefined with lmdb-js's prebuilt add-on. */
  readonly applier?: NativeApplier | undefined;
}

export type CommitOutcome =
  | { readonly kind: 'ok'; readonly commitTs: bigint; readonly logged?: Appended | undefined }
  | { readonly kind: 'conflict'; readonly key: Uint8Array }
  | { readonly kind: 'exists'; readonly key: Uint8Array }
  | { readonly kind: 'too-old'; readonly safePoint: bigint };

/** A stored 8-byte counter's value; absent = 0. */
export function counterValue(raw: Uint8Array | undefined): bigint {
  return raw === undefined ? 0n : readTs(raw);
}

/** Reads an 8-byte counter from `meta` in the current (read or write) transaction; absent = 0. */
export function readCounter(meta: Database<Buffer, string>, name: string): bigint {
  return counterValue(meta.getBinaryFast(name));
}

/** Where a commit's checks read: the write transaction being built, or a read transaction. */
interface CheckReads {
  data(key: Uint8Array): Buffer | undefined;
  meta(name: string): Buffer | undefined;
  /** True if no key at all is stored in [lo, hi] (optional: without it each key is looked up). */
  emptyBetween?(lo: Uint8Array, hi: Uint8Array): boolean;
}

/** Checked mutations from which one walk over their stretch pays (below, the lookups are as cheap). */
const STRETCH_MIN = 64;

/**
 * The commit's checks (nothing written): a snapshot older than the tombstone-GC safe point is
 * refused (its conflicts may have been collected), and first committer wins on each mutated (but
 * derived, kv.ts Mutation) and checked key, counted from startTs or from the key's own later
 * `since` (a current read); a mutation marked `absent` must find no live value. Undefined when
 * they pass.
 */
function checkCommit(req: CommitRequest, reads: CheckReads): CommitOutcome | undefined {
  const safePoint = counterValue(reads.meta(GC_SAFE_POINT_KEY));
  if (req.startTs < safePoint) return { kind: 'too-old', safePoint };
  const base = new SinceBytes(req.startTs);
  const mutations = reads.emptyBetween !== undefined && emptyStretch(req.mutations, reads.emptyBetween) ? [] : req.mutations;
  for (const m of mutations) {
    if (m.derived === true) continue;
    const stored = reads.data(m.key);
    if (changedSince(stored, base.of(m.since))) return { kind: 'conflict', key: m.key };
    if (m.absent === true && stored !== undefined && isLive(stored)) return { kind: 'exists', key: m.key };
  }
  for (const key of req.checkKeys) {
    if (changedSince(reads.data(key), base.of(undefined))) return { kind: 'conflict', key };
  }
  for (const c of req.laterChecks ?? []) {
    if (changedSince(reads.data(c.key), base.of(c.since))) return { kind: 'conflict', key: c.key };
  }
  return undefined;
}

/**
 * True if a commit has at least STRETCH_MIN checked (not derived) mutations and nothing is stored
 * between the smallest and the largest of their keys: then every one of them passes its check
 * (no stored version to be newer than the snapshot, no live value for an `absent` put) and one
 * cursor descent replaces a lookup per key. A multi-row INSERT of fresh AUTO_INCREMENT ids
 * writes into such an empty stretch (sysbench's prepare: 2,716 rows a statement). Anything
 * stored in the stretch (another row, a tombstone) sends the commit back to the lookups.
 *
 * Example: puts of t5_r0001 … t5_r0100 with the table's rows stored up to t5_r0000: nothing in
 * [t5_r0001, t5_r0100], so all 100 pass; with a tombstone at t5_r0050 each key is looked up.
 */
function emptyStretch(mutations: readonly Mutation[], emptyBetween: (lo: Uint8Array, hi: Uint8Array) => boolean): boolean {
  let lo: Uint8Array | undefined;
  let hi: Uint8Array | undefined;
  let checked = 0;
  for (const m of mutations) {
    if (m.derived === true) continue;
    checked++;
    if (lo === undefined || hi === undefined) {
      lo = m.key;
      hi = m.key;
    } else if (compareBytes(m.key, hi) > 0) hi = m.key;
    else if (compareBytes(m.key, lo) < 0) lo = m.key;
  }
  return checked >= STRETCH_MIN && lo !== undefined && hi !== undefined && emptyBetween(lo, hi);
}

/** A check's base timestamp as encodeTs bytes: startTs's, or the last other `since` asked for (a commit has one or few). */
class SinceBytes {
  private readonly start: Uint8Array;
  private lastTs = -1n;
  private last: Uint8Array = new Uint8Array(0);

  constructor(private readonly startTs: bigint) {
    this.start = encodeTs(startTs);
  }

  of(since: bigint | undefined): Uint8Array {
    if (since === undefined || since === this.startTs) return this.start;
    if (since !== this.lastTs) {
      this.lastTs = since;
      this.last = encodeTs(since);
    }
    return this.last;
  }
}

/** True if the stored version was committed (put or delete) after the snapshot `startBytes` (encodeTs) encodes. */
function changedSince(stored: Buffer | undefined, startBytes: Uint8Array): boolean {
  return stored !== undefined && storedAfter(stored, startBytes);
}

/**
 * A commit without mutations (only keys a statement locked, e.g. a DELETE that found no row),
 * checked in read transaction `txn` instead of the write queue. With nothing to write, the
 * commit takes effect at `txn`'s snapshot: its reads at startTs are still current there iff no
 * checked key changed in between, and placing a write-free transaction there breaks no other
 * transaction's view. So it waits for no write batch and no fsync. `txn` must be at least as
 * new as the snapshot at startTs (lmdb-js's current read transaction is).
 */
export function checkOnlyCommit(dbs: EmbeddedDbs, req: CommitRequest, txn: Transaction): CommitOutcome {
  const opts = { transaction: txn };
  const reads: CheckReads = { data: (key) => getFastIn(dbs.data, key, opts), meta: (name) => getFastIn(dbs.meta, name, opts) };
  const failed = checkCommit(req, reads);
  if (failed !== undefined) return failed;
  return { kind: 'ok', commitTs: counterValue(reads.meta(COUNTER_KEY)) };
}

/**
 * Conflict check + apply, run synchronously INSIDE one LMDB write transaction (shared with the
 * other commits of the batch), so it is serialized against every other commit of every process.
 * Nothing is written unless the whole request passes (checkCommit) and its log record was
 * appended (LoggedWrites.finish). The request has mutations or a key run (run-check.ts):
 * EmbeddedStore.commit sends a commit with neither to checkOnlyCommit.
 */
export function applyCommit(dbs: EmbeddedDbs, req: CommitRequest, log: RedoLog | undefined): CommitOutcome {
  const { data, meta } = dbs;
  const failed = checkCommit(req, { data: (key) => data.getBinaryFast(key), meta: (name) => meta.getBinaryFast(name), emptyBetween: (lo, hi) => nothingStored(data, lo, hi) });
  if (failed !== undefined) return failed;
  const runFailed = req.run === undefined ? undefined : runConflict(data, req.run, encodeTs(req.startTs));
  if (runFailed !== undefined) return { kind: 'conflict', key: runFailed };
  const commitTs = readCounter(meta, COUNTER_KEY) + 1n;
  const tsBytes = encodeTs(commitTs);
  // LMDB copies each value during put(), so the values of a commit share one region.
  const region = Buffer.allocUnsafe(liveBytes(req));
  const w = new LoggedWrites(dbs, log);
  let at = 0;
  for (const m of req.mutations) {
    if (m.op === 'put') {
      const end = writeLive(region, at, tsBytes, m.value);
      w.put('data', m.key, region.subarray(at, end));
      at = end;
    } else if (m.derived === true) {
      // Nothing checks a derived key's commit time, so its delete keeps no tombstone.
      w.remove('data', m.key);
    } else {
      w.put('data', m.key, encodeTombstone(commitTs));
      w.put('tombs', tombIndexKey(tsBytes, m.key), TOMB_MARK);
    }
  }
  if (req.run !== undefined) {
    const header = new Uint8Array(HEADER_BYTES);
    writeLive(header, 0, tsBytes, NO_PAYLOAD);
    w.putRun(req.run, header);
  }
  w.putMeta(COUNTER_KEY, tsBytes);
  return { kind: 'ok', commitTs, logged: w.finish() };
}

/** True if `data` holds no key in [lo, hi] (read in the write transaction, inside its callback). */
function nothingStored(data: Database<Buffer, Uint8Array>, lo: Uint8Array, hi: Uint8Array): boolean {
  for (const _ of data.getKeys({ start: lo, end: keyNext(hi), limit: 1 })) return false;
  return true;
}

/** Bytes of the commit's live values as stored (header + payload each). */
function liveBytes(req: CommitRequest): number {
  let n = 0;
  for (const m of req.mutations) if (m.op === 'put') n += HEADER_BYTES + m.value.length;
  return n;
}

export function tombIndexKey(tsBytes: Uint8Array, key: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(8 + key.length);
  out.set(tsBytes, 0);
  out.set(key, 8);
  return out;
}
