/**
 * DATE_ADD / DATE_SUB / ADDDATE / SUBDATE (with `INTERVAL n unit`, or ADDDATE(d, days)) and
 * TIMESTAMPDIFF(unit, a, b). The unit of TIMESTAMPDIFF is read from the AST: a string literal or
 * a bare identifier (`column` node named e.g. SECOND).
 */
import type { Expr } from '../../parse/ast.js';
import { DateTime, isTemporalType, type ColumnType } from '../../../types/index.js';
import { SqlError } from '../../../errors/index.js';
import { toMicros } from '../date-math.js';
import { addInterval, intervalOf, isDateUnit, isIntervalUnit } from '../interval.js';
import { bigintType, dateType, datetimeType, varcharType } from '../result-types.js';
import type { EvalContext, Evaluator, TypeInfo } from '../types.js';
import { dateArg } from './datetime.js';
import type { CompileHelper, FunctionDef, FunctionTable } from './function-def.js';

/** The `INTERVAL expr unit` of an argument, or `expr DAY` for the ADDDATE(d, n) form. */
function intervalParts(e: Expr | undefined, allowDays: boolean): { expr: Expr; unit: string } {
  if (e?.kind === 'interval') return { expr: e.expr, unit: e.unit };
  if (allowDays && e !== undefined) return { expr: e, unit: 'DAY' };
  throw SqlError.of('ER_PARSE_ERROR', 'INTERVAL', 1);
}

/** Result type of `d +/- INTERVAL`: DATE stays DATE for day units; strings give strings. */
export function intervalResultType(base: ColumnType, unit: string): ColumnType {
  if (base.kind === 'date') return isDateUnit(unit) ? dateType() : datetimeType(unit.includes('MICRO') ? 6 : 0);
  if (base.kind === 'datetime' || base.kind === 'timestamp') return datetimeType(unit.includes('MICRO') ? 6 : base.scale);
  return isTemporalType(base) ? datetimeType(0) : varcharType(29);
}

/** Evaluator for `base +/- INTERVAL amount unit` (also used by the binary operators). */
export function compileIntervalArith(base: Evaluator, amount: Evaluator, unit: string, sign: 1 | -1, baseType: ColumnType): Evaluator {
  if (!isIntervalUnit(unit)) throw SqlError.of('ER_PARSE_ERROR', unit, 1);
  const asText = !isTemporalType(baseType);
  return (row, ctx) => {
    const b = base(row, ctx);
    const iv = intervalOf(amount(row, ctx), unit);
    if (b === null || iv === null) return null;
    const dt = dateArg(b, ctx);
    if (dt === null) return null;
    const out = addInterval(dt, iv, sign, isDateUnit(unit));
    if (out === null) {
      ctx.warn(1441, 'Datetime function: datetime field overflow');
      return null;
    }
    return asText ? out.toString() : out;
  };
}

function dateAdd(sign: 1 | -1, allowDays: boolean): FunctionDef {
  return {
    min: 2,
    max: 2,
    type: (args: readonly TypeInfo[], exprs: readonly Expr[]) => {
      const { unit } = intervalParts(exprs[1], allowDays);
      return intervalResultType(args[0]?.type ?? varcharType(29), unit);
    },
    notNull: () => false,
    compile: (args: readonly Expr[], c: CompileHelper) => {
      const { expr, unit } = intervalParts(args[1], allowDays);
      const base = args[0] as Expr;
      return compileIntervalArith(c.compile(base), c.compile(expr), unit, sign, c.typeOf(base).type);
    },
  };
}

const UNIT_MICROS: Readonly<Record<string, bigint>> = {
  MICROSECOND: 1n,
  SECOND: 1_000_000n,
  MINUTE: 60_000_000n,
  HOUR: 3_600_000_000n,
  DAY: 86_400_000_000n,
  WEEK: 604_800_000_000n,
};
const UNIT_MONTHS: Readonly<Record<string, number>> = { MONTH: 1, QUARTER: 3, YEAR: 12 };

function unitName(e: Expr | undefined): string {
  if (e?.kind === 'literal' && typeof e.value === 'string') return e.value.toUpperCase();
  if (e?.kind === 'column') return e.name.toUpperCase();
  return '';
}

/** Whole months from a to b, minus one when b's day/time has not reached a's (MySQL's rule). */
function monthsBetween(a: DateTime, b: DateTime): number {
  const [lo, hi, sign] = toMicros(a) <= toMicros(b) ? [a, b, 1] : [b, a, -1];
  let months = (hi.year - lo.year) * 12 + (hi.month - lo.month);
  const loRest = toMicros(new DateTime('datetime', 2000, 1, lo.day, lo.hour, lo.minute, lo.second, lo.micro));
  const hiRest = toMicros(new DateTime('datetime', 2000, 1, hi.day, hi.hour, hi.minute, hi.second, hi.micro));
  if (hiRest < loRest) months -= 1;
  return sign * months;
}

function timestampDiff(unit: string, a: DateTime, b: DateTime): bigint {
  const months = UNIT_MONTHS[unit];
  if (months !== undefined) return BigInt(Math.trunc(monthsBetween(a, b) / months));
  return (toMicros(b) - toMicros(a)) / (UNIT_MICROS[unit] ?? 1n);
}

const timestampdiff: FunctionDef = {
  min: 3,
  max: 3,
  type: () => bigintType(21),
  notNull: () => false,
  compile: (args, c) => {
    const unit = unitName(args[0]);
    if (UNIT_MICROS[unit] === undefined && UNIT_MONTHS[unit] === undefined) throw SqlError.of('ER_PARSE_ERROR', unit, 1);
    const a = c.compile(args[1] as Expr);
    const b = c.compile(args[2] as Expr);
    return (row, ctx: EvalContext) => {
      const x = a(row, ctx);
      const y = b(row, ctx);
      if (x === null || y === null) return null;
      const dx = dateArg(x, ctx);
      const dy = dateArg(y, ctx);
      return dx === null || dy === null ? null : timestampDiff(unit, dx, dy);
    };
  },
};

export const DATE_ADD_FUNCTIONS: FunctionTable = {
  DATE_ADD: dateAdd(1, false),
  DATE_SUB: dateAdd(-1, false),
  ADDDATE: dateAdd(1, true),
  SUBDATE: dateAdd(-1, true),
  TIMESTAMPDIFF: timestampdiff,
};
