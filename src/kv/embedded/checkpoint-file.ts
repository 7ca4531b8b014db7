/**
 * The checkpoint file (`checkpoint` in the data directory) and LMDB's meta pages.
 *
 * A checkpoint says: LMDB's data file, with `metas` (its first two pages, which hold LMDB's meta
 * records) written back, is exactly the state logged up to sequence `seq`, and the log from
 * generation `gen` on holds everything after it. Layout, little-endian:
 *
 *   "SHCK" | version u32 = 1 | pageSize u32 | gen u64 | seq u64 | bootId (36 ASCII bytes) |
 *   metas (2 × pageSize bytes) | crc32 of everything before it u32
 *
 * It is replaced atomically (written to `checkpoint.tmp`, fsync'd, renamed, directory fsync'd).
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

export interface Checkpoint {
  readonly pageSize: number;
  readonly gen: bigint;
  readonly seq: bigint;
  readonly bootId: string;
  readonly metas: Buffer;
}

const MAGIC = 'SHCK';
const VERSION = 1;
const HEAD = 4 + 4 + 4 + 8 + 8 + 36;
const LMDB_MAGIC = 0xbeefc0de;

export function checkpointPath(dir: string): string {
  return join(dir, 'checkpoint');
}

export function encodeCheckpoint(c: Checkpoint): Buffer {
  const out = Buffer.alloc(HEAD + c.metas.length + 4);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(VERSION, 4);
  out.writeUInt32LE(c.pageSize, 8);
  out.writeBigUInt64LE(c.gen, 12);
  out.writeBigUInt64LE(c.seq, 20);
  out.write(c.bootId.padEnd(36).slice(0, 36), 28, 'latin1');
  c.metas.copy(out, HEAD);
  out.writeUInt32LE(crc32(out.subarray(0, out.length - 4)), out.length - 4);
  return out;
}

/** The checkpoint in `buf`; throws if it is not a valid one. */
export function decodeCheckpoint(buf: Buffer): Checkpoint {
  if (buf.length < HEAD + 4 || buf.toString('latin1', 0, 4) !== MAGIC || buf.readUInt32LE(4) !== VERSION) {
    throw new Error('not a ShaleDB checkpoint file (version 1)');
  }
  if (crc32(buf.subarray(0, buf.length - 4)) !== buf.readUInt32LE(buf.length - 4)) throw new Error('checkpoint file fails its checksum');
  const pageSize = buf.readUInt32LE(8);
  if (buf.length !== HEAD + 2 * pageSize + 4) throw new Error('checkpoint file has the wrong length');
  return {
    pageSize,
    gen: buf.readBigUInt64LE(12),
    seq: buf.readBigUInt64LE(20),
    bootId: buf.toString('latin1', 28, 28 + 36).trimEnd(),
    metas: Buffer.from(buf.subarray(HEAD, HEAD + 2 * pageSize)),
  };
}

/** The directory's checkpoint, or undefined if it has none. */
export function readCheckpoint(dir: string): Checkpoint | undefined {
  const path = checkpointPath(dir);
  if (!existsSync(path)) return undefined;
  try {
    return decodeCheckpoint(readFileSync(path));
  } catch (err) {
    throw new Error(`${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Replaces the directory's checkpoint durably. */
export function writeCheckpoint(dir: string, c: Checkpoint): void {
  const tmp = `${checkpointPath(dir)}.tmp`;
  writeFileSync(tmp, encodeCheckpoint(c));
  fsyncPath(tmp);
  renameSync(tmp, checkpointPath(dir));
  fsyncPath(dir);
}

/** writeCheckpoint on libuv's thread pool (the checkpointer's timed rounds). */
export async function writeCheckpointAsync(dir: string, c: Checkpoint): Promise<void> {
  const tmp = `${checkpointPath(dir)}.tmp`;
  const file = await fsp.open(tmp, 'w');
  try {
    await file.writeFile(encodeCheckpoint(c));
    await file.sync();
  } finally {
    await file.close();
  }
  await fsp.rename(tmp, checkpointPath(dir));
  await fsyncPathAsync(dir);
}

/** Creates `path` (empty, if new; or what `reuse` renamed into place) in `dir` and makes its name durable. */
export async function createDurably(dir: string, path: string, reuse?: (dir: string, path: string) => boolean): Promise<void> {
  if (reuse?.(dir, path) !== true) await (await fsp.open(path, 'a')).close();
  await fsyncPathAsync(dir);
}

/** createDurably, blocking (checkpoints at open and close). */
export function createDurablySync(dir: string, path: string, reuse?: (dir: string, path: string) => boolean): void {
  if (reuse?.(dir, path) !== true) closeSync(openSync(path, 'a'));
  fsyncPath(dir);
}

async function fsyncPathAsync(path: string): Promise<void> {
  const handle = await fsp.open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * LMDB's two meta pages as the data file (open as `fd`) holds them now, and its page size (read
 * from the meta record: the free-list DB's md_pad, 24 bytes after the magic in LMDB's layout).
 */
export function readMetaPages(fd: number): { pageSize: number; metas: Buffer } {
  const head = Buffer.alloc(128);
  readSync(fd, head, 0, head.length, 0);
  let magicAt = -1;
  for (let at = 0; at + 4 <= 64; at += 4) if (head.readUInt32LE(at) === LMDB_MAGIC) magicAt = at;
  const pageSize = magicAt < 0 ? 0 : head.readUInt32LE(magicAt + 24);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) {
    throw new Error('LMDB data file: meta page not recognised');
  }
  const metas = Buffer.alloc(2 * pageSize);
  if (readSync(fd, metas, 0, metas.length, 0) !== metas.length) throw new Error('LMDB data file shorter than its meta pages');
  return { pageSize, metas };
}

/**
 * This boot of the machine (a different value after a reboot or OS crash); '' where unknown.
 * SHALE_BOOT_ID overrides it: crash tests start a server "after a reboot" with a new value
 * (scripts/crash-harness.ts --reboot).
 */
export function currentBootId(): string {
  const forced = process.env['SHALE_BOOT_ID'];
  if (forced !== undefined && forced !== '') return forced;
  const path = '/proc/sys/kernel/random/boot_id';
  return existsSync(path) ? readFileSync(path, 'latin1').trim() : '';
}
