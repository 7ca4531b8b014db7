/**
 * Calendar arithmetic on DateTime values (proleptic Gregorian, no time zones): day numbers,
 * microsecond timelines, fsp rounding, month arithmetic.
 */
import { DateTime } from '../../types/index.js';

export const MICROS_PER_DAY = 86_400_000_000n;
/** Days from 0000-01-01 to 1970-01-01. */
export const UNIX_EPOCH_DAYS = 719528;

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** A real calendar date (month 1-12, day within the month, year 0-9999). */
export function isValidDate(y: number, m: number, d: number): boolean {
  return y >= 0 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/** Day number, 0000-01-01 = 0; equals MySQL's TO_DAYS() from 0000-03-01 on (MySQL treats year 0 as non-leap). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe + 60; // 0000-03-01 is day 60 of year 0 (a leap year)
}

export function civilFromDays(n: number): { y: number; m: number; d: number } {
  const z = n - 60;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return { y, m, d };
}

export function dayNumber(dt: DateTime): number {
  return daysFromCivil(dt.year, dt.month, dt.day);
}

/** Microseconds since 0000-01-01 00:00:00. */
export function toMicros(dt: DateTime): bigint {
  const day = BigInt(dayNumber(dt)) * MICROS_PER_DAY;
  const secs = BigInt(dt.hour * 3600 + dt.minute * 60 + dt.second);
  return day + secs * 1_000_000n + BigInt(dt.micro);
}

export function fromMicros(micros: bigint, kind: 'date' | 'datetime', fsp: number): DateTime {
  let days = micros / MICROS_PER_DAY;
  let rest = micros % MICROS_PER_DAY;
  if (rest < 0n) {
    rest += MICROS_PER_DAY;
    days -= 1n;
  }
  const { y, m, d } = civilFromDays(Number(days));
  if (kind === 'date') return new DateTime('date', y, m, d);
  const micro = Number(rest % 1_000_000n);
  const secs = Number(rest / 1_000_000n);
  return new DateTime('datetime', y, m, d, Math.floor(secs / 3600), Math.floor(secs / 60) % 60, secs % 60, micro, fsp);
}

/** Rounds the fraction to `fsp` digits, half up, carrying into seconds/days (MySQL's default). */
export function roundToFsp(dt: DateTime, fsp: number): DateTime {
  if (dt.kind === 'date') return dt;
  const unit = 10 ** (6 - Math.min(6, Math.max(0, fsp)));
  const rounded = Math.round(dt.micro / unit) * unit;
  if (rounded === dt.micro) return new DateTime('datetime', dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.micro, fsp);
  if (rounded < 1_000_000 || !isValidDate(dt.year, dt.month, dt.day)) {
    const micro = Math.min(rounded, 999_999 - (999_999 % unit));
    return new DateTime('datetime', dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, micro, fsp);
  }
  return fromMicros(toMicros(dt) - BigInt(dt.micro) + BigInt(rounded), 'datetime', fsp);
}

/** Adds months, clamping the day to the target month's length (2020-01-31 + 1 month = 2020-02-29). */
export function addMonths(dt: DateTime, months: number): DateTime | null {
  const total = dt.year * 12 + (dt.month - 1) + months;
  const y = Math.floor(total / 12);
  const m = (total % 12) + 1;
  if (y < 0 || y > 9999) return null;
  const d = Math.min(dt.day, daysInMonth(y, m));
  return new DateTime(dt.kind, y, m, d, dt.hour, dt.minute, dt.second, dt.micro, dt.fsp);
}

/** Seconds since 1970-01-01 00:00:00 (UTC; the server runs with time_zone '+00:00'). */
export function toUnixMicros(dt: DateTime): bigint {
  return toMicros(dt) - BigInt(UNIX_EPOCH_DAYS) * MICROS_PER_DAY;
}

export function fromUnixMicros(micros: bigint, fsp: number): DateTime {
  return fromMicros(micros + BigInt(UNIX_EPOCH_DAYS) * MICROS_PER_DAY, 'datetime', fsp);
}

/** The zero date `0000-00-00` (or zero parts) that MySQL allows outside NO_ZERO_DATE. */
export function hasZeroPart(dt: DateTime): boolean {
  return dt.month === 0 || dt.day === 0;
}
