/**
 * Records of the embedded store's redo log (redo-log.ts) and how recovery picks the ones that
 * committed (committedChain).
 *
 * A record, little-endian:
 *
 *   [bodyLength u32][crc32(body) u32] body
 *   body = [kind u8][base u64] then, for kind 1 (writes): [opCount u32] ops
 *   op   = [db u8][op u8][keyLength u16] key, and for a put [valueLength u32] value
 *
 * kind 1 (writes) is one commit's (or batch's) changes, appended inside the LMDB write transaction:
 * `base` is the store's log sequence (meta key "logSeq") it read, and the transaction sets the
 * sequence to base + 1. kind 2 (mark) says "the committed sequence is `base`": any earlier record
 * that moved past it belonged to a transaction that never committed. db: 0 data, 1 meta, 2 tombs;
 * op: 0 put, 1 remove.
 *
 * Example: a put of key 6B ("k") = 01 02 into `data` on sequence 7 is
 *   18 00 00 00 | crc32 of the 24 body bytes | 01 | 07 00 00 00 00 00 00 00 | 01 00 00 00 |
 *   00 00 01 00 6B 02 00 00 00 01 02
 *
 * Chained records (kinds 3 = writes, 4 = mark; what the log writes since 2026-12-04) carry
 * [prev u32] after `base`: the crc field of the record before them in the same file, or for the
 * file's first record chainSeed(generation). A log file is written in place (redo-log.ts: the
 * offset of the next record is kept in LMDB, and old files are reused), so bytes after the last
 * record may be anything an earlier use of the file or a failed batch left there; a file's
 * records are exactly those that chain from its seed (decodeChained), and a stale record would
 * have to match a crc32 to be taken for one. The same put chained after a record whose crc field
 * is 0x11223344 has a 28-byte body:
 *   1C 00 00 00 | crc32 of the body | 03 | 07 00 00 00 00 00 00 00 | 44 33 22 11 | 01 00 00 00 |
 *   00 00 01 00 6B 02 00 00 00 01 02
 */
import { crc32 } from 'node:zlib';
import { copyRange } from '../../util/index.js';
import { runKeyLength, runKeyLengthOf, runLength, runValueLength, writeRunKey, writeRunValue, type KeyRun } from '../key-run.js';

export const DB_NAMES = ['data', 'meta', 'tombs'] as const;
export type DbName = (typeof DB_NAMES)[number];

export type RedoOp =
  | { readonly db: DbName; readonly op: 'put'; readonly key: Uint8Array; readonly value: Uint8Array }
  | { readonly db: DbName; readonly op: 'remove'; readonly key: Uint8Array };

/**
 * Puts into `data` of every key of a key run (kv key-run.ts), each stored as `header` (the
 * commit's value header: timestamp and kind) followed by the key's value, encoded after a
 * record's other ops as ordinary put ops, straight from the run's arena. A decoded record has
 * them among its ops.
 */
export interface RunPuts {
  readonly run: KeyRun;
  readonly header: Uint8Array;
}

export type RedoRecord =
  | { readonly kind: 'writes'; readonly base: bigint; readonly ops: readonly RedoOp[]; readonly run?: RunPuts }
  | { readonly kind: 'mark'; readonly base: bigint };

const HEAD = 8;
const KIND_WRITES = 1;
const KIND_MARK = 2;
const KIND_WRITES_CHAINED = 3;
const KIND_MARK_CHAINED = 4;
const MAX_KEY = 0xffff;

function opBytes(op: RedoOp): number {
  return 4 + op.key.length + (op.op === 'put' ? 4 + op.value.length : 0);
}

/** The record's bytes, header included (the unchained format, kinds 1 and 2). */
export function encodeRecord(rec: RedoRecord): Buffer {
  return encode(rec, undefined, Buffer.allocUnsafe);
}

/**
 * The record's bytes chained after a record whose crc field is `prev` (or after chainSeed), in a
 * buffer from `alloc` (default: a fresh one) of exactly the size asked for.
 */
export function encodeChained(rec: RedoRecord, prev: number, alloc: (size: number) => Buffer = Buffer.allocUnsafe): Buffer {
  return encode(rec, prev, alloc);
}

/** What the first record of generation `gen`'s file chains from. */
export function chainSeed(gen: bigint): number {
  const bytes = Buffer.alloc(20);
  bytes.write('shaledb-redo', 0, 'latin1');
  bytes.writeBigUInt64BE(gen, 12);
  return crc32(bytes);
}

/**
 * Where the ops of an encoded writes record (kind 1 or 3) begin; they run to its end. The native
 * apply (native-apply.ts) reads them from there.
 */
export function opsStart(bytes: Buffer): number {
  return HEAD + 1 + 8 + (bytes[HEAD] === KIND_WRITES_CHAINED ? 4 : 0) + 4;
}

/** The crc field of an encoded record: what the next record chains from. */
export function recordCrc(bytes: Buffer): number {
  return bytes.readUInt32LE(4);
}

function encode(rec: RedoRecord, prev: number | undefined, alloc: (size: number) => Buffer): Buffer {
  const chained = prev !== undefined;
  let body = chained ? 13 : 9;
  if (rec.kind === 'writes') {
    body += 4;
    for (const op of rec.ops) body += opBytes(op);
    if (rec.run !== undefined) body += runBytes(rec.run);
  }
  const out = alloc(HEAD + body);
  out.writeUInt32LE(body, 0);
  let at = HEAD;
  out[at++] = rec.kind === 'writes' ? (chained ? KIND_WRITES_CHAINED : KIND_WRITES) : chained ? KIND_MARK_CHAINED : KIND_MARK;
  out.writeBigUInt64LE(rec.base, at);
  at += 8;
  if (chained) {
    out.writeUInt32LE(prev, at);
    at += 4;
  }
  if (rec.kind === 'writes') {
    out.writeUInt32LE(rec.ops.length + (rec.run === undefined ? 0 : runLength(rec.run.run)), at);
    at += 4;
    for (const op of rec.ops) at = encodeOp(out, at, op);
    if (rec.run !== undefined) at = encodeRun(out, at, rec.run);
  }
  out.writeUInt32LE(crc32(out.subarray(HEAD)), 4);
  return out;
}

function encodeOp(out: Buffer, at: number, op: RedoOp): number {
  if (op.key.length > MAX_KEY) throw new Error(`redo log: key of ${op.key.length} bytes`);
  out[at] = DB_NAMES.indexOf(op.db);
  out[at + 1] = op.op === 'put' ? 0 : 1;
  out.writeUInt16LE(op.key.length, at + 2);
  out.set(op.key, at + 4);
  let end = at + 4 + op.key.length;
  if (op.op === 'put') {
    out.writeUInt32LE(op.value.length, end);
    out.set(op.value, end + 4);
    end += 4 + op.value.length;
  }
  return end;
}

function runBytes({ run, header }: RunPuts): number {
  const each = 8 + header.length + runValueLength(run);
  if (run.lengths === undefined) return runLength(run) * (each + runKeyLength(run));
  let bytes = 0;
  for (let i = run.from; i < run.to; i++) bytes += each + runKeyLengthOf(run, i);
  return bytes;
}

/** The run's puts as ops (encodeOp's layout), with the key and value bytes copied in place. */
function encodeRun(out: Buffer, at: number, { run, header }: RunPuts): number {
  if (runKeyLength(run) > MAX_KEY) throw new Error(`redo log: key of ${runKeyLength(run)} bytes`);
  const valueLength = header.length + runValueLength(run);
  for (let i = run.from; i < run.to; i++) {
    const keyLength = runKeyLengthOf(run, i);
    out[at] = 0; // data
    out[at + 1] = 0; // put
    out[at + 2] = keyLength & 0xff;
    out[at + 3] = keyLength >>> 8;
    at = writeRunKey(run, i, out, at + 4);
    out.writeUInt32LE(valueLength, at);
    at += 4;
    at = writeRunValue(run, i, out, copyRange(header, 0, header.length, out, at));
  }
  return at;
}

/**
 * The records of one log file in order. Reading stops at the first record that is cut short or
 * fails its checksum: a crash can leave a partly written last record, which was never
 * acknowledged (a commit is acknowledged only after the log is fsync'd past its record).
 * `tornAt` is where that happened (undefined if the file ended cleanly).
 */
export function decodeRecords(buf: Buffer): { records: RedoRecord[]; tornAt: number | undefined } {
  const records: RedoRecord[] = [];
  let at = 0;
  while (at < buf.length) {
    const rec = at + HEAD <= buf.length ? decodeAt(buf, at) : undefined;
    if (rec === undefined) return { records, tornAt: at };
    records.push(rec.record);
    at = rec.end;
  }
  return { records, tornAt: undefined };
}

/**
 * The records of one log file written in place (chained records): from the start, each record
 * that chains from the one before (the first from chainSeed(gen)); reading stops at the first
 * that does not, whatever follows. A file in the unchained format is read by decodeRecords.
 */
export function decodeChained(buf: Buffer, gen: bigint): RedoRecord[] {
  return readChain(buf, gen).records;
}

/** decodeChained, and the offset where the chain ends (where the next record would go). */
export function readChain(buf: Buffer, gen: bigint): { records: RedoRecord[]; end: number } {
  const records: RedoRecord[] = [];
  let prev = chainSeed(gen);
  let at = 0;
  for (;;) {
    const rec = at + HEAD <= buf.length ? decodeAt(buf, at, prev) : undefined;
    if (rec === undefined) return { records, end: at };
    records.push(rec.record);
    prev = buf.readUInt32LE(at + 4);
    at = rec.end;
  }
}

/** Whether a log file holds chained records (its first record's kind): decodeChained reads it. */
export function isChainedLog(buf: Buffer): boolean {
  const kind = buf.length > HEAD ? buf[HEAD] : undefined;
  return kind === KIND_WRITES_CHAINED || kind === KIND_MARK_CHAINED;
}

/** The record at `at`: unchained (prev undefined), or chained after a record whose crc field is `prev`. */
function decodeAt(buf: Buffer, at: number, prev?: number): { record: RedoRecord; end: number } | undefined {
  const len = buf.readUInt32LE(at);
  const end = at + HEAD + len;
  const head = prev === undefined ? 9 : 13;
  if (len < head || end > buf.length) return undefined;
  const body = buf.subarray(at + HEAD, end);
  if (crc32(body) !== buf.readUInt32LE(at + 4)) return undefined;
  const kind = body[0];
  const base = body.readBigUInt64LE(1);
  if (prev !== undefined && body.readUInt32LE(9) !== prev) return undefined;
  if (kind === (prev === undefined ? KIND_MARK : KIND_MARK_CHAINED) && len === head) return { record: { kind: 'mark', base }, end };
  if (kind !== (prev === undefined ? KIND_WRITES : KIND_WRITES_CHAINED) || len < head + 4) return undefined;
  const ops = decodeOps(body, head + 4, body.readUInt32LE(head));
  return ops === undefined ? undefined : { record: { kind: 'writes', base, ops }, end };
}

function decodeOps(body: Buffer, start: number, count: number): RedoOp[] | undefined {
  const ops: RedoOp[] = [];
  let at = start;
  for (let i = 0; i < count; i++) {
    if (at + 4 > body.length) return undefined;
    const db = DB_NAMES[body[at] as number];
    const kind = body[at + 1];
    const keyEnd = at + 4 + body.readUInt16LE(at + 2);
    if (db === undefined || keyEnd > body.length) return undefined;
    const key = body.subarray(at + 4, keyEnd);
    if (kind === 1) {
      ops.push({ db, op: 'remove', key });
      at = keyEnd;
      continue;
    }
    if (kind !== 0 || keyEnd + 4 > body.length) return undefined;
    const valueEnd = keyEnd + 4 + body.readUInt32LE(keyEnd);
    if (valueEnd > body.length) return undefined;
    ops.push({ db, op: 'put', key, value: body.subarray(keyEnd + 4, valueEnd) });
    at = valueEnd;
  }
  return at === body.length ? ops : undefined;
}

/**
 * The write records that committed, in order, from every record logged since a checkpoint whose
 * log sequence was `startSeq`. Records are appended inside their LMDB write transaction, so the
 * log holds them in commit order, interleaved with records of transactions that did not commit
 * (their process died or their batch failed after logging): such a record is followed by a later
 * record whose base is below its own new sequence (the sequence it claimed was never committed,
 * so the next transaction started from the same one again), or by a mark. A record dropped that
 * way is discarded; what remains must form an unbroken chain from `startSeq`, otherwise the log
 * is damaged and this throws. A trailing record that did not commit either (nothing came after
 * it) is kept: replaying it yields a state its transaction's checks were made against, as if it
 * had committed, and its client was never told it did (no OK before the fsync).
 */
export function committedChain(records: readonly RedoRecord[], startSeq: bigint): Array<RedoRecord & { kind: 'writes' }> {
  const chain: Array<RedoRecord & { kind: 'writes' }> = [];
  for (const rec of records) {
    if (rec.base < startSeq) throw new Error(`redo log: record on sequence ${rec.base} precedes the checkpoint's ${startSeq}`);
    while (chain.length > 0 && (chain[chain.length - 1] as { base: bigint }).base >= rec.base) chain.pop();
    const next = chain.length === 0 ? startSeq : (chain[chain.length - 1] as { base: bigint }).base + 1n;
    if (rec.base !== next) throw new Error(`redo log: record on sequence ${rec.base} does not follow sequence ${next}`);
    if (rec.kind === 'writes') chain.push(rec);
  }
  return chain;
}
