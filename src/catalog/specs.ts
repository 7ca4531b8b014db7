/** DDL input shapes: what the SQL layer hands to Catalog.createTable / createIndex. */
import type { ColumnType } from '../types/index.js';
import type { CheckInfo, ColumnDefault, ForeignKeyInfo } from './types.js';

export interface ColumnSpec {
  readonly name: string;
  readonly type: ColumnType;
  readonly notNull: boolean;
  readonly default: ColumnDefault;
  readonly autoIncrement: boolean;
  readonly onUpdateNow: boolean;
  readonly comment: string;
  /** Inline PRIMARY KEY. */
  readonly primaryKey: boolean;
  /** Inline UNIQUE [KEY]. */
  readonly unique: boolean;
}

export interface IndexColumnSpec {
  readonly name: string;
  /** Prefix length `col(10)`: first N characters (strings) or bytes (binary). */
  readonly length?: number;
}

export interface IndexSpec {
  /** Omitted: named after the first column (`a`, `a_2`, ...); PRIMARY KEY is always `PRIMARY`. */
  readonly name?: string;
  readonly columns: readonly IndexColumnSpec[];
  readonly unique: boolean;
  readonly primary: boolean;
}

export interface TableSpec {
  readonly name: string;
  readonly columns: readonly ColumnSpec[];
  readonly indexes: readonly IndexSpec[];
  /** An empty `name` gets MySQL's generated `<table>_ibfk_<n>`; `indexName` names the index created for it when none exists. */
  readonly foreignKeys: readonly (ForeignKeyInfo & { readonly indexName?: string })[];
  /** An empty `name` gets `<table>_chk_<n>`. */
  readonly checks?: readonly CheckInfo[];
  readonly comment: string;
  readonly charset?: string;
  readonly collation?: string;
  /** AUTO_INCREMENT=N table option: the first id handed out. */
  readonly autoIncrementStart?: bigint;
}

export interface CreateDatabaseOptions {
  readonly ifNotExists: boolean;
  readonly charset?: string;
  readonly collation?: string;
}
