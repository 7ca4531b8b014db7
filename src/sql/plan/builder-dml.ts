/** Row sources of UPDATE and DELETE: full rows (plus handle) of the matching rows, ordered and limited. */
import type { Schema, TableInfo } from '../../catalog/index.js';
import type { DeleteStmt, UpdateStmt } from '../parse/index.js';
import type { PlanNode } from './nodes.js';
import { resolveTable } from './resolve-table.js';
import { buildTableSource } from './builder-source.js';
import { addOrderLimit } from './builder-order.js';
import { rejectSubqueries, splitConjunction } from './expr-utils.js';

export interface DmlSource {
  readonly table: TableInfo;
  readonly alias: string;
  readonly source: PlanNode;
}

export function buildDmlSource(stmt: UpdateStmt | DeleteStmt, schema: Schema, currentDb: string | null): DmlSource {
  const table = resolveTable(schema, currentDb, stmt.table);
  const alias = stmt.alias ?? table.name;
  const conds = splitConjunction(stmt.where);
  conds.forEach(rejectSubqueries);
  stmt.orderBy.forEach((o) => rejectSubqueries(o.expr));
  const needed = table.columns.map((_, i) => i);
  const reader = buildTableSource({ table, alias, conds, needed, lock: false, fastPath: true });
  const source = addOrderLimit(reader, stmt.orderBy, stmt.limit);
  return { table, alias, source };
}
