/**
 * INTERVAL arithmetic: `DATE_ADD(d, INTERVAL n unit)`, `d + INTERVAL n unit`, `d - INTERVAL ...`.
 * Simple units take a number (fractions rounded, except SECOND/MICROSECOND keep microseconds);
 * compound units (`DAY_SECOND` ...) take a string whose digit groups fill the unit's fields from
 * the right (`'1 02:03:04'` DAY_SECOND).
 */
import { DateTime, Decimal, type Value } from '../../types/index.js';
import { addMonths, fromMicros, toMicros } from './date-math.js';
import { toDecimal } from './to-number.js';
import { valueToString } from './value-to-string.js';

export interface IntervalAmount {
  readonly months: number;
  readonly micros: bigint;
}

type Field = 'Y' | 'MO' | 'D' | 'H' | 'MI' | 'S' | 'US';

const FIELD_MICROS: Record<Field, bigint> = {
  Y: 0n,
  MO: 0n,
  D: 86_400_000_000n,
  H: 3_600_000_000n,
  MI: 60_000_000n,
  S: 1_000_000n,
  US: 1n,
};

const UNIT_FIELDS: Readonly<Record<string, readonly Field[]>> = {
  MICROSECOND: ['US'],
  SECOND: ['S'],
  MINUTE: ['MI'],
  HOUR: ['H'],
  DAY: ['D'],
  WEEK: ['D'],
  MONTH: ['MO'],
  QUARTER: ['MO'],
  YEAR: ['Y'],
  SECOND_MICROSECOND: ['S', 'US'],
  MINUTE_MICROSECOND: ['MI', 'S', 'US'],
  MINUTE_SECOND: ['MI', 'S'],
  HOUR_MICROSECOND: ['H', 'MI', 'S', 'US'],
  HOUR_SECOND: ['H', 'MI', 'S'],
  HOUR_MINUTE: ['H', 'MI'],
  DAY_MICROSECOND: ['D', 'H', 'MI', 'S', 'US'],
  DAY_SECOND: ['D', 'H', 'MI', 'S'],
  DAY_MINUTE: ['D', 'H', 'MI'],
  DAY_HOUR: ['D', 'H'],
  YEAR_MONTH: ['Y', 'MO'],
};

export function isIntervalUnit(unit: string): boolean {
  return UNIT_FIELDS[unit] !== undefined;
}

/** True when the unit only moves whole days (a DATE stays a DATE). */
export function isDateUnit(unit: string): boolean {
  return ['DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'YEAR_MONTH'].includes(unit);
}

function simple(unit: string, v: Exclude<Value, null>): IntervalAmount {
  const d = toDecimal(v) as Decimal;
  if (unit === 'SECOND') return { months: 0, micros: BigInt(d.times(1_000_000).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0)) };
  const n = BigInt(d.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0));
  switch (unit) {
    case 'YEAR':
      return { months: Number(n) * 12, micros: 0n };
    case 'QUARTER':
      return { months: Number(n) * 3, micros: 0n };
    case 'MONTH':
      return { months: Number(n), micros: 0n };
    case 'WEEK':
      return { months: 0, micros: n * 7n * FIELD_MICROS.D };
    default: {
      const field = UNIT_FIELDS[unit]?.[0] ?? 'US';
      return { months: 0, micros: n * FIELD_MICROS[field] };
    }
  }
}

/** The interval `v unit`; null for NULL or an unknown unit. */
export function intervalOf(v: Value, unit: string): IntervalAmount | null {
  const fields = UNIT_FIELDS[unit];
  if (v === null || fields === undefined) return null;
  if (fields.length === 1) return simple(unit, v);
  const text = valueToString(v).trim();
  const neg = text.startsWith('-');
  const groups = text.match(/\d+/g) ?? [];
  const hasFraction = fields[fields.length - 1] === 'US' && /\.\d+$/.test(text);
  let months = 0;
  let micros = 0n;
  const used = groups.slice(-fields.length);
  const offset = fields.length - used.length;
  used.forEach((g, i) => {
    const field = fields[offset + i] as Field;
    const isFrac = field === 'US' && hasFraction && i === used.length - 1;
    const n = BigInt(isFrac ? g.padEnd(6, '0').slice(0, 6) : g);
    if (field === 'Y') months += Number(n) * 12;
    else if (field === 'MO') months += Number(n);
    else micros += n * FIELD_MICROS[field];
  });
  return neg ? { months: -months, micros: -micros } : { months, micros };
}

/** `dt` moved by `sign` * interval; null when the result leaves years 0..9999. */
export function addInterval(dt: DateTime, iv: IntervalAmount, sign: 1 | -1, keepDate: boolean): DateTime | null {
  let base: DateTime | null = dt;
  if (iv.months !== 0) base = addMonths(dt, sign * iv.months);
  if (base === null) return null;
  if (iv.micros === 0n && keepDate) return base;
  const kind = keepDate && base.kind === 'date' ? 'date' : 'datetime';
  const fsp = iv.micros % 1_000_000n !== 0n ? 6 : base.kind === 'date' ? 0 : base.fsp;
  const micros = toMicros(base) + (sign === 1 ? iv.micros : -iv.micros);
  const out = fromMicros(micros, kind, fsp);
  return out.year < 0 || out.year > 9999 || micros < 0n ? null : out;
}
