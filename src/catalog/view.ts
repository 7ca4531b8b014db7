/**
 * Views: stored beside tables, in the same namespace (one definition key per name), as a
 * TableInfo without indexes or data whose `view` holds the SELECT text. The columns are the
 * view's output columns when it was created (SHOW COLUMNS, information_schema); queries plan
 * the stored SELECT afresh (sql/plan/builder-view.ts).
 */
import { SqlError } from '../errors/index.js';
import type { ColumnType } from '../types/index.js';
import type { TxnStore } from '../txn/types.js';
import { unknownDatabase } from './catalog-errors.js';
import { decodeTableInfo, encodeInfo } from './info-json.js';
import { asObject, str, strArray, type JsonObject } from './json-check.js';
import { allocGlobalId, bumpSchemaVersion, deleteTable, readDatabase, readTable, writeTable } from './meta-store.js';
import type { ColumnInfo, TableInfo } from './types.js';

export interface ViewInfo {
  /** The SELECT as written in CREATE VIEW. */
  readonly select: string;
  /** The explicit column list of CREATE VIEW v (a, b), if any. */
  readonly columns?: readonly string[];
  readonly definer: string;
}

export interface ViewSpec {
  readonly name: string;
  readonly columns: ReadonlyArray<{ readonly name: string; readonly type: ColumnType; readonly notNull: boolean }>;
  readonly view: ViewInfo;
}

export function isView(t: TableInfo): boolean {
  return t.view !== undefined;
}

/** Validates the stored `view` member of a definition. */
export function readView(v: unknown, what: string): ViewInfo {
  const o: JsonObject = asObject(v, what);
  const select = str(o, 'select', what);
  const definer = str(o, 'definer', what);
  if (o['columns'] === undefined) return { select, definer };
  return { select, definer, columns: strArray(o, 'columns', what) };
}

/** CREATE [OR REPLACE] VIEW: 1050 if the name is taken (by a table, or a view without OR REPLACE), 1347 when replacing a table. */
export async function createView(store: TxnStore, db: string, spec: ViewSpec, orReplace: boolean): Promise<void> {
  await store.update(async (txn) => {
    const dbInfo = await readDatabase(txn, db);
    if (dbInfo === undefined) throw unknownDatabase(db);
    const old = await readTable(txn, db, spec.name);
    if (old !== undefined) {
      if (!orReplace) throw SqlError.of('ER_TABLE_EXISTS_ERROR', spec.name);
      if (old.view === undefined) throw SqlError.of('ER_WRONG_OBJECT', db, spec.name, 'VIEW');
    }
    const columns: ColumnInfo[] = spec.columns.map((c, i) => ({
      id: i + 1, name: c.name, offset: i, type: c.type, notNull: c.notNull, default: { kind: 'none' },
      autoIncrement: false, onUpdateNow: false, comment: '',
    }));
    const info: TableInfo = {
      id: old?.id ?? (await allocGlobalId(txn)), dbName: db, name: spec.name, columns, indexes: [], pkIsHandle: false,
      handleKind: 'int', autoIncrementOffset: -1, maxColumnId: columns.length, maxIndexId: 0, foreignKeys: [],
      comment: 'VIEW', charset: dbInfo.charset, collation: dbInfo.collation, revision: (old?.revision ?? 0) + 1, view: spec.view,
    };
    writeTable(txn, decodeTableInfo(encodeInfo(info)));
    await bumpSchemaVersion(txn);
  });
}

/** DROP VIEW [IF EXISTS] a, b: every name checked first (1051 names the missing ones, 1347 a table). */
export async function dropViews(store: TxnStore, names: ReadonlyArray<{ db: string; name: string }>, ifExists: boolean): Promise<void> {
  await store.update(async (txn) => {
    const found: TableInfo[] = [];
    const missing: string[] = [];
    for (const n of names) {
      const t = await readTable(txn, n.db, n.name);
      if (t === undefined) missing.push(`${n.db}.${n.name}`);
      else if (t.view === undefined) throw SqlError.of('ER_WRONG_OBJECT', n.db, n.name, 'VIEW');
      else found.push(t);
    }
    if (missing.length > 0 && !ifExists) throw SqlError.of('ER_BAD_TABLE_ERROR', missing.join(','));
    for (const t of found) deleteTable(txn, t);
    if (found.length > 0) await bumpSchemaVersion(txn);
  });
}
