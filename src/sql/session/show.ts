/** Dispatch of SHOW statements; result column names follow MySQL exactly. */
import type { Schema } from '../../catalog/index.js';
import { assertNever } from '../../util/index.js';
import type { EvalContext } from '../expr/index.js';
import type { ShowStmt } from '../parse/index.js';
import type { Diagnostics } from './diagnostics.js';
import { showColumns, showIndex, requireTable } from './show-columns.js';
import { createDatabaseText, createTableText } from './show-create.js';
import { filterShowRows } from './show-filter.js';
import { requireDatabase, showDatabases, showTableStatus, showTables } from './show-schema.js';
import {
  nameValueRows, showCharset, showCollation, showDiagnostics, showEngines, showGrants, showPlugins,
  showProcessList, type ProcessInfo, type ShowRows,
} from './show-server.js';
import { textColumn } from './result-columns.js';
import { isInformationSchema, noSuchTable } from '../plan/index.js';
import { SqlError } from '../../errors/index.js';
import type { RowsResult } from './types.js';

/** What SHOW needs from the session. */
export interface ShowHost {
  /** The open transaction's schema, else the latest. */
  schema(): Promise<Schema>;
  currentDatabase(): string | null;
  evalContext(): EvalContext;
  variableRows(global: boolean): Array<readonly [string, string]>;
  statusRows(global: boolean): Array<readonly [string, string]>;
  readonly diagnostics: Diagnostics;
  processList(): Promise<ProcessInfo[]>;
  readonly user: string;
}

export async function runShow(stmt: ShowStmt, host: ShowHost): Promise<RowsResult> {
  const shown = await buildShow(stmt, host);
  const likeColumn = 0;
  const rows = stmt.like === undefined && stmt.where === undefined
    ? shown.rows
    : filterShowRows(shown.columns, shown.rows, { like: stmt.like, likeColumn, where: stmt.where }, host.evalContext());
  return { kind: 'rows', columns: shown.columns, rows, warnings: 0 };
}

async function buildShow(stmt: ShowStmt, host: ShowHost): Promise<ShowRows> {
  switch (stmt.target) {
    case 'databases':
      return showDatabases(await host.schema(), stmt.like);
    case 'tables': {
      const schema = await host.schema();
      return showTables(schema, requireDatabase(schema, stmt.db ?? host.currentDatabase()), stmt.full, stmt.like);
    }
    case 'tableStatus': {
      const schema = await host.schema();
      return showTableStatus(schema, requireDatabase(schema, stmt.db ?? host.currentDatabase()));
    }
    case 'columns':
      return showColumns(await tableOf(stmt, host), stmt.full);
    case 'index':
      return showIndex(await tableOf(stmt, host));
    case 'createTable': {
      const table = await tableOf(stmt, host);
      return { columns: [textColumn('Table'), textColumn('Create Table', 1024)], rows: [[table.name, createTableText(table)]] };
    }
    case 'createDatabase':
      return showCreateDatabase(stmt, host);
    case 'variables':
      return nameValueRows(host.variableRows(stmt.global));
    case 'status':
      return nameValueRows(host.statusRows(stmt.global));
    case 'warnings':
      return showDiagnostics(host.diagnostics.list());
    case 'errors':
      return showDiagnostics(host.diagnostics.errors());
    case 'engines':
      return showEngines();
    case 'collation':
      return showCollation();
    case 'charset':
      return showCharset();
    case 'processlist':
      return showProcessList(await host.processList(), stmt.full);
    case 'grants':
      return showGrants(host.user);
    case 'plugins':
      return showPlugins();
    default:
      return assertNever(stmt.target, 'SHOW target');
  }
}

async function tableOf(stmt: ShowStmt, host: ShowHost): Promise<ReturnType<typeof requireTable>> {
  const schema = await host.schema();
  if (stmt.table === undefined) throw SqlError.of('ER_NO_DB_ERROR');
  const db = stmt.table.db ?? stmt.db ?? host.currentDatabase();
  if (db === null) throw SqlError.of('ER_NO_DB_ERROR');
  if (schema.database(db) === undefined && !isInformationSchema(db)) throw noSuchTable(db, stmt.table.name);
  return requireTable(schema, db, stmt.table.name);
}

async function showCreateDatabase(stmt: ShowStmt, host: ShowHost): Promise<ShowRows> {
  const schema = await host.schema();
  const name = stmt.db ?? host.currentDatabase();
  if (name === null) throw SqlError.of('ER_NO_DB_ERROR');
  const db = schema.database(name);
  if (db === undefined) throw SqlError.of('ER_BAD_DB_ERROR', name);
  return { columns: [textColumn('Database'), textColumn('Create Database', 1024)], rows: [[db.name, createDatabaseText(db)]] };
}
