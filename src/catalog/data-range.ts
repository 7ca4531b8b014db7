/**
 * Removal of data no schema refers to any more (after DROP TABLE / DROP INDEX / TRUNCATE /
 * a failed ADD INDEX), outside any transaction via Store.deleteRange, like TiDB's delete-range.
 */
import { indexPrefix, tablePrefix } from '../codec/index.js';
import type { TxnStore } from '../txn/types.js';
import { prefixEnd } from '../util/index.js';

/** Every record and index entry of table `tableId`. */
export async function deleteTableData(store: TxnStore, tableId: number): Promise<void> {
  const prefix = tablePrefix(tableId);
  await store.kv.deleteRange({ start: prefix, end: prefixEnd(prefix) });
}

/** Every entry of one index. */
export async function deleteIndexData(store: TxnStore, tableId: number, indexId: number): Promise<void> {
  const prefix = indexPrefix(tableId, indexId);
  await store.kv.deleteRange({ start: prefix, end: prefixEnd(prefix) });
}
