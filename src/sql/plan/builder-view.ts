/** Views in FROM: the stored SELECT of a view, parsed once per definition object. */
import type { TableInfo } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import { parseStatement, type SelectStmt } from '../parse/index.js';

export interface ViewQuery {
  readonly query: SelectStmt;
  /** The view's column names (as created), applied to the query's output. */
  readonly columns: readonly string[];
}

const parsed = new WeakMap<TableInfo, ViewQuery>();

/** The query of `table` if it is a view. */
export function viewQuery(table: TableInfo): ViewQuery | undefined {
  const view = table.view;
  if (view === undefined) return undefined;
  const known = parsed.get(table);
  if (known !== undefined) return known;
  const stmt = parseStatement(view.select).stmt;
  if (stmt.kind !== 'select') throw SqlError.of('ER_WRONG_OBJECT', table.dbName, table.name, 'VIEW');
  const out: ViewQuery = { query: stmt, columns: table.columns.map((c) => c.name) };
  parsed.set(table, out);
  return out;
}

/** 1288 for INSERT / UPDATE / DELETE on a view (views are read-only here). */
export function rejectViewTarget(table: TableInfo, statement: 'INSERT' | 'UPDATE' | 'DELETE'): void {
  if (table.view !== undefined) throw SqlError.of('ER_NON_UPDATABLE_TABLE', table.name, statement);
}
