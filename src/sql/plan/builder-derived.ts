/**
 * FROM items that are queries: derived tables `(SELECT ...) AS d`, WITH names (planned afresh at
 * each reference; recursive ones through builder-cte.ts) and views (their stored SELECT, planned
 * as a derived table named after the view).
 */
import type { TableInfo } from '../../catalog/index.js';
import type { FromItem, SelectStmt } from '../parse/index.js';
import { SqlError } from '../../errors/index.js';
import type { PlanNode } from './nodes.js';
import { RowSchema, type SchemaColumn } from './row-schema.js';
import type { PlanScope } from './builder-scope.js';
import { planCteReference } from './builder-cte.js';
import { resolveTable } from './resolve-table.js';
import { viewQuery } from './builder-view.js';

/** Plans a query block (builder-select.ts), passed in to keep the modules acyclic. */
export type QueryPlanner = (stmt: SelectStmt, scope: PlanScope) => PlanNode;

export type ResolvedItem =
  | { readonly kind: 'table'; readonly table: TableInfo; readonly alias: string }
  | { readonly kind: 'plan'; readonly plan: PlanNode; readonly alias: string };

export function resolveFromItem(f: Exclude<FromItem, { kind: 'join' }>, scope: PlanScope, plan: QueryPlanner): ResolvedItem {
  if (f.kind === 'derived') {
    return { kind: 'plan', plan: derivedNode(plan(f.query, scope), f.alias, f.columns), alias: f.alias };
  }
  const alias = f.alias ?? f.table.name;
  if (f.table.db === undefined) {
    const cte = planCteReference(f.table.name, alias, scope, plan);
    if (cte !== undefined) return { kind: 'plan', plan: cte, alias };
  }
  const table = resolveTable(scope.schema, scope.currentDb, f.table);
  const view = viewQuery(table);
  if (view === undefined) return { kind: 'table', table, alias };
  // A view's names resolve in its own database, with no outer references or WITH names.
  const viewScope = scope.forView(table.dbName);
  return { kind: 'plan', plan: derivedNode(plan(view.query, viewScope), alias, view.columns), alias };
}

/** The child's rows under `alias`, columns renamed by `columns` when given (1353 / 1060 checked). */
export function derivedNode(child: PlanNode, alias: string, columns: readonly string[] | undefined): PlanNode {
  const cols = child.schema.columns;
  if (columns !== undefined && columns.length !== cols.length) throw SqlError.of('ER_VIEW_WRONG_LIST');
  const names = columns ?? cols.map((c) => c.name);
  const seen = new Set<string>();
  for (const n of names) {
    const key = n.toLowerCase();
    if (seen.has(key)) throw SqlError.of('ER_DUP_FIELDNAME', n);
    seen.add(key);
  }
  const schema = new RowSchema(
    cols.map((c, i): SchemaColumn => ({ name: names[i] ?? c.name, table: alias, db: '', type: c.type, notNull: c.notNull })),
  );
  return { kind: 'derived', schema, child, alias };
}
