/**
 * Decodes row format v2 (see row-format.ts): each requested column id is found by binary search
 * in the not-null ids, then the null ids; an id in neither decodes as `undefined`.
 *
 * frozen: part of the on-disk format.
 */
import type { ColumnType, Value } from '../types/index.js';
import { Duration } from '../types/index.js';
import { assertNever, copyBytes } from '../util/index.js';
import { view8 } from './byte-writer.js';
import { corrupt } from './codec-error.js';
import { readDecimalBin } from './decimal-bin.js';
import { unpackDateTime } from './packed-datetime.js';
import { ROW_FLAG_BIG, ROW_HEADER_LEN, ROW_VERSION } from './row-format.js';
import { decodeUtf8 } from './utf8.js';
import { valueClass } from './value-class.js';

/** A row's header; positions are absolute (into the buffer the row is read from). */
class RowHeader {
  notNull = 0;
  nulls = 0;
  idW = 1;
  offW = 2;
  idsAt = 0;
  nullIdsAt = 0;
  offsetsAt = 0;
  valuesAt = 0;
}

/**
 * The one header decodeRow / decodeRowInto parse into: decoding is synchronous and never
 * re-enters itself, so a row costs no header allocation.
 */
const header = new RowHeader();

function readLE(row: Uint8Array, p: number, width: number): number {
  if (width === 1) return row[p] as number;
  if (width === 2) return (row[p] as number) | ((row[p + 1] as number) << 8);
  return ((row[p] as number) | ((row[p + 1] as number) << 8) | ((row[p + 2] as number) << 16) | ((row[p + 3] as number) << 24)) >>> 0;
}

/** Parses the header of the row stored in `row[start..end)` into `header` and returns it. */
function parseHeader(row: Uint8Array, start: number, end: number): RowHeader {
  if (end - start < ROW_HEADER_LEN || row[start] !== ROW_VERSION) throw corrupt('not a v2 row');
  const big = ((row[start + 1] as number) & ROW_FLAG_BIG) !== 0;
  const h = header;
  h.idW = big ? 4 : 1;
  h.offW = big ? 4 : 2;
  h.notNull = readLE(row, start + 2, 2);
  h.nulls = readLE(row, start + 4, 2);
  h.idsAt = start + ROW_HEADER_LEN;
  h.nullIdsAt = h.idsAt + h.notNull * h.idW;
  h.offsetsAt = h.nullIdsAt + h.nulls * h.idW;
  h.valuesAt = h.offsetsAt + h.notNull * h.offW;
  const valuesEnd = h.notNull === 0 ? 0 : readLE(row, h.valuesAt - h.offW, h.offW);
  if (h.valuesAt + valuesEnd > end) throw corrupt('row shorter than its header says');
  return h;
}

/** Index of `id` among `count` ascending ids of width `w` at `at`, or -1. */
function findId(row: Uint8Array, at: number, count: number, w: number, id: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = w === 1 ? (row[at + mid] as number) : readLE(row, at + mid * 4, 4);
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export function decodeRow(
  row: Uint8Array,
  columns: ReadonlyArray<{ readonly id: number; readonly type: ColumnType }>,
): Array<Value | undefined> {
  const h = parseHeader(row, 0, row.length);
  const out = new Array<Value | undefined>(columns.length);
  for (let k = 0; k < columns.length; k++) out[k] = columnValue(row, h, columns[k] as RowColumn);
  return out;
}

/**
 * decodeRow of the row stored in `row[start..end)` (e.g. inside a store's reused read buffer:
 * every value is copied out), writing column k's value straight to `out[at[k]]` (no result
 * array). A column id absent from the row leaves its slot unchanged; returns how many were absent.
 */
export function decodeRowInto(
  row: Uint8Array,
  start: number,
  end: number,
  columns: ReadonlyArray<{ readonly id: number; readonly type: ColumnType }>,
  out: Value[],
  at: readonly number[],
): number {
  const h = parseHeader(row, start, end);
  let absent = 0;
  for (let k = 0; k < columns.length; k++) {
    const v = columnValue(row, h, columns[k] as RowColumn);
    if (v === undefined) absent++;
    else out[at[k] as number] = v;
  }
  return absent;
}

type RowColumn = { readonly id: number; readonly type: ColumnType };

/** Column `col` of the row: its value, null, or undefined when the row does not carry its id. */
function columnValue(row: Uint8Array, h: RowHeader, col: RowColumn): Value | undefined {
  const i = findId(row, h.idsAt, h.notNull, h.idW, col.id);
  if (i < 0) return findId(row, h.nullIdsAt, h.nulls, h.idW, col.id) >= 0 ? null : undefined;
  const start = i === 0 ? 0 : readLE(row, h.offsetsAt + (i - 1) * h.offW, h.offW);
  const end = readLE(row, h.offsetsAt + i * h.offW, h.offW);
  if (end < start) throw corrupt('row offsets out of order');
  return readRowValue(row, h.valuesAt + start, h.valuesAt + end, col.type);
}

function readSigned(row: Uint8Array, s: number, len: number): bigint {
  switch (len) {
    case 1:
      return BigInt(((row[s] as number) << 24) >> 24);
    case 2:
      return BigInt((readLE(row, s, 2) << 16) >> 16);
    case 4:
      return BigInt(readLE(row, s, 4) | 0);
    case 8:
      return view8(row, s).getBigInt64(0, true);
    default:
      throw corrupt(`integer of ${len} bytes`);
  }
}

function readUnsigned(row: Uint8Array, s: number, len: number): bigint {
  switch (len) {
    case 1:
    case 2:
    case 4:
      return BigInt(readLE(row, s, len));
    case 8:
      return view8(row, s).getBigUint64(0, true);
    default:
      throw corrupt(`integer of ${len} bytes`);
  }
}

function need8(len: number, what: string): void {
  if (len !== 8) throw corrupt(`${what} of ${len} bytes`);
}

export function readRowValue(row: Uint8Array, s: number, e: number, t: ColumnType): Value {
  const cls = valueClass(t);
  switch (cls) {
    case 'int':
      return readSigned(row, s, e - s);
    case 'uint':
      return readUnsigned(row, s, e - s);
    case 'float':
      need8(e - s, 'double');
      return view8(row, s).getFloat64(0, true);
    case 'decimal':
    {
      if (e - s < 3) throw corrupt('short decimal');
      const d = readDecimalBin(row, s + 2, row[s] as number, row[s + 1] as number);
      if (d.next > e) throw corrupt('decimal longer than its column');
      return d.value;
    }
    case 'string':
      return decodeUtf8(row, s, e);
    case 'bytes':
      // A copy, never a view: `row` may be a store's reused read buffer (and a Buffer's slice() is a view).
      return copyBytes(row, s, e);
    case 'date':
    case 'datetime':
      need8(e - s, 'datetime');
      return unpackDateTime(readLE(row, s + 4, 4), readLE(row, s, 4), cls, t.scale);
    case 'duration':
      need8(e - s, 'time');
      return new Duration(view8(row, s).getBigInt64(0, true), t.scale);
    case 'null':
      throw corrupt(`a value stored for a NULL-typed column`);
    default:
      return assertNever(cls, 'value class');
  }
}
