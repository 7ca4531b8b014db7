/**
 * information_schema tables computed in memory when a statement reads them (TiDB's memtables).
 * Each is a TableInfo with a negative id, which no stored table has; the planner reads it with a
 * `memTable` node (WHERE, ORDER BY, joins and aggregates work on top as on any table) and the
 * executor asks the statement context for the rows (ExecContext.virtualRows).
 * Adding a table: declare its columns below and produce its rows in
 * sql/session/info-schema-rows.ts. Names compare case-insensitively, as in MySQL.
 */
import type { ColumnInfo, TableInfo } from '../../catalog/index.js';
import { makeType, type ColumnType } from '../../types/index.js';

export const INFORMATION_SCHEMA = 'information_schema';

const I_S_COLLATION = 'utf8mb3_general_ci';

type ColumnSpec = readonly [name: string, type: ColumnType, notNull: boolean];

const varchar = (length: number): ColumnType => makeType('varchar', { length, collation: I_S_COLLATION });

/** MySQL 8.0's column definitions, by canonical (upper-case) table name. */
const DEFINITIONS: ReadonlyArray<readonly [name: string, columns: readonly ColumnSpec[]]> = [
  ['PROCESSLIST', [
    ['ID', makeType('bigint', { unsigned: true }), true],
    ['USER', varchar(32), true],
    ['HOST', varchar(261), true],
    ['DB', varchar(64), false],
    ['COMMAND', varchar(16), true],
    ['TIME', makeType('int'), true],
    ['STATE', varchar(64), false],
    ['INFO', varchar(65535), false],
  ]],
];

const TABLES: ReadonlyMap<string, TableInfo> = new Map(
  DEFINITIONS.map(([name, cols], i) => [name, virtualTableInfo(-(i + 1), name, cols)]),
);

export function isInformationSchema(db: string): boolean {
  return db.toLowerCase() === INFORMATION_SCHEMA;
}

/** The table `name` (any case; the result carries the spelling used), or undefined. */
export function virtualTable(name: string): TableInfo | undefined {
  const t = TABLES.get(name.toUpperCase());
  return t === undefined || t.name === name ? t : { ...t, name };
}

export function isVirtualTable(t: TableInfo): boolean {
  return t.id < 0;
}

/** Canonical (upper-case) name of a virtual table, whatever spelling it was resolved with. */
export function virtualTableName(t: TableInfo): string {
  return t.name.toUpperCase();
}

/** Canonical names of every information_schema table (SHOW TABLES FROM information_schema). */
export function virtualTableNames(): string[] {
  return [...TABLES.keys()];
}

function virtualTableInfo(id: number, name: string, specs: readonly ColumnSpec[]): TableInfo {
  const columns: ColumnInfo[] = specs.map(([colName, type, notNull], offset) => ({
    id: offset + 1,
    name: colName,
    offset,
    type,
    notNull,
    default: { kind: 'none' },
    autoIncrement: false,
    onUpdateNow: false,
    comment: '',
  }));
  return Object.freeze({
    id,
    dbName: INFORMATION_SCHEMA,
    name,
    columns,
    indexes: [],
    pkIsHandle: false,
    handleKind: 'int',
    autoIncrementOffset: -1,
    maxColumnId: columns.length,
    maxIndexId: 0,
    foreignKeys: [],
    comment: '',
    charset: 'utf8mb3',
    collation: I_S_COLLATION,
    revision: 0,
  });
}
