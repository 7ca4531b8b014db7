/**
 * CAST(expr AS type) / CONVERT(expr, type). Never throws for bad input: like MySQL it returns the
 * best value (0, NULL for bad dates) and adds warning 1292 `Truncated incorrect ... value`.
 * The exception is CAST(... AS JSON), which raises MySQL's JSON errors (3141 / 3144).
 */
import { Decimal, formatColumnType, isBinaryType, isIntegerType, isStringType, type ColumnType, type Value } from '../../types/index.js';
import { utf8Decode, utf8Encode } from '../../util/index.js';
import { toJsonText } from './json/index.js';
import { toDateTimeOf, toDurationOf } from './temporal-convert.js';
import { INT64_MAX, INT64_MIN, toDecimal, toDouble, UINT64_MAX, decimalToBigInt, doubleToBigInt, numericPrefix } from './to-number.js';
import type { EvalContext } from './types.js';
import { valueToString } from './value-to-string.js';

export function castValue(v: Value, to: ColumnType, ctx: EvalContext): Value {
  if (v === null) return null;
  if (isIntegerType(to)) return castToInteger(v, to.unsigned, ctx);
  if (to.kind === 'json') return toJsonText(v, 'cast_as_json');
  if (isStringType(to)) return castToString(v, to, ctx);
  if (isBinaryType(to)) return castToBytes(v, to, ctx);
  switch (to.kind) {
    case 'decimal':
      return castToDecimal(v, to, ctx);
    case 'float':
      return Math.fround(toDouble(v) ?? 0);
    case 'double':
      return toDouble(v);
    case 'date':
    case 'datetime':
    case 'timestamp':
      return castToDateTime(v, to, ctx);
    case 'time':
      return castToTime(v, to, ctx);
    case 'null':
      return null;
    default:
      return v;
  }
}

function truncatedWarning(ctx: EvalContext, what: string, v: Value): void {
  ctx.warn(1292, `Truncated incorrect ${what} value: '${valueToString(v)}'`);
}

const INTEGER_PREFIX = /^\s*([+-]?\d+)/;

/** SIGNED/UNSIGNED: strings by their integer prefix; exact and approximate numbers rounded half away. */
export function castToInteger(v: Exclude<Value, null>, unsigned: boolean, ctx: EvalContext): bigint {
  let n: bigint;
  if (typeof v === 'bigint') n = v;
  else if (typeof v === 'number') n = doubleToBigInt(v);
  else if (typeof v === 'string' || v instanceof Uint8Array) n = stringToInteger(typeof v === 'string' ? v : utf8Decode(v), unsigned, ctx);
  else n = decimalToBigInt(toDecimal(v) as Decimal);
  return unsigned ? BigInt.asUintN(64, clip(n, INT64_MIN, UINT64_MAX)) : BigInt.asIntN(64, clip(n, INT64_MIN, UINT64_MAX));
}

function clip(n: bigint, lo: bigint, hi: bigint): bigint {
  return n < lo ? lo : n > hi ? hi : n;
}

function stringToInteger(s: string, unsigned: boolean, ctx: EvalContext): bigint {
  const m = INTEGER_PREFIX.exec(s);
  if (m === null) {
    truncatedWarning(ctx, 'INTEGER', s);
    return 0n;
  }
  if (m[0].length !== s.trimEnd().length) truncatedWarning(ctx, 'INTEGER', s);
  const n = BigInt(m[1] ?? '0');
  const lo = unsigned ? INT64_MIN : INT64_MIN;
  const hi = unsigned ? UINT64_MAX : INT64_MAX;
  if (n < lo || n > hi) {
    truncatedWarning(ctx, 'INTEGER', s);
    return clip(n, lo, hi);
  }
  return n;
}

function castToString(v: Exclude<Value, null>, to: ColumnType, ctx: EvalContext): string {
  const s = valueToString(v);
  if (to.length < 0) return s;
  const chars = Array.from(s);
  if (chars.length <= to.length) return s;
  truncatedWarning(ctx, `CHAR(${to.length})`, s);
  return chars.slice(0, to.length).join('');
}

function castToBytes(v: Exclude<Value, null>, to: ColumnType, ctx: EvalContext): Uint8Array {
  const bytes = v instanceof Uint8Array ? v : utf8Encode(valueToString(v));
  if (to.length < 0) return bytes;
  if (bytes.length > to.length) {
    truncatedWarning(ctx, `BINARY(${to.length})`, v);
    return bytes.slice(0, to.length);
  }
  if (to.kind === 'binary' && bytes.length < to.length) {
    const out = new Uint8Array(to.length);
    out.set(bytes, 0);
    return out;
  }
  return bytes;
}

/** DECIMAL(M,D): rounded half away to D digits, clipped to +-(10^(M-D) - 10^-D) with warning 1264. */
export function castToDecimal(v: Exclude<Value, null>, to: ColumnType, ctx: EvalContext): Decimal {
  if (typeof v === 'string' && !numericPrefix(v).complete) truncatedWarning(ctx, 'DECIMAL', v);
  const d = (toDecimal(v) as Decimal).toDecimalPlaces(to.scale, Decimal.ROUND_HALF_UP);
  const max = decimalMax(to.length, to.scale);
  if (d.abs().greaterThan(max)) {
    ctx.warn(1264, `Out of range value for column '${formatColumnType(to)}' at row 1`);
    return d.isNegative() ? max.negated() : max;
  }
  return to.unsigned && d.isNegative() ? new Decimal(0) : d;
}

/** Largest DECIMAL(M,D) value: M-D nines, then D nines after the point. */
export function decimalMax(precision: number, scale: number): Decimal {
  const p = precision > 0 ? precision : 10;
  const intDigits = p - scale;
  const text = `${intDigits > 0 ? '9'.repeat(intDigits) : '0'}${scale > 0 ? `.${'9'.repeat(scale)}` : ''}`;
  return new Decimal(text);
}

function castToDateTime(v: Exclude<Value, null>, to: ColumnType, ctx: EvalContext): Value {
  const kind = to.kind === 'date' ? 'date' : 'datetime';
  const dt = toDateTimeOf(v, kind, to.scale, () => ctx.now());
  if (dt === null) {
    ctx.warn(1292, `Incorrect datetime value: '${valueToString(v)}'`);
    return null;
  }
  return dt;
}

function castToTime(v: Exclude<Value, null>, to: ColumnType, ctx: EvalContext): Value {
  const d = toDurationOf(v, to.scale);
  if (d === null) {
    ctx.warn(1292, `Truncated incorrect time value: '${valueToString(v)}'`);
    return null;
  }
  return d;
}
