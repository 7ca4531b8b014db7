/**
 * RENAME TABLE (several pairs, one transaction, across databases) and CREATE TABLE ... LIKE.
 * A rename only moves the definition key (the table id, so the data, stays); foreign keys of
 * other tables that reference the renamed table follow it.
 */
import { SqlError } from '../errors/index.js';
import type { Txn, TxnStore } from '../txn/types.js';
import { noSuchTable, unknownDatabase } from './catalog-errors.js';
import { hasLeadingIndex, nameChecks } from './constraints.js';
import { decodeTableInfo, encodeInfo } from './info-json.js';
import { tableKey } from './meta-keys.js';
import { allocGlobalId, bumpSchemaVersion, loadDefinitions, readDatabase, readTable, writeTable } from './meta-store.js';
import { checkTableName } from './table-builder.js';
import type { TableInfo } from './types.js';

export interface TableRef {
  readonly db: string;
  readonly name: string;
}

export async function renameTables(store: TxnStore, pairs: ReadonlyArray<{ from: TableRef; to: TableRef }>): Promise<TableInfo[]> {
  return store.update(async (txn) => {
    const renamed: TableInfo[] = [];
    for (const { from, to } of pairs) {
      const info = await readTable(txn, from.db, from.name);
      if (info === undefined) throw noSuchTable(from.db, from.name);
      renamed.push(await moveTable(txn, info, to));
    }
    await bumpSchemaVersion(txn);
    return renamed;
  });
}

/** Writes `info` under its new name (1050 if taken), deletes the old key, retargets foreign keys. */
export async function moveTable(txn: Txn, info: TableInfo, to: TableRef, changed: TableInfo = info): Promise<TableInfo> {
  checkTableName(to.name);
  if ((await readDatabase(txn, to.db)) === undefined) throw unknownDatabase(to.db);
  if ((await readTable(txn, to.db, to.name)) !== undefined) throw SqlError.of('ER_TABLE_EXISTS_ERROR', to.name);
  txn.delete(tableKey(info.dbName, info.name));
  const next = renameGeneratedNames({ ...changed, dbName: to.db, name: to.name, revision: Math.max(changed.revision, info.revision + 1) }, info.name);
  writeTable(txn, retarget(next, info, to));
  const { tables } = await loadDefinitions(txn);
  for (const t of tables) {
    if (t.id === info.id) continue;
    const moved = retarget(t, info, to);
    if (moved !== t) writeTable(txn, { ...moved, revision: t.revision + 1 });
  }
  return next;
}

/** As MySQL 8: generated constraint names (`old_ibfk_1`, `old_chk_1`) follow the table's new name. */
function renameGeneratedNames(t: TableInfo, oldName: string): TableInfo {
  if (t.name === oldName) return t;
  const rename = (name: string, kind: string): string => (name.startsWith(`${oldName}_${kind}_`) ? `${t.name}${name.slice(oldName.length)}` : name);
  const foreignKeys = t.foreignKeys.map((f) => ({ ...f, name: rename(f.name, 'ibfk') }));
  return t.checks === undefined ? { ...t, foreignKeys } : { ...t, foreignKeys, checks: t.checks.map((c) => ({ ...c, name: rename(c.name, 'chk') })) };
}

function retarget(t: TableInfo, from: TableInfo, to: TableRef): TableInfo {
  const hit = (f: TableInfo['foreignKeys'][number]): boolean => f.refDb === from.dbName && f.refTable === from.name;
  if (!t.foreignKeys.some(hit)) return t;
  return { ...t, foreignKeys: t.foreignKeys.map((f) => (hit(f) ? { ...f, refDb: to.db, refTable: to.name } : f)) };
}

/**
 * CREATE TABLE t LIKE src: the same columns, indexes and CHECK constraints (generated check
 * names renamed for t), no foreign keys, AUTO_INCREMENT restarting at 1. Null when t exists and ifNotExists.
 */
export async function createTableLike(store: TxnStore, db: string, name: string, src: TableRef, ifNotExists: boolean): Promise<TableInfo | null> {
  return store.update(async (txn) => {
    if ((await readDatabase(txn, db)) === undefined) throw unknownDatabase(db);
    const source = await readTable(txn, src.db, src.name);
    if (source === undefined) throw noSuchTable(src.db, src.name);
    if ((await readTable(txn, db, name)) !== undefined) {
      if (ifNotExists) return null;
      throw SqlError.of('ER_TABLE_EXISTS_ERROR', name);
    }
    checkTableName(name);
    const prefix = `${source.name}_chk_`;
    const checks = nameChecks(name, [], (source.checks ?? []).map((c) => (c.name.startsWith(prefix) ? { ...c, name: '' } : c)));
    const { checks: _sourceChecks, ...rest } = source;
    const copy: TableInfo = {
      ...rest,
      id: await allocGlobalId(txn),
      dbName: db,
      name,
      indexes: source.indexes.filter((ix) => ix.state === 'public'),
      foreignKeys: [],
      ...(checks.length > 0 ? { checks } : {}),
      revision: 1,
    };
    const info = decodeTableInfo(encodeInfo(copy));
    writeTable(txn, info);
    await bumpSchemaVersion(txn);
    return info;
  });
}

/**
 * After an ALTER of `old` into `next`: foreign keys of other tables referencing it follow
 * renamed columns; a dropped referenced column is 1829, and (with foreign key checks) losing
 * the index a reference needs is 1553.
 */
export async function updateChildReferences(txn: Txn, old: TableInfo, next: TableInfo, foreignKeyChecks: boolean): Promise<void> {
  const byId = new Map(next.columns.map((c) => [c.id, c.name]));
  const renamed = new Map<string, string | undefined>(old.columns.map((c) => [c.name.toLowerCase(), byId.get(c.id)]));
  const { tables } = await loadDefinitions(txn);
  for (const t of tables) {
    if (t.id === old.id) continue;
    let changed = false;
    const foreignKeys = t.foreignKeys.map((fk) => {
      if (fk.refDb !== old.dbName || fk.refTable !== old.name) return fk;
      const refColumns = fk.refColumns.map((c) => {
        const now = renamed.get(c.toLowerCase());
        if (now === undefined) throw SqlError.of('ER_FK_COLUMN_CANNOT_DROP_CHILD', c, fk.name, t.name);
        return now;
      });
      if (foreignKeyChecks && !hasLeadingIndex(next.indexes, refColumns)) {
        const lost = old.indexes.find((ix) => !next.indexes.some((n) => n.id === ix.id));
        throw SqlError.of('ER_DROP_INDEX_FK', lost?.name ?? '');
      }
      if (refColumns.every((c, i) => c === fk.refColumns[i])) return fk;
      changed = true;
      return { ...fk, refColumns };
    });
    if (changed) writeTable(txn, { ...t, foreignKeys, revision: t.revision + 1 });
  }
}
