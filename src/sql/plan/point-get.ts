/**
 * The fast path (TiDB's TryFastPlan): `WHERE key = c` pinning the whole row handle or a public
 * unique index becomes PointGet, `key IN (...)` on a one-column key becomes BatchPointGet.
 */
import type { IndexInfo } from '../../catalog/index.js';
import type { Expr } from '../parse/index.js';
import { isIntegerType } from '../../types/index.js';
import type { AccessBase, KeyColumn, ReaderNode } from './nodes.js';
import { columnPredicate } from './ranges.js';
import type { RowSchema } from './row-schema.js';
import { handleColumns, indexKeyColumns, readableIndexes } from './key-columns.js';

export interface FastPlan {
  readonly node: ReaderNode;
  /** Conditions not captured by the key lookup (a Selection above the reader). */
  readonly rest: Expr[];
}

interface Candidate {
  readonly index: IndexInfo | null;
  readonly columns: readonly KeyColumn[];
}

export function tryPointGet(base: AccessBase, schema: RowSchema, conds: readonly Expr[]): FastPlan | null {
  const eqs = new Map<number, { expr: Expr; cond: Expr }>();
  const ins = new Map<number, { list: readonly Expr[]; cond: Expr }>();
  for (const cond of conds) {
    const p = columnPredicate(cond, schema);
    if (p === null || p.kind !== 'points') continue;
    const exprs = p.points.flatMap((pt) => (pt.kind === 'expr' ? [pt.expr] : []));
    if (exprs.length !== p.points.length) continue;
    if (cond.kind === 'binary' && !eqs.has(p.offset)) eqs.set(p.offset, { expr: exprs[0] as Expr, cond });
    if (cond.kind === 'in' && !ins.has(p.offset)) ins.set(p.offset, { list: exprs, cond });
  }
  if (eqs.size === 0 && ins.size === 0) return null;
  for (const cand of candidates(base)) {
    const point = asPoint(base, schema, cand, eqs, conds);
    if (point !== null) return point;
  }
  for (const cand of candidates(base)) {
    const batch = asBatch(base, schema, cand, ins, conds);
    if (batch !== null) return batch;
  }
  return null;
}

function candidates(base: AccessBase): Candidate[] {
  const out: Candidate[] = [];
  const handle = handleColumns(base.table);
  if (handle.length > 0) out.push({ index: null, columns: handle });
  for (const index of readableIndexes(base.table)) {
    if (!index.unique) continue;
    const columns = indexKeyColumns(base.table, index);
    if (columns.length === index.columns.length) out.push({ index, columns });
  }
  return out;
}

function asPoint(
  base: AccessBase,
  schema: RowSchema,
  cand: Candidate,
  eqs: ReadonlyMap<number, { expr: Expr; cond: Expr }>,
  conds: readonly Expr[],
): FastPlan | null {
  const values: Expr[] = [];
  const used = new Set<Expr>();
  for (const col of cand.columns) {
    const eq = eqs.get(col.offset);
    if (eq === undefined) return null;
    values.push(eq.expr);
    if (isIntegerType(col.type)) used.add(eq.cond);
  }
  const node: ReaderNode = { kind: 'pointGet', schema, index: cand.index, values, ...base };
  return { node, rest: conds.filter((c) => !used.has(c)) };
}

function asBatch(
  base: AccessBase,
  schema: RowSchema,
  cand: Candidate,
  ins: ReadonlyMap<number, { list: readonly Expr[]; cond: Expr }>,
  conds: readonly Expr[],
): FastPlan | null {
  const col = cand.columns[0];
  if (cand.columns.length !== 1 || col === undefined) return null;
  const inPred = ins.get(col.offset);
  if (inPred === undefined) return null;
  const keys = inPred.list.map((e) => [e]);
  const node: ReaderNode = { kind: 'batchPointGet', schema, index: cand.index, keys, ...base };
  const rest = isIntegerType(col.type) ? conds.filter((c) => c !== inPred.cond) : [...conds];
  return { node, rest };
}
