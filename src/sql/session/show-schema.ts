/**
 * SHOW DATABASES / TABLES / TABLE STATUS. SHOW DATABASES lists the stored databases plus a
 * virtual `information_schema` so tools that expect it do not choke; there is no `mysql`
 * database (no grant tables).
 */
import type { Schema } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { Value } from '../../types/index.js';
import { virtualTableNames } from '../plan/index.js';
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
  return { columns, rows: names.map((n): Value[] => (full ? [n, 'BASE TABLE'] : [n])) };
}

const STATUS_COLUMNS = [
  textColumn('Name'), textColumn('Engine'), intColumn('Version'), textColumn('Row_format', 10),
  intColumn('Rows', true), intColumn('Avg_row_length', true), intColumn('Data_length', true),
  intColumn('Max_data_length', true), intColumn('Index_length', true), intColumn('Data_free', true),
  intColumn('Auto_increment', true), textColumn('Create_time'), textColumn('Update_time'),
  textColumn('Check_time'), textColumn('Collation'), intColumn('Checksum'), textColumn('Create_options', 256),
  textColumn('Comment', 2048),
];

/** Sizes and row counts are not tracked: they read 0 (MySQL's are estimates too). */
export function showTableStatus(schema: Schema, db: string): ShowRows {
  const tables = db === INFORMATION_SCHEMA ? [] : [...schema.tables(db)].sort((a, b) => byName(a.name, b.name));
  const rows = tables.map((t): Value[] => [
    t.name, 'InnoDB', 10n, 'Dynamic', 0n, 0n, 16384n, 0n, 0n, 0n, null, null, null, null, t.collation, null, '', t.comment,
  ]);
  return { columns: STATUS_COLUMNS, rows };
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
