/**
 * FOUND_ROWS() after a SELECT: the number of rows it returned, or with SQL_CALC_FOUND_ROWS and
 * a LIMIT, the number it would have returned without the LIMIT (counted by a second statement,
 * `SELECT COUNT(*) FROM (the select without LIMIT)`, in the same transaction when one is open).
 */
import type { Value } from '../../types/index.js';
import type { SelectStmt } from '../parse/index.js';
import type { ExecResult } from './types.js';

/**
 * Records FOUND_ROWS() after a SELECT. Synchronous (undefined) unless SQL_CALC_FOUND_ROWS with a
 * LIMIT needs a counting query; then the returned promise settles once it ran.
 */
export function noteFoundRows(
  stmt: SelectStmt,
  result: ExecResult,
  setFoundRows: (n: bigint) => void,
  count: (q: SelectStmt) => Promise<ExecResult>,
): Promise<void> | undefined {
  if (result.kind !== 'rows') return undefined;
  const returned = BigInt(result.streamed ?? result.rows.length);
  if (stmt.calcFoundRows !== true || stmt.limit === undefined) {
    setFoundRows(returned);
    return undefined;
  }
  return countFoundRows(stmt, returned, setFoundRows, count);
}

async function countFoundRows(stmt: SelectStmt, returned: bigint, setFoundRows: (n: bigint) => void, count: (q: SelectStmt) => Promise<ExecResult>): Promise<void> {
  const inner: SelectStmt = { ...stmt, limit: undefined, calcFoundRows: false };
  const counting: SelectStmt = {
    kind: 'select', distinct: false, groupBy: [], orderBy: [],
    items: [{ kind: 'expr', expr: { kind: 'agg', name: 'COUNT', arg: null, distinct: false }, text: 'COUNT(*)' }],
    from: { kind: 'derived', query: inner, alias: '\u0000found_rows' },
  };
  try {
    const r = await count(counting);
    const v: Value = r.kind === 'rows' ? (r.rows[0]?.[0] ?? null) : null;
    setFoundRows(typeof v === 'bigint' ? v : returned);
  } catch {
    setFoundRows(returned);
  }
}
