/**
 * ADD INDEX backfill in key order, for an index on an integer-handle table that fits the limits
 * (a unique index's entry values must have one length: not a mix of rows with and without NULL):
 * every row is read in one snapshot S and only the part of its entry key after the index prefix
 * is kept, back to back in one byte arena (entry-arena.ts; 16 bytes for an INT column of a
 * non-unique index: its memcomparable value, then the handle; for a unique index the value of the
 * entry, which holds the handle, follows the key's part; key parts of several lengths, such as
 * VARCHAR values, are padded to the longest); the arena is put in key order by a radix sort
 * (util/radix-order.ts) and the entries are written in that order in batches, each a key run
 * (kv key-run.ts) committed over the reading transaction's snapshot (Txn.commitRun: a commit of
 * its own whose conflict checks start from S; the embedded store encodes the run's keys straight
 * from the arena into its redo record and checks them with one cursor walk). Two rows with one
 * key of a unique index end the sorted build before anything is written: the range batches then
 * find the duplicate and report it (1062). On the embedded store each batch is one ascending run
 * into the index's key range: LMDB touches each leaf page once and fills it
 * (scripts/lmdb-run-splits.mjs), where entries in row order land all over the growing index and
 * every batch copies most of its leaf pages again.
 *
 * Correct for the reasons the range batches of backfill.ts are, with S as every batch's
 * snapshot: a writer that changed a row after S also wrote or deleted that row's entry key (the
 * index is writeOnly, so writers maintain it), which makes the batch carrying the entry conflict
 * (first committer wins); a writer after the batch's commit maintains the entry itself; rows
 * inserted after S carry their own entries. A conflict ends the sorted build (the batches already
 * committed hold entries that were right when they committed) and the caller goes over the table
 * in range batches, which write every entry again from fresh snapshots.
 *
 * Worked example (INT column k, table handles 1..3, rows (1, k=7), (2, k=5), (3, k=7)): arena
 * `[enc(7) enc(1)] [enc(5) enc(2)] [enc(7) enc(3)]`, radix order [1, 0, 2], entries written as
 * prefix+enc(5)+enc(2), prefix+enc(7)+enc(1), prefix+enc(7)+enc(3). A UNIQUE index on k over
 * rows (1, k=7), (2, k=5): arena `[enc(7) | val(1)] [enc(5) | val(2)]` (val(h): the entry value
 * naming handle h), order [1, 0], entries prefix+enc(5) = val(2), prefix+enc(7) = val(1); with a
 * row (3, k=7) as well, two keys enc(7) lie next to each other in the order and the range
 * batches take over (and report the 1062).
 */
import { decodeIntHandleAt, encodeIndexValue, indexPrefix, INT_HANDLE_VALUE_LEN, intHandleEntryPart } from '../codec/index.js';
import { isWriteConflict, type MappedPage, type PairMapper, type Txn, type TxnStore } from '../txn/index.js';
import { concatBytes, keyNext, radixOrder } from '../util/index.js';
import { indexColumnTypes, indexValues } from './index-entry.js';
import { EntryArena, hasEqualKeys, type PaddedEntries, type RowLimits } from './entry-arena.js';
import { decoderReadsHandle, recordColumnsDecoder } from './record.js';
import type { IndexInfo, TableInfo } from './types.js';

/** Rows a sorted build may hold (backfillSettings.sortedMaxRows lowers it; entry-arena.ts limits the bytes). */
export const SORTED_BACKFILL_MAX_ROWS = 1 << 20;

/**
 * A table whose handles span more than this many times the row limit is not tried (it most
 * likely holds too many rows, and finding out means reading them); a sparser one may be tried
 * and given up after `maxRows` rows.
 */
const SPAN_PER_ROW_LIMIT = 4;

/** Pages of `batchSize` rows read between two progress reports while the table is scanned. */
const SCAN_PAGES_PER_REPORT = 16;

/** Batches committing at once: the next batch is buffered while the last one commits and syncs. */
const IN_FLIGHT = 2;

/**
 * 'done': every row's entry is written. 'unsorted': nothing was written (a common-handle table,
 * entry values of several lengths, two rows with one key of a unique index, or over the limits).
 * 'conflict': a batch
 * met a concurrent write (earlier batches may be written). `progress` is told the rows written
 * after each batch, and (rows 0, total undefined) now and then while the table is read; it may
 * throw to stop the build, as may a commit.
 */
export async function sortedBackfill(
  store: TxnStore,
  table: TableInfo,
  index: IndexInfo,
  range: { start: Uint8Array; end: Uint8Array },
  batchSize: number,
  maxRows: number,
  progress: (rowsDone: number, rowsTotal: number | undefined) => void,
): Promise<'done' | 'unsorted' | 'conflict'> {
  if (table.handleKind !== 'int' || maxRows <= 0) return 'unsorted';
  const txn = await store.begin();
  try {
    const span = await handleSpan(txn, range);
    if (span > SPAN_PER_ROW_LIMIT * maxRows) return 'unsorted';
    const rows = { max: maxRows, expected: Math.min(span, maxRows) };
    const entries = (await readEntries(txn, table, index, range, batchSize, rows, () => progress(0, undefined)))?.padded();
    if (entries === undefined) return 'unsorted';
    const order = radixOrder(entries.records, entries.width + entries.valueWidth, entries.count);
    if (index.unique && hasEqualKeys(entries, order)) return 'unsorted';
    return await writeInOrder(txn, entries, order, batchSize, progress);
  } finally {
    txn.rollback();
  }
}

/** Last handle - first handle + 1 of the table's records (0 when it has none). */
async function handleSpan(txn: Txn, range: { start: Uint8Array; end: Uint8Array }): Promise<number> {
  const [first] = await txn.scan(range, { limit: 1 });
  const [last] = await txn.scan(range, { limit: 1, reverse: true });
  if (first === undefined || last === undefined) return 0;
  const handle = (key: Uint8Array): bigint => decodeIntHandleAt(key, 0, key.length);
  return Number(handle(last.key) - handle(first.key)) + 1;
}

/** Reads the table at `txn`'s snapshot into an arena; undefined as soon as it cannot be sorted this way. */
async function readEntries(
  txn: Txn,
  table: TableInfo,
  index: IndexInfo,
  range: { start: Uint8Array; end: Uint8Array },
  pageSize: number,
  rows: RowLimits,
  scanning: () => void,
): Promise<EntryArena | undefined> {
  const arena = new EntryArena(indexPrefix(table.id, index.id), rows);
  const entryOf = entryPartMapper(table, index);
  // Each row's entry part goes into the arena as the scan maps it: no page of entries is kept.
  let fits = true;
  const appendRow: PairMapper<boolean> = (key, ks, ke, value, vs, ve) => {
    if (!fits) return false;
    const part = entryOf(key, ks, ke, value, vs, ve);
    return (fits = arena.append(part.bytes, part.valueLength));
  };
  let start: Uint8Array | undefined = range.start;
  for (let pages = 1; start !== undefined; pages++) {
    const page: MappedPage<boolean> = await txn.scanMapped({ start, end: range.end }, { limit: pageSize }, appendRow);
    if (!fits) return undefined;
    // A long scan still reports (and so notices KILL QUERY), without a report per page.
    if (pages % SCAN_PAGES_PER_REPORT === 0) scanning();
    start = page.lastKey === undefined ? undefined : keyNext(page.lastKey);
  }
  return arena;
}

/** An entry part as the arena takes it: the key's part after the index prefix, then `valueLength` bytes of value. */
interface EntryPart {
  bytes: Uint8Array;
  valueLength: number;
}

/**
 * Record of an int-handle table (at offsets in the store's memory) -> the part of its index
 * entry the arena keeps (codec entry-part.ts): a non-unique index's entries all have the same
 * value, which the run carries once, so only a unique index's entry parts carry their value.
 * The handle is decoded only when an indexed column is the PK; `bytes` is valid until the next call.
 */
function entryPartMapper(table: TableInfo, index: IndexInfo): PairMapper<EntryPart> {
  const offsets = index.columns.map((c) => c.offset);
  const decode = recordColumnsDecoder(table, offsets);
  const readsHandle = decoderReadsHandle(table, offsets);
  const types = indexColumnTypes(table, index);
  const out: EntryPart = { bytes: new Uint8Array(0), valueLength: 0 };
  return (key, ks, ke, value, vs, ve) => {
    const handle = readsHandle ? { kind: 'int' as const, value: decodeIntHandleAt(key, ks, ke) } : UNREAD_HANDLE;
    const values = indexValues(index, decode(handle, value, vs, ve));
    const distinct = index.unique && !values.includes(null);
    const part = intHandleEntryPart(values, types, distinct, key, ks, ke);
    if (distinct) {
      out.bytes = part;
      out.valueLength = INT_HANDLE_VALUE_LEN;
    } else if (index.unique) {
      // A row with NULL in a unique index: a non-distinct entry, whose one-byte value goes along.
      out.bytes = concatBytes([part, encodeIndexValue(null)]);
      out.valueLength = 1;
    } else {
      out.bytes = part;
      out.valueLength = 0;
    }
    return out;
  };
}

/** What the decoder is given when decoderReadsHandle says it will not read it. */
const UNREAD_HANDLE = Object.freeze({ kind: 'int' as const, value: 0n });

/** Commits the arena's entries in `order`, `batchSize` a batch, IN_FLIGHT at once, each a key run committed over `txn`'s snapshot. */
async function writeInOrder(
  txn: Txn,
  arena: PaddedEntries,
  order: Uint32Array,
  batchSize: number,
  progress: (rowsDone: number, rowsTotal: number | undefined) => void,
): Promise<'done' | 'conflict'> {
  const value = encodeIndexValue(null);
  const inFlight: Array<Promise<void>> = [];
  let written = 0;
  let conflict = false;
  try {
    for (let at = 0; at < arena.count && !conflict; at += batchSize) {
      const end = Math.min(arena.count, at + batchSize);
      // The keys of one index's entries are distinct and, in radix order, ascending.
      const { prefix, records, width, valueWidth } = arena;
      const run = { prefix, records, width, valueWidth, ...(arena.lengths === undefined ? {} : { lengths: arena.lengths }), order, from: at, to: end, value };
      const done = txn.commitRun(run).then(
        () => {
          written += end - at;
          progress(written, arena.count);
        },
        (err: unknown) => {
          if (!isWriteConflict(err)) throw err;
          conflict = true;
        },
      );
      done.catch(() => undefined); // awaited in turn below
      inFlight.push(done);
      if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
    }
    while (inFlight.length > 0) await inFlight.shift();
  } finally {
    // A failed batch ends the build: let the others settle before the snapshot is released.
    await Promise.allSettled(inFlight);
  }
  return conflict ? 'conflict' : 'done';
}
