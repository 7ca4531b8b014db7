/**
 * Subqueries in the expressions of INSERT VALUES, UPDATE SET and UPDATE / DELETE WHERE: the
 * expressions are rewritten to read hidden columns appended to the row they are evaluated on;
 * the executor fills them with a SubqueryRunner (exec/apply.ts) before evaluating.
 */
import type { Schema, TableInfo } from '../../catalog/index.js';
import type { Expr } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import type { SubqueryPlan } from './nodes.js';
import { RowSchema } from './row-schema.js';
import { PlanScope } from './builder-scope.js';
import { buildQuery } from './builder-select.js';
import { hasSubquery, SubqueryCollector } from './builder-subquery.js';

export interface RowSubqueries {
  /** The input expressions, subqueries replaced by hidden columns of `schema`. */
  readonly exprs: readonly Expr[];
  readonly subqueries: readonly SubqueryPlan[];
  /** The input row's columns, then one hidden column per subquery. */
  readonly schema: RowSchema;
  readonly width: number;
}

/**
 * Plans the subqueries of `exprs` over rows of `input`; null when there are none. A subquery
 * reading `target` (the table being changed) is 1093, as in MySQL.
 */
export function planRowSubqueries(
  exprs: readonly Expr[], input: RowSchema, schema: Schema, currentDb: string | null, stmt: unknown, target?: TableInfo,
): RowSubqueries | null {
  if (!exprs.some(hasSubquery)) return null;
  if (target !== undefined && exprs.some((e) => readsTable(e, target, currentDb))) {
    throw SqlError.of('ER_UPDATE_TABLE_USED', target.name);
  }
  const collector = new SubqueryCollector(PlanScope.root(schema, currentDb, stmt), input, buildQuery);
  const out = exprs.map((e) => collector.extract(e));
  const subs = collector.take();
  return { exprs: out, subqueries: subs.map((s) => s.plan), schema: input.concat(new RowSchema(subs.map((s) => s.column))), width: input.width };
}

/** True when `node` names `table` in a FROM clause outside derived tables. */
function readsTable(node: unknown, table: TableInfo, currentDb: string | null): boolean {
  if (typeof node !== 'object' || node === null || node instanceof Uint8Array) return false;
  if (Array.isArray(node)) return node.some((x) => readsTable(x, table, currentDb));
  const o = node as Record<string, unknown>;
  if (o['kind'] === 'derived') return false;
  if (o['kind'] === 'table' && typeof o['table'] === 'object' && o['table'] !== null) {
    const t = o['table'] as Record<string, unknown>;
    const db = typeof t['db'] === 'string' ? t['db'] : currentDb;
    if (t['name'] === table.name && db === table.dbName) return true;
  }
  return Object.keys(o).some((k) => readsTable(o[k], table, currentDb));
}
