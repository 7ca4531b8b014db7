/** Row sources of UPDATE and DELETE: full rows (plus handle) of the matching rows, ordered and limited. */
import type { Schema, TableInfo } from '../../catalog/index.js';
import type { DeleteStmt, UpdateStmt } from '../parse/index.js';
import type { PlanNode } from './nodes.js';
import { resolveTable } from './resolve-table.js';
import { buildTableSource } from './builder-source.js';
import { addOrderLimit } from './builder-order.js';
import { rejectSubqueries, splitConjunction } from './expr-utils.js';
import { SqlError } from '../../errors/index.js';
import { tableSchema } from './row-schema.js';
import { hasSubquery } from './builder-subquery.js';
import { rejectViewTarget } from './builder-view.js';
import { planRowSubqueries, type RowSubqueries } from './builder-dml-subquery.js';

export interface DmlSource {
  readonly table: TableInfo;
  readonly alias: string;
  readonly source: PlanNode;
  /** WHERE conjuncts with subqueries, checked on each source row by the executor (builder-dml-subquery.ts). */
  readonly filter?: RowSubqueries;
}

export function buildDmlSource(stmt: UpdateStmt | DeleteStmt, schema: Schema, currentDb: string | null): DmlSource {
  const table = resolveTable(schema, currentDb, stmt.table);
  rejectViewTarget(table, stmt.kind === 'update' ? 'UPDATE' : 'DELETE');
  const alias = stmt.alias ?? table.name;
  const all = splitConjunction(stmt.where);
  const conds = all.filter((c) => !hasSubquery(c));
  const withSub = all.filter(hasSubquery);
  stmt.orderBy.forEach((o) => rejectSubqueries(o.expr));
  if (withSub.length > 0 && (stmt.orderBy.length > 0 || stmt.limit !== undefined)) {
    throw SqlError.of('ER_NOT_SUPPORTED_YET', 'subqueries in the WHERE clause of UPDATE / DELETE with ORDER BY or LIMIT');
  }
  const needed = table.columns.map((_, i) => i);
  const reader = buildTableSource({ table, alias, conds, needed, lock: false, fastPath: true });
  const source = addOrderLimit(reader, stmt.orderBy, stmt.limit);
  const filter = planRowSubqueries(withSub, tableSchema(table, alias), schema, currentDb, stmt, table);
  return filter === null ? { table, alias, source } : { table, alias, source, filter };
}
