/**
 * Lenient conversions used when a value's JS type does not match its column's wire type
 * (e.g. a number in a LONGLONG column): convert as MySQL would cast, never throw.
 */
import { DateTime, Decimal, Duration, type Value } from '../types/index.js';

export function toBigInt(v: Value): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
  if (typeof v === 'string') {
    const m = /^\s*[-+]?\d+/.exec(v);
    return m ? BigInt(m[0].trim()) : 0n;
  }
  if (v instanceof Decimal) return BigInt(v.trunc().toFixed(0));
  if (v instanceof DateTime) return BigInt(dateNumber(v));
  if (v instanceof Duration) return v.micros / 1_000_000n;
  if (v instanceof Uint8Array) return bytesToBigInt(v);
  return 0n;
}

export function toNumber(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    const n = Number.parseFloat(v);
    return Number.isNaN(n) ? 0 : n;
  }
  if (v instanceof Decimal) return v.toNumber();
  if (v instanceof DateTime) return dateNumber(v);
  if (v instanceof Duration) return Number(v.micros) / 1e6;
  if (v === null) return 0;
  return Number(bytesToBigInt(v));
}

/** DATETIME text 'YYYY-MM-DD[ HH:MM:SS[.ffffff]]' -> DateTime, or null. */
export function toDateTime(v: Value): DateTime | null {
  if (v instanceof DateTime) return v;
  if (typeof v !== 'string') return null;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,6}))?)?$/.exec(v.trim());
  if (!m) return null;
  const n = (i: number): number => Number(m[i] ?? 0);
  const frac = m[7] ?? '';
  const micro = Number(frac.padEnd(6, '0') || 0);
  return new DateTime(m[4] === undefined ? 'date' : 'datetime', n(1), n(2), n(3), n(4), n(5), n(6), micro, frac.length);
}

/** TIME text '[-]HHH:MM:SS[.ffffff]' -> Duration, or null. */
export function toDuration(v: Value): Duration | null {
  if (v instanceof Duration) return v;
  if (typeof v !== 'string') return null;
  const m = /^(-)?(\d+):(\d{1,2}):(\d{1,2})(?:\.(\d{1,6}))?$/.exec(v.trim());
  if (!m) return null;
  const frac = m[5] ?? '';
  const secs = (BigInt(m[2] ?? 0) * 60n + BigInt(m[3] ?? 0)) * 60n + BigInt(m[4] ?? 0);
  const micros = secs * 1_000_000n + BigInt(frac.padEnd(6, '0') || 0);
  return new Duration(m[1] ? -micros : micros, frac.length);
}

function dateNumber(d: DateTime): number {
  const ymd = d.year * 10000 + d.month * 100 + d.day;
  return d.kind === 'date' ? ymd : ymd * 1_000_000 + d.hour * 10000 + d.minute * 100 + d.second;
}

function bytesToBigInt(b: Uint8Array): bigint {
  let n = 0n;
  for (const byte of b.subarray(Math.max(0, b.length - 8))) n = (n << 8n) | BigInt(byte);
  return n;
}
