/** Small structural helpers over the AST `Expr` used by the planner. */
import type { Expr } from '../parse/index.js';
import { Decimal, DateTime, Duration, type Value } from '../../types/index.js';
import { SqlError } from '../../errors/index.js';

/** Splits `a AND b AND c` into its conjuncts. */
export function splitConjunction(e: Expr | undefined): Expr[] {
  if (e === undefined) return [];
  if (e.kind === 'binary' && e.op === 'AND') return [...splitConjunction(e.left), ...splitConjunction(e.right)];
  return [e];
}

export function andAll(conds: readonly Expr[]): Expr | undefined {
  let out: Expr | undefined;
  for (const c of conds) out = out === undefined ? c : { kind: 'binary', op: 'AND', left: out, right: c };
  return out;
}

/**
 * Rebuilds `e` bottom-up: `f` is asked first for each node; a returned Expr replaces the node
 * (not descended into), undefined means "keep it and map its children".
 * Subqueries are not descended into.
 */
export function mapExpr(e: Expr, f: (e: Expr) => Expr | undefined): Expr {
  const r = f(e);
  if (r !== undefined) return r;
  const m = (x: Expr): Expr => mapExpr(x, f);
  switch (e.kind) {
    case 'binary':
      return { ...e, left: m(e.left), right: m(e.right) };
    case 'unary':
      return { ...e, operand: m(e.operand) };
    case 'isNull':
    case 'isBool':
    case 'cast':
    case 'interval':
      return { ...e, expr: m(e.expr) };
    case 'between':
      return { ...e, expr: m(e.expr), low: m(e.low), high: m(e.high) };
    case 'in':
      return { ...e, expr: m(e.expr), list: e.list.map(m) };
    case 'like':
      return e.escape === undefined
        ? { ...e, expr: m(e.expr), pattern: m(e.pattern) }
        : { ...e, expr: m(e.expr), pattern: m(e.pattern), escape: m(e.escape) };
    case 'func':
      return { ...e, args: e.args.map(m) };
    case 'agg':
      return e.arg === null ? e : { ...e, arg: m(e.arg) };
    case 'window':
      return {
        ...e,
        args: e.args.map(m),
        over: typeof e.over === 'string' ? e.over : { ...e.over, partitionBy: e.over.partitionBy.map(m), orderBy: e.over.orderBy.map((o) => ({ ...o, expr: m(o.expr) })) },
      };
    case 'case':
      return {
        ...e,
        ...(e.operand !== undefined ? { operand: m(e.operand) } : {}),
        whens: e.whens.map((w) => ({ when: m(w.when), then: m(w.then) })),
        ...(e.else !== undefined ? { else: m(e.else) } : {}),
      };
    case 'row':
      return { ...e, items: e.items.map(m) };
    case 'inSubquery':
      return { ...e, expr: m(e.expr) };
    default:
      return e;
  }
}

/** True if `pred` holds for `e` or any node below it (not inside subqueries). */
export function someExpr(e: Expr, pred: (e: Expr) => boolean): boolean {
  let hit = false;
  mapExpr(e, (x) => {
    if (hit) return x;
    if (pred(x)) {
      hit = true;
      return x;
    }
    return undefined;
  });
  return hit;
}

export function containsAgg(e: Expr): boolean {
  return someExpr(e, (x) => x.kind === 'agg');
}

export function containsColumn(e: Expr): boolean {
  return someExpr(e, (x) => x.kind === 'column' || x.kind === 'valuesRef' || x.kind === 'default');
}

/** Throws 1235 for subqueries: not supported yet. */
export function rejectSubqueries(e: Expr): void {
  if (someExpr(e, (x) => x.kind === 'subquery' || x.kind === 'exists' || x.kind === 'inSubquery')) {
    throw SqlError.of('ER_NOT_SUPPORTED_YET', 'subqueries');
  }
}

/** A value fixed for the whole statement run: literal, parameter, or a cast/sign of one. */
export function isConstExpr(e: Expr): boolean {
  switch (e.kind) {
    case 'literal':
    case 'param':
      return true;
    case 'unary':
      return (e.op === '-' || e.op === '+') && isConstExpr(e.operand);
    case 'cast':
      return isConstExpr(e.expr);
    default:
      return false;
  }
}

/** A canonical string for structural equality (column names case-insensitive). */
export function exprKey(e: Expr): string {
  return JSON.stringify(e, (k, v: unknown) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (v instanceof Decimal) return `${v.toString()}d`;
    if (v instanceof Uint8Array) return `x${Buffer.from(v).toString('hex')}`;
    if (v instanceof DateTime || v instanceof Duration) return `t${v.toString()}`;
    if (k === 'name' && typeof v === 'string') return v.toLowerCase();
    return v;
  });
}

export function exprEquals(a: Expr, b: Expr): boolean {
  return exprKey(a) === exprKey(b);
}

/** SQL-ish text of a constant for EXPLAIN. */
export function constText(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return valueText(e.value);
    case 'unary':
      return `${e.op}${constText(e.operand)}`;
    case 'cast':
      return constText(e.expr);
    default:
      return '?';
  }
}

function valueText(v: Value): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return `"${v}"`;
  if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString('hex')}`;
  return String(v);
}
