/**
 * Store assignment (INSERT/UPDATE): converts any value to the JS representation of a column's
 * type. Strict mode (STRICT_TRANS_TABLES) turns each problem into an error; otherwise the value
 * is clipped/truncated and a warning with the same errno and text is added:
 * 1264 out of range, 1406 too long (non-strict: 1265), 1366 bad int/decimal/double string,
 * 1265 trailing garbage, 1292 bad date/time, 3140 bad JSON. NOT NULL is not checked here.
 */
import {
  DateTime, Decimal, Duration, integerBounds, isBinaryType, isIntegerType, isStringType, lobMaxBytes,
  type ColumnType, type Value,
} from '../../types/index.js';
import { SqlError, type ErrorName } from '../../errors/index.js';
import { isWellFormedText, utf8Decode, utf8Encode } from '../../util/index.js';
import { decimalMax } from './cast.js';
import { bitValue } from './bit-value.js';
import { enumValue, setValue } from './enum-set.js';
import { invalidTextValue, replaceInvalidBytes } from './invalid-text.js';
import { JsonSyntaxError, parseJson, serializeJson } from './json/index.js';
import { hasZeroPart, toUnixMicros } from './date-math.js';
import { toDateTimeOf, toDurationOf } from './temporal-convert.js';
import { decimalToBigInt, doubleToBigInt, numericPrefix, toDecimal, toDouble } from './to-number.js';
import type { EvalContext } from './types.js';
import { valueToString } from './value-to-string.js';

interface Site {
  readonly col: string;
  /** Table name for messages that name `table.column` (3140). */
  readonly table?: string | undefined;
  readonly row: number;
  readonly ctx: EvalContext;
}

/** Strict: throw; otherwise warn with the same errno and message. */
function problem(site: Site, name: ErrorName, ...args: ReadonlyArray<string | number>): void {
  const err = SqlError.of(name, ...args);
  if (site.ctx.strict) throw err;
  site.ctx.warn(err.errno, err.message);
}

function outOfRange(site: Site): void {
  problem(site, 'ER_WARN_DATA_OUT_OF_RANGE', site.col, site.row);
}

export function coerceToColumn(
  v: Value,
  col: { readonly name: string; readonly type: ColumnType },
  rowNumber: number,
  ctx: EvalContext,
  table?: string,
): Value {
  if (v === null) return null;
  const t = col.type;
  const site: Site = { col: col.name, row: rowNumber, ctx, table };
  if (t.kind === 'year') return storeYear(v, site);
  if (isIntegerType(t)) return storeInteger(v, t, site);
  if (t.kind === 'enum' || t.kind === 'set') return storeEnumSet(v, t, site);
  if (isStringType(t)) return storeString(v, t, site);
  if (isBinaryType(t)) return storeBytes(v, t, site);
  switch (t.kind) {
    case 'decimal':
      return storeDecimal(v, t, site);
    case 'float':
    case 'double':
      return storeDouble(v, t, site);
    case 'date':
    case 'datetime':
    case 'timestamp':
      return storeDateTime(v, t, site);
    case 'time':
      return storeTime(v, t, site);
    case 'json':
      return storeJson(v, site);
    case 'bit':
      return storeBit(v, t, site);
    default:
      return v;
  }
}

/**
 * A string in numeric context of a store: '' or no numeric prefix -> 1366 (value 0); a prefix
 * followed by garbage -> 1265 (value of the prefix).
 */
function numericText(v: string | Uint8Array, word: string, site: Site): string {
  const s = typeof v === 'string' ? v : utf8Decode(v);
  const { text, complete } = numericPrefix(s);
  if (text === '') {
    problem(site, 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD', word, s, site.col, site.row);
    return '0';
  }
  if (!complete) problem(site, 'ER_WARN_DATA_TRUNCATED', site.col, site.row);
  return text;
}

function exactOf(v: Exclude<Value, null>, word: string, site: Site): Decimal | bigint | number {
  if (typeof v === 'bigint' || typeof v === 'number' || v instanceof Decimal) return v;
  if (typeof v === 'string' || v instanceof Uint8Array) return new Decimal(numericText(v, word, site));
  return toDecimal(v) as Decimal;
}

function storeInteger(v: Exclude<Value, null>, t: ColumnType, site: Site): bigint {
  const x = exactOf(v, 'integer', site);
  const { min, max } = integerBounds(t);
  let n: bigint;
  if (typeof x === 'bigint') n = x;
  else if (typeof x === 'number') {
    if (!Number.isFinite(x)) {
      outOfRange(site);
      return x > 0 ? max : min;
    }
    n = doubleToBigInt(x);
  } else n = decimalToBigInt(x);
  if (n < min || n > max) {
    outOfRange(site);
    return n < min ? min : max;
  }
  return n;
}

/** YEAR: 1-69 -> 2001-2069, 70-99 -> 1970-1999, 0 stays 0 (the string '0' is 2000); else 1901-2155. */
function storeYear(v: Exclude<Value, null>, site: Site): bigint {
  const isText = typeof v === 'string' || v instanceof Uint8Array;
  if (v instanceof DateTime) return BigInt(v.year);
  const n = storeInteger(v, { ...yearAsInt, unsigned: false }, site);
  if (n === 0n) return isText ? 2000n : 0n;
  if (n > 0n && n < 70n) return 2000n + n;
  if (n >= 70n && n < 100n) return 1900n + n;
  if (n < 1901n || n > 2155n) {
    outOfRange(site);
    return n < 1901n ? 1901n : 2155n;
  }
  return n;
}

const yearAsInt: ColumnType = { kind: 'int', unsigned: false, length: -1, scale: 0, lob: 'normal', collation: 'binary' };

function storeDecimal(v: Exclude<Value, null>, t: ColumnType, site: Site): Decimal {
  const x = exactOf(v, 'decimal', site);
  if (typeof x === 'number' && !Number.isFinite(x)) {
    outOfRange(site);
    return decimalMax(t.length, t.scale);
  }
  const exact = x instanceof Decimal ? x : toDecimal(x) as Decimal;
  const rounded = exact.toDecimalPlaces(t.scale, Decimal.ROUND_HALF_UP);
  const max = decimalMax(t.length, t.scale);
  if (rounded.abs().greaterThan(max) || (t.unsigned && rounded.isNegative() && !rounded.isZero())) {
    outOfRange(site);
    return rounded.isNegative() ? (t.unsigned ? new Decimal(0) : max.negated()) : max;
  }
  if (!rounded.equals(exact)) site.ctx.warn(1265, SqlError.of('ER_WARN_DATA_TRUNCATED', site.col, site.row).message);
  return rounded;
}

const FLOAT_MAX = 3.4028234663852886e38;

function storeDouble(v: Exclude<Value, null>, t: ColumnType, site: Site): number {
  const x = typeof v === 'string' || v instanceof Uint8Array ? Number(numericText(v, 'double', site)) : (toDouble(v) as number);
  const limit = t.kind === 'float' ? FLOAT_MAX : Number.MAX_VALUE;
  if (!Number.isFinite(x) || Math.abs(x) > limit) {
    outOfRange(site);
    return x > 0 ? limit : -limit;
  }
  if (t.unsigned && x < 0) {
    outOfRange(site);
    return 0;
  }
  return x;
}

/** Characters of `s` that fit in `maxBytes` UTF-8 bytes. */
function fitBytes(s: string, maxBytes: number): string {
  let bytes = 0;
  let out = '';
  for (const ch of s) {
    const n = utf8Encode(ch).length;
    if (bytes + n > maxBytes) break;
    bytes += n;
    out += ch;
  }
  return out;
}

function storeString(v: Exclude<Value, null>, t: ColumnType, site: Site): string {
  let s = valueToString(v);
  if (!isWellFormedText(s)) s = validText(s, site);
  if (t.kind === 'text') {
    const limit = lobMaxBytes(t.lob);
    if (s.length * 3 > limit && utf8Encode(s).length > limit) s = tooLong(s, fitBytes(s, limit), site);
  } else if (t.length >= 0 && s.length > t.length) {
    const chars = Array.from(s);
    if (chars.length > t.length) s = tooLong(s, chars.slice(0, t.length).join(''), site);
  }
  return t.kind === 'char' && s.charCodeAt(s.length - 1) === 32 ? s.replace(/ +$/, '') : s;
}

/** Bytes that are not UTF-8 (escaped by the decoder): 1366, or '?' per byte with a warning. */
function validText(s: string, site: Site): string {
  const shown = invalidTextValue(s);
  if (shown === null) return s;
  problem(site, 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD', 'string', shown, site.col, site.row);
  return replaceInvalidBytes(s);
}

/** Excess made only of spaces is cut silently (MySQL: a note); anything else is 1406. */
function tooLong(s: string, kept: string, site: Site): string {
  if (s.slice(kept.length).trim() === '' && /^ *$/.test(s.slice(kept.length))) return kept;
  const err = SqlError.of('ER_DATA_TOO_LONG', site.col, site.row);
  if (site.ctx.strict) throw err;
  site.ctx.warn(1265, SqlError.of('ER_WARN_DATA_TRUNCATED', site.col, site.row).message);
  return kept;
}

function storeBytes(v: Exclude<Value, null>, t: ColumnType, site: Site): Uint8Array {
  let b = v instanceof Uint8Array ? v : utf8Encode(valueToString(v));
  const limit = t.kind === 'blob' ? lobMaxBytes(t.lob) : t.length;
  if (limit >= 0 && b.length > limit) {
    const excess = b.subarray(limit);
    if (!excess.every((x) => x === 0) || t.kind === 'blob') {
      const err = SqlError.of('ER_DATA_TOO_LONG', site.col, site.row);
      if (site.ctx.strict) throw err;
      site.ctx.warn(1265, SqlError.of('ER_WARN_DATA_TRUNCATED', site.col, site.row).message);
    }
    b = b.slice(0, limit);
  }
  if (t.kind === 'binary' && t.length > 0 && b.length < t.length) {
    const padded = new Uint8Array(t.length);
    padded.set(b, 0);
    return padded;
  }
  return b;
}

const TIMESTAMP_MIN = 1_000_000n; // 1970-01-01 00:00:01 UTC
const TIMESTAMP_MAX = 2_147_483_647_999_999n; // 2038-01-19 03:14:07.999999 UTC

function storeDateTime(v: Exclude<Value, null>, t: ColumnType, site: Site): DateTime {
  const kind = t.kind === 'date' ? 'date' : 'datetime';
  const dt = toDateTimeOf(v, kind, t.scale, () => site.ctx.now());
  let bad = dt === null || hasZeroPart(dt);
  if (dt !== null && !bad && t.kind === 'timestamp') {
    const u = toUnixMicros(dt);
    bad = u < TIMESTAMP_MIN || u > TIMESTAMP_MAX;
  }
  if (dt !== null && !bad) return dt;
  problem(site, 'ER_TRUNCATED_WRONG_TEMPORAL_VALUE_FOR_FIELD', kind, valueToString(v), site.col, site.row);
  if (dt !== null && hasZeroPart(dt)) return dt;
  return new DateTime(kind, 0, 0, 0, 0, 0, 0, 0, kind === 'date' ? 0 : t.scale);
}

function storeTime(v: Exclude<Value, null>, t: ColumnType, site: Site): Duration {
  const d = toDurationOf(v, t.scale);
  if (d !== null) return d;
  problem(site, 'ER_TRUNCATED_WRONG_TEMPORAL_VALUE_FOR_FIELD', 'time', valueToString(v), site.col, site.row);
  return new Duration(0n, t.scale);
}

/**
 * JSON is kept as MySQL's normalized text (json/json-serialize.ts): strings must parse (3140,
 * strict or not), other non-JSON values are 3140 "not a JSON text, may need CAST", binary 3144.
 */
function storeJson(v: Exclude<Value, null>, site: Site): string {
  const column = site.table === undefined ? site.col : `${site.table}.${site.col}`;
  if (v instanceof Uint8Array) throw SqlError.of('ER_INVALID_JSON_CHARSET', 'binary');
  if (typeof v !== 'string') throw SqlError.of('ER_INVALID_JSON_TEXT', 'not a JSON text, may need CAST', 0, column);
  try {
    return serializeJson(parseJson(v));
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw SqlError.of('ER_INVALID_JSON_TEXT', e.reason, e.position, column);
    throw e;
  }
}

/** ENUM / SET (enum-set.ts): an invalid value is 1265; non-strict keeps '' (ENUM) or the valid members (SET). */
function storeEnumSet(v: Exclude<Value, null>, t: ColumnType, site: Site): string {
  if (t.kind === 'enum') {
    const e = enumValue(v, t);
    if (e !== null) return e;
    problem(site, 'ER_WARN_DATA_TRUNCATED', site.col, site.row);
    return '';
  }
  const { text, valid } = setValue(v, t);
  if (!valid) problem(site, 'ER_WARN_DATA_TRUNCATED', site.col, site.row);
  return text;
}

/** BIT(n): a value wider than n bits is 1406 (non-strict: all ones with a warning). */
function storeBit(v: Exclude<Value, null>, t: ColumnType, site: Site): Uint8Array {
  const { bytes, fits } = bitValue(v, t);
  if (!fits) problem(site, 'ER_DATA_TOO_LONG', site.col, site.row);
  return bytes;
}
