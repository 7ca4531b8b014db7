/**
 * One bank client: transfers between random accounts over its own connection until the run ends,
 * recording each outcome in the ledger, and reconnecting after a connection error.
 *
 * A transfer is BEGIN; SELECT ... FOR UPDATE of both accounts; two UPDATEs; INSERT of the transfer
 * row; COMMIT. When the source balance is below the amount the client rolls back (no overdrafts),
 * so a negative balance at the end is a consistency failure.
 */
import type { SqlConnection } from './bank-connect.js';
import { classifyError, type ErrorInfo } from './bank-errors.js';
import type { Attempt, Ledger } from './bank-ledger.js';
import { ID_STRIDE } from './bank-options.js';
import type { Random } from './bank-random.js';
import { affectedRows, parseAccountRows, type Transfer } from './bank-rows.js';
import { TABLES } from './bank-schema.js';

/** A transfer between two distinct random accounts, of 1..max(1, initial/5). */
export function randomTransfer(rng: Random, id: number, accounts: number, initial: bigint): Transfer {
  const src = rng.below(accounts);
  const dst = (src + 1 + rng.below(accounts - 1)) % accounts;
  const cap = initial / 5n > 1n ? initial / 5n : 1n;
  const max = cap > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(cap);
  return { id, src, dst, amount: BigInt(1 + rng.below(max)) };
}

/** A statement result the checker did not expect (the server answered OK but wrongly). */
class Anomaly extends Error {}

function expectOneRow(result: unknown, what: string): void {
  const n = affectedRows(result);
  if (n !== 1) throw new Anomaly(`${what}: expected 1 affected row, got ${String(n)}`);
}

/** Runs one transfer and says what is known about its outcome. */
export async function attemptTransfer(conn: SqlConnection, t: Transfer, onAnomaly: (m: string) => void): Promise<Attempt> {
  let commitSent = false;
  try {
    await conn.query('BEGIN');
    const rows = parseAccountRows(
      await conn.query(`SELECT id, balance FROM ${TABLES.accounts} WHERE id IN (?, ?) FOR UPDATE`, [t.src, t.dst]),
    );
    const src = rows.find((r) => r.id === t.src);
    if (rows.length !== 2 || src === undefined || !rows.some((r) => r.id === t.dst)) {
      throw new Anomaly(`SELECT ... FOR UPDATE of accounts ${t.src}, ${t.dst} returned ids [${rows.map((r) => r.id).join(', ')}]`);
    }
    if (src.balance < t.amount) {
      await conn.query('ROLLBACK');
      return { kind: 'skipped', reason: 'insufficient' };
    }
    const amount = t.amount.toString();
    expectOneRow(
      await conn.query(`UPDATE ${TABLES.accounts} SET balance = balance - ${amount} WHERE id = ?`, [t.src]),
      `UPDATE of account ${t.src}`,
    );
    expectOneRow(
      await conn.query(`UPDATE ${TABLES.accounts} SET balance = balance + ${amount} WHERE id = ?`, [t.dst]),
      `UPDATE of account ${t.dst}`,
    );
    expectOneRow(
      await conn.query(`INSERT INTO ${TABLES.transfers} (id, src, dst, amount) VALUES (?, ?, ?, ${amount})`, [t.id, t.src, t.dst]),
      `INSERT of transfer ${t.id}`,
    );
    commitSent = true;
    await conn.query('COMMIT');
    return { kind: 'acknowledged' };
  } catch (err) {
    if (err instanceof Anomaly) {
      onAnomaly(`transfer ${t.id}: ${err.message}`);
      const failed = await rollback(conn);
      return failed === undefined ? { kind: 'skipped', reason: 'anomaly' } : { kind: 'unknown', code: failed.code, commitSent: false };
    }
    const info = classifyError(err);
    if (!info.server) return { kind: 'unknown', code: info.code, commitSent };
    // 1180 "Got error … during COMMIT": the server itself cannot tell whether the commit landed.
    if (info.errno === ER_ERROR_DURING_COMMIT) {
      await rollback(conn);
      return { kind: 'unknown', code: info.code, commitSent };
    }
    // The server refused a statement (or the COMMIT) with an ERR packet: not applied.
    const failed = await rollback(conn);
    return { kind: 'rejected', code: info.code, usable: failed === undefined };
  }
}

const ER_ERROR_DURING_COMMIT = 1180;

/** Sends ROLLBACK; returns what went wrong, if anything. */
async function rollback(conn: SqlConnection): Promise<ErrorInfo | undefined> {
  try {
    await conn.query('ROLLBACK');
    return undefined;
  } catch (err) {
    return classifyError(err);
  }
}

/** Whether the connection can be reused after this attempt. */
function usable(a: Attempt): boolean {
  return a.kind === 'acknowledged' || (a.kind === 'rejected' && a.usable) || (a.kind === 'skipped' && a.reason === 'insufficient');
}

export interface ClientContext {
  readonly index: number;
  readonly accounts: number;
  readonly initial: bigint;
  readonly rng: Random;
  readonly ledger: Ledger;
  /** Time (Date.now()) at which the client stops starting transfers. */
  readonly deadline: number;
  /** Opens a connection, retrying until the deadline; undefined if none could be opened. */
  readonly connect: () => Promise<SqlConnection | undefined>;
}

/** Transfers until the deadline. Never throws for database errors. */
export async function runClient(ctx: ClientContext): Promise<void> {
  let conn: SqlConnection | undefined;
  let connections = 0;
  try {
    for (let seq = 1; seq < ID_STRIDE && Date.now() < ctx.deadline; seq++) {
      if (conn === undefined) {
        conn = await ctx.connect();
        if (conn === undefined) break;
        if (connections++ > 0) ctx.ledger.reconnects++;
      }
      const t = randomTransfer(ctx.rng, ctx.index * ID_STRIDE + seq, ctx.accounts, ctx.initial);
      const a = await attemptTransfer(conn, t, (m) => ctx.ledger.anomaly(m));
      ctx.ledger.record(t, a);
      if (!usable(a)) {
        conn.close();
        conn = undefined;
      }
    }
  } finally {
    conn?.close();
  }
}
