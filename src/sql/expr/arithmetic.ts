/**
 * + - * / DIV % and unary minus with MySQL's type rules: int op int -> BIGINT (overflow is
 * ER_DATA_OUT_OF_RANGE), any DECIMAL -> exact Decimal, any double or string -> double.
 * Division by zero yields NULL and warning 1365.
 */
import { DateTime, Decimal, Duration, type Value } from '../../types/index.js';
import { SqlError } from '../../errors/index.js';
import { dateTimeToNumberText, durationToNumberText, INT64_MAX, INT64_MIN, toDouble, UINT64_MAX } from './to-number.js';
import type { EvalContext } from './types.js';

/** Static facts about one arithmetic node, fixed at compile time. */
export interface ArithSite {
  /** The expression as MySQL prints it in 1690 messages, e.g. `(9223372036854775807 + 1)`. */
  readonly text: string;
  /** True when an operand's static type is unsigned: the BIGINT result is then unsigned. */
  readonly unsigned: boolean;
  /** Result scale of exact `/` (left scale + div_precision_increment 4), or -1 to derive it from the value. */
  readonly divScale: number;
}

type Num = bigint | Decimal | number;

/** The numeric form of a value in arithmetic context (temporal values as YYYYMMDD... numbers). */
export function numericOf(v: Exclude<Value, null>): Num {
  if (typeof v === 'bigint' || typeof v === 'number' || v instanceof Decimal) return v;
  if (v instanceof DateTime || v instanceof Duration) {
    const text = v instanceof DateTime ? dateTimeToNumberText(v) : durationToNumberText(v);
    return text.includes('.') ? new Decimal(text) : BigInt(text);
  }
  return toDouble(v) as number;
}

function toDec(n: Num): Decimal {
  return n instanceof Decimal ? n : new Decimal(typeof n === 'bigint' ? n.toString() : n);
}

function checkInt(r: bigint, a: bigint, b: bigint, site: ArithSite): bigint {
  const unsigned = site.unsigned || a > INT64_MAX || b > INT64_MAX;
  if (unsigned ? r < 0n || r > UINT64_MAX : r < INT64_MIN || r > INT64_MAX) {
    throw SqlError.of('ER_DATA_OUT_OF_RANGE', unsigned ? 'BIGINT UNSIGNED' : 'BIGINT', site.text);
  }
  return r;
}

type IntOp = (a: bigint, b: bigint) => bigint;
type DecOp = (a: Decimal, b: Decimal) => Decimal;
type RealOp = (a: number, b: number) => number;

function binary(a: Value, b: Value, site: ArithSite, i: IntOp, d: DecOp, r: RealOp): Value {
  if (a === null || b === null) return null;
  const x = numericOf(a);
  const y = numericOf(b);
  if (typeof x === 'number' || typeof y === 'number') return realResult(r(Number(x), Number(y)), site);
  if (typeof x === 'bigint' && typeof y === 'bigint') return checkInt(i(x, y), x, y, site);
  return d(toDec(x), toDec(y));
}

function realResult(v: number, site: ArithSite): number {
  if (!Number.isFinite(v)) throw SqlError.of('ER_DATA_OUT_OF_RANGE', 'DOUBLE', site.text);
  return v;
}

export function add(a: Value, b: Value, site: ArithSite): Value {
  return binary(a, b, site, (x, y) => x + y, (x, y) => x.plus(y), (x, y) => x + y);
}

export function subtract(a: Value, b: Value, site: ArithSite): Value {
  return binary(a, b, site, (x, y) => x - y, (x, y) => x.minus(y), (x, y) => x - y);
}

export function multiply(a: Value, b: Value, site: ArithSite): Value {
  return binary(a, b, site, (x, y) => x * y, (x, y) => x.times(y), (x, y) => x * y);
}

function isZero(n: Num): boolean {
  return typeof n === 'bigint' ? n === 0n : typeof n === 'number' ? n === 0 : n.isZero();
}

function divByZero(ctx: EvalContext): null {
  ctx.warn(1365, 'Division by 0');
  return null;
}

/** `/`: exact operands give a Decimal rounded to the site's scale, doubles a double. */
export function divide(a: Value, b: Value, site: ArithSite, ctx: EvalContext): Value {
  if (a === null || b === null) return null;
  const x = numericOf(a);
  const y = numericOf(b);
  if (isZero(y)) return divByZero(ctx);
  if (typeof x === 'number' || typeof y === 'number') return realResult(Number(x) / Number(y), site);
  const scale = site.divScale >= 0 ? site.divScale : Math.min(30, (x instanceof Decimal ? x.decimalPlaces() : 0) + 4);
  return toDec(x).dividedBy(toDec(y)).toDecimalPlaces(scale, Decimal.ROUND_HALF_UP);
}

/** `DIV`: integer division truncating toward zero. */
export function intDivide(a: Value, b: Value, site: ArithSite, ctx: EvalContext): Value {
  if (a === null || b === null) return null;
  const x = numericOf(a);
  const y = numericOf(b);
  if (isZero(y)) return divByZero(ctx);
  if (typeof x === 'bigint' && typeof y === 'bigint') return checkInt(x / y, x, y, site);
  const q = toDec(x).dividedBy(toDec(y)).toDecimalPlaces(0, Decimal.ROUND_DOWN);
  return checkInt(BigInt(q.toFixed(0)), 0n, 0n, site);
}

/** `%` / MOD: the remainder has the sign of the dividend. */
export function modulo(a: Value, b: Value, site: ArithSite, ctx: EvalContext): Value {
  if (a === null || b === null) return null;
  if (isZero(numericOf(b))) return divByZero(ctx);
  return binary(a, b, site, (x, y) => x % y, (x, y) => x.mod(y), (x, y) => x % y);
}

/** Unary minus. */
export function negate(a: Value, site: ArithSite): Value {
  if (a === null) return null;
  const x = numericOf(a);
  if (typeof x === 'number') return -x;
  if (x instanceof Decimal) return x.negated();
  if (x > INT64_MAX && -x >= INT64_MIN) return -x;
  return checkInt(-x, 0n, 0n, { ...site, unsigned: false });
}
