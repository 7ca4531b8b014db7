/** Evaluators for logic and predicates: AND/OR/XOR/NOT, IS, BETWEEN, IN, LIKE, CASE. Results are 1n/0n/null. */
import { BINARY_COLLATION, type Collation, type Value } from '../../types/index.js';
import { truthy, valueComparator } from './compare.js';
import { LikeMatcher } from './like.js';
import type { Evaluator } from './types.js';
import { valueToString } from './value-to-string.js';

function bool(b: boolean): bigint {
  return b ? 1n : 0n;
}

export function andEval(l: Evaluator, r: Evaluator): Evaluator {
  return (row, ctx) => {
    const a = truthy(l(row, ctx));
    if (a === false) return 0n;
    const b = truthy(r(row, ctx));
    if (b === false) return 0n;
    return a === null || b === null ? null : 1n;
  };
}

export function orEval(l: Evaluator, r: Evaluator): Evaluator {
  return (row, ctx) => {
    const a = truthy(l(row, ctx));
    if (a === true) return 1n;
    const b = truthy(r(row, ctx));
    if (b === true) return 1n;
    return a === null || b === null ? null : 0n;
  };
}

export function xorEval(l: Evaluator, r: Evaluator): Evaluator {
  return (row, ctx) => {
    const a = truthy(l(row, ctx));
    if (a === null) return null;
    const b = truthy(r(row, ctx));
    return b === null ? null : bool(a !== b);
  };
}

export function notEval(x: Evaluator): Evaluator {
  return (row, ctx) => {
    const a = truthy(x(row, ctx));
    return a === null ? null : bool(!a);
  };
}

export type CompareOp = '=' | '<=>' | '<>' | '<' | '<=' | '>' | '>=';

/** Whether comparison result `c` (<0, 0, >0) satisfies `op`. */
export function holds(op: CompareOp, c: number): boolean {
  switch (op) {
    case '=':
    case '<=>':
      return c === 0;
    case '<>':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
  }
}

/** `coll`: the collation two strings compare under (collation-derive.ts). */
export function compareEval(op: CompareOp, l: Evaluator, r: Evaluator, coll: Collation = BINARY_COLLATION): Evaluator {
  const cmp = valueComparator(coll);
  if (op === '<=>') {
    return (row, ctx) => {
      const a = l(row, ctx);
      const b = r(row, ctx);
      if (a === null || b === null) return bool(a === b);
      return bool(cmp(a, b) === 0);
    };
  }
  return (row, ctx) => {
    const c = cmp(l(row, ctx), r(row, ctx));
    return c === null ? null : bool(holds(op, c));
  };
}

/** Row constructors: `(a, b) = (c, d)` is AND of the element comparisons (`=`, `<>`, `<=>`). */
export function rowEqualEval(
  op: '=' | '<>' | '<=>',
  ls: readonly Evaluator[],
  rs: readonly Evaluator[],
  colls: readonly Collation[] = [],
): Evaluator {
  const pairs = ls.map((l, i) => compareEval(op === '<>' ? '=' : op, l, rs[i] as Evaluator, colls[i]));
  return (row, ctx) => {
    let sawNull = false;
    for (const p of pairs) {
      const v = p(row, ctx);
      if (v === 0n) return op === '<>' ? 1n : 0n;
      if (v === null) sawNull = true;
    }
    if (sawNull) return null;
    return op === '<>' ? 0n : 1n;
  };
}

export function isNullEval(x: Evaluator, not: boolean): Evaluator {
  return (row, ctx) => bool((x(row, ctx) === null) !== not);
}

export function isBoolEval(x: Evaluator, value: boolean, not: boolean): Evaluator {
  return (row, ctx) => bool((truthy(x(row, ctx)) === value) !== not);
}

export function betweenEval(x: Evaluator, low: Evaluator, high: Evaluator, not: boolean, coll: Collation = BINARY_COLLATION): Evaluator {
  const cmp = valueComparator(coll);
  return (row, ctx) => {
    const v = x(row, ctx);
    const lo = cmp(v, low(row, ctx));
    const hi = cmp(v, high(row, ctx));
    const geLow = lo === null ? null : lo >= 0;
    const leHigh = hi === null ? null : hi <= 0;
    let r: boolean | null;
    if (geLow === false || leHigh === false) r = false;
    else if (geLow === null || leHigh === null) r = null;
    else r = true;
    return r === null ? null : bool(r !== not);
  };
}

/** `x IN (list)`: 1 on a match; otherwise NULL if x or any item is NULL, else 0. */
export function inEval(x: Evaluator, list: readonly Evaluator[], not: boolean, coll: Collation = BINARY_COLLATION): Evaluator {
  const cmp = valueComparator(coll);
  return (row, ctx) => {
    const v = x(row, ctx);
    if (v === null) return null;
    let sawNull = false;
    for (const item of list) {
      const c = cmp(v, item(row, ctx));
      if (c === 0) return bool(!not);
      if (c === null) sawNull = true;
    }
    return sawNull ? null : bool(not);
  };
}

/** IN over constant integers: a Set lookup when the probe is a bigint. */
export function inIntSetEval(x: Evaluator, values: readonly bigint[], fallback: Evaluator, not: boolean): Evaluator {
  const set = new Set(values);
  return (row, ctx) => {
    const v = x(row, ctx);
    if (typeof v !== 'bigint') return fallback(row, ctx);
    return bool(set.has(v) !== not);
  };
}

function text(v: Exclude<Value, null>): string {
  return typeof v === 'string' ? v : valueToString(v);
}

/** Under a `_ci` collation both sides are folded per character (case and accents). */
export function likeEval(x: Evaluator, pattern: Evaluator, escape: Evaluator | null, not: boolean, coll: Collation = BINARY_COLLATION): Evaluator {
  const matcher = new LikeMatcher(coll.likeFold);
  return (row, ctx) => {
    const v = x(row, ctx);
    const p = pattern(row, ctx);
    if (v === null || p === null) return null;
    const e = escape === null ? '\\' : escape(row, ctx);
    const esc = e === null ? '\\' : text(e);
    return bool(matcher.matches(text(v), text(p), esc) !== not);
  };
}

export function caseEval(
  operand: Evaluator | null,
  whens: ReadonlyArray<{ readonly when: Evaluator; readonly then: Evaluator }>,
  otherwise: Evaluator | null,
  coll: Collation = BINARY_COLLATION,
): Evaluator {
  const cmp = valueComparator(coll);
  return (row, ctx) => {
    const base = operand === null ? null : operand(row, ctx);
    for (const w of whens) {
      const hit = operand === null ? truthy(w.when(row, ctx)) === true : base !== null && cmp(base, w.when(row, ctx)) === 0;
      if (hit) return w.then(row, ctx);
    }
    return otherwise === null ? null : otherwise(row, ctx);
  };
}
