/** SHOW [FULL] COLUMNS / DESCRIBE, SHOW INDEX and COM_FIELD_LIST. */
import type { ColumnInfo, Schema, TableInfo } from '../../catalog/index.js';
import { formatColumnType, isStringType, type Value } from '../../types/index.js';
import { columnDefaultText, columnExtra, columnKey } from './column-text.js';
import { intColumn, textColumn } from './result-columns.js';
import { isInformationSchema, isVirtualTable, noSuchTable, virtualTable } from '../plan/index.js';
import { indexRows, type StatsOf } from './info-schema-tables.js';
import type { ResultColumn } from './types.js';

type Row = Value[];

export function requireTable(schema: Schema, db: string, name: string): TableInfo {
  const table = isInformationSchema(db) ? virtualTable(name) : schema.table(db, name);
  if (table === undefined) throw noSuchTable(db, name);
  return table;
}

export function showColumns(table: TableInfo, full: boolean): { columns: ResultColumn[]; rows: Row[] } {
  const names = full
    ? ['Field', 'Type', 'Collation', 'Null', 'Key', 'Default', 'Extra', 'Privileges', 'Comment']
    : ['Field', 'Type', 'Null', 'Key', 'Default', 'Extra'];
  const rows = table.columns.map((col) => columnRow(table, col, full));
  return { columns: names.map((n) => textColumn(n)), rows };
}

function columnRow(table: TableInfo, col: ColumnInfo, full: boolean): Row {
  const base = [col.name, formatColumnType(col.type)];
  const rest = [col.notNull ? 'NO' : 'YES', columnKey(table, col), columnDefaultText(col), columnExtra(col)];
  if (!full) return [...base, ...rest];
  const collation = isStringType(col.type) ? col.type.collation : null;
  return [...base, collation, ...rest, 'select,insert,update,references', col.comment];
}

const INDEX_COLUMNS: readonly ResultColumn[] = [
  textColumn('Table'),
  intColumn('Non_unique'),
  textColumn('Key_name'),
  intColumn('Seq_in_index', true),
  textColumn('Column_name'),
  textColumn('Collation', 1),
  intColumn('Cardinality'),
  intColumn('Sub_part'),
  textColumn('Packed'),
  textColumn('Null', 3),
  textColumn('Index_type', 16),
  textColumn('Comment', 8),
  textColumn('Index_comment', 2048),
  textColumn('Visible', 3),
  textColumn('Expression'),
];

/** SHOW INDEX: information_schema.STATISTICS' values of the table; Cardinality is the row estimate. */
export async function showIndex(table: TableInfo, stats: StatsOf): Promise<{ columns: readonly ResultColumn[]; rows: Row[] }> {
  const rows = isVirtualTable(table) ? [] : await indexRows(table, stats);
  return { columns: INDEX_COLUMNS, rows: rows.map((r) => [r[2] ?? null, ...r.slice(3, 4), ...r.slice(5)]) };
}

/** COM_FIELD_LIST: full column metadata plus the default as text. */
export function fieldListColumns(table: TableInfo): ResultColumn[] {
  const key = (col: ColumnInfo): string => columnKey(table, col);
  return table.columns.map((col) => ({
    name: col.name,
    orgName: col.name,
    table: table.name,
    orgTable: table.name,
    schema: table.dbName,
    type: col.type,
    notNull: col.notNull,
    primaryKey: key(col) === 'PRI',
    uniqueKey: key(col) === 'UNI',
    multipleKey: key(col) === 'MUL',
    autoIncrement: col.autoIncrement,
    defaultText: columnDefaultText(col),
  }));
}
