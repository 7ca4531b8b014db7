/**
 * An immutable snapshot of every database and table definition at one schema version.
 * Database and table names are case-sensitive (lower_case_table_names=0); column and index
 * names are case-insensitive (see findColumn / findIndex).
 */
import type { ColumnInfo, DatabaseInfo, IndexInfo, TableInfo } from './types.js';

export interface Schema {
  readonly version: bigint;
  databases(): readonly DatabaseInfo[];
  database(name: string): DatabaseInfo | undefined;
  tables(db: string): readonly TableInfo[];
  table(db: string, name: string): TableInfo | undefined;
}

const NO_TABLES: readonly TableInfo[] = Object.freeze([]);

class SchemaSnapshot implements Schema {
  private readonly dbList: readonly DatabaseInfo[];
  private readonly dbByName = new Map<string, DatabaseInfo>();
  private readonly tablesByDb = new Map<string, readonly TableInfo[]>();
  private readonly tableByName = new Map<string, Map<string, TableInfo>>();

  constructor(
    readonly version: bigint,
    dbs: readonly DatabaseInfo[],
    tables: readonly TableInfo[],
  ) {
    this.dbList = Object.freeze([...dbs].sort((a, b) => compareNames(a.name, b.name)));
    for (const db of this.dbList) this.dbByName.set(db.name, db);
    const grouped = new Map<string, TableInfo[]>();
    for (const t of tables) {
      let list = grouped.get(t.dbName);
      if (list === undefined) grouped.set(t.dbName, (list = []));
      list.push(t);
    }
    for (const [db, list] of grouped) {
      list.sort((a, b) => compareNames(a.name, b.name));
      this.tablesByDb.set(db, Object.freeze(list));
      this.tableByName.set(db, new Map(list.map((t) => [t.name, t])));
    }
    Object.freeze(this);
  }

  databases(): readonly DatabaseInfo[] {
    return this.dbList;
  }

  database(name: string): DatabaseInfo | undefined {
    return this.dbByName.get(name);
  }

  tables(db: string): readonly TableInfo[] {
    return this.tablesByDb.get(db) ?? NO_TABLES;
  }

  table(db: string, name: string): TableInfo | undefined {
    return this.tableByName.get(db)?.get(name);
  }
}

export function buildSchema(version: bigint, dbs: readonly DatabaseInfo[], tables: readonly TableInfo[]): Schema {
  return new SchemaSnapshot(version, dbs, tables);
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Column by name, case-insensitive. */
export function findColumn(table: TableInfo, name: string): ColumnInfo | undefined {
  const lower = name.toLowerCase();
  return table.columns.find((c) => c.name.toLowerCase() === lower);
}

/** Index by name, case-insensitive ('primary' finds PRIMARY). */
export function findIndex(table: TableInfo, name: string): IndexInfo | undefined {
  const lower = name.toLowerCase();
  return table.indexes.find((i) => i.name.toLowerCase() === lower);
}

/** The PRIMARY index, if the table has a primary key. */
export function primaryIndex(table: TableInfo): IndexInfo | undefined {
  return table.indexes.find((i) => i.primary);
}

/** Indexes that writers must maintain (every index except PRIMARY, whatever its state). */
export function writableIndexes(table: TableInfo): readonly IndexInfo[] {
  return table.indexes.filter((i) => !i.primary);
}

/** Indexes readers may use (state 'public'). */
export function readableIndexes(table: TableInfo): readonly IndexInfo[] {
  return table.indexes.filter((i) => i.state === 'public');
}
