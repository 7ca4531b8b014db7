/**
 * More date/time functions: MAKEDATE, MAKETIME, LAST_DAY, DAYNAME, MONTHNAME, QUARTER, WEEK,
 * WEEKOFYEAR, YEARWEEK, TIME_TO_SEC, SEC_TO_TIME, TIMEDIFF, ADDTIME, SUBTIME, PERIOD_ADD,
 * PERIOD_DIFF, FROM_DAYS, TO_SECONDS, UTC_TIME, TIME_FORMAT, GET_FORMAT.
 */
import { DateTime, Decimal, Duration, type Value } from '../../../types/index.js';
import { civilFromDays, dayNumber, daysInMonth, fromMicros, MICROS_PER_DAY, toMicros } from '../date-math.js';
import { MAX_TIME_MICROS } from '../parse-datetime.js';
import { bigintType, dateType, datetimeType, timeType, varcharType } from '../result-types.js';
import { toDurationOf } from '../temporal-convert.js';
import { toBigInt, toDecimal } from '../to-number.js';
import type { EvalContext, TypeInfo } from '../types.js';
import { valueToString } from '../value-to-string.js';
import { dateArg } from './datetime.js';
import { formatDate } from './date-format.js';
import { always, arg, fixed, nullableFn, strictFn, type FunctionDef, type FunctionTable } from './function-def.js';
import { calcWeek, weekMode } from './week.js';

function dateFn(type: ReturnType<typeof bigintType>, get: (dt: DateTime) => Value): FunctionDef {
  return strictFn(1, 1, fixed(type), (args, ctx) => {
    const dt = dateArg(arg(args, 0), ctx);
    return dt === null ? null : get(dt);
  });
}

function twoDigitYear(y: bigint): number {
  if (y < 0n) return -1;
  if (y < 70n) return Number(y) + 2000;
  if (y < 100n) return Number(y) + 1900;
  return Number(y);
}

const makedate: FunctionDef = strictFn(2, 2, fixed(dateType()), (args) => {
  const year = twoDigitYear(toBigInt(arg(args, 0)) ?? 0n);
  const doy = toBigInt(arg(args, 1)) ?? 0n;
  if (year < 0 || year > 9999 || doy <= 0n) return null;
  const n = daysFromYear(year) + Number(doy) - 1;
  const { y, m, d } = civilFromDays(n);
  return y > 9999 ? null : new DateTime('date', y, m, d);
});

function daysFromYear(year: number): number {
  return dayNumber(new DateTime('date', year, 1, 1));
}

function clampTime(micros: bigint, fsp: number, ctx: EvalContext, text: string): Duration {
  if (micros > MAX_TIME_MICROS || micros < -MAX_TIME_MICROS) {
    ctx.warn(1292, `Truncated incorrect time value: '${text}'`);
    return new Duration(micros < 0n ? -MAX_TIME_MICROS : MAX_TIME_MICROS, fsp);
  }
  return new Duration(micros, fsp);
}

function fspOf(v: Value): number {
  return v instanceof Decimal ? Math.min(6, v.decimalPlaces()) : typeof v === 'number' ? 6 : 0;
}

const maketime: FunctionDef = strictFn(3, 3, (a) => timeType(a[2]?.type.kind === 'decimal' ? Math.min(6, a[2].type.scale) : 0), (args, ctx) => {
  const h = toBigInt(arg(args, 0)) ?? 0n;
  const m = toBigInt(arg(args, 1)) ?? 0n;
  const s = toDecimal(arg(args, 2)) as Decimal;
  if (m < 0n || m > 59n || s.isNegative() || s.gte(60)) return null;
  const secMicros = BigInt(s.times(1_000_000).toDecimalPlaces(0).toFixed(0));
  const abs = ((h < 0n ? -h : h) * 3600n + m * 60n) * 1_000_000n + secMicros;
  return clampTime(h < 0n ? -abs : abs, fspOf(arg(args, 2)), ctx, `${h}:${m}:${s.toString()}`);
});

/** A TIME-ish argument: TIME values, times in strings or numbers, the time part of datetimes. */
function timeArg(v: Exclude<Value, null>): Duration | null {
  return toDurationOf(v, -1);
}

/** A string or value that reads as a DATETIME (has a date part); null for pure times. */
function asDateTime(v: Exclude<Value, null>, ctx: EvalContext): DateTime | null {
  if (v instanceof DateTime) return v;
  if (v instanceof Duration) return null;
  const s = valueToString(v);
  if (!/^\s*\d{2,4}[-/.:]\d{1,2}[-/.:]\d{1,2}[ T]/.test(s) && !/^\s*\d{2,4}-\d{1,2}-\d{1,2}\s*$/.test(s)) return null;
  return dateArg(v, ctx);
}

const timeToSec: FunctionDef = strictFn(1, 1, fixed(bigintType(21)), (args) => {
  const d = timeArg(arg(args, 0));
  return d === null ? null : d.micros / 1_000_000n;
});

const secToTime: FunctionDef = strictFn(1, 1, (a) => timeType(a[0]?.type.kind === 'decimal' ? Math.min(6, a[0].type.scale) : 0), (args, ctx) => {
  const d = toDecimal(arg(args, 0)) as Decimal;
  const micros = BigInt(d.times(1_000_000).toDecimalPlaces(0).toFixed(0));
  return clampTime(micros, fspOf(arg(args, 0)), ctx, valueToString(arg(args, 0)));
});

/** TIMEDIFF(a, b): a - b as TIME; both DATETIME or both TIME, else NULL. */
const timediff: FunctionDef = strictFn(2, 2, fixed(timeType(6)), (args, ctx) => {
  const a = arg(args, 0);
  const b = arg(args, 1);
  const da = asDateTime(a, ctx);
  const db = asDateTime(b, ctx);
  let micros: bigint;
  if (da !== null && db !== null) micros = toMicros(da) - toMicros(db);
  else if (da === null && db === null) {
    const ta = timeArg(a);
    const tb = timeArg(b);
    if (ta === null || tb === null) return null;
    micros = ta.micros - tb.micros;
  } else return null;
  const fsp = Math.max(fspIn(a), fspIn(b));
  return clampTime(micros, fsp, ctx, String(micros));
});

function fspIn(v: Exclude<Value, null>): number {
  if (v instanceof DateTime || v instanceof Duration) return v.fsp;
  const m = /\.(\d+)\s*$/.exec(valueToString(v));
  return m === null ? 0 : Math.min(6, (m[1] as string).length);
}

/** ADDTIME / SUBTIME: a DATETIME stays a DATETIME, anything else is a TIME. */
function addTime(sign: 1n | -1n): FunctionDef {
  return strictFn(2, 2, (a) => (a[0]?.type.kind === 'datetime' || a[0]?.type.kind === 'timestamp' ? datetimeType(6) : a[0]?.type.kind === 'time' ? timeType(6) : varcharType(29)), (args, ctx) => {
    const a = arg(args, 0);
    const b = timeArg(arg(args, 1));
    if (b === null) return null;
    const fsp = Math.max(fspIn(a), b.fsp);
    const dt = asDateTime(a, ctx);
    if (dt !== null) {
      const micros = toMicros(dt) + sign * b.micros;
      if (micros < 0n) return null;
      const out = fromMicros(micros, 'datetime', fsp);
      return a instanceof DateTime ? out : out.toString();
    }
    const t = timeArg(a);
    if (t === null) return null;
    const out = clampTime(t.micros + sign * b.micros, fsp, ctx, '');
    return a instanceof Duration ? out : out.toString();
  });
}

function periodToMonths(p: bigint): number {
  let year = p / 100n;
  const month = p % 100n;
  if (year < 70n) year += 2000n;
  else if (year < 100n) year += 1900n;
  return Number(year) * 12 + Number(month) - 1;
}

function monthsToPeriod(months: number): bigint {
  return BigInt(Math.floor(months / 12) * 100 + (months % 12) + 1);
}

const periodAdd: FunctionDef = strictFn(2, 2, fixed(bigintType(6)), (args) => {
  const p = toBigInt(arg(args, 0)) ?? 0n;
  if (p === 0n) return 0n;
  return monthsToPeriod(periodToMonths(p) + Number(toBigInt(arg(args, 1)) ?? 0n));
});

const periodDiff: FunctionDef = strictFn(2, 2, fixed(bigintType(6)), (args) =>
  BigInt(periodToMonths(toBigInt(arg(args, 0)) ?? 0n) - periodToMonths(toBigInt(arg(args, 1)) ?? 0n)),
);

/** TIME_FORMAT(t, fmt): hour specifiers may exceed 23; date specifiers give NULL. */
const timeFormat: FunctionDef = strictFn(2, 2, fixed(varcharType(64)), (args) => {
  const t = timeArg(arg(args, 0));
  if (t === null) return null;
  const fmt = valueToString(arg(args, 1));
  if (/%[YyMmbcDdeajUuVvWwXx]/.test(fmt)) return null;
  const p = t.parts();
  const hours = Number(p.hours);
  const clock = new DateTime('datetime', 2000, 1, 1, hours % 24, p.minutes, p.seconds, p.micro, 6);
  const out = formatDate(clock, fmt.replace(/%[Hk]/g, (m) => (m === '%H' ? `${hours}`.padStart(2, '0') : `${hours}`)));
  return p.negative ? `-${out}` : out;
});

const FORMATS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  DATE: { USA: '%m.%d.%Y', JIS: '%Y-%m-%d', ISO: '%Y-%m-%d', EUR: '%d.%m.%Y', INTERNAL: '%Y%m%d' },
  DATETIME: { USA: '%Y-%m-%d %H.%i.%s', JIS: '%Y-%m-%d %H:%i:%s', ISO: '%Y-%m-%d %H:%i:%s', EUR: '%Y-%m-%d %H.%i.%s', INTERNAL: '%Y%m%d%H%i%s' },
  TIME: { USA: '%h:%i:%s %p', JIS: '%H:%i:%s', ISO: '%H:%i:%s', EUR: '%H.%i.%s', INTERNAL: '%H%i%s' },
};

/** GET_FORMAT(DATE|TIME|DATETIME|TIMESTAMP, 'USA'|'JIS'|'ISO'|'EUR'|'INTERNAL'); the first argument arrives as a string. */
const getFormat: FunctionDef = strictFn(2, 2, fixed(varcharType(17)), (args) => {
  const kind = valueToString(arg(args, 0)).toUpperCase();
  return FORMATS[kind === 'TIMESTAMP' ? 'DATETIME' : kind]?.[valueToString(arg(args, 1)).toUpperCase()] ?? null;
});

function weekFn(withYear: boolean): FunctionDef {
  return strictFn(1, 2, fixed(bigintType(withYear ? 6 : 2)), (args, ctx) => {
    const dt = dateArg(arg(args, 0), ctx);
    if (dt === null) return null;
    const mode = args.length > 1 ? Number(toBigInt(arg(args, 1)) ?? 0n) : Number(toBigInt(ctx.getVariable('session', 'default_week_format')) ?? 0n);
    const [week, year] = calcWeek(dt, weekMode(mode) | (withYear ? 2 : 0));
    return withYear ? BigInt(year * 100 + week) : BigInt(week);
  });
}

const noArgsType = (_a: readonly TypeInfo[]) => timeType(0);

export const DATETIME_MORE_FUNCTIONS: FunctionTable = {
  MAKEDATE: makedate,
  MAKETIME: maketime,
  LAST_DAY: dateFn(dateType(), (dt) => (dt.month === 0 ? null : new DateTime('date', dt.year, dt.month, daysInMonth(dt.year, dt.month)))),
  DAYNAME: dateFn(varcharType(9), (dt) => formatDate(dt, '%W')),
  MONTHNAME: dateFn(varcharType(9), (dt) => (dt.month === 0 ? null : formatDate(dt, '%M'))),
  QUARTER: dateFn(bigintType(1), (dt) => BigInt(Math.ceil(dt.month / 3))),
  WEEK: weekFn(false),
  WEEKOFYEAR: dateFn(bigintType(2), (dt) => BigInt(calcWeek(dt, weekMode(3))[0])),
  YEARWEEK: weekFn(true),
  TO_SECONDS: dateFn(bigintType(21), (dt) => toMicros(dt) / 1_000_000n),
  FROM_DAYS: strictFn(1, 1, fixed(dateType()), (args) => {
    const n = Number(toBigInt(arg(args, 0)) ?? 0n);
    if (n < 366) return new DateTime('date', 0, 0, 0);
    const { y, m, d } = civilFromDays(n);
    return y > 9999 ? null : new DateTime('date', y, m, d);
  }),
  TIME_TO_SEC: timeToSec,
  SEC_TO_TIME: secToTime,
  TIMEDIFF: timediff,
  ADDTIME: addTime(1n),
  SUBTIME: addTime(-1n),
  PERIOD_ADD: periodAdd,
  PERIOD_DIFF: periodDiff,
  TIME_FORMAT: timeFormat,
  GET_FORMAT: getFormat,
  UTC_TIME: nullableFn(0, 1, noArgsType, (args, ctx) => {
    const now = ctx.now();
    const fsp = args.length > 0 ? Math.max(0, Math.min(6, Number(toBigInt(args[0] ?? 0n)))) : 0;
    return new Duration(toMicros(now.withKind('datetime', fsp)) % MICROS_PER_DAY, fsp);
  }, always),
};
