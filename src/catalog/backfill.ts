/**
 * ADD INDEX backfill. While the index is 'writeOnly' (writers maintain it, readers ignore it),
 * the table's records are scanned in batches, each batch in its own transaction (retried on
 * conflict by TxnStore.update): decode the indexed columns of each row, write its index entry.
 *
 * Stale rows: the batch does NOT lock the record keys it read. Every writer that commits after
 * the index became writeOnly maintains it (writers lock the table definition, so one holding an
 * older schema cannot commit after the DDL), and a change of a row whose entry E the batch
 * writes either leaves E as it is (same key and value: the batch's write is still right) or
 * deletes / rewrites E's key. Such a write after the batch's snapshot makes the batch's put of
 * E conflict at commit (first committer wins on every written key), so the batch re-runs on a
 * fresh snapshot instead of writing an entry for a stale row; rows inserted after the snapshot
 * are unseen and carry their own entries. Unique indexes check every distinct entry against
 * what is already there (and within the batch): a different handle => 1062.
 */
import { decodeIndexValue, decodeRecordKey, type Handle, recordPrefix } from '../codec/index.js';
import { SqlError } from '../errors/index.js';
import type { Txn, TxnStore } from '../txn/types.js';
import { bytesEqual, keyNext, prefixEnd, toHex } from '../util/index.js';
import { indexEntry, indexValues } from './index-entry.js';
import { duplicateEntryText } from './key-text.js';
import { recordColumnsDecoder } from './record.js';
import type { Value } from '../types/index.js';
import type { IndexInfo, TableInfo } from './types.js';

export const BACKFILL_BATCH = 8192;

/** Rows per backfill transaction (tests lower it to exercise several batches). */
export const backfillSettings = { batchSize: BACKFILL_BATCH };

interface PendingEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
  readonly distinct: boolean;
  readonly handle: Handle;
  readonly row: Value[];
}

/** Where a backfill stands; `rowsTotal` was counted at the start (rows inserted since are not in it). */
export interface BackfillStatus {
  readonly table: string;
  readonly index: string;
  readonly rowsDone: number;
  readonly rowsTotal: number;
}

/** Told before the first batch and after each one; throwing (e.g. KILL QUERY) abandons the index. */
export type BackfillProgress = (status: BackfillStatus) => void;

/** Writes the entries of `index` for every existing row of `table`. Throws 1062 on duplicates. */
export async function backfillIndex(
  store: TxnStore,
  table: TableInfo,
  index: IndexInfo,
  batchSize = backfillSettings.batchSize,
  progress?: BackfillProgress,
): Promise<void> {
  const prefix = recordPrefix(table.id);
  const end = prefixEnd(prefix);
  const rowsTotal = progress === undefined ? 0 : await countRows(store, { start: prefix, end });
  let rowsDone = 0;
  const report = (): void => progress?.({ table: table.name, index: index.name, rowsDone, rowsTotal: Math.max(rowsTotal, rowsDone) });
  report();
  let start: Uint8Array | undefined = prefix;
  while (start !== undefined) {
    const from: Uint8Array = start;
    const batch = await store.update((txn) => backfillBatch(txn, table, index, { start: from, end }, batchSize));
    start = batch.next;
    rowsDone += batch.rows;
    report();
  }
}

/** Rows in the record range (one read-only pass; only run when progress is reported). */
async function countRows(store: TxnStore, range: { start: Uint8Array; end: Uint8Array }): Promise<number> {
  return store.view(async (txn) => {
    let n = 0;
    let start = range.start;
    for (;;) {
      const pairs = await txn.scan({ start, end: range.end }, { limit: COUNT_PAGE });
      n += pairs.length;
      const last = pairs[pairs.length - 1];
      if (pairs.length < COUNT_PAGE || last === undefined) return n;
      start = keyNext(last.key);
    }
  });
}

const COUNT_PAGE = 8192;

/** One batch: the rows it indexed and where the next batch starts (undefined when the table is done). */
async function backfillBatch(
  txn: Txn,
  table: TableInfo,
  index: IndexInfo,
  range: { start: Uint8Array; end: Uint8Array },
  limit: number,
): Promise<{ rows: number; next: Uint8Array | undefined }> {
  const pairs = await txn.scan(range, { limit });
  const decode = recordColumnsDecoder(table, index.columns.map((c) => c.offset));
  const entries: PendingEntry[] = new Array<PendingEntry>(pairs.length);
  for (let i = 0; i < pairs.length; i++) {
    const { key, value } = pairs[i] as { key: Uint8Array; value: Uint8Array };
    const { handle } = decodeRecordKey(key);
    const row = decode(handle, value);
    const e = indexEntry(table, index, row, handle);
    entries[i] = { key: e.key, value: e.value, distinct: e.distinct, handle, row };
  }
  await checkUnique(txn, table, index, entries);
  for (const e of entries) txn.put(e.key, e.value);
  const last = pairs[pairs.length - 1];
  return { rows: pairs.length, next: pairs.length < limit || last === undefined ? undefined : keyNext(last.key) };
}

async function checkUnique(txn: Txn, table: TableInfo, index: IndexInfo, entries: readonly PendingEntry[]): Promise<void> {
  const distinct = entries.filter((e) => e.distinct);
  if (distinct.length === 0) return;
  const existing = await txn.batchGet(distinct.map((e) => e.key));
  const inBatch = new Map<string, Handle>();
  distinct.forEach((e, i) => {
    const hex = toHex(e.key);
    const stored = existing[i];
    const owner = stored !== undefined ? decodeIndexValue(stored) : inBatch.get(hex);
    if (owner !== undefined && (owner === null || !sameHandle(owner, e.handle))) throw duplicateError(table, index, e);
    inBatch.set(hex, e.handle);
  });
}

function duplicateError(table: TableInfo, index: IndexInfo, e: PendingEntry): SqlError {
  return SqlError.of('ER_DUP_ENTRY', duplicateEntryText(indexValues(index, e.row)), `${table.name}.${index.name}`);
}

export function sameHandle(a: Handle, b: Handle): boolean {
  if (a.kind === 'int') return b.kind === 'int' && a.value === b.value;
  return b.kind === 'common' && bytesEqual(a.encoded, b.encoded);
}
