/**
 * Binary-protocol values, used for COM_STMT_EXECUTE parameters (read) and binary result rows
 * (write). Spec: /work/shared/reference/mysql-protocol.md §2.2 (binary value encodings).
 */
import { DateTime, Decimal, Duration, type ColumnType, type Value } from '../types/index.js';
import { decodeSurrogateEscape } from '../util/index.js';
import type { ByteReader } from './byte-reader.js';
import type { ByteWriter } from './byte-writer.js';
import { WireType } from './constants.js';
import { textValue } from './text-value.js';
import { toBigInt, toDateTime, toDuration, toNumber } from './value-convert.js';

// ---- write (binary result rows) ----

/** Writes a non-NULL value in the encoding of `wireType`, converting mismatched JS types. */
export function writeBinaryValue(w: ByteWriter, v: Exclude<Value, null>, wireType: number, type: ColumnType): void {
  switch (wireType) {
    case WireType.TINY:
      return w.u8(Number(BigInt.asUintN(8, toBigInt(v))));
    case WireType.SHORT:
    case WireType.YEAR:
      return w.u16(Number(BigInt.asUintN(16, toBigInt(v))));
    case WireType.LONG:
    case WireType.INT24:
      return w.u32(Number(BigInt.asUintN(32, toBigInt(v))));
    case WireType.LONGLONG:
      return w.u64(toBigInt(v));
    case WireType.FLOAT:
      return w.f32(toNumber(v));
    case WireType.DOUBLE:
      return w.f64(toNumber(v));
    case WireType.DATE:
    case WireType.DATETIME:
    case WireType.TIMESTAMP:
      return writeDateTime(w, toDateTime(v), wireType === WireType.DATE);
    case WireType.TIME:
      return writeTime(w, toDuration(v));
    default: {
      const text = textValue(v, type);
      if (typeof text === 'string') w.lenencString(text);
      else w.lenencBytes(text);
    }
  }
}

function writeDateTime(w: ByteWriter, d: DateTime | null, dateOnly: boolean): void {
  if (d === null || (d.year === 0 && d.month === 0 && d.day === 0 && d.hour === 0 && d.minute === 0 && d.second === 0 && d.micro === 0)) {
    return w.u8(0);
  }
  const len = dateOnly ? 4 : d.micro !== 0 ? 11 : d.hour || d.minute || d.second ? 7 : 4;
  w.u8(len);
  w.u16(d.year);
  w.u8(d.month);
  w.u8(d.day);
  if (len === 4) return;
  w.u8(d.hour);
  w.u8(d.minute);
  w.u8(d.second);
  if (len === 11) w.u32(d.micro);
}

function writeTime(w: ByteWriter, t: Duration | null): void {
  if (t === null || t.micros === 0n) return w.u8(0);
  const { negative, hours, minutes, seconds, micro } = t.parts();
  w.u8(micro ? 12 : 8);
  w.u8(negative ? 1 : 0);
  w.u32(Number(hours / 24n));
  w.u8(Number(hours % 24n));
  w.u8(minutes);
  w.u8(seconds);
  if (micro) w.u32(micro);
}

// ---- read (COM_STMT_EXECUTE parameters) ----

/** The bytes are there but do not make a value of the declared type (execute answers 1210). */
export class InvalidParamValue extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidParamValue';
  }
}

const STRING_TYPES: ReadonlySet<number> = new Set([
  WireType.VARCHAR, WireType.VAR_STRING, WireType.STRING, WireType.ENUM, WireType.SET, WireType.JSON,
]);
const BYTES_TYPES: ReadonlySet<number> = new Set([
  WireType.TINY_BLOB, WireType.MEDIUM_BLOB, WireType.LONG_BLOB, WireType.BLOB, WireType.GEOMETRY, WireType.BIT,
]);

/** True when `wireType` is a parameter type this server decodes. */
export function isKnownParamType(wireType: number): boolean {
  return wireType <= WireType.YEAR || wireType === WireType.NEWDECIMAL || STRING_TYPES.has(wireType) || BYTES_TYPES.has(wireType);
}

/** Reads one non-NULL parameter value. Throws MalformedPacket on missing bytes, InvalidParamValue on bad ones. */
export function readBinaryParam(r: ByteReader, wireType: number, unsigned: boolean): Value {
  switch (wireType) {
    case WireType.TINY:
      return unsigned ? BigInt(r.u8()) : BigInt((r.u8() << 24) >> 24);
    case WireType.SHORT:
    case WireType.YEAR:
      return unsigned ? BigInt(r.u16()) : BigInt((r.u16() << 16) >> 16);
    case WireType.LONG:
    case WireType.INT24:
      return unsigned ? BigInt(r.u32()) : BigInt(r.u32() | 0);
    case WireType.LONGLONG:
      return unsigned ? r.u64() : BigInt.asIntN(64, r.u64());
    case WireType.FLOAT:
      return r.bytes(4).readFloatLE(0);
    case WireType.DOUBLE:
      return r.bytes(8).readDoubleLE(0);
    case WireType.NULL:
      return null;
    case WireType.DATE:
    case WireType.DATETIME:
    case WireType.TIMESTAMP:
      return readDateTime(r, wireType === WireType.DATE);
    case WireType.TIME:
      return readTime(r);
    case WireType.DECIMAL:
    case WireType.NEWDECIMAL:
      return parseDecimal(r.lenencString());
  }
  if (STRING_TYPES.has(wireType)) return decodeSurrogateEscape(r.lenencBytes());
  if (BYTES_TYPES.has(wireType)) return new Uint8Array(r.lenencBytes());
  throw new InvalidParamValue(`unsupported parameter type ${wireType}`);
}

/** Long data (COM_STMT_SEND_LONG_DATA chunks) as the value of a parameter of `wireType`. */
export function longDataValue(data: Buffer, wireType: number): Value {
  if (STRING_TYPES.has(wireType)) return decodeSurrogateEscape(data);
  if (wireType === WireType.DECIMAL || wireType === WireType.NEWDECIMAL) return parseDecimal(data.toString('latin1'));
  return new Uint8Array(data);
}

/**
 * MySQL's decimal buffer holds 81 digits (9 words of 9): a parameter beyond that saturates to
 * the largest value, one below the last digit becomes 0 (string2decimal overflow/truncation).
 */
const DECIMAL_MAX_DIGITS = 81;
const DECIMAL_MAX = new Decimal(`${'9'.repeat(DECIMAL_MAX_DIGITS)}`);

/**
 * A decimal parameter sent as text. Validated with a linear scan (a backtracking regex here
 * was quadratic: 40 KB of digits and a stray letter blocked the event loop for seconds) and
 * bounded in magnitude and digits, so `1e999999999` cannot make later formatting (toFixed)
 * build a billion-character string.
 */
export function parseDecimal(text: string): Decimal {
  const t = text.trim();
  if (!isDecimalText(t)) throw new InvalidParamValue('invalid decimal parameter');
  const d = new Decimal(t);
  if (!d.isFinite() || d.e >= DECIMAL_MAX_DIGITS) return d.isNegative() ? DECIMAL_MAX.negated() : DECIMAL_MAX;
  if (d.e < -DECIMAL_MAX_DIGITS) return new Decimal(0);
  return d.toSignificantDigits(DECIMAL_MAX_DIGITS, Decimal.ROUND_DOWN);
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** `[-+]? (digits [. digits?] | . digits) ([eE] [-+]? digits)?`, in one pass. */
function isDecimalText(t: string): boolean {
  let i = 0;
  const at = (k: number): number => t.charCodeAt(k);
  if (at(i) === 0x2b || at(i) === 0x2d) i++;
  let digits = 0;
  while (isDigit(at(i))) (i++, digits++);
  if (at(i) === 0x2e) {
    i++;
    while (isDigit(at(i))) (i++, digits++);
  }
  if (digits === 0) return false;
  if (at(i) === 0x45 || at(i) === 0x65) {
    i++;
    if (at(i) === 0x2b || at(i) === 0x2d) i++;
    if (!isDigit(at(i))) return false;
    while (isDigit(at(i))) i++;
  }
  return i === t.length;
}

/**
 * DATE/DATETIME/TIMESTAMP parameter. Like MySQL (set_param_datetime, check_datetime_range), a
 * field out of range (month 13, minute 60, ...) makes the zero value instead of an impossible
 * DateTime reaching the engine, and a DATE ignores any time part.
 */
function readDateTime(r: ByteReader, dateOnly: boolean): DateTime {
  const len = r.u8();
  const b = r.bytes(len);
  if (len !== 0 && len !== 4 && len !== 7 && len !== 11) throw new InvalidParamValue(`invalid date length ${len}`);
  const kind = dateOnly ? 'date' : 'datetime';
  const zero = new DateTime(kind, 0, 0, 0);
  if (len === 0) return zero;
  const year = b.readUInt16LE(0);
  const [month, day] = [b[2] as number, b[3] as number];
  const withTime = len > 4 && !dateOnly;
  const [hour, minute, second] = withTime ? [b[4] as number, b[5] as number, b[6] as number] : [0, 0, 0];
  const micro = len === 11 && withTime ? b.readUInt32LE(7) : 0;
  if (year > 9999 || month > 12 || day > 31 || hour > 23 || minute > 59 || second > 59 || micro > 999_999) return zero;
  return new DateTime(kind, year, month, day, hour, minute, second, micro, micro ? 6 : 0);
}

/** Largest TIME: 838:59:59 (MySQL's set_param_time clamps longer durations to it). */
const TIME_MAX_HOURS = 838n;

/** TIME parameter: more than 838 hours clamps to 838:59:59; other fields out of range give 00:00:00. */
function readTime(r: ByteReader): Duration {
  const len = r.u8();
  const b = r.bytes(len);
  if (len === 0) return new Duration(0n);
  if (len !== 8 && len !== 12) throw new InvalidParamValue(`invalid time length ${len}`);
  let hours = BigInt(b.readUInt32LE(1)) * 24n + BigInt(b[5] as number);
  let [minute, second] = [b[6] as number, b[7] as number];
  const micro = len === 12 ? b.readUInt32LE(8) : 0;
  if (hours > TIME_MAX_HOURS) [hours, minute, second] = [TIME_MAX_HOURS, 59, 59];
  if (minute > 59 || second > 59 || micro > 999_999) return new Duration(0n);
  const micros = ((hours * 60n + BigInt(minute)) * 60n + BigInt(second)) * 1_000_000n + BigInt(micro);
  return new Duration(b[0] ? -micros : micros, micro ? 6 : 0);
}
