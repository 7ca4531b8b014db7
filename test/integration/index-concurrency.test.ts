/**
 * Secondary indexes under concurrent writers on two worker processes. Non-unique index entries
 * are written without a conflict check of their own and deleted without a tombstone (kv.ts
 * Mutation.derived): the record key they go with decides between writers. Eight clients spread
 * over `shale serve --workers 2` move rows of a table with a non-unique and a unique index
 * (autocommit increments, and transactions that lock a row, delete it and insert it again with
 * new values). Afterwards every acknowledged change is there exactly once (the sum of k) and the
 * indexes match the rows (ADMIN CHECK TABLE both ways, and a lookup of each row through each index).
 */
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { spawnedForSuite } from '../helpers/node.js';

const ROWS = 40;
const CLIENTS = 8;
const RUN_MS = 3000;

const server = spawnedForSuite('index-concurrency', ['--workers', '2']);

function connect(): Promise<mysql.Connection> {
  return mysql.createConnection({ host: '127.0.0.1', port: server().port, user: 'root', database: 'ic', supportBigNumbers: true, bigNumberStrings: true });
}

function isConflict(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { errno?: unknown }).errno === 1213;
}

/** One client until `until`: returns how many increments of k it had acknowledged. */
async function client(c: mysql.Connection, seed: number, until: number): Promise<number> {
  let acked = 0;
  let x = seed;
  const next = (n: number): number => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  while (Date.now() < until) {
    const id = next(ROWS);
    if (next(2) === 0) {
      // Autocommit: the server retries a conflict itself; one that still fails changed nothing.
      const r = await c.query('UPDATE t SET k = k + 1 WHERE id = ?', [id]).catch((err: unknown) => {
        if (isConflict(err)) return undefined;
        throw err;
      });
      acked += r === undefined ? 0 : (r[0] as mysql.ResultSetHeader).affectedRows;
      continue;
    }
    // Move the row: lock it, delete it, insert it again with k + 1 and a fresh unique u.
    try {
      await c.query('BEGIN');
      const [rows] = await c.query('SELECT k FROM t WHERE id = ? FOR UPDATE', [id]);
      const k = Number((rows as Array<{ k: string }>)[0]?.k);
      await c.query('DELETE FROM t WHERE id = ?', [id]);
      await c.query('INSERT INTO t (id, k, u) VALUES (?, ?, ?)', [id, k + 1, (id + 1) * 1_000_000 + next(1_000_000)]);
      await c.query('COMMIT');
      acked++;
    } catch (err) {
      await c.query('ROLLBACK');
      if (!isConflict(err)) throw err;
    }
  }
  return acked;
}

describe('indexes under concurrent writers on two workers', () => {
  it('every acknowledged change is there once and the indexes match the rows', async () => {
    const setup = await mysql.createConnection({ host: '127.0.0.1', port: server().port, user: 'root' });
    await setup.query('CREATE DATABASE ic');
    await setup.end();
    const admin = await connect();
    await admin.query('CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, u INT, KEY k_k (k), UNIQUE KEY u_u (u))');
    const values = Array.from({ length: ROWS }, (_, i) => `(${i}, ${i % 5}, ${i % 3 === 0 ? 'NULL' : String(i)})`);
    await admin.query(`INSERT INTO t VALUES ${values.join(', ')}`);
    const [before] = await admin.query('SELECT SUM(k) AS s FROM t');
    const start = Number((before as Array<{ s: string }>)[0]?.s);

    const conns = await Promise.all(Array.from({ length: CLIENTS }, () => connect()));
    const workers = new Set(conns.map((c) => Math.floor(c.threadId / 100_000_000)));
    expect(workers.size).toBe(2);
    const until = Date.now() + RUN_MS;
    const acked = (await Promise.all(conns.map((c, i) => client(c, i + 1, until)))).reduce((a, b) => a + b, 0);
    await Promise.all(conns.map((c) => c.end()));
    expect(acked).toBeGreaterThan(50);

    const [after] = await admin.query('SELECT SUM(k) AS s, COUNT(*) AS n FROM t');
    const row = (after as Array<{ s: string; n: string }>)[0];
    expect(Number(row?.n)).toBe(ROWS);
    expect(Number(row?.s) - start).toBe(acked);
    // Both ways: each row has its entries, each entry a row that produces it.
    await admin.query('ADMIN CHECK TABLE t');
    const [rows] = await admin.query('SELECT id, k, u FROM t ORDER BY id');
    for (const r of rows as Array<{ id: number; k: number; u: number | null }>) {
      const [viaK] = await admin.query('SELECT id FROM t WHERE k = ?', [r.k]);
      expect((viaK as Array<{ id: number }>).map((x) => x.id)).toContain(r.id);
      if (r.u === null) continue;
      const [viaU] = await admin.query('SELECT id FROM t WHERE u = ?', [r.u]);
      expect(viaU).toEqual([{ id: r.id }]);
    }
    await admin.end();
  }, 60_000);
});
