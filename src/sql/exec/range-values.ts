/**
 * Range bound values converted to a key column's type at run time. A value that cannot match
 * gives EMPTY; one whose comparison semantics the key order cannot express gives UNUSABLE (the
 * caller then ignores that column; the Selection above still filters exactly).
 * Integer columns always convert (MySQL compares them numerically with anything).
 */
import { type ColumnType, Decimal, DateTime, Duration, type Value, integerBounds, isIntegerType, isStringType, isBinaryType } from '../../types/index.js';
import { utf8Decode, utf8Encode } from '../../util/index.js';

export const EMPTY: unique symbol = Symbol('empty');
export const UNUSABLE: unique symbol = Symbol('unusable');
export type Converted = Value | typeof EMPTY | typeof UNUSABLE;

/** 'eq' point, 'low' / 'high' interval end (inclusive flag adjusted by the caller). */
export type Role = 'eq' | 'low' | 'high';

export interface IntBound {
  readonly value: bigint;
  /** True when the converted value equals the original exactly. */
  readonly exact: boolean;
}

export function convertKeyValue(v: Value, type: ColumnType, role: Role): Converted {
  if (v === null) return EMPTY;
  if (isIntegerType(type)) return role === 'eq' ? convertInt(v, type, role) : UNUSABLE;
  if (isStringType(type)) {
    if (typeof v === 'string') return v;
    if (v instanceof Uint8Array) return utf8Decode(v);
    return UNUSABLE;
  }
  if (isBinaryType(type)) {
    if (v instanceof Uint8Array) return type.kind === 'binary' ? UNUSABLE : v;
    if (typeof v === 'string') return type.kind === 'binary' ? UNUSABLE : utf8Encode(v);
    return UNUSABLE;
  }
  switch (type.kind) {
    case 'float':
    case 'double':
      return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v instanceof Decimal ? v.toNumber() : UNUSABLE;
    case 'decimal':
      return convertDecimal(v, type);
    case 'date':
    case 'datetime':
    case 'timestamp':
      return v instanceof DateTime && (type.kind === 'date' ? v.kind === 'date' : v.fsp <= type.scale) ? v.withKind(type.kind === 'date' ? 'date' : 'datetime', type.kind === 'date' ? 0 : type.scale) : UNUSABLE;
    case 'time':
      return v instanceof Duration ? v : UNUSABLE;
    default:
      return UNUSABLE;
  }
}

function convertDecimal(v: Value, type: ColumnType): Converted {
  let d: Decimal;
  if (v instanceof Decimal) d = v;
  else if (typeof v === 'bigint') d = new Decimal(v.toString());
  else return UNUSABLE;
  return d.decimalPlaces() <= type.scale ? d : UNUSABLE;
}

/** An equality value for an integer column: EMPTY if it cannot equal any value of the type. */
export function convertInt(v: Value, type: ColumnType, role: Role): Converted {
  const b = toIntBound(v, role);
  if (b === null || !b.exact) return EMPTY;
  const { min, max } = integerBounds(type);
  return b.value < min || b.value > max ? EMPTY : b.value;
}

/** An interval end: the converted value and whether it is included (rounding makes it inclusive). */
export function convertBound(v: Value, type: ColumnType, role: 'low' | 'high', inclusive: boolean): { value: Value; inclusive: boolean } | typeof EMPTY | typeof UNUSABLE {
  if (v === null) return EMPTY;
  if (!isIntegerType(type)) {
    const c = convertKeyValue(v, type, role);
    return c === EMPTY || c === UNUSABLE ? c : { value: c, inclusive };
  }
  const b = toIntBound(v, role);
  if (b === null) return EMPTY;
  const incl = inclusive || !b.exact;
  const { min, max } = integerBounds(type);
  if (b.value < min) return role === 'low' ? { value: min, inclusive: true } : EMPTY;
  if (b.value > max) return role === 'high' ? { value: max, inclusive: true } : EMPTY;
  return { value: b.value, inclusive: incl };
}

/** For 'low' rounds up, for 'high' rounds down; exact tells whether rounding happened. */
export function toIntBound(v: Value, role: Role): IntBound | null {
  if (typeof v === 'bigint') return { value: v, exact: true };
  const n = toNumber(v);
  if (n === null) return null;
  if (Number.isNaN(n)) return null;
  if (n === Infinity) return { value: 1n << 64n, exact: false };
  if (n === -Infinity) return { value: -(1n << 64n), exact: false };
  if (typeof n === 'number') {
    const r = role === 'low' ? Math.ceil(n) : role === 'high' ? Math.floor(n) : Math.trunc(n);
    return { value: BigInt(r), exact: r === n };
  }
  const r = role === 'low' ? n.ceil() : role === 'high' ? n.floor() : n.trunc();
  return { value: BigInt(r.toFixed(0)), exact: r.eq(n) };
}

function toNumber(v: Value): number | Decimal | null {
  if (typeof v === 'number') return v;
  if (v instanceof Decimal) return v;
  if (typeof v === 'string') return parseNumericPrefix(v);
  if (v instanceof Uint8Array) return parseNumericPrefix(utf8Decode(v));
  if (v instanceof DateTime) return Number(v.toString().replace(/\D/g, '').slice(0, v.kind === 'date' ? 8 : 14));
  if (v instanceof Duration) return Number(v.micros / 1_000_000n);
  return null;
}

/** MySQL string -> number: the longest numeric prefix, 0 if none. */
export function parseNumericPrefix(s: string): number | Decimal {
  const m = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(s);
  if (m === null) return 0;
  const text = m[0].trim();
  if (m[3] === undefined) return new Decimal(text);
  return Number(text);
}
