/**
 * Unit-taking and zone functions: EXTRACT(unit FROM d) (parsed into EXTRACT('UNIT', d)),
 * TIMESTAMPADD(unit, n, d), CONVERT_TZ(d, from, to).
 */
import type { Expr } from '../../parse/ast.js';
import { SqlError } from '../../../errors/index.js';
import { DateTime, Duration, type Value } from '../../../types/index.js';
import { fromUnixMicros, toUnixMicros } from '../date-math.js';
import { bigintType, datetimeType, varcharType } from '../result-types.js';
import { toDurationOf } from '../temporal-convert.js';
import type { EvalContext, Evaluator } from '../types.js';
import { valueToString } from '../value-to-string.js';
import { compileIntervalArith, intervalResultType } from './date-add.js';
import { dateArg } from './datetime.js';
import { fixed, strictFn, type CompileHelper, type FunctionDef, type FunctionTable } from './function-def.js';
import { calcWeek, weekMode } from './week.js';

function unitOf(e: Expr | undefined): string {
  if (e?.kind === 'literal' && typeof e.value === 'string') return e.value.toUpperCase();
  if (e?.kind === 'column') return e.name.toUpperCase();
  return '';
}

type Fields = { neg: boolean; y: number; mo: number; d: number; h: number; mi: number; s: number; us: number };

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** The digits of the unit's fields concatenated, as MySQL's EXTRACT of compound units. */
const EXTRACTORS: Readonly<Record<string, (f: Fields, dt: DateTime | null) => number>> = {
  YEAR: (f) => f.y,
  QUARTER: (f) => Math.ceil(f.mo / 3),
  MONTH: (f) => f.mo,
  WEEK: (_f, dt) => (dt === null ? 0 : calcWeek(dt, weekMode(0))[0]),
  DAY: (f) => f.d,
  HOUR: (f) => f.h,
  MINUTE: (f) => f.mi,
  SECOND: (f) => f.s,
  MICROSECOND: (f) => f.us,
  YEAR_MONTH: (f) => f.y * 100 + f.mo,
  DAY_HOUR: (f) => Number(`${f.d}${pad2(f.h)}`),
  DAY_MINUTE: (f) => Number(`${f.d}${pad2(f.h)}${pad2(f.mi)}`),
  DAY_SECOND: (f) => Number(`${f.d}${pad2(f.h)}${pad2(f.mi)}${pad2(f.s)}`),
  DAY_MICROSECOND: (f) => Number(`${f.d}${pad2(f.h)}${pad2(f.mi)}${pad2(f.s)}${String(f.us).padStart(6, '0')}`),
  HOUR_MINUTE: (f) => Number(`${f.h}${pad2(f.mi)}`),
  HOUR_SECOND: (f) => Number(`${f.h}${pad2(f.mi)}${pad2(f.s)}`),
  HOUR_MICROSECOND: (f) => Number(`${f.h}${pad2(f.mi)}${pad2(f.s)}${String(f.us).padStart(6, '0')}`),
  MINUTE_SECOND: (f) => Number(`${f.mi}${pad2(f.s)}`),
  MINUTE_MICROSECOND: (f) => Number(`${f.mi}${pad2(f.s)}${String(f.us).padStart(6, '0')}`),
  SECOND_MICROSECOND: (f) => Number(`${f.s}${String(f.us).padStart(6, '0')}`),
};

const TIME_UNITS = new Set(['HOUR', 'MINUTE', 'SECOND', 'MICROSECOND', 'HOUR_MINUTE', 'HOUR_SECOND', 'HOUR_MICROSECOND', 'MINUTE_SECOND', 'MINUTE_MICROSECOND', 'SECOND_MICROSECOND']);

function fieldsOf(v: Exclude<Value, null>, unit: string, ctx: EvalContext): [Fields, DateTime | null] | null {
  const timeOnly = v instanceof Duration || (TIME_UNITS.has(unit) && !(v instanceof DateTime) && !/^\s*\d{2,4}-\d{1,2}-\d{1,2}/.test(valueToString(v)));
  if (timeOnly) {
    const t = toDurationOf(v, -1);
    if (t === null) return null;
    const p = t.parts();
    return [{ neg: p.negative, y: 0, mo: 0, d: 0, h: Number(p.hours), mi: p.minutes, s: p.seconds, us: p.micro }, null];
  }
  const dt = dateArg(v, ctx);
  if (dt === null) return null;
  return [{ neg: false, y: dt.year, mo: dt.month, d: dt.day, h: dt.hour, mi: dt.minute, s: dt.second, us: dt.micro }, dt];
}

const extract: FunctionDef = {
  min: 2,
  max: 2,
  type: fixed(bigintType(21)),
  notNull: () => false,
  compile: (args: readonly Expr[], c: CompileHelper): Evaluator => {
    const unit = unitOf(args[0]);
    const get = EXTRACTORS[unit];
    if (get === undefined) throw SqlError.of('ER_PARSE_ERROR', unit, 1);
    const src = c.compile(args[1] as Expr);
    return (row, ctx) => {
      const v = src(row, ctx);
      if (v === null) return null;
      const f = fieldsOf(v, unit, ctx);
      if (f === null) return null;
      const n = BigInt(get(f[0], f[1]));
      return f[0].neg ? -n : n;
    };
  },
};

/** TIMESTAMPADD(unit, n, d) = DATE_ADD(d, INTERVAL n unit). */
const timestampadd: FunctionDef = {
  min: 3,
  max: 3,
  type: (a, e) => intervalResultType(a[2]?.type ?? varcharType(29), unitOf(e[0])),
  notNull: () => false,
  compile: (args: readonly Expr[], c: CompileHelper): Evaluator => {
    const unit = unitOf(args[0]);
    const base = args[2] as Expr;
    return compileIntervalArith(c.compile(base), c.compile(args[1] as Expr), unit, 1, c.typeOf(base).type);
  },
};

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch {
      f = null;
    }
    formatters.set(zone, f);
  }
  return f;
}

/** Offset in minutes of `zone` ('+05:30', 'UTC', 'Europe/Paris') at the UTC instant `utcMicros`; undefined when unknown. */
function offsetAt(zone: string, utcMicros: bigint): number | undefined {
  const m = /^([+-])(\d{1,2}):(\d{2})$/.exec(zone.trim());
  if (m !== null) {
    const mins = Number(m[2]) * 60 + Number(m[3]);
    return mins > 14 * 60 ? undefined : m[1] === '-' ? -mins : mins;
  }
  const f = formatterFor(zone);
  if (f === null) return undefined;
  const ms = Number(utcMicros / 1000n);
  const part = (type: string): number => Number(f.formatToParts(new Date(ms)).find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** The UTC instant of wall-clock `dt` in `zone` (the offset taken at the guessed instant, refined once). */
function toUtc(dt: DateTime, zone: string): bigint | undefined {
  const wall = toUnixMicros(dt);
  const first = offsetAt(zone, wall);
  if (first === undefined) return undefined;
  const guess = wall - BigInt(first) * 60_000_000n;
  const second = offsetAt(zone, guess) ?? first;
  return wall - BigInt(second) * 60_000_000n;
}

/** CONVERT_TZ(dt, from, to): NULL for unknown zones (MySQL: unless the zone tables know them). */
const convertTz: FunctionDef = strictFn(3, 3, (a) => datetimeType(a[0]?.type.kind === 'datetime' || a[0]?.type.kind === 'timestamp' ? a[0].type.scale : 6), (args, ctx) => {
  const dt = dateArg(args[0] as Exclude<Value, null>, ctx);
  if (dt === null) return null;
  const from = normalizeZone(valueToString(args[1] as Exclude<Value, null>));
  const to = normalizeZone(valueToString(args[2] as Exclude<Value, null>));
  const utc = toUtc(dt, from);
  if (utc === undefined) return null;
  const off = offsetAt(to, utc);
  if (off === undefined) return null;
  const out = fromUnixMicros(utc + BigInt(off) * 60_000_000n, dt.kind === 'date' ? 0 : dt.fsp);
  return out.year < 1 || out.year > 9999 ? dt : out;
});

function normalizeZone(zone: string): string {
  const upper = zone.toUpperCase();
  if (upper === 'SYSTEM') return Intl.DateTimeFormat().resolvedOptions().timeZone;
  return upper === 'UTC' ? 'UTC' : zone;
}

export const DATETIME_UNIT_FUNCTIONS: FunctionTable = {
  EXTRACT: extract,
  TIMESTAMPADD: timestampadd,
  CONVERT_TZ: convertTz,
};
