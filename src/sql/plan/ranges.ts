/**
 * Range extraction: from the WHERE conjuncts, the points and interval an access path's key
 * columns are restricted to. Bounds stay expressions (constants or params) and are turned into
 * key ranges at run time by the executor. Conditions are dropped from the Selection only when
 * the range captures them exactly (integer key columns).
 */
import type { Expr } from '../parse/index.js';
import { isIntegerType } from '../../types/index.js';
import type { KeyColumn, PointValue, RangeBound, RangeSpec } from './nodes.js';
import type { RowSchema } from './row-schema.js';
import { isConstExpr } from './expr-utils.js';

type ColPred =
  | { readonly kind: 'points'; readonly offset: number; readonly points: readonly PointValue[]; readonly cond: Expr }
  | { readonly kind: 'bounds'; readonly offset: number; readonly lows: readonly RangeBound[]; readonly highs: readonly RangeBound[]; readonly cond: Expr };

const FLIP: Readonly<Record<string, string>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=' };

/** Classifies one conjunct as a predicate on a single column with constant operands. */
export function columnPredicate(cond: Expr, schema: RowSchema): ColPred | null {
  switch (cond.kind) {
    case 'binary':
      return comparison(cond, schema);
    case 'between': {
      const offset = columnOffset(cond.expr, schema);
      if (cond.not || offset < 0 || !isConstExpr(cond.low) || !isConstExpr(cond.high)) return null;
      return { kind: 'bounds', offset, lows: [{ expr: cond.low, inclusive: true }], highs: [{ expr: cond.high, inclusive: true }], cond };
    }
    case 'in': {
      const offset = columnOffset(cond.expr, schema);
      if (cond.not || offset < 0 || !cond.list.every(isConstExpr)) return null;
      return { kind: 'points', offset, points: cond.list.map((expr) => ({ kind: 'expr', expr })), cond };
    }
    case 'isNull': {
      const offset = columnOffset(cond.expr, schema);
      if (cond.not || offset < 0) return null;
      return { kind: 'points', offset, points: [{ kind: 'null' }], cond };
    }
    default:
      return null;
  }
}

function comparison(cond: Extract<Expr, { kind: 'binary' }>, schema: RowSchema): ColPred | null {
  let op: string = cond.op;
  if (FLIP[op] === undefined) return null;
  let col = cond.left;
  let val = cond.right;
  if (col.kind !== 'column') {
    col = cond.right;
    val = cond.left;
    op = FLIP[op] as string;
  }
  const offset = columnOffset(col, schema);
  if (offset < 0 || !isConstExpr(val)) return null;
  if (op === '=') return { kind: 'points', offset, points: [{ kind: 'expr', expr: val }], cond };
  const bound: RangeBound = { expr: val, inclusive: op.length === 2 };
  const lower = op.startsWith('>');
  return { kind: 'bounds', offset, lows: lower ? [bound] : [], highs: lower ? [] : [bound], cond };
}

function columnOffset(e: Expr, schema: RowSchema): number {
  if (e.kind !== 'column') return -1;
  return schema.indexOf(e);
}

/** Ranges over `columns` implied by `conds`, or null when the first key column is unrestricted. */
export function extractRanges(conds: readonly Expr[], schema: RowSchema, columns: readonly KeyColumn[]): RangeSpec | null {
  const preds: ColPred[] = [];
  for (const c of conds) {
    const p = columnPredicate(c, schema);
    if (p !== null) preds.push(p);
  }
  const points: Array<readonly PointValue[]> = [];
  const consumed: Expr[] = [];
  const lows: RangeBound[] = [];
  const highs: RangeBound[] = [];
  for (const col of columns) {
    const exact = isIntegerType(col.type);
    const eq = preds.find((p) => p.offset === col.offset && p.kind === 'points');
    if (eq !== undefined && eq.kind === 'points') {
      points.push(eq.points);
      if (exact) consumed.push(eq.cond);
      continue;
    }
    for (const p of preds) {
      if (p.offset !== col.offset || p.kind !== 'bounds') continue;
      lows.push(...p.lows);
      highs.push(...p.highs);
      if (exact) consumed.push(p.cond);
    }
    break;
  }
  if (points.length === 0 && lows.length === 0 && highs.length === 0) return null;
  return { columns, points, lows, highs, consumed };
}

/** Number of leading key columns pinned to points, and whether an interval follows. */
export function rangeScore(r: RangeSpec): number {
  return r.points.length * 2 + (r.lows.length + r.highs.length > 0 ? 1 : 0);
}
