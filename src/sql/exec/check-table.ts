/**
 * ADMIN CHECK TABLE (as in TiDB): verifies, in one snapshot, that the records of a table and the
 * entries of each of its public secondary indexes agree exactly, both ways:
 *
 *   1. every record decodes and has, in every index, exactly the entry its values produce
 *      (check-table-rows.ts);
 *   2. every entry in each index's key range points to an existing record whose current values
 *      produce exactly that entry: no dangling or stale entries (check-table-index.ts).
 *
 * Together: a one-to-one match of rows and entries per index. Both passes page through the key
 * ranges with KeyScanner and batch their point reads. Indexes still being built (writeOnly) are
 * skipped; the PRIMARY key has no entries of its own (the record key is the handle).
 * Inconsistencies raise ER_DATA_INCONSISTENT (8134) naming the first few (check-table-report.ts).
 */
import type { IndexInfo, TableInfo } from '../../catalog/index.js';
import type { Txn } from '../../txn/index.js';
import { checkIndexEntries } from './check-table-index.js';
import { InconsistencyReport } from './check-table-report.js';
import { checkRecords, type CheckPause } from './check-table-rows.js';

export type { CheckPause } from './check-table-rows.js';

export interface CheckTableResult {
  readonly records: number;
  /** Entries per checked index name. */
  readonly entries: ReadonlyMap<string, number>;
}

/** The indexes ADMIN CHECK TABLE verifies. */
export function checkedIndexes(table: TableInfo): readonly IndexInfo[] {
  return table.indexes.filter((ix) => ix.state === 'public' && !ix.primary);
}

/** Checks `table` as of `txn`'s snapshot (and its own writes); throws 8134 on any inconsistency. */
export async function checkTable(txn: Txn, table: TableInfo, cancel?: CheckPause): Promise<CheckTableResult> {
  const indexes = checkedIndexes(table);
  const report = new InconsistencyReport(table);
  const records = await checkRecords(txn, table, indexes, report, cancel);
  const entries = new Map<string, number>();
  for (const index of indexes) entries.set(index.name, await checkIndexEntries(txn, table, index, report, cancel));
  report.throwIfAny();
  return { records, entries };
}
