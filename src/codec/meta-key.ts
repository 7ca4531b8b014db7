/**
 * Meta keys: 'm' + EncodeBytes(utf8(part)) for each part (memcomparable-bytes.ts). Because each
 * part is self-delimiting, metaKey(a) is a byte prefix of metaKey(a, b), so a prefix scan over
 * metaKey(a) lists every key under `a`, and keys order part by part.
 *   metaKey('DBs')      -> 6D 44 42 73 00 00 00 00 00 FA
 *   metaKey('DBs', '1') -> 6D 44 42 73 00 00 00 00 00 FA 31 00 00 00 00 00 00 00 F8
 *
 * frozen: part of the on-disk format.
 */
import { sharedWriter } from './byte-writer.js';
import { corrupt } from './codec-error.js';
import { readComparableString, writeComparableString } from './memcomparable-bytes.js';

const M = 0x6d; // 'm'

export function metaKey(...parts: readonly string[]): Uint8Array {
  const w = sharedWriter();
  w.u8(M);
  for (const part of parts) writeComparableString(w, part);
  return w.finish();
}

/** The parts of a meta key (inverse of metaKey). */
export function decodeMetaKey(key: Uint8Array): string[] {
  if (key[0] !== M) throw corrupt('not a meta key');
  const parts: string[] = [];
  for (let pos = 1; pos < key.length; ) {
    const r = readComparableString(key, pos);
    parts.push(r.value);
    pos = r.next;
  }
  return parts;
}
