/**
 * information_schema tables computed in memory when a statement reads them (TiDB's memtables).
 * Each is a TableInfo with a negative id, which no stored table has; the planner reads it with a
 * `memTable` node (WHERE, ORDER BY, joins and aggregates work on top as on any table) and the
 * executor asks the statement context for the rows (ExecContext.virtualRows).
 * Adding a table: declare its columns in info-schema-defs.ts and produce its rows in
 * sql/session/info-schema-rows.ts. Names compare case-insensitively, as in MySQL.
 */
import type { ColumnInfo, TableInfo } from '../../catalog/index.js';
import { makeType, type ColumnType, type LobSize } from '../../types/index.js';
import { INFO_SCHEMA_DEFINITIONS } from './info-schema-defs.js';

export const INFORMATION_SCHEMA = 'information_schema';

const I_S_COLLATION = 'utf8mb3_general_ci';

type ColumnSpec = readonly [name: string, type: ColumnType, notNull: boolean];

const varchar = (length: number): ColumnType => makeType('varchar', { length, collation: I_S_COLLATION });
const text = (lob: LobSize): ColumnType => makeType('text', { lob, collation: I_S_COLLATION });

const TYPES: Readonly<Record<string, ColumnType>> = {
  int: makeType('int'),
  uint: makeType('int', { unsigned: true }),
  bigint: makeType('bigint'),
  ubigint: makeType('bigint', { unsigned: true }),
  text: text('normal'),
  mediumtext: text('medium'),
  longtext: text('long'),
  datetime: makeType('datetime'),
  timestamp: makeType('timestamp'),
  timestamp2: makeType('timestamp', { scale: 2 }),
  b0: makeType('binary', { length: 0 }),
};

/** `NAME type [NN]` (info-schema-defs.ts) -> column spec; `vN` is VARCHAR(N). */
function parseSpec(spec: string): ColumnSpec {
  const [name = '', type = '', nn] = spec.split(' ');
  const t = type.startsWith('v') && /^v\d+$/.test(type) ? varchar(Number(type.slice(1))) : TYPES[type];
  if (t === undefined) throw new Error(`information_schema: bad column spec ${spec}`);
  return [name, t, nn === 'NN'];
}

const TABLES: ReadonlyMap<string, TableInfo> = new Map(
  INFO_SCHEMA_DEFINITIONS.map(([name, cols], i) => [name, virtualTableInfo(-(i + 1), name, cols.map(parseSpec))]),
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
