/**
 * Lenient numeric conversions used by arithmetic, comparisons and functions: strings use their
 * leading numeric prefix (`'12abc'` -> 12, `'abc'` -> 0) as MySQL does in numeric context.
 */
import { DateTime, Decimal, Duration, type Value } from '../../types/index.js';
import { utf8Decode } from '../../util/index.js';

const NUMERIC_PREFIX = /^[ \t\n\r]*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/;

/** The numeric prefix of `s` ('' when none) and whether it spans the whole (trimmed) string. */
export function numericPrefix(s: string): { text: string; complete: boolean } {
  const m = NUMERIC_PREFIX.exec(s);
  if (m === null) return { text: '', complete: false };
  const whole = m[0] ?? '';
  const rest = s.slice(whole.length);
  return { text: m[1] ?? '', complete: rest.trim() === '' };
}

export function stringToDouble(s: string): number {
  const { text } = numericPrefix(s);
  return text === '' ? 0 : Number(text);
}

export function stringToDecimal(s: string): Decimal {
  const { text } = numericPrefix(s);
  if (text === '') return new Decimal(0);
  try {
    return new Decimal(text);
  } catch {
    return new Decimal(0);
  }
}

/** DATE -> YYYYMMDD, DATETIME -> YYYYMMDDHHMMSS[.ffffff]. */
export function dateTimeToNumberText(d: DateTime): string {
  const s = d.toString().replace(/[-: ]/g, '');
  return s;
}

/** TIME -> [-]HHMMSS[.ffffff]. */
export function durationToNumberText(d: Duration): string {
  return d.toString().replace(/:/g, '');
}

/** Any value as a double (NULL stays null). */
export function toDouble(v: Value): number | null {
  if (v === null) return null;
  switch (typeof v) {
    case 'number':
      return v;
    case 'bigint':
      return Number(v);
    case 'string':
      return stringToDouble(v);
    default:
      break;
  }
  if (v instanceof Decimal) return v.toNumber();
  if (v instanceof Uint8Array) return stringToDouble(utf8Decode(v));
  if (v instanceof DateTime) return Number(dateTimeToNumberText(v));
  if (v instanceof Duration) return Number(durationToNumberText(v));
  return 0;
}

/** Any value as an exact Decimal (doubles through their shortest text). */
export function toDecimal(v: Value): Decimal | null {
  if (v === null) return null;
  switch (typeof v) {
    case 'bigint':
      return new Decimal(v.toString());
    case 'number':
      return Number.isFinite(v) ? new Decimal(v) : new Decimal(0);
    case 'string':
      return stringToDecimal(v);
    default:
      break;
  }
  if (v instanceof Decimal) return v;
  if (v instanceof Uint8Array) return stringToDecimal(utf8Decode(v));
  if (v instanceof DateTime) return new Decimal(dateTimeToNumberText(v));
  if (v instanceof Duration) return new Decimal(durationToNumberText(v));
  return new Decimal(0);
}

/** Rounds half away from zero to an integer (MySQL's rule for exact and approximate values). */
export function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** A Decimal rounded half away from zero to an integer bigint. */
export function decimalToBigInt(d: Decimal): bigint {
  return BigInt(d.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0));
}

/** A finite double rounded half away from zero to bigint (infinities/NaN -> 0). */
export function doubleToBigInt(x: number): bigint {
  if (!Number.isFinite(x)) return 0n;
  return BigInt(roundHalfAway(x));
}

/**
 * Any value as an integer bigint, rounding half away from zero; strings use their numeric
 * prefix (`'1.6'` -> 2 as in arithmetic context). Not range-checked.
 */
export function toBigInt(v: Value): bigint | null {
  if (v === null) return null;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return doubleToBigInt(v);
  const d = toDecimal(v);
  return d === null ? null : decimalToBigInt(d);
}

export const INT64_MIN = -(1n << 63n);
export const INT64_MAX = (1n << 63n) - 1n;
export const UINT64_MAX = (1n << 64n) - 1n;

/** Two's-complement wrap to unsigned 64-bit (bit operations). */
export function toUint64(x: bigint): bigint {
  return BigInt.asUintN(64, x);
}

/** Any value as unsigned 64-bit for bit operations (MySQL converts operands to unsigned longlong, clipping). */
export function toBitOperand(v: Value): bigint | null {
  if (v === null) return null;
  if (typeof v === 'bigint') return toUint64(v);
  const d = toDouble(v);
  if (d === null) return null;
  if (d >= 18446744073709551615) return UINT64_MAX;
  if (d <= -9223372036854775808) return 1n << 63n;
  return toUint64(doubleToBigInt(d));
}
