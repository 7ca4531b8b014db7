/**
 * Cheap size estimates of a stored table for information_schema.TABLES / SHOW TABLE STATUS /
 * SHOW INDEX (MySQL's are estimates too): tables of up to SAMPLE rows are counted exactly; larger
 * ones with an integer handle are estimated from their first and last handle (dense ids), others
 * report SAMPLE. The next AUTO_INCREMENT value is known when the AUTO_INCREMENT column is the handle.
 */
import type { TableInfo } from '../../catalog/index.js';
import { decodeRecordKey, recordPrefix } from '../../codec/index.js';
import type { Txn } from '../../txn/index.js';
import { prefixEnd } from '../../util/index.js';

const SAMPLE = 1000;

export interface TableEstimate {
  readonly rows: bigint;
  /** Largest integer handle, when the table has an integer handle and rows. */
  readonly maxHandle: bigint | null;
}

export async function estimateTable(txn: Txn, table: TableInfo): Promise<TableEstimate> {
  const start = recordPrefix(table.id);
  const range = { start, end: prefixEnd(start) };
  const first = await txn.scan(range, { limit: SAMPLE });
  const int = table.handleKind === 'int';
  const handleOf = (key: Uint8Array): bigint | null => {
    const h = decodeRecordKey(key, table.handleKind).handle;
    return h.kind === 'int' ? h.value : null;
  };
  const firstPair = first[0];
  if (firstPair === undefined) return { rows: 0n, maxHandle: null };
  if (first.length < SAMPLE) {
    const last = first[first.length - 1];
    return { rows: BigInt(first.length), maxHandle: int && last !== undefined ? handleOf(last.key) : null };
  }
  if (!int) return { rows: BigInt(SAMPLE), maxHandle: null };
  const [lastPair] = await txn.scan(range, { limit: 1, reverse: true });
  const lo = handleOf(firstPair.key);
  const hi = lastPair === undefined ? null : handleOf(lastPair.key);
  if (lo === null || hi === null) return { rows: BigInt(SAMPLE), maxHandle: hi };
  const span = hi - lo + 1n;
  return { rows: span > BigInt(SAMPLE) ? span : BigInt(SAMPLE), maxHandle: hi };
}
