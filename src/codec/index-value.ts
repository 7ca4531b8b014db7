/**
 * Index entry values. Our own format (not TiDB's), with a leading format byte:
 *
 *   non-distinct entry (handle is in the key)  30              ('0', one byte)
 *   distinct entry, int handle                 01 + int64 sign-flipped big-endian (9 bytes)
 *   distinct entry, common handle              02 + the handle's encoded bytes
 *
 * Examples: null -> 30; int handle 5 -> 01 80 00 00 00 00 00 00 05;
 * common handle (VARCHAR 'a') -> 02 01 61 00 00 00 00 00 00 00 F8.
 * Other leading bytes are reserved for later versions (e.g. covering-index restore data).
 *
 * frozen: part of the on-disk format.
 */
import { sharedWriter } from './byte-writer.js';
import { corrupt } from './codec-error.js';
import type { Handle } from './handle.js';
import { readInt64Flipped, writeInt64Flipped } from './memcomparable-int.js';
import { copyBytes } from '../util/index.js';

const NON_DISTINCT = 0x30;
/** The format byte of a distinct entry's value that names an int handle. */
export const INT_HANDLE = 0x01;
const COMMON_HANDLE = 0x02;
const NON_DISTINCT_VALUE = new Uint8Array([NON_DISTINCT]);

export function encodeIndexValue(handle: Handle | null): Uint8Array {
  // A pooled copy (util/byte-slab.ts): slice() would make a fresh ArrayBuffer per entry.
  if (handle === null) return copyBytes(NON_DISTINCT_VALUE, 0, 1);
  const w = sharedWriter();
  if (handle.kind === 'int') {
    w.u8(INT_HANDLE);
    writeInt64Flipped(w, handle.value);
  } else {
    w.u8(COMMON_HANDLE);
    w.bytes(handle.encoded);
  }
  return w.finish();
}

export function decodeIndexValue(value: Uint8Array): Handle | null {
  switch (value[0]) {
    case NON_DISTINCT:
      if (value.length !== 1) break;
      return null;
    case INT_HANDLE:
      if (value.length !== 9) break;
      return { kind: 'int', value: readInt64Flipped(value, 1) };
    case COMMON_HANDLE:
      if (value.length < 2) break;
      return { kind: 'common', encoded: value.slice(1) };
  }
  throw corrupt('bad index value');
}
