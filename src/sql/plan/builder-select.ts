/**
 * SELECT planning: source (fast path / access path / dual / join / derived) -> [Apply(WHERE
 * subqueries)] -> Selection(WHERE) -> [Apply(GROUP BY / aggregate-argument subqueries)] -> [HashAgg] -> [Apply(select-list / HAVING / ORDER BY
 * subqueries)] -> [Selection(HAVING)] -> Sort|TopN|Limit -> Projection, or with DISTINCT:
 * Projection -> Distinct -> Sort|TopN|Limit over the projected columns. WITH and UNION wrap
 * query blocks (builder-cte.ts, builder-union.ts); subqueries: builder-subquery.ts.
 */
import type { Schema } from '../../catalog/index.js';
import type { Expr, SelectStmt } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import { inferType } from '../expr/index.js';
import type { PlanNode, SortItem } from './nodes.js';
import { positionRef, RowSchema, type SchemaColumn } from './row-schema.js';
import { buildAgg } from './builder-agg.js';
import { addOrderLimit } from './builder-order.js';
import { neededColumns, withSelection } from './builder-source.js';
import { buildFrom } from './builder-from.js';
import { PlanScope, type OuterBinding } from './builder-scope.js';
import { defineCtes } from './builder-cte.js';
import { buildUnion } from './builder-union.js';
import { applyNode, hasSubquery, SubqueryCollector, subqueryInputs, withInputs } from './builder-subquery.js';
import { expandItems, itemReference, type OutputItem } from './select-items.js';
import { buildWindows, resolveWindows } from './builder-window.js';
import { containsAgg, exprKey, mapExpr, splitConjunction } from './expr-utils.js';

/** Plans a whole SELECT statement (WITH, UNION, subqueries included). */
export function buildSelect(stmt: SelectStmt, schema: Schema, currentDb: string | null): PlanNode {
  return buildQuery(stmt, PlanScope.root(schema, currentDb, stmt));
}

/** Plans a query expression in `scope` (also used for subqueries, derived tables and CTEs). */
export function buildQuery(stmt: SelectStmt, scope: PlanScope): PlanNode {
  const inner = stmt.with === undefined ? scope : defineCtes(stmt.with, scope);
  if (stmt.union !== undefined && stmt.union.length > 0) return buildUnion(stmt, inner, buildBlock);
  return buildBlock(stmt, inner);
}

function buildBlock(block: SelectStmt, scope: PlanScope): PlanNode {
  const stmt = resolveWindows(block);
  const from = buildFrom(stmt.from, scope, buildQuery, (e, schema) => bindOuter(e, schema, scope.binding));
  const bind = (e: Expr): Expr => bindOuter(e, from.schema, scope.binding);
  const items = expandItems(stmt.items, from.schema, stmt.from !== null).map((i) => ({ ...i, expr: bind(i.expr) }));
  const groupIn = stmt.groupBy.map((g) => bind(substitute(g, items, 'group statement', false, from.schema)));
  const havingIn = stmt.having === undefined ? undefined : bind(substituteAliases(stmt.having, items, from.schema));
  const orderIn = stmt.orderBy.map((o) => ({ expr: bind(substitute(o.expr, items, 'order clause', true, from.schema)), desc: o.desc }));
  const subs = new SubqueryCollector(scope, from.schema, buildQuery);
  const plainWhere: Expr[] = [];
  const subWhere: Expr[] = [];
  for (const c of [...splitConjunction(stmt.where === undefined ? undefined : bind(stmt.where)), ...from.deferred.map(bind)]) {
    if (hasSubquery(c)) subWhere.push(subs.extract(c));
    else plainWhere.push(c);
  }
  const whereSubs = subs.take();
  // Subqueries of GROUP BY and inside aggregate arguments run per input row, before aggregation.
  const groupBy = groupIn.map((g) => subs.extract(g));
  const inAgg = (e: Expr): Expr => mapExpr(subs.reuse(e), (x) => (x.kind === 'agg' && hasSubquery(x) ? subs.extract(x) : undefined));
  const preItems = items.map((i) => inAgg(i.expr));
  const preHaving = havingIn === undefined ? undefined : inAgg(havingIn);
  const preOrder = orderIn.map((o) => ({ expr: inAgg(o.expr), desc: o.desc }));
  const aggSubs = subs.take();
  const itemExprs = preItems.map((e) => subs.extract(e));
  const having = preHaving === undefined ? undefined : subs.extract(preHaving);
  const orderBy: SortItem[] = preOrder.map((o) => ({ expr: subs.extract(o.expr), desc: o.desc }));
  let itemSubs = subs.take();
  const all: Expr[] = [...itemExprs, ...groupBy, ...orderBy.map((o) => o.expr), ...plainWhere, ...subWhere];
  if (having !== undefined) all.push(having);
  const hasAgg = groupBy.length > 0 || all.some(containsAgg);
  const inputs = [...subqueryInputs(whereSubs), ...subqueryInputs(aggSubs), ...subqueryInputs(itemSubs)];
  const needed = neededColumns(from.schema, [...all, ...inputs], false);
  let node = from.build(plainWhere, needed, stmt.lock !== undefined, !hasAgg);
  node = withSelection(applyNode(node, whereSubs), subWhere, 'where clause');
  node = applyNode(node, aggSubs);
  let exprs = itemExprs;
  let orders = orderBy;
  let havingExpr = having;
  if (hasAgg) {
    const inputs = subqueryInputs(itemSubs);
    const agg = buildAgg(node, groupBy, [...exprs, ...orderBy.map((o) => o.expr), ...(having ? [having] : []), ...inputs]);
    node = agg.node;
    const n = exprs.length;
    exprs = agg.exprs.slice(0, n);
    orders = orderBy.map((o, i) => ({ expr: agg.exprs[n + i] as Expr, desc: o.desc }));
    const afterOrder = n + orderBy.length;
    if (having !== undefined) havingExpr = agg.exprs[afterOrder];
    itemSubs = withInputs(itemSubs, agg.exprs.slice(afterOrder + (having ? 1 : 0)));
  }
  node = applyNode(node, itemSubs);
  if (havingExpr !== undefined) node = withSelection(node, splitConjunction(havingExpr), 'having clause');
  ({ node, exprs, orders } = buildWindows(node, exprs, orders));
  if (!stmt.distinct) return projection(addOrderLimit(node, orders, stmt.limit), exprs, items);
  const child = projection(node, exprs, items);
  const distinct: PlanNode = { kind: 'distinct', schema: child.schema, child };
  const sortItems = orders.map((o, i) => ({ expr: distinctOrderRef(o.expr, exprs, stmt.orderBy[i]?.expr), desc: o.desc }));
  return addOrderLimit(distinct, sortItems, stmt.limit);
}

/**
 * Column references `schema` cannot resolve are looked up in the enclosing queries (a
 * subquery's correlated references) and become parameter slots. Subqueries are left alone:
 * they bind their own references when planned.
 */
function bindOuter(e: Expr, schema: RowSchema, binding: OuterBinding | null): Expr {
  if (binding === null) return e;
  return mapExpr(e, (x) => {
    if (x.kind !== 'column') return undefined;
    let local: boolean;
    try {
      local = schema.indexOf(x) >= 0;
    } catch {
      local = true;
    }
    return local ? x : (binding.resolve(x) ?? x);
  });
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
    if (src !== undefined && !src.table.startsWith('\u0000')) {
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
