/**
 * FOUND_ROWS() after a SELECT: the number of rows it returned, or with SQL_CALC_FOUND_ROWS and
 * a LIMIT, the number it would have returned without the LIMIT (counted by a second statement,
 * `SELECT COUNT(*) FROM (the select without LIMIT)`, in the same transaction when one is open).
 */
import type { Value } from '../../types/index.js';
import type { SelectStmt } from '../parse/index.js';
import type { ExecResult } from './types.js';

export async function noteFoundRows(
  stmt: SelectStmt,
  result: ExecResult,
  setFoundRows: (n: bigint) => void,
  count: (q: SelectStmt) => Promise<ExecResult>,
): Promise<void> {
  if (result.kind !== 'rows') return;
  const returned = BigInt(result.streamed ?? result.rows.length);
  if (stmt.calcFoundRows !== true || stmt.limit === undefined) {
    setFoundRows(returned);
    return;
  }
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
