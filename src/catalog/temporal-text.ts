/**
 * Small parsers for the temporal literals a column default holds:
 * 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM:SS[.ffffff]' (also with 'T') and '[-]HHH:MM:SS[.ffffff]'.
 * Zero dates ('0000-00-00') are accepted as MySQL stores them. Returns null when malformed.
 */
import { DateTime, Duration } from '../types/index.js';

const DATETIME_RE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,6}))?)?$/;
const TIME_RE = /^(-)?(\d{1,3}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,6}))?$/;

export function parseDateTimeText(text: string, kind: 'date' | 'datetime', fsp: number): DateTime | null {
  const m = DATETIME_RE.exec(text.trim());
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? '0')) as [
    number, number, number, number, number, number,
  ];
  const micro = fractionMicros(m[7]);
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  return new DateTime('datetime', year, month, day, hour, minute, second, micro, 6).withKind(kind, fsp);
}

export function parseTimeText(text: string, fsp: number): Duration | null {
  const m = TIME_RE.exec(text.trim());
  if (m === null) return null;
  const hours = BigInt(m[2] ?? '0');
  const minutes = BigInt(m[3] ?? '0');
  const seconds = BigInt(m[4] ?? '0');
  if (minutes > 59n || seconds > 59n || hours > 838n) return null;
  let micros = ((hours * 60n + minutes) * 60n + seconds) * 1_000_000n + BigInt(fractionMicros(m[5]));
  const unit = 10n ** BigInt(6 - Math.min(6, Math.max(0, fsp)));
  micros = (micros / unit) * unit;
  return new Duration(m[1] === '-' ? -micros : micros, fsp);
}

function fractionMicros(frac: string | undefined): number {
  return frac === undefined ? 0 : Number(frac.padEnd(6, '0'));
}

function validDate(year: number, month: number, day: number): boolean {
  if (month === 0 || day === 0) return month <= 12 && day <= 31; // zero / partial-zero dates
  if (month > 12) return false;
  const dim = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
  return day <= dim;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}
