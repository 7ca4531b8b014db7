/**
 * CREATE INDEX (online, TiDB style) and DROP INDEX.
 * ADD: txn 1 adds the index as 'writeOnly' (+ schema version), the backfill fills it batch by
 * batch, txn 2 makes it 'public' (+ schema version). On failure (e.g. 1062) the half-built
 * index is removed from the definition and its entries range-deleted.
 * A process killed mid-backfill leaves the index 'writeOnly' (invisible to readers, still
 * maintained by writers); CREATE INDEX with the same name and definition resumes it (the
 * backfill is idempotent), DROP INDEX removes it.
 * DROP: the definition changes first, then the entries are range-deleted.
 */
import { SqlError } from '../errors/index.js';
import type { TxnStore } from '../txn/types.js';
import { backfillIndex, type BackfillProgress } from './backfill.js';
import { noSuchTable } from './catalog-errors.js';
import { deleteIndexData } from './data-range.js';
import { deepFreeze } from './info-json.js';
import { chooseIndexName, makeIndex, resolveIndexColumns, sortIndexes } from './index-builder.js';
import { bumpSchemaVersion, readTable, writeTable } from './meta-store.js';
import { findIndex } from './schema.js';
import type { IndexSpec } from './specs.js';
import type { IndexInfo, IndexState, TableInfo } from './types.js';

export type NamedIndexSpec = IndexSpec & { readonly name: string };

export async function createIndex(
  store: TxnStore,
  db: string,
  table: string,
  spec: NamedIndexSpec,
  ifNotExists: boolean,
  progress?: BackfillProgress,
): Promise<void> {
  const added = await store.update(async (txn) => {
    const info = await readTable(txn, db, table);
    if (info === undefined) throw noSuchTable(db, table);
    if (spec.primary) throw addPrimaryError(info);
    const existing = findIndex(info, spec.name);
    if (existing !== undefined) {
      // Left 'writeOnly' by a CREATE INDEX whose process died mid-backfill: finish it now.
      if (existing.state === 'writeOnly' && sameDefinition(info, existing, spec)) return { table: info, index: existing };
      if (ifNotExists) return undefined;
      throw SqlError.of('ER_DUP_KEYNAME', spec.name);
    }
    const next = withNewIndex(info, spec);
    writeTable(txn, next.table);
    await bumpSchemaVersion(txn);
    return next;
  });
  if (added === undefined) return;
  try {
    await backfillIndex(store, added.table, added.index, undefined, progress);
    await setIndexState(store, db, table, added.index.id, 'public');
  } catch (err) {
    await abandonIndex(store, db, table, added.index.id);
    throw err;
  }
}

/** True if `spec` asks for exactly the index `existing` (columns, prefix lengths, uniqueness). */
function sameDefinition(info: TableInfo, existing: IndexInfo, spec: NamedIndexSpec): boolean {
  const columns = resolveIndexColumns(info.columns, spec);
  return existing.unique === spec.unique && existing.columns.length === columns.length
    && columns.every((c, i) => c.offset === existing.columns[i]?.offset && c.length === existing.columns[i]?.length);
}

function addPrimaryError(info: TableInfo): SqlError {
  if (info.indexes.some((ix) => ix.primary)) return SqlError.of('ER_MULTIPLE_PRI_KEY');
  return SqlError.of('ER_NOT_SUPPORTED_YET', 'ADD PRIMARY KEY to an existing table');
}

function withNewIndex(info: TableInfo, spec: NamedIndexSpec): { table: TableInfo; index: IndexInfo } {
  const columns = resolveIndexColumns(info.columns, spec);
  const taken = new Set(info.indexes.map((ix) => ix.name.toLowerCase()));
  const name = chooseIndexName(spec, columns[0]?.name ?? spec.name, taken);
  const index = makeIndex(info.maxIndexId + 1, name, columns, spec, 'writeOnly');
  const table = deepFreeze({
    ...info,
    indexes: sortIndexes([...info.indexes, index], info.columns),
    maxIndexId: index.id,
    revision: info.revision + 1,
  });
  const frozenIndex = table.indexes.find((ix) => ix.id === index.id) ?? index;
  return { table, index: frozenIndex };
}

export async function setIndexState(store: TxnStore, db: string, table: string, indexId: number, state: IndexState): Promise<void> {
  await store.update(async (txn) => {
    const info = await readTable(txn, db, table);
    if (info === undefined) throw noSuchTable(db, table);
    if (!info.indexes.some((ix) => ix.id === indexId)) throw SqlError.of('ER_UNKNOWN_ERROR', 'index was dropped during CREATE INDEX');
    const indexes = info.indexes.map((ix) => (ix.id === indexId ? { ...ix, state } : ix));
    writeTable(txn, { ...info, indexes, revision: info.revision + 1 });
    await bumpSchemaVersion(txn);
  });
}

/** Removes a half-built index (if still there) and its entries; never throws. */
export async function abandonIndex(store: TxnStore, db: string, table: string, indexId: number): Promise<void> {
  try {
    const tableId = await store.update(async (txn) => {
      const info = await readTable(txn, db, table);
      if (info === undefined || !info.indexes.some((ix) => ix.id === indexId)) return info?.id;
      writeTable(txn, { ...info, indexes: info.indexes.filter((ix) => ix.id !== indexId), revision: info.revision + 1 });
      await bumpSchemaVersion(txn);
      return info.id;
    });
    if (tableId !== undefined) await deleteIndexData(store, tableId, indexId);
  } catch {
    // Best effort: the original error is what the client must see.
  }
}

export async function dropIndex(store: TxnStore, db: string, table: string, name: string, ifExists: boolean): Promise<void> {
  const dropped = await store.update(async (txn) => {
    const info = await readTable(txn, db, table);
    if (info === undefined) throw noSuchTable(db, table);
    const index = findIndex(info, name);
    if (index === undefined) {
      if (ifExists) return undefined;
      throw SqlError.of('ER_CANT_DROP_FIELD_OR_KEY', name);
    }
    if (index.primary) throw SqlError.of('ER_NOT_SUPPORTED_YET', 'DROP PRIMARY KEY');
    const indexes = info.indexes.filter((ix) => ix.id !== index.id);
    checkAutoIncrementStillKeyed(info, indexes);
    writeTable(txn, { ...info, indexes, revision: info.revision + 1 });
    await bumpSchemaVersion(txn);
    return { tableId: info.id, indexId: index.id };
  });
  if (dropped !== undefined) await deleteIndexData(store, dropped.tableId, dropped.indexId);
}

function checkAutoIncrementStillKeyed(info: TableInfo, indexes: readonly IndexInfo[]): void {
  const auto = info.autoIncrementOffset;
  if (auto >= 0 && !indexes.some((ix) => ix.columns[0]?.offset === auto)) throw SqlError.of('ER_WRONG_AUTO_KEY');
}
