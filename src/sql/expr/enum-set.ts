/**
 * ENUM and SET values. ShaleDB keeps them as their text everywhere (row format, index keys,
 * runtime values): an ENUM value is the member as declared (`''` is MySQL's index-0 error
 * value), a SET value the chosen members in declaration order joined by `,`. Decision
 * documented in codec/value-class.ts: storing text rather than MySQL's index / bitmask keeps
 * the codecs unchanged; the index (ENUM) or bitmask (SET) is computed here when a numeric
 * context asks for it (`e + 0`, `e = 2`, CAST(e AS SIGNED)).
 *
 * Store assignment: members match under the column's collation (case-insensitive by
 * default); a number picks the member by index (ENUM, 1-based) or bitmask (SET); a numeric
 * string that is no member is read as a number. Anything else is 1265 "Data truncated" (strict:
 * error; otherwise '' / the valid members are kept with a warning).
 */
import { Decimal, isIntegerType, typeCollation, type ColumnType, type Value } from '../../types/index.js';
import { valueToString } from './value-to-string.js';
import type { Expr } from '../parse/ast.js';
import type { Collation } from '../../types/index.js';
import { valueComparator } from './compare.js';
import type { CompareOp } from './compile-predicates.js';
import { holds } from './compile-predicates.js';
import type { Evaluator, Scope } from './types.js';
import { toDecimal } from './to-number.js';
import { bitBytesToBigInt } from './bit-value.js';

function members(t: ColumnType): readonly string[] {
  return t.members ?? [];
}

/** 0-based position of the member equal to `s` under the column's collation, or -1. */
function findMember(t: ColumnType, s: string): number {
  const list = members(t);
  const exact = list.indexOf(s);
  if (exact >= 0) return exact;
  const coll = typeCollation(t);
  const trimmed = s.replace(/ +$/, '');
  return list.findIndex((m) => coll.compare(m, trimmed) === 0);
}

/** An integer value of a number, or null when it has a fraction / is not a number. */
function wholeNumber(v: Exclude<Value, null>): bigint | null {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' || v instanceof Decimal) {
    const d = toDecimal(v) as Decimal;
    return BigInt(d.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0));
  }
  return null;
}

function numericText(s: string): bigint | null {
  return /^\s*\d+\s*$/.test(s) ? BigInt(s.trim()) : null;
}

/** The stored ENUM text for `v`, or null when it is not a valid value (caller reports 1265). */
export function enumValue(v: Exclude<Value, null>, t: ColumnType): string | null {
  const list = members(t);
  const n = wholeNumber(v);
  if (n !== null) return n >= 1n && n <= BigInt(list.length) ? (list[Number(n) - 1] as string) : null;
  const s = valueToString(v);
  const at = findMember(t, s);
  if (at >= 0) return list[at] as string;
  const k = numericText(s);
  if (k !== null && k >= 1n && k <= BigInt(list.length)) return list[Number(k) - 1] as string;
  return null;
}

/** The stored SET text for `v` and whether every part was valid (false: 1265, invalid parts dropped). */
export function setValue(v: Exclude<Value, null>, t: ColumnType): { text: string; valid: boolean } {
  const list = members(t);
  const n = wholeNumber(v);
  let mask = 0n;
  let valid = true;
  if (n !== null) {
    const all = (1n << BigInt(list.length)) - 1n;
    valid = n >= 0n && (n & ~all) === 0n;
    mask = n & all;
  } else {
    const s = valueToString(v);
    const k = numericText(s);
    for (const part of s === '' ? [] : s.split(',')) {
      const at = findMember(t, part);
      if (at >= 0) mask |= 1n << BigInt(at);
      else valid = false;
    }
    if (!valid && k !== null && findMember(t, s) < 0) {
      const all = (1n << BigInt(list.length)) - 1n;
      valid = (k & ~all) === 0n;
      mask = k & all;
    }
  }
  return { text: list.filter((_, i) => (mask >> BigInt(i)) & 1n).join(','), valid };
}

/** ENUM index (1-based, 0 for '') or SET bitmask of a stored value; BIT bytes as an unsigned integer. */
export function enumSetNumber(v: string | Uint8Array, t: ColumnType): bigint {
  if (v instanceof Uint8Array) return bitBytesToBigInt(v);
  const s = v;
  const list = members(t);
  if (t.kind === 'enum') return BigInt(list.indexOf(s) + 1);
  let mask = 0n;
  if (s === '') return 0n;
  for (const part of s.split(',')) {
    const at = list.indexOf(part);
    if (at >= 0) mask |= 1n << BigInt(at);
  }
  return mask;
}

/** Wraps an ENUM / SET operand for a numeric context; other types pass through unchanged. */
export function numericView(ev: Evaluator, t: ColumnType | undefined): Evaluator {
  if (t === undefined || !isEnumOrSet(t)) return ev;
  return (row, ctx) => {
    const v = ev(row, ctx);
    return typeof v === 'string' || v instanceof Uint8Array ? enumSetNumber(v, t) : v;
  };
}

/** Integer, DECIMAL and floating-point types: where ENUM / SET operands act as numbers. */
export function isNumericType(t: ColumnType): boolean {
  return isIntegerType(t) || t.kind === 'decimal' || t.kind === 'float' || t.kind === 'double';
}

/** ENUM, SET and BIT: types whose values have a numeric form distinct from their text / bytes. */
export function isEnumOrSet(t: ColumnType): boolean {
  return t.kind === 'enum' || t.kind === 'set' || t.kind === 'bit';
}

/**
 * The ENUM / SET type of an ORDER BY item that is a plain column of that type: MySQL sorts
 * ENUM by member index and SET by bitmask, so the sorter orders by `numericView` instead.
 */
export function enumSortType(e: Expr, scope: Scope): ColumnType | undefined {
  if (e.kind !== 'column') return undefined;
  const t = scope.resolve(e)?.type;
  return t !== undefined && (t.kind === 'enum' || t.kind === 'set') ? t : undefined;
}

function isNumberValue(v: Value): boolean {
  return typeof v === 'bigint' || typeof v === 'number' || v instanceof Decimal;
}

/**
 * A comparison with an ENUM / SET operand: against a number (literal, parameter or numeric
 * column) the member index / bitmask is compared, otherwise the text under `coll`.
 */
export function enumCompareEval(op: CompareOp, l: Evaluator, r: Evaluator, lt: ColumnType | undefined, rt: ColumnType | undefined, coll: Collation): Evaluator {
  const cmp = valueComparator(coll);
  const le = lt !== undefined && isEnumOrSet(lt) ? lt : undefined;
  const re = rt !== undefined && isEnumOrSet(rt) ? rt : undefined;
  return (row, ctx) => {
    let a = l(row, ctx);
    let b = r(row, ctx);
    if (a === null || b === null) return op === '<=>' ? (a === b ? 1n : 0n) : null;
    if (le?.kind === 'bit' && a instanceof Uint8Array && b instanceof Uint8Array) b = bitBytesToBigInt(b);
    if (re?.kind === 'bit' && b instanceof Uint8Array && a instanceof Uint8Array) a = bitBytesToBigInt(a);
    if (le !== undefined && (typeof a === 'string' || a instanceof Uint8Array) && isNumberValue(b)) a = enumSetNumber(a, le);
    if (re !== undefined && (typeof b === 'string' || b instanceof Uint8Array) && isNumberValue(a)) b = enumSetNumber(b, re);
    const c = cmp(a, b);
    return c === null ? null : holds(op, c) ? 1n : 0n;
  };
}
