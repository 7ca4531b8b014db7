/** CREATE DATABASE / DROP DATABASE. */
import { SqlError } from '../errors/index.js';
import type { TxnStore } from '../txn/types.js';
import { DEFAULT_COLLATION } from '../types/index.js';
import { deleteTableData } from './data-range.js';
import {
  allocGlobalId,
  bumpSchemaVersion,
  deleteDatabase,
  deleteTable,
  readDatabase,
  readDatabaseTables,
  writeDatabase,
} from './meta-store.js';
import type { CreateDatabaseOptions } from './specs.js';
import { checkDatabaseName, defaultCollation } from './table-builder.js';
import type { DatabaseInfo, TableInfo } from './types.js';

export const DEFAULT_CHARSET = 'utf8mb4';

export async function createDatabase(store: TxnStore, name: string, opts: CreateDatabaseOptions): Promise<void> {
  checkDatabaseName(name);
  await store.update(async (txn) => {
    if ((await readDatabase(txn, name)) !== undefined) {
      if (opts.ifNotExists) return;
      throw SqlError.of('ER_DB_CREATE_EXISTS', name);
    }
    const charset = opts.charset?.toLowerCase() ?? DEFAULT_CHARSET;
    const collation = opts.collation ?? (opts.charset === undefined ? DEFAULT_COLLATION : defaultCollation(charset));
    const info: DatabaseInfo = { id: await allocGlobalId(txn), name, charset, collation };
    writeDatabase(txn, info);
    await bumpSchemaVersion(txn);
  });
}

/** Drops the database and its tables; returns the dropped tables (their data is gone too). */
export async function dropDatabase(store: TxnStore, name: string, ifExists: boolean): Promise<TableInfo[]> {
  const dropped = await store.update(async (txn) => {
    if ((await readDatabase(txn, name)) === undefined) {
      if (ifExists) return [];
      throw SqlError.of('ER_DB_DROP_EXISTS', name);
    }
    const tables = await readDatabaseTables(txn, name);
    for (const t of tables) deleteTable(txn, t);
    deleteDatabase(txn, name);
    await bumpSchemaVersion(txn);
    return tables;
  });
  for (const t of dropped) await deleteTableData(store, t.id);
  return dropped;
}
