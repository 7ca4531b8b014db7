/**
 * The columns a plan node outputs, and name resolution over them (the expr `Scope`).
 * Database and table names compare case-sensitively, column names case-insensitively.
 */
import type { ColumnInfo, TableInfo } from '../../catalog/index.js';
import type { ColumnType } from '../../types/index.js';
import { SqlError } from '../../errors/index.js';
import type { ColumnBinding, Scope } from '../expr/index.js';

export interface SchemaColumn {
  /** Column name (or a synthetic name such as `a0` under the synthetic table AGG_TABLE). */
  readonly name: string;
  /** Table alias (or table name); '' for expressions. */
  readonly table: string;
  readonly db: string;
  readonly type: ColumnType;
  readonly notNull: boolean;
  /** The base table column this output column is a direct copy of, if any. */
  readonly base?: { readonly table: TableInfo; readonly column: ColumnInfo };
}

/** Synthetic table name of aggregate / group-expression outputs (cannot be written in SQL). */
export const AGG_TABLE = '\u0000agg';
/** Synthetic table name of the VALUES() row in ON DUPLICATE KEY UPDATE. */
export const VALUES_TABLE = '\u0000values';
/** Synthetic table name addressing an output column by position: `{ table: POS_TABLE, name: '2' }`. */
export const POS_TABLE = '\u0000pos';

/** A column reference to position `i` of the input row. */
export function positionRef(i: number): { readonly kind: 'column'; readonly table: string; readonly name: string } {
  return { kind: 'column', table: POS_TABLE, name: String(i) };
}

export interface ColumnRef {
  readonly db?: string;
  readonly table?: string;
  readonly name: string;
}

export class RowSchema implements Scope {
  private readonly lowerNames: readonly string[];

  constructor(readonly columns: readonly SchemaColumn[]) {
    this.lowerNames = columns.map((c) => c.name.toLowerCase());
  }

  get width(): number {
    return this.columns.length;
  }

  /** Offset of the column `ref` names, -1 if none; throws 1052 when ambiguous. */
  indexOf(ref: ColumnRef): number {
    if (ref.table === POS_TABLE) {
      const i = Number(ref.name);
      return i < this.columns.length ? i : -1;
    }
    const name = ref.name.toLowerCase();
    let found = -1;
    for (let i = 0; i < this.columns.length; i++) {
      if (this.lowerNames[i] !== name) continue;
      const c = this.columns[i] as SchemaColumn;
      if (ref.table !== undefined ? c.table !== ref.table : c.table.startsWith('\u0000')) continue;
      if (ref.db !== undefined && c.db !== ref.db) continue;
      if (found >= 0 && !sameBase(this.columns[found] as SchemaColumn, c)) {
        throw SqlError.of('ER_NON_UNIQ_ERROR', ref.name, 'field list');
      }
      if (found < 0) found = i;
    }
    return found;
  }

  resolve(ref: ColumnRef): ColumnBinding | undefined {
    const i = this.indexOf(ref);
    if (i < 0) return undefined;
    const c = this.columns[i] as SchemaColumn;
    return { offset: i, type: c.type, notNull: c.notNull };
  }

  concat(other: RowSchema): RowSchema {
    return new RowSchema([...this.columns, ...other.columns]);
  }
}

function sameBase(a: SchemaColumn, b: SchemaColumn): boolean {
  return a.base !== undefined && a.base.column === b.base?.column && a.table === b.table;
}

/** Output schema of a base table read under `alias`. */
export function tableSchema(table: TableInfo, alias: string): RowSchema {
  return new RowSchema(
    table.columns.map((column) => ({
      name: column.name,
      table: alias,
      db: table.dbName,
      type: column.type,
      notNull: column.notNull,
      base: { table, column },
    })),
  );
}

export const EMPTY_SCHEMA = new RowSchema([]);
