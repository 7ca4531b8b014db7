/** ALTER TABLE input: the actions the SQL layer hands to Catalog.alterTable, and its callbacks. */
import type { Txn } from '../txn/types.js';
import type { Value } from '../types/index.js';
import type { ForeignKeySpec } from './constraints.js';
import type { ColumnSpec, IndexSpec } from './specs.js';
import type { CheckInfo, ColumnDefault, ColumnInfo, ForeignKeyInfo, TableInfo } from './types.js';

export type ColumnPlacement = { readonly first: true } | { readonly after: string };

export type AlterAction =
  | { readonly op: 'addColumn'; readonly spec: ColumnSpec; readonly position?: ColumnPlacement }
  | { readonly op: 'dropColumn'; readonly name: string; readonly ifExists: boolean }
  | { readonly op: 'modifyColumn'; readonly from: string; readonly spec: ColumnSpec; readonly position?: ColumnPlacement }
  | { readonly op: 'renameColumn'; readonly from: string; readonly to: string }
  | { readonly op: 'setDefault'; readonly name: string; readonly default: ColumnDefault }
  | { readonly op: 'addIndex'; readonly spec: IndexSpec }
  | { readonly op: 'dropIndex'; readonly name: string; readonly ifExists: boolean }
  | { readonly op: 'dropPrimaryKey' }
  | { readonly op: 'renameIndex'; readonly from: string; readonly to: string }
  | { readonly op: 'renameTable'; readonly db: string; readonly name: string }
  | { readonly op: 'addForeignKey'; readonly fk: ForeignKeySpec }
  | { readonly op: 'dropForeignKey'; readonly name: string }
  | { readonly op: 'addCheck'; readonly check: CheckInfo }
  | { readonly op: 'dropConstraint'; readonly name: string; readonly kind: 'check' | 'any' }
  | { readonly op: 'enforceCheck'; readonly name: string; readonly enforced: boolean }
  | { readonly op: 'autoIncrement'; readonly value: bigint }
  | { readonly op: 'comment'; readonly text: string }
  | { readonly op: 'charset'; readonly charset?: string; readonly collation?: string }
  /** CONVERT TO CHARACTER SET: the table default and every string column (rows rewritten). */
  | { readonly op: 'convertCharset'; readonly charset: string; readonly collation?: string };

/** The table's AUTO_INCREMENT counter, for an ALTER that adds or makes an AUTO_INCREMENT column. */
export interface AlterAutoIds {
  alloc(tableId: number, n: number): Promise<bigint>;
  rebase(tableId: number, used: bigint): Promise<void>;
}

/** What the SQL layer supplies: value conversion and row validation need the expression engine. */
export interface AlterHooks {
  readonly foreignKeyChecks: boolean;
  /** A stored value converted to the column's new type (strict: throws 1265 / 1264 / 1406). */
  convert(value: Value, column: ColumnInfo, rowNumber: number): Value;
  /** The value existing rows get for an added column whose default is not a constant (CURRENT_TIMESTAMP, implicit zero). */
  originValue(column: ColumnInfo): Value;
  /** Checks one rewritten row against the constraints added by the ALTER (3819, 1452). */
  rowValidator?(txn: Txn, table: TableInfo, added: { readonly checks: readonly CheckInfo[]; readonly foreignKeys: readonly ForeignKeyInfo[] }): (row: readonly Value[]) => Promise<void>;
}
