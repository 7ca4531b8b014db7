/**
 * ADMIN CHECK TABLE, pass 2 (index entries -> records): every entry in the index's key range
 * decodes, points to an existing record (the handle in its value, or at the end of its key), and
 * that record's current values produce exactly this entry (same key and value). Entries of rows
 * that no longer exist are dangling; entries the row no longer produces are stale. One batchGet
 * of the records per page of entries.
 */
import { decodeIndexKey, decodeIndexValue, indexPrefix, type Handle } from '../../codec/index.js';
import {
  decodeRecord, indexColumnTypes, indexEntry, indexValues, recordKeyOf, type IndexInfo, type TableInfo,
} from '../../catalog/index.js';
import type { Txn } from '../../txn/index.js';
import type { ColumnType, Value } from '../../types/index.js';
import { bytesEqual, prefixEnd, toHex } from '../../util/index.js';
import type { InconsistencyReport } from './check-table-report.js';
import { CHECK_FIRST_PAGE, reasonOf, type CheckPause } from './check-table-rows.js';
import { KeyScanner, type KvPair } from './key-scanner.js';

interface Entry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
  readonly handle: Handle;
  readonly values: Value[];
}

/** Checks every entry of `index`; resolves with the number of entries. */
export async function checkIndexEntries(
  txn: Txn,
  table: TableInfo,
  index: IndexInfo,
  report: InconsistencyReport,
  cancel?: CheckPause,
): Promise<number> {
  const prefix = indexPrefix(table.id, index.id);
  const types = indexColumnTypes(table, index);
  const scanner = new KeyScanner(txn, [{ start: prefix, end: prefixEnd(prefix) }], CHECK_FIRST_PAGE);
  let count = 0;
  for (;;) {
    await cancel?.pause();
    const pairs = await scanner.next();
    if (pairs === null) return count;
    count += pairs.length;
    const entries: Entry[] = [];
    for (const p of pairs) {
      const e = decodeEntry(table, index, types, p, report);
      if (e !== null) entries.push(e);
    }
    const records = await txn.batchGet(entries.map((e) => recordKeyOf(table, e.handle)));
    entries.forEach((e, i) => checkEntry(table, index, e, records[i], report));
  }
}

function decodeEntry(table: TableInfo, index: IndexInfo, types: readonly ColumnType[], p: KvPair, report: InconsistencyReport): Entry | null {
  try {
    const owner = decodeIndexValue(p.value);
    const d = decodeIndexKey(p.key, types, owner === null ? table.handleKind : 'none');
    const handle = owner ?? d.handle;
    if (handle === undefined) throw new Error('no handle in key or value');
    return { key: p.key, value: p.value, handle, values: d.values };
  } catch (err) {
    report.undecodable(index.name, `entry 0x${toHex(p.key)}`, reasonOf(err));
    return null;
  }
}

function checkEntry(table: TableInfo, index: IndexInfo, e: Entry, record: Uint8Array | undefined, report: InconsistencyReport): void {
  if (record === undefined) {
    report.entryWithoutRow(index, e.handle, e.values, null);
    return;
  }
  let row: Value[];
  let expected: { key: Uint8Array; value: Uint8Array };
  try {
    row = decodeRecord(table, e.handle, record);
    expected = indexEntry(table, index, row, e.handle);
  } catch {
    return; // the record pass reports records that do not decode
  }
  if (bytesEqual(expected.key, e.key) && bytesEqual(expected.value, e.value)) return;
  report.entryWithoutRow(index, e.handle, e.values, indexValues(index, row));
}
