/**
 * Memcomparable encoding of a tuple of typed values (TiDB `codec.EncodeKey`): for each value a
 * type flag byte, then its payload. Byte order of two encodings is the order of the tuples
 * (lexicographic, NULL first) when both use the same column types.
 *
 * | column type                          | flag | payload                                            |
 * |--------------------------------------|------|----------------------------------------------------|
 * | NULL (any type)                      | 00   | none                                               |
 * | CHAR/VARCHAR/TEXT/JSON (UTF-8)       | 01   | memcomparable-bytes.ts of the collation weight     |
 * | BINARY/VARBINARY/BLOB                | 01   | memcomparable-bytes.ts                             |
 * | signed integers, YEAR                | 03   | int64 sign-flipped, big-endian                     |
 * | unsigned integers                    | 04   | uint64 big-endian                                  |
 * | DATE/DATETIME/TIMESTAMP              | 04   | DateTime.toPacked() as uint64 big-endian           |
 * | FLOAT/DOUBLE                         | 05   | memcomparable-float.ts (as float64)                |
 * | DECIMAL(M,D)                         | 06   | M byte, D byte, decimal-bin.ts at the column's M,D |
 * | TIME                                 | 07   | int64 microseconds sign-flipped, big-endian        |
 *
 * Strings are written as the UTF-8 bytes of their collation's weight (types/collation.ts): the
 * string itself under `*_bin`, a case-folded sort key under `*_ci` (which then reads back as
 * that key, not as the original: an index on a `_ci` column is not covering for it).
 *
 * Worked example, (INT 1, VARCHAR 'ab' COLLATE utf8mb4_bin, NULL):
 *   03 80 00 00 00 00 00 00 01 | 01 61 62 00 00 00 00 00 00 F9 | 00
 * DECIMAL(5,2) 12.30: 06 05 02 80 0C 1E. DATE 2024-01-15: 04 01 88 19 EA D3 80 00 00.
 * TIME -00:00:01: 07 7F FF FF FF FF F0 BD C0.
 *
 * frozen: part of the on-disk format.
 */
import type { Collation, ColumnType, Value } from '../types/index.js';
import { Decimal, DateTime, Duration, collationOf, effectiveLength } from '../types/index.js';
import { assertNever } from '../util/index.js';
import type { ByteWriter } from './byte-writer.js';
import { sharedWriter } from './byte-writer.js';
import { badValue, corrupt } from './codec-error.js';
import { readDecimalBin, writeDecimalBin } from './decimal-bin.js';
import { FLAG_BYTES, FLAG_DECIMAL, FLAG_DURATION, FLAG_FLOAT, FLAG_INT, FLAG_NULL, FLAG_UINT } from './flags.js';
import { readComparableBytes, readComparableString, writeComparableAscii, writeComparableBytes, writeComparableString } from './memcomparable-bytes.js';
import { readComparableFloat, writeComparableFloat } from './memcomparable-float.js';
import { readInt64Flipped, readU32Pair, readUint64, writeInt64Flipped, writeUint64 } from './memcomparable-int.js';
import { packDateTime, unpackDateTime } from './packed-datetime.js';
import { decimalPrecision, valueClass } from './value-class.js';

export function encodeKeyValues(values: readonly Value[], types: readonly ColumnType[]): Uint8Array {
  const w = sharedWriter();
  writeKeyValues(w, values, types);
  return w.finish();
}

export function writeKeyValues(w: ByteWriter, values: readonly Value[], types: readonly ColumnType[]): void {
  if (values.length > types.length) throw new Error(`codec: ${values.length} key values for ${types.length} types`);
  for (let i = 0; i < values.length; i++) writeKeyValue(w, values[i] as Value, types[i] as ColumnType);
}

export function writeKeyValue(w: ByteWriter, v: Value, t: ColumnType): void {
  if (v === null) {
    w.u8(FLAG_NULL);
    return;
  }
  const cls = valueClass(t);
  switch (cls) {
    case 'int':
      if (typeof v !== 'bigint') throw badValue('bigint', t.kind, v);
      w.u8(FLAG_INT);
      return writeInt64Flipped(w, v);
    case 'uint':
      if (typeof v !== 'bigint') throw badValue('bigint', t.kind, v);
      w.u8(FLAG_UINT);
      return writeUint64(w, v);
    case 'float':
      if (typeof v !== 'number') throw badValue('number', t.kind, v);
      w.u8(FLAG_FLOAT);
      return writeComparableFloat(w, v);
    case 'decimal':
      return writeKeyDecimal(w, v, t);
    case 'string':
      if (typeof v !== 'string') throw badValue('string', t.kind, v);
      w.u8(FLAG_BYTES);
      return writeCollated(w, v, collationOf(t.collation));
    case 'bytes':
      if (!(v instanceof Uint8Array)) throw badValue('Uint8Array', t.kind, v);
      w.u8(FLAG_BYTES);
      return writeComparableBytes(w, v);
    case 'date':
    case 'datetime':
      return writeKeyDateTime(w, v, t);
    case 'duration':
      if (!(v instanceof Duration)) throw badValue('Duration', t.kind, v);
      w.u8(FLAG_DURATION);
      return writeInt64Flipped(w, v.micros);
    case 'null':
      throw badValue('null', t.kind, v);
    default:
      return assertNever(cls, 'value class');
  }
}

/** The collation's weight of `s`, memcomparable; ASCII strings straight from the collation's table. */
function writeCollated(w: ByteWriter, s: string, collation: Collation): void {
  const table = collation.asciiWeights;
  if (table !== undefined && writeComparableAscii(w, s, effectiveLength(s, collation.padAttribute === 'PAD SPACE'), table)) return;
  writeComparableString(w, collation.weight(s));
}

function writeKeyDecimal(w: ByteWriter, v: Value, t: ColumnType): void {
  if (!(v instanceof Decimal)) throw badValue('Decimal', t.kind, v);
  const { precision, frac } = decimalPrecision(t);
  w.ensure(3);
  w.buf[w.pos] = FLAG_DECIMAL;
  w.buf[w.pos + 1] = precision;
  w.buf[w.pos + 2] = frac;
  w.pos += 3;
  writeDecimalBin(w, v, precision, frac);
}

function writeKeyDateTime(w: ByteWriter, v: Value, t: ColumnType): void {
  if (!(v instanceof DateTime)) throw badValue('DateTime', t.kind, v);
  const [hi, lo] = packDateTime(v);
  w.ensure(9);
  w.buf[w.pos] = FLAG_UINT;
  w.view.setUint32(w.pos + 1, hi);
  w.view.setUint32(w.pos + 5, lo);
  w.pos += 9;
}

export function decodeKeyValues(buf: Uint8Array, types: readonly ColumnType[], offset = 0): { values: Value[]; next: number } {
  const values: Value[] = new Array<Value>(types.length);
  let pos = offset;
  for (let i = 0; i < types.length; i++) {
    const r = readKeyValue(buf, pos, types[i] as ColumnType);
    values[i] = r.value;
    pos = r.next;
  }
  return { values, next: pos };
}

function expectFlag(flag: number, want: number, t: ColumnType): void {
  if (flag !== want) throw corrupt(`flag ${flag} for a ${t.kind} key column (want ${want})`);
}

export function readKeyValue(buf: Uint8Array, pos: number, t: ColumnType): { value: Value; next: number } {
  if (pos >= buf.length) throw corrupt('key ends before its last column');
  const flag = buf[pos] as number;
  if (flag === FLAG_NULL) return { value: null, next: pos + 1 };
  const p = pos + 1;
  const cls = valueClass(t);
  switch (cls) {
    case 'int':
    case 'uint':
      if (flag === FLAG_INT) return { value: readInt64Flipped(buf, p), next: p + 8 };
      expectFlag(flag, FLAG_UINT, t);
      return { value: readUint64(buf, p), next: p + 8 };
    case 'float':
      expectFlag(flag, FLAG_FLOAT, t);
      return { value: readComparableFloat(buf, p), next: p + 8 };
    case 'decimal':
      expectFlag(flag, FLAG_DECIMAL, t);
      if (p + 2 > buf.length) throw corrupt('truncated decimal header');
      return readDecimalBin(buf, p + 2, buf[p] as number, buf[p + 1] as number);
    case 'string':
      expectFlag(flag, FLAG_BYTES, t);
      return readComparableString(buf, p);
    case 'bytes':
      expectFlag(flag, FLAG_BYTES, t);
      return readComparableBytes(buf, p);
    case 'date':
    case 'datetime': {
      expectFlag(flag, FLAG_UINT, t);
      const [hi, lo] = readU32Pair(buf, p);
      return { value: unpackDateTime(hi, lo, cls, t.scale), next: p + 8 };
    }
    case 'duration':
      expectFlag(flag, FLAG_DURATION, t);
      return { value: new Duration(readInt64Flipped(buf, p), t.scale), next: p + 8 };
    case 'null':
      throw corrupt(`non-NULL flag ${flag} for a NULL-typed column`);
    default:
      return assertNever(cls, 'value class');
  }
}
