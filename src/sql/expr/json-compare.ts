/**
 * JSON operands outside JSON functions: CAST(x AS JSON) (below) and comparisons where either
 * operand is JSON (MySQL 8.0): the other operand becomes a JSON
 * scalar (a string stays a string, it is not parsed), then both compare by JSON's rules
 * (json/json-value.ts compareJson), so `doc->'$.name' = 'x'` and `doc->'$.n' > 9` work.
 */
import type { Expr } from '../parse/ast.js';
import type { ColumnType, Value } from '../../types/index.js';
import { compareJson, jsonResult, parseJson, toJsonText, valueToJson, type ArgKind, type JsonValue } from './json/index.js';
import { holds, type CompareOp } from './compile-predicates.js';
import { isPredicate } from './functions/json-args.js';
import type { Evaluator, TypeInfo } from './types.js';

function asJson(v: Exclude<Value, null>, kind: ArgKind): JsonValue {
  if (kind.json && typeof v === 'string') {
    try {
      return parseJson(v);
    } catch {
      return v;
    }
  }
  return valueToJson(v, kind);
}

/** Null when neither side is JSON (the caller compiles an ordinary comparison). */
export function jsonCompareEval(op: CompareOp, left: Expr, right: Expr, lt: TypeInfo, rt: TypeInfo, l: Evaluator, r: Evaluator): Evaluator | null {
  if (lt.type.kind !== 'json' && rt.type.kind !== 'json') return null;
  const lk: ArgKind = { json: lt.type.kind === 'json', bool: isPredicate(left), type: lt.type };
  const rk: ArgKind = { json: rt.type.kind === 'json', bool: isPredicate(right), type: rt.type };
  return (row, ctx) => {
    const a = l(row, ctx);
    const b = r(row, ctx);
    if (a === null || b === null) return op === '<=>' ? (a === b ? 1n : 0n) : null;
    return holds(op, compareJson(asJson(a, lk), asJson(b, rk))) ? 1n : 0n;
  };
}

/**
 * CAST(x AS JSON): JSON passes through (normalized), a predicate becomes true/false, text is
 * parsed (3141 naming cast_as_json), other values become JSON scalars.
 */
export function castToJsonEval(inner: Evaluator, e: Expr, t: ColumnType | undefined): Evaluator {
  if (isPredicate(e)) {
    return (row, ctx) => {
      const v = inner(row, ctx);
      return v === null ? null : jsonResult(valueToJson(v, { json: false, bool: true, type: t ?? BOOL_TYPE }));
    };
  }
  return (row, ctx) => {
    const v = inner(row, ctx);
    return v === null ? null : toJsonText(v, 'cast_as_json');
  };
}

const BOOL_TYPE: ColumnType = { kind: 'bigint', unsigned: false, length: 1, scale: 0, lob: 'normal', collation: 'binary' };
