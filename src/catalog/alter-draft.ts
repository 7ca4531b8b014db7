/**
 * ALTER TABLE works on a mutable draft of the definition: columns in their new order, indexes
 * naming their columns (offsets are resolved once at the end, after columns moved), and what
 * the change implies for the stored rows (converted / tightened columns, a new primary key,
 * added constraints). `finishDraft` turns it back into a validated TableInfo.
 */
import { SqlError } from '../errors/index.js';
import { checkAutoIncrementKey, makeIndex, resolveIndexColumns, sortIndexes } from './index-builder.js';
import type { ForeignKeySpec } from './constraints.js';
import { isIntHandlePk } from './table-builder.js';
import type { CheckInfo, ColumnInfo, IndexInfo, IndexState, TableInfo } from './types.js';

export interface DraftIndex {
  /** 0 for an index added by this ALTER. */
  id: number;
  name: string;
  columns: Array<{ name: string; length?: number }>;
  unique: boolean;
  primary: boolean;
  state: IndexState;
}

export interface Draft {
  readonly old: TableInfo;
  dbName: string;
  name: string;
  columns: ColumnInfo[];
  indexes: DraftIndex[];
  foreignKeys: ForeignKeySpec[];
  checks: CheckInfo[];
  comment: string;
  charset: string;
  collation: string;
  maxColumnId: number;
  autoIncrement?: bigint;
  /** Column ids whose stored values must be converted to a new type. */
  readonly converted: Set<number>;
  /** Column ids that became NOT NULL (existing NULLs are 1138). */
  readonly tightened: Set<number>;
  /** Added columns whose existing-row value is not a constant default. */
  readonly computedOrigin: Set<number>;
  readonly droppedIndexIds: number[];
  readonly addedForeignKeys: ForeignKeySpec[];
  readonly addedChecks: CheckInfo[];
  primaryChanged: boolean;
  /** True when only indexes are added (the online CREATE INDEX path applies). */
  onlyAddsIndexes: boolean;
}

export function startDraft(info: TableInfo): Draft {
  return {
    old: info,
    dbName: info.dbName,
    name: info.name,
    columns: info.columns.map((c) => ({ ...c })),
    indexes: info.indexes.map((ix) => ({ ...ix, columns: ix.columns.map((c) => (c.length === undefined ? { name: c.name } : { name: c.name, length: c.length })) })),
    foreignKeys: [...info.foreignKeys],
    checks: [...(info.checks ?? [])],
    comment: info.comment,
    charset: info.charset,
    collation: info.collation,
    maxColumnId: info.maxColumnId,
    converted: new Set(),
    tightened: new Set(),
    computedOrigin: new Set(),
    droppedIndexIds: [],
    addedForeignKeys: [],
    addedChecks: [],
    primaryChanged: false,
    onlyAddsIndexes: true,
  };
}

export function draftColumn(d: Draft, name: string): ColumnInfo | undefined {
  const lower = name.toLowerCase();
  return d.columns.find((c) => c.name.toLowerCase() === lower);
}

export function unknownColumn(d: Draft, name: string): SqlError {
  return SqlError.of('ER_BAD_FIELD_ERROR', name, d.old.name);
}

/** True if the rows must be rewritten in the ALTER's transaction. */
export function needsRewrite(d: Draft, foreignKeyChecks: boolean): boolean {
  return d.converted.size > 0 || d.tightened.size > 0 || d.computedOrigin.size > 0 || d.primaryChanged
    || d.addedChecks.some((c) => c.enforced) || (foreignKeyChecks && d.addedForeignKeys.length > 0)
    || (!d.onlyAddsIndexes && d.indexes.some((ix) => ix.id === 0));
}

/** The new definition; new indexes get fresh ids and `newIndexState`. */
export function finishDraft(d: Draft, newIndexState: IndexState): TableInfo {
  if (d.columns.length === 0) throw SqlError.of('ER_CANT_REMOVE_ALL_FIELDS');
  const columns = d.columns.map((c, offset) => ({ ...c, offset }));
  let maxIndexId = d.old.maxIndexId;
  const built: IndexInfo[] = d.indexes.map((ix) => {
    const cols = resolveIndexColumns(columns, { columns: ix.columns, unique: ix.unique, primary: ix.primary });
    const id = ix.id === 0 ? ++maxIndexId : ix.id;
    return makeIndex(id, ix.name, cols, ix, ix.id === 0 ? newIndexState : ix.state);
  });
  const indexes = sortIndexes(built, columns);
  const pk = indexes.find((ix) => ix.primary);
  const pkIsHandle = isIntHandlePk(columns, pk);
  return {
    id: d.old.id,
    dbName: d.dbName,
    name: d.name,
    columns,
    indexes,
    pkIsHandle,
    handleKind: pk !== undefined && !pkIsHandle ? 'common' : 'int',
    autoIncrementOffset: checkAutoIncrementKey(columns, indexes),
    maxColumnId: d.maxColumnId,
    maxIndexId,
    foreignKeys: d.foreignKeys.map((fk) => ({
      name: fk.name, columns: fk.columns, refDb: fk.refDb, refTable: fk.refTable,
      refColumns: fk.refColumns, onDelete: fk.onDelete, onUpdate: fk.onUpdate,
    })),
    ...(d.checks.length > 0 ? { checks: d.checks } : {}),
    comment: d.comment,
    charset: d.charset,
    collation: d.collation,
    revision: d.old.revision + 1,
  };
}
