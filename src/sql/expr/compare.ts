/**
 * MySQL comparison rules on runtime values:
 * - int vs int: exact; int/decimal mixes: exact decimal; any double: double;
 * - string vs number: both as double; string vs string: by the comparison's collation
 *   (`compareValuesIn`; `compareValues` is the binary collation: UTF-8 byte order);
 * - DATE/DATETIME vs string: the string is parsed as a date-time (unparsable: compared as text);
 * - TIME vs string: parsed as TIME; bytes vs string: by bytes.
 */
import { BINARY_COLLATION, DateTime, Decimal, Duration, compareCodePoints, type Collation, type Value } from '../../types/index.js';
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

/** compareValues with two strings compared under `coll`. */
export function compareValuesIn(coll: Collation, a: Value, b: Value): number | null {
  if (typeof a === 'string' && typeof b === 'string') return coll.compare(a, b);
  return compareValues(a, b);
}

/** A comparator of values under `coll` (the plain byte comparison for binary collations). */
export function valueComparator(coll: Collation): (a: Value, b: Value) => number | null {
  return coll.binary ? compareValues : (a, b) => compareValuesIn(coll, a, b);
}

export { BINARY_COLLATION };

function isTextual(v: Value): v is string | Uint8Array {
  return typeof v === 'string' || v instanceof Uint8Array;
}

function toBytes(v: string | Uint8Array): Uint8Array {
  return typeof v === 'string' ? utf8Encode(v) : v;
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

/** Code-point order of two JS strings, which equals UTF-8 byte order. */
export const compareStrings = compareCodePoints;

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
