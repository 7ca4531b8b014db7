/**
 * Table data keys (TiDB `tablecodec`). Ids are int64 sign-flipped big-endian without a flag.
 *
 *   table prefix  't' + tableId(8)                                  9 bytes
 *   record prefix 't' + tableId(8) + '_r'                          11 bytes
 *   record key    record prefix + handle
 *                   int handle:    int64 sign-flipped (8 bytes, no flag) -> 19 bytes in all
 *                   common handle: encodeKeyValues(pk values, pk types) (flagged, >= 9 bytes
 *                                  in practice; see decodeRecordKey)
 *   index prefix  't' + tableId(8) + '_i' + indexId(8)             19 bytes
 *   index key     index prefix + encodeKeyValues(index values)
 *                   [+ handle for non-distinct entries: int handle as a flagged int
 *                    (03 + 8 bytes), common handle as its raw encoded bytes]
 *
 * Worked examples (hex):
 *   tablePrefix(1)             74 80 00 00 00 00 00 00 01
 *   recordKey(1, int 5)        74 80 00 00 00 00 00 00 01 5F 72 80 00 00 00 00 00 00 05
 *   indexPrefix(1, 2)          74 80 00 00 00 00 00 00 01 5F 69 80 00 00 00 00 00 00 02
 *   indexKey(1, 2, [INT 7], handle int 5)
 *     = indexPrefix(1, 2) + 03 80 00 00 00 00 00 00 07 + 03 80 00 00 00 00 00 00 05
 *
 * frozen: part of the on-disk format.
 */
import type { ColumnType, Value } from '../types/index.js';
import type { ByteWriter } from './byte-writer.js';
import { sharedWriter } from './byte-writer.js';
import { corrupt } from './codec-error.js';
import { FLAG_INT } from './flags.js';
import type { Handle } from './handle.js';
import { decodeKeyValues, writeKeyValues } from './key-values.js';
import { readInt64Flipped, readInt64FlippedNumber, writeInt64Flipped, writeInt64FlippedNumber } from './memcomparable-int.js';

const T = 0x74; // 't'
const SEP = 0x5f; // '_'
const R = 0x72; // 'r'
const I = 0x69; // 'i'
const TABLE_PREFIX_LEN = 9;
const RECORD_PREFIX_LEN = 11;
const INDEX_PREFIX_LEN = 19;
const INT_HANDLE_LEN = 8;

function writeTablePrefix(w: ByteWriter, tableId: number): void {
  w.u8(T);
  writeInt64FlippedNumber(w, tableId);
}

function writeRecordPrefix(w: ByteWriter, tableId: number): void {
  writeTablePrefix(w, tableId);
  w.u8(SEP);
  w.u8(R);
}

function writeIndexPrefix(w: ByteWriter, tableId: number, indexId: number): void {
  writeTablePrefix(w, tableId);
  w.u8(SEP);
  w.u8(I);
  writeInt64FlippedNumber(w, indexId);
}

export function tablePrefix(tableId: number): Uint8Array {
  const w = sharedWriter();
  writeTablePrefix(w, tableId);
  return w.finish();
}

export function recordPrefix(tableId: number): Uint8Array {
  const w = sharedWriter();
  writeRecordPrefix(w, tableId);
  return w.finish();
}

export function recordKey(tableId: number, handle: Handle): Uint8Array {
  const w = sharedWriter();
  writeRecordPrefix(w, tableId);
  if (handle.kind === 'int') writeInt64Flipped(w, handle.value);
  else w.bytes(handle.encoded);
  return w.finish();
}

function checkPrefix(key: Uint8Array, kindByte: number, minLen: number, what: string): void {
  checkPrefixAt(key, 0, key.length, kindByte, minLen, what);
}

function checkPrefixAt(buf: Uint8Array, start: number, end: number, kindByte: number, minLen: number, what: string): void {
  if (end - start < minLen || buf[start] !== T || buf[start + 9] !== SEP || buf[start + 10] !== kindByte) throw corrupt(`not a ${what} key`);
}

/**
 * Splits a record key. An 8-byte suffix is an int handle, anything else a common handle (as in
 * TiDB). Pass `handleKind` when the table is known: a common handle of exactly 8 bytes (e.g. a
 * PK of two DECIMAL(1..4,0) columns, 4 bytes each) is otherwise taken for an int handle.
 */
export function decodeRecordKey(key: Uint8Array, handleKind?: 'int' | 'common'): { tableId: number; handle: Handle } {
  checkPrefix(key, R, RECORD_PREFIX_LEN + 1, 'record');
  const tableId = readInt64FlippedNumber(key, 1);
  const suffixLen = key.length - RECORD_PREFIX_LEN;
  const isInt = handleKind === undefined ? suffixLen === INT_HANDLE_LEN : handleKind === 'int';
  if (isInt) {
    if (suffixLen !== INT_HANDLE_LEN) throw corrupt(`int handle of ${suffixLen} bytes`);
    return { tableId, handle: { kind: 'int', value: readInt64Flipped(key, RECORD_PREFIX_LEN) } };
  }
  return { tableId, handle: { kind: 'common', encoded: key.slice(RECORD_PREFIX_LEN) } };
}

/** The handle of a record key of an int-handle table: decodeRecordKey(key, 'int') without its objects. */
export function decodeIntHandle(key: Uint8Array): bigint {
  return decodeIntHandleAt(key, 0, key.length);
}

/** decodeIntHandle of the record key stored in `buf[start..end)` (e.g. a store's reused read buffer). */
export function decodeIntHandleAt(buf: Uint8Array, start: number, end: number): bigint {
  checkPrefixAt(buf, start, end, R, RECORD_PREFIX_LEN + 1, 'record');
  const suffixLen = end - start - RECORD_PREFIX_LEN;
  if (suffixLen !== INT_HANDLE_LEN) throw corrupt(`int handle of ${suffixLen} bytes`);
  return readInt64Flipped(buf, start + RECORD_PREFIX_LEN);
}

export function indexPrefix(tableId: number, indexId: number): Uint8Array {
  const w = sharedWriter();
  writeIndexPrefix(w, tableId, indexId);
  return w.finish();
}

/**
 * `values` may be a prefix of the index columns (`types` lists them all): such keys are range
 * bounds for scans on a leading subset of the columns.
 */
export function indexKey(
  tableId: number,
  indexId: number,
  values: readonly Value[],
  types: readonly ColumnType[],
  handle?: Handle,
): Uint8Array {
  const w = sharedWriter();
  writeIndexPrefix(w, tableId, indexId);
  writeKeyValues(w, values, types);
  if (handle !== undefined) {
    if (handle.kind === 'int') {
      w.u8(FLAG_INT);
      writeInt64Flipped(w, handle.value);
    } else {
      w.bytes(handle.encoded);
    }
  }
  return w.finish();
}

export function decodeIndexKey(
  key: Uint8Array,
  types: readonly ColumnType[],
  handleKind: 'int' | 'common' | 'none',
): { values: Value[]; handle?: Handle } {
  checkPrefix(key, I, INDEX_PREFIX_LEN, 'index');
  const { values, next } = decodeKeyValues(key, types, INDEX_PREFIX_LEN);
  if (handleKind === 'none') {
    if (next !== key.length) throw corrupt('trailing bytes after index values');
    return { values };
  }
  if (handleKind === 'int') {
    if (key[next] !== FLAG_INT || next + 9 !== key.length) throw corrupt('bad int handle suffix in index key');
    return { values, handle: { kind: 'int', value: readInt64Flipped(key, next + 1) } };
  }
  if (next >= key.length) throw corrupt('missing common handle in index key');
  return { values, handle: { kind: 'common', encoded: key.slice(next) } };
}

/** The table id of any 't'-prefixed key. */
export function decodeTableId(key: Uint8Array): number {
  if (key.length < TABLE_PREFIX_LEN || key[0] !== T) throw corrupt('not a table key');
  return readInt64FlippedNumber(key, 1);
}
