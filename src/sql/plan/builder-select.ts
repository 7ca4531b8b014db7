/**
 * SELECT planning: source (fast path / access path / dual / join) -> Selection(WHERE) ->
 * [HashAgg -> Selection(HAVING)] -> Sort|TopN|Limit -> Projection, or with DISTINCT:
 * Projection -> Distinct -> Sort|TopN|Limit over the projected columns.
 */
import type { Schema } from '../../catalog/index.js';
import type { Expr, SelectStmt } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import { inferType } from '../expr/index.js';
import type { PlanNode, SortItem } from './nodes.js';
import { AGG_TABLE, positionRef, RowSchema, type SchemaColumn } from './row-schema.js';
import { buildAgg } from './builder-agg.js';
import { addOrderLimit } from './builder-order.js';
import { neededColumns, withSelection } from './builder-source.js';
import { buildFrom } from './builder-from.js';
import { expandItems, itemReference, type OutputItem } from './select-items.js';
import { containsAgg, exprKey, mapExpr, rejectSubqueries, splitConjunction } from './expr-utils.js';

export function buildSelect(stmt: SelectStmt, schema: Schema, currentDb: string | null): PlanNode {
  if (stmt.union !== undefined && stmt.union.length > 0) throw SqlError.of('ER_NOT_SUPPORTED_YET', 'UNION');
  const from = buildFrom(stmt.from, schema, currentDb);
  const items = expandItems(stmt.items, from.schema, stmt.from !== null);
  const groupBy = stmt.groupBy.map((g) => substitute(g, items, 'group statement', false, from.schema));
  const having = stmt.having === undefined ? undefined : substituteAliases(stmt.having, items, from.schema);
  const orderBy: SortItem[] = stmt.orderBy.map((o) => ({ expr: substitute(o.expr, items, 'order clause', true, from.schema), desc: o.desc }));
  const all: Expr[] = [...items.map((i) => i.expr), ...groupBy, ...orderBy.map((o) => o.expr)];
  if (stmt.where !== undefined) all.push(stmt.where);
  if (having !== undefined) all.push(having);
  all.forEach(rejectSubqueries);
  const hasAgg = groupBy.length > 0 || all.some(containsAgg);
  const needed = neededColumns(from.schema, all, false);
  let node = from.build(splitConjunction(stmt.where), needed, stmt.lock !== undefined, !hasAgg);
  let exprs = items.map((i) => i.expr);
  let orders = orderBy;
  if (hasAgg) {
    const agg = buildAgg(node, groupBy, [...exprs, ...orderBy.map((o) => o.expr), ...(having ? [having] : [])]);
    node = agg.node;
    exprs = agg.exprs.slice(0, exprs.length);
    orders = orderBy.map((o, i) => ({ expr: agg.exprs[exprs.length + i] as Expr, desc: o.desc }));
    if (having !== undefined) node = withSelection(node, splitConjunction(agg.exprs[agg.exprs.length - 1]), 'having clause');
  } else if (having !== undefined) {
    node = withSelection(node, splitConjunction(having), 'having clause');
  }
  if (!stmt.distinct) return projection(addOrderLimit(node, orders, stmt.limit), exprs, items);
  const child = projection(node, exprs, items);
  const distinct: PlanNode = { kind: 'distinct', schema: child.schema, child };
  const sortItems = orders.map((o, i) => ({ expr: distinctOrderRef(o.expr, exprs, stmt.orderBy[i]?.expr), desc: o.desc }));
  return addOrderLimit(distinct, sortItems, stmt.limit);
}

function substitute(e: Expr, items: readonly OutputItem[], clause: string, aliasFirst: boolean, schema: RowSchema): Expr {
  const i = itemReference(e, items, clause, aliasFirst, schema);
  return i === undefined ? e : (items[i] as OutputItem).expr;
}

/** HAVING may name select aliases. */
function substituteAliases(e: Expr, items: readonly OutputItem[], schema: RowSchema): Expr {
  return mapExpr(e, (x) => {
    if (x.kind !== 'column' || x.table !== undefined) return undefined;
    const i = itemReference(x, items, 'having clause', true, schema);
    return i === undefined ? undefined : (items[i] as OutputItem).expr;
  });
}

function projection(child: PlanNode, exprs: readonly Expr[], items: readonly OutputItem[]): PlanNode {
  const cols: SchemaColumn[] = exprs.map((e, i) => outputColumn(e, (items[i] as OutputItem).label, child.schema));
  return { kind: 'projection', schema: new RowSchema(cols), child, exprs };
}

function outputColumn(e: Expr, label: string, input: RowSchema): SchemaColumn {
  const t = inferType(e, input);
  if (e.kind === 'column') {
    const src = input.columns[input.indexOf(e)];
    if (src !== undefined && src.table !== AGG_TABLE) {
      return { name: label, table: src.table, db: src.db, type: t.type, notNull: t.notNull, ...(src.base ? { base: src.base } : {}) };
    }
  }
  return { name: label, table: '', db: '', type: t.type, notNull: t.notNull };
}

/** With DISTINCT, ORDER BY must name a select item: a reference to that projected column. */
function distinctOrderRef(e: Expr, exprs: readonly Expr[], original: Expr | undefined): Expr {
  const key = exprKey(e);
  let i = exprs.findIndex((x) => exprKey(x) === key);
  if (i < 0 && e.kind === 'column' && e.table === undefined) {
    const name = e.name.toLowerCase();
    i = exprs.findIndex((x) => x.kind === 'column' && x.name.toLowerCase() === name);
  }
  if (i < 0) {
    const text = original?.kind === 'column' ? original.name : 'ORDER BY expression';
    throw SqlError.of('ER_NOT_SUPPORTED_YET', `ORDER BY ${text} not in the select list of a DISTINCT query`);
  }
  return positionRef(i);
}
