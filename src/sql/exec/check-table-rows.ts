/**
 * ADMIN CHECK TABLE, pass 1 (records -> index entries): every record decodes, and for every
 * checked index the key its values produce (catalog's indexEntry, exactly what the writers put)
 * is present with exactly the expected value (the row's handle for distinct entries). One
 * batchGet per page of records covers every index.
 */
import { decodeIndexValue, decodeRecordKey, recordPrefix, type Handle } from '../../codec/index.js';
import { decodeRecord, indexEntry, indexValues, type IndexInfo, type TableInfo } from '../../catalog/index.js';
import type { Txn } from '../../txn/index.js';
import type { Value } from '../../types/index.js';
import { bytesEqual, prefixEnd, toHex } from '../../util/index.js';
import { handleText, valuesText, type InconsistencyReport } from './check-table-report.js';
import { KeyScanner, type KvPair } from './key-scanner.js';

/** First page size; KeyScanner doubles it up to MAX_BATCH. */
export const CHECK_FIRST_PAGE = 256;

/** Lets a long check give up (KILL QUERY) and yield the event loop between pages. */
export interface CheckPause {
  pause(): Promise<void> | null;
}

interface Expected {
  readonly index: IndexInfo;
  readonly handle: Handle;
  readonly row: readonly Value[];
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/** Checks every record of `table` against `indexes`; resolves with the number of records. */
export async function checkRecords(
  txn: Txn,
  table: TableInfo,
  indexes: readonly IndexInfo[],
  report: InconsistencyReport,
  cancel?: CheckPause,
): Promise<number> {
  const prefix = recordPrefix(table.id);
  const scanner = new KeyScanner(txn, [{ start: prefix, end: prefixEnd(prefix) }], CHECK_FIRST_PAGE);
  let records = 0;
  for (;;) {
    await cancel?.pause();
    const pairs = await scanner.next();
    if (pairs === null) return records;
    records += pairs.length;
    const expected: Expected[] = [];
    for (const p of pairs) expectEntries(table, indexes, p, report, expected);
    if (expected.length === 0) continue;
    const stored = await txn.batchGet(expected.map((e) => e.key));
    expected.forEach((e, i) => {
      const got = stored[i];
      if (got !== undefined && bytesEqual(got, e.value)) return;
      report.rowWithoutEntry(e.index, e.handle, indexValues(e.index, e.row), got === undefined ? '' : foundText(table, e, got));
    });
  }
}

/** Decodes one record and appends the entry each index should have for it. */
function expectEntries(table: TableInfo, indexes: readonly IndexInfo[], p: KvPair, report: InconsistencyReport, out: Expected[]): void {
  let handle: Handle;
  try {
    handle = decodeRecordKey(p.key, table.handleKind).handle;
  } catch (err) {
    report.undecodable('(record)', `record key 0x${toHex(p.key)}`, reasonOf(err));
    return;
  }
  let row: Value[];
  try {
    row = decodeRecord(table, handle, p.value);
  } catch (err) {
    report.undecodable('(record)', `record of handle ${handleText(table, handle)}`, reasonOf(err));
    return;
  }
  for (const index of indexes) {
    try {
      const e = indexEntry(table, index, row, handle);
      out.push({ index, handle, row, key: e.key, value: e.value });
    } catch (err) {
      report.undecodable(index.name, `entry of handle ${handleText(table, handle)}`, reasonOf(err));
    }
  }
}

/** The stored entry under the expected key holds another value: name the row it points to. */
function foundText(table: TableInfo, e: Expected, got: Uint8Array): string {
  const values = valuesText(e.index, indexValues(e.index, e.row));
  try {
    const owner = decodeIndexValue(got);
    return owner === null ? `${values} without a handle` : `${values} of handle ${handleText(table, owner)}`;
  } catch (err) {
    return `${values} with an undecodable value 0x${toHex(got)} (${reasonOf(err)})`;
  }
}

export function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
