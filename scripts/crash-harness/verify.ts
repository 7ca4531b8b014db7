/**
 * Checks after each restart, against the Ledger:
 *   - every acknowledged transaction is there with all its rows (t1 and t2);
 *   - every transaction id found has all of its rows or none (no partial transaction), and is
 *     one the clients ran and did not see rejected;
 *   - unknown outcomes are resolved by presence (and must stay that way in later cycles);
 *   - each counters row equals the number of committed transactions that incremented it;
 *   - ADMIN CHECK TABLE passes on every table.
 * Returns the violations found (empty = pass).
 */
import type mysql from 'mysql2/promise';
import { expectedRows, type Ledger } from './ledger.js';

export interface DataCheck {
  readonly violations: string[];
  readonly resolved: { committed: number; aborted: number };
  readonly t1Rows: number;
}

async function countsByTxn(c: mysql.Connection, table: string): Promise<Map<number, number>> {
  const [rows] = await c.query(`SELECT txn, COUNT(*) AS n FROM ${table} GROUP BY txn`);
  return new Map((rows as Array<{ txn: string; n: string | number }>).map((r) => [Number(r.txn), Number(r.n)]));
}

export async function verifyData(c: mysql.Connection, ledger: Ledger, maxReported = 20): Promise<DataCheck> {
  const violations: string[] = [];
  const report = (v: string): void => {
    if (violations.length < maxReported) violations.push(v);
    else if (violations.length === maxReported) violations.push('... (more violations not listed)');
  };
  const t1 = await countsByTxn(c, 't1');
  const t2 = await countsByTxn(c, 't2');
  const ids = new Set([...t1.keys(), ...t2.keys()]);
  for (const id of ids) {
    const rec = ledger.committed.get(id)?.rec ?? ledger.unknown.get(id) ?? ledger.aborted.get(id);
    if (rec === undefined) {
      report(`txn ${id}: rows present but no client ran it`);
      continue;
    }
    if (ledger.aborted.has(id)) report(`txn ${id} (${rec.kind}): was rejected or resolved as not committed, but ${t1.get(id) ?? 0}+${t2.get(id) ?? 0} rows are visible`);
    const want = expectedRows(rec.kind);
    const got = { t1: t1.get(id) ?? 0, t2: t2.get(id) ?? 0 };
    if (got.t1 !== want.t1 || got.t2 !== want.t2) report(`txn ${id} (${rec.kind}): partial: t1 ${got.t1}/${want.t1} rows, t2 ${got.t2}/${want.t2} rows`);
  }
  for (const [id, { rec, acked }] of ledger.committed) {
    if (!ids.has(id)) report(`txn ${id} (${rec.kind}, ${acked ? 'acknowledged' : 'found after an earlier restart'}): lost, no rows`);
  }
  const resolved = ledger.resolveUnknown((id) => ids.has(id));
  const expected = ledger.expectedCounters();
  const [rows] = await c.query('SELECT id, n FROM counters ORDER BY id');
  for (const r of rows as Array<{ id: number; n: string | number }>) {
    const want = expected.get(Number(r.id)) ?? 0;
    if (Number(r.n) !== want) report(`counters ${r.id}: n = ${r.n}, committed increments = ${want}`);
  }
  let t1Rows = 0;
  for (const n of t1.values()) t1Rows += n;
  return { violations, resolved, t1Rows };
}

/** ADMIN CHECK TABLE on each table; a failure becomes a violation with the server's message. */
export async function adminCheck(c: mysql.Connection, tables: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const t of tables) {
    try {
      await c.query(`ADMIN CHECK TABLE ${t}`);
    } catch (err) {
      out.push(`ADMIN CHECK TABLE ${t}: ${(err as Error).message}`);
    }
  }
  return out;
}
