/** Date and time functions: NOW, CURDATE, UNIX_TIMESTAMP, FROM_UNIXTIME, DATE, YEAR..SECOND, DATE_FORMAT, DATEDIFF. */
import { DateTime, Decimal, Duration, type Value } from '../../../types/index.js';
import { dayNumber, fromUnixMicros, MICROS_PER_DAY, toMicros, toUnixMicros } from '../date-math.js';
import { bigintType, dateType, datetimeType, decimalType, timeType, varcharType } from '../result-types.js';
import { toDurationOf, toTemporal } from '../temporal-convert.js';
import { toBigInt, toDecimal } from '../to-number.js';
import type { EvalContext } from '../types.js';
import { valueToString } from '../value-to-string.js';
import { dayOfYear, formatDate, weekday } from './date-format.js';
import { always, arg, fixed, nullableFn, strictFn, type FunctionDef, type FunctionTable } from './function-def.js';

function fspArg(args: readonly Value[]): number {
  const n = args.length > 0 ? Number(toBigInt(args[0] ?? 0n)) : 0;
  return Math.max(0, Math.min(6, n));
}

function fspType(exprs: readonly { kind: string; value?: unknown }[]): number {
  const e = exprs[0];
  return e?.kind === 'literal' && typeof e.value === 'bigint' ? Math.min(6, Number(e.value)) : 0;
}

function nowFn(clock: (ctx: EvalContext) => DateTime): FunctionDef {
  return nullableFn(0, 1, (_a, e) => datetimeType(fspType(e)), (args, ctx) => clock(ctx).withKind('datetime', fspArg(args)), always);
}

function systemNow(): DateTime {
  return fromUnixMicros(BigInt(Date.now()) * 1000n, 6);
}

/** A date-time argument (strings parsed); null when not a date, with warning 1292. */
export function dateArg(v: Exclude<Value, null>, ctx: EvalContext): DateTime | null {
  const dt = toTemporal(v, () => ctx.now());
  if (dt === null) ctx.warn(1292, `Incorrect datetime value: '${valueToString(v)}'`);
  return dt;
}

function part(type: ReturnType<typeof bigintType>, get: (dt: DateTime) => number): FunctionDef {
  return strictFn(1, 1, fixed(type), (args, ctx) => {
    const dt = dateArg(arg(args, 0), ctx);
    return dt === null ? null : BigInt(get(dt));
  });
}

/** HOUR/MINUTE/SECOND also accept TIME values (HOUR can exceed 23). */
function timePart(get: (micros: bigint) => bigint): FunctionDef {
  return strictFn(1, 1, fixed(bigintType(3)), (args) => {
    const v = arg(args, 0);
    const d = v instanceof DateTime ? toDurationOf(v, 6) : toDurationOf(v, 6) ?? toDurationOf(valueToString(v), 6);
    if (d === null) return null;
    const m = d.micros < 0n ? -d.micros : d.micros;
    return get(m);
  });
}

const unixTimestamp: FunctionDef = nullableFn(0, 1, (a) => (a.length === 0 ? bigintType(21) : decimalType(18, 6)), (args, ctx) => {
  if (args.length === 0) return toUnixMicros(ctx.now()) / 1_000_000n;
  const v = args[0] ?? null;
  if (v === null) return null;
  const dt = dateArg(v, ctx);
  if (dt === null) return null;
  const micros = toUnixMicros(dt);
  if (micros < 0n) return 0n;
  if (dt.micro === 0) return micros / 1_000_000n;
  return new Decimal(micros.toString()).dividedBy(1_000_000);
}, (a) => a.length === 0);

const fromUnixtime: FunctionDef = strictFn(1, 2, (a) => (a.length > 1 ? varcharType(64) : datetimeType(0)), (args) => {
  const d = toDecimal(arg(args, 0)) as Decimal;
  if (d.isNegative()) return null;
  const micros = BigInt(d.times(1_000_000).toDecimalPlaces(0).toFixed(0));
  const fsp = Math.min(6, d.decimalPlaces());
  const dt = fromUnixMicros(micros, fsp);
  return args.length > 1 ? formatDate(dt, valueToString(arg(args, 1))) : dt;
});

const dateFormat: FunctionDef = strictFn(2, 2, fixed(varcharType(64)), (args, ctx) => {
  const dt = dateArg(arg(args, 0), ctx);
  return dt === null ? null : formatDate(dt, valueToString(arg(args, 1)));
});

const datediff: FunctionDef = strictFn(2, 2, fixed(bigintType(11)), (args, ctx) => {
  const a = dateArg(arg(args, 0), ctx);
  const b = dateArg(arg(args, 1), ctx);
  return a === null || b === null ? null : BigInt(dayNumber(a) - dayNumber(b));
});

const dateOf: FunctionDef = strictFn(1, 1, fixed(dateType()), (args, ctx) => dateArg(arg(args, 0), ctx)?.withKind('date', 0) ?? null);

const timeOf: FunctionDef = strictFn(1, 1, fixed(timeType(0)), (args) => {
  const v = arg(args, 0);
  if (v instanceof DateTime) return new Duration(v.kind === 'date' ? 0n : toMicros(v) % MICROS_PER_DAY, v.fsp);
  return toDurationOf(v, -1);
});

export const DATETIME_FUNCTIONS: FunctionTable = {
  NOW: nowFn((ctx) => ctx.now()),
  CURRENT_TIMESTAMP: nowFn((ctx) => ctx.now()),
  LOCALTIME: nowFn((ctx) => ctx.now()),
  LOCALTIMESTAMP: nowFn((ctx) => ctx.now()),
  UTC_TIMESTAMP: nowFn((ctx) => ctx.now()),
  /** The time of the call itself (UTC), not of the statement start. */
  SYSDATE: nowFn(() => systemNow()),
  CURDATE: nullableFn(0, 0, fixed(dateType()), (_a, ctx) => ctx.now().withKind('date', 0), always),
  CURRENT_DATE: nullableFn(0, 0, fixed(dateType()), (_a, ctx) => ctx.now().withKind('date', 0), always),
  UTC_DATE: nullableFn(0, 0, fixed(dateType()), (_a, ctx) => ctx.now().withKind('date', 0), always),
  CURTIME: nullableFn(0, 1, (_a, e) => timeType(fspType(e)), (args, ctx) => timeOf.call?.([ctx.now().withKind('datetime', fspArg(args))], ctx) ?? null, always),
  CURRENT_TIME: nullableFn(0, 1, (_a, e) => timeType(fspType(e)), (args, ctx) => timeOf.call?.([ctx.now().withKind('datetime', fspArg(args))], ctx) ?? null, always),
  UNIX_TIMESTAMP: unixTimestamp,
  FROM_UNIXTIME: fromUnixtime,
  DATE: dateOf,
  TIME: timeOf,
  YEAR: part(bigintType(4), (dt) => dt.year),
  MONTH: part(bigintType(2), (dt) => dt.month),
  DAY: part(bigintType(2), (dt) => dt.day),
  DAYOFMONTH: part(bigintType(2), (dt) => dt.day),
  DAYOFWEEK: part(bigintType(1), (dt) => ((weekday(dt) + 1) % 7) + 1),
  WEEKDAY: part(bigintType(1), (dt) => weekday(dt)),
  DAYOFYEAR: part(bigintType(3), (dt) => dayOfYear(dt)),
  TO_DAYS: part(bigintType(7), (dt) => dayNumber(dt)),
  HOUR: timePart((m) => m / 3_600_000_000n),
  MINUTE: timePart((m) => (m / 60_000_000n) % 60n),
  SECOND: timePart((m) => (m / 1_000_000n) % 60n),
  MICROSECOND: timePart((m) => m % 1_000_000n),
  DATE_FORMAT: dateFormat,
  DATEDIFF: datediff,
};
