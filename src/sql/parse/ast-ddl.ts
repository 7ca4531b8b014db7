/** The DDL part of the AST: column, index and foreign key definitions, CREATE TABLE / INDEX, DROP INDEX. */
import type { ColumnType } from '../../types/index.js';
import type { CheckDef } from './ast-alter.js';
import type { Expr, SelectStmt, TableName } from './ast.js';

/** Default of a column: none given, a constant expression, or CURRENT_TIMESTAMP[(fsp)]. */
export type DefaultDef =
  | { readonly kind: 'none' }
  | { readonly kind: 'expr'; readonly expr: Expr }
  | { readonly kind: 'now'; readonly fsp: number };

export interface ColumnDef {
  readonly name: string;
  readonly type: ColumnType;
  /** true: NOT NULL; false: NULL given explicitly or nothing said. */
  readonly notNull: boolean;
  readonly default: DefaultDef;
  readonly autoIncrement: boolean;
  /** Inline PRIMARY KEY / UNIQUE [KEY]. */
  readonly primaryKey: boolean;
  readonly unique: boolean;
  readonly onUpdateNow: boolean;
  readonly comment: string;
}

export interface IndexColumn {
  readonly name: string;
  /** Prefix length `col(10)`; undefined for the whole column. */
  readonly length?: number;
  readonly desc: boolean;
}

export interface IndexDef {
  /** undefined: generate a name as MySQL does (first column name, `_2` suffix on clashes). */
  readonly name?: string;
  readonly columns: readonly IndexColumn[];
  readonly primary: boolean;
  readonly unique: boolean;
}

export interface ForeignKeyDef {
  readonly name?: string;
  /** FOREIGN KEY index_name (...): the name of the index created on the child columns. */
  readonly indexName?: string;
  readonly columns: readonly string[];
  readonly refTable: TableName;
  readonly refColumns: readonly string[];
  readonly onDelete: string;
  readonly onUpdate: string;
}

export interface CreateTableStmt {
  readonly kind: 'createTable';
  readonly table: TableName;
  readonly ifNotExists: boolean;
  readonly columns: readonly ColumnDef[];
  readonly indexes: readonly IndexDef[];
  readonly foreignKeys: readonly ForeignKeyDef[];
  /** Table options as written, keys upper-cased: ENGINE, AUTO_INCREMENT, DEFAULT CHARSET, COLLATE, COMMENT. */
  readonly options: Readonly<Record<string, string>>;
  /** Column and table CHECK constraints, in order of appearance. */
  readonly checks?: readonly CheckDef[];
  /** CREATE TABLE t LIKE src (columns etc. are then empty). */
  readonly like?: TableName;
  /** CREATE TABLE t [(defs)] [IGNORE | REPLACE] [AS] SELECT ... */
  readonly select?: SelectStmt;
  readonly selectMode?: 'ignore' | 'replace';
}

export interface CreateIndexStmt {
  readonly kind: 'createIndex';
  readonly table: TableName;
  readonly index: IndexDef & { readonly name: string };
  readonly ifNotExists: boolean;
}

export interface DropIndexStmt {
  readonly kind: 'dropIndex';
  readonly table: TableName;
  readonly name: string;
  readonly ifExists: boolean;
}
