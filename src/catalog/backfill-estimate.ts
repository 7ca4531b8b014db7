/**
 * The row total a backfill reports progress against, without a counting pass over the table
 * when the handles are integers: the first and last record keys give the handle span
 * [lo, hi], and after each batch the total is extrapolated from how much of the span the rows
 * done so far covered (rowsDone * span / covered). For dense handles (AUTO_INCREMENT ids) that
 * is exact from the start; for sparse ones it converges as the backfill proceeds. Tables with
 * common handles are counted once, as before.
 */
import { decodeRecordKey } from '../codec/index.js';
import type { Txn, TxnStore } from '../txn/types.js';
import { keyNext } from '../util/index.js';
import type { TableInfo } from './types.js';

interface Range {
  readonly start: Uint8Array;
  readonly end: Uint8Array;
}

/** rowsTotal after `rowsDone` rows, the last of them at record key `lastKey` (undefined: none yet). */
export type RowTotal = (rowsDone: number, lastKey: Uint8Array | undefined) => number;

export async function rowTotalEstimator(store: TxnStore, table: TableInfo, range: Range): Promise<RowTotal> {
  return store.view(async (txn) => {
    const [first] = await txn.scan(range, { limit: 1 });
    if (first === undefined) return () => 0;
    if (table.handleKind !== 'int') {
      const counted = await countRows(txn, range);
      return (rowsDone) => Math.max(counted, rowsDone);
    }
    const [last] = await txn.scan(range, { limit: 1, reverse: true });
    const lo = intHandle(first.key);
    const span = Number(intHandle((last ?? first).key) - lo) + 1;
    return (rowsDone, lastKey) => {
      if (lastKey === undefined || rowsDone === 0) return span;
      const covered = Number(intHandle(lastKey) - lo) + 1;
      return Math.max(rowsDone, covered >= span ? rowsDone : Math.round((rowsDone * span) / covered));
    };
  });
}

function intHandle(key: Uint8Array): bigint {
  const { handle } = decodeRecordKey(key, 'int');
  return handle.kind === 'int' ? handle.value : 0n;
}

const COUNT_PAGE = 8192;

async function countRows(txn: Txn, range: Range): Promise<number> {
  let n = 0;
  let start = range.start;
  for (;;) {
    const pairs = await txn.scan({ start, end: range.end }, { limit: COUNT_PAGE });
    n += pairs.length;
    const last = pairs[pairs.length - 1];
    if (pairs.length < COUNT_PAGE || last === undefined) return n;
    start = keyNext(last.key);
  }
}
