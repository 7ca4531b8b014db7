/** CREATE TABLE / DROP TABLE / TRUNCATE TABLE. */
import { SqlError } from '../errors/index.js';
import type { Txn, TxnStore } from '../txn/types.js';
import { noSuchTable, unknownDatabase } from './catalog-errors.js';
import { checkParent } from './constraints.js';
import { deleteTableData } from './data-range.js';
import { decodeTableInfo, deepFreeze, encodeInfo } from './info-json.js';
import { autoIdKey } from './meta-keys.js';
import { allocGlobalId, bumpSchemaVersion, deleteTable, loadDefinitions, readDatabase, readTable, writeCounter, writeTable } from './meta-store.js';
import type { TableSpec } from './specs.js';
import { buildTableInfo } from './table-builder.js';
import type { TableInfo } from './types.js';

/** The new table, or null when it exists and `ifNotExists` (the caller adds note 1050). */
export async function createTable(store: TxnStore, db: string, spec: TableSpec, ifNotExists: boolean, foreignKeyChecks = true): Promise<TableInfo | null> {
  return store.update(async (txn) => {
    const dbInfo = await readDatabase(txn, db);
    if (dbInfo === undefined) throw unknownDatabase(db);
    if ((await readTable(txn, db, spec.name)) !== undefined) {
      if (ifNotExists) return null;
      throw SqlError.of('ER_TABLE_EXISTS_ERROR', spec.name);
    }
    // Through JSON and back: a validated, frozen copy sharing nothing with the caller's spec.
    const info = decodeTableInfo(encodeInfo(buildTableInfo(dbInfo, spec, await allocGlobalId(txn))));
    if (foreignKeyChecks) {
      for (const fk of info.foreignKeys) {
        const self = fk.refDb === info.dbName && fk.refTable === info.name;
        checkParent(fk, self ? info : await readTable(txn, fk.refDb, fk.refTable));
      }
    }
    writeTable(txn, info);
    if (spec.autoIncrementStart !== undefined && spec.autoIncrementStart > 1n) {
      writeCounter(txn, autoIdKey(info.id), spec.autoIncrementStart);
    }
    await bumpSchemaVersion(txn);
    return info;
  });
}

/** Drops the table and deletes its data; returns the dropped definition (undefined if absent and ifExists). */
/**
 * Drops the table and deletes its data; returns the dropped definition (undefined if absent and ifExists).
 * With foreign key checks, a table referenced by another table's foreign key is 3730 unless
 * that table is dropped by the same statement (`alsoDropped`, "db.name" keys).
 */
export async function dropTable(
  store: TxnStore, db: string, name: string, ifExists: boolean, fkChecks?: { readonly alsoDropped: ReadonlySet<string> },
): Promise<TableInfo | undefined> {
  const dropped = await store.update(async (txn) => {
    const info = await readTable(txn, db, name);
    if (info === undefined) {
      if (ifExists) return undefined;
      throw SqlError.of('ER_BAD_TABLE_ERROR', `${db}.${name}`);
    }
    if (fkChecks !== undefined) await checkNotReferenced(txn, info, fkChecks.alsoDropped);
    deleteTable(txn, info);
    await bumpSchemaVersion(txn);
    return info;
  });
  if (dropped !== undefined) await deleteTableData(store, dropped.id);
  return dropped;
}

async function checkNotReferenced(txn: Txn, info: TableInfo, alsoDropped: ReadonlySet<string>): Promise<void> {
  const { tables } = await loadDefinitions(txn);
  for (const t of tables) {
    if (t.id === info.id || alsoDropped.has(`${t.dbName}.${t.name}`)) continue;
    const fk = t.foreignKeys.find((f) => f.refDb === info.dbName && f.refTable === info.name);
    if (fk !== undefined) throw SqlError.of('ER_FK_CANNOT_DROP_PARENT', info.name, fk.name, t.name);
  }
}

/**
 * TRUNCATE as in TiDB: the table gets a new id (so its key space is empty and AUTO_INCREMENT
 * restarts at 1), then the old id's data is range-deleted. Returns [old, new] definitions.
 */
export async function truncateTable(store: TxnStore, db: string, name: string): Promise<[TableInfo, TableInfo]> {
  const pair = await store.update(async (txn): Promise<[TableInfo, TableInfo]> => {
    const old = await readTable(txn, db, name);
    if (old === undefined) throw noSuchTable(db, name);
    const fresh = deepFreeze({ ...old, id: await allocGlobalId(txn), revision: old.revision + 1 });
    txn.delete(autoIdKey(old.id));
    writeTable(txn, fresh);
    await bumpSchemaVersion(txn);
    return [old, fresh];
  });
  await deleteTableData(store, pair[0].id);
  return pair;
}
