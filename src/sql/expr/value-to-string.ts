/**
 * MySQL's canonical text form of a value (CONCAT, string comparison, error messages such as
 * `Duplicate entry '...'`).
 */
import { DateTime, Decimal, Duration, type Value } from '../../types/index.js';
import { utf8Decode } from '../../util/index.js';

/**
 * bigint as decimal digits; Decimal in plain notation (decimal.js keeps no trailing zeros, so
 * `1.50` prints `1.5`: callers that know the column scale should use `formatDecimal`);
 * doubles in MySQL's shortest form (`0.1`, `100`, `1e20`); dates and times as MySQL prints them;
 * bytes decoded as UTF-8 (invalid sequences become U+FFFD). NULL gives ''.
 */
export function valueToString(v: Value): string {
  if (v === null) return '';
  switch (typeof v) {
    case 'string':
      return v;
    case 'bigint':
      return v.toString();
    case 'number':
      return formatDouble(v);
    default:
      break;
  }
  if (v instanceof Uint8Array) return utf8Decode(v);
  if (v instanceof Decimal) return v.toFixed();
  if (v instanceof DateTime || v instanceof Duration) return v.toString();
  return String(v);
}

/** A Decimal with exactly `scale` fraction digits (MySQL prints DECIMAL(M,D) values with D digits). */
export function formatDecimal(d: Decimal, scale: number): string {
  return d.toFixed(scale);
}

/**
 * A double as MySQL prints it: the shortest digits that round-trip, in plain notation when the
 * decimal exponent is in [-15, 14], else `d.ddde<exp>` (e.g. `1e15`, `1.2345678901234568e17`, `1e-16`).
 */
export function formatDouble(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return '0';
  const exp = x.toExponential(); // shortest round-trip digits: "-1.2345e+17"
  const eAt = exp.indexOf('e');
  const mantissa = exp.slice(0, eAt);
  const e = Number(exp.slice(eAt + 1));
  if (e < -15 || e >= 15) return `${mantissa}e${e}`;
  return plain(mantissa, e);
}

function plain(mantissa: string, e: number): string {
  const neg = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const decpt = e + 1;
  let out: string;
  if (decpt <= 0) out = `0.${'0'.repeat(-decpt)}${digits}`;
  else if (decpt >= digits.length) out = digits + '0'.repeat(decpt - digits.length);
  else out = `${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  return neg ? `-${out}` : out;
}
