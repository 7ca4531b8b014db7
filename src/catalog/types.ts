/**
 * Schema objects as stored in the KV (JSON under meta keys) and read by every SQL layer.
 * Ids are never reused: table ids come from a global counter, column and index ids from
 * per-table counters (`maxColumnId`, `maxIndexId`).
 */
import type { ColumnType } from '../types/index.js';
import type { ViewInfo } from './view.js';

/** Column default, stored as text so the definition stays JSON. */
export type ColumnDefault =
  /** No DEFAULT clause: NULL for nullable columns, "no default" (1364) for NOT NULL ones. */
  | { readonly kind: 'none' }
  | { readonly kind: 'null' }
  /** A constant as MySQL shows it in SHOW CREATE TABLE / COLUMN_DEFAULT, e.g. '0', '', '2.50'. Cast to the column type on use. */
  | { readonly kind: 'literal'; readonly text: string; readonly binary?: boolean }
  /** CURRENT_TIMESTAMP[(fsp)] */
  | { readonly kind: 'now'; readonly fsp: number };

export interface ColumnInfo {
  /** Stable id used in row values (row format v2); never reused within the table. */
  readonly id: number;
  readonly name: string;
  /** Position in the table's column order, 0-based. */
  readonly offset: number;
  readonly type: ColumnType;
  readonly notNull: boolean;
  readonly default: ColumnDefault;
  /**
   * Value of this column in rows written before it existed (ADD COLUMN): the default at the
   * time it was added, with CURRENT_TIMESTAMP already evaluated to a literal. Absent = `default`.
   */
  readonly originDefault?: ColumnDefault;
  readonly autoIncrement: boolean;
  readonly onUpdateNow: boolean;
  readonly comment: string;
}

/** Schema state of an index while it is being built (TiDB's F1 states, simplified). */
export type IndexState = 'writeOnly' | 'public';

export interface IndexColumnInfo {
  /** Offset of the column in TableInfo.columns. */
  readonly offset: number;
  readonly name: string;
  /** Prefix length, undefined for the whole column. */
  readonly length?: number;
}

export interface IndexInfo {
  readonly id: number;
  readonly name: string;
  readonly columns: readonly IndexColumnInfo[];
  readonly unique: boolean;
  readonly primary: boolean;
  readonly state: IndexState;
}

export interface ForeignKeyInfo {
  readonly name: string;
  readonly columns: readonly string[];
  readonly refDb: string;
  readonly refTable: string;
  readonly refColumns: readonly string[];
  readonly onDelete: string;
  readonly onUpdate: string;
}

/** CHECK constraint: `expr` is its SQL text; `columns` the (lower-cased) column names it reads. */
export interface CheckInfo {
  readonly name: string;
  readonly expr: string;
  readonly enforced: boolean;
  readonly columns: readonly string[];
}

export interface TableInfo {
  readonly id: number;
  readonly dbName: string;
  readonly name: string;
  readonly columns: readonly ColumnInfo[];
  /**
   * Includes the PRIMARY index when the primary key is clustered as a common handle (any
   * primary key that is not a single integer column) and for information purposes when
   * `pkIsHandle` (then it has no index entries of its own: the row key is the handle).
   */
  readonly indexes: readonly IndexInfo[];
  /** Single integer primary key column used directly as the int handle. */
  readonly pkIsHandle: boolean;
  /**
   * Kind of row handle: 'int' (pkIsHandle, or a hidden _tidb_rowid when there is no primary
   * key) or 'common' (clustered non-integer / composite primary key).
   */
  readonly handleKind: 'int' | 'common';
  /** Offset of the AUTO_INCREMENT column, -1 if none. */
  readonly autoIncrementOffset: number;
  readonly maxColumnId: number;
  readonly maxIndexId: number;
  readonly foreignKeys: readonly ForeignKeyInfo[];
  /** CHECK constraints (absent in definitions written before they existed = none). */
  readonly checks?: readonly CheckInfo[];
  readonly comment: string;
  readonly charset: string;
  readonly collation: string;
  /** Bumped by each DDL on this table. */
  readonly revision: number;
  /** Set for a view (view.ts): the definition lives beside tables, in the same namespace. */
  readonly view?: ViewInfo;
}

export interface DatabaseInfo {
  readonly id: number;
  readonly name: string;
  readonly charset: string;
  readonly collation: string;
}
