/**
 * On-disk value layout of the embedded store (fixed once written).
 *
 * Every user key is stored as given in the LMDB database `data`; its value is
 *
 *   [commitTs: 8 bytes, unsigned big-endian][kind: 1 byte, 0 = tombstone, 1 = live][payload]
 *
 * Example: key "k" put with payload 0xAB at commitTs 5 is stored as
 *   00 00 00 00 00 00 00 05 | 01 | AB
 * and a later delete at commitTs 9 leaves the tombstone
 *   00 00 00 00 00 00 00 09 | 00
 * (a delete of a `derived` key, kv.ts Mutation, removes it instead: its commit time is never asked).
 *
 * The database `meta` holds the latest commitTs under the key "commitTs" (8 bytes big-endian,
 * absent = 0) and the tombstone-GC safe point under "gcSafePoint" (same encoding).
 */

import { allocBytes } from '../../util/index.js';
import { copyInto } from './page-builder.js';

export const HEADER_BYTES = 9;
export const KIND_TOMBSTONE = 0;
export const KIND_LIVE = 1;

/** Reads the 8-byte big-endian commit timestamp at the start of `buf` (0 if too short). */
export function readTs(buf: Uint8Array): bigint {
  if (buf.length < 8) return 0n;
  const hi = ((buf[0] as number) * 0x1000000 + ((buf[1] as number) << 16) + ((buf[2] as number) << 8) + (buf[3] as number)) >>> 0;
  const lo = ((buf[4] as number) * 0x1000000 + ((buf[5] as number) << 16) + ((buf[6] as number) << 8) + (buf[7] as number)) >>> 0;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** 8-byte big-endian encoding of `ts` (0 <= ts < 2^64). */
export function encodeTs(ts: bigint): Buffer {
  const out = Buffer.allocUnsafe(8);
  out.writeBigUInt64BE(ts, 0);
  return out;
}

/**
 * True if the stored value's commit timestamp is greater than the one `tsBytes` encodes
 * (encodeTs): big-endian, so the first differing byte decides, with no BigInt made.
 */
export function storedAfter(stored: Uint8Array, tsBytes: Uint8Array): boolean {
  if (stored.length < 8) return false;
  for (let i = 0; i < 8; i++) {
    const a = stored[i] as number;
    const b = tsBytes[i] as number;
    if (a !== b) return a > b;
  }
  return false;
}

/**
 * Writes the live record of `payload` at commit `tsBytes` (encodeTs) into `out` at `at`
 * (HEADER_BYTES + payload.length bytes; the caller sized `out`) and returns where it ends:
 * a commit's values share one allocation instead of one Buffer each.
 */
export function writeLive(out: Uint8Array, at: number, tsBytes: Uint8Array, payload: Uint8Array): number {
  for (let i = 0; i < 8; i++) out[at + i] = tsBytes[i] as number;
  out[at + 8] = KIND_LIVE;
  out.set(payload, at + HEADER_BYTES);
  return at + HEADER_BYTES + payload.length;
}

/** True if the stored value is a live (non-tombstone) record. */
export function isLive(stored: Uint8Array): boolean {
  return stored[8] === KIND_LIVE;
}

/** isLive of the stored value at `buf[start, end)` (a scan buffer holding many). */
export function isLiveAt(buf: Uint8Array, start: number, end: number): boolean {
  return end - start >= HEADER_BYTES && buf[start + 8] === KIND_LIVE;
}

/** Encodes a tombstone. */
export function encodeTombstone(ts: bigint): Buffer {
  const out = Buffer.allocUnsafe(HEADER_BYTES);
  out.writeBigUInt64BE(ts, 0);
  out[8] = KIND_TOMBSTONE;
  return out;
}

/**
 * A caller-owned copy of the payload of a live stored value (never a view into LMDB memory;
 * small copies are slab regions, see page-builder.ts).
 */
export function copyPayload(stored: Uint8Array): Uint8Array {
  const out = allocBytes(stored.length - HEADER_BYTES);
  copyInto(stored, HEADER_BYTES, out.length, out, 0);
  return out;
}

