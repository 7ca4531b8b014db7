/**
 * CREATE [OR REPLACE] VIEW / DROP VIEW / SHOW CREATE VIEW. CREATE plans the SELECT once to check
 * it and to record the view's output columns; the text is stored as written.
 */
import type { Catalog, TableInfo } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { CreateViewStmt, Statement, TableName } from '../parse/index.js';
import { buildSelect } from '../plan/index.js';
import { textColumn } from './result-columns.js';
import type { ShowRows } from './show-server.js';

export type ViewStatement = Extract<Statement, { kind: 'createView' | 'dropView' }>;

export interface ViewHost {
  readonly catalog: Catalog;
  currentDatabase(): string | null;
  currentUser(): string;
}

function dbOf(name: { readonly db?: string }, host: ViewHost): string {
  const db = name.db ?? host.currentDatabase();
  if (db === null) throw SqlError.of('ER_NO_DB_ERROR');
  return db;
}

export async function runViewStatement(stmt: ViewStatement, host: ViewHost): Promise<void> {
  if (stmt.kind === 'dropView') {
    await host.catalog.dropViews(stmt.views.map((v) => ({ db: dbOf(v, host), name: v.name })), stmt.ifExists);
    return;
  }
  await createView(stmt, host);
}

async function createView(stmt: CreateViewStmt, host: ViewHost): Promise<void> {
  const db = dbOf(stmt.view, host);
  const schema = await host.catalog.latestSchema();
  if (schema.database(db) === undefined) throw SqlError.of('ER_BAD_DB_ERROR', db);
  const plan = buildSelect(stmt.select, schema, db);
  const cols = plan.schema.columns;
  if (stmt.columns !== undefined && stmt.columns.length !== cols.length) throw SqlError.of('ER_VIEW_WRONG_LIST');
  const names = stmt.columns ?? cols.map((c) => c.name);
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n.toLowerCase())) throw SqlError.of('ER_DUP_FIELDNAME', n);
    seen.add(n.toLowerCase());
  }
  const columns = cols.map((c, i) => ({ name: names[i] ?? c.name, type: c.type, notNull: c.notNull }));
  const [user, hostName] = splitUser(host.currentUser());
  const view = { select: stmt.selectText, definer: `\`${user}\`@\`${hostName}\``, ...(stmt.columns ? { columns: stmt.columns } : {}) };
  await host.catalog.createView(db, { name: stmt.view.name, columns, view }, stmt.orReplace);
}

function splitUser(u: string): [string, string] {
  const at = u.lastIndexOf('@');
  return at < 0 ? [u, '%'] : [u.slice(0, at), u.slice(at + 1)];
}

/** SHOW CREATE VIEW (and SHOW CREATE TABLE of a view): 1347 for a base table. */
export function showCreateView(table: TableInfo): ShowRows {
  const v = table.view;
  if (v === undefined) throw SqlError.of('ER_WRONG_OBJECT', table.dbName, table.name, 'VIEW');
  const cols = v.columns === undefined ? '' : ` (${v.columns.map((c) => `\`${c}\``).join(',')})`;
  const text = `CREATE ALGORITHM=UNDEFINED DEFINER=${v.definer} SQL SECURITY DEFINER VIEW \`${table.name}\`${cols} AS ${v.select}`;
  return {
    columns: [textColumn('View'), textColumn('Create View', 1024), textColumn('character_set_client'), textColumn('collation_connection')],
    rows: [[table.name, text, 'utf8mb4', 'utf8mb4_0900_ai_ci']],
  };
}

/** ALTER TABLE / CREATE | DROP INDEX on a view: 1347 `is not BASE TABLE`; TRUNCATE: 1146, as in MySQL. */
export async function rejectViewDdl(stmt: Statement, dbOfName: (t: TableName) => string, catalog: Catalog): Promise<void> {
  if (stmt.kind !== 'alterTable' && stmt.kind !== 'createIndex' && stmt.kind !== 'dropIndex' && stmt.kind !== 'truncate') return;
  const db = dbOfName(stmt.table);
  const table = (await catalog.latestSchema()).table(db, stmt.table.name);
  if (table?.view === undefined) return;
  if (stmt.kind === 'truncate') throw SqlError.of('ER_NO_SUCH_TABLE', `${db}.${table.name}`);
  throw SqlError.of('ER_WRONG_OBJECT', db, table.name, 'BASE TABLE');
}
