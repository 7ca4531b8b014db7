/**
 * Memcomparable 64-bit integers (TiDB `codec.EncodeInt` / `EncodeUint`), 8 bytes big-endian.
 *
 * - signed (flag 3 in keys): the two's-complement value with its sign bit flipped, so
 *   MinInt64 -> 00..00, -1 -> 7F FF FF FF FF FF FF FF, 0 -> 80 00 00 00 00 00 00 00,
 *   1 -> 80 00 00 00 00 00 00 01, MaxInt64 -> FF..FF.
 * - unsigned (flag 4 in keys): plain big-endian, 258 -> 00 00 00 00 00 00 01 02.
 * Table ids, index ids and int handles in record keys use the signed form without a flag:
 *   table id 1 -> 80 00 00 00 00 00 00 01.
 *
 * frozen: part of the on-disk format.
 */
import type { ByteWriter } from './byte-writer.js';
import { corrupt } from './codec-error.js';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;
const TWO32 = 4294967296;
/** |hi| below this keeps hi * 2^32 + lo inside the exact double range. */
const SAFE_HI = 1 << 21;

function checkRange(v: bigint, min: bigint, max: bigint): void {
  if (v < min || v > max) throw new RangeError(`codec: integer ${v} does not fit 64 bits`);
}

export function writeInt64Flipped(w: ByteWriter, v: bigint): void {
  checkRange(v, INT64_MIN, INT64_MAX);
  w.ensure(8);
  w.view.setBigInt64(w.pos, v);
  w.buf[w.pos] = (w.buf[w.pos] as number) ^ 0x80;
  w.pos += 8;
}

export function writeUint64(w: ByteWriter, v: bigint): void {
  checkRange(v, 0n, UINT64_MAX);
  w.ensure(8);
  w.view.setBigUint64(w.pos, v);
  w.pos += 8;
}

/** Signed, sign-flipped; `n` must be a safe integer (table and index ids). */
export function writeInt64FlippedNumber(w: ByteWriter, n: number): void {
  if (!Number.isSafeInteger(n)) throw new RangeError(`codec: id ${n} is not a safe integer`);
  const hi = Math.floor(n / TWO32);
  const lo = n - hi * TWO32;
  w.ensure(8);
  w.view.setUint32(w.pos, (hi ^ 0x80000000) >>> 0);
  w.view.setUint32(w.pos + 4, lo);
  w.pos += 8;
}

function u32(buf: Uint8Array, pos: number): number {
  return (((buf[pos] as number) << 24) | ((buf[pos + 1] as number) << 16) | ((buf[pos + 2] as number) << 8) | (buf[pos + 3] as number)) >>> 0;
}

function need(buf: Uint8Array, pos: number, n: number): void {
  if (pos + n > buf.length) throw corrupt(`need ${n} bytes at ${pos}, have ${buf.length - pos}`);
}

export function readInt64Flipped(buf: Uint8Array, pos: number): bigint {
  need(buf, pos, 8);
  const hi = u32(buf, pos) ^ 0x80000000; // signed int32 of the original high word
  const lo = u32(buf, pos + 4);
  if (hi < SAFE_HI && hi >= -SAFE_HI) return BigInt(hi * TWO32 + lo);
  return (BigInt(hi) << 32n) + BigInt(lo);
}

export function readUint64(buf: Uint8Array, pos: number): bigint {
  need(buf, pos, 8);
  const hi = u32(buf, pos);
  const lo = u32(buf, pos + 4);
  if (hi < SAFE_HI) return BigInt(hi * TWO32 + lo);
  return (BigInt(hi) << 32n) + BigInt(lo);
}

export function readInt64FlippedNumber(buf: Uint8Array, pos: number): number {
  need(buf, pos, 8);
  const hi = u32(buf, pos) ^ 0x80000000;
  const lo = u32(buf, pos + 4);
  const n = hi * TWO32 + lo;
  if (!Number.isSafeInteger(n)) throw corrupt(`id out of safe integer range`);
  return n;
}

/** The high and low 32-bit halves of an unsigned 64-bit big-endian word. */
export function readU32Pair(buf: Uint8Array, pos: number): [hi: number, lo: number] {
  need(buf, pos, 8);
  return [u32(buf, pos), u32(buf, pos + 4)];
}
