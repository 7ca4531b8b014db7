/**
 * SHOW DATABASES / TABLES / TABLE STATUS. SHOW DATABASES lists the stored databases plus a
 * virtual `information_schema` so tools that expect it do not choke; there is no `mysql`
 * database (no grant tables).
 */
import type { Schema } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { Value } from '../../types/index.js';
import { virtualTable, virtualTableNames } from '../plan/index.js';
import { tableRow, type StatsOf } from './info-schema-tables.js';
import { intColumn, textColumn } from './result-columns.js';
import type { ShowRows } from './show-server.js';

export const INFORMATION_SCHEMA = 'information_schema';

export function showDatabases(schema: Schema, like: string | undefined): ShowRows {
  const names = new Set(schema.databases().map((d) => d.name));
  names.add(INFORMATION_SCHEMA);
  const header = like === undefined ? 'Database' : `Database (${like})`;
  return { columns: [textColumn(header)], rows: [...names].sort(byName).map((n) => [n]) };
}

export function requireDatabase(schema: Schema, db: string | null | undefined): string {
  if (db === null || db === undefined) throw SqlError.of('ER_NO_DB_ERROR');
  if (schema.database(db) === undefined && db !== INFORMATION_SCHEMA) throw SqlError.of('ER_BAD_DB_ERROR', db);
  return db;
}

export function showTables(schema: Schema, db: string, full: boolean, like: string | undefined): ShowRows {
  const header = `Tables_in_${db}` + (like === undefined ? '' : ` (${like})`);
  const names = db === INFORMATION_SCHEMA ? virtualTableNames() : schema.tables(db).map((t) => t.name).sort(byName);
  const columns = full ? [textColumn(header), textColumn('Table_type')] : [textColumn(header)];
  const type = (n: string): string => (schema.table(db, n)?.view !== undefined ? 'VIEW' : 'BASE TABLE');
  return { columns, rows: names.map((n): Value[] => (full ? [n, type(n)] : [n])) };
}

const STATUS_COLUMNS = [
  textColumn('Name'), textColumn('Engine'), intColumn('Version'), textColumn('Row_format', 10),
  intColumn('Rows', true), intColumn('Avg_row_length', true), intColumn('Data_length', true),
  intColumn('Max_data_length', true), intColumn('Index_length', true), intColumn('Data_free', true),
  intColumn('Auto_increment', true), textColumn('Create_time'), textColumn('Update_time'),
  textColumn('Check_time'), textColumn('Collation'), intColumn('Checksum'), textColumn('Create_options', 256),
  textColumn('Comment', 2048),
];

/** The information_schema.TABLES values of each table (estimates, as in MySQL), without TABLE_TYPE. */
export async function showTableStatus(schema: Schema, db: string, stats: StatsOf): Promise<ShowRows> {
  const tables = db === INFORMATION_SCHEMA
    ? virtualTableNames().map((n) => virtualTable(n)).filter((t) => t !== undefined)
    : [...schema.tables(db)].sort((a, b) => byName(a.name, b.name));
  const rows: Value[][] = [];
  for (const t of tables) {
    const r = await tableRow(t, stats);
    rows.push([r[2] ?? null, ...r.slice(4)]);
  }
  return { columns: STATUS_COLUMNS, rows };
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
