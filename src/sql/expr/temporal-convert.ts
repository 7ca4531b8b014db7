/** Conversions of any value to DATE/DATETIME (DateTime) and TIME (Duration), shared by casts and stores. */
import { DateTime, Decimal, Duration, type Value } from '../../types/index.js';
import { utf8Decode } from '../../util/index.js';
import { fromMicros, hasZeroPart, isValidDate, MICROS_PER_DAY, roundToFsp, toMicros } from './date-math.js';
import { MAX_TIME_MICROS, numberToDateTime, numberToDuration, parseDateTime, parseTime } from './parse-datetime.js';

/**
 * `v` as a DATE (`kind` 'date') or DATETIME with `fsp` digits (rounded). Returns null when the
 * value is not a date (bad syntax, or a day its month lacks). Zero dates (`0000-00-00`, zero
 * month/day) are returned as such; callers that forbid them check `hasZeroPart`.
 * `today` supplies the date part when a TIME is converted.
 */
export function toDateTimeOf(v: Exclude<Value, null>, kind: 'date' | 'datetime', fsp: number, today: () => DateTime): DateTime | null {
  const dt = toTemporal(v, today);
  if (dt === null) return null;
  if (kind === 'date') return dt.kind === 'date' ? dt : dt.withKind('date', 0);
  const asDateTime = dt.kind === 'date' ? new DateTime('datetime', dt.year, dt.month, dt.day, 0, 0, 0, 0, fsp) : dt;
  return roundToFsp(asDateTime, fsp);
}

/**
 * `v` as a DATE or DATETIME as written: date-only strings and numbers give kind 'date',
 * DATETIME strings keep the fraction digits they had as fsp. Null when not a valid date.
 */
export function toTemporal(v: Exclude<Value, null>, today: () => DateTime): DateTime | null {
  let dt: DateTime | null;
  if (v instanceof DateTime) dt = v;
  else if (v instanceof Duration) dt = fromMicros(toMicros(today().withKind('date', 0)) + v.micros, 'datetime', 6);
  else if (typeof v === 'string') dt = parseDateTime(v);
  else if (v instanceof Uint8Array) dt = parseDateTime(utf8Decode(v));
  else dt = numberToDateTime(v);
  if (dt === null) return null;
  if (!hasZeroPart(dt) && !isValidDate(dt.year, dt.month, dt.day)) return null;
  if (hasZeroPart(dt) && (dt.year !== 0 || dt.month !== 0 || dt.day !== 0) && !isValidPartialZero(dt)) return null;
  return dt;
}

function isValidPartialZero(dt: DateTime): boolean {
  return dt.month <= 12 && dt.day <= 31;
}

/** `v` as a TIME with `fsp` digits (-1: as written); null when not a time or out of the +-838:59:59 range. */
export function toDurationOf(v: Exclude<Value, null>, fsp: number): Duration | null {
  let d: Duration | null;
  if (v instanceof Duration) d = v;
  else if (v instanceof DateTime) {
    const micros = v.kind === 'date' ? 0n : toMicros(v) % MICROS_PER_DAY;
    d = new Duration(micros, v.fsp);
  } else if (typeof v === 'string') d = parseTime(v);
  else if (v instanceof Uint8Array) d = parseTime(utf8Decode(v));
  else d = numberToDuration(typeof v === 'number' || typeof v === 'bigint' || v instanceof Decimal ? v : 0n);
  if (d === null) return null;
  return fsp < 0 ? d : roundDuration(d, fsp);
}

export function roundDuration(d: Duration, fsp: number): Duration | null {
  const unit = 10n ** BigInt(6 - Math.min(6, Math.max(0, fsp)));
  const abs = d.micros < 0n ? -d.micros : d.micros;
  const rounded = ((abs + unit / 2n) / unit) * unit;
  if (rounded > MAX_TIME_MICROS) return null;
  return new Duration(d.micros < 0n ? -rounded : rounded, fsp);
}
