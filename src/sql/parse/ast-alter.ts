/**
 * ALTER TABLE and RENAME TABLE statements (ddl-alter.ts produces these) and CHECK constraint
 * definitions shared with CREATE TABLE.
 */
import type { ColumnDef, DefaultDef, ForeignKeyDef, IndexDef, TableName } from './ast.js';

/** CHECK (expr): `expr` is the source text between the parentheses (validated as an expression). */
export interface CheckDef {
  readonly name?: string;
  readonly expr: string;
  readonly enforced: boolean;
}

/** Where ADD / MODIFY / CHANGE put the column: FIRST, AFTER col, or unchanged (undefined). */
export type ColumnPosition = { readonly first: true } | { readonly after: string };

export type AlterOp =
  | { readonly op: 'addColumn'; readonly column: ColumnDef; readonly position?: ColumnPosition }
  | { readonly op: 'dropColumn'; readonly name: string; readonly ifExists: boolean }
  /** MODIFY (from = column.name) and CHANGE old new. */
  | { readonly op: 'modifyColumn'; readonly from: string; readonly column: ColumnDef; readonly position?: ColumnPosition }
  | { readonly op: 'renameColumn'; readonly from: string; readonly to: string }
  /** ALTER COLUMN c SET DEFAULT x (default) / DROP DEFAULT (default undefined). */
  | { readonly op: 'setDefault'; readonly name: string; readonly default?: DefaultDef }
  | { readonly op: 'addIndex'; readonly index: IndexDef }
  | { readonly op: 'dropIndex'; readonly name: string; readonly ifExists: boolean }
  | { readonly op: 'dropPrimaryKey' }
  | { readonly op: 'renameIndex'; readonly from: string; readonly to: string }
  | { readonly op: 'renameTable'; readonly to: TableName }
  | { readonly op: 'addForeignKey'; readonly fk: ForeignKeyDef }
  | { readonly op: 'dropForeignKey'; readonly name: string }
  | { readonly op: 'addCheck'; readonly check: CheckDef }
  /** DROP CHECK (kind 'check') / DROP CONSTRAINT (any constraint kind). */
  | { readonly op: 'dropConstraint'; readonly name: string; readonly kind: 'check' | 'any' }
  | { readonly op: 'enforceCheck'; readonly name: string; readonly enforced: boolean }
  /** CONVERT TO CHARACTER SET cs [COLLATE c] (names lower-cased). */
  | { readonly op: 'convertCharset'; readonly charset: string; readonly collation?: string }
  /** Table options as in CREATE TABLE (keys upper-cased: AUTO_INCREMENT, COMMENT, DEFAULT CHARSET, COLLATE, ENGINE ...). */
  | { readonly op: 'options'; readonly options: Readonly<Record<string, string>> };

export interface AlterTableStmt {
  readonly kind: 'alterTable';
  readonly table: TableName;
  readonly ops: readonly AlterOp[];
}

export interface RenameTableStmt {
  readonly kind: 'renameTable';
  readonly pairs: ReadonlyArray<{ readonly from: TableName; readonly to: TableName }>;
}
