/**
 * Aggregation: one HashAgg computing the GROUP BY keys and every aggregate the statement uses;
 * expressions above it (select items, HAVING, ORDER BY) are rewritten so aggregates and
 * grouped expressions become references to the HashAgg's outputs. Non-grouped columns are
 * carried as FIRSTROW (MySQL without ONLY_FULL_GROUP_BY).
 */
import type { Expr } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import { makeType } from '../../types/index.js';
import { aggregateType, inferType } from '../expr/index.js';
import type { AggSpec, PlanNode } from './nodes.js';
import { AGG_TABLE, RowSchema, positionRef, type SchemaColumn } from './row-schema.js';
import { containsAgg, exprKey, mapExpr } from './expr-utils.js';

export interface AggResult {
  readonly node: PlanNode;
  /** The input expressions rewritten over the HashAgg output. */
  readonly exprs: Expr[];
}

export function buildAgg(child: PlanNode, groupBy: readonly Expr[], exprs: readonly Expr[]): AggResult {
  const inSchema = child.schema;
  const groupKeys = new Map<string, number>();
  groupBy.forEach((g, i) => {
    if (containsAgg(g)) throw SqlError.of('ER_INVALID_GROUP_FUNC_USE');
    if (g.kind !== 'column' && !groupKeys.has(exprKey(g))) groupKeys.set(exprKey(g), i);
  });
  const groupedOffsets = new Set<number>();
  for (const g of groupBy) if (g.kind === 'column') groupedOffsets.add(inSchema.indexOf(g));
  const aggs: AggSpec[] = [];
  const aggKeys = new Map<string, number>();
  const firstRows = new Map<number, number>();
  const rewrite = (e: Expr): Expr =>
    mapExpr(e, (x) => {
      const gi = groupKeys.get(exprKey(x));
      if (gi !== undefined) return { kind: 'column', table: AGG_TABLE, name: `g${gi}` };
      if (x.kind === 'agg') return { kind: 'column', table: AGG_TABLE, name: `a${aggIndex(x)}` };
      if (x.kind === 'column') {
        const off = inSchema.indexOf(x);
        if (off >= 0 && !groupedOffsets.has(off) && !firstRows.has(off)) firstRows.set(off, firstRows.size);
      }
      return undefined;
    });
  const aggIndex = (x: Extract<Expr, { kind: 'agg' }>): number => {
    const key = exprKey(x);
    const found = aggKeys.get(key);
    if (found !== undefined) return found;
    if (x.arg !== null && containsAgg(x.arg)) throw SqlError.of('ER_INVALID_GROUP_FUNC_USE');
    const argType = x.arg === null ? makeType('bigint') : inferType(x.arg, inSchema).type;
    aggs.push({
      name: x.name,
      arg: x.arg,
      distinct: x.distinct,
      argType,
      ...(x.separator !== undefined ? { separator: x.separator } : {}),
    });
    aggKeys.set(key, aggs.length - 1);
    return aggs.length - 1;
  };
  const out = exprs.map(rewrite);
  const cols: SchemaColumn[] = groupBy.map((g, i) => groupColumn(g, i, inSchema));
  aggs.forEach((a, i) => {
    const notNull = a.name === 'COUNT';
    cols.push({ name: `a${i}`, table: AGG_TABLE, db: '', type: aggregateType(a.name as Exclude<AggSpec['name'], 'FIRSTROW'>, a.argType), notNull });
  });
  for (const off of firstRows.keys()) {
    const c = inSchema.columns[off] as SchemaColumn;
    aggs.push({ name: 'FIRSTROW', arg: positionRef(off), distinct: false, argType: c.type });
    cols.push(c);
  }
  const node: PlanNode = { kind: 'hashAgg', schema: new RowSchema(cols), child, groupBy, aggs };
  return { node, exprs: out };
}

function groupColumn(g: Expr, i: number, inSchema: RowSchema): SchemaColumn {
  if (g.kind === 'column') {
    const off = inSchema.indexOf(g);
    const c = inSchema.columns[off];
    if (c === undefined) throw SqlError.of('ER_BAD_FIELD_ERROR', g.table !== undefined ? `${g.table}.${g.name}` : g.name, 'group statement');
    return c;
  }
  const t = inferType(g, inSchema);
  return { name: `g${i}`, table: AGG_TABLE, db: '', type: t.type, notNull: t.notNull };
}
