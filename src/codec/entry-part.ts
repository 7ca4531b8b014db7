/**
 * What the sorted index build keeps of each row's index entry (catalog/sorted-backfill.ts) on a
 * table with an int handle: the bytes after the index prefix. That is the key part
 * encodeKeyValues(values, types) followed by, for a non-distinct entry, the handle as indexKey
 * appends it (FLAG_INT and the int64 sign-flipped, 9 bytes), or, for a distinct entry, the
 * entry's value encodeIndexValue(handle) (INT_HANDLE and the same 8 bytes). The handle's 8 bytes
 * are copied from the row's record key, which ends in exactly them (keys.ts), instead of being
 * decoded to a bigint and encoded again.
 *
 * Example: values [INT 7], record key of handle 5 (74 … 5F 72 80 00 00 00 00 00 00 05):
 *   non-distinct  03 80 00 00 00 00 00 00 07 03 80 00 00 00 00 00 00 05  (all key)
 *   distinct      03 80 00 00 00 00 00 00 07 | 01 80 00 00 00 00 00 00 05 (key part | value)
 *
 * frozen: the bytes are indexKey's and encodeIndexValue's (test/codec/entry-part.test.ts).
 */
import type { ColumnType, Value } from '../types/index.js';
import { sharedWriter } from './byte-writer.js';
import { corrupt } from './codec-error.js';
import { FLAG_INT } from './flags.js';
import { INT_HANDLE } from './index-value.js';
import { writeKeyValues } from './key-values.js';

/** A record key of an int-handle table: 't' + table id (8) + '_r' + handle (8). */
const INT_RECORD_KEY_LEN = 19;
const HANDLE_LEN = 8;

/**
 * The entry part of the row stored under the record key `key[start, end)` whose indexed values
 * are `values` (distinct: a unique index's entry without NULLs, whose handle is its value). A
 * view of the codec's shared writer: copy it before the next encode.
 */
export function intHandleEntryPart(
  values: readonly Value[],
  types: readonly ColumnType[],
  distinct: boolean,
  key: Uint8Array,
  start: number,
  end: number,
): Uint8Array {
  if (end - start !== INT_RECORD_KEY_LEN) throw corrupt(`record key of ${end - start} bytes where an int handle's has ${INT_RECORD_KEY_LEN}`);
  const w = sharedWriter();
  writeKeyValues(w, values, types);
  w.ensure(1 + HANDLE_LEN);
  const buf = w.buf;
  let at = w.pos;
  buf[at++] = distinct ? INT_HANDLE : FLAG_INT;
  for (let i = end - HANDLE_LEN; i < end; i++) buf[at++] = key[i] as number;
  w.pos = at;
  return buf.subarray(0, at);
}

/** Bytes of a distinct int-handle entry's value at the end of its entry part. */
export const INT_HANDLE_VALUE_LEN = 1 + HANDLE_LEN;
