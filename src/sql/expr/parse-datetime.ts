/**
 * Text and number -> DATE/DATETIME/TIME as MySQL reads them:
 * `YYYY-MM-DD[( |T)HH:MM[:SS][.ffffff]]` (any punctuation as delimiter, 2-digit years 70-99 ->
 * 19xx, 00-69 -> 20xx), digit strings `YYYYMMDD[HHMMSS]` / `YYMMDD[HHMMSS]`, numbers likewise.
 * Parsing is syntactic plus range checks (month <= 12, day <= 31, hour < 24 ...); whether the
 * day exists in its month and zero dates are judged by the caller (`isValidDate`).
 */
import { DateTime, Decimal, Duration } from '../../types/index.js';

const DELIMITED = /^(\d{1,4})[^\d](\d{1,2})[^\d](\d{1,2})(?:(?:[T ]+|[^\d])(\d{1,2})(?:[^\d](\d{1,2})(?:[^\d](\d{1,2}))?)?(?:\.(\d*))?)?$/;
const DIGITS = /^(\d{6}|\d{8}|\d{12}|\d{14})(?:\.(\d*))?$/;

function fullYear(text: string): number {
  const y = Number(text);
  if (text.length > 2) return y;
  return y < 70 ? 2000 + y : 1900 + y;
}

/** Fraction digits -> microseconds (rounded to 6 digits) and the fsp they imply. */
function fraction(text: string | undefined): { micro: number; fsp: number; carry: number } {
  if (text === undefined || text === '') return { micro: 0, fsp: 0, carry: 0 };
  const digits = text.length > 6 ? text.slice(0, 7) : text.padEnd(6, '0');
  let micro = Number(digits.slice(0, 6));
  if (digits.length === 7 && Number(digits[6]) >= 5) micro += 1;
  const carry = micro >= 1_000_000 ? 1 : 0;
  return { micro: micro % 1_000_000, fsp: Math.min(6, text.length), carry };
}

function build(y: number, mo: number, d: number, h: number, mi: number, s: number, frac: string | undefined, hasTime: boolean): DateTime | null {
  if (mo > 12 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const f = fraction(frac);
  if (!hasTime) return new DateTime('date', y, mo, d);
  if (f.carry === 0) return new DateTime('datetime', y, mo, d, h, mi, s, f.micro, f.fsp);
  // .9999995 rounds up into the next second: only simple carries are handled (no day rollover).
  if (s < 59) return new DateTime('datetime', y, mo, d, h, mi, s + 1, 0, f.fsp);
  return new DateTime('datetime', y, mo, d, h, mi, s, 999_999, f.fsp);
}

/** Parses a date or date-time string; `null` when it is not one. */
export function parseDateTime(input: string): DateTime | null {
  const s = input.trim();
  const m = DELIMITED.exec(s);
  if (m !== null) {
    const hasTime = m[4] !== undefined;
    return build(fullYear(m[1] ?? '0'), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), m[7], hasTime);
  }
  const dm = DIGITS.exec(s);
  if (dm === null) return null;
  return fromDigits(dm[1] ?? '', dm[2]);
}

function fromDigits(digits: string, frac: string | undefined): DateTime | null {
  const long = digits.length === 8 || digits.length === 14;
  const yLen = long ? 4 : 2;
  const y = fullYear(digits.slice(0, yLen));
  const rest = digits.slice(yLen);
  const num = (i: number): number => Number(rest.slice(i, i + 2));
  const hasTime = rest.length > 4;
  return build(y, num(0), num(2), hasTime ? num(4) : 0, hasTime ? num(6) : 0, hasTime ? num(8) : 0, frac, hasTime);
}

/** A number read as YYYYMMDD[HHMMSS] (or YYMMDD[HHMMSS]); `null` when out of shape. */
export function numberToDateTime(n: bigint | number | Decimal): DateTime | null {
  const text = typeof n === 'bigint' ? n.toString() : n instanceof Decimal ? n.toFixed() : String(n);
  if (text.startsWith('-')) return null;
  const [int = '', frac] = text.split('.');
  if (int === '0') return new DateTime('date', 0, 0, 0);
  let digits = int;
  if (digits.length === 5 || digits.length === 7 || digits.length === 11 || digits.length === 13) digits = `0${digits}`;
  if (digits.length !== 6 && digits.length !== 8 && digits.length !== 12 && digits.length !== 14) return null;
  return fromDigits(digits, frac);
}

const TIME_DELIMITED = /^([+-])?(?:(\d+) +)?(\d+):(\d{1,2})(?::(\d{1,2}))?(?:\.(\d*))?$/;
const TIME_DIGITS = /^([+-])?(\d+)(?:\.(\d*))?$/;
/** MySQL's TIME range: +-838:59:59.000000. */
export const MAX_TIME_MICROS = ((838n * 60n + 59n) * 60n + 59n) * 1_000_000n;

/** Parses `[-][D ]HH:MM[:SS][.f]` or `[-]HHMMSS[.f]`; a date-time string gives its time part. */
export function parseTime(input: string): Duration | null {
  const s = input.trim();
  const m = TIME_DELIMITED.exec(s);
  if (m !== null) {
    const hours = Number(m[2] ?? 0) * 24 + Number(m[3]);
    return makeDuration(m[1] === '-', hours, Number(m[4]), Number(m[5] ?? 0), m[6]);
  }
  const dm = TIME_DIGITS.exec(s);
  if (dm !== null) return digitsToDuration(dm[1] === '-', dm[2] ?? '', dm[3]);
  const dt = parseDateTime(s);
  if (dt === null || dt.kind === 'date') return null;
  return makeDuration(false, dt.hour, dt.minute, dt.second, dt.micro === 0 ? undefined : String(dt.micro).padStart(6, '0').slice(0, dt.fsp || 6));
}

function digitsToDuration(neg: boolean, digits: string, frac: string | undefined): Duration | null {
  const padded = digits.padStart(6, '0');
  const secs = Number(padded.slice(-2));
  const mins = Number(padded.slice(-4, -2));
  const hours = Number(padded.slice(0, -4));
  return makeDuration(neg, hours, mins, secs, frac);
}

function makeDuration(neg: boolean, h: number, mi: number, s: number, frac: string | undefined): Duration | null {
  if (mi > 59 || s > 59) return null;
  const f = fraction(frac);
  let micros = ((BigInt(h) * 60n + BigInt(mi)) * 60n + BigInt(s) + BigInt(f.carry)) * 1_000_000n + BigInt(f.micro);
  if (micros > MAX_TIME_MICROS) return null;
  if (neg) micros = -micros;
  return new Duration(micros, f.fsp);
}

/** A number read as [-]HHMMSS[.f]. */
export function numberToDuration(n: bigint | number | Decimal): Duration | null {
  const text = typeof n === 'bigint' ? n.toString() : n instanceof Decimal ? n.toFixed() : String(n);
  const m = TIME_DIGITS.exec(text);
  return m === null ? null : digitsToDuration(m[1] === '-', m[2] ?? '', m[3]);
}
