/**
 * `shale serve --workers 2`: two SQL processes share one port and one embedded store. Connections
 * land on both workers in turn; DDL, data, AUTO_INCREMENT and write conflicts behave as in one
 * process; commits go through the primary and each client reads its own writes at once; KILL and
 * PROCESSLIST reach the other worker's connections.
 */
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { removeDir, spawnedForSuite, spawnNode, tempDir } from '../helpers/node.js';

const server = spawnedForSuite('workers', ['--workers', '2']);

function connect(database?: string): Promise<mysql.Connection> {
  return mysql.createConnection({ host: '127.0.0.1', port: server().port, user: 'root', ...(database ? { database } : {}) });
}

/** The worker serving `c` (connection ids are in disjoint ranges per worker). */
function workerOf(c: mysql.Connection): number {
  return Math.floor(c.threadId / 100_000_000);
}

/** How many of `conns` each worker serves. */
function connectionsPerWorker(conns: readonly mysql.Connection[]): number[] {
  const perWorker = new Map<number, number>();
  for (const c of conns) {
    const w = workerOf(c);
    perWorker.set(w, (perWorker.get(w) ?? 0) + 1);
  }
  return [...perWorker.values()];
}

/** Opens connections until both workers (connection ids in disjoint ranges) are represented. */
async function connectionsOnBothWorkers(database: string): Promise<mysql.Connection[]> {
  const conns: mysql.Connection[] = [];
  const workers = new Set<number>();
  for (let i = 0; i < 20 && workers.size < 2; i++) {
    const c = await connect(database);
    conns.push(c);
    workers.add(workerOf(c));
  }
  expect(workers.size).toBe(2);
  return conns;
}

/** A new database and connections to it on both workers: `a` on one, `b` on the other. */
async function pairOnTwoWorkers(database: string): Promise<{ conns: mysql.Connection[]; a: mysql.Connection; b: mysql.Connection }> {
  const admin = await connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const conns = await connectionsOnBothWorkers(database);
  const a = conns[0]!;
  return { conns, a, b: conns.find((c) => workerOf(c) !== workerOf(a))! };
}

describe('--workers 2', () => {
  it('shares schema, data and AUTO_INCREMENT across worker processes', async () => {
    const admin = await connect();
    await admin.query('CREATE DATABASE wdb');
    await admin.end();
    const conns = await connectionsOnBothWorkers('wdb');
    const [first] = conns;
    await first!.query('CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, w INT, n INT NOT NULL DEFAULT 0)');
    await first!.query('INSERT INTO t (w) VALUES (0)');
    // Every connection (on either worker) sees the new table and row, and inserts more rows.
    await Promise.all(
      conns.map(async (c, i) => {
        for (let k = 0; k < 20; k++) await c.query('INSERT INTO t (w) VALUES (?), (?)', [i, i]);
      }),
    );
    const [rows] = await first!.query('SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM t');
    expect(rows).toEqual([{ n: 1 + conns.length * 40, ids: 1 + conns.length * 40 }]);
    // Concurrent autocommit increments of one row from both workers are all applied exactly once.
    await Promise.all(conns.map(async (c) => {
      for (let k = 0; k < 25; k++) await c.query('UPDATE t SET n = n + 1 WHERE id = 1');
    }));
    const [counter] = await first!.query('SELECT n FROM t WHERE id = 1');
    expect(counter).toEqual([{ n: conns.length * 25 }]);
    // A CREATE INDEX on one worker is used by the other.
    await first!.query('CREATE INDEX w_idx ON t (w)');
    const other = conns[conns.length - 1]!;
    const [plan] = await other.query('EXPLAIN SELECT id FROM t WHERE w = 1');
    expect(JSON.stringify(plan)).toContain('w_idx');
    for (const c of conns) await c.end();
  }, 60_000);

  it('a generated id that meets a row another worker inserted by hand takes a fresh id, not the row', async () => {
    const { conns, a, b } = await pairOnTwoWorkers('wids');
    await a.query('CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10))');
    // a's worker reserves a block of ids starting at 1; b's worker then stores id 3 by hand.
    await a.query("INSERT INTO t (v) VALUES ('a1')");
    await b.query("INSERT INTO t (id, v) VALUES (3, 'b3')");
    await a.query("INSERT INTO t (v) VALUES ('a2')");
    // Generates 3, finds it taken at commit, drops its block and runs again with a fresh id.
    const [res] = await a.query<mysql.ResultSetHeader>("INSERT INTO t (v) VALUES ('a3')");
    expect(res.insertId).toBeGreaterThan(3);
    const [rows] = await b.query<mysql.RowDataPacket[]>('SELECT id, v FROM t ORDER BY id');
    expect(rows).toEqual([
      { id: 1, v: 'a1' },
      { id: 2, v: 'a2' },
      { id: 3, v: 'b3' },
      { id: res.insertId, v: 'a3' },
    ]);
    // Inside an explicit transaction the statement cannot run again: COMMIT answers 1062.
    await b.query('INSERT INTO t (id, v) VALUES (?, ?)', [res.insertId + 1, 'b-next']);
    await a.query('BEGIN');
    await a.query("INSERT INTO t (v) VALUES ('in txn')");
    await expect(a.query('COMMIT')).rejects.toMatchObject({ errno: 1062, message: `Duplicate entry '${res.insertId + 1}' for key 't.PRIMARY'` });
    const [after] = await b.query<mysql.RowDataPacket[]>('SELECT v FROM t WHERE id = ?', [res.insertId + 1]);
    expect(after).toEqual([{ v: 'b-next' }]);
    for (const c of conns) await c.end();
  }, 60_000);

  it("a statement sees every commit another worker acknowledged before it (no stale read txn)", async () => {
    const { conns, a, b } = await pairOnTwoWorkers('vdb');
    await a.query('CREATE TABLE v (id INT PRIMARY KEY, n INT)');
    await a.query('INSERT INTO v VALUES (1, 0)');
    // lmdb-js kept a read transaction current for ~1 ms after it was renewed; a worker reading
    // right after the other's COMMIT returned saw the old row in ~3 % of these rounds.
    const stale: number[] = [];
    for (let i = 1; i <= 600; i++) {
      await b.query('UPDATE v SET n = ? WHERE id = 1', [i]);
      const [rows] = await a.query('SELECT n FROM v WHERE id = 1');
      if ((rows as Array<{ n: number }>)[0]?.n !== i) stale.push(i);
    }
    expect(stale).toEqual([]);
    for (const c of conns) await c.end();
  }, 60_000);

  it('KILL and PROCESSLIST reach the connections of the other worker', async () => {
    const { conns, a, b } = await pairOnTwoWorkers('kdb');
    await a.query('CREATE TABLE s (id INT PRIMARY KEY)');
    await a.query(`INSERT INTO s VALUES ${Array.from({ length: 300 }, (_, i) => `(${i})`).join(', ')}`);
    const slow = 'SELECT COUNT(*) AS n FROM s x, s y, s z';
    const running = a.query(slow).then(() => undefined, (err: unknown) => err);
    await new Promise((r) => setTimeout(r, 300));
    const [shown] = await b.query('SHOW FULL PROCESSLIST');
    expect((shown as Array<{ Id: number }>).map((r) => r.Id)).toEqual(expect.arrayContaining(conns.map((c) => c.threadId)));
    expect(shown).toContainEqual(expect.objectContaining({ Id: a.threadId, Command: 'Query', Info: slow }));
    const [viaSchema] = await b.query('SELECT ID, INFO FROM information_schema.PROCESSLIST WHERE ID = ?', [a.threadId]);
    expect(viaSchema).toEqual([{ ID: a.threadId, INFO: slow }]);
    await b.query(`KILL QUERY ${a.threadId}`);
    expect(await running).toMatchObject({ errno: 1317 });
    // KILL [CONNECTION] closes it; an id that no worker has is 1094.
    await b.query(`KILL ${a.threadId}`);
    let gone = false;
    for (let i = 0; i < 30 && !gone; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const [ids] = await b.query('SELECT ID FROM information_schema.PROCESSLIST');
      gone = !(ids as Array<{ ID: number }>).some((r) => r.ID === a.threadId);
    }
    expect(gone).toBe(true);
    expect(await b.query('KILL 99999999').catch((err: unknown) => err)).toMatchObject({ errno: 1094 });
    for (const c of conns) if (c !== a) await c.end();
    a.destroy();
  }, 60_000);

  it('deals a burst of connections out evenly, and a client sees its own commit at once', async () => {
    const conns = await Promise.all(Array.from({ length: 8 }, () => connect()));
    expect(connectionsPerWorker(conns)).toEqual([4, 4]);
    const [first] = conns;
    await first!.query('CREATE DATABASE IF NOT EXISTS ryw');
    await first!.query('CREATE TABLE ryw.t (id INT PRIMARY KEY, v INT)');
    // Commits go to the primary; each connection's next statement must see its own write.
    await Promise.all(
      conns.map(async (c, i) => {
        for (let k = 0; k < 30; k++) {
          const id = i * 1000 + k;
          await c.query('INSERT INTO ryw.t VALUES (?, ?)', [id, k]);
          const [rows] = await c.query('SELECT v FROM ryw.t WHERE id = ?', [id]);
          expect(rows).toEqual([{ v: k }]);
        }
      }),
    );
    for (const c of conns) await c.end();
  }, 60_000);

  it('at start-up, holds connections until every worker is ready, so a pool opened at once is spread', async () => {
    const dir = tempDir('workers-startup');
    // Resolves at the first worker's "listening": the other may still be starting.
    const fresh = await spawnNode(dir, ['--workers', '2'], {}, { listeners: 1 });
    try {
      const conns = await Promise.all(
        Array.from({ length: 8 }, () => mysql.createConnection({ host: '127.0.0.1', port: fresh.port, user: 'root' })),
      );
      expect(connectionsPerWorker(conns)).toEqual([4, 4]);
      for (const c of conns) await c.end();
    } finally {
      await fresh.stop();
      removeDir(dir);
    }
  }, 60_000);

  it('SIGTERM stops the primary once connections were handed to the workers', async () => {
    const dir = tempDir('workers-stop');
    const node = await spawnNode(dir, ['--workers', '2']);
    try {
      for (let i = 0; i < 4; i++) {
        const c = await mysql.createConnection({ host: '127.0.0.1', port: node.port, user: 'root' });
        await c.query('SELECT 1');
        await c.end();
      }
      const exited = node.stop().then(() => 'exited');
      const verdict = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running after 20 s'), 20_000))]);
      expect(verdict).toBe('exited');
    } finally {
      await node.kill();
      removeDir(dir);
    }
  }, 40_000);
});
