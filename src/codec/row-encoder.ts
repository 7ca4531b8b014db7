/**
 * Encodes a row in format v2; the format is documented in row-format.ts.
 *
 * frozen: part of the on-disk format.
 */
import type { ColumnType, Value } from '../types/index.js';
import { Decimal, DateTime, Duration } from '../types/index.js';
import { assertNever } from '../util/index.js';
import type { ByteWriter } from './byte-writer.js';
import { sharedWriter } from './byte-writer.js';
import { badValue } from './codec-error.js';
import { writeDecimalBin } from './decimal-bin.js';
import { packDateTime } from './packed-datetime.js';
import { MAX_COLUMN_ID, MAX_COLUMNS, ROW_FLAG_BIG, ROW_HEADER_LEN, ROW_VERSION, SMALL_MAX_ID, SMALL_MAX_OFFSET } from './row-format.js';
import { writeUtf8 } from './utf8.js';
import { decimalPrecision, valueClass, type ValueClass } from './value-class.js';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

export function encodeRow(columnIds: readonly number[], values: readonly Value[], types: readonly ColumnType[]): Uint8Array {
  const n = columnIds.length;
  if (values.length !== n || types.length !== n) throw new Error(`codec: encodeRow got ${n} ids, ${values.length} values, ${types.length} types`);
  if (n > MAX_COLUMNS) throw new Error(`codec: too many columns (${n})`);
  const order = sortedOrder(columnIds);
  const w = sharedWriter();
  const notNullIds: number[] = [];
  const nullIds: number[] = [];
  const ends: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = order === null ? k : (order[k] as number);
    const id = columnIds[i] as number;
    const v = values[i] as Value;
    if (v === null) {
      nullIds.push(id);
    } else {
      writeRowValue(w, v, types[i] as ColumnType);
      notNullIds.push(id);
      ends.push(w.pos);
    }
  }
  const maxId = n === 0 ? 0 : (columnIds[order === null ? n - 1 : (order[n - 1] as number)] as number);
  return assemble(notNullIds, nullIds, ends, w, maxId > SMALL_MAX_ID || w.pos > SMALL_MAX_OFFSET);
}

/** null when the ids are already strictly ascending; else the index order by id. Rejects bad ids. */
export function sortedOrder(ids: readonly number[]): number[] | null {
  let sorted = true;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    if (!Number.isInteger(id) || id < 0 || id > MAX_COLUMN_ID) throw new RangeError(`codec: bad column id ${id}`);
    if (i > 0 && id <= (ids[i - 1] as number)) sorted = false;
  }
  if (sorted) return null;
  const order = ids.map((_, i) => i).sort((a, b) => (ids[a] as number) - (ids[b] as number));
  for (let k = 1; k < order.length; k++) {
    if (ids[order[k] as number] === ids[order[k - 1] as number]) throw new Error(`codec: duplicate column id ${ids[order[k] as number]}`);
  }
  return order;
}

function assemble(notNullIds: number[], nullIds: number[], ends: number[], values: ByteWriter, big: boolean): Uint8Array {
  const idW = big ? 4 : 1;
  const offW = big ? 4 : 2;
  const header = ROW_HEADER_LEN + (notNullIds.length + nullIds.length) * idW + ends.length * offW;
  const out = new Uint8Array(header + values.pos);
  out[0] = ROW_VERSION;
  out[1] = big ? ROW_FLAG_BIG : 0;
  putLE(out, 2, notNullIds.length, 2);
  putLE(out, 4, nullIds.length, 2);
  let p = ROW_HEADER_LEN;
  for (const id of notNullIds) p = putLE(out, p, id, idW);
  for (const id of nullIds) p = putLE(out, p, id, idW);
  for (const end of ends) p = putLE(out, p, end, offW);
  out.set(values.buf.subarray(0, values.pos), p);
  return out;
}

function putLE(out: Uint8Array, p: number, v: number, width: number): number {
  for (let k = 0; k < width; k++) {
    out[p + k] = v & 0xff;
    v >>>= 8;
  }
  return p + width;
}

export function writeRowValue(w: ByteWriter, v: Value, t: ColumnType): void {
  writeClassValue(w, v, valueClass(t), t);
}

/** writeRowValue with the column's value class already computed (compiled encoders). */
export function writeClassValue(w: ByteWriter, v: Value, cls: ValueClass, t: ColumnType): void {
  switch (cls) {
    case 'int':
      if (typeof v !== 'bigint') throw badValue('bigint', t.kind, v);
      return writeSigned(w, v);
    case 'uint':
      if (typeof v !== 'bigint') throw badValue('bigint', t.kind, v);
      return writeUnsigned(w, v);
    case 'float':
      if (typeof v !== 'number') throw badValue('number', t.kind, v);
      w.ensure(8);
      w.view.setFloat64(w.pos, v, true);
      w.pos += 8;
      return;
    case 'decimal':
      return writeRowDecimal(w, v, t);
    case 'string':
      if (typeof v !== 'string') throw badValue('string', t.kind, v);
      return writeUtf8(w, v);
    case 'bytes':
      if (!(v instanceof Uint8Array)) throw badValue('Uint8Array', t.kind, v);
      return w.bytes(v);
    case 'date':
    case 'datetime':
      return writeRowDateTime(w, v, t);
    case 'duration':
      if (!(v instanceof Duration)) throw badValue('Duration', t.kind, v);
      return writeInt64LE(w, v.micros);
    case 'null':
      throw badValue('null', t.kind, v);
    default:
      return assertNever(cls, 'value class');
  }
}

function writeSigned(w: ByteWriter, v: bigint): void {
  if (v < -2147483648n || v > 2147483647n) return writeInt64LE(w, v);
  const n = Number(v);
  w.ensure(4);
  if (n >= -128 && n <= 127) {
    w.buf[w.pos++] = n & 0xff;
  } else if (n >= -32768 && n <= 32767) {
    w.view.setInt16(w.pos, n, true);
    w.pos += 2;
  } else {
    w.view.setInt32(w.pos, n, true);
    w.pos += 4;
  }
}

function writeUnsigned(w: ByteWriter, v: bigint): void {
  if (v < 0n || v > 0xffffffffn) {
    if (v < 0n || v > UINT64_MAX) throw new RangeError(`codec: ${v} does not fit an unsigned 64-bit integer`);
    w.ensure(8);
    w.view.setBigUint64(w.pos, v, true);
    w.pos += 8;
    return;
  }
  const n = Number(v);
  w.ensure(4);
  if (n <= 0xff) {
    w.buf[w.pos++] = n;
  } else if (n <= 0xffff) {
    w.view.setUint16(w.pos, n, true);
    w.pos += 2;
  } else {
    w.view.setUint32(w.pos, n, true);
    w.pos += 4;
  }
}

function writeInt64LE(w: ByteWriter, v: bigint): void {
  if (v < INT64_MIN || v > INT64_MAX) throw new RangeError(`codec: ${v} does not fit a signed 64-bit integer`);
  w.ensure(8);
  w.view.setBigInt64(w.pos, v, true);
  w.pos += 8;
}

function writeRowDecimal(w: ByteWriter, v: Value, t: ColumnType): void {
  if (!(v instanceof Decimal)) throw badValue('Decimal', t.kind, v);
  const { precision, frac } = decimalPrecision(t);
  w.ensure(2);
  w.buf[w.pos] = precision;
  w.buf[w.pos + 1] = frac;
  w.pos += 2;
  writeDecimalBin(w, v, precision, frac);
}

function writeRowDateTime(w: ByteWriter, v: Value, t: ColumnType): void {
  if (!(v instanceof DateTime)) throw badValue('DateTime', t.kind, v);
  const [hi, lo] = packDateTime(v);
  w.ensure(8);
  w.view.setUint32(w.pos, lo, true);
  w.view.setUint32(w.pos + 4, hi, true);
  w.pos += 8;
}
