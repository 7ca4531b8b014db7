/**
 * ALTER TABLE: every action applied to one draft of the definition, validated, then written
 * in ONE transaction with one schema version bump (and, when stored values change, the row
 * rewrite of alter-rewrite.ts in the same transaction). An ALTER that only adds secondary
 * indexes takes the online CREATE INDEX path instead: the indexes are published writeOnly,
 * backfilled batch by batch, then made public (abandoned together on failure).
 */
import type { TxnStore } from '../txn/types.js';
import { finishDraft, needsRewrite, startDraft } from './alter-draft.js';
import { applyAction } from './alter-apply.js';
import { rewriteRows } from './alter-rewrite.js';
import type { AlterAction, AlterAutoIds, AlterHooks } from './alter-specs.js';
import { backfillIndex, type BackfillProgress } from './backfill.js';
import { noSuchTable } from './catalog-errors.js';
import { checkParent } from './constraints.js';
import { deleteIndexData } from './data-range.js';
import { abandonIndex, setIndexState } from './ddl-index.js';
import { moveTable, updateChildReferences } from './ddl-rename.js';
import { decodeTableInfo, encodeInfo } from './info-json.js';
import { bumpSchemaVersion, readTable, writeTable } from './meta-store.js';
import type { TableInfo } from './types.js';
import { recordColumnsDecoder } from './record.js';
import { decodeRecordKey, recordPrefix } from '../codec/index.js';
import { keyNext, prefixEnd } from '../util/index.js';

export interface AlterOutcome {
  readonly table: TableInfo;
  /** AUTO_INCREMENT = n given: the caller rebases the allocator. */
  readonly autoIncrement?: bigint;
}

export async function alterTable(
  store: TxnStore,
  db: string,
  name: string,
  actions: readonly AlterAction[],
  hooks: AlterHooks,
  autoIds: AlterAutoIds,
  progress?: BackfillProgress,
): Promise<AlterOutcome> {
  const r = await store.update(async (txn) => {
    const info = await readTable(txn, db, name);
    if (info === undefined) throw noSuchTable(db, name);
    const d = startDraft(info);
    for (const a of actions) applyAction(d, a);
    const rewrite = needsRewrite(d, hooks.foreignKeyChecks);
    const online = !rewrite && d.onlyAddsIndexes && d.indexes.some((ix) => ix.id === 0);
    const next = decodeTableInfo(encodeInfo(finishDraft(d, online ? 'writeOnly' : 'public')));
    if (hooks.foreignKeyChecks) {
      for (const fk of d.addedForeignKeys) {
        const self = fk.refDb === next.dbName && fk.refTable === next.name;
        checkParent(fk, self ? next : await readTable(txn, fk.refDb, fk.refTable));
      }
    }
    if (rewrite) await rewriteRows(txn, info, next, d, hooks, autoIds);
    if (!d.onlyAddsIndexes) await updateChildReferences(txn, info, next, hooks.foreignKeyChecks);
    const moved = next.dbName !== info.dbName || next.name !== info.name;
    const written = moved ? await moveTable(txn, info, { db: next.dbName, name: next.name }, next) : next;
    if (!moved) writeTable(txn, next);
    await bumpSchemaVersion(txn);
    const added = online ? next.indexes.filter((ix) => ix.id > info.maxIndexId) : [];
    return { table: written, dropped: [...d.droppedIndexIds], added, autoIncrement: d.autoIncrement, newAuto: newAutoColumn(info, next) };
  });
  if (r.newAuto !== undefined) await autoIds.rebase(r.table.id, await maxValue(store, r.table, r.newAuto));
  for (const id of r.dropped) await deleteIndexData(store, r.table.id, id);
  if (r.added.length > 0) await buildIndexes(store, r.table, r.added.map((ix) => ix.id), progress);
  return r.autoIncrement === undefined ? { table: r.table } : { table: r.table, autoIncrement: r.autoIncrement };
}

/** Offset of an AUTO_INCREMENT column the ALTER added or made AUTO_INCREMENT: the counter moves past its values. */
function newAutoColumn(old: TableInfo, next: TableInfo): number | undefined {
  const col = next.columns[next.autoIncrementOffset];
  if (col === undefined) return undefined;
  const before = old.columns.find((c) => c.id === col.id);
  return before !== undefined && before.autoIncrement ? undefined : col.offset;
}

/** The largest value of the integer column at `offset` (0 when none). */
async function maxValue(store: TxnStore, table: TableInfo, offset: number): Promise<bigint> {
  return store.view(async (txn) => {
    const decode = recordColumnsDecoder(table, [offset]);
    const end = prefixEnd(recordPrefix(table.id));
    let start = recordPrefix(table.id);
    let max = 0n;
    for (;;) {
      const page = await txn.scan({ start, end }, { limit: 1024 });
      for (const { key, value } of page) {
        const v = decode(decodeRecordKey(key).handle, value)[offset];
        if (typeof v === 'bigint' && v > max) max = v;
      }
      const last = page[page.length - 1];
      if (page.length < 1024 || last === undefined) return max;
      start = keyNext(last.key);
    }
  });
}

async function buildIndexes(store: TxnStore, table: TableInfo, ids: readonly number[], progress?: BackfillProgress): Promise<void> {
  try {
    for (const id of ids) {
      const index = table.indexes.find((ix) => ix.id === id);
      if (index !== undefined) await backfillIndex(store, table, index, undefined, progress);
    }
    for (const id of ids) await setIndexState(store, table.dbName, table.name, id, 'public');
  } catch (err) {
    for (const id of ids) await abandonIndex(store, table.dbName, table.name, id);
    throw err;
  }
}
