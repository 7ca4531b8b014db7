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
import { decodeIndexValue, decodeIntHandleAt, decodeRecordKey, type Handle, recordPrefix } from '../codec/index.js';
import { SqlError } from '../errors/index.js';
import { isWriteConflict, type PairMapper, type Txn, type TxnStore } from '../txn/index.js';
import { bytesEqual, compareBytes, copyBytes, keyNext, prefixEnd, toHex } from '../util/index.js';
import { rowTotalEstimator } from './backfill-estimate.js';
import { SORTED_BACKFILL_MAX_ROWS, sortedBackfill } from './sorted-backfill.js';
import { indexEntry, indexValues } from './index-entry.js';
import { duplicateEntryText } from './key-text.js';
import { recordColumnsDecoder } from './record.js';
import type { Value } from '../types/index.js';
import type { IndexInfo, TableInfo } from './types.js';

export const BACKFILL_BATCH = 8192;

/**
 * Rows per backfill transaction, and the most rows a build sorts in memory (sorted-backfill.ts);
 * tests lower them to exercise several batches and either way of building.
 */
export const backfillSettings = { batchSize: BACKFILL_BATCH, sortedMaxRows: SORTED_BACKFILL_MAX_ROWS };

/** An entry to write; a unique index's entries keep what the duplicate check and its 1062 need. */
interface PendingEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
  readonly distinct: boolean;
  readonly handle?: Handle;
  readonly row?: Value[];
}

/** A distinct entry of a unique index: checked against the stored entries and the batch. */
type CheckedEntry = Required<PendingEntry>;

function isChecked(e: PendingEntry): e is CheckedEntry {
  if (!e.distinct) return false;
  // Only a unique index has distinct entries, and entryMapper keeps both for those.
  if (e.handle === undefined || e.row === undefined) throw new Error('backfill: a distinct index entry without its handle and row');
  return true;
}

/**
 * Where a backfill stands. `rowsTotal` is estimated (backfill-estimate.ts): exact for dense
 * integer handles and for common-handle tables (counted at the start; rows inserted since are
 * not in it), extrapolated from the handle span otherwise.
 */
export interface BackfillStatus {
  readonly table: string;
  readonly index: string;
  readonly rowsDone: number;
  readonly rowsTotal: number;
}

/** Told before the first batch and after each one; throwing (e.g. KILL QUERY) abandons the index. */
export type BackfillProgress = (status: BackfillStatus) => void;

/** Batches committing at once: the next batch's scan overlaps the last one's commit and log sync. */
const IN_FLIGHT = 2;

/**
 * Writes the entries of `index` for every existing row of `table`. Throws 1062 on duplicates.
 *
 * An index on an integer-handle table of up to `backfillSettings.sortedMaxRows` rows is built in
 * key order from one snapshot (sorted-backfill.ts); any other (a common-handle table, a unique
 * index whose rows mix NULLs and values or hold a duplicate, which is reported from here), or
 * one a concurrent write interrupts there, is gone over in range batches, each read and written
 * in its own transaction. Range batches overlap: as soon
 * as a batch has read its rows (and so knows where the next one starts), the next one begins
 * while it commits, up to IN_FLIGHT at once; otherwise the scan and the entries' encoding wait
 * for every batch's commit and fsync. Batches cover disjoint key ranges, so they write
 * different entries of a non-unique index; two entries of a unique
 * index with the same key from overlapping batches conflict at commit, and the retried batch,
 * reading on a fresh snapshot, finds the other's entry (1062).
 */
export async function backfillIndex(
  store: TxnStore,
  table: TableInfo,
  index: IndexInfo,
  batchSize = backfillSettings.batchSize,
  progress?: BackfillProgress,
): Promise<void> {
  const prefix = recordPrefix(table.id);
  const end = prefixEnd(prefix);
  const rowsTotal = progress === undefined ? undefined : await rowTotalEstimator(store, table, { start: prefix, end });
  let rowsDone = 0;
  let lastKey: Uint8Array | undefined;
  const report = (finished: boolean): void => {
    if (progress === undefined || rowsTotal === undefined) return;
    progress({ table: table.name, index: index.name, rowsDone, rowsTotal: finished ? rowsDone : rowsTotal(rowsDone, lastKey) });
  };
  report(false);
  const sorted = await sortedBackfill(store, table, index, { start: prefix, end }, batchSize, backfillSettings.sortedMaxRows, (done, total) => {
    rowsDone = done;
    if (total === undefined) report(false); // still reading the table
    // The last batch is reported as the end (report(true) below), as in the range batches.
    else if (progress !== undefined && done < total) progress({ table: table.name, index: index.name, rowsDone: done, rowsTotal: total });
  });
  if (sorted === 'done') {
    report(true);
    return;
  }
  rowsDone = 0; // the range batches start over
  const inFlight: Array<Promise<void>> = [];
  let start: Uint8Array | undefined = prefix;
  try {
    while (start !== undefined) {
      const batch = startBatch(store, table, index, { start, end }, batchSize);
      const done = batch.committed.then((b) => {
        rowsDone += b.rows;
        // Batches may finish out of order: progress follows the furthest one.
        if (b.lastKey !== undefined && (lastKey === undefined || compareBytes(b.lastKey, lastKey) > 0)) lastKey = b.lastKey;
        if (b.next !== undefined) report(false);
      });
      // Awaited in turn below; until then a failure must not count as unhandled.
      done.catch(() => undefined);
      inFlight.push(done);
      start = await batch.scanned;
      if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
    }
    while (inFlight.length > 0) await inFlight.shift();
    report(true);
  } finally {
    // A failed batch ends the backfill: let the others settle before the caller abandons the index.
    await Promise.allSettled(inFlight);
  }
}

interface BatchResult {
  readonly rows: number;
  readonly next: Uint8Array | undefined;
  readonly lastKey: Uint8Array | undefined;
}

/**
 * Attempts of a batch at one size before its range is split in halves: under a steady write
 * load every row of a large batch is another chance that a writer changes it between the
 * batch's read and its commit, so a batch of 8,192 rows can keep conflicting where its halves
 * (a quarter of the chance each, read and committed in half the time) get through.
 */
const ATTEMPTS_BEFORE_SPLIT = 4;
/** Batches are not split below this many rows (those are retried as TxnStore.update does). */
const MIN_SPLIT_ROWS = 64;

/**
 * One batch in its own transaction (retried on conflict by TxnStore.update). `scanned`
 * resolves with where the next batch starts once the first attempt has read its rows;
 * `committed` once the batch is durable. A retry covers exactly the range the first attempt
 * did, [start, next): rows inserted into it since carry their own entries (writers maintain a
 * writeOnly index), and a limit could leave out one that was there before. After
 * ATTEMPTS_BEFORE_SPLIT conflicts that range is covered in batches of half the rows instead
 * (coverRange), which split again the same way.
 */
function startBatch(
  store: TxnStore,
  table: TableInfo,
  index: IndexInfo,
  range: { start: Uint8Array; end: Uint8Array },
  limit: number,
): { scanned: Promise<Uint8Array | undefined>; committed: Promise<BatchResult> } {
  let fixed: BatchResult | undefined;
  let announce!: (next: Uint8Array | undefined) => void;
  let fail!: (err: unknown) => void;
  const scanned = new Promise<Uint8Array | undefined>((resolve, reject) => {
    announce = resolve;
    fail = reject;
  });
  const committed = store
    .update(async (txn) => {
      if (fixed !== undefined) {
        const rows = await backfillRange(txn, table, index, { start: range.start, end: fixed.next ?? range.end }, limit);
        return { ...fixed, rows };
      }
      const first = await backfillBatch(txn, table, index, range, limit);
      fixed = first;
      announce(first.next);
      return first;
    }, limit > MIN_SPLIT_ROWS ? ATTEMPTS_BEFORE_SPLIT - 1 : undefined)
    .catch(async (err: unknown) => {
      if (!isWriteConflict(err) || fixed === undefined || limit <= MIN_SPLIT_ROWS) throw err;
      const rows = await coverRange(store, table, index, { start: range.start, end: fixed.next ?? range.end }, limit >> 1);
      return { ...fixed, rows };
    });
  committed.catch((err: unknown) => fail(err));
  return { scanned, committed };
}

/** Every row of `range` in batches of `limit` rows, one after another (a split batch); returns how many. */
async function coverRange(store: TxnStore, table: TableInfo, index: IndexInfo, range: { start: Uint8Array; end: Uint8Array }, limit: number): Promise<number> {
  let rows = 0;
  let start: Uint8Array | undefined = range.start;
  while (start !== undefined) {
    const batch = startBatch(store, table, index, { start, end: range.end }, limit);
    batch.scanned.catch(() => undefined); // its failure is committed's, awaited here
    const done = await batch.committed;
    rows += done.rows;
    start = done.next;
  }
  return rows;
}

/** Every row of `range` (a retried batch), in pages of `pageSize`; returns how many. */
async function backfillRange(txn: Txn, table: TableInfo, index: IndexInfo, range: { start: Uint8Array; end: Uint8Array }, pageSize: number): Promise<number> {
  let rows = 0;
  let start: Uint8Array | undefined = range.start;
  while (start !== undefined) {
    const batch = await backfillBatch(txn, table, index, { start, end: range.end }, pageSize);
    rows += batch.rows;
    start = batch.next;
  }
  return rows;
}

/** One batch: the rows it indexed and where the next batch starts (undefined when the table is done). */
async function backfillBatch(
  txn: Txn,
  table: TableInfo,
  index: IndexInfo,
  range: { start: Uint8Array; end: Uint8Array },
  limit: number,
): Promise<BatchResult> {
  // Records are decoded where the store keeps them (scanMapped): only the indexed columns are
  // copied out, and each entry is built before the next record is read.
  const page = await txn.scanMapped(range, { limit }, entryMapper(table, index));
  const entries = page.items;
  if (index.unique) await checkUnique(txn, table, index, entries);
  // Each row has one entry, and batches cover disjoint rows: every key is new to the transaction.
  for (const e of entries) txn.putNew(e.key, e.value);
  // A full page carries its last key (the next batch starts past it); a short one ends the table.
  const next = page.lastKey === undefined ? undefined : keyNext(page.lastKey);
  return { rows: entries.length, next, lastKey: page.lastKey };
}

/** Record (at offsets in the store's memory) -> its index entry, with what a 1062 message needs. */
function entryMapper(table: TableInfo, index: IndexInfo): PairMapper<PendingEntry> {
  const decode = recordColumnsDecoder(table, index.columns.map((c) => c.offset));
  return (key, ks, ke, value, vs, ve) => {
    const handle: Handle =
      table.handleKind === 'int'
        ? { kind: 'int', value: decodeIntHandleAt(key, ks, ke) }
        : decodeRecordKey(copyBytes(key, ks, ke), 'common').handle;
    const row = decode(handle, value, vs, ve);
    const e = indexEntry(table, index, row, handle);
    // A batch's entries live until its commit: keep no more of them than needed (less to copy
    // in each young-generation GC, less promoted).
    return index.unique ? { key: e.key, value: e.value, distinct: e.distinct, handle, row } : e;
  };
}

async function checkUnique(txn: Txn, table: TableInfo, index: IndexInfo, entries: readonly PendingEntry[]): Promise<void> {
  const distinct = entries.filter(isChecked);
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

function duplicateError(table: TableInfo, index: IndexInfo, e: CheckedEntry): SqlError {
  return SqlError.of('ER_DUP_ENTRY', duplicateEntryText(indexValues(index, e.row)), `${table.name}.${index.name}`);
}

export function sameHandle(a: Handle, b: Handle): boolean {
  if (a.kind === 'int') return b.kind === 'int' && a.value === b.value;
  return b.kind === 'common' && bytesEqual(a.encoded, b.encoded);
}
