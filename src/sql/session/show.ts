/** Dispatch of SHOW statements; result column names follow MySQL exactly. */
import type { Schema } from '../../catalog/index.js';
import { assertNever } from '../../util/index.js';
import type { EvalContext } from '../expr/index.js';
import type { ShowStmt } from '../parse/index.js';
import type { Diagnostics } from './diagnostics.js';
import type { Visibility } from './info-schema-access.js';
import type { StatsOf } from './info-schema-tables.js';
import { showColumns, showIndex, requireTable } from './show-columns.js';
import { createDatabaseText, createTableText } from './show-create.js';
import { filterShowRows } from './show-filter.js';
import { likeColumnOf, showNoObjects } from './show-objects.js';
import { requireDatabase, showDatabases, showTableStatus, showTables } from './show-schema.js';
import {
  nameValueRows, showCharset, showCollation, showDiagnostics, showEngines, showGrants, showPlugins,
  showProcessList, type ProcessInfo, type ShowRows,
} from './show-server.js';
import { textColumn } from './result-columns.js';
import { showCreateView } from './ddl-view.js';
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
  /** Runs `body` with table size estimates read in the session's transaction (or a new one). */
  withStats<T>(body: (stats: StatsOf) => Promise<T>): Promise<T>;
  /** The tables the account may see (SHOW TABLES lists only those, as information_schema does). */
  visibility(): Promise<Visibility>;
}

export async function runShow(stmt: ShowStmt, host: ShowHost): Promise<RowsResult> {
  const shown = await buildShow(stmt, host);
  const likeColumn = likeColumnOf(stmt.target);
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
      const db = requireDatabase(schema, stmt.db ?? host.currentDatabase());
      return visibleTablesOnly(showTables(schema, db, stmt.full, stmt.like), db, await host.visibility());
    }
    case 'tableStatus': {
      const schema = await host.schema();
      const db = requireDatabase(schema, stmt.db ?? host.currentDatabase());
      const vis = await host.visibility();
      return visibleTablesOnly(await host.withStats((stats) => showTableStatus(schema, db, stats)), db, vis);
    }
    case 'columns':
      return showColumns(await tableOf(stmt, host), stmt.full);
    case 'index': {
      const table = await tableOf(stmt, host);
      return host.withStats((stats) => showIndex(table, stats));
    }
    case 'createView':
      return showCreateView(await tableOf(stmt, host));
    case 'createTable': {
      const table = await tableOf(stmt, host);
      if (table.view !== undefined) return showCreateView(table);
      const auto = table.autoIncrementOffset < 0 ? null : await host.withStats(async (stats) => (await stats(table)).autoIncrement);
      return { columns: [textColumn('Table'), textColumn('Create Table', 1024)], rows: [[table.name, createTableText(table, auto)]] };
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
    case 'triggers':
    case 'events':
      requireDatabase(await host.schema(), stmt.db ?? host.currentDatabase());
      return showNoObjects(stmt.target);
    case 'openTables':
      if (stmt.db !== undefined) requireDatabase(await host.schema(), stmt.db);
      return showNoObjects(stmt.target);
    case 'procedureStatus':
    case 'functionStatus':
    case 'masterStatus':
    case 'replicaStatus':
      return showNoObjects(stmt.target);
    default:
      return assertNever(stmt.target, 'SHOW target');
  }
}

/** Rows whose first column names a table the account may see. */
function visibleTablesOnly(shown: ShowRows, db: string, vis: Visibility): ShowRows {
  return { ...shown, rows: shown.rows.filter((r) => typeof r[0] !== 'string' || vis.seesTable(db, r[0])) };
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
