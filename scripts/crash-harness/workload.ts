/**
 * The harness's tables and its writer clients. Each writer loops until stopped (or its
 * connection dies with the server), running with unique txn ids:
 *
 *   txn  (3 in 4): BEGIN; INSERT 3 rows into t1; INSERT 2 rows into t2 (one unique tag, one
 *        NULL tag); sometimes UPDATE t1.v of an earlier transaction (moves k_v entries);
 *        UPDATE counters SET n = n + 1 for one random counter; COMMIT
 *   auto (1 in 4): one autocommit INSERT of 3 rows into t1
 *
 * and records each in the Ledger: OK => acknowledged; the connection lost while COMMIT (or the
 * autocommit statement) was in flight, or 1180 => unknown outcome; any other error => aborted
 * (the server rolls the transaction back; a lost connection before COMMIT never committed).
 */
import mysql from 'mysql2/promise';
import type { Ledger, TxnRecord } from './ledger.js';
import type { Rng } from './random.js';
import { sleep } from './random.js';

export const HARNESS_DB = 'crashh';

export const SCHEMA = [
  `CREATE TABLE t1 (id BIGINT AUTO_INCREMENT PRIMARY KEY, txn BIGINT NOT NULL, part INT NOT NULL,
     v VARCHAR(64) NOT NULL, KEY k_txn (txn), KEY k_v (v, part))`,
  `CREATE TABLE t2 (txn BIGINT NOT NULL, part INT NOT NULL, tag VARCHAR(32) NULL, amount DECIMAL(12,2) NOT NULL,
     PRIMARY KEY (txn, part), UNIQUE KEY u_tag (tag), KEY k_amount (amount))`,
  'CREATE TABLE counters (id INT PRIMARY KEY, n BIGINT NOT NULL)',
];

export const CHECKED_TABLES = ['t1', 't2', 'counters'];

export interface StopFlag {
  now: boolean;
}

export function connect(port: number, database = HARNESS_DB): Promise<mysql.Connection> {
  return mysql.createConnection({ host: '127.0.0.1', port, user: 'root', database, supportBigNumbers: true, bigNumberStrings: true });
}

/** Creates the database and tables with `counters` rows 0..counters-1 at 0. */
export async function createSchema(port: number, counters: number): Promise<void> {
  const c = await connect(port, '');
  try {
    await c.query(`CREATE DATABASE ${HARNESS_DB}`);
    await c.query(`USE ${HARNESS_DB}`);
    for (const sql of SCHEMA) await c.query(sql);
    const rows = Array.from({ length: counters }, (_, i) => `(${i}, 0)`).join(', ');
    await c.query(`INSERT INTO counters VALUES ${rows}`);
  } finally {
    await c.end();
  }
}

export interface WriterOptions {
  readonly port: number;
  readonly ledger: Ledger;
  readonly stop: StopFlag;
  readonly rng: Rng;
  readonly counters: number;
}

function isConnectionLoss(err: unknown): boolean {
  return (err as { fatal?: boolean }).fatal === true;
}

function errnoOf(err: unknown): number | undefined {
  return (err as { errno?: number }).errno;
}

/** One writer client until stopped or disconnected. */
export async function runWriter(o: WriterOptions): Promise<void> {
  const c = await connect(o.port).catch(() => undefined);
  if (c === undefined) return;
  c.on('error', () => undefined);
  const mine: number[] = [];
  try {
    while (!o.stop.now) {
      const auto = o.rng.next() < 0.25;
      const rec = o.ledger.newRecord(auto ? 'auto' : 'txn', auto ? null : o.rng.int(o.counters));
      const lost = auto ? await autoInsert(c, rec, o.ledger) : await transaction(c, rec, o, mine);
      if (lost) return;
    }
  } finally {
    c.destroy();
  }
}

/** Resolves true when the connection is gone. */
async function autoInsert(c: mysql.Connection, rec: TxnRecord, ledger: Ledger): Promise<boolean> {
  try {
    await c.query('INSERT INTO t1 (txn, part, v) VALUES (?, 1, ?), (?, 2, ?), (?, 3, ?)', [rec.id, `a${rec.id}`, rec.id, `b${rec.id}`, rec.id, `c${rec.id}`]);
    ledger.ack(rec);
    return false;
  } catch (err) {
    if (isConnectionLoss(err) || errnoOf(err) === 1180) ledger.outcomeUnknown(rec);
    else ledger.abort(rec);
    return isConnectionLoss(err);
  }
}

async function transaction(c: mysql.Connection, rec: TxnRecord, o: WriterOptions, mine: number[]): Promise<boolean> {
  let committing = false;
  try {
    await c.query('BEGIN');
    await c.query('INSERT INTO t1 (txn, part, v) VALUES (?, 1, ?), (?, 2, ?), (?, 3, ?)', [rec.id, `x${rec.id}`, rec.id, `y${rec.id}`, rec.id, `z${rec.id}`]);
    const amount = (o.rng.int(2_000_000) - 1_000_000) / 100;
    await c.query('INSERT INTO t2 (txn, part, tag, amount) VALUES (?, 1, ?, ?), (?, 2, NULL, ?)', [rec.id, `tag-${rec.id}`, amount, rec.id, -amount]);
    const earlier = mine[o.rng.int(mine.length)];
    if (earlier !== undefined && o.rng.next() < 0.3) await c.query('UPDATE t1 SET v = ? WHERE txn = ?', [`u${rec.id}`, earlier]);
    await c.query('UPDATE counters SET n = n + 1 WHERE id = ?', [rec.counter]);
    committing = true;
    await c.query('COMMIT');
    o.ledger.ack(rec);
    mine.push(rec.id);
    if (mine.length > 64) mine.shift();
    return false;
  } catch (err) {
    const lost = isConnectionLoss(err);
    if ((committing && lost) || errnoOf(err) === 1180) o.ledger.outcomeUnknown(rec);
    else o.ledger.abort(rec);
    if (!lost) await c.query('ROLLBACK').catch(() => undefined);
    return lost;
  }
}

/** Rewrites big.b of random rows (the indexed column next to a) until stopped: writers maintaining a writeOnly index. */
export async function runBigUpdater(port: number, rows: number, stop: StopFlag, rng: Rng): Promise<void> {
  const c = await connect(port).catch(() => undefined);
  if (c === undefined) return;
  c.on('error', () => undefined);
  try {
    for (let n = 0; !stop.now; n++) {
      const id = rng.int(rows);
      try {
        await c.query('UPDATE big SET b = ? WHERE id = ?', [`u${n}-${id}`, id]);
      } catch (err) {
        if (isConnectionLoss(err)) return;
      }
      await sleep(20);
    }
  } finally {
    c.destroy();
  }
}
