/**
 * The row rewrite of an ALTER TABLE that changes stored values (type conversion, NOT NULL,
 * a new primary key, added constraints to validate, columns whose existing-row value is not a
 * constant): inside the ALTER's own transaction, every record is decoded with the old
 * definition, converted, validated and written back with the new one, its old record and
 * index entries deleted first (all deletes before all puts, so a new key equal to another
 * row's old key survives). Bounded by the store's transaction limits; concurrent writers
 * conflict on the table definition key and retry with the new schema.
 */
import { decodeRecordKey, recordPrefix } from '../codec/index.js';
import { SqlError } from '../errors/index.js';
import type { Txn } from '../txn/types.js';
import type { Value } from '../types/index.js';
import { keyNext, prefixEnd, toHex } from '../util/index.js';
import type { Draft } from './alter-draft.js';
import type { AlterAutoIds, AlterHooks } from './alter-specs.js';
import { columnOriginValue } from './column-default.js';
import { indexEntry, indexValues } from './index-entry.js';
import { duplicateEntryText } from './key-text.js';
import { currentDateTime, decodeRecord, encodeRecordValue, recordKeyOf, rowHandle } from './record.js';
import { writableIndexes } from './schema.js';
import type { ColumnInfo, IndexInfo, TableInfo } from './types.js';

const PAGE = 1024;

export async function rewriteRows(txn: Txn, old: TableInfo, next: TableInfo, d: Draft, hooks: AlterHooks, autoIds: AlterAutoIds): Promise<void> {
  const validate = hooks.rowValidator?.(txn, next, {
    checks: d.addedChecks.filter((c) => c.enforced),
    foreignKeys: hooks.foreignKeyChecks ? d.addedForeignKeys : [],
  });
  const convert = rowConverter(old, next, d, hooks);
  const oldIndexes = writableIndexes(old);
  const newIndexes = writableIndexes(next);
  const hidden = next.handleKind === 'int' && !next.pkIsHandle;
  const deletes: Uint8Array[] = [];
  const puts: Array<[Uint8Array, Uint8Array]> = [];
  const seen = new Set<string>();
  const end = prefixEnd(recordPrefix(old.id));
  let start = recordPrefix(old.id);
  let rowNumber = 0;
  for (;;) {
    const page = await txn.scan({ start, end }, { limit: PAGE });
    for (const { key, value } of page) {
      const { handle } = decodeRecordKey(key);
      const oldRow = decodeRecord(old, handle, value);
      const row = convert(oldRow, ++rowNumber);
      const auto = next.columns[next.autoIncrementOffset];
      if (auto !== undefined && !byIdHas(old, auto.id)) row[auto.offset] = await autoIds.alloc(next.id, 1);
      if (validate !== undefined) await validate(row);
      const newHandle = hidden ? handle : rowHandle(next, row);
      deletes.push(key);
      for (const ix of oldIndexes) deletes.push(indexEntry(old, ix, oldRow, handle).key);
      const newKey = recordKeyOf(next, newHandle);
      claim(seen, newKey, () => duplicate(next, next.indexes.find((ix) => ix.primary), row));
      puts.push([newKey, encodeRecordValue(next, row)]);
      for (const ix of newIndexes) {
        const e = indexEntry(next, ix, row, newHandle);
        if (e.distinct) claim(seen, e.key, () => duplicate(next, ix, row));
        puts.push([e.key, e.value]);
      }
    }
    const last = page[page.length - 1];
    if (page.length < PAGE || last === undefined) break;
    start = keyNext(last.key);
  }
  for (const k of deletes) txn.delete(k);
  for (const [k, v] of puts) txn.put(k, v);
}

function byIdHas(table: TableInfo, id: number): boolean {
  return table.columns.some((c) => c.id === id);
}

/** Old row (old offsets) -> new row (new offsets). */
function rowConverter(old: TableInfo, next: TableInfo, d: Draft, hooks: AlterHooks): (row: readonly Value[], rowNumber: number) => Value[] {
  const byId = new Map<number, ColumnInfo>(old.columns.map((c) => [c.id, c]));
  const now = currentDateTime();
  return (oldRow, rowNumber) =>
    next.columns.map((col) => {
      const prev = byId.get(col.id);
      if (prev === undefined) {
        const origin = d.computedOrigin.has(col.id) ? null : columnOriginValue(col, now);
        return origin === null && (col.notNull || d.computedOrigin.has(col.id)) ? hooks.originValue(col) : origin;
      }
      let v = oldRow[prev.offset] ?? null;
      if (v !== null && d.converted.has(col.id)) v = hooks.convert(v, col, rowNumber);
      if (v === null && col.notNull) throw SqlError.of('ER_INVALID_USE_OF_NULL');
      return v;
    });
}

function claim(seen: Set<string>, key: Uint8Array, error: () => SqlError): void {
  const hex = toHex(key);
  if (seen.has(hex)) throw error();
  seen.add(hex);
}

function duplicate(table: TableInfo, ix: IndexInfo | undefined, row: readonly Value[]): SqlError {
  if (ix === undefined) return SqlError.of('ER_DUP_ENTRY', '?', `${table.name}.PRIMARY`);
  return SqlError.of('ER_DUP_ENTRY', duplicateEntryText(indexValues(ix, row)), `${table.name}.${ix.primary ? 'PRIMARY' : ix.name}`);
}
