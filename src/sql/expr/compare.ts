/**
 * MySQL comparison rules on runtime values (binary collation for strings):
 * - int vs int: exact; int/decimal mixes: exact decimal; any double: double;
 * - string vs number: both as double; string vs string: UTF-8 byte order (no PAD SPACE);
 * - DATE/DATETIME vs string: the string is parsed as a date-time (unparsable: compared as text);
 * - TIME vs string: parsed as TIME; bytes vs string: by bytes.
 */
import { DateTime, Decimal, Duration, type Value } from '../../types/index.js';
import { compareBytes, utf8Encode } from '../../util/index.js';
import { numberToDateTime, parseDateTime, parseTime } from './parse-datetime.js';
import { toDecimal, toDouble } from './to-number.js';
import { valueToString } from './value-to-string.js';

/** Negative, zero or positive; null when either side is NULL. */
export function compareValues(a: Value, b: Value): number | null {
  if (a === null || b === null) return null;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (a instanceof DateTime || b instanceof DateTime) return compareWithDateTime(a, b);
  if (a instanceof Duration || b instanceof Duration) return compareWithDuration(a, b);
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (isTextual(a) && isTextual(b)) return compareBytes(toBytes(a), toBytes(b));
  }
  return compareNumeric(a, b);
}

function isTextual(v: Value): v is string | Uint8Array {
  return typeof v === 'string' || v instanceof Uint8Array;
}

function toBytes(v: string | Uint8Array): Uint8Array {
  return typeof v === 'string' ? utf8Encode(v) : v;
}

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

function compareNumeric(a: Value, b: Value): number {
  const exactA = typeof a === 'bigint' || a instanceof Decimal;
  const exactB = typeof b === 'bigint' || b instanceof Decimal;
  if (exactA && exactB) {
    const da = toDecimal(a) as Decimal;
    return da.comparedTo(toDecimal(b) as Decimal);
  }
  const x = toDouble(a) as number;
  const y = toDouble(b) as number;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Code-point order of two JS strings, which equals UTF-8 byte order: UTF-16 units are compared
 * directly except that surrogates (U+10000 and up) must sort after U+E000..U+FFFF.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixup(x) - fixup(y);
  }
  return sign(a.length - b.length);
}

function fixup(c: number): number {
  if (c >= 0xd800 && c <= 0xdfff) return c + 0x2000;
  if (c >= 0xe000) return c - 0x800;
  return c;
}

function asDateTime(v: Value): DateTime | null {
  if (v instanceof DateTime) return v;
  if (typeof v === 'string') return parseDateTime(v);
  if (v instanceof Uint8Array) return parseDateTime(valueToString(v));
  if (typeof v === 'bigint' || typeof v === 'number' || v instanceof Decimal) return numberToDateTime(v);
  return null;
}

function compareWithDateTime(a: Value, b: Value): number {
  if ((typeof a === 'number' || typeof b === 'number') || (a instanceof Duration || b instanceof Duration)) {
    return compareNumeric(a, b);
  }
  const x = asDateTime(a);
  const y = asDateTime(b);
  if (x === null || y === null) return compareStrings(valueToString(a), valueToString(b));
  const px = x.toPacked();
  const py = y.toPacked();
  return px < py ? -1 : px > py ? 1 : 0;
}

function compareWithDuration(a: Value, b: Value): number {
  const x = a instanceof Duration ? a : typeof a === 'string' ? parseTime(a) : null;
  const y = b instanceof Duration ? b : typeof b === 'string' ? parseTime(b) : null;
  if (x === null || y === null) return compareNumeric(a, b);
  return x.micros < y.micros ? -1 : x.micros > y.micros ? 1 : 0;
}

/** WHERE/IF semantics: NULL -> null; numbers non-zero; strings by their numeric prefix. */
export function truthy(v: Value): boolean | null {
  if (v === null) return null;
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'number') return v !== 0;
  if (v instanceof Decimal) return !v.isZero();
  if (v instanceof DateTime) return v.year !== 0 || v.month !== 0 || v.day !== 0 || v.toPacked() !== 0n;
  if (v instanceof Duration) return v.micros !== 0n;
  return toDouble(v) !== 0;
}

/** Equality for IN/CASE/NULLIF: null when either side is NULL. */
export function valuesEqual(a: Value, b: Value): boolean | null {
  const c = compareValues(a, b);
  return c === null ? null : c === 0;
}
